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

/// One element of a call: `indices` are `(name, value, extent)` (moved iff every value is in
/// `[0, extent)`), `dst`/`src` the element offsets from the call's destination/source start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element<V> {
    pub indices: Vec<(&'static str, V, V)>,
    pub dst: V,
    pub src: V,
}

/// The rows one call moves (the loop of calls, `Instr::repeat`, advances by whole calls).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowsPerCall {
    /// A field: `nValue` (ND2NZ), `mSize` (Fixpipe), `blockLen` (block copy: one row per 32 B
    /// block).
    Field(&'static str),
    /// One row of fractals of the source ([`Fractals::rows`]): LoadData.
    FractalRow,
}

pub fn rows_per_call(kind: IntrinsicKind) -> Option<RowsPerCall> {
    match kind {
        IntrinsicKind::DataCopyNd2Nz => Some(RowsPerCall::Field("nValue")),
        IntrinsicKind::DataCopy => Some(RowsPerCall::Field("blockLen")),
        IntrinsicKind::FixpipeNz2Nd => Some(RowsPerCall::Field("mSize")),
        IntrinsicKind::LoadData2D => Some(RowsPerCall::FractalRow),
        _ => None,
    }
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
/// Boolean ones `flag(name)` on elements of `elem_bytes` bytes (the destination's for Fixpipe;
/// the L0C source holds 32-bit accumulators, 16 per row of a fractal); `fractals`: the
/// source's, for LoadData. `None`: the intrinsic has no mapping here (Mmad computes; the
/// arch-3510 LoadData and LoadDataWithTranspose are not mapped yet).
///
/// * `DataCopy(Nd2NzParams)`, ND matrix 0: source `row·srcDValue + col`; destination
///   `⌊col/C0⌋·dstNzC0Stride·C0 + row·dstNzNStride·C0 + col mod C0`; `row < nValue`,
///   `col < dValue`, `0 < ndNum`.
/// * `DataCopy(DataCopyParams)` on NZ fractals (32 B = one row of C0 elements): run
///   `b = ⌊col/C0⌋`, block `row` of it; offsets `b·(blockLen + gap)·C0 + row·C0 + col mod C0`
///   with `srcStride`/`dstStride` as the gap; `b < blockCount`, `row < blockLen`.
/// * `Fixpipe` NZ2ND: source (L0C, 16 columns per fractal) `⌊col/16⌋·srcStride·16 + row·16 +
///   col mod 16`; destination `row·dstStride + col`; `row < mSize`, `col < nSize`.
/// * `LoadData(LoadData2DParams)`, one row of source fractals (`R × C` elements, `F = R·C`):
///   repeat `r = ⌊col/C⌋`, element `e` of the fractal (`row·C + col mod C` row-major,
///   `(col mod C)·R + row` column-major); source `(startIndex + r·srcStride)·F + e`,
///   destination `r·(dstGap + 1)·F + e`, with `ifTranspose` the other order's `e`;
///   `r < repeatTimes`, `row < R`.
pub fn element<V: IndexValue>(
    kind: IntrinsicKind,
    field: &dyn Fn(&'static str) -> V,
    flag: &dyn Fn(&'static str) -> bool,
    (elem_bytes, fractals): (i64, Option<Fractals>),
    row: &V,
    col: &V,
) -> Result<Option<Element<V>>> {
    let k = V::constant;
    let c0 = k(32 / elem_bytes.max(1));
    Ok(Some(match kind {
        IntrinsicKind::DataCopyNd2Nz => {
            let block = col.floor_div(&c0)?;
            let dst = block
                .mul(&field("dstNzC0Stride"))?
                .mul(&c0)?
                .add(&row.mul(&field("dstNzNStride"))?.mul(&c0)?)?
                .add(&col.floor_mod(&c0)?)?;
            Element {
                indices: vec![
                    ("nd", k(0), field("ndNum")),
                    ("row", row.clone(), field("nValue")),
                    ("col", col.clone(), field("dValue")),
                ],
                dst,
                src: row.mul(&field("srcDValue"))?.add(col)?,
            }
        }
        IntrinsicKind::DataCopy => {
            let run = col.floor_div(&c0)?;
            let at = |gap: &'static str| -> Result<V> {
                run.mul(&field("blockLen").add(&field(gap))?)?.mul(&c0)?.add(&row.mul(&c0)?)?.add(&col.floor_mod(&c0)?)
            };
            Element {
                indices: vec![("run", run.clone(), field("blockCount")), ("block", row.clone(), field("blockLen"))],
                dst: at("dstStride")?,
                src: at("srcStride")?,
            }
        }
        IntrinsicKind::FixpipeNz2Nd => {
            let sixteen = k(16);
            let src = col
                .floor_div(&sixteen)?
                .mul(&field("srcStride"))?
                .mul(&sixteen)?
                .add(&row.mul(&sixteen)?)?
                .add(&col.floor_mod(&sixteen)?)?;
            Element {
                indices: vec![("row", row.clone(), field("mSize")), ("col", col.clone(), field("nSize"))],
                dst: row.mul(&field("dstStride"))?.add(col)?,
                src,
            }
        }
        IntrinsicKind::LoadData2D => {
            let Some(f) = fractals else { return Ok(None) };
            let (r_in, c_in) = (k(f.rows), k(f.cols));
            let (repeat, c) = (col.floor_div(&c_in)?, col.floor_mod(&c_in)?);
            let row_major = row.mul(&c_in)?.add(&c)?;
            let column_major = c.mul(&r_in)?.add(row)?;
            let (e_src, e_other) = if f.row_major { (row_major, column_major) } else { (column_major, row_major) };
            let e_dst = if flag("ifTranspose") { e_other } else { e_src.clone() };
            let fractal = k(f.rows * f.cols);
            let src_fractal = field("startIndex").add(&repeat.mul(&field("srcStride"))?)?;
            let dst_fractal = repeat.mul(&field("dstGap").add(&k(1))?)?;
            Element {
                indices: vec![("repeat", repeat.clone(), field("repeatTimes")), ("row", row.clone(), r_in)],
                dst: dst_fractal.mul(&fractal)?.add(&e_dst)?,
                src: src_fractal.mul(&fractal)?.add(&e_src)?,
            }
        }
        _ => return Ok(None),
    }))
}

#[cfg(test)]
#[path = "element_map_tests.rs"]
mod tests;
