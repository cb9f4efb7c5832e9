//! Tile schedules of a multi-core GEMM: which C tile (row, column) of a `tiles_m × tiles_n` grid
//! task `t` computes. Block `b` of `blockDim` runs tasks `b, b + blockDim, ...`
//! (`examples/gemm_multicore.mlir`), so the order decides which tiles run side by side.
//!
//! [`TileOrder::Swizzle`] is catlass's `GemmIdentityBlockSwizzle<SwizzleOffset,
//! SwizzleDirection>::GetBlockCoord` (include/catlass/gemm/block/block_swizzle.hpp; with runtime
//! parameters `DynamicGemmIdentityBlockSwizzle`): the grid is cut into bands of `offset` tile
//! rows (direction Zn) or columns (Nz); a band is walked across its short side first, and every
//! other band backwards (a serpentine), so neighbouring tasks share A rows or B columns.

use crate::{AlgebraError, IndexValue, Result};

/// Which way [`TileOrder::Swizzle`] cuts the grid (catlass `SwizzleDirection`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzleDirection {
    /// 0: bands of `offset` tile rows; inside a band, m varies fastest.
    Zn,
    /// 1: bands of `offset` tile columns; inside a band, n varies fastest.
    Nz,
}

/// The order tasks visit the C tile grid in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TileOrder {
    /// Row-major: task `t` is tile `(t / tiles_n, t % tiles_n)`.
    Linear,
    /// catlass `GemmIdentityBlockSwizzle<offset, direction>`.
    Swizzle { offset: i64, direction: SwizzleDirection },
}

impl TileOrder {
    /// The tile `(m, n)` of task `task` on a `tiles_m × tiles_n` grid. Errors: a non-positive
    /// swizzle offset or grid extent, a task outside `[0, tiles_m · tiles_n)`, overflow.
    pub fn tile(self, task: i64, tiles_m: i64, tiles_n: i64) -> Result<(i64, i64)> {
        for (what, v) in [("tiles_m", tiles_m), ("tiles_n", tiles_n)] {
            if v <= 0 {
                return Err(AlgebraError::NotPositive { what, value: v.to_string() });
            }
        }
        let tasks = tiles_m.checked_mul(tiles_n).ok_or_else(|| overflow(tiles_m, tiles_n))?;
        if !(0..tasks).contains(&task) {
            return Err(AlgebraError::Incompatible {
                what: "tile schedule",
                detail: format!("task {task} is outside the {tiles_m} x {tiles_n} tile grid"),
            });
        }
        if let TileOrder::Swizzle { offset, .. } = self {
            if offset <= 0 {
                return Err(AlgebraError::NotPositive { what: "swizzle offset", value: offset.to_string() });
            }
            offset.checked_mul(tiles_m.max(tiles_n)).ok_or_else(|| overflow(offset, tiles_m.max(tiles_n)))?;
        }
        self.coord(&task, &tiles_m, &tiles_n)
    }

    /// [`Self::tile`] in any integer domain, without the range checks: `i64` for the tests and
    /// the run-time reference, `SymExpr` for the index arithmetic a kernel generator emits (the
    /// layout-gemm kernels compute their tile with exactly this formula). Arithmetic only (no
    /// branches): the tail band's width is a `min`, the backwards walk of odd bands
    /// `long + (band mod 2) · (along − 1 − 2 · long)`.
    pub fn coord<T: IndexValue>(self, task: &T, tiles_m: &T, tiles_n: &T) -> Result<(T, T)> {
        let (offset, direction) = match self {
            TileOrder::Linear => return Ok((task.floor_div(tiles_n)?, task.floor_mod(tiles_n)?)),
            TileOrder::Swizzle { offset, direction } => (T::constant(offset), direction),
        };
        // Zn bands rows; Nz is the same walk with the roles of m and n exchanged.
        let (across, along) = match direction {
            SwizzleDirection::Zn => (tiles_m, tiles_n),
            SwizzleDirection::Nz => (tiles_n, tiles_m),
        };
        let band_tasks = offset.mul(along)?;
        let band = task.floor_div(&band_tasks)?;
        let inside = task.floor_mod(&band_tasks)?;
        // The last band holds what is left (catlass: `nRow` of the tail band).
        let width = offset.min(&across.sub(&band.mul(&offset)?)?)?;
        let short = band.mul(&offset)?.add(&inside.floor_mod(&width)?)?;
        let forward = inside.floor_div(&width)?;
        let odd = band.floor_mod(&T::constant(2))?;
        let mirrored = along.sub(&T::constant(1))?.sub(&forward.mul(&T::constant(2))?)?;
        let long = forward.add(&odd.mul(&mirrored)?)?;
        Ok(match direction {
            SwizzleDirection::Zn => (short, long),
            SwizzleDirection::Nz => (long, short),
        })
    }
}

fn overflow(a: i64, b: i64) -> AlgebraError {
    AlgebraError::Overflow { op: "tile schedule", sym: "*", lhs: a.to_string(), rhs: b.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every order is a bijection from tasks onto the grid, for many shapes and parameters.
    #[test]
    fn every_order_is_a_bijection_onto_the_tile_grid() {
        let mut orders = vec![TileOrder::Linear];
        for offset in 1..=9 {
            for direction in [SwizzleDirection::Zn, SwizzleDirection::Nz] {
                orders.push(TileOrder::Swizzle { offset, direction });
            }
        }
        for tiles_m in 1..=13 {
            for tiles_n in 1..=13 {
                for order in &orders {
                    let mut seen = vec![false; (tiles_m * tiles_n) as usize];
                    for t in 0..tiles_m * tiles_n {
                        let (m, n) = order.tile(t, tiles_m, tiles_n).unwrap();
                        assert!((0..tiles_m).contains(&m) && (0..tiles_n).contains(&n), "{order:?} {t}: ({m}, {n})");
                        let cell = &mut seen[(m * tiles_n + n) as usize];
                        assert!(!*cell, "{order:?} on {tiles_m}x{tiles_n}: tile ({m}, {n}) twice");
                        *cell = true;
                    }
                }
            }
        }
    }

    /// The serpentine of catlass's `GemmIdentityBlockSwizzle<2, 0>` on a 3 x 3 grid, written out
    /// by hand: band 0 (rows 0-1) column by column, band 1 (row 2) backwards.
    #[test]
    fn swizzle_walks_bands_as_a_serpentine() {
        let zn = TileOrder::Swizzle { offset: 2, direction: SwizzleDirection::Zn };
        let got: Vec<_> = (0..9).map(|t| zn.tile(t, 3, 3).unwrap()).collect();
        assert_eq!(got, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)]);
        let nz = TileOrder::Swizzle { offset: 2, direction: SwizzleDirection::Nz };
        let got: Vec<_> = (0..9).map(|t| nz.tile(t, 3, 3).unwrap()).collect();
        assert_eq!(got, [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]);
        assert_eq!(TileOrder::Linear.tile(5, 3, 4).unwrap(), (1, 1));
    }

    /// A literal transcription of catlass's `GetBlockCoord` (unsigned arithmetic, `if`s), as an
    /// independent reference for every grid up to 9 x 9 and every offset.
    #[test]
    fn swizzle_equals_catlass_get_block_coord() {
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
        for rows in 1..=9i64 {
            for cols in 1..=9i64 {
                for offset in 1..=10 {
                    for (direction, code) in [(SwizzleDirection::Zn, 0), (SwizzleDirection::Nz, 1)] {
                        let order = TileOrder::Swizzle { offset, direction };
                        for t in 0..rows * cols {
                            let (m, n) = catlass(t as u64, rows as u64, cols as u64, offset as u64, code);
                            assert_eq!(
                                order.tile(t, rows, cols).unwrap(),
                                (m as i64, n as i64),
                                "{order:?} {rows}x{cols} {t}"
                            );
                        }
                    }
                }
            }
        }
    }

    /// The symbolic instance is the same function: evaluated, it gives the `i64` tiles.
    #[test]
    fn the_symbolic_formula_evaluates_to_the_integer_one() {
        use crate::SymExpr;
        let (t, m, n) = (SymExpr::sym("t"), SymExpr::sym("m"), SymExpr::sym("n"));
        for order in [TileOrder::Linear, TileOrder::Swizzle { offset: 3, direction: SwizzleDirection::Nz }] {
            let (em, en) = order.coord(&t, &m, &n).unwrap();
            for (rows, cols) in [(1, 1), (4, 7), (8, 3)] {
                for task in 0..rows * cols {
                    let env = [("t", task), ("m", rows), ("n", cols)].map(|(k, v)| (k.to_string(), v)).into();
                    assert_eq!((em.eval(&env).unwrap(), en.eval(&env).unwrap()), order.tile(task, rows, cols).unwrap());
                }
            }
        }
    }

    #[test]
    fn bad_parameters_are_errors() {
        let zn = |offset| TileOrder::Swizzle { offset, direction: SwizzleDirection::Zn };
        assert!(matches!(zn(0).tile(0, 2, 2), Err(AlgebraError::NotPositive { .. })));
        assert!(matches!(zn(1).tile(4, 2, 2), Err(AlgebraError::Incompatible { .. })));
        assert!(matches!(TileOrder::Linear.tile(-1, 2, 2), Err(AlgebraError::Incompatible { .. })));
        assert!(matches!(TileOrder::Linear.tile(0, 0, 2), Err(AlgebraError::NotPositive { .. })));
        assert!(matches!(zn(2).tile(0, i64::MAX, 2), Err(AlgebraError::Overflow { .. })));
    }
}
