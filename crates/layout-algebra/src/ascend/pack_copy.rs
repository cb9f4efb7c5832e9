//! The blocked copies behind [`super::PackPlan`]: element `(i, j)` of a row-major `M × N`
//! matrix goes to `rows[i] + cols[j]` (the plan's offset tables, from the layout), moved in
//! runs rather than one by one.
//!
//! The tables decide the loop shape, no pattern is named here: where `cols` has the longer
//! contiguous runs (ND, NZ, ZZ: runs of N or C0) each run is one `copy_from_slice`; where `rows`
//! has them (DN, ZN, NN) the copy is a transpose through small tiles (a column piece of the ND
//! array becomes a contiguous run of the packed one) in 8×8 or 16×16 squares. Loops walk bands
//! of whole ND rows, so both sides are read and written as a few streams.
//!
//! Threads split the packed buffer into disjoint contiguous pieces ([`Split`]): a layout whose
//! row (or column) offsets are `block · stride + inner` with every other offset below `stride`
//! has one piece per block (ZZ: 16 rows, NZ: C0 columns, DN: one column), checked on the tables.
//! Unpacking splits the ND rows. Batches split by matrix.

use std::ops::Range;

/// Rows of the ND array walked together by run copies (one fractal height: NZ/ZZ's runs of
/// 16 rows land next to each other) and the band height of transposes: each band is read as
/// a few streams of whole rows, so no loop sweeps the array with one cache line per page.
const ROW_BLOCK: usize = 16;
const BAND: usize = 64;
/// Columns of one transpose block (`BAND × TILE`: both sides' lines stay in L1).
const TILE: usize = 64;

/// A contiguous run `start..start + len` of a table (`t[k + 1] = t[k] + 1` inside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Run {
    start: usize,
    len: usize,
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
    row_runs: Vec<Run>,
    col_runs: Vec<Run>,
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
        CopyShape { row_runs, col_runs, along_rows, split }
    }
}

/// One matrix: the tables, the shape and the ND row length.
pub(super) struct Matrix<'a> {
    pub rows: &'a [usize],
    pub cols: &'a [usize],
    pub shape: &'a CopyShape,
}

/// Copies `k` elements with a length known at compile time (inline moves, no memcpy call).
#[inline(always)]
fn copy_fixed<T: Copy, const K: usize>(dst: &mut [T], src: &[T]) {
    let (d, s): (&mut [T; K], &[T; K]) = (dst.try_into().unwrap(), src.try_into().unwrap());
    *d = *s;
}

#[inline(always)]
fn copy_run<T: Copy>(dst: &mut [T], src: &[T]) {
    let bytes = std::mem::size_of_val(src);
    match (bytes, src.len()) {
        (32, 32) => copy_fixed::<T, 32>(dst, src),
        (32, 16) => copy_fixed::<T, 16>(dst, src),
        (32, 8) => copy_fixed::<T, 8>(dst, src),
        (32, 4) => copy_fixed::<T, 4>(dst, src),
        _ => dst.copy_from_slice(src),
    }
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
fn row_pieces(runs: &[Run], rows: &Range<usize>, piece: usize) -> Vec<Run> {
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
fn copy_region<T: Copy, const PACK: bool>(
    m: &Matrix<'_>,
    src: &[T],
    dst: &mut [T],
    (base, nd0): (usize, usize),
    rows: Range<usize>,
    cols: Range<usize>,
) {
    let n = m.cols.len();
    let elem = std::mem::size_of::<T>().max(1);
    // ND index `a`, packed offset `p` (window-relative): (source, destination) indices.
    let at = |a: usize, p: usize| if PACK { (a, p) } else { (p, a - nd0) };
    if m.shape.along_rows {
        let runs = clipped(&m.shape.col_runs, &cols);
        let mut i0 = rows.start;
        while i0 < rows.end {
            let i1 = (i0 + ROW_BLOCK - i0 % ROW_BLOCK).min(rows.end);
            for run in &runs {
                // The base may belong to either table: wrapping, the sum is in the window.
                let c = m.cols[run.start].wrapping_sub(base);
                for i in i0..i1 {
                    let (s, d) = at(i * n + run.start, m.rows[i].wrapping_add(c));
                    copy_run(&mut dst[d..d + run.len], &src[s..s + run.len]);
                }
            }
            i0 = i1;
        }
        return;
    }
    // Squares of 16 bytes a side (8 for wider types): one SSE register per line.
    let square = if elem == 1 { 16 } else { 8 };
    let pieces = row_pieces(&m.shape.row_runs, &rows, square);
    let mut first = 0;
    while first < pieces.len() {
        // One band: the pieces that start in the same BAND rows.
        let band = pieces[first].start / BAND;
        let last = first + pieces[first..].iter().take_while(|p| p.start / BAND == band).count();
        let mut j0 = cols.start;
        while j0 < cols.end {
            let j1 = (j0 + TILE).min(cols.end);
            for piece in &pieces[first..last] {
                let r = m.rows[piece.start].wrapping_sub(base);
                let mut j = j0;
                // Full squares: B rows of B contiguous ND elements <-> B contiguous packed runs.
                if piece.len == square {
                    while j + square <= j1 {
                        let offsets = &m.cols[j..j + square];
                        match square {
                            16 => square_tile::<T, 16, PACK>(src, dst, piece.start * n + j, n, r, offsets, nd0),
                            _ => square_tile::<T, 8, PACK>(src, dst, piece.start * n + j, n, r, offsets, nd0),
                        }
                        j += square;
                    }
                }
                for j in j..j1 {
                    let (a, p) = (piece.start * n + j, r.wrapping_add(m.cols[j]));
                    if PACK {
                        for (k, d) in dst[p..p + piece.len].iter_mut().enumerate() {
                            *d = src[a + k * n];
                        }
                    } else {
                        for (k, s) in src[p..p + piece.len].iter().enumerate() {
                            dst[a - nd0 + k * n] = *s;
                        }
                    }
                }
            }
            j0 = j1;
        }
        first = last;
    }
}

/// One `B × B` transpose: ND rows `a + r·n .. + B` (r < B) <-> packed runs `row + cols[c] .. + B`.
#[inline(always)]
fn square_tile<T: Copy, const B: usize, const PACK: bool>(
    src: &[T],
    dst: &mut [T],
    a: usize,
    n: usize,
    row: usize,
    cols: &[usize],
    nd0: usize,
) {
    let mut tile: [[T; B]; B] = [[src[0]; B]; B];
    if PACK {
        for (r, line) in tile.iter_mut().enumerate() {
            line.copy_from_slice(&src[a + r * n..a + r * n + B]);
        }
        for (c, &col) in cols.iter().enumerate() {
            let p = row.wrapping_add(col);
            let out: &mut [T; B] = (&mut dst[p..p + B]).try_into().unwrap();
            for r in 0..B {
                out[r] = tile[r][c];
            }
        }
    } else {
        for (c, &col) in cols.iter().enumerate() {
            let p = row.wrapping_add(col);
            let run: &[T; B] = src[p..p + B].try_into().unwrap();
            for r in 0..B {
                tile[r][c] = run[r];
            }
        }
        for (r, line) in tile.iter().enumerate() {
            let d = a - nd0 + r * n;
            dst[d..d + B].copy_from_slice(line);
        }
    }
}

/// Packs one matrix into `packed` (its whole packed length) with up to `threads` threads,
/// zeroing the padding (`padded`) piece by piece.
pub(super) fn pack_matrix<T: Copy + Send + Sync>(
    m: &Matrix<'_>,
    nd: &[T],
    packed: &mut [T],
    zero: T,
    padded: bool,
    threads: usize,
) {
    let (rows, cols) = (m.rows.len(), m.cols.len());
    let Some(split) = m.shape.split else {
        if padded {
            packed.fill(zero);
        }
        copy_region::<T, true>(m, nd, packed, (0, 0), 0..rows, 0..cols);
        return;
    };
    let extent = match split.axis {
        Axis::Rows => rows,
        Axis::Cols => cols,
    };
    let blocks = extent.div_ceil(split.block);
    let worker = |first: usize, last: usize, window: &mut [T]| {
        if padded {
            window.fill(zero);
        }
        let range = first * split.block..(last * split.block).min(extent);
        let (r, c) = match split.axis {
            Axis::Rows => (range, 0..cols),
            Axis::Cols => (0..rows, range),
        };
        copy_region::<T, true>(m, nd, window, (first * split.stride, 0), r, c);
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
pub(super) fn unpack_matrix<T: Copy + Send + Sync>(m: &Matrix<'_>, packed: &[T], nd: &mut [T], threads: usize) {
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
}
