//! The MLIR `arith` ops on `index` values that the compiler reads and writes, in one list.
//!
//! [`Op`] is the index language (floor division, mathematical integers); an [`ArithOp`] is what
//! a machine computes (truncating `divsi`, unsigned `divui`, logical `shrui`, ...). The two
//! agree on the values [`ArithOp::computes`] names, and that table is the only place saying so:
//! the emitter (`layout_passes::index_arith`) chooses an `ArithOp` only where it computes the
//! expression's `Op` under the facts, the reader of `layout-simplify-offsets` reads one as an
//! `Op` only under the same condition, and the AscendC printers (`ascendc-emit`) print each
//! `ArithOp` with its exact C++ and `arith` spelling.

use crate::expr::{floor_div, floor_mod, Op};

/// An `index` op of the `arith` dialect with two operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    AddI,
    SubI,
    MulI,
    /// Signed division rounding toward zero.
    DivSI,
    /// Signed remainder with the sign of the dividend.
    RemSI,
    /// Unsigned division of the two's-complement bit patterns.
    DivUI,
    RemUI,
    FloorDivSI,
    CeilDivSI,
    MinSI,
    MaxSI,
    ShLI,
    /// Logical (zero-filling) right shift.
    ShRUI,
    /// Arithmetic (sign-filling) right shift.
    ShRSI,
    AndI,
}

/// When an [`ArithOp`] computes an [`Op`] of the index language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    /// For all operands (index arithmetic does not overflow, as everywhere in this crate).
    Always,
    /// When the right operand is a positive constant and the left one is non-negative.
    NonNegativeLhs,
}

impl ArithOp {
    pub const ALL: [ArithOp; 15] = [
        ArithOp::AddI,
        ArithOp::SubI,
        ArithOp::MulI,
        ArithOp::DivSI,
        ArithOp::RemSI,
        ArithOp::DivUI,
        ArithOp::RemUI,
        ArithOp::FloorDivSI,
        ArithOp::CeilDivSI,
        ArithOp::MinSI,
        ArithOp::MaxSI,
        ArithOp::ShLI,
        ArithOp::ShRUI,
        ArithOp::ShRSI,
        ArithOp::AndI,
    ];

    /// The op name, `arith.addi`.
    pub fn name(self) -> &'static str {
        match self {
            ArithOp::AddI => "arith.addi",
            ArithOp::SubI => "arith.subi",
            ArithOp::MulI => "arith.muli",
            ArithOp::DivSI => "arith.divsi",
            ArithOp::RemSI => "arith.remsi",
            ArithOp::DivUI => "arith.divui",
            ArithOp::RemUI => "arith.remui",
            ArithOp::FloorDivSI => "arith.floordivsi",
            ArithOp::CeilDivSI => "arith.ceildivsi",
            ArithOp::MinSI => "arith.minsi",
            ArithOp::MaxSI => "arith.maxsi",
            ArithOp::ShLI => "arith.shli",
            ArithOp::ShRUI => "arith.shrui",
            ArithOp::ShRSI => "arith.shrsi",
            ArithOp::AndI => "arith.andi",
        }
    }

    /// The op called `name`, if it is one of the list.
    pub fn from_name(name: &str) -> Option<ArithOp> {
        ArithOp::ALL.into_iter().find(|op| op.name() == name)
    }

    /// The operator of the index language this op computes, and when. `None` for `ceildivsi`,
    /// which is `(a + c − 1) floordiv c`, not one operator.
    pub fn computes(self) -> Option<(Op, Exact)> {
        Some(match self {
            ArithOp::AddI => (Op::Add, Exact::Always),
            ArithOp::SubI => (Op::Sub, Exact::Always),
            ArithOp::MulI => (Op::Mul, Exact::Always),
            ArithOp::MinSI => (Op::Min, Exact::Always),
            ArithOp::MaxSI => (Op::Max, Exact::Always),
            ArithOp::AndI => (Op::And, Exact::Always),
            ArithOp::ShLI => (Op::Shl, Exact::Always),
            ArithOp::ShRSI => (Op::Shr, Exact::Always),
            ArithOp::FloorDivSI => (Op::FloorDiv, Exact::Always),
            ArithOp::DivSI | ArithOp::DivUI => (Op::FloorDiv, Exact::NonNegativeLhs),
            ArithOp::RemSI | ArithOp::RemUI => (Op::FloorMod, Exact::NonNegativeLhs),
            ArithOp::ShRUI => (Op::Shr, Exact::NonNegativeLhs),
            ArithOp::CeilDivSI => return None,
        })
    }

    /// What the op computes on 64-bit `index` values; `None` where the result is undefined
    /// (division by zero, signed overflow of a division, a shift by 64 or more or by a negative
    /// amount). Additions and products wrap, as `arith` does.
    pub fn eval(self, a: i64, b: i64) -> Option<i64> {
        let shift = u32::try_from(b).ok().filter(|k| *k < 64);
        Some(match self {
            ArithOp::AddI => a.wrapping_add(b),
            ArithOp::SubI => a.wrapping_sub(b),
            ArithOp::MulI => a.wrapping_mul(b),
            ArithOp::DivSI => a.checked_div(b)?,
            ArithOp::RemSI => a.checked_rem(b)?,
            ArithOp::DivUI => (a as u64).checked_div(b as u64)? as i64,
            ArithOp::RemUI => (a as u64).checked_rem(b as u64)? as i64,
            ArithOp::FloorDivSI => floor_div(a, b)?,
            ArithOp::CeilDivSI => floor_div(a, b)?.checked_add(i64::from(floor_mod(a, b)? != 0))?,
            ArithOp::MinSI => a.min(b),
            ArithOp::MaxSI => a.max(b),
            ArithOp::ShLI => a.wrapping_shl(shift?),
            ArithOp::ShRUI => ((a as u64) >> shift?) as i64,
            ArithOp::ShRSI => a >> shift?,
            ArithOp::AndI => a & b,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where `computes` says an op equals an `Op`, both agree on every sample admitted by its
    /// condition; where the condition fails, some sample tells them apart (so the condition is
    /// needed).
    #[test]
    fn computes_is_exact_under_its_condition_and_the_condition_is_needed() {
        let samples: Vec<i64> = (-40..=40).chain([1 << 40, -(1 << 40)]).collect();
        let rhs: Vec<i64> = (-5..=17).collect();
        for op in ArithOp::ALL {
            let Some((math, exact)) = op.computes() else { continue };
            let mut differs_outside = false;
            for &a in &samples {
                for &b in &rhs {
                    if matches!(math, Op::Shl | Op::Shr) && b < 0 {
                        continue;
                    }
                    let admitted = match exact {
                        Exact::Always => true,
                        Exact::NonNegativeLhs => b > 0 && a >= 0,
                    };
                    let (machine, index) = (op.eval(a, b), math.eval(a, b));
                    if admitted {
                        assert_eq!(machine, index, "{} {a} {b}", op.name());
                    } else if machine != index {
                        differs_outside = true;
                    }
                }
            }
            assert!(exact == Exact::Always || differs_outside, "{}: condition never needed", op.name());
        }
        assert_eq!(ArithOp::CeilDivSI.eval(-7, 2), Some(-3));
        assert_eq!(ArithOp::CeilDivSI.eval(7, 2), Some(4));
        assert_eq!(ArithOp::ShRUI.eval(-1, 60), Some(15));
        assert_eq!(ArithOp::DivSI.eval(i64::MIN, -1), None);
        assert_eq!(ArithOp::ShLI.eval(1, 64), None);
    }

    #[test]
    fn names_round_trip() {
        for op in ArithOp::ALL {
            assert_eq!(ArithOp::from_name(op.name()), Some(op));
        }
        assert_eq!(ArithOp::from_name("arith.xori"), None);
    }
}
