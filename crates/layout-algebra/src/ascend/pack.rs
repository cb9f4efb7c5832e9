//! Host packing by the layout function: ND arrays ⇄ the buffers of the plain matrix frame
//! patterns, for front ends that do not link MLIR (the Python package's `pack`/`unpack`).
//!
//! `layout_runtime::Packer` does the same conversion with JIT-compiled kernels of our own
//! compiler; this module is its MLIR-free reference: element `(b, i, j)` of a row-major
//! `[B, M, N]` array goes to `b·cosize(L) + L(i, j)` with `L = frame_layout(pattern, c0, [M, N])`
//! (the batch form `(B, L):(capacity(L), …)` of docs/layout-spec.md §A.5.1); padding is zero.
//! Elements are moved as opaque values of any `Copy` type (f16/bf16 as their 16-bit patterns).

use super::frame::{frame_layout, FramePattern, ALL_FRAME_PATTERNS};
use crate::error::{AlgebraError, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;

/// The patterns packed on the host: ND, DN, NDExt, DNExt, NZ, ZN, ZZ, NN (the plain matrix
/// patterns leading [`ALL_FRAME_PATTERNS`]; L0C, scales and convolutions follow them). The one
/// list: [`PackPlan`], `layout_runtime::Packer` (hence `layout-run pack`) and the Python
/// package all read it.
pub const PACKABLE: [FramePattern; 8] = match ALL_FRAME_PATTERNS.first_chunk() {
    Some(first) => *first,
    None => unreachable!(),
};

/// Checks that `pattern` is one of [`PACKABLE`]; the error lists them.
pub fn check_packable(pattern: FramePattern) -> Result<()> {
    if PACKABLE.contains(&pattern) {
        return Ok(());
    }
    let names: Vec<&str> = PACKABLE.iter().map(|p| p.name()).collect();
    Err(AlgebraError::Invalid(format!(
        "layout {} cannot be packed on the host (supported: {})",
        pattern.name(),
        names.join(", ")
    )))
}

/// Largest ND array packed (elements), so that every offset and buffer length fits.
const MAX_ELEMENTS: i64 = 1 << 40;

/// Where every element of one `M × N` matrix goes: `L(i, j) = rows[i] + cols[j]` (the layout
/// function is the sum of its modes'), and the packed length of one matrix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackPlan {
    pub layout: Layout,
    pub batch: usize,
    pub rows: usize,
    pub cols: usize,
    /// Elements of one packed matrix (`cosize` of the layout).
    pub matrix_len: usize,
    row_offsets: Vec<usize>,
    col_offsets: Vec<usize>,
}

impl PackPlan {
    /// The plan for `pattern` with inner size `c0` over `dims` = `[M, N]` or `[B, M, N]`.
    pub fn new(pattern: FramePattern, c0: i64, dims: &[usize]) -> Result<PackPlan> {
        check_packable(pattern)?;
        let (batch, rows, cols) = match *dims {
            [m, n] => (1, m, n),
            [b, m, n] => (b, m, n),
            _ => {
                return Err(AlgebraError::Invalid(format!(
                    "a matrix [M, N] or a batch [B, M, N] is needed, got shape {dims:?}"
                )))
            }
        };
        if dims.contains(&0) {
            return Err(AlgebraError::Invalid(format!("every dimension must be positive, got shape {dims:?}")));
        }
        let total = dims.iter().try_fold(1i64, |acc, &d| i64::try_from(d).ok().and_then(|d| acc.checked_mul(d)));
        if total.is_none_or(|t| t > MAX_ELEMENTS) {
            return Err(AlgebraError::Invalid(format!("shape {dims:?} is too large")));
        }
        let layout = frame_layout(pattern, c0, &[rows as i64, cols as i64])?;
        let matrix_len = to_usize(layout.cosize()?)?;
        batch
            .checked_mul(matrix_len)
            .filter(|&n| n as i64 <= MAX_ELEMENTS * 4)
            .ok_or_else(|| AlgebraError::Invalid(format!("the packed buffer of shape {dims:?} is too large")))?;
        let mode_offsets = |mode: usize, extent: usize| -> Result<Vec<usize>> {
            let m = layout.mode(mode)?;
            (0..extent as i64).map(|i| to_usize(m.crd_to_offset(&IntTuple::Int(i))?)).collect()
        };
        let row_offsets = mode_offsets(0, rows)?;
        let col_offsets = mode_offsets(1, cols)?;
        Ok(PackPlan { layout, batch, rows, cols, matrix_len, row_offsets, col_offsets })
    }

    /// Elements of the ND array (`B·M·N`).
    pub fn nd_len(&self) -> usize {
        self.batch * self.rows * self.cols
    }

    /// Elements of the packed buffer (`B·cosize`).
    pub fn packed_len(&self) -> usize {
        self.batch * self.matrix_len
    }

    /// Packs the row-major `nd` into `packed` (whose padding is set to `zero`).
    pub fn pack_into<T: Copy>(&self, nd: &[T], packed: &mut [T], zero: T) -> Result<()> {
        self.check_lengths(nd.len(), packed.len())?;
        if self.packed_len() > self.nd_len() {
            packed.fill(zero);
        }
        for b in 0..self.batch {
            let (src, dst) = (&nd[b * self.rows * self.cols..], &mut packed[b * self.matrix_len..]);
            for (i, row) in self.row_offsets.iter().enumerate() {
                let line = &src[i * self.cols..(i + 1) * self.cols];
                for (value, col) in line.iter().zip(&self.col_offsets) {
                    dst[row + col] = *value;
                }
            }
        }
        Ok(())
    }

    /// Unpacks `packed` into the row-major `nd`.
    pub fn unpack_into<T: Copy>(&self, packed: &[T], nd: &mut [T]) -> Result<()> {
        self.check_lengths(nd.len(), packed.len())?;
        for b in 0..self.batch {
            let (src, dst) = (&packed[b * self.matrix_len..], &mut nd[b * self.rows * self.cols..]);
            for (i, row) in self.row_offsets.iter().enumerate() {
                let line = &mut dst[i * self.cols..(i + 1) * self.cols];
                for (value, col) in line.iter_mut().zip(&self.col_offsets) {
                    *value = src[row + col];
                }
            }
        }
        Ok(())
    }

    fn check_lengths(&self, nd: usize, packed: usize) -> Result<()> {
        if nd != self.nd_len() {
            return Err(AlgebraError::Invalid(format!(
                "the ND array has {nd} elements, the shape needs {}",
                self.nd_len()
            )));
        }
        if packed != self.packed_len() {
            return Err(AlgebraError::Invalid(format!(
                "the packed buffer has {packed} elements, but {} needs {}",
                self.layout,
                self.packed_len()
            )));
        }
        Ok(())
    }
}

fn to_usize(v: i64) -> Result<usize> {
    usize::try_from(v).map_err(|_| AlgebraError::Invalid(format!("negative offset {v} in a packed layout")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use FramePattern::*;

    /// NZ f16 of 20x20 (C0 = 16): element (i, j) at [j/16, i/16, i%16, j%16] of the
    /// [2, 2, 16, 16] physical array (docs/layout-spec.md §A.5), zero elsewhere; and back.
    #[test]
    fn nz_pack_places_elements_as_pypto_and_round_trips() {
        let (m, n) = (20usize, 20usize);
        let plan = PackPlan::new(NZ, 16, &[2, m, n]).unwrap();
        assert_eq!(plan.packed_len(), 2 * 32 * 32);
        let nd: Vec<u32> = (1..=(2 * m * n) as u32).collect();
        let mut packed = vec![u32::MAX; plan.packed_len()];
        plan.pack_into(&nd, &mut packed, 0).unwrap();
        let mut expected = vec![0u32; plan.packed_len()];
        for b in 0..2 {
            for i in 0..m {
                for j in 0..n {
                    let place = ((j / 16 * 2 + i / 16) * 16 + i % 16) * 16 + j % 16;
                    expected[b * 1024 + place] = nd[(b * m + i) * n + j];
                }
            }
        }
        assert_eq!(packed, expected);
        let mut back = vec![0u32; nd.len()];
        plan.unpack_into(&packed, &mut back).unwrap();
        assert_eq!(back, nd);
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert!(PackPlan::new(L0C, 16, &[16, 16]).unwrap_err().to_string().contains("cannot be packed"));
        assert!(PackPlan::new(NZ, 16, &[16]).unwrap_err().to_string().contains("[M, N]"));
        assert!(PackPlan::new(NZ, 16, &[0, 4]).unwrap_err().to_string().contains("positive"));
        assert!(PackPlan::new(ND, 1, &[1 << 30, 1 << 30, 4]).unwrap_err().to_string().contains("too large"));
        let plan = PackPlan::new(ND, 1, &[2, 3]).unwrap();
        assert!(plan.pack_into(&[1u8; 5], &mut [0u8; 6], 0).unwrap_err().to_string().contains("5 elements"));
    }
}
