//! The blocked copies behind [`super::PackPlan`]: element `(i, j)` of a row-major `M × N`
//! matrix goes to `rows[i] + cols[j]` (the plan's offset tables, from the layout), moved in
//! runs rather than one by one.
//!
//! The tables decide the loop shape, no pattern is named here: where `cols` has the longer
//! contiguous runs (ND, NZ, ZZ: runs of N or C0) the rows are cut into arithmetic groups and
//! each run of a group is a strided line copy with one bounds check (fixed 16/32/64-byte moves
//! for C0 rows), or, unpacking a matrix beyond L2, one row at a time (whole ND lines); where
//! `rows` has them (DN, ZN, NN) the copy is a transpose in register squares of 16 bytes a side
//! ([`super::pack_transpose`]). A padded matrix zeroes only its padding ([`Padding`]).
//!
//! Threads split the packed buffer into disjoint contiguous pieces ([`Split`]): a layout whose
//! row (or column) offsets are `block · stride + inner` with every other offset below `stride`
//! has one piece per block (ZZ: 16 rows, NZ: C0 columns, DN: one column), checked on the tables.
//! Unpacking splits the ND rows. Batches split by matrix.

use super::pack::PackWord;
use super::pack_transpose::transpose_region;
use std::ops::Range;

/// Packed bytes from which a matrix is treated as streaming from L3 or memory: twice a core's
/// L2 (512 KiB on the Zen 3 measured). Unpacking then goes row by row (runs) or prefetches
/// the ND rows (transposes, [`super::pack_transpose`]).
pub(super) const BEYOND_L2_BYTES: usize = 1 << 20;
/// The row step of unpacking's thread shares (one fractal height).
const ROW_BLOCK: usize = 16;
/// Rows of a band of run copies: each run of the band is `RUN_BAND` lines (NZ: one contiguous
/// piece of `RUN_BAND · C0` packed elements), while the band's ND rows stay in L1.
const RUN_BAND: usize = 64;

/// A contiguous run `start..start + len` of a table (`t[k + 1] = t[k] + 1` inside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    pub start: usize,
    pub len: usize,
}

fn runs(table: &[usize]) -> Vec<Run> {
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..=table.len() {
        if k == table.len() || table[k] != table[k - 1] + 1 {
            out.push(Run { start, len: k - start });
            start = k;
        }
    }
    out
}

/// A row group: rows `start .. start + len` whose offsets step by `step` (`t[k + 1] = t[k] +
/// step` inside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Group {
    pub start: usize,
    pub len: usize,
    pub step: usize,
}

/// The table cut into maximal arithmetic progressions (ND: one group of step N; NZ: one of
/// step C0; ZZ: one per 16 rows).
fn groups(table: &[usize]) -> Vec<Group> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < table.len() {
        let step = table.get(start + 1).and_then(|&t| t.checked_sub(table[start])).unwrap_or(0);
        let mut end = start + 1;
        while end < table.len() && table[end].checked_sub(table[end - 1]) == Some(step) && step > 0 {
            end += 1;
        }
        out.push(Group { start, len: end - start, step });
        start = end;
    }
    out
}

/// The axis of the ND matrix whose blocks own disjoint contiguous pieces of the packed one:
/// block `k` (indices `k·block ..`) owns offsets `k·stride .. (k + 1)·stride`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Axis {
    Rows,
    Cols,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Split {
    pub axis: Axis,
    pub block: usize,
    pub stride: usize,
}

/// `table[k] = (k / block)·stride + table[k % block]` for the first period `block` (where the
/// step first changes), and `max(table[..block]) + max(other) < stride`: then the blocks own
/// disjoint pieces of the buffer. None for a single block or any mismatch.
fn split_of(axis: Axis, table: &[usize], other: &[usize]) -> Option<Split> {
    if table.len() < 2 || table[0] != 0 {
        return None;
    }
    let step = table[1].checked_sub(table[0])?;
    // The period: where the step first changes (a constant step: every index is a block).
    let block = (1..table.len()).find(|&k| table[k] != table[k - 1] + step).unwrap_or(1);
    let stride = table[block];
    let inner_max = table[..block].iter().copied().max()?;
    let other_max = other.iter().copied().max()?;
    if stride == 0 || inner_max + other_max >= stride {
        return None;
    }
    let periodic = table.iter().enumerate().all(|(k, &t)| t == (k / block) * stride + table[k % block]);
    periodic.then_some(Split { axis, block, stride })
}

/// How one matrix is copied, derived once per plan from its offset tables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CopyShape {
    pub row_runs: Vec<Run>,
    col_runs: Vec<Run>,
    row_groups: Vec<Group>,
    /// The column table's arithmetic progressions: the packed runs of a transpose square's
    /// columns are at one step inside a group.
    pub col_groups: Vec<Group>,
    /// Column runs are the longer ones: copy runs along rows (else transpose).
    along_rows: bool,
    pub split: Option<Split>,
}

impl CopyShape {
    pub fn new(rows: &[usize], cols: &[usize]) -> CopyShape {
        let (row_runs, col_runs) = (runs(rows), runs(cols));
        let longest = |r: &[Run]| r.iter().map(|r| r.len).max().unwrap_or(0);
        let along_rows = longest(&col_runs) >= longest(&row_runs);
        // Prefer the axis with more blocks (more even thread shares).
        let candidates = [split_of(Axis::Rows, rows, cols), split_of(Axis::Cols, cols, rows)];
        let blocks = |s: &Split| match s.axis {
            Axis::Rows => rows.len().div_ceil(s.block),
            Axis::Cols => cols.len().div_ceil(s.block),
        };
        let split = candidates.into_iter().flatten().max_by_key(blocks);
        CopyShape { row_runs, col_runs, row_groups: groups(rows), col_groups: groups(cols), along_rows, split }
    }
}

/// One matrix: the tables, the shape and the ND row length.
pub(super) struct Matrix<'a> {
    pub rows: &'a [usize],
    pub cols: &'a [usize],
    pub shape: &'a CopyShape,
    /// The padding as the complement of the matrix in a padded domain, if there is one.
    pub pad: Option<&'a Padding>,
}

/// The offset tables over the layout's whole (padded) domain `Mp × Np` (the modes' sizes),
/// when that domain maps one to one onto the packed matrix: then the padding is exactly the
/// elements `(i, j)` with `i ≥ M` or `j ≥ N`, and is zeroed in runs of the tables instead of
/// clearing the whole buffer before the copy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Padding {
    rows: Vec<usize>,
    cols: Vec<usize>,
    row_runs: Vec<Run>,
    col_runs: Vec<Run>,
}

impl Padding {
    pub fn new(rows: Vec<usize>, cols: Vec<usize>) -> Padding {
        let (row_runs, col_runs) = (runs(&rows), runs(&cols));
        Padding { rows, cols, row_runs, col_runs }
    }

    /// The padded extents `(Mp, Np)`.
    #[cfg(test)]
    pub fn extents(&self) -> (usize, usize) {
        (self.rows.len(), self.cols.len())
    }
}

/// Zeroes the padding elements of the domain rectangle `rows × cols` (padded indices) in the
/// packed window starting at `base`: the columns past N of every row, and the rows past M of
/// the matrix columns, as runs along the longer-run axis.
fn zero_padding<T: Copy>(
    m: &Matrix<'_>,
    pad: &Padding,
    window: &mut [T],
    base: usize,
    zero: T,
    rows: Range<usize>,
    cols: Range<usize>,
) {
    let (real_rows, real_cols) = (m.rows.len(), m.cols.len());
    let right = (rows.clone(), cols.start.max(real_cols)..cols.end);
    let below = (rows.start.max(real_rows)..rows.end, cols.start..cols.end.min(real_cols));
    for (r, c) in [right, below] {
        if r.is_empty() || c.is_empty() {
            continue;
        }
        if m.shape.along_rows {
            let runs = clipped(&pad.col_runs, &c);
            for i in r {
                for run in &runs {
                    let p = pad.rows[i].wrapping_add(pad.cols[run.start]).wrapping_sub(base);
                    window[p..p + run.len].fill(zero);
                }
            }
        } else {
            let runs = clipped(&pad.row_runs, &r);
            for j in c {
                for run in &runs {
                    let p = pad.cols[j].wrapping_add(pad.rows[run.start]).wrapping_sub(base);
                    window[p..p + run.len].fill(zero);
                }
            }
        }
    }
}

/// `count` lines of `len` elements at a constant step on each side: one run of every row of
/// a row group.
#[derive(Clone, Copy)]
struct Lines {
    count: usize,
    len: usize,
}

impl Lines {
    /// Copies line `k` from `src[s0 + k·ss ..]` to `dst[d0 + k·ds ..]`; runs of 16, 32 or 64
    /// bytes as fixed-size moves (NZ/ZZ's C0 rows), others by `copy_nonoverlapping`.
    ///
    /// # Panics
    /// If the last line leaves either slice (a plan/buffer mismatch): checked once, so the
    /// loop itself has no bounds checks.
    #[inline(always)]
    fn copy<T: PackWord>(self, src: &[T], (s0, ss): (usize, usize), dst: &mut [T], (d0, ds): (usize, usize)) {
        if self.count == 0 || self.len == 0 {
            return;
        }
        let end = |at: usize, step: usize| {
            (self.count - 1).checked_mul(step).and_then(|x| x.checked_add(at)).and_then(|x| x.checked_add(self.len))
        };
        assert!(end(s0, ss).is_some_and(|e| e <= src.len()), "source line out of bounds");
        assert!(end(d0, ds).is_some_and(|e| e <= dst.len()), "destination line out of bounds");
        let (sp, dp) = (src.as_ptr(), dst.as_mut_ptr());
        let lines = |bytes_of: fn(*const T, *mut T, usize)| {
            for k in 0..self.count {
                // Safety: line k ends at or before the last line's end, checked above.
                let (s, d) = unsafe { (sp.add(s0 + k * ss), dp.add(d0 + k * ds)) };
                bytes_of(s, d, self.len);
            }
        };
        // Safety (every arm): `s` and `d` point at `len` elements inside distinct slices;
        // `T: PackWord` is plain bits, so a byte copy is a copy of the elements.
        match std::mem::size_of::<T>() * self.len {
            16 => lines(|s, d, _| unsafe { fixed::<16>(s as *const u8, d as *mut u8) }),
            32 => lines(|s, d, _| unsafe { fixed::<32>(s as *const u8, d as *mut u8) }),
            64 => lines(|s, d, _| unsafe { fixed::<64>(s as *const u8, d as *mut u8) }),
            // The partial last C0 block of a row: a few fixed moves, no memcpy call per line.
            b if b < 64 => {
                lines(|s, d, len| unsafe { short(s as *const u8, d as *mut u8, len * std::mem::size_of::<T>()) })
            }
            _ => lines(|s, d, len| unsafe { std::ptr::copy_nonoverlapping(s, d, len) }),
        }
    }
}

/// Copies `K` bytes as one fixed-size move.
///
/// # Safety
/// `s` and `d` point at `K` bytes of distinct allocations (readable / writable).
#[inline(always)]
unsafe fn fixed<const K: usize>(s: *const u8, d: *mut u8) {
    // Safety: the caller's promise.
    unsafe { std::ptr::copy_nonoverlapping(s as *const [u8; K], d as *mut [u8; K], 1) }
}

/// Copies `bytes < 64` as fixed moves of 32, 16, 8, 4, 2 and 1 bytes (the bits of `bytes`).
///
/// # Safety
/// As [`fixed`], for `bytes` bytes.
#[inline(always)]
unsafe fn short(s: *const u8, d: *mut u8, bytes: usize) {
    let mut at = 0;
    macro_rules! piece {
        ($k:literal) => {
            if bytes & $k != 0 {
                // Safety: `at + $k <= bytes`: the pieces are the distinct bits of `bytes`.
                unsafe { fixed::<$k>(s.add(at), d.add(at)) };
                at += $k;
            }
        };
    }
    piece!(32);
    piece!(16);
    piece!(8);
    piece!(4);
    piece!(2);
    piece!(1);
    debug_assert_eq!(at, bytes);
}

/// Consecutive column runs of one length at constant steps in the ND row (`nd_step`) and in
/// the packed matrix (`packed_step`): one strided line copy per row (NZ f16 of 1000 columns:
/// 62 runs of 16 and the last of 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RunSet {
    first: Run,
    count: usize,
    nd_step: usize,
    packed_step: usize,
}

fn run_sets(runs: &[Run], cols: &[usize]) -> Vec<RunSet> {
    let mut out: Vec<RunSet> = Vec::new();
    for &run in runs {
        if let Some(set) = out.last_mut() {
            let k = set.count;
            let (nd_step, packed_step) =
                (run.start - set.first.start, cols[run.start].wrapping_sub(cols[set.first.start]));
            let fits = run.len == set.first.len
                && cols[run.start] > cols[set.first.start]
                && if k == 1 { true } else { nd_step == k * set.nd_step && packed_step == k * set.packed_step };
            if fits {
                if k == 1 {
                    (set.nd_step, set.packed_step) = (nd_step, packed_step);
                }
                set.count += 1;
                continue;
            }
        }
        out.push(RunSet { first: run, count: 1, nd_step: 0, packed_step: 0 });
    }
    out
}

/// The column runs clipped to `cols`.
fn clipped(runs: &[Run], cols: &Range<usize>) -> Vec<Run> {
    let clip = |r: &Run| {
        let (lo, hi) = (r.start.max(cols.start), (r.start + r.len).min(cols.end));
        (lo < hi).then(|| Run { start: lo, len: hi - lo })
    };
    runs.iter().filter_map(clip).collect()
}

/// Row pieces of a transpose: the row runs clipped to `rows`, cut to at most `piece` (the
/// side of a square tile).
pub(super) fn row_pieces(runs: &[Run], rows: &Range<usize>, piece: usize) -> Vec<Run> {
    let mut out = Vec::new();
    for r in runs {
        let (mut lo, hi) = (r.start.max(rows.start), (r.start + r.len).min(rows.end));
        while lo < hi {
            let len = (hi - lo).min(piece);
            out.push(Run { start: lo, len });
            lo += len;
        }
    }
    out
}

/// Moves the elements of `rows × cols` from `src` to `dst`. Packing (`PACK`): `src` is the
/// whole row-major ND matrix, `dst` the packed window starting at offset `base`. Unpacking:
/// `src` is the whole packed matrix, `dst` the ND window starting at element `nd0`.
///
/// # Panics
/// Only on a plan/buffer mismatch (slice bounds): the callers check the lengths.
fn copy_region<T: PackWord, const PACK: bool>(
    m: &Matrix<'_>,
    src: &[T],
    dst: &mut [T],
    (base, nd0): (usize, usize),
    rows: Range<usize>,
    cols: Range<usize>,
) {
    let n = m.cols.len();
    // ND index `a`, packed offset `p` (window-relative): (source, destination) indices.
    let beyond_l2 = std::mem::size_of_val(if PACK { dst } else { src }) > BEYOND_L2_BYTES;
    if m.shape.along_rows && !PACK && beyond_l2 && m.shape.col_runs.len() > 1 {
        // Unpacking a matrix beyond L2 with several runs a row (NZ, ZZ), row by row: each ND
        // row is written front to back (whole lines, no store misses on 64 half-written lines
        // at once), its runs read from as many packed streams. Measured: NZ f16 1000² unpack
        // 0.34 -> 0.55-0.65 of memcpy; in L2 (256²) the band order below is faster.
        let sets = run_sets(&clipped(&m.shape.col_runs, &cols), m.cols);
        for i in rows {
            for set in &sets {
                let p = m.rows[i].wrapping_add(m.cols[set.first.start]).wrapping_sub(base);
                let a = i * n + set.first.start - nd0;
                Lines { count: set.count, len: set.first.len }.copy(src, (p, set.packed_step), dst, (a, set.nd_step));
            }
        }
        return;
    }
    if m.shape.along_rows {
        let runs = clipped(&m.shape.col_runs, &cols);
        for group in &m.shape.row_groups {
            // The group clipped to `rows`, in bands (each band's source rows stay in cache
            // while every run of the band is copied).
            let (mut i0, end) = (group.start.max(rows.start), (group.start + group.len).min(rows.end));
            while i0 < end {
                let i1 = (i0 + RUN_BAND).min(end);
                for run in &runs {
                    // The base may belong to either table: wrapping, the sum is in the window.
                    let p = m.rows[i0].wrapping_add(m.cols[run.start]).wrapping_sub(base);
                    let a = i0 * n + run.start;
                    let lines = Lines { count: i1 - i0, len: run.len };
                    if PACK {
                        lines.copy(src, (a, n), dst, (p, group.step));
                    } else {
                        lines.copy(src, (p, group.step), dst, (a - nd0, n));
                    }
                }
                i0 = i1;
            }
        }
        return;
    }
    transpose_region::<T, PACK>(m, src, dst, (base, nd0), rows, cols);
}

/// Packs one matrix into `packed` (its whole packed length) with up to `threads` threads,
/// zeroing the padding (`padded`) piece by piece.
pub(super) fn pack_matrix<T: PackWord>(
    m: &Matrix<'_>,
    nd: &[T],
    packed: &mut [T],
    zero: T,
    padded: bool,
    threads: usize,
) {
    let (rows, cols) = (m.rows.len(), m.cols.len());
    // The padded extents (the real ones without a padded domain).
    let (pad_rows, pad_cols) = m.pad.map_or((rows, cols), |p| (p.rows.len(), p.cols.len()));
    let fill = |window: &mut [T], base: usize, r: Range<usize>, c: Range<usize>| match m.pad {
        Some(pad) if padded => zero_padding(m, pad, window, base, zero, r, c),
        _ => {}
    };
    let clear_first = padded && m.pad.is_none();
    let Some(split) = m.shape.split else {
        if clear_first {
            packed.fill(zero);
        }
        copy_region::<T, true>(m, nd, packed, (0, 0), 0..rows, 0..cols);
        fill(packed, 0, 0..pad_rows, 0..pad_cols);
        return;
    };
    let (extent, pad_extent) = match split.axis {
        Axis::Rows => (rows, pad_rows),
        Axis::Cols => (cols, pad_cols),
    };
    let blocks = extent.div_ceil(split.block);
    let worker = |first: usize, last: usize, window: &mut [T]| {
        if clear_first {
            window.fill(zero);
        }
        let range = first * split.block..(last * split.block).min(extent);
        // The last worker's window runs to the end of the buffer: it owns the padded tail.
        let pad_range = first * split.block..if last == blocks { pad_extent } else { last * split.block };
        let base = first * split.stride;
        match split.axis {
            Axis::Rows => {
                copy_region::<T, true>(m, nd, window, (base, 0), range, 0..cols);
                fill(window, base, pad_range, 0..pad_cols);
            }
            Axis::Cols => {
                copy_region::<T, true>(m, nd, window, (base, 0), 0..rows, range);
                fill(window, base, 0..pad_rows, pad_range);
            }
        }
    };
    let threads = threads.clamp(1, blocks);
    if threads == 1 {
        worker(0, blocks, packed);
        return;
    }
    std::thread::scope(|scope| {
        let mut rest = packed;
        let mut first = 0;
        for t in 0..threads {
            let last = blocks * (t + 1) / threads;
            let len = if last == blocks { rest.len() } else { (last - first) * split.stride };
            let (window, tail) = std::mem::take(&mut rest).split_at_mut(len);
            rest = tail;
            let worker = &worker;
            scope.spawn(move || worker(first, last, window));
            first = last;
        }
    });
}

/// Unpacks one matrix into the row-major `nd` with up to `threads` threads (split by rows).
pub(super) fn unpack_matrix<T: PackWord>(m: &Matrix<'_>, packed: &[T], nd: &mut [T], threads: usize) {
    let (rows, cols) = (m.rows.len(), m.cols.len());
    let blocks = rows.div_ceil(ROW_BLOCK);
    let threads = threads.clamp(1, blocks.max(1));
    if threads == 1 {
        copy_region::<T, false>(m, packed, nd, (0, 0), 0..rows, 0..cols);
        return;
    }
    std::thread::scope(|scope| {
        let mut rest = nd;
        let mut first = 0;
        for t in 0..threads {
            let last = (blocks * (t + 1) / threads * ROW_BLOCK).min(rows);
            let (window, tail) = std::mem::take(&mut rest).split_at_mut((last - first) * cols);
            rest = tail;
            scope.spawn(move || {
                copy_region::<T, false>(m, packed, window, (0, first * cols), first..last, 0..cols);
            });
            first = last;
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_and_splits_come_from_the_tables() {
        // NZ f16 rows of a 40-row matrix: 16·(i % 16) + 768·(i / 16) (C0 = 16, 3 column blocks).
        let rows: Vec<usize> = (0..40).map(|i| 16 * (i % 16) + 256 * (i / 16)).collect();
        let cols: Vec<usize> = (0..40).map(|j| j % 16 + 768 * (j / 16)).collect();
        assert_eq!(runs(&cols).len(), 3);
        assert_eq!(split_of(Axis::Rows, &rows, &cols), None);
        assert_eq!(split_of(Axis::Cols, &cols, &rows), Some(Split { axis: Axis::Cols, block: 16, stride: 768 }));
        // ND 4 x 5: rows own pieces of 5.
        let (r, c): (Vec<usize>, Vec<usize>) = ((0..4).map(|i| 5 * i).collect(), (0..5).collect());
        assert_eq!(CopyShape::new(&r, &c).split, Some(Split { axis: Axis::Rows, block: 1, stride: 5 }));
        assert!(CopyShape::new(&r, &c).along_rows);
    }

    #[test]
    fn row_groups_are_the_arithmetic_runs() {
        // NZ rows (C0 = 16): one group of step 16; ZZ rows of 40 x 48 (Np = 48): groups of 16.
        let nz: Vec<usize> = (0..40).map(|i| 16 * i).collect();
        assert_eq!(groups(&nz), vec![Group { start: 0, len: 40, step: 16 }]);
        let zz: Vec<usize> = (0..40).map(|i| 16 * (i % 16) + 16 * 48 * (i / 16)).collect();
        let want: Vec<Group> = [(0, 16), (16, 16), (32, 8)].map(|(start, len)| Group { start, len, step: 16 }).to_vec();
        assert_eq!(groups(&zz), want);
        assert_eq!(groups(&[7]), vec![Group { start: 0, len: 1, step: 0 }]);
    }

    /// NZ-like runs: equal runs at constant steps form one set, a shorter last run its own;
    /// a run whose packed step breaks the progression starts a new set.
    #[test]
    fn run_sets_are_equal_runs_at_constant_steps() {
        let cols: Vec<usize> = (0..40).map(|j| j % 16 + 512 * (j / 16)).collect();
        let sets = run_sets(&runs(&cols), &cols);
        let set =
            |start, len, count, nd_step, packed_step| RunSet { first: Run { start, len }, count, nd_step, packed_step };
        assert_eq!(sets, vec![set(0, 16, 2, 16, 512), set(32, 8, 1, 0, 0)]);
        let bent: Vec<usize> = (0..48).map(|j| j % 16 + if j < 32 { 512 * (j / 16) } else { 2000 }).collect();
        assert_eq!(run_sets(&runs(&bent), &bent), vec![set(0, 16, 2, 16, 512), set(32, 16, 1, 0, 0)]);
    }

    /// Every run length up to past the fixed moves, both widths: the strided line copy moves
    /// exactly the lines' elements and nothing else; a line outside a slice panics.
    #[test]
    fn line_copies_move_exactly_the_lines() {
        fn check<T: PackWord + PartialEq + std::fmt::Debug>(value: impl Fn(usize) -> T, marker: T) {
            for len in 1..=70 {
                let (count, ss, ds) = (3, len + 5, len + 2);
                let src: Vec<T> = (0..count * ss + 7).map(&value).collect();
                let mut want = vec![marker; count * ds + 9];
                for k in 0..count {
                    for e in 0..len {
                        want[4 + k * ds + e] = src[1 + k * ss + e];
                    }
                }
                let mut got = vec![marker; want.len()];
                Lines { count, len }.copy(&src, (1, ss), &mut got, (4, ds));
                assert_eq!(got, want, "len {len}");
            }
        }
        check::<u8>(|k| (k % 250) as u8 + 1, 0);
        check::<u16>(|k| k as u16 + 1, 0);
        let result = std::panic::catch_unwind(|| {
            let mut dst = [0u8; 10];
            Lines { count: 2, len: 4 }.copy(&[1u8; 20], (0, 8), &mut dst, (0, 7));
        });
        assert!(result.is_err(), "the second line ends at 11 > 10");
    }
}
