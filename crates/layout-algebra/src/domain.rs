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
