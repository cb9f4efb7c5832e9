//! L1 → L0A / L0B: `LoadData` with `LoadData2DParams` (arch 2201) and `LoadData2DParamsV2`
//! (arch 3510). Units are 512-byte fractals.

use layout_algebra::ascend::{frame_c0, ElementType, FramePattern};
use layout_algebra::IndexValue;

use crate::error::{ParamError, Result};
use crate::field::{CType, Checker, FieldSpec};
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

impl<V> LoadData2DParams<V> {
    /// Integer fields `(AscendC name, value)` in constructor order (`ifTranspose` is the bool
    /// between `dstGap` and `addrMode`).
    pub fn fields(&self) -> [(&'static str, &V); 6] {
        [
            ("startIndex", &self.start_index),
            ("repeatTimes", &self.repeat_times),
            ("srcStride", &self.src_stride),
            ("sid", &self.sid),
            ("dstGap", &self.dst_gap),
            ("addrMode", &self.addr_mode),
        ]
    }

    pub fn specs() -> [FieldSpec; 6] {
        use CType::*;
        [
            FieldSpec::full("startIndex", U16),
            FieldSpec::full("repeatTimes", U8),
            FieldSpec::full("srcStride", U16),
            FieldSpec::full("sid", U8),
            FieldSpec::full("dstGap", U16),
            FieldSpec::full("addrMode", U8),
        ]
    }
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

impl<V> LoadData2DParamsV2<V> {
    pub fn fields(&self) -> [(&'static str, &V); 7] {
        [
            ("mStartPosition", &self.m_start_position),
            ("kStartPosition", &self.k_start_position),
            ("mStep", &self.m_step),
            ("kStep", &self.k_step),
            ("srcStride", &self.src_stride),
            ("dstStride", &self.dst_stride),
            ("sid", &self.sid),
        ]
    }

    pub fn specs() -> [FieldSpec; 7] {
        use CType::*;
        [
            FieldSpec::full("mStartPosition", U32),
            FieldSpec::full("kStartPosition", U32),
            FieldSpec::full("mStep", U16),
            FieldSpec::full("kStep", U16),
            FieldSpec::ranged("srcStride", I32, 0, i32::MAX as i64),
            FieldSpec::full("dstStride", U16),
            FieldSpec::full("sid", U8),
        ]
    }
}

/// Fractals per `LoadData2DParams` call (`repeatTimes` is `uint8_t`).
pub const MAX_REPEAT: i64 = 255;

/// L1 → L0A. A2: L1 NZ (or ZN, transposed per 16×16 fractal, 16-bit only) → L0A **ZZ**, one
/// `LoadData` per row of fractals (catlass `CopyL1ToL0A<AtlasA2, zN → zZ>`); A5: L1 NZ → L0A
/// **NZ** with one `LoadData2DParamsV2` call. See [`l1_to_l0`] for the derivation.
pub fn l1_to_l0a<V: IndexValue>(src: &Operand<V>, dst: &Operand<V>, dtype: ElementType, target: Target) -> Result<Derived<V>> {
    l1_to_l0(src, dst, dtype, target, Buffer::L0A)
}

/// L1 → L0B (ZN on both targets). A2: NZ → ZN with `ifTranspose` per fractal (16-bit types;
/// 8/32-bit need `LoadDataWithTranspose`, unsupported: load B as DN → L1 ZN instead), ZN → ZN
/// without; A5: ZN → ZN with `LoadData2DParamsV2`.
pub fn l1_to_l0b<V: IndexValue>(src: &Operand<V>, dst: &Operand<V>, dtype: ElementType, target: Target) -> Result<Derived<V>> {
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
/// * **A5** (`LoadData2DParamsV2`, no transpose): the outer mode with stride `F` in the
///   destination is the "m" direction, the other one "k": `mStep`/`kStep` = their fractal counts,
///   `srcStride`/`dstStride` = the k-mode strides / F, start positions = source coordinate /
///   inner extents.
///
/// The source coordinate must be fractal aligned; addresses are checked against 512 B.
pub fn l1_to_l0<V: IndexValue>(src: &Operand<V>, dst: &Operand<V>, dtype: ElementType, target: Target, buffer: Buffer) -> Result<Derived<V>> {
    let instr: &'static str = match target {
        Target::A2 => "LoadData(LoadData2DParams)",
        Target::A5 => "LoadData(LoadData2DParamsV2)",
    };
    let want = match buffer {
        Buffer::L0A => target.l0a_pattern(),
        Buffer::L0B => FramePattern::ZN,
        _ => return Err(ParamError::Unsupported { instr, detail: format!("destination buffer {} (L0A or L0B only)", buffer.name()) }),
    };
    let c0 = frame_c0(FramePattern::NZ, dtype)?;
    let s = Fractal::of(instr, "source (L1)", src.layout, &[FramePattern::NZ, FramePattern::ZN])?;
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
    // Same fractal grid: inner (rows, cols) extents equal, else two fractals merge (8/32-bit
    // transposes: LoadDataWithTranspose / LoadData3DV2, not emitted).
    if s.shape[0] != d.shape[0] || s.shape[2] != d.shape[2] || (transpose && dtype.bits() != 16) {
        return Err(ParamError::Unsupported {
            instr,
            detail: format!(
                "{} → {} for {dtype} needs a transposing load that merges fractals (LoadDataWithTranspose); load the operand in the destination's order instead",
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
            let chunks: Vec<(V, V)> = match cols.as_constant() {
                Some(n) if n > MAX_REPEAT => (0..n).step_by(MAX_REPEAT as usize).map(|start| (V::constant(start), V::constant((n - start).min(MAX_REPEAT)))).collect(),
                _ => vec![(zero.clone(), cols.clone())],
            };
            for (start, count) in chunks {
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
                    srcs: vec![Access { buffer: Buffer::L1, offset: src_off.add(&start.mul(&s.stride[3])?)?, step: s.stride[1].clone() }],
                    repeat: d.shape[1].clone(),
                });
            }
        }
        Target::A5 => {
            if transpose {
                return Err(ParamError::Unsupported {
                    instr,
                    detail: format!("{} → {} needs LoadData2DParamsV2 with ifTranspose, not emitted yet; load the operand as {} in L1", s.pattern, d.pattern, d.pattern),
                });
            }
            // The contiguous outer mode ("m"): stride F in the destination, and in the source.
            let m_mode = if d.stride[1].is_constant(frac) { 0 } else if d.stride[3].is_constant(frac) { 1 } else {
                return Err(ParamError::Layout { instr, detail: format!("no outer mode of the destination {} has the fractal stride {frac}", dst.layout) });
            };
            let (mi, ki) = if m_mode == 0 { (1, 3) } else { (3, 1) };
            ck.equal("source m stride", &s.stride[mi], &V::constant(frac), || format!("source {} must have contiguous fractals along the destination's m mode", src.layout))?;
            let specs = LoadData2DParamsV2::<V>::specs();
            let (sr, sc) = (&src.coord[m_mode], &src.coord[1 - m_mode]);
            let m_start = sr.floor_div(&s.shape[mi - 1])?;
            let k_start = sc.floor_div(&s.shape[ki - 1])?;
            let src_stride = ck_div(&mut ck, "srcStride", &s.stride[ki], frac)?;
            let dst_stride = ck_div(&mut ck, "dstStride", &d.stride[ki], frac)?;
            let p = LoadData2DParamsV2 {
                m_start_position: ck.field(specs[0], m_start)?,
                k_start_position: ck.field(specs[1], k_start)?,
                m_step: ck.field(specs[2], d.shape[mi].clone())?,
                k_step: ck.field(specs[3], d.shape[ki].clone())?,
                src_stride: ck.field(specs[4], src_stride)?,
                dst_stride: ck.field(specs[5], dst_stride)?,
                if_transpose: false,
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

fn ck_div<V: IndexValue>(ck: &mut Checker<V>, field: &'static str, v: &V, frac: i64) -> Result<V> {
    ck.exact_div(field, v, frac, "fractal (512 B)")
}
