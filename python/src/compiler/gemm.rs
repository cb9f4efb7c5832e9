//! `layout_opt.gemm`'s back end: the GEMM generator (crates/gemm-gen) with the tiles given or
//! its fixed default, double-buffered by `layout-multi-buffer` for 2 stages, as `layout-gemm`
//! does (docs/gemm-generator.md).

use super::{context, parse, render, CompilerError, Result};
use gemm_gen::{Dim, Epilogue, GemmSpec, GmLayout, SwizzleDirection, TileOrder, Tiles};
use layout_algebra::ascend::{legality::matmul_accumulator, ElementType, Target};
use layout_runtime::diagnostics::{Capture, UNNAMED_INPUT};

/// What Python passes: sizes (None = dynamic), types, layouts, target, tiles, order, epilogue.
pub(crate) struct Request {
    pub name: String,
    pub sizes: [Option<i64>; 3],
    pub dtype: String,
    pub out: Option<String>,
    pub a: String,
    pub b: String,
    pub target: String,
    pub tiles: Option<[i64; 5]>,
    /// `None` (linear) or (offset, "zn" | "nz").
    pub swizzle: Option<(i64, String)>,
    pub relu: bool,
    pub scale: Option<f32>,
    /// Split-K chunk count S (1 = none): atomic-add stores, C must be zero on entry.
    pub split_k: i64,
}

fn usage(e: impl std::fmt::Display) -> CompilerError {
    CompilerError::Usage(e.to_string())
}

/// The spec of `r`, checked by the generator.
fn spec(r: &Request) -> Result<GemmSpec> {
    let input = ElementType::parse(&r.dtype).map_err(usage)?;
    let target = Target::from_name(&r.target).ok_or_else(|| usage(format!("target '{}' is not a2 or a5", r.target)))?;
    let acc = matmul_accumulator(input, input, target).map_err(usage)?;
    let output = match &r.out {
        Some(o) => ElementType::parse(o).map_err(usage)?,
        None => acc,
    };
    let tiles = match r.tiles {
        Some([m1, n1, k1, k0, stages]) => Tiles { m1, n1, k1, k0, stages },
        None => Tiles { m1: 128, n1: 256, k1: 256, k0: 64, stages: 2 },
    };
    let order = match &r.swizzle {
        None => TileOrder::Linear,
        Some((offset, d)) => {
            let direction = match d.as_str() {
                "zn" => SwizzleDirection::Zn,
                "nz" => SwizzleDirection::Nz,
                other => return Err(usage(format!("swizzle direction '{other}' is not 'zn' or 'nz'"))),
            };
            TileOrder::Swizzle { offset: *offset, direction }
        }
    };
    let dim = |d: Option<i64>| d.map_or(Ok(Dim::Dynamic), |v| if v > 0 { Ok(Dim::Static(v)) } else { Err(usage(format!("size {v} is not positive"))) });
    Ok(GemmSpec {
        name: r.name.clone(),
        m: dim(r.sizes[0])?,
        n: dim(r.sizes[1])?,
        k: dim(r.sizes[2])?,
        input,
        output,
        a: GmLayout::parse(&r.a).map_err(usage)?,
        b: GmLayout::parse(&r.b).map_err(usage)?,
        epilogue: Epilogue { relu: r.relu, scale: r.scale },
        target,
        tiles,
        order,
        split_k: r.split_k,
    })
}

/// The kernel's MLIR (verified; through `layout-multi-buffer` for 2 stages).
pub(crate) fn source(r: &Request) -> Result<String> {
    let spec = spec(r)?;
    let text = gemm_gen::generate(&spec).map_err(usage)?;
    let context = context()?;
    let mut module = parse(&context, &text)?;
    let capture = Capture::new(&context, UNNAMED_INPUT);
    let pm = melior::pass::PassManager::new(&context);
    pm.add_pass(layout_passes::verify::create());
    if spec.tiles.stages == 2 {
        pm.add_pass(layout_passes::multi_buffer::create());
    }
    if pm.run(&mut module).is_err() || capture.has_error() {
        return Err(render(&capture.take()));
    }
    if spec.tiles.stages == 1 {
        return Ok(text);
    }
    let header: String = text.lines().take_while(|l| l.starts_with("//")).map(|l| format!("{l}\n")).collect();
    Ok(format!("{header}{}\n", module.as_operation()))
}
