//! What the hardware supports, per target (docs/layout-spec.md §1 table, §D.1–§D.4): the layouts each memory
//! space holds, the (src → dst) layout pairs of data movement and their direction, and the
//! element types of the cube. Tables only, MLIR-free; `layout-verify` turns them into located
//! errors and lowerings can use them to pick an instruction.
//!
//! Patterns here are *resolved* patterns: on `l0c` the accumulator layout is
//! [`FramePattern::L0C`] (written `NZ` in types, see `layout_dialect::tensor_layout`).

use super::dtype::ElementType;
use super::frame::FramePattern;
use super::target::{MemorySpace, Target};
use crate::error::AlgebraError;

use ElementType as E;
use FramePattern::*;
use MemorySpace as S;

/// The layouts a memory space may hold on `target` for element type `elem` (docs/layout-spec.md §1 table):
///
/// | space | a2 (Atlas A2/A3) | a5 (Ascend 950) |
/// |---|---|---|
/// | gm | ND DN NDExt DNExt NZ ZN NCHW NHWC NC1HWC0 | same + ZZ NN ScaleAND ScaleADN ScaleBND ScaleBDN (MX) |
/// | l1 | NZ ZN NC1HWC0 (+ ND DN for 64-bit types; + ZZ NN for f32) | same + ZZ NN for `f8E8M0FNU` (MX scales) |
/// | l0a | **ZZ** | **NZ** |
/// | l0b | ZN | ZN |
/// | l0c | NZ with 16×16 fractal (L0C) | same |
/// | ub | ND DN NDExt DNExt NZ | same |
/// | l0a_scale / l0b_scale | — | ZZ / NN (`f8E8M0FNU`) |
pub fn legal_patterns(space: MemorySpace, target: Target, elem: ElementType) -> Vec<FramePattern> {
    let a5 = target == Target::A5;
    let mx = elem == E::F8E8M0FNU;
    let mut out = match space {
        S::Gm => vec![ND, DN, NDExt, DNExt, NZ, ZN, NCHW, NHWC, NC1HWC0],
        S::L1 => vec![NZ, ZN, NC1HWC0],
        S::L0a => vec![target.l0a_pattern()],
        S::L0b => vec![ZN],
        S::L0c => vec![L0C],
        S::Ub => vec![ND, DN, NDExt, DNExt, NZ],
        S::L0aScale if a5 && mx => vec![ZZ],
        S::L0bScale if a5 && mx => vec![NN],
        S::L0aScale | S::L0bScale => vec![],
    };
    match space {
        S::Gm if a5 => out.extend([ZZ, NN, ScaleAND, ScaleADN, ScaleBND, ScaleBDN]),
        S::L1 if elem.bits() == 64 => out.extend([ND, DN]),
        S::L1 if a5 && mx => out.extend([ZZ, NN]),
        // a2 f32 operands whose L1 → L0 load transposes: `LoadDataWithTranspose` pairs two
        // 16×8 fractals by address, so they must be contiguous along the 8-element mode
        // (catlass zZ for B, nN for A: docs/ascendc-derivation.md §6.1).
        S::L1 if !a5 && elem == E::F32 => out.extend([ZZ, NN]),
        _ => {}
    }
    out
}

/// Whether an explicit layout that is no recognized pattern may live in `space`: only in the
/// non-cube buffers `gm` and `ub` (general strided views).
pub fn allows_unrecognized(space: MemorySpace) -> bool {
    matches!(space, S::Gm | S::Ub)
}

/// The data-movement op between two spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// `layout.load`: towards the cube (gm → l1 → l0a/l0b, gm → ub, l1 → scale buffers).
    Load,
    /// `layout.store`: results out (l0c → gm/l1/ub, ub → gm, l1 → gm/ub).
    Store,
}

impl Direction {
    pub fn op_name(self) -> &'static str {
        match self {
            Direction::Load => "layout.load",
            Direction::Store => "layout.store",
        }
    }
}

/// The direction of a path between two spaces on `target`, or the error saying why when the hardware
/// has no such path (docs/layout-spec.md §D.1, §D.2): Ascend 950 removed GM → L0A/L0B; L0C → UB and L1 → UB
/// exist only on Ascend 950.
pub fn direction(src: MemorySpace, dst: MemorySpace, target: Target) -> Result<Direction, AlgebraError> {
    let a5 = target == Target::A5;
    match (src, dst) {
        (S::Gm, S::L0a | S::L0b) if a5 => Err(AlgebraError::PathRemovedOnA5 { src: src.name(), dst: dst.name() }),
        (S::L0c | S::L1, S::Ub) if !a5 => Err(AlgebraError::PathOnlyOnA5 { src: src.name() }),
        (S::Gm, S::L1 | S::L0a | S::L0b | S::Ub) | (S::L1, S::L0a | S::L0b | S::L0aScale | S::L0bScale) => {
            Ok(Direction::Load)
        }
        (S::L0c, S::Gm | S::L1 | S::Ub) | (S::Ub, S::Gm) | (S::L1, S::Gm | S::Ub) => Ok(Direction::Store),
        _ => Err(AlgebraError::NoDataPath { src: src.name(), dst: dst.name() }),
    }
}

/// The (src → dst) layout pairs of the path `src_space → dst_space` on `target` (docs/layout-spec.md §D.2
/// AscendC routing, §D.3 catlass copies, §D.4 PTO TLOAD/TSTORE):
///
/// * gm → l1: ND/NDExt → NZ (ND2NZ), DN/DNExt → ZN (ND2NZ of the transposed views), NZ → NZ,
///   ZN → ZN, ND → ND and DN → DN (64-bit), NC1HWC0/NHWC/NCHW → NC1HWC0; a5 also DN/DNExt → NZ
///   (DN2NZ) and the MX scale loads ScaleAND/ScaleADN/ZZ/ND → ZZ, ScaleBND/ScaleBDN/NN/DN → NN.
///   Not ND/NDExt → ZN: it transposes each matrix, which ND2NZ cannot (it moves rows, C0
///   elements at a time) and no public AscendC/catlass GM → L1 copy does (catlass pairs
///   RowMajor with zN and ColumnMajor with nZ); load ND → NZ and transpose on the L1 → L0 load;
///   a2 also ND → ZZ and DN → NN (f32 only, `legal_patterns`: ND2NZ one 16-row band at a time,
///   catlass `CopyGmToL1<RowMajor → zZ>` / `<ColumnMajor → nN>`), the L1 layouts a 32-bit
///   transposing L1 → L0 load reads;
/// * gm → l0b (a2 only): ZN → ZN;
/// * gm → ub: same layout (ND, DN, NDExt, DNExt, NZ);
/// * l1 → l0a: a2 NZ/ZN/NN → ZZ (zN→zZ, transposed nZ→zZ, nN→zZ); a5 NZ/ZN/NN/NC1HWC0 → NZ;
/// * l1 → l0b: NZ/ZN/ZZ → ZN;
/// * l1 → l0a_scale: ZZ → ZZ; l1 → l0b_scale: NN → NN;
/// * l0c → gm (Fixpipe): L0C → ND, NDExt, NZ, NC1HWC0, NHWC, NCHW. Not a5's L0C → DN, DNExt
///   (NZ2DN, `Fixpipe<CFG_COLUMN_MAJOR>` with `Nz2DnParams`): the hardware has it, but the
///   AscendC back end does not lower it, and every accepted pair must lower on every back end
///   (docs/layout-spec.md §D.2), so it is a verifier error until it is lowered;
/// * l0c → l1: L0C → NZ; l0c → ub (a5): L0C → ND, NDExt, DN, DNExt, NZ;
/// * l1 → ub (a5): ND → ND, DN → DN, NZ → NZ; l1 → gm and ub → gm: same layout.
pub fn legal_pairs(src: MemorySpace, dst: MemorySpace, target: Target) -> Vec<(FramePattern, FramePattern)> {
    let a5 = target == Target::A5;
    let same = |ps: &[FramePattern]| ps.iter().map(|p| (*p, *p)).collect::<Vec<_>>();
    let mut out: Vec<(FramePattern, FramePattern)> = Vec::new();
    match (src, dst) {
        (S::Gm, S::L1) => {
            out.extend([
                (ND, NZ),
                (NDExt, NZ),
                (DN, ZN),
                (DNExt, ZN),
                (NZ, NZ),
                (ZN, ZN),
                (ND, ND),
                (DN, DN),
                (NC1HWC0, NC1HWC0),
                (NHWC, NC1HWC0),
                (NCHW, NC1HWC0),
            ]);
            if !a5 {
                out.extend([(ND, ZZ), (DN, NN)]);
            }
            if a5 {
                out.extend([
                    (DN, NZ),
                    (DNExt, NZ),
                    (ScaleAND, ZZ),
                    (ScaleADN, ZZ),
                    (ZZ, ZZ),
                    (ND, ZZ),
                    (ScaleBND, NN),
                    (ScaleBDN, NN),
                    (NN, NN),
                    (DN, NN),
                ]);
            }
        }
        (S::Gm, S::L0b) if !a5 => out.push((ZN, ZN)),
        (S::Gm, S::Ub) => out = same(&[ND, DN, NDExt, DNExt, NZ]),
        (S::L1, S::L0a) => {
            let sources: &[FramePattern] = if a5 { &[NZ, ZN, NN, NC1HWC0] } else { &[NZ, ZN, NN] };
            out = sources.iter().map(|p| (*p, target.l0a_pattern())).collect();
        }
        (S::L1, S::L0b) => out = vec![(NZ, ZN), (ZN, ZN), (ZZ, ZN)],
        (S::L1, S::L0aScale) => out = same(&[ZZ]),
        (S::L1, S::L0bScale) => out = same(&[NN]),
        (S::L0c, S::Gm) => out = [ND, NDExt, NZ, NC1HWC0, NHWC, NCHW].iter().map(|d| (L0C, *d)).collect(),
        (S::L0c, S::L1) => out.push((L0C, NZ)),
        (S::L0c, S::Ub) if a5 => out = [ND, NDExt, DN, DNExt, NZ].iter().map(|d| (L0C, *d)).collect(),
        (S::L1, S::Ub) if a5 => out = same(&[ND, DN, NZ]),
        (S::L1, S::Gm) => out = same(&[NZ, ZN, ND, DN]),
        (S::Ub, S::Gm) => out = same(&[ND, DN, NDExt, DNExt, NZ]),
        _ => {}
    }
    out
}

/// The element types of `dst` a copy from `src` element type may produce: the same type, and
/// for stores out of l0c the Fixpipe conversions (f32 → f16/bf16, i32 → f16). The hardware
/// also has i32 → i8 (REQ8), but it needs quantization parameters no op carries and no back
/// end lowers, so it is not accepted (every accepted conversion lowers everywhere).
pub fn copy_element_types(src_space: MemorySpace, src: ElementType) -> Vec<ElementType> {
    match (src_space, src) {
        (S::L0c, E::F32) => vec![E::F32, E::F16, E::BF16],
        (S::L0c, E::I32) => vec![E::I32, E::F16],
        (_, t) => vec![t],
    }
}

/// The element types a store may atomically add into GM on `target` (`SetAtomicAdd<T>()`,
/// asc-devkit docs/api/context/SetAtomicAdd.md): on Atlas A2/A3 int8/int16/half/bfloat16/int32/
/// float, on the data paths VECOUT/L0C/L1 → GM. The page marks Ascend 950PR/DT (a5) as supported
/// but lists element types only for A2/A3, so none are accepted on a5 here.
pub fn atomic_add_types(target: Target) -> &'static [ElementType] {
    match target {
        Target::A2 => &[E::I8, E::I16, E::F16, E::BF16, E::I32, E::F32],
        Target::A5 => &[],
    }
}

/// The accumulator type of the cube for operands `a` × `b` on `target`, or the error saying why not:
/// f16×f16 → f32, bf16×bf16 → f32, f32×f32 → f32, i8×i8 → i32, i4×i4 → i32 (a2);
/// on a5 also fp8 (f8E4M3FN, f8E5M2, hif8, mixed) → f32 and fp4 (f4E2M1FN, f4E1M2) → f32.
pub fn matmul_accumulator(a: ElementType, b: ElementType, target: Target) -> Result<ElementType, AlgebraError> {
    let fp8 = |t: ElementType| matches!(t, E::F8E4M3FN | E::F8E5M2 | E::HiF8);
    let fp4 = |t: ElementType| matches!(t, E::F4E2M1FN | E::F4E1M2);
    let a5 = target == Target::A5;
    match (a, b) {
        (E::F16, E::F16) | (E::BF16, E::BF16) | (E::F32, E::F32) => Ok(E::F32),
        (E::I8, E::I8) => Ok(E::I32),
        (E::I4, E::I4) if !a5 => Ok(E::I32),
        (x, y) if fp8(x) && fp8(y) || fp4(x) && fp4(y) => {
            if a5 {
                Ok(E::F32)
            } else {
                Err(AlgebraError::MatmulNeedsA5 { a: x.name(), b: y.name() })
            }
        }
        (x, y) if x != y => Err(AlgebraError::MatmulMixedTypes { a: x.name(), b: y.name() }),
        (x, _) => Err(AlgebraError::MatmulUnsupported { elem: x.name(), target: target.name() }),
    }
}

/// Names of patterns for messages: `NZ, ZN`.
pub fn names(patterns: &[FramePattern]) -> String {
    patterns.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn l0a_depends_on_the_target() {
        assert_eq!(legal_patterns(S::L0a, Target::A2, E::F16), vec![ZZ]);
        assert_eq!(legal_patterns(S::L0a, Target::A5, E::F16), vec![NZ]);
        assert!(legal_patterns(S::L1, Target::A5, E::F8E8M0FNU).contains(&NN));
        assert!(!legal_patterns(S::L1, Target::A2, E::F8E8M0FNU).contains(&NN));
    }

    #[test]
    fn directions_and_pairs() {
        assert_eq!(direction(S::Gm, S::L1, Target::A2), Ok(Direction::Load));
        assert_eq!(direction(S::L0c, S::Gm, Target::A2), Ok(Direction::Store));
        let removed = direction(S::Gm, S::L0a, Target::A5).unwrap_err();
        assert_eq!(removed, AlgebraError::PathRemovedOnA5 { src: "gm", dst: "l0a" });
        assert_eq!(removed.to_string(), "Ascend 950 (target \"a5\") has no gm -> l0a path; load through l1");
        assert_eq!(direction(S::L0c, S::Ub, Target::A2), Err(AlgebraError::PathOnlyOnA5 { src: "l0c" }));
        let none = direction(S::L0a, S::L0b, Target::A5).unwrap_err();
        assert_eq!(none.to_string(), "there is no data path l0a -> l0b");
        assert!(legal_pairs(S::Gm, S::L1, Target::A5).contains(&(DN, NZ)));
        assert!(!legal_pairs(S::Gm, S::L1, Target::A2).contains(&(DN, NZ)));
        // a2 f32: banded ND2NZ into the L1 layouts of the 32-bit transposing loads.
        assert!(legal_pairs(S::Gm, S::L1, Target::A2).contains(&(ND, ZZ)));
        assert!(legal_pairs(S::Gm, S::L1, Target::A2).contains(&(DN, NN)));
        assert!(legal_patterns(S::L1, Target::A2, E::F32).contains(&ZZ));
        assert!(legal_patterns(S::L1, Target::A2, E::F32).contains(&NN));
        assert!(!legal_patterns(S::L1, Target::A2, E::F16).contains(&ZZ));
        assert!(!legal_patterns(S::L1, Target::A5, E::F32).contains(&ZZ));
        // A transposing GM -> L1 copy exists on neither target (no ND2ZN).
        for t in Target::ALL {
            assert!(!legal_pairs(S::Gm, S::L1, t).contains(&(ND, ZN)));
            assert!(!legal_pairs(S::Gm, S::L1, t).contains(&(NDExt, ZN)));
        }
        assert!(legal_pairs(S::L1, S::L0a, Target::A2).contains(&(NZ, ZZ)));
        assert!(legal_pairs(S::L1, S::L0a, Target::A5).contains(&(NZ, NZ)));
    }

    #[test]
    fn cube_types() {
        assert_eq!(matmul_accumulator(E::F16, E::F16, Target::A2), Ok(E::F32));
        assert_eq!(matmul_accumulator(E::I8, E::I8, Target::A5), Ok(E::I32));
        assert_eq!(matmul_accumulator(E::F8E4M3FN, E::F8E5M2, Target::A5), Ok(E::F32));
        let fp8 = matmul_accumulator(E::F8E4M3FN, E::F8E4M3FN, Target::A2).unwrap_err();
        assert_eq!(fp8, AlgebraError::MatmulNeedsA5 { a: "f8E4M3FN", b: "f8E4M3FN" });
        assert_eq!(fp8.to_string(), "f8E4M3FN x f8E4M3FN matmul needs Ascend 950 (target \"a5\")");
        let mixed = matmul_accumulator(E::F16, E::BF16, Target::A2).unwrap_err();
        assert_eq!(mixed, AlgebraError::MatmulMixedTypes { a: "f16", b: "bf16" });
    }
}
