//! Integer domains the layout formulas run in.
//!
//! A layout formula (`crd_to_offset`, a frame pattern, `tile_layout`, ...) is written once,
//! generic over [`IndexValue`]. With `i64` it computes numbers (the calculator, constant
//! folding); with [`crate::sym::SymExpr`] it builds the index arithmetic a code generator
//! emits for dynamic coordinates and shapes. Every operation is fallible: in `i64` an
//! overflow is an error, never a wrap.

use std::fmt;

use crate::error::{AlgebraError, Result};

/// Floor division with a positive divisor: rounds towards negative infinity.
pub fn floor_div_i64(a: i64, b: i64, op: &'static str) -> Result<i64> {
    if b == 0 {
        return Err(AlgebraError::DivisionByZero { op });
    }
    // `checked_div` truncates towards zero and fails only for i64::MIN / -1.
    let q = a.checked_div(b).ok_or_else(|| overflow(op, "/", a, b))?;
    let inexact = q.wrapping_mul(b) != a;
    Ok(if inexact && ((a < 0) != (b < 0)) { q - 1 } else { q })
}

/// Floor modulo: the result has the sign of the divisor (`-1 mod 4 == 3`).
pub fn floor_mod_i64(a: i64, b: i64, op: &'static str) -> Result<i64> {
    if b == 0 {
        return Err(AlgebraError::DivisionByZero { op });
    }
    // The truncated remainder has the sign of `a`; move it to the sign of `b`. (`a - q*b`
    // with the floor quotient would overflow: `floor(i64::MIN / 3) * 3 < i64::MIN`.)
    let r = a.checked_rem(b).ok_or_else(|| overflow(op, "mod", a, b))?;
    Ok(if r != 0 && ((r < 0) != (b < 0)) { r + b } else { r })
}

pub(crate) fn overflow(
    op: &'static str,
    sym: &'static str,
    a: impl fmt::Display,
    b: impl fmt::Display,
) -> AlgebraError {
    AlgebraError::Overflow { op, sym, lhs: a.to_string(), rhs: b.to_string() }
}

/// An integer domain: concrete (`i64`) or symbolic. Division and modulo are floor operations.
pub trait IndexValue: Clone + PartialEq + fmt::Debug + fmt::Display {
    fn constant(value: i64) -> Self;
    /// The value when it is known at compile time.
    fn as_constant(&self) -> Option<i64>;
    fn add(&self, rhs: &Self) -> Result<Self>;
    fn sub(&self, rhs: &Self) -> Result<Self>;
    fn mul(&self, rhs: &Self) -> Result<Self>;
    fn floor_div(&self, rhs: &Self) -> Result<Self>;
    fn floor_mod(&self, rhs: &Self) -> Result<Self>;
    fn min(&self, rhs: &Self) -> Result<Self>;
    fn max(&self, rhs: &Self) -> Result<Self>;

    /// `ceil(a / b)` for `b > 0`, written as `(a + b - 1) / b`.
    fn ceil_div(&self, rhs: &Self) -> Result<Self> {
        self.add(rhs)?.sub(&Self::constant(1))?.floor_div(rhs)
    }

    /// `align(a, b) = ceil_div(a, b) * b`.
    fn align_to(&self, rhs: &Self) -> Result<Self> {
        self.ceil_div(rhs)?.mul(rhs)
    }

    fn is_constant(&self, value: i64) -> bool {
        self.as_constant() == Some(value)
    }
}

impl IndexValue for i64 {
    fn constant(value: i64) -> Self {
        value
    }
    fn as_constant(&self) -> Option<i64> {
        Some(*self)
    }
    fn add(&self, rhs: &Self) -> Result<Self> {
        self.checked_add(*rhs).ok_or_else(|| overflow("add", "+", self, rhs))
    }
    fn sub(&self, rhs: &Self) -> Result<Self> {
        self.checked_sub(*rhs).ok_or_else(|| overflow("sub", "-", self, rhs))
    }
    fn mul(&self, rhs: &Self) -> Result<Self> {
        self.checked_mul(*rhs).ok_or_else(|| overflow("mul", "*", self, rhs))
    }
    fn floor_div(&self, rhs: &Self) -> Result<Self> {
        floor_div_i64(*self, *rhs, "floor_div")
    }
    fn floor_mod(&self, rhs: &Self) -> Result<Self> {
        floor_mod_i64(*self, *rhs, "floor_mod")
    }
    fn min(&self, rhs: &Self) -> Result<Self> {
        Ok(std::cmp::min(*self, *rhs))
    }
    fn max(&self, rhs: &Self) -> Result<Self> {
        Ok(std::cmp::max(*self, *rhs))
    }
    fn ceil_div(&self, rhs: &Self) -> Result<Self> {
        // Avoid the `a + b - 1` intermediate, which can overflow for large a.
        let q = floor_div_i64(*self, *rhs, "ceil_div")?;
        let r = floor_mod_i64(*self, *rhs, "ceil_div")?;
        if r == 0 {
            Ok(q)
        } else {
            q.add(&1)
        }
    }
}

/// The answer to an admissibility condition in a domain: proved, refuted, or undecided.
///
/// `i64` always answers `Proved` or `Refuted`; a symbolic domain answers `Unknown` when the
/// condition depends on values it knows nothing about, and the CuTe algebra then reports the
/// condition as unprovable instead of guessing (CuTe itself would assume it at run time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Truth {
    Proved,
    Refuted,
    Unknown,
}

impl Truth {
    pub fn from_bool(b: bool) -> Truth {
        if b {
            Truth::Proved
        } else {
            Truth::Refuted
        }
    }

    pub fn proved(self) -> bool {
        self == Truth::Proved
    }
}

impl std::ops::Not for Truth {
    type Output = Truth;
    fn not(self) -> Truth {
        match self {
            Truth::Proved => Truth::Refuted,
            Truth::Refuted => Truth::Proved,
            Truth::Unknown => Truth::Unknown,
        }
    }
}

/// A domain the CuTe algebra ([`crate::cute::Algebra`]) runs in: [`IndexValue`] plus the
/// decisions its admissibility conditions need (divisibility, order, equality) under some
/// `Facts`. One implementation of every algebra function then serves both `i64` (exact, no
/// facts) and [`crate::sym::SymExpr`] (decided from the facts, see `cute::symbolic`).
pub trait Decide: IndexValue {
    /// What is known about the unknowns of a value; `()` for `i64`.
    type Facts: Default + Clone + fmt::Debug;

    /// `rhs != 0 && self % rhs == 0`.
    fn divisible_by(&self, rhs: &Self, facts: &Self::Facts) -> Truth;

    /// `self <= rhs`.
    fn le(&self, rhs: &Self, facts: &Self::Facts) -> Truth;

    /// `self / rhs` where `divisible_by(rhs)` is proved (so the quotient is exact).
    fn exact_div(&self, rhs: &Self, facts: &Self::Facts) -> Result<Self>;

    /// A normal form of the value, for printing results and messages (identity for `i64`).
    fn canonical(&self, _facts: &Self::Facts) -> Self {
        self.clone()
    }

    /// `self < rhs`, i.e. not `rhs <= self`.
    fn lt(&self, rhs: &Self, facts: &Self::Facts) -> Truth {
        !rhs.le(self, facts)
    }

    /// `self == rhs`: both `<=` proved, or either refuted.
    fn eq_value(&self, rhs: &Self, facts: &Self::Facts) -> Truth {
        match (self.le(rhs, facts), rhs.le(self, facts)) {
            (Truth::Proved, Truth::Proved) => Truth::Proved,
            (Truth::Refuted, _) | (_, Truth::Refuted) => Truth::Refuted,
            _ => Truth::Unknown,
        }
    }
}

impl Decide for i64 {
    type Facts = ();

    fn divisible_by(&self, rhs: &Self, _: &()) -> Truth {
        // `checked_rem` fails only for i64::MIN % -1, whose remainder is 0.
        Truth::from_bool(*rhs != 0 && self.checked_rem(*rhs).is_none_or(|r| r == 0))
    }
    fn le(&self, rhs: &Self, _: &()) -> Truth {
        Truth::from_bool(self <= rhs)
    }
    fn exact_div(&self, rhs: &Self, _: &()) -> Result<Self> {
        floor_div_i64(*self, *rhs, "exact_div")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_semantics_match_brute_force() {
        for a in -20i64..=20 {
            for b in [-7i64, -3, -1, 1, 2, 3, 5, 16] {
                let q = floor_div_i64(a, b, "t").unwrap();
                let r = floor_mod_i64(a, b, "t").unwrap();
                assert_eq!(q, (a as f64 / b as f64).floor() as i64, "{a} / {b}");
                assert_eq!(q * b + r, a);
                if b > 0 {
                    assert!((0..b).contains(&r))
                } else {
                    assert!((b + 1..=0).contains(&r))
                }
            }
        }
    }

    #[test]
    fn extreme_operands_do_not_overflow_internally() {
        for a in [i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1, -1, 0, 1] {
            for b in [3i64, 2, 7, -3, -2, i64::MAX, i64::MIN + 1] {
                let (q, r) = (floor_div_i64(a, b, "t").unwrap(), floor_mod_i64(a, b, "t").unwrap());
                // a == q*b + r in i128, with r in [0, b) or (b, 0].
                assert_eq!(i128::from(q) * i128::from(b) + i128::from(r), i128::from(a), "{a} {b}");
                assert!(if b > 0 { (0..b).contains(&r) } else { (b + 1..=0).contains(&r) }, "{a} {b} -> {r}");
            }
        }
        assert!(floor_mod_i64(i64::MIN, -1, "t").is_err() || floor_mod_i64(i64::MIN, -1, "t") == Ok(0));
    }

    #[test]
    fn overflow_is_an_error() {
        assert!(matches!(i64::MAX.add(&1), Err(AlgebraError::Overflow { .. })));
        assert!(matches!((i64::MAX / 2 + 1).mul(&2), Err(AlgebraError::Overflow { .. })));
        assert!(matches!(i64::MIN.floor_div(&-1), Err(AlgebraError::Overflow { .. })));
        assert!(matches!(3i64.floor_div(&0), Err(AlgebraError::DivisionByZero { .. })));
        assert_eq!(i64::MAX.ceil_div(&2).unwrap(), i64::MAX / 2 + 1);
        assert_eq!(100i64.ceil_div(&16).unwrap(), 7);
        assert_eq!(100i64.align_to(&16).unwrap(), 112);
    }
}
