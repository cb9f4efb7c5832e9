//! The transposing copies of the packer (DN, ZN, NN, DNExt: the row table has the longer
//! contiguous runs, so a packed run holds one column's consecutive rows).
//!
//! The matrix is walked in blocks of `BAND` rows × `TILE_BYTES` of each row; inside a block,
//! `QUAD` row pieces of `B` rows at a time (`B · size_of::<T>() = 16` bytes of a packed run) go
//! across the block's columns in squares of `B × B`, so every 64-byte line of either side is
//! read or written whole by consecutive squares. Inside a column group (an arithmetic
//! progression of the column table) a square's packed runs are at one step: one bounds check
//! per piece and group, then raw pointers. The edges (pieces shorter than `B`, columns after
//! a group's last whole square) are moved element by element.
//!
//! A square is `log2 B` rounds of one interleave (unpack lo/hi of lines `x` and `x + B/2` into
//! lines `2x`, `2x + 1`): each round rotates the bits of the element index `(row, column)` by
//! one, so `log2 B` rounds swap row and column. SSE2 is part of x86-64 (no detection needed);
//! other targets move the elements one by one.

use super::pack::PackWord;
use super::pack_copy::{row_pieces, Matrix, Run, BEYOND_L2_BYTES};
use std::ops::Range;

/// A block is `BAND` rows × `TILE_BYTES` of each row (128 KiB a side: both sides stay in L2,
/// and each page of either side is visited with 512 contiguous bytes, which keeps the TLB
/// misses of a 4096-wide matrix low).
const BAND: usize = 256;
const TILE_BYTES: usize = 512;
/// Row pieces moved per column square: 4 × 16 bytes fill one 64-byte line of a packed run.
const QUAD: usize = 4;
/// How far ahead of a square the ND rows are prefetched (unpacking).
#[cfg(target_arch = "x86_64")]
const AHEAD_BYTES: usize = 128;

/// Moves `rows × cols` by transposes (see [`super::pack_copy`]'s `copy_region` for the
/// arguments): squares of 16 bytes a side, one SSE register per line.
pub(super) fn transpose_region<T: PackWord, const PACK: bool>(
    m: &Matrix<'_>,
    src: &[T],
    dst: &mut [T],
    at: (usize, usize),
    rows: Range<usize>,
    cols: Range<usize>,
) {
    match std::mem::size_of::<T>() {
        1 => region::<T, 16, PACK>(m, src, dst, at, rows, cols),
        2 => region::<T, 8, PACK>(m, src, dst, at, rows, cols),
        4 => region::<T, 4, PACK>(m, src, dst, at, rows, cols),
        _ => region::<T, 2, PACK>(m, src, dst, at, rows, cols),
    }
}

fn region<T: PackWord, const B: usize, const PACK: bool>(
    m: &Matrix<'_>,
    src: &[T],
    dst: &mut [T],
    (base, nd0): (usize, usize),
    rows: Range<usize>,
    cols: Range<usize>,
) {
    let n = m.cols.len();
    let tile_cols = TILE_BYTES / std::mem::size_of::<T>();
    // ND index of (i, j) in the ND side (the whole matrix when packing, the window unpacking).
    let nd_shift = if PACK { 0 } else { nd0 };
    let nd_len = if PACK { src.len() } else { dst.len() };
    let packed_len = if PACK { dst.len() } else { src.len() };
    let pieces = row_pieces(&m.shape.row_runs, &rows, B);
    let beyond_l2 = packed_len * std::mem::size_of::<T>() > BEYOND_L2_BYTES;
    if piece_walk(m, B, std::mem::size_of::<T>(), packed_len) {
        return by_pieces::<T, B, PACK>(m, src, dst, (base, nd0), &pieces, cols);
    }
    let prefetch = beyond_l2;
    let mut first = 0;
    while first < pieces.len() {
        // One band: the pieces that start in the same BAND rows.
        let band = pieces[first].start / BAND;
        let last = first + pieces[first..].iter().take_while(|p| p.start / BAND == band).count();
        let mut j0 = cols.start;
        while j0 < cols.end {
            let j1 = (j0 + tile_cols).min(cols.end);
            for quad in pieces[first..last].chunks(QUAD) {
                for group in &m.shape.col_groups {
                    let (lo, hi) = (group.start.max(j0), (group.start + group.len).min(j1));
                    if lo >= hi {
                        continue;
                    }
                    let squares = if group.len >= B { (hi - lo) / B } else { 0 };
                    // Per whole piece: (ND index, packed index) of its first square's first line.
                    let mut starts = [(0usize, 0usize); QUAD];
                    let mut whole = 0;
                    for piece in quad.iter().filter(|p| p.len == B && squares > 0) {
                        let nd = (piece.start * n + lo).wrapping_sub(nd_shift);
                        let packed = m.rows[piece.start].wrapping_add(m.cols[lo]).wrapping_sub(base);
                        let span = |first: usize, line: usize, lines: usize| {
                            (lines - 1).checked_mul(line).and_then(|x| x.checked_add(first + B - 1))
                        };
                        // The last element of the last line (ND: row B-1 of the last square;
                        // packed: the last square's last column's run).
                        let nd_end = span(nd, n, B).and_then(|e| e.checked_add((squares - 1) * B));
                        let packed_end = span(packed, group.step, squares * B);
                        assert!(nd_end.is_some_and(|e| e < nd_len), "ND square out of bounds");
                        assert!(packed_end.is_some_and(|e| e < packed_len), "packed square out of bounds");
                        starts[whole] = (nd, packed);
                        whole += 1;
                    }
                    move_squares::<T, B, PACK>(src, dst, &starts[..whole], squares, (n, group.step), prefetch);
                    // The group's columns after its last whole square (all of them for the
                    // pieces shorter than B).
                    for piece in quad {
                        let from = if piece.len == B { lo + squares * B } else { lo };
                        by_elements::<T, PACK>(
                            m,
                            src,
                            dst,
                            (base, nd0),
                            piece.start..piece.start + piece.len,
                            from..hi,
                        );
                    }
                }
            }
            j0 = j1;
        }
        first = last;
    }
}

/// Whether a matrix of `packed_len` elements of `size` bytes (squares of side `b`) takes
/// [`by_pieces`]: beyond L2, for short column groups or one-byte elements.
pub(super) fn piece_walk(m: &Matrix<'_>, b: usize, size: usize, packed_len: usize) -> bool {
    packed_len * size > BEYOND_L2_BYTES && (short_groups(m, b) || size == 1)
}

/// Whether the column table is cut into many short groups of at most four squares (NN: one
/// group of 16 columns per fractal column, the groups a fractal column of the packed matrix
/// apart, 128 KiB at 4096² f16): the quad walk then moves two to four squares per group and
/// piece before jumping.
fn short_groups(m: &Matrix<'_>, b: usize) -> bool {
    let groups = &m.shape.col_groups;
    groups.len() > 1 && groups[..groups.len() - 1].iter().all(|g| g.len <= 4 * b)
}

/// The walk for [`short_groups`]: one row piece at a time across each block's columns, square
/// by square, each square's packed runs at the step of its own columns (the walk of the SSE2
/// squares before the quad walk), for matrices beyond L2. NN at 4096² measured (interleaved
/// runs on the loaded machine) 0.45 of memcpy with it against 0.29-0.32 with the quad walk
/// (f16), 0.31-0.35 against 0.21 (i8), 0.45-0.51 against 0.34-0.40 (f32); in L2 the quad walk's AVX2 pairs win (256² f16: 0.21-0.25
/// against 0.19, i8: 0.29-0.32 against 0.20). i8 beyond L2 takes it for every transposing
/// layout (its quad walk spans 64 ND rows, 4 KiB apart at 4096²): ZN i8 4096² 0.19-0.23 -> 0.34-0.38
/// both ways, DNExt 0.08-0.13 -> 0.17-0.20, DN level; f16/f32 DN and ZN lost with it.
fn by_pieces<T: PackWord, const B: usize, const PACK: bool>(
    m: &Matrix<'_>,
    src: &[T],
    dst: &mut [T],
    (base, nd0): (usize, usize),
    pieces: &[Run],
    cols: Range<usize>,
) {
    let n = m.cols.len();
    let tile_cols = TILE_BYTES / std::mem::size_of::<T>();
    let nd_shift = if PACK { 0 } else { nd0 };
    let (nd_len, packed_len) = if PACK { (src.len(), dst.len()) } else { (dst.len(), src.len()) };
    let (sp, dp) = (src.as_ptr(), dst.as_mut_ptr());
    let mut first = 0;
    while first < pieces.len() {
        let band = pieces[first].start / BAND;
        let last = first + pieces[first..].iter().take_while(|p| p.start / BAND == band).count();
        let mut j0 = cols.start;
        while j0 < cols.end {
            let j1 = (j0 + tile_cols).min(cols.end);
            for piece in &pieces[first..last] {
                let r = m.rows[piece.start].wrapping_sub(base);
                let mut j = j0;
                while piece.len == B && j + B <= j1 {
                    // The square's columns must be one progression (their runs at one step).
                    let step = m.cols[j + 1].wrapping_sub(m.cols[j]);
                    if (1..B).any(|c| m.cols[j + c] != m.cols[j].wrapping_add(c.wrapping_mul(step))) {
                        break;
                    }
                    let (nd, packed) = ((piece.start * n + j).wrapping_sub(nd_shift), r.wrapping_add(m.cols[j]));
                    let nd_end = (B - 1).checked_mul(n).and_then(|x| x.checked_add(nd + B - 1));
                    let packed_end = (B - 1).checked_mul(step).and_then(|x| x.checked_add(packed + B - 1));
                    assert!(nd_end.is_some_and(|e| e < nd_len), "ND square out of bounds");
                    assert!(packed_end.is_some_and(|e| e < packed_len), "packed square out of bounds");
                    // Safety: both squares' first and last lines are inside their slices (checked
                    // above, lines at constant strides); the slices are distinct.
                    unsafe {
                        if PACK {
                            square::<T, B>(sp.add(nd), n, dp.add(packed), step);
                        } else {
                            square::<T, B>(sp.add(packed), step, dp.add(nd), n);
                        }
                    }
                    j += B;
                }
                by_elements::<T, PACK>(m, src, dst, (base, nd0), piece.start..piece.start + piece.len, j..j1);
            }
            j0 = j1;
        }
        first = last;
    }
}

/// Squares `0..squares` of the whole pieces at `starts` (ND and packed index of square 0) along
/// one column group: ND lines `n` apart, packed runs `step` apart. Two pieces that continue
/// each other in both the ND rows and the packed run go through one AVX2 register per line
/// (a square in each 128-bit lane) where the CPU has it.
#[inline(always)]
fn move_squares<T: PackWord, const B: usize, const PACK: bool>(
    src: &[T],
    dst: &mut [T],
    starts: &[(usize, usize)],
    squares: usize,
    (n, step): (usize, usize),
    prefetch: bool,
) {
    #[cfg(not(target_arch = "x86_64"))]
    let _ = prefetch;
    let (sp, dp) = (src.as_ptr(), dst.as_mut_ptr());
    // Safety (every call below): the caller checked that both ends of every square of every
    // piece are inside `src` and `dst`; the two slices are distinct.
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        let pairs: [bool; QUAD] =
            std::array::from_fn(|k| k + 1 < starts.len() && starts[k + 1] == (starts[k].0 + B * n, starts[k].1 + B));
        unsafe { wide::squares::<T, B, PACK>(sp, dp, starts, &pairs, squares, (n, step), prefetch) };
        return;
    }
    for s in 0..squares {
        for &(nd, packed) in starts {
            let (nd, packed) = (nd + s * B, packed + s * B * step);
            unsafe {
                if PACK {
                    square::<T, B>(sp.add(nd), n, dp.add(packed), step);
                } else {
                    square::<T, B>(sp.add(packed), step, dp.add(nd), n);
                }
            }
        }
    }
}

/// The interleave rounds of a `B × B` transpose of `$t`-byte elements on the lines `$r`
/// (`$u`: the unpack intrinsics of 8-, 16-, 32- and 64-bit elements, lo then hi).
#[cfg(target_arch = "x86_64")]
macro_rules! rounds {
    ($r:ident, $b:expr, $t:expr, [$lo8:ident, $hi8:ident, $lo16:ident, $hi16:ident, $lo32:ident, $hi32:ident, $lo64:ident, $hi64:ident]) => {{
        macro_rules! round {
            ($lo:ident, $hi:ident) => {{
                let old = $r;
                for x in 0..$b / 2 {
                    $r[2 * x] = $lo(old[x], old[x + $b / 2]);
                    $r[2 * x + 1] = $hi(old[x], old[x + $b / 2]);
                }
            }};
        }
        match $t {
            1 => {
                round!($lo8, $hi8);
                round!($lo8, $hi8);
                round!($lo8, $hi8);
                round!($lo8, $hi8);
            }
            2 => {
                round!($lo16, $hi16);
                round!($lo16, $hi16);
                round!($lo16, $hi16);
            }
            4 => {
                round!($lo32, $hi32);
                round!($lo32, $hi32);
            }
            _ => round!($lo64, $hi64),
        }
    }};
}

/// The AVX2 squares: two vertically adjacent squares per register (one per 128-bit lane, as
/// the unpacks work per lane).
#[cfg(target_arch = "x86_64")]
mod wide {
    use super::{square, PackWord, AHEAD_BYTES, QUAD};
    use std::arch::x86_64::*;

    /// [`super::move_squares`] with pairs (`pairs[k]`: pieces `k`, `k + 1` go together).
    ///
    /// # Safety
    /// AVX2 is available; every line of every square is inside its allocation.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn squares<T: PackWord, const B: usize, const PACK: bool>(
        sp: *const T,
        dp: *mut T,
        starts: &[(usize, usize)],
        pairs: &[bool; QUAD],
        squares: usize,
        (n, step): (usize, usize),
        prefetch: bool,
    ) {
        // Unpacking a matrix beyond L2 prefetches the ND rows a few squares ahead: each
        // square writes 16 bytes of each of its rows, and 32 partial lines missing L1 at once
        // fill the store queue. Measured at 1000² f16 (NN, ZN): unpack 0.2 -> 0.35-0.4 of
        // memcpy; packing, and anything in L2, lost by it.
        let ahead = AHEAD_BYTES / 16;
        for s in 0..squares {
            if prefetch && !PACK && (s * 16) % 64 == 0 {
                for &(nd, _) in starts {
                    for row in 0..B {
                        let at = nd + (s + ahead) * B + row * n;
                        _mm_prefetch::<_MM_HINT_T0>(dp.wrapping_add(at) as *const i8);
                    }
                }
            }
            let mut k = 0;
            while k < starts.len() {
                let (nd, packed) = (starts[k].0 + s * B, starts[k].1 + s * B * step);
                // Safety: the caller's promise (a pair's second piece is checked too).
                unsafe {
                    match (pairs[k], PACK) {
                        (true, _) => pair::<T, B, PACK>(sp, dp, nd, packed, (n, step)),
                        (false, true) => square::<T, B>(sp.add(nd), n, dp.add(packed), step),
                        (false, false) => square::<T, B>(sp.add(packed), step, dp.add(nd), n),
                    }
                }
                k += if pairs[k] { 2 } else { 1 };
            }
        }
    }

    /// Two squares: ND rows `nd .. nd + 2B` (lines `n` apart) ⇄ `B` packed runs of `2B`
    /// elements from `packed` (`step` apart). Packing reads `src` as ND, unpacking as packed.
    ///
    /// # Safety
    /// AVX2 is available; all `2B` ND lines and `B` packed runs are inside their allocations.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) unsafe fn pair<T: PackWord, const B: usize, const PACK: bool>(
        src: *const T,
        dst: *mut T,
        nd: usize,
        packed: usize,
        (n, step): (usize, usize),
    ) {
        let mut r: [__m256i; B] = [_mm256_setzero_si256(); B];
        // Safety (loads, stores): the caller's promise; unaligned moves of plain bits.
        unsafe {
            for (k, line) in r.iter_mut().enumerate() {
                *line = if PACK {
                    let lo = src.add(nd + k * n) as *const __m128i;
                    _mm256_loadu2_m128i(src.add(nd + (B + k) * n) as *const __m128i, lo)
                } else {
                    _mm256_loadu_si256(src.add(packed + k * step) as *const __m256i)
                };
            }
        }
        rounds!(
            r,
            B,
            std::mem::size_of::<T>(),
            [
                _mm256_unpacklo_epi8,
                _mm256_unpackhi_epi8,
                _mm256_unpacklo_epi16,
                _mm256_unpackhi_epi16,
                _mm256_unpacklo_epi32,
                _mm256_unpackhi_epi32,
                _mm256_unpacklo_epi64,
                _mm256_unpackhi_epi64
            ]
        );
        unsafe {
            for (c, line) in r.iter().enumerate() {
                if PACK {
                    _mm256_storeu_si256(dst.add(packed + c * step) as *mut __m256i, *line);
                } else {
                    let lo = dst.add(nd + c * n) as *mut __m128i;
                    _mm256_storeu2_m128i(dst.add(nd + (B + c) * n) as *mut __m128i, lo, *line);
                }
            }
        }
    }
}

/// The elements of `rows × cols` (rows one packed run) one by one.
fn by_elements<T: PackWord, const PACK: bool>(
    m: &Matrix<'_>,
    src: &[T],
    dst: &mut [T],
    (base, nd0): (usize, usize),
    rows: Range<usize>,
    cols: Range<usize>,
) {
    let n = m.cols.len();
    let r = m.rows[rows.start].wrapping_sub(base);
    for j in cols {
        let (a, p) = (rows.start * n + j, r.wrapping_add(m.cols[j]));
        if PACK {
            for (k, d) in dst[p..p + rows.len()].iter_mut().enumerate() {
                *d = src[a + k * n];
            }
        } else {
            for (k, s) in src[p..p + rows.len()].iter().enumerate() {
                dst[a - nd0 + k * n] = *s;
            }
        }
    }
}

/// Transposes one square: element `c` of source line `k` (at `src + k·ss`) goes to element
/// `k` of destination line `c` (at `dst + c·ds`).
///
/// # Safety
/// Every line (`B` elements) is inside its allocation; the two squares do not overlap;
/// `B · size_of::<T>()` is 16.
#[inline(always)]
unsafe fn square<T: PackWord, const B: usize>(src: *const T, ss: usize, dst: *mut T, ds: usize) {
    debug_assert_eq!(B * std::mem::size_of::<T>(), 16, "a square line is 16 bytes");
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::*;
        // Safety (loads and stores): the caller's promise; unaligned moves; `T: PackWord` has
        // no padding bytes and every bit pattern is valid.
        let mut r: [__m128i; B] =
            std::array::from_fn(|k| unsafe { _mm_loadu_si128(src.add(k * ss) as *const __m128i) });
        // Safety: SSE2 is in the x86-64 baseline.
        unsafe {
            rounds!(
                r,
                B,
                std::mem::size_of::<T>(),
                [
                    _mm_unpacklo_epi8,
                    _mm_unpackhi_epi8,
                    _mm_unpacklo_epi16,
                    _mm_unpackhi_epi16,
                    _mm_unpacklo_epi32,
                    _mm_unpackhi_epi32,
                    _mm_unpacklo_epi64,
                    _mm_unpackhi_epi64
                ]
            )
        };
        for (c, line) in r.iter().enumerate() {
            unsafe { _mm_storeu_si128(dst.add(c * ds) as *mut __m128i, *line) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for k in 0..B {
        for c in 0..B {
            // Safety: the caller's promise.
            unsafe { *dst.add(c * ds + k) = *src.add(k * ss + c) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every width: the register transpose moves element `c` of source line `k` to element `k`
    /// of destination line `c` (lines at unaligned strides), and leaves the rest alone.
    #[test]
    fn register_transpose_matches_elements() {
        fn check<T: PackWord + PartialEq + std::fmt::Debug, const B: usize>(value: impl Fn(usize) -> T) {
            let (s0, ss, d0, ds) = (3, 2 * B + 1, 5, B + 3);
            let src: Vec<T> = (0..s0 + B * ss).map(&value).collect();
            let mut want = vec![value(999_999); d0 + B * ds + 4];
            for k in 0..B {
                for c in 0..B {
                    want[d0 + c * ds + k] = src[s0 + k * ss + c];
                }
            }
            let mut got = vec![value(999_999); want.len()];
            // Safety: the last source line ends at s0 + (B-1)·ss + B <= src.len(), the last
            // destination line at d0 + (B-1)·ds + B < got.len().
            unsafe { square::<T, B>(src.as_ptr().add(s0), ss, got.as_mut_ptr().add(d0), ds) };
            assert_eq!(got, want, "B = {B}");
            assert_eq!(got[d0 + ds], src[s0 + 1], "element 1 of line 0 is element 0 of line 1");
        }
        check::<u8, 16>(|k| (k * 7 % 251) as u8);
        check::<u16, 8>(|k| (k * 7919 % 65521) as u16);
        check::<u32, 4>(|k| (k as u32).wrapping_mul(2_654_435_761));
        check::<u64, 2>(|k| (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }

    /// Every width: the AVX2 pair moves ND rows `k` (2B of them) ⇄ element `k` of the packed
    /// runs, both directions, at unaligned strides, and writes nothing else.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx2_pairs_match_elements() {
        if !std::is_x86_feature_detected!("avx2") {
            // The pair kernel is only called where AVX2 is detected.
            return;
        }
        fn check<T: PackWord + PartialEq + std::fmt::Debug, const B: usize>(value: impl Fn(usize) -> T) {
            let (nd0, n, p0, step) = (3, 2 * B + 3, 5, 2 * B + 1);
            let nd: Vec<T> = (0..nd0 + 2 * B * n).map(&value).collect();
            let blank = value(999_999);
            let mut want = vec![blank; p0 + B * step + 2];
            for k in 0..2 * B {
                for c in 0..B {
                    want[p0 + c * step + k] = nd[nd0 + k * n + c];
                }
            }
            let mut packed = vec![blank; want.len()];
            // Safety: AVX2 detected; the last ND line ends at nd0 + (2B-1)·n + B <= nd.len(),
            // the last packed run at p0 + (B-1)·step + 2B <= packed.len().
            unsafe { wide::pair::<T, B, true>(nd.as_ptr(), packed.as_mut_ptr(), nd0, p0, (n, step)) };
            assert_eq!(packed, want, "pack B = {B}");
            let mut back = vec![blank; nd.len()];
            // Safety: as above, the roles swapped.
            unsafe { wide::pair::<T, B, false>(packed.as_ptr(), back.as_mut_ptr(), nd0, p0, (n, step)) };
            for (a, (&got, &orig)) in back.iter().zip(&nd).enumerate() {
                let inside = a >= nd0 && (a - nd0) % n < B;
                assert_eq!(got, if inside { orig } else { blank }, "unpack B = {B} at {a}");
            }
        }
        check::<u8, 16>(|k| (k * 7 % 251) as u8);
        check::<u16, 8>(|k| (k * 7919 % 65521) as u16);
        check::<u32, 4>(|k| (k as u32).wrapping_mul(2_654_435_761));
        check::<u64, 2>(|k| (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    }
}
