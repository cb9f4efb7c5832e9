//! The flags, and the [`GemmSpec`] they describe.

use crate::error::GemmError;
use clap::{Parser, ValueEnum};
use gemm_gen::{Dim, Epilogue, GemmSpec, GmLayout, SwizzleDirection, TileOrder, Tiles};
use layout_algebra::ascend::{ElementType, Target};
use std::path::PathBuf;

/// What to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Emit {
    /// The layout-dialect kernel (verified).
    Mlir,
    /// AscendC C++ (`layout-lower-to-ascendc` + `--emit=ascendc`).
    Ascendc,
    /// The AscendC LLVM form (`--emit=ascendc-llvm`).
    AscendcLlvm,
}

#[derive(Debug, Parser)]
#[command(name = "layout-gemm", version, about = "Generate a multi-core GEMM kernel in the layout dialect")]
pub struct Args {
    /// M: a positive integer, or `?` for an `index` argument.
    #[arg(long, default_value = "?")]
    pub m: String,
    #[arg(long, default_value = "?")]
    pub n: String,
    #[arg(long, default_value = "?")]
    pub k: String,
    /// A's and B's element type (f16, bf16, f32, i8).
    #[arg(long, default_value = "f16")]
    pub dtype: String,
    /// C's element type (default: the accumulator's, f32 or i32).
    #[arg(long)]
    pub out: Option<String>,
    /// A's layout in GM: ND (row-major), DN (column-major) or NZ.
    #[arg(long, default_value = "ND")]
    pub a: String,
    #[arg(long, default_value = "ND")]
    pub b: String,
    /// ReLU in the Fixpipe.
    #[arg(long)]
    pub relu: bool,
    /// DEQF16 scale of an i32 → f16 store.
    #[arg(long)]
    pub scale: Option<f32>,
    /// a2 (Atlas A2/A3) or a5 (Ascend 950).
    #[arg(long, default_value = "a2")]
    pub target: String,
    /// L1 M, N, K and L0 K, and the stages: `m1,n1,k1,k0[,stages]` (default: chosen by the
    /// cost model, see --tune-for; stages 2 runs layout-multi-buffer on the kernel).
    #[arg(long)]
    pub tiles: Option<String>,
    /// `linear`, or `swizzle:OFFSET[:zn|:nz]` (catlass GemmIdentityBlockSwizzle direction 0 / 1).
    /// Default: linear, or, when the tiles are tuned, the order the cost model prefers.
    #[arg(long)]
    pub order: Option<String>,
    /// Buffers per streamed operand when the tiles are chosen (1, or 2 = double-buffered L1 and
    /// L0A/L0B); default: the tuner tries both, the untuned default is 2.
    #[arg(long)]
    pub stages: Option<i64>,
    /// Split-K: cut K into at most S chunks, each (C tile, chunk) a task whose store adds into C
    /// (atomic add; C must be zero when the kernel starts). Default: 1 with --tiles, else the
    /// tuner's choice.
    #[arg(long, value_name = "S")]
    pub split_k: Option<i64>,
    /// Choose the tiles with the cost model for these sizes (`M,N,K`; default: the static
    /// sizes, needed when any is dynamic). Ignored with --tiles.
    #[arg(long, value_name = "M,N,K")]
    pub tune_for: Option<String>,
    /// Blocks the tiles are chosen for (default: the target's cube cores).
    #[arg(long)]
    pub cores: Option<i64>,
    /// Print the ranking of the tiles (as comments before the kernel).
    #[arg(long)]
    pub explain: bool,
    /// With --explain: every candidate, not the 12 fastest.
    #[arg(long)]
    pub explain_all: bool,
    /// The kernel function's name.
    #[arg(long, default_value = "gemm")]
    pub name: String,
    #[arg(long, value_enum, default_value = "mlir")]
    pub emit: Emit,
    /// Write here instead of stdout (atomically: nothing on error).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Also write the kernel's CANN project here: kernel.cpp, tiling.h, main.cpp (AscendCL launcher),
    /// CMakeLists.txt (docs/gemm-generator.md; not buildable without CANN, unchecked here).
    #[arg(long, value_name = "DIR")]
    pub project: Option<PathBuf>,
}

fn flag(flag: &'static str, reason: impl Into<String>) -> GemmError {
    GemmError::Flag { flag, reason: reason.into() }
}

impl Args {
    pub fn spec(&self) -> Result<GemmSpec, GemmError> {
        let input = ElementType::parse(&self.dtype).map_err(|e| flag("dtype", e.to_string()))?;
        let target = Target::from_name(&self.target)
            .ok_or_else(|| flag("target", format!("`{}` is not a2 or a5", self.target)))?;
        let acc = layout_algebra::ascend::legality::matmul_accumulator(input, input, target)
            .map_err(|e| flag("dtype", e.to_string()))?;
        let output = match &self.out {
            Some(o) => ElementType::parse(o).map_err(|e| flag("out", e.to_string()))?,
            None => acc,
        };
        // Without --tiles the tuner replaces these (crate::tune).
        let tiles = match &self.tiles {
            Some(t) => parse_tiles(t)?,
            // The fixed tiles where they fit, else the largest C tile of the menu.
            None => {
                let stages = self.stages.unwrap_or(2);
                let fixed = gemm_gen::tiles::fixed(stages);
                let menu = gemm_gen::tiles::candidates(input, acc, target);
                if menu.contains(&fixed) {
                    fixed
                } else {
                    *menu.iter().find(|t| t.stages == stages).ok_or_else(|| flag("tiles", "no tile shape fits"))?
                }
            }
        };
        Ok(GemmSpec {
            name: self.name.clone(),
            m: Dim::parse(&self.m)?,
            n: Dim::parse(&self.n)?,
            k: Dim::parse(&self.k)?,
            input,
            output,
            a: GmLayout::parse(&self.a)?,
            b: GmLayout::parse(&self.b)?,
            epilogue: Epilogue { relu: self.relu, scale: self.scale },
            target,
            tiles,
            order: parse_order(self.order.as_deref().unwrap_or("linear"))?,
            split_k: self.split_k.unwrap_or(1),
        })
    }
}

impl Args {
    /// The sizes to tune for: `--tune-for`, else the static sizes; `None` when a size is
    /// dynamic and no `--tune-for` is given.
    pub fn tune_sizes(&self, spec: &GemmSpec) -> Result<Option<[i64; 3]>, GemmError> {
        if let Some(text) = &self.tune_for {
            let v: Vec<i64> = text.split(',').filter_map(|s| s.trim().parse().ok()).filter(|&v| v > 0).collect();
            return match v[..] {
                [m, n, k] => Ok(Some([m, n, k])),
                _ => Err(flag("tune-for", format!("`{text}` is not M,N,K (three positive integers)"))),
            };
        }
        Ok(match (spec.m, spec.n, spec.k) {
            (Dim::Static(m), Dim::Static(n), Dim::Static(k)) => Some([m, n, k]),
            _ => None,
        })
    }
}

/// `m1,n1,k1,k0[,stages]`.
fn parse_tiles(text: &str) -> Result<Tiles, GemmError> {
    let v: Vec<i64> = text
        .split(',')
        .map(|s| s.trim().parse::<i64>())
        .collect::<Result<_, _>>()
        .map_err(|_| flag("tiles", format!("`{text}` is not m1,n1,k1,k0[,stages]")))?;
    match v[..] {
        [m1, n1, k1, k0] => Ok(Tiles { m1, n1, k1, k0, stages: 1 }),
        [m1, n1, k1, k0, stages] => Ok(Tiles { m1, n1, k1, k0, stages }),
        _ => Err(flag("tiles", format!("`{text}` is not m1,n1,k1,k0[,stages]"))),
    }
}

/// `linear`, `swizzle:OFFSET` (direction 0, Zn) or `swizzle:OFFSET:nz` (direction 1).
fn parse_order(text: &str) -> Result<TileOrder, GemmError> {
    let parts: Vec<&str> = text.split(':').collect();
    let bad = || flag("order", format!("`{text}` is not linear or swizzle:OFFSET[:zn|:nz]"));
    let (offset, direction) = match parts[..] {
        ["linear"] => return Ok(TileOrder::Linear),
        ["swizzle", offset] | ["swizzle", offset, "zn"] => (offset, SwizzleDirection::Zn),
        ["swizzle", offset, "nz"] => (offset, SwizzleDirection::Nz),
        _ => return Err(bad()),
    };
    Ok(TileOrder::Swizzle { offset: offset.parse().map_err(|_| bad())?, direction })
}
