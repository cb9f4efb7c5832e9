//! L1 → L0A / L0B: `LoadData` with `LoadData2DParams` (arch 2201) and `LoadData2DParamsV2`
//! (arch 3510). Units are 512-byte fractals.

use layout_algebra::ascend::{frame_c0, ElementType, FramePattern};
use layout_algebra::IndexValue;

use crate::error::{ParamError, Result};
use crate::field::{Assumption, Checker, Requirement};
use crate::instr::{Access, Derived, Instr, Intrinsic};
use crate::operand::{Fractal, Operand};
use crate::target::{Buffer, Target};

/// AscendC `LoadData2DParams` {startIndex `uint16_t`, repeatTimes `uint8_t`, srcStride
/// `uint16_t`, sid `uint8_t`, dstGap `uint16_t`, ifTranspose `bool`, addrMode `uint8_t`}.
/// Call r (< repeatTimes) moves the source fractal `startIndex + r·srcStride` to destination
/// fractal `r·(dstGap + 1)`, transposing each 16×16 fractal when `ifTranspose`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadData2DParams<V = i64> {
    pub start_index: V,
    pub repeat_times: V,
    pub src_stride: V,
    pub sid: V,
    pub dst_gap: V,
    pub if_transpose: bool,
    pub addr_mode: V,
}

/// AscendC `LoadData2DParamsV2` (arch 3510) {mStartPosition `uint32_t`, kStartPosition
/// `uint32_t`, mStep `uint16_t`, kStep `uint16_t`, srcStride `int32_t`, dstStride `uint16_t`,
/// ifTranspose `bool`, sid `uint8_t`}: moves an mStep × kStep block of fractals starting at
/// fractal (mStartPosition, kStartPosition); fractal (m, k) of the source is at
/// `k·srcStride + m`, of the destination at `k·dstStride + m` (catlass ascend950 copies).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadData2DParamsV2<V = i64> {
    pub m_start_position: V,
    pub k_start_position: V,
    pub m_step: V,
    pub k_step: V,
    pub src_stride: V,
    pub dst_stride: V,
    pub if_transpose: bool,
    pub sid: V,
}

/// AscendC `LoadData2dTransposeParams` (`LoadDataWithTranspose`, arch 2201) {startIndex
/// `uint16_t`, repeatTimes `uint8_t`, srcStride `uint16_t`, dstGap `uint16_t`, dstFracGap
/// `uint16_t`, addrMode `uint8_t`}. For 8-bit types iteration r (< repeatTimes) reads the
/// 32×32 "square" made of two consecutive 16×32 source fractals at square index
/// `startIndex + r·srcStride` (unit: the square, 1024 B), transposes it, and writes its two
/// halves as the 512-B fractals `f = r·(dstGap + 1)` and `f + 1 + dstFracGap` (AscendC docs,
/// `LoadDataWithTranspose`; the model documents the exact interpretation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadData2dTransposeParams<V = i64> {
    pub start_index: V,
    pub repeat_times: V,
    pub src_stride: V,
    pub dst_gap: V,
    pub dst_frac_gap: V,
    pub addr_mode: V,
}

/// Fractals per `LoadData2DParams` call (`repeatTimes` is `uint8_t`).
pub const MAX_REPEAT: i64 = 255;

/// L1 → L0A. A2: L1 NZ (or ZN, transposed per 16×16 fractal, 16-bit only) → L0A **ZZ**, one
/// `LoadData` per row of fractals (catlass `CopyL1ToL0A<AtlasA2, zN → zZ>`); A5: L1 NZ → L0A
/// **NZ** with one `LoadData2DParamsV2` call. See [`l1_to_l0`] for the derivation.
pub fn l1_to_l0a<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    dtype: ElementType,
    target: Target,
) -> Result<Derived<V>> {
    l1_to_l0(src, dst, dtype, target, Buffer::L0A)
}

/// L1 → L0B (ZN on both targets). A2: NZ → ZN with `ifTranspose` per fractal (16-bit types),
/// 8-bit with `LoadDataWithTranspose` (squares of two fractals, see `transpose_b8_a2`), ZN → ZN without; A5: ZN → ZN
/// with `LoadData2DParamsV2`, NZ → ZN with its `ifTranspose` (16-bit). 32-bit transposes on A2
/// are `LoadDataWithTranspose` from sources whose fractal pairs are contiguous (L1 ZZ, see
/// `transpose_b32_a2`); on A5, and 8-bit ones there, `Unsupported`: load B as DN → L1 ZN instead.
pub fn l1_to_l0b<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    dtype: ElementType,
    target: Target,
) -> Result<Derived<V>> {
    l1_to_l0(src, dst, dtype, target, Buffer::L0B)
}

/// The common derivation. With `F` = fractal elements (`16·C0`) and the layouts written
/// `((r_in, r_out), (c_in, c_out))`:
///
/// * **A2** (`LoadData2DParams`), looping `i < shape(dst, r_out)` with destination step
///   `stride(dst, r_out)` and source step `stride(src, r_out)`: `repeatTimes = shape(dst, c_out)`,
///   `srcStride = stride(src, c_out)/F`, `dstGap = stride(dst, c_out)/F − 1`, `ifTranspose` =
///   the inner orders differ (row-major NZ/ZZ vs column-major ZN); more than 255 fractals per row
///   are split into calls of at most 255.
/// * **A5** (`LoadData2DParamsV2`), no transpose: the outer mode with stride `F` in the
///   destination is the "m" direction, the other one "k": `mStep`/`kStep` = their fractal counts,
///   `srcStride`/`dstStride` = the k-mode strides / F, start positions = source coordinate /
///   inner extents. With `ifTranspose` (16-bit, catlass ascend950 zN → nZ): "m" is the outer
///   mode with stride F in the **source**; the destination fractal (m, k) is at
///   `m·dstStride + k`, so `dstStride` = the destination's m-mode stride / F and its k mode must
///   have stride F (NZ(K,N) → ZN(K,N): mStep = K1, kStep = N1, srcStride = K1, dstStride = N1).
///
/// The source coordinate must be fractal aligned; addresses are checked against 512 B.
pub fn l1_to_l0<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    dtype: ElementType,
    target: Target,
    buffer: Buffer,
) -> Result<Derived<V>> {
    let instr: &'static str = match target {
        Target::A2 => "LoadData(LoadData2DParams)",
        Target::A5 => "LoadData(LoadData2DParamsV2)",
    };
    let want = match buffer {
        Buffer::L0A => target.l0a_pattern(),
        Buffer::L0B => FramePattern::ZN,
        _ => {
            return Err(ParamError::Unsupported {
                instr,
                detail: format!("destination buffer {} (L0A or L0B only)", buffer.name()),
            })
        }
    };
    let c0 = frame_c0(FramePattern::NZ, dtype)?;
    // ZZ / NN sources (catlass zZ, nN) only on A2, where `LoadDataWithTranspose` reads them
    // for 32-bit types (a2 L1 holds them for no verified kernel yet: layout-spec.md §1).
    let sources: &[FramePattern] = match target {
        Target::A2 => &[FramePattern::NZ, FramePattern::ZN, FramePattern::ZZ, FramePattern::NN],
        Target::A5 => &[FramePattern::NZ, FramePattern::ZN],
    };
    let s = Fractal::of(instr, "source (L1)", src.layout, sources)?;
    let d = Fractal::of(instr, "destination", dst.layout, &[want])?;
    for (who, f) in [("source", &s), ("destination", &d)] {
        if f.c0 != c0 {
            return Err(ParamError::Layout { instr, detail: format!("{who} C0 is {} but {dtype} needs {c0}", f.c0) });
        }
    }
    let frac = 16 * c0;
    if s.block_elems() != Some(frac) || d.block_elems() != Some(frac) {
        return Err(ParamError::Layout { instr, detail: format!("fractals must hold {frac} elements (512 B)") });
    }
    let transpose = s.inner_row_major() != d.inner_row_major();
    if transpose && dtype.bits() == 8 && target == Target::A2 {
        return transpose_b8_a2(src, dst, &s, &d, dtype, buffer);
    }
    if transpose && dtype.bits() == 32 && target == Target::A2 {
        return transpose_b32_a2(src, dst, &s, &d, dtype, buffer);
    }
    // Same fractal grid: inner (rows, cols) extents equal, else two fractals merge (8/32-bit
    // transposes: LoadDataWithTranspose on A2 for 8-bit, handled above; LoadData3DV2 for
    // 32-bit and the B8/B4 V2 transposes of A5 are not emitted).
    if s.shape[0] != d.shape[0] || s.shape[2] != d.shape[2] || (transpose && dtype.bits() != 16) {
        let how = match (target, dtype.bits()) {
            (Target::A5, 8) => "LoadData2DParamsV2 with ifTranspose on 8-bit squares (B8 mode), not emitted",
            _ => "a transposing load that merges fractals, not emitted",
        };
        return Err(ParamError::Unsupported {
            instr,
            detail: format!(
                "{} → {} for {dtype} needs {how}; load the operand in the destination's order instead",
                s.pattern, d.pattern
            ),
        });
    }
    let mut ck = Checker::new(instr);
    let eb = i64::from(dtype.bits() / 8);
    // Fractal-aligned source tile: the start is a whole fractal.
    ck.exact_div("src row coordinate", &src.coord[0], s.shape[0].as_constant().unwrap_or(1), "fractal rows")?;
    ck.exact_div("src col coordinate", &src.coord[1], s.shape[2].as_constant().unwrap_or(1), "fractal cols")?;
    let zero = V::constant(0);
    let one = V::constant(1);
    let dst_off = dst.offset()?;
    let mut instrs = Vec::new();
    match target {
        Target::A2 => {
            let specs = LoadData2DParams::<V>::specs();
            let src_off = src.offset()?;
            let src_stride = ck.exact_div("srcStride", &s.stride[3], frac, "fractal (512 B)")?;
            let dst_gap = ck.exact_div("dstGap", &d.stride[3], frac, "fractal (512 B)")?.sub(&one)?;
            let cols = d.shape[3].clone();
            // Chunks of at most 255 fractals along the row of fractals.
            for (start, count) in repeat_chunks(&cols) {
                let p = LoadData2DParams {
                    start_index: ck.field(specs[0], zero.clone())?,
                    repeat_times: ck.field(specs[1], count)?,
                    src_stride: ck.field(specs[2], src_stride.clone())?,
                    sid: ck.field(specs[3], zero.clone())?,
                    dst_gap: ck.field(specs[4], dst_gap.clone())?,
                    if_transpose: transpose,
                    addr_mode: ck.field(specs[5], zero.clone())?,
                };
                instrs.push(Instr {
                    intrinsic: Intrinsic::LoadData2D(p),
                    dst: Access { buffer, offset: dst_off.add(&start.mul(&d.stride[3])?)?, step: d.stride[1].clone() },
                    srcs: vec![Access {
                        buffer: Buffer::L1,
                        offset: src_off.add(&start.mul(&s.stride[3])?)?,
                        step: s.stride[1].clone(),
                    }],
                    repeat: d.shape[1].clone(),
                });
            }
        }
        Target::A5 => {
            // The "m" direction: the outer mode with stride F (contiguous fractals) in the
            // source; without transpose also in the destination, with transpose the
            // destination's fractal (m, k) is at m·dstStride + k, so its k mode has stride F.
            let m_mode = if transpose {
                if s.stride[1].is_constant(frac) {
                    0
                } else if s.stride[3].is_constant(frac) {
                    1
                } else {
                    return Err(ParamError::Layout {
                        instr,
                        detail: format!("no outer mode of the source {} has the fractal stride {frac}", src.layout),
                    });
                }
            } else if d.stride[1].is_constant(frac) {
                0
            } else if d.stride[3].is_constant(frac) {
                1
            } else {
                return Err(ParamError::Layout {
                    instr,
                    detail: format!("no outer mode of the destination {} has the fractal stride {frac}", dst.layout),
                });
            };
            let (mi, ki) = if m_mode == 0 { (1, 3) } else { (3, 1) };
            if transpose {
                ck.equal("destination k stride", &d.stride[ki], &V::constant(frac), || {
                    format!("destination {} must have contiguous fractals along the source's k mode", dst.layout)
                })?;
            } else {
                ck.equal("source m stride", &s.stride[mi], &V::constant(frac), || {
                    format!("source {} must have contiguous fractals along the destination's m mode", src.layout)
                })?;
            }
            let specs = LoadData2DParamsV2::<V>::specs();
            let (sr, sc) = (&src.coord[m_mode], &src.coord[1 - m_mode]);
            let m_start = sr.floor_div(&s.shape[mi - 1])?;
            let k_start = sc.floor_div(&s.shape[ki - 1])?;
            let src_stride = ck_div(&mut ck, "srcStride", &s.stride[ki], frac)?;
            let dst_stride = ck_div(&mut ck, "dstStride", &d.stride[if transpose { mi } else { ki }], frac)?;
            let p = LoadData2DParamsV2 {
                m_start_position: ck.field(specs[0], m_start)?,
                k_start_position: ck.field(specs[1], k_start)?,
                m_step: ck.field(specs[2], d.shape[mi].clone())?,
                k_step: ck.field(specs[3], d.shape[ki].clone())?,
                src_stride: ck.field(specs[4], src_stride)?,
                dst_stride: ck.field(specs[5], dst_stride)?,
                if_transpose: transpose,
                sid: ck.field(specs[6], zero.clone())?,
            };
            instrs.push(Instr {
                intrinsic: Intrinsic::LoadData2DV2(p),
                dst: Access { buffer, offset: dst_off, step: zero.clone() },
                srcs: vec![Access { buffer: Buffer::L1, offset: zero.clone(), step: zero.clone() }],
                repeat: one,
            });
        }
    }
    for ins in &instrs {
        ck.aligned("dst", buffer, &dst.base_bytes, &ins.dst.offset, &ins.dst.step, eb)?;
        ck.aligned("src", Buffer::L1, &src.base_bytes, &ins.srcs[0].offset, &ins.srcs[0].step, eb)?;
    }
    Ok(Derived { instrs, assumptions: ck.assumptions })
}

/// A2, 8-bit, inner orders differ (L1 NZ → L0B ZN, L1 ZN → L0A ZZ): `LoadDataWithTranspose`.
///
/// The "pair" mode `pm` is the logical mode along which a source fractal has 16 elements (rows
/// for NZ, columns for ZN), the other one `om` has 32. Two source fractals consecutive along
/// `pm` (outer stride F) form the 32×32 square `S[pm][om]`; its transpose is `T[om][pm]`, whose
/// rows 0..15 / 16..31 are the destination fractals (p, 2q) / (p, 2q + 1) in (pm, om) fractal
/// coordinates (destination inner extents 32 along pm, 16 along om). So, with `D_*`/`S_*` the
/// outer strides: `dstFracGap = D_om/F − 1`, `dstGap = 2·D_om/F − 1`, `srcStride = S_om/(2F)`
/// (squares), `repeatTimes = (destination fractals along om)/2`, one call per square row p
/// (destination step `D_pm`, source step `2·S_pm`). Requires an even number of source
/// fractals along pm equal to twice the destination's (L1 padded to 32 along pm) and an even
/// number of destination fractals along om (padded to 32), else the second half of the last
/// square would land outside the tile (typed error). Odd counts of the real extent are handled
/// as in catlass by allocating padded tiles (explicit layouts, origin = the real extent): L1
/// NZ(K,N) with rows padded to 32, L0B ZN(K,N) and L0C with columns padded to 32; `mmad` then
/// runs the cube with `n = align(n, 32)`. The extra L0B columns of the real rows hold the
/// ND2NZ zero fill of the L1 C0 tail, the extra rows whatever the L1 padding held (never read:
/// Mmad's k is real); the extra L0C columns are never stored (Fixpipe's nSize = real n).
fn transpose_b8_a2<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    s: &Fractal<V>,
    d: &Fractal<V>,
    dtype: ElementType,
    buffer: Buffer,
) -> Result<Derived<V>> {
    const INSTR: &str = "LoadDataWithTranspose(LoadData2dTransposeParams)";
    let frac = 512;
    // pm: the source's 16-element inner mode (0 = rows, 1 = columns).
    let pm = if s.shape[0].is_constant(16) { 0 } else { 1 };
    let (spi, soi) = if pm == 0 { (1, 3) } else { (3, 1) };
    if !s.shape[2 * pm].is_constant(16)
        || !s.shape[2 * (1 - pm)].is_constant(32)
        || !d.shape[2 * pm].is_constant(32)
        || !d.shape[2 * (1 - pm)].is_constant(16)
    {
        return Err(ParamError::Layout {
            instr: INSTR,
            detail: format!(
                "expected 16×32 / 32×16 fractals transposed into each other, got {} → {}",
                src.layout, dst.layout
            ),
        });
    }
    let mut ck = Checker::new(INSTR);
    ck.equal("source pair stride", &s.stride[spi], &V::constant(frac), || {
        format!("source {} must hold the two fractals of a square consecutively (outer stride {frac} along the 16-element mode)", src.layout)
    })?;
    // Squares must be complete: an even number of 16-element source fractals along pm (the
    // L1 tile padded to 32), and (static) enough of them for the destination.
    let pairs = d.shape[spi].clone();
    let along = if pm == 0 { "rows" } else { "columns" };
    if let Some(v) = s.shape[spi].as_constant().filter(|v| v % 2 != 0) {
        return Err(ParamError::Layout {
            instr: INSTR,
            detail: format!("{} → {} for {dtype}: the 32×32 squares need an even number of 16-element L1 fractals along {along}, {} has {v} (pad the L1 tile to a multiple of 32 {along})", s.pattern, d.pattern, src.layout),
        });
    }
    ck.exact_div("source fractals along the pair mode", &s.shape[spi], 2, "square (two fractals)")?;
    let dst_om = d.shape[soi].clone();
    let squares = ck.exact_div(
        "repeatTimes",
        &dst_om,
        2,
        "two destination fractals per square (pad the L0 tile to 32 along the 16-element mode)",
    )?;
    if let (Some(sp), Some(p2), Some(so), Some(sq)) =
        (s.shape[spi].as_constant(), pairs.as_constant(), s.shape[soi].as_constant(), squares.as_constant())
    {
        if sp < 2 * p2 || so < sq {
            return Err(ParamError::Layout {
                instr: INSTR,
                detail: format!("source {} is smaller than the destination {}", src.layout, dst.layout),
            });
        }
    }
    ck.exact_div("src coordinate (pair mode)", &src.coord[pm], 32, "square (32 elements)")?;
    ck.exact_div("src coordinate", &src.coord[1 - pm], 32, "square (32 elements)")?;
    let one = V::constant(1);
    let src_stride = ck.exact_div("srcStride", &s.stride[soi], 2 * frac, "square (1024 B)")?;
    let d_om = ck.exact_div("dstFracGap", &d.stride[soi], frac, "fractal (512 B)")?;
    let dst_frac_gap = d_om.sub(&one)?;
    let dst_gap = d_om.mul(&V::constant(2))?.sub(&one)?;
    let (src_off, dst_off) = (src.offset()?, dst.offset()?);
    let two = V::constant(2);
    // `start` squares along om: 2·start destination fractals, `start` source squares.
    let place = |start: &V| {
        let dst_at = Access {
            buffer,
            offset: dst_off.add(&start.mul(&two)?.mul(&d.stride[soi])?)?,
            step: d.stride[spi].clone(),
        };
        let src_at = Access {
            buffer: Buffer::L1,
            offset: src_off.add(&start.mul(&s.stride[soi])?)?,
            step: s.stride[spi].mul(&two)?,
        };
        Ok((dst_at, src_at))
    };
    let gaps = TransposeGaps { src_stride, dst_gap, dst_frac_gap };
    transpose_calls(ck, &squares, gaps, &pairs, (dst, src), 1, place)
}

/// A2, 32-bit, inner orders differ: `LoadDataWithTranspose` on 16×16 squares.
///
/// A 32-bit fractal is 16 × 8: 16 elements along the source's "pair" mode `pm` (rows for
/// ZZ/NZ, columns for NN/ZN), 8 along the other one, `qm`. The instruction joins two
/// *consecutive* 512-B source fractals side by side along `qm` into the square `S[pm][qm]`
/// (16 × 16), transposes it and writes `T = Sᵀ` as two 16 × 8 destination fractals: `T`'s
/// first 8 columns (pm 0..7) and its last 8 (pm 8..15), i.e. the destination fractals (2p, q)
/// and (2p + 1, q) in (pm, qm) fractal coordinates (destination inner extents 8 along pm, 16
/// along qm). So the source's fractals along `qm` must be contiguous (outer stride F): L1 ZZ
/// for B (K,N) → L0B ZN and L1 NN for A (M,K) → L0A ZZ (catlass `zZ → nZ` / `nN → zZ` for
/// float), or an NZ / ZN tile with a single 16-element fractal along pm. NZ / ZN tiles with more
/// put the pair along pm instead, which is the wrong pair (typed error).
///
/// With `c` destination fractals along pm, `P = ceil(c/2)` squares along pm and `Q` along qm
/// (`D_*` / `S_*` the outer strides), two arrangements, as catlass issues them:
///
/// * **along qm** (L0B, catlass `zZ → nZ`): one call per square row p (destination step
///   `2·D_pm`, source step `S_pm`), `repeatTimes = Q`, `srcStride = 2·S_qm/(2F)` squares,
///   `dstGap = D_qm/F − 1`, `dstFracGap = D_pm/F − 1`;
/// * **along pm** (L0A ZZ, whose fractals are contiguous along pm, `D_pm = F`, and not along
///   qm as well with an even `c`; catlass `nN → zZ`): one call per square column q (destination step `D_qm`, source step `2·S_qm`),
///   `repeatTimes = P`, `srcStride = S_pm/(2F)` squares, `dstGap = 2·D_pm/F − 1`,
///   `dstFracGap = D_pm/F − 1`.
///
/// **Odd `c`** (a K tail of 8, 24, … elements: `c = ceil(k/8)`): the last square of every q
/// writes its second half one fractal past the tile along pm, at `c·D_pm + q·D_qm`. In L0B ZN
/// that is outside the tile (row c); in L0A ZZ it is fractal (q + 1, 0), which the *next* call
/// of the along-pm arrangement writes afterwards (calls on one pipe run in order), so only the
/// last one lands outside. Both need the spare fractal row inside the buffer: the operand must
/// be written from the start of a buffer (`Operand::in_buffer`) of the same pattern whose
/// fractal count along pm is even and at least `c` (an odd `c` is then below it) with the same
/// grid along qm; else a `Layout` error says to pad the L0 tile. Mmad reads only the first
/// `c` fractals (its k is real), so the spare row is never read.
fn transpose_b32_a2<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    s: &Fractal<V>,
    d: &Fractal<V>,
    dtype: ElementType,
    buffer: Buffer,
) -> Result<Derived<V>> {
    const INSTR: &str = "LoadDataWithTranspose(LoadData2dTransposeParams)";
    let frac = 128; // elements of a 512-B 32-bit fractal
    let pm = if s.shape[0].is_constant(16) { 0 } else { 1 };
    let qm = 1 - pm;
    let (spo, sqo) = (2 * pm + 1, 2 * qm + 1);
    if !s.shape[2 * pm].is_constant(16)
        || !s.shape[2 * qm].is_constant(8)
        || !d.shape[2 * pm].is_constant(8)
        || !d.shape[2 * qm].is_constant(16)
    {
        return Err(ParamError::Layout {
            instr: INSTR,
            detail: format!(
                "expected 16×8 / 8×16 fractals transposed into each other, got {} → {}",
                src.layout, dst.layout
            ),
        });
    }
    let along = |m: usize| if m == 0 { "rows" } else { "columns" };
    let mut ck = Checker::new(INSTR);
    // The layout goes last, after ", got ", as in the other layout errors.
    let pair_detail = || {
        format!(
            "{} → {} for {dtype}: a 16×16 square joins two consecutive 16×8 fractals that are neighbours along the {}, so the L1 fractals must be contiguous along the {} (outer stride {frac}: load the operand into L1 as {}, or as tiles of 16 {}), got {} with outer stride {}",
            s.pattern,
            d.pattern,
            along(qm),
            along(qm),
            if pm == 0 { "ZZ" } else { "NN" },
            along(pm),
            src.layout,
            s.stride[sqo]
        )
    };
    if s.stride[sqo].as_constant().is_some_and(|v| v != frac) {
        return Err(ParamError::Unsupported { instr: INSTR, detail: pair_detail() });
    }
    ck.equal("source pair stride", &s.stride[sqo], &V::constant(frac), pair_detail)?;
    let c = d.shape[spo].clone();
    let even = c.as_constant().is_some_and(|v| v % 2 == 0);
    if !even {
        spare_row(&mut ck, dst, d, (spo, sqo), || {
            format!("{} → {} for {dtype}: each 16×16 square writes two 8-element destination fractals along {}, and {} has {c} of them (an odd count or a dynamic one: the last square's second half needs a spare fractal row, so the tile must start a buffer whose fractal count along {} is even, or pad the L0 tile to a multiple of 16 {})", s.pattern, d.pattern, along(pm), dst.layout, along(pm), along(pm))
        })?;
    }
    let two = V::constant(2);
    let pairs = c.ceil_div(&two)?;
    let squares = d.shape[sqo].clone();
    if let (Some(sp), Some(p), Some(sq), Some(q)) =
        (s.shape[spo].as_constant(), pairs.as_constant(), s.shape[sqo].as_constant(), squares.as_constant())
    {
        if sp < p || sq < 2 * q {
            return Err(ParamError::Layout {
                instr: INSTR,
                detail: format!(
                    "source {} is smaller than the destination {} (pad the L1 tile to a multiple of 16 {})",
                    src.layout,
                    dst.layout,
                    along(qm)
                ),
            });
        }
    }
    ck.exact_div("src coordinate (pair mode)", &src.coord[pm], 16, "square (16 elements)")?;
    ck.exact_div("src coordinate", &src.coord[qm], 16, "square (16 elements)")?;
    let one = V::constant(1);
    let dst_frac_gap = ck.exact_div("dstFracGap", &d.stride[spo], frac, "fractal (512 B)")?.sub(&one)?;
    let (src_off, dst_off) = (src.offset()?, dst.offset()?);
    // Along pm where the destination's fractals are contiguous along pm (L0A ZZ), unless they
    // are along qm too and every square lands inside the tile (then the catlass order below).
    if d.stride[spo].is_constant(frac) && !(d.stride[sqo].is_constant(frac) && even) {
        // Along pm: one call per square column q, the squares of the column as repeats.
        let src_stride = ck.exact_div("srcStride", &s.stride[spo], 2 * frac, "square (1024 B)")?;
        let dst_gap = dst_frac_gap.add(&one)?.mul(&two)?.sub(&one)?;
        let place = |start: &V| {
            let dst_at = Access {
                buffer,
                offset: dst_off.add(&start.mul(&two)?.mul(&d.stride[spo])?)?,
                step: d.stride[sqo].clone(),
            };
            let src_at = Access {
                buffer: Buffer::L1,
                offset: src_off.add(&start.mul(&s.stride[spo])?)?,
                step: s.stride[sqo].mul(&two)?,
            };
            Ok((dst_at, src_at))
        };
        let gaps = TransposeGaps { src_stride, dst_gap, dst_frac_gap };
        return transpose_calls(ck, &pairs, gaps, &squares, (dst, src), 4, place);
    }
    // Along qm: one call per square row p, the squares of the row as repeats.
    let src_stride = ck.exact_div("srcStride", &s.stride[sqo].mul(&two)?, 2 * frac, "square (1024 B)")?;
    let dst_gap = ck.exact_div("dstGap", &d.stride[sqo], frac, "fractal (512 B)")?.sub(&one)?;
    // `start` squares along qm: `start` destination fractals, 2·start source fractals.
    let place = |start: &V| {
        let dst_at =
            Access { buffer, offset: dst_off.add(&start.mul(&d.stride[sqo])?)?, step: d.stride[spo].mul(&two)? };
        let src_at = Access {
            buffer: Buffer::L1,
            offset: src_off.add(&start.mul(&two)?.mul(&s.stride[sqo])?)?,
            step: s.stride[spo].clone(),
        };
        Ok((dst_at, src_at))
    };
    let gaps = TransposeGaps { src_stride, dst_gap, dst_frac_gap };
    transpose_calls(ck, &squares, gaps, &pairs, (dst, src), 4, place)
}

/// The spare destination fractal row an odd (or dynamic) count `c` of 8-element fractals along
/// pm needs (see [`transpose_b32_a2`]): `dst` is written from offset 0 of a buffer of the same
/// pattern with an even, static fractal count `cb` along pm, at least `c` (so an odd `c` is at
/// most `cb − 1`), and the same fractal grid along qm. Then the fractals one row past the tile
/// lie inside the frame of `c + 1 ≤ cb` rows, i.e. inside the buffer.
fn spare_row<V: IndexValue>(
    ck: &mut Checker<V>,
    dst: &Operand<V>,
    d: &Fractal<V>,
    (spo, sqo): (usize, usize),
    detail: impl Fn() -> String,
) -> Result<()> {
    let instr = ck.instr;
    let bad = || ParamError::Layout { instr, detail: detail() };
    let whole = dst.buffer_layout.ok_or_else(bad)?;
    let b = Fractal::of(instr, "destination buffer", whole, &[d.pattern]).map_err(|_| bad())?;
    let cb = b.shape[spo].as_constant().filter(|v| v % 2 == 0).ok_or_else(bad)?;
    let at_start = dst.offset()?.is_constant(0) && dst.coord.iter().all(|x| x.is_constant(0));
    let same_inner = (0..2).all(|m| b.shape[2 * m] == d.shape[2 * m]);
    if !at_start || !same_inner || b.shape[sqo] != d.shape[sqo] {
        return Err(bad());
    }
    match d.shape[spo].as_constant() {
        Some(c) if c > cb => Err(bad()),
        Some(_) => Ok(()),
        None => {
            ck.assumptions.push(Assumption {
                instr,
                field: "destination fractals along the pair mode",
                value: d.shape[spo].clone(),
                requirement: Requirement::InRange { min: 0, max: cb },
            });
            Ok(())
        }
    }
}

/// `(start, count)` chunks of at most `MAX_REPEAT` repeats covering `n`; one chunk `(0, n)`
/// when `n` fits or is dynamic (the field check then bounds it). E.g. 600 → (0,255) (255,255) (510,90).
fn repeat_chunks<V: IndexValue>(n: &V) -> Vec<(V, V)> {
    match n.as_constant() {
        Some(n) if n > MAX_REPEAT => (0..n)
            .step_by(MAX_REPEAT as usize)
            .map(|start| (V::constant(start), V::constant((n - start).min(MAX_REPEAT))))
            .collect(),
        _ => vec![(V::constant(0), n.clone())],
    }
}

/// The three stride fields of `LoadData2dTransposeParams`, in fractals.
struct TransposeGaps<V> {
    src_stride: V,
    dst_gap: V,
    dst_frac_gap: V,
}

/// The `LoadDataWithTranspose` calls of the 8-bit and 32-bit forms: `squares` in chunks of at
/// most 255, each call `repeat` times, placed by `place(start)` (the destination and source
/// access of the chunk's first square), every access checked aligned for `elem_bytes`.
fn transpose_calls<V: IndexValue>(
    mut ck: Checker<V>,
    squares: &V,
    gaps: TransposeGaps<V>,
    repeat: &V,
    (dst, src): (&Operand<V>, &Operand<V>),
    elem_bytes: i64,
    place: impl Fn(&V) -> Result<(Access<V>, Access<V>)>,
) -> Result<Derived<V>> {
    let specs = LoadData2dTransposeParams::<V>::specs();
    let zero = V::constant(0);
    let mut instrs = Vec::new();
    for (start, count) in repeat_chunks(squares) {
        let p = LoadData2dTransposeParams {
            start_index: ck.field(specs[0], zero.clone())?,
            repeat_times: ck.field(specs[1], count)?,
            src_stride: ck.field(specs[2], gaps.src_stride.clone())?,
            dst_gap: ck.field(specs[3], gaps.dst_gap.clone())?,
            dst_frac_gap: ck.field(specs[4], gaps.dst_frac_gap.clone())?,
            addr_mode: ck.field(specs[5], zero.clone())?,
        };
        let (dst_at, src_at) = place(&start)?;
        ck.aligned("dst", dst_at.buffer, &dst.base_bytes, &dst_at.offset, &dst_at.step, elem_bytes)?;
        ck.aligned("src", Buffer::L1, &src.base_bytes, &src_at.offset, &src_at.step, elem_bytes)?;
        instrs.push(Instr {
            intrinsic: Intrinsic::LoadDataWithTranspose(p),
            dst: dst_at,
            srcs: vec![src_at],
            repeat: repeat.clone(),
        });
    }
    Ok(Derived { instrs, assumptions: ck.assumptions })
}

fn ck_div<V: IndexValue>(ck: &mut Checker<V>, field: &'static str, v: &V, frac: i64) -> Result<V> {
    ck.exact_div(field, v, frac, "fractal (512 B)")
}
