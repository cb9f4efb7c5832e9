//! GM → L1: `DataCopy` with `Nd2NzParams` (ND → NZ, and DN → ZN through the transpose pair) and
//! the plain `DataCopyParams`.

use layout_algebra::ascend::{frame_c0, ElementType, FramePattern, FRACTAL_ROWS};
use layout_algebra::IndexValue;

use crate::error::{ParamError, Result};
use crate::field::Checker;
use crate::instr::{Access, Derived, Instr, Intrinsic};
use crate::operand::{row_stride_nd, transposed, Fractal, Operand};
use crate::target::{Buffer, Target};

/// AscendC `Nd2NzParams` {ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride,
/// dstNzNStride, dstNzMatrixStride}. Widths: arch 2201 all `uint16_t`; arch 3510 `dValue`
/// `uint32_t`, `srcNdMatrixStride`/`srcDValue` `uint64_t`, `dstNzMatrixStride` `uint32_t`
/// (see [`Nd2NzParams::specs`]). `srcDValue`, the matrix strides: elements; `dstNzC0Stride`,
/// `dstNzNStride`: 32-byte C0 blocks.
///
/// Worked example (docs/layout-spec.md §D.4): m = 40, k = 56 fp16, GM row-major 40×56 → L1 NZ
/// `((16,3),(16,4)):((16,256),(1,768))` gives `ndNum=1, nValue=40, dValue=56, srcDValue=56,
/// dstNzC0Stride=48, dstNzNStride=1` (48 = stride(c_out)/C0 = 768/16, 1 = stride(r_in)/C0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nd2NzParams<V = i64> {
    pub nd_num: V,
    pub n_value: V,
    pub d_value: V,
    pub src_nd_matrix_stride: V,
    pub src_d_value: V,
    pub dst_nz_c0_stride: V,
    pub dst_nz_n_stride: V,
    pub dst_nz_matrix_stride: V,
}

/// AscendC `DataCopyParams` {blockCount, blockLen, srcStride, dstStride}, all `uint16_t`;
/// `blockLen` and the gaps in 32-byte blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataCopyParams<V = i64> {
    pub block_count: V,
    pub block_len: V,
    pub src_stride: V,
    pub dst_stride: V,
}

const ND2NZ: &str = "DataCopy(Nd2NzParams)";

/// GM ND → L1 NZ (`DataCopy` with `Nd2NzParams`, docs/layout-spec.md §D.4), or GM DN → L1 ZN (the same
/// instruction on the transposed views: DN(K,N) of B is ND(N,K) of Bᵀ and ZN(K,N) is NZ(N,K)).
///
/// Derivation (all from the layouts):
/// `nValue, dValue` = the source's valid extent (origin); `srcDValue` = ND row stride;
/// `dstNzC0Stride = stride(dst, c_out) / C0`; `dstNzNStride = stride(dst, r_in) / C0`;
/// `ndNum = 1`, matrix strides 0. Source address `src.crd_to_offset(coord)`, destination
/// `dst.crd_to_offset(coord)` (a fractal-aligned coordinate: rows multiple of 16, cols of C0).
///
/// Splitting: on arch 2201 a `srcDValue` above 65535 becomes one instruction per row
/// (`nValue = 1`, looped, as catlass `CopyGmToL1` does). Other overflows are errors: more than
/// 16384 rows cannot be split, since `dstNzC0Stride = align(rows, 16)` overflows with them.
///
/// Example (docs/layout-spec.md §D.4): m = 40, k = 56 fp16 → one call with `ndNum=1, nValue=40, dValue=56,
/// srcDValue=56, dstNzC0Stride=48, dstNzNStride=1`.
///
/// **Banded form** (GM ND → L1 ZZ, and DN → NN as the transposed views; a2 f32, the layouts the
/// 32-bit `LoadDataWithTranspose` reads): a ZZ tile is a row-major grid of fractals, so one
/// ND2NZ call cannot place more than one 16-row band (its destination row address is linear in
/// the row). Each band is one call of `nValue = 16` rows (`dstNzC0Stride = stride(c_out)/C0 = 16`,
/// `dstNzNStride = 1`), looped over the `rows / 16` full bands (destination step
/// `stride(r_out)`, source step `16·srcDValue`), plus one call of `nValue = rows mod 16` for the
/// row tail, issued `ceil((rows mod 16)/16)` times (once or not at all, also for a dynamic row
/// count). catlass `CopyGmToL1<RowMajor → zZ>` (hicann/catlass
/// include/catlass/gemm/tile/copy_gm_to_l1.hpp) moves the same bands through `ndNum`, or one
/// band per call when the band stride leaves `uint16_t`; one band per call has no such limit.
/// With a GM row stride above 65535 (arch 2201) every row is its own call: 16 loops, row `i` of
/// every band (`ceil((rows − i)/16)` calls each).
pub fn gm_nd_to_l1_nz<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    dtype: ElementType,
    target: Target,
) -> Result<Derived<V>> {
    use FramePattern::{NN, NZ, ZN, ZZ};
    let c0 = frame_c0(FramePattern::NZ, dtype)?;
    // Either ND -> NZ / ZZ directly, or DN -> ZN / NN as the transposed views.
    let dst_is_zn = matches!(Fractal::of(ND2NZ, "destination (L1)", dst.layout, &[NZ, ZN, ZZ, NN])?.pattern, ZN | NN);
    let (src_l, dst_l, src_coord, dst_coord) = if dst_is_zn {
        let [a, b] = src.coord.clone();
        let [c, d] = dst.coord.clone();
        (transposed(src.layout)?, transposed(dst.layout)?, [b, a], [d, c])
    } else {
        (src.layout.clone(), dst.layout.clone(), src.coord.clone(), dst.coord.clone())
    };
    let src_v = Operand { layout: &src_l, coord: src_coord, base_bytes: src.base_bytes.clone(), buffer_layout: None };
    let dst_v = Operand { layout: &dst_l, coord: dst_coord, base_bytes: dst.base_bytes.clone(), buffer_layout: None };
    let nz = Fractal::of(ND2NZ, "destination (L1)", &dst_l, &[NZ, ZZ])?;
    let banded = nz.pattern == ZZ;
    if nz.c0 != c0 {
        return Err(ParamError::Layout {
            instr: ND2NZ,
            detail: format!("destination C0 is {} but {dtype} needs C0 = {c0}, got {}", nz.c0, dst.layout),
        });
    }
    let src_d_value =
        row_stride_nd(ND2NZ, if dst_is_zn { "source (GM, DN seen transposed)" } else { "source (GM)" }, &src_l)?;
    let mut ck = Checker::new(ND2NZ);
    let rows = src_v.extent(0)?;
    let cols = src_v.extent(1)?;
    // The destination must hold the rows/cols (its padded extent).
    for (i, what, v) in [(0usize, "rows", &rows), (1, "cols", &cols)] {
        let room = dst_l.mode(i)?.size()?;
        if let (Some(v), Some(room)) = (v.as_constant(), room.as_constant()) {
            if v > room {
                return Err(ParamError::Layout {
                    instr: ND2NZ,
                    detail: format!("{v} source {what} do not fit the destination's {room}: {}", dst.layout),
                });
            }
        }
    }
    let elem_bytes = i64::from(dtype.bits() / 8);
    let c0_stride = ck.exact_div("dstNzC0Stride", &nz.stride[3], c0, "C0 elements (32 B)")?;
    let n_stride = ck.exact_div("dstNzNStride", &nz.stride[0], c0, "C0 elements (32 B)")?;
    // Fractal-aligned destination coordinate.
    ck.exact_div("dst row coordinate", &dst_v.coord[0], FRACTAL_ROWS, "fractal rows")?;
    ck.exact_div("dst col coordinate", &dst_v.coord[1], c0, "C0 elements")?;
    let src_off = src_v.offset()?;
    let dst_off = dst_v.offset()?;
    let specs = Nd2NzParams::<V>::specs(target);
    let zero = V::constant(0);
    let one = V::constant(1);

    // Arch 2201: a GM row stride beyond uint16_t → one instruction per row (catlass fallback).
    let per_row = target == Target::A2 && src_d_value.as_constant().is_some_and(|v| v > specs[4].max);
    let mut instrs = Vec::new();
    let make = |ck: &mut Checker<V>, n_value: V, src_dv: V| -> Result<Nd2NzParams<V>> {
        Ok(Nd2NzParams {
            nd_num: ck.field(specs[0], one.clone())?,
            n_value: ck.field(specs[1], n_value)?,
            d_value: ck.field(specs[2], cols.clone())?,
            src_nd_matrix_stride: ck.field(specs[3], zero.clone())?,
            src_d_value: ck.field(specs[4], src_dv)?,
            dst_nz_c0_stride: ck.field(specs[5], c0_stride.clone())?,
            dst_nz_n_stride: ck.field(specs[6], n_stride.clone())?,
            dst_nz_matrix_stride: ck.field(specs[7], zero.clone())?,
        })
    };
    // Per-row destination step: one row = dstNzNStride C0 blocks.
    let dst_row_step = n_stride.mul(&V::constant(c0))?;
    let band = V::constant(FRACTAL_ROWS);
    let copy = |p: Nd2NzParams<V>, (dst_at, dst_step): (V, V), (src_at, src_step): (V, V), repeat: V| Instr {
        intrinsic: Intrinsic::DataCopyNd2Nz(p),
        dst: Access { buffer: Buffer::L1, offset: dst_at, step: dst_step },
        srcs: vec![Access { buffer: Buffer::Gm, offset: src_at, step: src_step }],
        repeat,
    };
    if banded && per_row {
        // Row i of every band: 16 loops of one-row calls.
        let p = make(&mut ck, one.clone(), cols.clone())?;
        for i in 0..FRACTAL_ROWS {
            let iv = V::constant(i);
            let count = rows.sub(&iv)?.ceil_div(&band)?;
            if count.as_constant().is_some_and(|c| c <= 0) {
                continue;
            }
            let dst_at = dst_off.add(&iv.mul(&dst_row_step)?)?;
            let src_at = src_off.add(&iv.mul(&src_d_value)?)?;
            instrs.push(copy(p.clone(), (dst_at, nz.stride[1].clone()), (src_at, band.mul(&src_d_value)?), count));
        }
    } else if banded {
        let full = rows.floor_div(&band)?;
        let tail = rows.floor_mod(&band)?;
        let src_band = band.mul(&src_d_value)?;
        if !full.is_constant(0) {
            let p = make(&mut ck, band.clone(), src_d_value.clone())?;
            instrs.push(copy(
                p,
                (dst_off.clone(), nz.stride[1].clone()),
                (src_off.clone(), src_band.clone()),
                full.clone(),
            ));
        }
        if !tail.is_constant(0) {
            // Issued once when the row count has a tail, never otherwise.
            let once = tail.ceil_div(&band)?;
            let p = make(&mut ck, tail, src_d_value.clone())?;
            let dst_at = dst_off.add(&full.mul(&nz.stride[1])?)?;
            let src_at = src_off.add(&full.mul(&src_band)?)?;
            instrs.push(copy(p, (dst_at, zero.clone()), (src_at, zero.clone()), once));
        }
    } else if per_row {
        let p = make(&mut ck, one.clone(), cols.clone())?;
        instrs.push(Instr {
            intrinsic: Intrinsic::DataCopyNd2Nz(p),
            dst: Access { buffer: Buffer::L1, offset: dst_off.clone(), step: dst_row_step.clone() },
            srcs: vec![Access { buffer: Buffer::Gm, offset: src_off.clone(), step: src_d_value.clone() }],
            repeat: rows.clone(),
        });
    } else {
        let p = make(&mut ck, rows.clone(), src_d_value.clone())?;
        instrs.push(Instr {
            intrinsic: Intrinsic::DataCopyNd2Nz(p),
            dst: Access { buffer: Buffer::L1, offset: dst_off.clone(), step: zero.clone() },
            srcs: vec![Access { buffer: Buffer::Gm, offset: src_off.clone(), step: zero.clone() }],
            repeat: one.clone(),
        });
    }
    for ins in &instrs {
        ck.aligned("dst", Buffer::L1, &dst.base_bytes, &ins.dst.offset, &ins.dst.step, elem_bytes)?;
    }
    Ok(Derived { instrs, assumptions: ck.assumptions })
}

/// Plain `DataCopy` of an NZ tile between two NZ layouts with the same C0 (e.g. GM NZ → L1 NZ):
/// one run of 32-B blocks (one block = one row of a C0 column block) per column block holding
/// valid columns. Only the valid region moves, at the hardware's 32-B granularity (docs/layout-spec.md §A.7:
/// padding rows are left untouched; the C0 tail of a valid row is part of its block):
/// `rows = min(origin rows of src, dst)`, `cols` likewise;
/// `blockCount = ceil(cols / C0)`, `blockLen = rows`,
/// `srcStride = stride(src, c_out)/C0 − rows`, `dstStride = stride(dst, c_out)/C0 − rows`.
///
/// ZN → ZN is the same copy on the transposed views (ZN(K,N) is NZ(N,K)): one run of 32-B
/// blocks per C0 row block.
pub fn copy_nz_to_nz<V: IndexValue>(
    src: &Operand<V>,
    dst: &Operand<V>,
    src_buffer: Buffer,
    dst_buffer: Buffer,
    dtype: ElementType,
) -> Result<Derived<V>> {
    const I: &str = "DataCopy(DataCopyParams)";
    let both = [FramePattern::NZ, FramePattern::ZN];
    let src_zn = Fractal::of(I, "source", src.layout, &both)?.pattern == FramePattern::ZN;
    let dst_zn = Fractal::of(I, "destination", dst.layout, &both)?.pattern == FramePattern::ZN;
    if src_zn != dst_zn {
        return Err(ParamError::Layout {
            instr: I,
            detail: format!(
                "source and destination must both be NZ or both ZN (a block copy does not transpose): {} → {}",
                src.layout, dst.layout
            ),
        });
    }
    if src_zn {
        let (sl, dl) = (transposed(src.layout)?, transposed(dst.layout)?);
        let [a, b] = src.coord.clone();
        let [c, d] = dst.coord.clone();
        let s = Operand { layout: &sl, coord: [b, a], base_bytes: src.base_bytes.clone(), buffer_layout: None };
        let d = Operand { layout: &dl, coord: [d, c], base_bytes: dst.base_bytes.clone(), buffer_layout: None };
        return copy_nz_to_nz(&s, &d, src_buffer, dst_buffer, dtype);
    }
    let c0 = frame_c0(FramePattern::NZ, dtype)?;
    let s = Fractal::of(I, "source", src.layout, &[FramePattern::NZ])?;
    let d = Fractal::of(I, "destination", dst.layout, &[FramePattern::NZ])?;
    if s.c0 != c0 || d.c0 != c0 {
        return Err(ParamError::Layout { instr: I, detail: format!("both layouts need C0 = {c0} for {dtype}") });
    }
    let mut ck = Checker::new(I);
    let rows = src.extent(0)?.min(&dst.extent(0)?)?;
    let cols = src.extent(1)?.min(&dst.extent(1)?)?;
    for (who, f) in [("source", &s), ("destination", &d)] {
        ck.equal("row block stride", &f.stride[1], &f.stride[0].mul(&f.shape[0])?, || {
            format!("{who} rows of a column block must be contiguous")
        })?;
    }
    let specs = DataCopyParams::<V>::specs();
    let src_gap = ck.exact_div("srcStride", &s.stride[3], c0, "C0 elements (32 B)")?.sub(&rows)?;
    let dst_gap = ck.exact_div("dstStride", &d.stride[3], c0, "C0 elements (32 B)")?.sub(&rows)?;
    let p = DataCopyParams {
        block_count: ck.field(specs[0], cols.ceil_div(&V::constant(c0))?)?,
        block_len: ck.field(specs[1], rows)?,
        src_stride: ck.field(specs[2], src_gap)?,
        dst_stride: ck.field(specs[3], dst_gap)?,
    };
    let eb = i64::from(dtype.bits() / 8);
    let zero = V::constant(0);
    let (so, dof) = (src.offset()?, dst.offset()?);
    ck.aligned("src", src_buffer, &src.base_bytes, &so, &zero, eb)?;
    ck.aligned("dst", dst_buffer, &dst.base_bytes, &dof, &zero, eb)?;
    Ok(Derived {
        instrs: vec![Instr {
            intrinsic: Intrinsic::DataCopy(p),
            dst: Access { buffer: dst_buffer, offset: dof, step: zero.clone() },
            srcs: vec![Access { buffer: src_buffer, offset: so, step: zero }],
            repeat: V::constant(1),
        }],
        assumptions: ck.assumptions,
    })
}
