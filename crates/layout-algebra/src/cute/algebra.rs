//! [`Algebra`]: the CuTe algebra in one integer domain, with the facts its conditions are
//! decided from.
//!
//! Every function of [`crate::cute`] is implemented once, as a method of `Algebra<T>` for any
//! [`Decide`] domain `T`. The `i64` free functions (`cute::composition(&a, &b)`, …) are
//! `Algebra::exact()` on concrete layouts. On `Layout<SymExpr>` the same code runs with
//! [`SymFacts`](super::SymFacts): a divisibility or order condition that CuTe checks (statically)
//! or assumes (dynamically) must be *proved* from the facts, otherwise the result is the same
//! `Inadmissible` error as for numbers, worded `cannot prove …` with the expressions.

use std::fmt;

use crate::domain::{Decide, Truth};
use crate::error::Result;
use crate::layout::Layout;

/// The CuTe algebra in domain `T` under `facts` (see the module documentation).
pub struct Algebra<'f, T: Decide> {
    facts: &'f T::Facts,
}

impl<T: Decide> Clone for Algebra<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T: Decide> Copy for Algebra<'_, T> {}

impl Algebra<'static, i64> {
    /// The concrete algebra: every condition is decided exactly.
    pub fn exact() -> Self {
        Algebra { facts: &() }
    }
}

impl<'f, T: Decide> Algebra<'f, T> {
    pub fn new(facts: &'f T::Facts) -> Self {
        Algebra { facts }
    }

    pub fn facts(&self) -> &'f T::Facts {
        self.facts
    }

    pub(crate) fn c(v: i64) -> T {
        T::constant(v)
    }

    pub(crate) fn is_one(&self, v: &T) -> bool {
        v.eq_value(&Self::c(1), self.facts).proved()
    }

    pub(crate) fn is_zero(&self, v: &T) -> bool {
        v.eq_value(&Self::c(0), self.facts).proved()
    }

    /// `a % b == 0` (and `b != 0`).
    pub(crate) fn divides(&self, a: &T, b: &T) -> Truth {
        a.divisible_by(b, self.facts)
    }

    pub(crate) fn le(&self, a: &T, b: &T) -> Truth {
        a.le(b, self.facts)
    }

    pub(crate) fn lt(&self, a: &T, b: &T) -> Truth {
        a.lt(b, self.facts)
    }

    pub(crate) fn eq(&self, a: &T, b: &T) -> Truth {
        a.eq_value(b, self.facts)
    }

    pub(crate) fn exact_div(&self, a: &T, b: &T) -> Result<T> {
        a.exact_div(b, self.facts)
    }

    /// `ceil(a / b)`: the exact quotient when `b` provably divides `a` (so `ceil_div(M·16, 16)`
    /// is `M`, not `(M·16 + 15) floordiv 16`), else the domain's `ceil_div`.
    pub(crate) fn ceil_div(&self, a: &T, b: &T) -> Result<T> {
        if self.divides(a, b).proved() {
            self.exact_div(a, b)
        } else {
            a.ceil_div(b)
        }
    }

    /// `|d|` where the sign of `d` is decided; `None` if it is not.
    pub(crate) fn abs(&self, d: &T) -> Result<Option<T>> {
        match (self.le(&Self::c(0), d), self.lt(d, &Self::c(0))) {
            (Truth::Proved, _) => Ok(Some(d.clone())),
            (_, Truth::Proved) => Self::c(0).sub(d).map(Some),
            _ => Ok(None),
        }
    }

    /// The value in normal form, for results and messages.
    pub(crate) fn canon(&self, v: &T) -> T {
        v.canonical(self.facts)
    }

    pub(crate) fn canon_layout(&self, l: &Layout<T>) -> Result<Layout<T>> {
        let f = &mut |v: &T| Ok::<_, crate::error::AlgebraError>(self.canon(v));
        Layout::new(l.shape().map(f)?, l.stride().map(f)?)
    }

    /// An operand for a message: normal form, parenthesized when it is not atomic.
    pub(crate) fn show(&self, v: &T) -> Operand {
        Operand(self.canon(v).to_string())
    }

    /// `"{a} % {b} != 0"` when refuted, `"cannot prove {a} % {b} == 0"` when unknown.
    pub(crate) fn not_divisible(&self, a: &T, b: &T, truth: Truth) -> String {
        let (a, b) = (self.show(a), self.show(b));
        match truth {
            Truth::Unknown => format!("cannot prove {a} % {b} == 0"),
            _ => format!("{a} % {b} != 0"),
        }
    }
}

/// A value printed for a condition: `16`, `M`, `(M * 16)`.
pub(crate) struct Operand(String);

impl Operand {
    /// Without parentheses, for a value that stands alone.
    pub(crate) fn bare(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.contains(' ') {
            write!(f, "({})", self.0)
        } else {
            f.write_str(&self.0)
        }
    }
}

/// The strongest of two answers for `a || b`.
pub(crate) fn either(a: Truth, b: Truth) -> Truth {
    match (a, b) {
        (Truth::Proved, _) | (_, Truth::Proved) => Truth::Proved,
        (Truth::Refuted, Truth::Refuted) => Truth::Refuted,
        _ => Truth::Unknown,
    }
}
