//! Hierarchical integer tuples: an integer or a tuple of tuples (CuTe `IntTuple`).
//!
//! `Tuple<T>` is generic over the integer domain so that shapes, strides and coordinates can be
//! concrete (`IntTuple = Tuple<i64>`) or symbolic. Printing uses CuTe notation with no spaces:
//! `37`, `(1,(2,3))`.

use std::fmt;

use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Tuple<T> {
    Int(T),
    Tuple(Vec<Tuple<T>>),
}

/// A concrete hierarchical integer tuple.
pub type IntTuple = Tuple<i64>;

impl<T> From<T> for Tuple<T> {
    fn from(v: T) -> Self {
        Tuple::Int(v)
    }
}

/// Builds a tuple from a nested literal: `tuple![(16, 7), (16, 7)]` is not needed often, so
/// the crate offers [`Tuple::from_vec`] and [`Tuple::int`] instead of a macro.
impl<T: Clone> Tuple<T> {
    pub fn int(v: T) -> Self {
        Tuple::Int(v)
    }

    pub fn from_vec(children: Vec<Tuple<T>>) -> Self {
        Tuple::Tuple(children)
    }

    pub fn is_int(&self) -> bool {
        matches!(self, Tuple::Int(_))
    }

    pub fn as_int(&self) -> Option<&T> {
        match self {
            Tuple::Int(v) => Some(v),
            Tuple::Tuple(_) => None,
        }
    }

    /// Number of top-level modes: 1 for an integer.
    pub fn rank(&self) -> usize {
        match self {
            Tuple::Int(_) => 1,
            Tuple::Tuple(c) => c.len(),
        }
    }

    /// Nesting depth (CuTe/TLA): 0 for an integer, `1 + max(depth(child))` for a tuple.
    /// Not to be confused with AscendC Te's `depth`, which counts leaves: see [`Self::leaf_count`].
    pub fn depth(&self) -> usize {
        match self {
            Tuple::Int(_) => 0,
            Tuple::Tuple(c) => 1 + c.iter().map(Tuple::depth).max().unwrap_or(0),
        }
    }

    /// Number of integer leaves (AscendC Te `Layout::depth`).
    pub fn leaf_count(&self) -> usize {
        match self {
            Tuple::Int(_) => 1,
            Tuple::Tuple(c) => c.iter().map(Tuple::leaf_count).sum(),
        }
    }

    /// Mode `i`. `get(int, 0)` is the integer itself (CuTe `get<0>(int)`).
    pub fn get(&self, i: usize) -> Result<&Tuple<T>> {
        match self {
            Tuple::Int(_) if i == 0 => Ok(self),
            Tuple::Int(_) => Err(AlgebraError::IndexOutOfRange { what: "integer", index: i, rank: 1 }),
            Tuple::Tuple(c) => c.get(i).ok_or(AlgebraError::IndexOutOfRange { what: "tuple", index: i, rank: c.len() }),
        }
    }

    /// Recursive indexing `get<I0, I1, ...>`.
    pub fn get_path(&self, path: &[usize]) -> Result<&Tuple<T>> {
        path.iter().try_fold(self, |t, &i| t.get(i))
    }

    /// The top-level modes as a slice (an integer is its own single mode).
    pub fn modes(&self) -> Vec<Tuple<T>> {
        match self {
            Tuple::Int(_) => vec![self.clone()],
            Tuple::Tuple(c) => c.clone(),
        }
    }

    /// All leaves, left to right.
    pub fn leaves(&self) -> Vec<T> {
        let mut out = Vec::new();
        self.collect_leaves(&mut out);
        out
    }

    fn collect_leaves(&self, out: &mut Vec<T>) {
        match self {
            Tuple::Int(v) => out.push(v.clone()),
            Tuple::Tuple(c) => c.iter().for_each(|t| t.collect_leaves(out)),
        }
    }

    /// Flattened to depth ≤ 1: an integer stays an integer, a tuple becomes the tuple of leaves.
    pub fn flatten(&self) -> Tuple<T> {
        match self {
            Tuple::Int(_) => self.clone(),
            Tuple::Tuple(_) => Tuple::Tuple(self.leaves().into_iter().map(Tuple::Int).collect()),
        }
    }

    /// Same nesting structure (CuTe `congruent`).
    pub fn congruent<U: Clone>(&self, other: &Tuple<U>) -> bool {
        match (self, other) {
            (Tuple::Int(_), Tuple::Int(_)) => true,
            (Tuple::Tuple(a), Tuple::Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y)),
            _ => false,
        }
    }

    /// Applies `f` to every leaf, keeping the structure.
    pub fn map<U, E>(&self, f: &mut impl FnMut(&T) -> Result<U, E>) -> Result<Tuple<U>, E> {
        Ok(match self {
            Tuple::Int(v) => Tuple::Int(f(v)?),
            Tuple::Tuple(c) => Tuple::Tuple(c.iter().map(|t| t.map(f)).collect::<Result<_, E>>()?),
        })
    }

    /// Rebuilds `self`'s structure from a flat list of leaves (the inverse of `leaves`).
    pub fn unflatten<U: Clone>(&self, leaves: &[U]) -> Result<Tuple<U>> {
        let mut it = leaves.iter();
        let out = self.map(&mut |_| {
            it.next().cloned().ok_or_else(|| AlgebraError::Invalid("unflatten: too few leaves".into()))
        })?;
        if it.next().is_some() {
            return Err(AlgebraError::Invalid("unflatten: too many leaves".into()));
        }
        Ok(out)
    }
}

impl<T: IndexValue> Tuple<T> {
    /// Product of all leaves (`size`); the empty tuple has size 1.
    pub fn size(&self) -> Result<T> {
        self.leaves().iter().try_fold(T::constant(1), |acc, v| acc.mul(v))
    }

    /// Leafwise combination of two congruent tuples.
    pub fn zip_with(
        &self,
        other: &Tuple<T>,
        what: &'static str,
        f: &mut impl FnMut(&T, &T) -> Result<T>,
    ) -> Result<Tuple<T>> {
        match (self, other) {
            (Tuple::Int(a), Tuple::Int(b)) => Ok(Tuple::Int(f(a, b)?)),
            (Tuple::Tuple(a), Tuple::Tuple(b)) if a.len() == b.len() => {
                Ok(Tuple::Tuple(a.iter().zip(b).map(|(x, y)| x.zip_with(y, what, f)).collect::<Result<_>>()?))
            }
            _ => Err(AlgebraError::NotCongruent { what, lhs: self.to_string(), rhs: other.to_string() }),
        }
    }

    /// `Σ a_i · b_i` over congruent tuples (CuTe `inner_product`).
    pub fn inner_product(&self, other: &Tuple<T>) -> Result<T> {
        let prod = self.zip_with(other, "inner_product", &mut |a, b| a.mul(b))?;
        prod.leaves().iter().try_fold(T::constant(0), |acc, v| acc.add(v))
    }

    /// Exclusive prefix product, congruent with `self`:
    /// `prefix_product(((2,3),4)) = ((1,2),6)`, `prefix_product((3,2,4)) = (1,3,6)`.
    pub fn prefix_product(&self) -> Result<Tuple<T>> {
        self.prefix_product_from(&T::constant(1)).map(|(t, _)| t)
    }

    /// Prefix product starting at `init`; returns the tuple and the running product after it.
    pub fn prefix_product_from(&self, init: &T) -> Result<(Tuple<T>, T)> {
        match self {
            Tuple::Int(v) => Ok((Tuple::Int(init.clone()), init.mul(v)?)),
            Tuple::Tuple(c) => {
                let mut cur = init.clone();
                let mut out = Vec::with_capacity(c.len());
                for t in c {
                    let (p, next) = t.prefix_product_from(&cur)?;
                    out.push(p);
                    cur = next;
                }
                Ok((Tuple::Tuple(out), cur))
            }
        }
    }
}

impl IntTuple {
    /// Inclusive prefix ceil-division (CuTe `shape_div`): divides `self` by `b` mode by mode,
    /// carrying what is left of `b`. At integer level requires `a % b == 0 || b % a == 0`.
    /// `shape_div((3,4),6) = (1,2)`, `shape_div(((3,4),6),36) = ((1,1),2)`.
    pub fn shape_div(&self, b: i64) -> Result<IntTuple> {
        self.shape_div_carry(b).map(|(t, _)| t)
    }

    fn shape_div_carry(&self, b: i64) -> Result<(IntTuple, i64)> {
        match self {
            Tuple::Int(a) => {
                let (a, b) = (*a, b);
                if a <= 0 || b <= 0 {
                    return Err(AlgebraError::NotPositive { what: "shape_div operand", value: format!("{a}, {b}") });
                }
                if a % b != 0 && b % a != 0 {
                    return Err(AlgebraError::Inadmissible {
                        op: "shape_div",
                        condition: format!("neither {a} % {b} == 0 nor {b} % {a} == 0"),
                    });
                }
                let quotient = if a >= b { a / b } else { 1 };
                let rest = if b >= a { b / a } else { 1 };
                Ok((Tuple::Int(quotient), rest))
            }
            Tuple::Tuple(c) => {
                let mut rest = b;
                let mut out = Vec::with_capacity(c.len());
                for t in c {
                    let (q, r) = t.shape_div_carry(rest)?;
                    out.push(q);
                    rest = r;
                }
                Ok((Tuple::Tuple(out), rest))
            }
        }
    }
}

impl<T: fmt::Display> fmt::Display for Tuple<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tuple::Int(v) => write!(f, "{v}"),
            Tuple::Tuple(c) => {
                f.write_str("(")?;
                for (i, t) in c.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(")")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_int_tuple;

    fn t(s: &str) -> IntTuple {
        parse_int_tuple(s).unwrap()
    }

    #[test]
    fn queries_follow_cute() {
        let x = t("((16,7),(16,7))");
        assert_eq!(x.rank(), 2);
        assert_eq!(x.depth(), 2);
        assert_eq!(x.leaf_count(), 4);
        assert_eq!(x.size().unwrap(), 12544);
        assert_eq!(t("37").depth(), 0);
        assert_eq!(t("()").size().unwrap(), 1);
        assert_eq!(x.get_path(&[1, 0]).unwrap(), &Tuple::Int(16));
        assert_eq!(x.flatten(), t("(16,7,16,7)"));
        assert_eq!(t("((2,3),4)").size().unwrap(), 24);
        assert_eq!(t("(2,(3,(4,5)))").depth(), 3);
    }

    #[test]
    fn int_tuple_facts_from_pycute() {
        assert_eq!(t("((2,3),4)").inner_product(&t("((2,1),2)")).unwrap(), 15);
        assert_eq!(t("(3,4)").shape_div(6).unwrap(), t("(1,2)"));
        assert_eq!(t("((3,4),6)").shape_div(36).unwrap(), t("((1,1),2)"));
        assert_eq!(t("(6,(3,4))").shape_div(36).unwrap(), t("(1,(1,2))"));
        assert_eq!(t("(3,2,4)").prefix_product().unwrap(), t("(1,3,6)"));
        assert_eq!(t("((2,3),4)").prefix_product().unwrap(), t("((1,2),6)"));
        assert_eq!(t("((2,3),(2,1,2),(5,2,1))").prefix_product().unwrap(), t("((1,2),(6,12,12),(24,120,240))"));
        assert!(t("(3,4)").shape_div(5).is_err());
    }

    #[test]
    fn size_overflow_is_an_error() {
        assert!(matches!(t("(4294967296,4294967296)").size(), Err(AlgebraError::Overflow { .. })));
    }
}
