//! Which C tile a task index stands for: the block schedules of [`Order`], written once, generic
//! over the integer domain — `i64` to enumerate them, `SymExpr` to emit them as index
//! arithmetic into the kernel (so the kernel and the tests use the same formula).
//!
//! Swizzle (catlass `include/catlass/gemm/block/block_swizzle.hpp`, `GemmIdentityBlockSwizzle`):
//! with `band = offset · cols` tiles per band of `offset` tile rows, task `t` is in band
//! `b = t / band` at `i = t mod band`; the band has `w = min(offset, rows − offset · b)` rows, so
//! the tile is row `offset · b + i mod w`, column `i / w`, the column mirrored
//! (`cols − 1 − column`) in odd bands. Direction 1 swaps the roles of rows and columns.
//!
//! Example: rows = 3, cols = 4, offset 2, direction 0: tasks 0..8 visit (0,0) (1,0) (0,1) (1,1)
//! (0,2) (1,2) (0,3) (1,3), then the last band of one row backwards: (2,3) (2,2) (2,1) (2,0).

use crate::spec::Order;
use layout_algebra::{IndexValue, Result};

/// `(tile row, tile column)` of task `t` over a `rows × cols` grid, for `0 <= t < rows · cols`.
pub fn tile_coord<T: IndexValue>(order: Order, t: &T, rows: &T, cols: &T) -> Result<(T, T)> {
    let (offset, along_n) = match order {
        Order::Linear => return Ok((t.floor_div(cols)?, t.floor_mod(cols)?)),
        Order::Swizzle { offset, along_n } => (T::constant(offset), along_n),
    };
    // `major` is cut into bands of `offset`; `minor` is walked inside a band.
    let (major, minor) = if along_n { (rows, cols) } else { (cols, rows) };
    let band = offset.mul(minor)?;
    let b = t.floor_div(&band)?;
    let i = t.floor_mod(&band)?;
    let width = offset.min(&major.sub(&offset.mul(&b)?)?)?;
    let along_major = b.mul(&offset)?.add(&i.floor_mod(&width)?)?;
    let forward = i.floor_div(&width)?;
    // Odd bands run backwards: forward + (b mod 2) · (minor − 1 − 2 · forward).
    let odd = b.floor_mod(&T::constant(2))?;
    let mirrored = minor.sub(&T::constant(1))?.sub(&forward.mul(&T::constant(2))?)?;
    let along_minor = forward.add(&odd.mul(&mirrored)?)?;
    Ok(if along_n { (along_major, along_minor) } else { (along_minor, along_major) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn visit(order: Order, rows: i64, cols: i64) -> Vec<(i64, i64)> {
        (0..rows * cols).map(|t| tile_coord(order, &t, &rows, &cols).unwrap()).collect()
    }

    #[test]
    fn the_worked_example() {
        let got = visit(Order::Swizzle { offset: 2, along_n: true }, 3, 4);
        let want = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3), (2, 2), (2, 1), (2, 0)];
        assert_eq!(got, want);
    }

    /// A literal transcription of catlass's loop body (unsigned arithmetic, `if`s), as an
    /// independent reference.
    fn catlass(t: u64, rows: u64, cols: u64, offset: u64, direction: u32) -> (u64, u64) {
        let (major, minor) = if direction == 0 { (rows, cols) } else { (cols, rows) };
        let loops = major.div_ceil(offset);
        let b = t / (offset * minor);
        let i = t % (offset * minor);
        let mut w = offset;
        if b == loops - 1 {
            w = major - offset * b;
        }
        let a = b * offset + i % w;
        let mut c = i / w;
        if b % 2 == 1 {
            c = minor - c - 1;
        }
        if direction == 0 {
            (a, c)
        } else {
            (c, a)
        }
    }

    #[test]
    fn every_order_is_a_bijection_and_swizzle_matches_catlass() {
        for rows in 1..=9 {
            for cols in 1..=9 {
                let mut orders = vec![Order::Linear];
                for offset in 1..=rows.max(cols) + 1 {
                    orders.extend([true, false].map(|along_n| Order::Swizzle { offset, along_n }));
                }
                for order in orders {
                    let v = visit(order, rows, cols);
                    let mut seen = vec![false; (rows * cols) as usize];
                    for &(r, c) in &v {
                        assert!((0..rows).contains(&r) && (0..cols).contains(&c), "{order:?} {rows}x{cols}");
                        assert!(!std::mem::replace(&mut seen[(r * cols + c) as usize], true), "{order:?} twice");
                    }
                    if let Order::Swizzle { offset, along_n } = order {
                        for (t, &rc) in v.iter().enumerate() {
                            let (r, c) = catlass(t as u64, rows as u64, cols as u64, offset as u64, !along_n as u32);
                            assert_eq!(rc, (r as i64, c as i64), "{order:?} {rows}x{cols} task {t}");
                        }
                    }
                }
            }
        }
    }
}
