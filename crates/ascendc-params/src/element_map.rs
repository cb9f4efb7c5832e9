//! Which element each intrinsic call moves where: the element mapping of the copy intrinsics,
//! written once, in terms of the fields declared in [`crate::decl`] (by their AscendC names).
//!
//! For the element at `(row, col)` of one call (relative to the call's start: the matrix the
//! call moves, not the tensor), [`element`] gives the call's own index of that element (each
//! with the extent the fields give it: the element is moved only if every index is inside)
//! and its element offsets from the call's destination and source start. The address proof
//! (`layout-runtime`'s `address_proof::intrinsics`) reads it with symbolic fields; the tests
//! (`element_map_tests.rs`) hold it against the CPU model (`model/ascendc_model_impl.h`),
//! which implements the same semantics in C++ (asc-devkit's `DataCopy`, `LoadData`, `Fixpipe`
//! documents).

use layout_algebra::{IndexValue, Result};

use crate::instr::IntrinsicKind;
use crate::target::Target;

/// One element of a call: `indices` are `(name, value, extent)` (moved iff every value is in
/// `[0, extent)`), `dst` and `srcs` the element offsets from the call's destination and
/// sources' starts (sources in the intrinsic's argument order: Mmad's A then B).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element<V> {
    pub indices: Vec<(&'static str, V, V)>,
    pub dst: V,
    pub srcs: Vec<V>,
}

/// What a call's mapping depends on besides its fields: the element size in bytes (the
/// destination's for Fixpipe, whose L0C source holds 32-bit accumulators, 16 per row of a
/// fractal; A's and B's for Mmad), the source's fractals (the L1 → L0 loads) and the target
/// (Fixpipe NZ2NZ counts `dstStride` in 32 B on 2201, in elements on 3510; Mmad's A is ZZ on
/// 2201, NZ on 3510).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallShape {
    pub elem_bytes: i64,
    pub fractals: Option<Fractals>,
    pub target: Target,
    /// `LoadData2DParamsV2`: whether its "m" fractal index runs along the rows (else the
    /// columns). The instruction knows fractals, not logical modes: this is the prover's choice
    /// of which element an index names (a wrong choice can only fail a proof).
    pub m_along_rows: bool,
}

/// The rows one call moves (the loop of calls, `Instr::repeat`, advances by whole calls).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowsPerCall {
    /// A field: `nValue` (ND2NZ), `mSize` (Fixpipe), `blockLen` (block copy: one row per 32 B
    /// block).
    Field(&'static str),
    /// A fixed count: one row of source fractals (LoadData), one square along the pair mode
    /// (LoadDataWithTranspose: 32 elements for 8-bit types, 16 otherwise).
    Elements(i64),
}

/// How far one call reaches along the call's rows ([`calls_along_columns`] says which logical
/// mode those are); `None`: no such mapping (Mmad has [`mmad_element`]).
pub fn rows_per_call(kind: IntrinsicKind, shape: &CallShape) -> Option<RowsPerCall> {
    match kind {
        IntrinsicKind::DataCopyNd2Nz => Some(RowsPerCall::Field("nValue")),
        IntrinsicKind::DataCopy => Some(RowsPerCall::Field("blockLen")),
        IntrinsicKind::FixpipeNz2Nd | IntrinsicKind::FixpipeNz2Nz => Some(RowsPerCall::Field("mSize")),
        IntrinsicKind::LoadData2D | IntrinsicKind::LoadData2DV2 => Some(RowsPerCall::Elements(shape.fractals?.rows)),
        IntrinsicKind::LoadDataWithTranspose => {
            shape.fractals?;
            Some(RowsPerCall::Elements(if shape.elem_bytes == 1 { 32 } else { 16 }))
        }
        _ => None,
    }
}

/// The call columns one call of a copy split into several calls covers (`load_data::repeat_chunks`:
/// at most 255 repeats per call, the next call starts where this one ends): `repeatTimes`
/// fractal columns (LoadData) or squares (LoadDataWithTranspose). `None` for calls that are
/// never split.
pub fn columns_per_call<V: IndexValue>(
    kind: IntrinsicKind,
    field: &dyn Fn(&'static str) -> V,
    shape: &CallShape,
) -> Result<Option<V>> {
    let per_repeat = match kind {
        IntrinsicKind::LoadData2D => shape.fractals.map(|f| f.cols),
        IntrinsicKind::LoadDataWithTranspose => Some(if shape.elem_bytes == 1 { 32 } else { 16 }),
        _ => None,
    };
    per_repeat.map(|c| field("repeatTimes").mul(&V::constant(c))).transpose()
}

/// Whether the call's rows are the tensor's columns: `LoadDataWithTranspose` loops over the
/// source's pair mode (the logical mode along which a source fractal has 16 elements: rows of
/// NZ/ZZ, columns of ZN/NN; `load_data::transpose_b8_a2` / `transpose_b32_a2`).
pub fn calls_along_columns(kind: IntrinsicKind, shape: &CallShape) -> bool {
    kind == IntrinsicKind::LoadDataWithTranspose && shape.fractals.is_some_and(|f| f.rows != 16)
}

/// The source's fractal (LoadData moves whole 512 B fractals; which element of a fractal an
/// element `(row, col)` is depends on the fractal's inner order): its inner extents and
/// whether it is stored row-major (NZ, ZZ) or column-major (ZN, NN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fractals {
    pub rows: i64,
    pub cols: i64,
    pub row_major: bool,
}

/// The element `(row, col)` of one call of `kind` with integer fields `field(name)` and
/// Boolean ones `flag(name)` (the call's rows along the mode [`calls_along_columns`] names).
/// `None`: the intrinsic has no mapping here (Mmad: [`mmad_element`]).
///
/// * `DataCopy(Nd2NzParams)`, ND matrix 0: source `row·srcDValue + col`; destination
///   `⌊col/C0⌋·dstNzC0Stride·C0 + row·dstNzNStride·C0 + col mod C0`; `row < nValue`,
///   `col < dValue`, `0 < ndNum`.
/// * `DataCopy(DataCopyParams)` on NZ fractals (32 B = one row of C0 elements): run
///   `b = ⌊col/C0⌋`, block `row` of it; offsets `b·(blockLen + gap)·C0 + row·C0 + col mod C0`
///   with `srcStride`/`dstStride` as the gap; `b < blockCount`, `row < blockLen`.
/// * `Fixpipe` NZ2ND: source (L0C, 16 columns per fractal) `⌊col/16⌋·srcStride·16 + row·16 +
///   col mod 16`; destination `row·dstStride + col`; `row < mSize`, `col < nSize`.
/// * `Fixpipe` NZ2NZ: the same source; destination column block `b = ⌊col/W⌋` (`W` = 16, or 8
///   with `isChannelSplit`) at `b·dstStride` (units of 32 B on 2201, elements on 3510), row
///   `row` of it `W` elements long: `b·block + row·W + col mod W`; `row < mSize`, `col < nSize`.
/// * `LoadData(LoadData2DParams)`, one row of source fractals (`R × C` elements, `F = R·C`):
///   repeat `r = ⌊col/C⌋`, element `e` of the fractal (`row·C + col mod C` row-major,
///   `(col mod C)·R + row` column-major); source `(startIndex + r·srcStride)·F + e`,
///   destination `r·(dstGap + 1)·F + e`, with `ifTranspose` the other order's `e`;
///   `r < repeatTimes`, `row < R`.
/// * `LoadData(LoadData2DParamsV2)` (3510), one block of fractals from `(mStartPosition,
///   kStartPosition)`: fractal `(mm, kk)` of the call (`m` along the rows or the columns:
///   [`CallShape::m_along_rows`]) is the source fractal `(kStartPosition + kk)·srcStride +
///   mStartPosition + mm` (from the source buffer's start) and the destination fractal
///   `kk·dstStride + mm`, or `mm·dstStride + kk` with `ifTranspose` (which also transposes each
///   fractal, as above); `mm < mStep`, `kk < kStep`.
/// * `LoadDataWithTranspose`, one row of squares along the pair mode (`row` = `p` along it,
///   `col` = `o` along the other mode, `F` = fractal elements): 8-bit, 32×32 squares of two
///   16×32 fractals consecutive along `p`: repeat `r = ⌊o/32⌋`, `s = o mod 32`; source
///   `(startIndex + r·srcStride)·2F + p·32 + s`; the transposed square's rows `s < 16` go to the
///   destination fractal `r·(dstGap + 1)`, the others `1 + dstFracGap` fractals further, at
///   `(s mod 16)·32 + p`. 32-bit, 16×16 squares of two 16×8 fractals consecutive along `o`:
///   `r = ⌊o/16⌋`, `q = o mod 16`; source `(startIndex + r·srcStride)·2F + ⌊q/8⌋·F + p·8 +
///   q mod 8`; destination fractal `r·(dstGap + 1) + ⌊p/8⌋·(1 + dstFracGap)`, at
///   `q·8 + p mod 8`. 16-bit, one 16×16 fractal: source `(startIndex + r·srcStride)·F + p·16 +
///   q`, destination `r·(dstGap + 1)·F + q·16 + p`. `r < repeatTimes`, `p` inside the square.
pub fn element<V: IndexValue>(
    kind: IntrinsicKind,
    field: &dyn Fn(&'static str) -> V,
    flag: &dyn Fn(&'static str) -> bool,
    shape: &CallShape,
    row: &V,
    col: &V,
) -> Result<Option<Element<V>>> {
    let k = V::constant;
    let c0 = k(32 / shape.elem_bytes.max(1));
    let one = |indices, dst, src| Element { indices, dst, srcs: vec![src] };
    // Fixpipe's L0C source: 16 accumulators per fractal row, column blocks srcStride rows apart.
    let l0c = || -> Result<V> {
        let sixteen = k(16);
        col.floor_div(&sixteen)?
            .mul(&field("srcStride"))?
            .mul(&sixteen)?
            .add(&row.mul(&sixteen)?)?
            .add(&col.floor_mod(&sixteen)?)
    };
    Ok(Some(match kind {
        IntrinsicKind::DataCopyNd2Nz => {
            let block = col.floor_div(&c0)?;
            let dst = block
                .mul(&field("dstNzC0Stride"))?
                .mul(&c0)?
                .add(&row.mul(&field("dstNzNStride"))?.mul(&c0)?)?
                .add(&col.floor_mod(&c0)?)?;
            let indices = vec![
                ("nd", k(0), field("ndNum")),
                ("row", row.clone(), field("nValue")),
                ("col", col.clone(), field("dValue")),
            ];
            one(indices, dst, row.mul(&field("srcDValue"))?.add(col)?)
        }
        IntrinsicKind::DataCopy => {
            let run = col.floor_div(&c0)?;
            let at = |gap: &'static str| -> Result<V> {
                run.mul(&field("blockLen").add(&field(gap))?)?.mul(&c0)?.add(&row.mul(&c0)?)?.add(&col.floor_mod(&c0)?)
            };
            let indices = vec![("run", run.clone(), field("blockCount")), ("block", row.clone(), field("blockLen"))];
            one(indices, at("dstStride")?, at("srcStride")?)
        }
        IntrinsicKind::FixpipeNz2Nd => {
            let indices = vec![("row", row.clone(), field("mSize")), ("col", col.clone(), field("nSize"))];
            one(indices, row.mul(&field("dstStride"))?.add(col)?, l0c()?)
        }
        IntrinsicKind::FixpipeNz2Nz => {
            let w = k(if flag("isChannelSplit") { 8 } else { 16 });
            let unit = match shape.target {
                Target::A2 => c0.clone(),
                Target::A5 => k(1),
            };
            let block = field("dstStride").mul(&unit)?;
            let dst = col.floor_div(&w)?.mul(&block)?.add(&row.mul(&w)?)?.add(&col.floor_mod(&w)?)?;
            let indices = vec![("row", row.clone(), field("mSize")), ("col", col.clone(), field("nSize"))];
            one(indices, dst, l0c()?)
        }
        IntrinsicKind::LoadData2D => {
            let Some(f) = shape.fractals else { return Ok(None) };
            let (r_in, c_in) = (k(f.rows), k(f.cols));
            let (repeat, c) = (col.floor_div(&c_in)?, col.floor_mod(&c_in)?);
            let row_major = row.mul(&c_in)?.add(&c)?;
            let column_major = c.mul(&r_in)?.add(row)?;
            let (e_src, e_other) = if f.row_major { (row_major, column_major) } else { (column_major, row_major) };
            let e_dst = if flag("ifTranspose") { e_other } else { e_src.clone() };
            let fractal = k(f.rows * f.cols);
            let src_fractal = field("startIndex").add(&repeat.mul(&field("srcStride"))?)?;
            let dst_fractal = repeat.mul(&field("dstGap").add(&k(1))?)?;
            let indices = vec![("repeat", repeat.clone(), field("repeatTimes")), ("row", row.clone(), r_in)];
            one(indices, dst_fractal.mul(&fractal)?.add(&e_dst)?, src_fractal.mul(&fractal)?.add(&e_src)?)
        }
        IntrinsicKind::LoadData2DV2 => {
            let Some(f) = shape.fractals else { return Ok(None) };
            let (r_in, c_in) = (k(f.rows), k(f.cols));
            let (r, c) = (row.floor_mod(&r_in)?, col.floor_mod(&c_in)?);
            let (row_major, column_major) = (r.mul(&c_in)?.add(&c)?, c.mul(&r_in)?.add(&r)?);
            let (e_src, e_other) = if f.row_major { (row_major, column_major) } else { (column_major, row_major) };
            let transpose = flag("ifTranspose");
            let e_dst = if transpose { e_other } else { e_src.clone() };
            let (fr, fc) = (row.floor_div(&r_in)?, col.floor_div(&c_in)?);
            let (mm, kk) = if shape.m_along_rows { (fr, fc) } else { (fc, fr) };
            let src_fractal =
                field("kStartPosition").add(&kk)?.mul(&field("srcStride"))?.add(&field("mStartPosition"))?.add(&mm)?;
            let dst_fractal = if transpose {
                mm.mul(&field("dstStride"))?.add(&kk)?
            } else {
                kk.mul(&field("dstStride"))?.add(&mm)?
            };
            let fractal = k(f.rows * f.cols);
            let indices = vec![("m", mm.clone(), field("mStep")), ("k", kk.clone(), field("kStep"))];
            one(indices, dst_fractal.mul(&fractal)?.add(&e_dst)?, src_fractal.mul(&fractal)?.add(&e_src)?)
        }
        IntrinsicKind::LoadDataWithTranspose => {
            if shape.fractals.is_none() {
                return Ok(None);
            }
            let fractal = k(512 / shape.elem_bytes.max(1));
            let (p, o) = (row, col);
            // The square's extent along o, and (for 32-bit) the fractal width inside it.
            let side = k(if shape.elem_bytes == 1 { 32 } else { 16 });
            let (repeat, s) = (o.floor_div(&side)?, o.floor_mod(&side)?);
            let square = field("startIndex").add(&repeat.mul(&field("srcStride"))?)?;
            let first = repeat.mul(&field("dstGap").add(&k(1))?)?;
            let second = field("dstFracGap").add(&k(1))?;
            let (src, dst) = match shape.elem_bytes {
                1 => {
                    let half = s.floor_div(&k(16))?;
                    let src = square.mul(&fractal)?.mul(&k(2))?.add(&p.mul(&k(32))?)?.add(&s)?;
                    let dst_fractal = first.add(&half.mul(&second)?)?;
                    (src, dst_fractal.mul(&fractal)?.add(&s.floor_mod(&k(16))?.mul(&k(32))?)?.add(p)?)
                }
                4 => {
                    let eight = k(8);
                    let src = square
                        .mul(&fractal)?
                        .mul(&k(2))?
                        .add(&s.floor_div(&eight)?.mul(&fractal)?)?
                        .add(&p.mul(&eight)?)?
                        .add(&s.floor_mod(&eight)?)?;
                    let dst_fractal = first.add(&p.floor_div(&eight)?.mul(&second)?)?;
                    (src, dst_fractal.mul(&fractal)?.add(&s.mul(&eight)?)?.add(&p.floor_mod(&eight)?)?)
                }
                _ => {
                    let src = square.mul(&fractal)?.add(&p.mul(&k(16))?)?.add(&s)?;
                    (src, first.mul(&fractal)?.add(&s.mul(&k(16))?)?.add(p)?)
                }
            };
            let indices = vec![("repeat", repeat.clone(), field("repeatTimes")), ("pair", p.clone(), side)];
            one(indices, dst, src)
        }
        _ => return Ok(None),
    }))
}

/// One product of a `Mmad` call: C element `(i, j)` and the reduction index `kk`, with the
/// elements of A `(i, kk)` and B `(kk, j)` it reads (`srcs`, A then B) and the L0C element it
/// writes (`dst`); `i < m`, `j < n`, `kk < k`. With `C0 = 32 / elem_bytes` (A's and B's
/// element), `F = 16·C0` and the fractal counts `m1 = ⌈m/16⌉`, `k1 = ⌈k/C0⌉`, `n1 = ⌈n/16⌉`:
/// C (NZ, 16×16 fractals of accumulators) `⌊j/16⌋·m1·256 + ⌊i/16⌋·256 + (i mod 16)·16 +
/// j mod 16`; B (ZN) `⌊kk/C0⌋·n1·F + ⌊j/16⌋·F + (j mod 16)·C0 + kk mod C0`; A, with
/// `a = (i mod 16)·C0 + kk mod C0` inside its fractal, ZZ on 2201 `⌊i/16⌋·k1·F + ⌊kk/C0⌋·F + a`,
/// NZ on 3510 `⌊kk/C0⌋·m1·F + ⌊i/16⌋·F + a` — or, on 3510 with `disableGemv` false and
/// `m = 1`, GEMV mode: A is one row, `kk`. `None` when GEMV depends on a dynamic `m`.
pub fn mmad_element<V: IndexValue>(
    field: &dyn Fn(&'static str) -> V,
    flag: &dyn Fn(&'static str) -> bool,
    shape: &CallShape,
    (i, j, kk): (&V, &V, &V),
) -> Result<Option<Element<V>>> {
    let k = V::constant;
    let (c0, sixteen) = (k(32 / shape.elem_bytes.max(1)), k(16));
    let frac = k(16 * (32 / shape.elem_bytes.max(1)));
    let (m, n, kf) = (field("m"), field("n"), field("k"));
    let gemv = match (shape.target, flag("disableGemv")) {
        (Target::A2, _) | (Target::A5, true) => false,
        (Target::A5, false) => match m.as_constant() {
            Some(m) => m == 1,
            None => return Ok(None),
        },
    };
    let (m1, k1, n1) = (m.ceil_div(&sixteen)?, kf.ceil_div(&c0)?, n.ceil_div(&sixteen)?);
    let c = j
        .floor_div(&sixteen)?
        .mul(&m1)?
        .mul(&k(256))?
        .add(&i.floor_div(&sixteen)?.mul(&k(256))?)?
        .add(&i.floor_mod(&sixteen)?.mul(&sixteen)?)?
        .add(&j.floor_mod(&sixteen)?)?;
    let in_a = i.floor_mod(&sixteen)?.mul(&c0)?.add(&kk.floor_mod(&c0)?)?;
    let (row_block, k_block) = (i.floor_div(&sixteen)?, kk.floor_div(&c0)?);
    let a = if gemv {
        kk.clone()
    } else if shape.target == Target::A2 {
        row_block.mul(&k1)?.mul(&frac)?.add(&k_block.mul(&frac)?)?.add(&in_a)?
    } else {
        k_block.mul(&m1)?.mul(&frac)?.add(&row_block.mul(&frac)?)?.add(&in_a)?
    };
    let b = k_block
        .mul(&n1)?
        .mul(&frac)?
        .add(&j.floor_div(&sixteen)?.mul(&frac)?)?
        .add(&j.floor_mod(&sixteen)?.mul(&c0)?)?
        .add(&kk.floor_mod(&c0)?)?;
    let indices = vec![("i", i.clone(), m), ("j", j.clone(), n), ("kk", kk.clone(), kf)];
    Ok(Some(Element { indices, dst: c, srcs: vec![a, b] }))
}

#[cfg(test)]
#[path = "element_map_tests.rs"]
mod tests;
