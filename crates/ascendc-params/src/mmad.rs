//! `Mmad` with `MmadParams`: C (L0C, NZ 16×16) = / += A (L0A) × B (L0B, ZN).

use layout_algebra::ascend::{frame_c0, frame_layout, ElementType, FramePattern, L0C_C0};
use layout_algebra::IndexValue;

use crate::error::{ParamError, Result};
use crate::field::Checker;
use crate::instr::{Access, Derived, Instr, Intrinsic};
use crate::operand::{Fractal, Operand};
use crate::target::{Buffer, Target};

/// AscendC `MmadParams`: `m, n, k` (`uint16_t`, documented range [0, 4095], the **real** tile
/// sizes), `isBias`, `fmOffset` (`int32_t`), `enSsparse`, `enWinogradA/B`, `unitFlag`
/// (`uint8_t`), `kDirectionAlign`, `cmatrixSource` (false = L0C), `cmatrixInitVal` (**true =
/// overwrite C, false = accumulate**), and on arch 3510 (a5) `disableGemv` (default false: an
/// m = 1 Mmad runs in GEMV mode and reads A as one contiguous row). Constructor order in the
/// samples: `{m, n, k, unitFlag, cmatrixSource, cmatrixInitVal}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MmadParams<V = i64> {
    pub m: V,
    pub n: V,
    pub k: V,
    pub unit_flag: V,
    pub cmatrix_source: bool,
    pub cmatrix_init_val: bool,
    pub k_direction_align: bool,
    /// a5: `disableGemv = true`, so an m = 1 A is read from its NZ fractal as the layouts say
    /// (catlass sets it on every a5 Mmad); always false on a2, whose struct has no such field.
    pub disable_gemv: bool,
}

const MMAD: &str = "Mmad(MmadParams)";

/// `Mmad(c, a, b, MmadParams)`. `m` = the rows of A's fractal grid, `n` = the columns of B's
/// (static: padding rows/columns of C are computed and never stored), `k` = A's valid columns
/// (origin, exact); B's valid rows must equal `k`. The cube infers the operand layouts from `m, n, k` alone, so
/// the given layouts must equal the ones the hardware implies — checked by building them with
/// the algebra: `frame_layout(L0A pattern of the target, C0, [m, k])`, `frame_layout(ZN, C0,
/// [k, n])`, `frame_layout(L0C, 16, [m, n])` (equal strides and shape). `accumulate` sets
/// `cmatrixInitVal = false`. Supported types (A/B → C): f16, bf16, f32 → f32; i8 → i32.
pub fn mmad<V: IndexValue>(
    c: &Operand<V>,
    a: &Operand<V>,
    b: &Operand<V>,
    ab: ElementType,
    acc: ElementType,
    target: Target,
    accumulate: bool,
) -> Result<Derived<V>> {
    use ElementType as E;
    if !matches!((ab, acc), (E::F16 | E::BF16 | E::F32, E::F32) | (E::I8, E::I32)) {
        return Err(ParamError::Unsupported {
            instr: MMAD,
            detail: format!("{ab} × {ab} → {acc} (supported: f16/bf16/f32 → f32, i8 → i32)"),
        });
    }
    let l0a = target.l0a_pattern();
    let c0 = frame_c0(l0a, ab)?;
    Fractal::of(MMAD, "A (L0A)", a.layout, &[l0a])?;
    Fractal::of(MMAD, "B (L0B)", b.layout, &[FramePattern::ZN])?;
    Fractal::of(MMAD, "C (L0C)", c.layout, &[FramePattern::NZ])?;
    let mut ck = Checker::new(MMAD);
    // m and n: the rows of A's and the columns of B's fractal grids (static buffers), not their
    // valid extents. The cube computes whole 16 × 16 output fractals; rows and columns past the
    // valid ones land in C's padding, which no store reads (Fixpipe's mSize/nSize are the
    // destination's valid extents). Keeping them static keeps the layouts the cube infers from
    // m and n (ZZ/NZ row blocks of A, the L0C column-block stride) equal to the buffers', so a
    // tail tile needs no second layout. k is the valid reduction extent, exactly: the cube
    // ignores K padding (docs/ascendc-derivation.md §7), which holds stale or unwritten data.
    let (m, k) = (padded(a.layout, 0).unwrap_or(a.extent(0)?), a.extent(1)?);
    let (kb, n_real) = (b.extent(0)?, padded(b.layout, 1).unwrap_or(b.extent(1)?));
    ck.equal("k", &kb, &k, || format!("B has {kb} valid rows but A has {k} valid columns"))?;
    // The cube's n: the real n, or (A2, 8-bit, static n) `align(n, 32)` when L0B was padded to
    // whole 32-column squares for `LoadDataWithTranspose` (docs/layout-spec.md §D.4, catlass int8 transposed
    // B). The extra L0C columns n..align(n, 32) are computed from L0B padding and never
    // stored: Fixpipe's nSize is the destination's real n.
    let n = mmad_n(b, &k, &n_real, ab, target)?;
    // The layouts the cube implies from m, n, k.
    let implied = [
        ("A (L0A)", a, frame_layout(l0a, c0, &[m.clone(), k.clone()])?),
        ("B (L0B)", b, frame_layout(FramePattern::ZN, c0, &[k.clone(), n.clone()])?),
        ("C (L0C)", c, frame_layout(FramePattern::L0C, L0C_C0, &[m.clone(), n.clone()])?),
    ];
    // The same function, not the same text: a sub-tile of a wider buffer keeps the parent's
    // stride on modes of extent 1, which address nothing (`Layout::function_pairs`).
    for (who, op, want) in &implied {
        let differs =
            || format!("{who} layout {} is not the one Mmad reads for m={m}, n={n}, k={k}: {want}", op.layout);
        let pairs =
            op.layout.function_pairs(want).ok_or_else(|| ParamError::Layout { instr: MMAD, detail: differs() })?;
        for (x, y) in &pairs {
            ck.equal("operand layout", x, y, differs)?;
        }
    }
    let specs = MmadParams::<V>::specs();
    let p = MmadParams {
        m: ck.field(specs[0], m)?,
        n: ck.field(specs[1], n)?,
        k: ck.field(specs[2], k)?,
        unit_flag: ck.field(specs[3], V::constant(0))?,
        cmatrix_source: false,
        cmatrix_init_val: !accumulate,
        k_direction_align: false,
        disable_gemv: target == Target::A5,
    };
    let zero = V::constant(0);
    let eab = i64::from(ab.bits() / 8);
    let eacc = i64::from(acc.bits() / 8);
    let (co, ao, bo) = (c.offset()?, a.offset()?, b.offset()?);
    ck.aligned("C", Buffer::L0C, &c.base_bytes, &co, &zero, eacc)?;
    ck.aligned("A", Buffer::L0A, &a.base_bytes, &ao, &zero, eab)?;
    ck.aligned("B", Buffer::L0B, &b.base_bytes, &bo, &zero, eab)?;
    Ok(Derived {
        instrs: vec![Instr {
            intrinsic: Intrinsic::Mmad(p),
            dst: Access { buffer: Buffer::L0C, offset: co, step: zero.clone() },
            srcs: vec![
                Access { buffer: Buffer::L0A, offset: ao, step: zero.clone() },
                Access { buffer: Buffer::L0B, offset: bo, step: zero },
            ],
            repeat: V::constant(1),
        }],
        assumptions: ck.assumptions,
    })
}

/// The static extent of mode `mode` of the layout's shape (its fractal grid, padding included).
fn padded<V: IndexValue>(layout: &layout_algebra::Layout<V>, mode: usize) -> Option<V> {
    let size = layout.shape().get_path(&[mode]).ok()?.size().ok()?;
    size.as_constant().map(V::constant)
}

/// The `n` the cube runs with: B's real columns, or `align(n, 32)` for an A2 8-bit B whose
/// layout is the ZN frame of `[k, align(n, 32)]` but not of `[k, n]` (odd 16-column fractal
/// count padded to whole squares). Static values only; otherwise the real n.
fn mmad_n<V: IndexValue>(b: &Operand<V>, k: &V, n: &V, ab: ElementType, target: Target) -> Result<V> {
    let Some(nv) = n.as_constant() else { return Ok(n.clone()) };
    // Checked: n is a layout extent (`align` of a huge n must be an error, not a wrap).
    if ab.bits() != 8 || target != Target::A2 || nv % 32 == 0 || nv.ceil_div(&16)?.floor_mod(&2)? == 0 {
        return Ok(n.clone());
    }
    let c0 = frame_c0(FramePattern::ZN, ab)?;
    let padded = V::constant(nv.align_to(&32)?);
    let want = frame_layout(FramePattern::ZN, c0, &[k.clone(), padded.clone()])?;
    Ok(if b.layout.same_function(&want) { padded } else { n.clone() })
}
