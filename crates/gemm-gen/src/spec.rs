//! What a user asks for: the problem, its types and layouts, the epilogue, the target, and
//! (optionally) the tiles and the block order.

use crate::error::{spec, Result};
use layout_algebra::ascend::legality::matmul_accumulator;
use layout_algebra::ascend::{ElementType, FramePattern, Target, TileOrder};

/// A problem dimension: known when the kernel is generated, or an `index` argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    Static(i64),
    Dynamic,
}

impl Dim {
    /// `?` or the number, as a `!layout.tensor` shape leaf prints it.
    pub fn leaf(self) -> String {
        match self {
            Dim::Static(v) => v.to_string(),
            Dim::Dynamic => "?".into(),
        }
    }

    /// `64` (static), `dynamic` or an error for the CLI spelling `?`/`dyn`/a number.
    pub fn parse(text: &str) -> Result<Dim> {
        match text {
            "?" | "dyn" | "dynamic" => Ok(Dim::Dynamic),
            _ => match text.parse::<i64>() {
                Ok(v) if v > 0 => Ok(Dim::Static(v)),
                _ => Err(spec("dimension", format!("`{text}` is neither a positive integer nor `?`"))),
            },
        }
    }
}

/// How an operand lies in global memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GmLayout {
    /// Row-major.
    Nd,
    /// Column-major.
    Dn,
    /// Fractal zN (C0-wide blocks of 16 rows, blocks down the rows first), already packed.
    Nz,
}

impl GmLayout {
    pub fn pattern(self) -> FramePattern {
        match self {
            GmLayout::Nd => FramePattern::ND,
            GmLayout::Dn => FramePattern::DN,
            GmLayout::Nz => FramePattern::NZ,
        }
    }

    /// The L1 layout a copy from this one lands in (ND2NZ for ND, its transpose for DN, a plain
    /// copy for NZ): docs/ascendc-derivation.md §1.1.
    pub fn l1_pattern(self) -> FramePattern {
        match self {
            GmLayout::Nd | GmLayout::Nz => FramePattern::NZ,
            GmLayout::Dn => FramePattern::ZN,
        }
    }

    pub fn parse(text: &str) -> Result<GmLayout> {
        match text.to_ascii_uppercase().as_str() {
            "ND" => Ok(GmLayout::Nd),
            "DN" => Ok(GmLayout::Dn),
            "NZ" => Ok(GmLayout::Nz),
            _ => Err(spec("layout", format!("`{text}` is not one of ND, DN, NZ"))),
        }
    }
}

/// The Fixpipe epilogue of the store (docs/dialect.md `layout.store`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Epilogue {
    pub relu: bool,
    /// The DEQF16 scale of an i32 → f16 store.
    pub scale: Option<f32>,
}

/// L1 and L0 tile sizes: C tiles are `m1 × n1`; K is streamed through L1 in `k1` slices and
/// through L0A/L0B in `k0` slices; `stages` = 2 double-buffers L1 and L0A/L0B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiles {
    pub m1: i64,
    pub n1: i64,
    pub k1: i64,
    pub k0: i64,
    pub stages: i64,
}

impl std::fmt::Display for Tiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "L1 ({},{},{}) / L0 K {} / {} stage(s)", self.m1, self.n1, self.k1, self.k0, self.stages)
    }
}

/// One GEMM: `C (M × N, output) = epilogue(A (M × K) × B (K × N))`.
#[derive(Clone, Debug, PartialEq)]
pub struct GemmSpec {
    pub name: String,
    pub m: Dim,
    pub n: Dim,
    pub k: Dim,
    /// A's and B's element type.
    pub input: ElementType,
    /// C's element type.
    pub output: ElementType,
    pub a: GmLayout,
    pub b: GmLayout,
    pub epilogue: Epilogue,
    pub target: Target,
    pub tiles: Tiles,
    /// The order C tiles are handed out in: tile `t` of the grid goes to block `t mod blockNum`.
    pub order: TileOrder,
    /// Split-K: K is cut into (at most) this many chunks of whole `k1` slices, every (C tile,
    /// chunk) pair is a task of its own, and each task adds its partial product into C with an
    /// atomic-add store. 1 = no split (plain stores). With more than 1, **C must be zero when
    /// the kernel starts** (the kernel only adds into it; the caller clears it, e.g.
    /// `aclrtMemset`): docs/gemm-generator.md "Split-K".
    pub split_k: i64,
}

impl GemmSpec {
    /// The L1 layouts of A (M × K) and B (K × N): [`GmLayout::l1_pattern`], except for f32 on
    /// a2 where the L1 → L0 load transposes (A DN → L0A ZZ, B ND → L0B ZN): the 32-bit
    /// `LoadDataWithTranspose` pairs two 16 × 8 fractals that are neighbours along the
    /// 8-element mode, so A goes to L1 NN and B to L1 ZZ (catlass's float `nN` / `zZ`;
    /// docs/ascendc-derivation.md §6.1). B packed NZ stays NZ: no GM → L1 copy reorders it.
    pub fn l1_patterns(&self) -> (FramePattern, FramePattern) {
        let (a, b) = (self.a.l1_pattern(), self.b.l1_pattern());
        if self.target != Target::A2 || self.input != ElementType::F32 {
            return (a, b);
        }
        let a = if self.a == GmLayout::Dn { FramePattern::NN } else { a };
        let b = if self.b == GmLayout::Nd { FramePattern::ZZ } else { b };
        (a, b)
    }

    /// The cube's accumulator type for the inputs (f32, or i32 for i8).
    pub fn accumulator(&self) -> Result<ElementType> {
        Ok(matmul_accumulator(self.input, self.input, self.target)?)
    }

    /// Checks what the tiles do not: the store's conversion and epilogue, the swizzle.
    pub fn check(&self) -> Result<()> {
        use ElementType as E;
        let acc = self.accumulator()?;
        match (acc, self.output, self.epilogue.scale) {
            (a, o, None) if a == o => {}
            (E::F32, E::F16 | E::BF16, None) => {}
            (E::I32, E::F16, Some(s)) if s.is_finite() => {}
            (E::I32, E::F16, _) => return Err(spec("epilogue", "an i32 → f16 store needs a finite `scale`")),
            (a, o, _) => {
                return Err(spec("output type", format!("the Fixpipe cannot store {} as {}", a.name(), o.name())))
            }
        }
        if self.split_k < 1 {
            return Err(spec("split-k", format!("{} is not a positive chunk count", self.split_k)));
        }
        if self.split_k > 1 {
            if self.epilogue.relu || self.epilogue.scale.is_some() {
                return Err(spec("split-k", "the partial sums of a split K are added in C: relu and scale would apply to each part, not to the sum"));
            }
            let types = layout_algebra::ascend::legality::atomic_add_types(self.target);
            if !types.contains(&self.output) {
                return Err(spec(
                    "split-k",
                    format!(
                        "SetAtomicAdd does not add {} on {} (the atomic-add store of split-K)",
                        self.output.name(),
                        self.target.name()
                    ),
                ));
            }
        }
        if let TileOrder::Swizzle { offset, .. } = self.order {
            if offset < 1 {
                return Err(spec("swizzle", format!("offset {offset} is not positive")));
            }
        }
        if !self.name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || self.name.is_empty() {
            return Err(spec("name", format!("`{}` is not a C identifier", self.name)));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(input: ElementType, target: Target, a: GmLayout, b: GmLayout) -> GemmSpec {
        GemmSpec {
            name: "g".into(),
            m: Dim::Dynamic,
            n: Dim::Dynamic,
            k: Dim::Dynamic,
            input,
            output: ElementType::F32,
            a,
            b,
            epilogue: Epilogue::default(),
            target,
            tiles: Tiles { m1: 32, n1: 32, k1: 64, k0: 32, stages: 1 },
            order: TileOrder::Linear,
            split_k: 1,
        }
    }

    /// The L1 layouts are the ones whose L1 -> L0 load the back ends emit: a2 f32 puts the
    /// operands that transpose on that load (A DN, B ND) in NN / ZZ, every other case keeps the
    /// ND2NZ layouts; the generated kernel declares them.
    #[test]
    fn a2_f32_operands_that_transpose_go_to_l1_nn_and_zz() {
        use FramePattern::*;
        use GmLayout::*;
        let cases = [
            (ElementType::F32, Target::A2, (Dn, Nd), (NN, ZZ)),
            (ElementType::F32, Target::A2, (Nd, Dn), (NZ, ZN)),
            (ElementType::F32, Target::A2, (Nz, Nz), (NZ, NZ)),
            (ElementType::F32, Target::A5, (Dn, Nd), (ZN, NZ)),
            (ElementType::F16, Target::A2, (Dn, Nd), (ZN, NZ)),
        ];
        for (input, target, (a, b), want) in cases {
            let s = spec(input, target, a, b);
            assert_eq!(s.l1_patterns(), want, "{input:?} {target:?} {a:?} {b:?}");
        }
        let text = crate::generate(&spec(ElementType::F32, Target::A2, Dn, Nd)).unwrap();
        assert!(text.contains(r#"!layout.tensor<f32, "l1", "NN", "(32,64)">"#), "{text}");
        assert!(text.contains(r#"!layout.tensor<f32, "l1", "ZZ", "(64,32)">"#), "{text}");
    }
}
