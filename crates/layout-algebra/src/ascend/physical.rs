//! The physical array of a matrix frame layout: the C-order array whose linear index is the
//! layout's offset, as PyPTO users hold packed buffers (docs/layout-spec.md §A.5).
//!
//! Example: NZ fp16 of a logical `100 × 100` matrix is the array `[N1, M1, 16, C0] = [7, 7, 16, 16]`
//! (element `(i, j)` at `[j/16, i/16, i%16, j%16]`); ZZ is `[M1, N1, 16, C0]`, ZN `[M1, N1, 16, C0]`
//! with `M1 = ceil(M/C0)`, `N1 = ceil(N/16)`, ND `[M, N]`, DN `[N, M]`.
//!
//! The order is not written per pattern: it is the order of the layout's leaves by decreasing
//! stride, read off the pattern at a size where every outer count is at least 2 (at a single
//! fractal, strides tie and the order would be ambiguous), then applied to the actual extents.

use super::frame::{frame_layout, FramePattern};
use crate::error::{AlgebraError, Result};

/// The physical array shape of `pattern` with inner size `c0` for a logical `rows × cols` matrix.
///
/// Errors when the pattern is not a compact matrix layout (scale and convolution patterns) or
/// the layout is not compact at these extents.
pub fn physical_shape(pattern: FramePattern, c0: i64, rows: i64, cols: i64) -> Result<Vec<i64>> {
    let order = leaf_order(pattern, c0)?;
    let layout = frame_layout(pattern, c0, &[rows, cols])?;
    let leaves = layout.leaf_modes();
    let shape: Vec<i64> = order.iter().map(|&i| leaves[i].0).collect();
    // The array is exact only if every leaf of size > 1 has the compact C-order stride.
    let mut expected = 1i64;
    for &i in order.iter().rev() {
        let (extent, stride) = leaves[i];
        if extent > 1 && stride != expected {
            return Err(AlgebraError::Invalid(format!(
                "{} layout {layout} is not a compact array: leaf {extent}:{stride} should have stride {expected}",
                pattern.name()
            )));
        }
        expected = expected
            .checked_mul(extent)
            .ok_or_else(|| AlgebraError::Invalid(format!("physical array of {layout} overflows")))?;
    }
    Ok(shape)
}

/// Leaf indices (in flattened order) sorted by decreasing stride at a non-degenerate size;
/// leaves that are always 1 (the `Ext` patterns' unit modes) are left out.
fn leaf_order(pattern: FramePattern, c0: i64) -> Result<Vec<usize>> {
    if !pattern.is_matrix() || pattern.is_scale() {
        return Err(AlgebraError::Invalid(format!("{} has no physical matrix array", pattern.name())));
    }
    // 3 fractals in each direction: every outer count is 3, no two strides tie.
    let probe = 3 * 16 * c0.max(1);
    let layout = frame_layout(pattern, c0, &[probe, probe])?;
    let mut order: Vec<(usize, i64)> =
        layout.leaf_modes().into_iter().enumerate().filter(|(_, (s, _))| *s > 1).map(|(i, (_, d))| (i, d)).collect();
    order.sort_by_key(|&(_, stride)| std::cmp::Reverse(stride));
    Ok(order.into_iter().map(|(i, _)| i).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::IntTuple;
    use FramePattern::*;

    #[test]
    fn pypto_physical_orders() {
        assert_eq!(physical_shape(NZ, 16, 100, 100).unwrap(), vec![7, 7, 16, 16]);
        // NZ fp32 100x100: [N1, M1, 16, C0] = [13, 7, 16, 8]
        assert_eq!(physical_shape(NZ, 8, 100, 100).unwrap(), vec![13, 7, 16, 8]);
        // ZZ: [M1, N1, 16, C0]; ZN (C0 x 16 fractals): [ceil(M/C0), ceil(N/16), 16, C0]
        assert_eq!(physical_shape(ZZ, 8, 100, 100).unwrap(), vec![7, 13, 16, 8]);
        assert_eq!(physical_shape(ZN, 8, 100, 100).unwrap(), vec![13, 7, 16, 8]);
        assert_eq!(physical_shape(NN, 8, 100, 100).unwrap(), vec![7, 13, 16, 8]);
        assert_eq!(physical_shape(ND, 1, 5, 7).unwrap(), vec![5, 7]);
        assert_eq!(physical_shape(DN, 1, 5, 7).unwrap(), vec![7, 5]);
        assert_eq!(physical_shape(NDExt, 1, 5, 7).unwrap(), vec![5, 7]);
        // A single fractal keeps the 4-D form with outer counts of 1.
        assert_eq!(physical_shape(NZ, 16, 16, 16).unwrap(), vec![1, 1, 16, 16]);
        assert!(physical_shape(ScaleADN, 2, 4, 4).is_err());
    }

    /// Every coordinate: the layout offset equals the C-order index of the element's place in
    /// the physical array, written out independently for NZ (docs/layout-spec.md §A.5).
    #[test]
    fn offsets_are_c_order_indices_of_the_physical_array() {
        for (c0, rows, cols) in [(16, 33, 40), (8, 17, 9), (32, 1, 70)] {
            let shape = physical_shape(NZ, c0, rows, cols).unwrap();
            let layout = frame_layout(NZ, c0, &[rows, cols]).unwrap();
            for i in 0..rows {
                for j in 0..cols {
                    let place = [j / c0, i / 16, i % 16, j % c0];
                    let linear = place.iter().zip(&shape).fold(0, |acc, (p, s)| acc * s + p);
                    let crd = IntTuple::Tuple(vec![IntTuple::Int(i), IntTuple::Int(j)]);
                    assert_eq!(layout.crd_to_offset(&crd).unwrap(), linear, "c0={c0} ({i},{j})");
                }
            }
            assert_eq!(shape.iter().product::<i64>(), layout.cosize().unwrap());
        }
    }
}
