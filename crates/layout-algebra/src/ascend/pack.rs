//! Host packing by the layout function: ND arrays ⇄ the buffers of the plain matrix frame
//! patterns, for front ends that do not link MLIR (the Python package's `pack`/`unpack`).
//!
//! `layout_runtime::Packer` does the same conversion with JIT-compiled kernels of our own
//! compiler; this module is its MLIR-free reference: element `(b, i, j)` of a row-major
//! `[B, M, N]` array goes to `b·cosize(L) + L(i, j)` with `L = frame_layout(pattern, c0, [M, N])`
//! (the batch form `(B, L):(capacity(L), …)` of docs/layout-spec.md §A.5.1); padding is zero.
//! Elements are moved as opaque [`PackWord`]s (f16/bf16 as their 16-bit patterns),
//! in runs and tiles ([`super::pack_copy`]), on several threads for large arrays.

use super::frame::{frame_layout, FramePattern, ALL_FRAME_PATTERNS};
use super::pack_copy::{pack_matrix, unpack_matrix, CopyShape, Matrix, Padding};
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

/// The element types the packer moves: plain values of 1, 2, 4 or 8 bytes, moved as opaque
/// bits (f16/bf16 as their `u16` patterns) through vector registers.
///
/// # Safety
/// Implementors are 1, 2, 4 or 8 bytes, have no padding bytes, and every bit pattern is a
/// valid value (the copies load and store them as raw 16-byte lines).
pub unsafe trait PackWord: Copy + Send + Sync {}

// Safety: primitive integers and floats: no padding, every bit pattern valid.
unsafe impl PackWord for u8 {}
unsafe impl PackWord for u16 {}
unsafe impl PackWord for u32 {}
unsafe impl PackWord for u64 {}
unsafe impl PackWord for i8 {}
unsafe impl PackWord for i16 {}
unsafe impl PackWord for i32 {}
unsafe impl PackWord for i64 {}
unsafe impl PackWord for f32 {}
unsafe impl PackWord for f64 {}

/// Largest ND array packed (elements), so that every offset and buffer length fits.
const MAX_ELEMENTS: i64 = 1 << 40;

/// ND bytes from which [`PackPlan::pack_into`] and [`PackPlan::unpack_into`] use every core:
/// below it a thread costs more than it saves. 8 MiB: on a shared, loaded machine a second
/// thread waits milliseconds for a core, longer than a single thread takes for a few MB
/// (scripts/bench-pack's `1T` columns measured it at 2-4 MB).
pub const PARALLEL_BYTES: usize = 8 << 20;

/// The threads for an array of `bytes`: 1 below [`PARALLEL_BYTES`], else the machine's cores.
pub fn auto_threads(bytes: usize) -> usize {
    if bytes < PARALLEL_BYTES {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

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
    copy: CopyShape,
    padding: Option<Padding>,
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
        let last = row_offsets.iter().max().zip(col_offsets.iter().max()).map(|(r, c)| r + c);
        if last.is_none_or(|l| l >= matrix_len) {
            return Err(AlgebraError::Invalid(format!("internal: {layout} has offsets beyond its cosize")));
        }
        let copy = CopyShape::new(&row_offsets, &col_offsets);
        let padding = padded_domain(&layout, matrix_len, (rows, cols))?;
        Ok(PackPlan { layout, batch, rows, cols, matrix_len, row_offsets, col_offsets, copy, padding })
    }

    /// Elements of the ND array (`B·M·N`).
    pub fn nd_len(&self) -> usize {
        self.batch * self.rows * self.cols
    }

    /// Elements of the packed buffer (`B·cosize`).
    pub fn packed_len(&self) -> usize {
        self.batch * self.matrix_len
    }

    /// Packs the row-major `nd` into `packed` (whose padding is set to `zero`), on
    /// [`auto_threads`] threads.
    pub fn pack_into<T: PackWord>(&self, nd: &[T], packed: &mut [T], zero: T) -> Result<()> {
        self.pack_into_with(nd, packed, zero, auto_threads(std::mem::size_of_val(nd)))
    }

    /// [`Self::pack_into`] on at most `threads` threads.
    pub fn pack_into_with<T: PackWord>(&self, nd: &[T], packed: &mut [T], zero: T, threads: usize) -> Result<()> {
        self.check_lengths(nd.len(), packed.len())?;
        let padded = self.packed_len() > self.nd_len();
        let matrix = self.matrix();
        let per_batch = self.rows * self.cols;
        let batches = nd.chunks(per_batch).zip(packed.chunks_mut(self.matrix_len));
        if threads >= 2 && self.batch >= 2 {
            // One share of whole matrices per thread.
            let shares = threads.min(self.batch);
            let mut work: Vec<Vec<(&[T], &mut [T])>> = (0..shares).map(|_| Vec::new()).collect();
            for (b, pair) in batches.enumerate() {
                work[b * shares / self.batch].push(pair);
            }
            std::thread::scope(|scope| {
                for share in work {
                    let matrix = &matrix;
                    scope.spawn(move || {
                        for (src, dst) in share {
                            pack_matrix(matrix, src, dst, zero, padded, 1);
                        }
                    });
                }
            });
        } else {
            for (src, dst) in batches {
                pack_matrix(&matrix, src, dst, zero, padded, threads);
            }
        }
        Ok(())
    }

    /// Unpacks `packed` into the row-major `nd`, on [`auto_threads`] threads.
    pub fn unpack_into<T: PackWord>(&self, packed: &[T], nd: &mut [T]) -> Result<()> {
        self.unpack_into_with(packed, nd, auto_threads(std::mem::size_of_val(nd)))
    }

    /// [`Self::unpack_into`] on at most `threads` threads.
    pub fn unpack_into_with<T: PackWord>(&self, packed: &[T], nd: &mut [T], threads: usize) -> Result<()> {
        self.check_lengths(nd.len(), packed.len())?;
        let matrix = self.matrix();
        let per_batch = self.rows * self.cols;
        let batches = packed.chunks(self.matrix_len).zip(nd.chunks_mut(per_batch));
        if threads >= 2 && self.batch >= 2 {
            let shares = threads.min(self.batch);
            let mut work: Vec<Vec<(&[T], &mut [T])>> = (0..shares).map(|_| Vec::new()).collect();
            for (b, pair) in batches.enumerate() {
                work[b * shares / self.batch].push(pair);
            }
            std::thread::scope(|scope| {
                for share in work {
                    let matrix = &matrix;
                    scope.spawn(move || {
                        for (src, dst) in share {
                            unpack_matrix(matrix, src, dst, 1);
                        }
                    });
                }
            });
        } else {
            for (src, dst) in batches {
                unpack_matrix(&matrix, src, dst, threads);
            }
        }
        Ok(())
    }

    /// The offset of element `(i, j)` of a matrix in its packed buffer (`L(i, j)`).
    pub fn offset(&self, i: usize, j: usize) -> usize {
        self.row_offsets[i] + self.col_offsets[j]
    }

    fn matrix(&self) -> Matrix<'_> {
        Matrix { rows: &self.row_offsets, cols: &self.col_offsets, shape: &self.copy, pad: self.padding.as_ref() }
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

/// The offset tables of the layout's whole domain (the modes' sizes `Mp × Np`) when the
/// matrix is padded and that domain is a bijection onto `0..matrix_len`: the leaves, sorted
/// by stride, are compact (each stride the product of the smaller leaves' sizes).
fn padded_domain(layout: &Layout, matrix_len: usize, (rows, cols): (usize, usize)) -> Result<Option<Padding>> {
    if rows * cols == matrix_len {
        return Ok(None);
    }
    let mut leaves: Vec<(i64, i64)> = layout.leaf_modes().into_iter().filter(|&(size, _)| size != 1).collect();
    leaves.sort_by_key(|&(_, stride)| stride);
    let mut next = 1i64;
    for (size, stride) in leaves {
        if stride != next {
            return Ok(None);
        }
        next = match next.checked_mul(size) {
            Some(n) => n,
            None => return Ok(None),
        };
    }
    if next != matrix_len as i64 {
        return Ok(None);
    }
    let table = |mode: usize| -> Result<Vec<usize>> {
        let m = layout.mode(mode)?;
        (0..m.size()?).map(|i| to_usize(m.crd_to_offset(&IntTuple::Int(i))?)).collect()
    };
    let (pad_rows, pad_cols) = (table(0)?, table(1)?);
    if pad_rows.len() < rows || pad_cols.len() < cols || pad_rows.len() * pad_cols.len() != matrix_len {
        return Ok(None);
    }
    Ok(Some(Padding::new(pad_rows, pad_cols)))
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

    /// Element `(b, i, j)` by the definition: `crd_to_offset` of the batch layout of
    /// `frame_layout(pattern, c0, [B, M, N])` at its origin coordinate (no plan tables).
    fn defined_offset(layout: &Layout, idx: &[i64]) -> usize {
        let crd = layout.origin().unflatten(idx).unwrap();
        layout.crd_to_offset(&crd).unwrap() as usize
    }

    /// Every packable layout x element type (by C0 and width) x odd shape (tails in both dims,
    /// single rows/columns, batches, one shape above a worker's step) x 1..3 threads: the
    /// blocked copies put every element where the layout says, zero the rest, and unpack back.
    #[test]
    fn blocked_copies_agree_with_crd_to_offset_on_odd_shapes() {
        use crate::ascend::{frame_c0, ElementType};
        fn check<T: PackWord + PartialEq + std::fmt::Debug + From<u8>>(
            pattern: FramePattern,
            c0: i64,
            dims: &[usize],
            value: impl Fn(usize) -> T,
        ) {
            let batch_dims: Vec<i64> = match *dims {
                [m, n] => vec![1, m as i64, n as i64],
                [b, m, n] => vec![b as i64, m as i64, n as i64],
                _ => unreachable!(),
            };
            let layout = frame_layout(pattern, c0, &batch_dims).unwrap();
            let plan = PackPlan::new(pattern, c0, dims).unwrap();
            let (b, m, n) = (batch_dims[0] as usize, batch_dims[1] as usize, batch_dims[2] as usize);
            let nd: Vec<T> = (0..b * m * n).map(&value).collect();
            let mut want = vec![T::from(0); plan.packed_len()];
            for x in 0..b {
                for i in 0..m {
                    for j in 0..n {
                        want[defined_offset(&layout, &[x as i64, i as i64, j as i64])] = nd[(x * m + i) * n + j];
                    }
                }
            }
            for threads in [1, 2, 3] {
                let mut packed = vec![T::from(0xA5); plan.packed_len()];
                plan.pack_into_with(&nd, &mut packed, T::from(0), threads).unwrap();
                let at = (0..want.len()).find(|&k| packed[k] != want[k]);
                assert_eq!(at, None, "{pattern} c0={c0} {dims:?} threads={threads}: first wrong offset");
                let mut back = vec![T::from(0xA5); nd.len()];
                plan.unpack_into_with(&packed, &mut back, threads).unwrap();
                assert!(back == nd, "{pattern} c0={c0} {dims:?} threads={threads}: unpack(pack(x)) != x");
            }
        }
        // 300 x 700 and 2 x 257 x 515: the edges of the blocks (transpose bands of 256 rows and
        // 512 bytes of columns, run bands of 64 rows), neither side a multiple of any block.
        let shapes: [&[usize]; 10] = [
            &[1, 1],
            &[1, 37],
            &[37, 1],
            &[17, 33],
            &[33, 47],
            &[2, 19, 35],
            &[5, 3, 70],
            &[16, 64],
            &[300, 700],
            &[2, 257, 515],
        ];
        let mut cases = 0;
        for pattern in PACKABLE {
            for elem in [ElementType::F16, ElementType::BF16, ElementType::F32, ElementType::I8] {
                let c0 = frame_c0(pattern, elem).unwrap();
                for dims in shapes {
                    // Values that differ in every byte's position: a misplaced element shows.
                    match elem.bits() {
                        8 => check::<u8>(pattern, c0, dims, |k| (k % 251) as u8 + 1),
                        16 => check::<u16>(pattern, c0, dims, |k| (k % 65521) as u16 + 1),
                        _ => check::<u32>(pattern, c0, dims, |k| k as u32 + 1),
                    }
                    cases += 1;
                }
            }
            // The explicit C0s of the runtime's packer: 16, and 2 (NN as the MX scale, even rows).
            check::<u16>(pattern, 16, &[34, 40], |k| k as u16 + 1);
            if pattern == NN {
                check::<u8>(pattern, 2, &[2, 18, 21], |k| (k % 200) as u8 + 1);
            }
        }
        assert_eq!(cases, 8 * 4 * 10);
    }

    /// A matrix beyond L2 (1027 x 1061: over 1 MiB even for i8, odd in both dims) takes the
    /// streaming paths (row-by-row run unpacking, prefetching transposes): every layout and
    /// width, one and two threads, against the plan's offset tables (themselves checked
    /// against `crd_to_offset` above).
    #[test]
    fn large_matrices_pack_by_the_tables() {
        use crate::ascend::{frame_c0, ElementType};
        fn check<T: PackWord + PartialEq + std::fmt::Debug + From<u8>>(plan: &PackPlan, value: impl Fn(usize) -> T) {
            let (m, n) = (plan.rows, plan.cols);
            let nd: Vec<T> = (0..m * n).map(&value).collect();
            let mut want = vec![T::from(0); plan.packed_len()];
            for i in 0..m {
                for j in 0..n {
                    want[plan.offset(i, j)] = nd[i * n + j];
                }
            }
            for threads in [1, 2] {
                let mut packed = vec![T::from(0xA5); plan.packed_len()];
                plan.pack_into_with(&nd, &mut packed, T::from(0), threads).unwrap();
                let at = (0..want.len()).find(|&k| packed[k] != want[k]);
                assert_eq!(at, None, "{} threads={threads}: first wrong offset", plan.layout);
                let mut back = vec![T::from(0xA5); nd.len()];
                plan.unpack_into_with(&packed, &mut back, threads).unwrap();
                assert!(back == nd, "{} threads={threads}: unpack(pack(x)) != x", plan.layout);
            }
        }
        for pattern in PACKABLE {
            for elem in [ElementType::F16, ElementType::F32, ElementType::I8] {
                let plan = PackPlan::new(pattern, frame_c0(pattern, elem).unwrap(), &[1027, 1061]).unwrap();
                match elem.bits() {
                    8 => check::<u8>(&plan, |k| (k % 251) as u8 + 1),
                    16 => check::<u16>(&plan, |k| (k % 65521) as u16 + 1),
                    _ => check::<u32>(&plan, |k| k as u32 + 1),
                }
            }
        }
    }

    /// The shapes of `large_matrices_pack_by_the_tables` take both transpose walks: NN (short
    /// column groups) and every i8 transpose the piece walk (beyond L2); DN and ZN f16/f32
    /// the quad walk, as does every layout at 256² (in L2).
    #[test]
    fn large_nn_and_i8_take_the_piece_walk() {
        use super::super::pack_transpose::piece_walk;
        use crate::ascend::{frame_c0, ElementType};
        for (elem, b, size) in [(ElementType::F16, 8, 2), (ElementType::F32, 4, 4), (ElementType::I8, 16, 1)] {
            for pattern in [NN, DN, ZN, DNExt] {
                let c0 = frame_c0(pattern, elem).unwrap();
                let large = PackPlan::new(pattern, c0, &[1027, 1061]).unwrap();
                let want = pattern == NN || size == 1;
                assert_eq!(piece_walk(&large.matrix(), b, size, large.packed_len()), want, "{pattern} {elem:?}");
                let small = PackPlan::new(pattern, c0, &[256, 256]).unwrap();
                assert!(!piece_walk(&small.matrix(), b, size, small.packed_len()), "{pattern} {elem:?} 256²");
            }
        }
    }

    /// The fractal layouts of a padded shape zero their padding through the padded domain
    /// (not by clearing the buffer first); unpadded shapes have none.
    #[test]
    fn padded_fractals_have_a_padded_domain() {
        for pattern in [NZ, ZN, ZZ, NN] {
            let plan = PackPlan::new(pattern, 16, &[17, 33]).unwrap();
            let pad = plan.padding.as_ref().unwrap_or_else(|| panic!("{pattern}: no padded domain"));
            assert_eq!(pad.extents(), (32, 48), "{pattern}");
            assert!(PackPlan::new(pattern, 16, &[32, 48]).unwrap().padding.is_none());
        }
        assert!(PackPlan::new(ND, 1, &[17, 33]).unwrap().padding.is_none());
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
