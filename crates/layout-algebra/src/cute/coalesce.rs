//! `coalesce`, `coalesce_by` and `filter` (docs/layout-spec.md §C.1).

use std::fmt;

use crate::domain::Decide;
use crate::error::{AlgebraError, Result};
use crate::int_tuple::{IntTuple, Tuple};
use crate::layout::Layout;

use super::algebra::Algebra;
use super::util::{concat, from_leaves, modes, plain};

/// Merges the leaves of `a` into the fewest modes that compute the same function.
///
/// Math: flatten `a` to its leaves `s_k:d_k`; skip size-1 leaves; append the others left to
/// right, where a leaf `s1:d1` following a kept mode `s0:d0` with `d1 == s0·d0` is merged into
/// it as `s0·s1:d0` (then `i ↦ (i mod s0)·d0 + (i div s0)·s0·d0 = i·d0`). The result has depth
/// ≤ 1 (a single mode is returned as an integral layout, no leaf at all as `1:0`), the same size,
/// and `R(i) == A(i)` for every `i < size(A)`.
///
/// Beyond `size(A)` the two may differ: `A` extends along its *last leaf* (the colexicographic
/// split leaves the last quotient unreduced) and coalesce drops a trailing size-1 leaf, e.g.
/// `(4,1):(1,7)` at 5 is `1 + 7 = 8` while `coalesce = 4:1` gives 5.
///
/// Example: `coalesce((2,(1,6)):(1,(6,2))) = 12:1` — the size-1 leaf is skipped and `6:2`
/// follows `2:1` with `2 == 2·1`. `coalesce((2,8):(4,8)) = 16:4`.
pub fn coalesce(a: &Layout) -> Result<Layout> {
    Algebra::exact().coalesce(a)
}

/// Coalesce by mode: where `profile` is an integer the whole (sub-)layout is coalesced, where it
/// is a tuple the layout's modes are processed one by one against the profile's modes, and
/// modes past the end of the profile are kept as they are. The rank at every tuple level of the
/// profile is preserved.
///
/// Example: `coalesce_by((2,(1,6)):(1,(6,2)), (1,1)) = (2,6):(1,2)` — mode 0 `2:1` stays,
/// mode 1 `(1,6):(6,2)` becomes `6:2`; the rank stays 2 (plain `coalesce` gives `12:1`).
/// A profile with more modes than the layout is an `Incompatible` error.
pub fn coalesce_by(a: &Layout, profile: &IntTuple) -> Result<Layout> {
    Algebra::exact().coalesce_by(a, profile)
}

/// Drops every leaf of stride 0 or size 1, then [`coalesce`]s; no leaf left gives `1:0`.
///
/// The image (set of offsets) of the result is the image of `a` (stride-0 leaves only repeat
/// offsets); the function is `a` restricted to the coordinates that are 0 in every stride-0 mode.
///
/// Example: `filter((4,(2,3)):(0,(1,2))) = 6:1` (the broadcast mode `4:0` goes, `2:1 ++ 3:2`
/// merge); `filter((3,1):(0,5)) = 1:0`.
pub fn filter(a: &Layout) -> Result<Layout> {
    Algebra::exact().filter(a)
}

/// In a symbolic domain a leaf is skipped only if its size is *provably* 1 and two leaves merge
/// only if `d1 == s0·d0` is *provable* (CuTe merges only statically equal strides; proving the
/// equality of expressions is the same idea one step further). A leaf that is 1 or mergeable
/// only at some points is kept: the function is the same, only the form is less compact.
impl<T: Decide> Algebra<'_, T> {
    /// [`coalesce`] in this domain.
    pub fn coalesce(&self, a: &Layout<T>) -> Result<Layout<T>> {
        self.coalesce_leaves(a.leaf_modes())
    }

    pub(crate) fn coalesce_leaves(&self, leaves: Vec<(T, T)>) -> Result<Layout<T>> {
        let mut out: Vec<(T, T)> = Vec::new();
        for (s, d) in leaves {
            if self.is_one(&s) {
                continue;
            }
            if let Some(last) = out.last_mut() {
                // An overflowing extent merges with nothing.
                if last.0.mul(&last.1).is_ok_and(|e| self.eq(&e, &d).proved()) {
                    last.0 = last.0.mul(&s)?;
                    continue;
                }
            }
            out.push((s, d));
        }
        from_leaves(&out)
    }

    /// [`coalesce_by`] in this domain (only the structure of `profile` matters).
    pub fn coalesce_by<P: Clone + fmt::Display>(&self, a: &Layout<T>, profile: &Tuple<P>) -> Result<Layout<T>> {
        match profile {
            Tuple::Int(_) => self.coalesce(a),
            Tuple::Tuple(ps) => {
                let ms = modes(a)?;
                if ps.len() > ms.len() {
                    return Err(AlgebraError::Incompatible {
                        what: "coalesce_by",
                        detail: format!("profile {profile} has rank {} but layout {a} has rank {}", ps.len(), ms.len()),
                    });
                }
                let mut out = Vec::with_capacity(ms.len());
                for (i, m) in ms.iter().enumerate() {
                    out.push(if i < ps.len() { self.coalesce_by(m, &ps[i])? } else { plain(m)? });
                }
                concat(&out)
            }
        }
    }

    /// [`filter`] in this domain: drops the leaves of provably size 1 or stride 0.
    pub fn filter(&self, a: &Layout<T>) -> Result<Layout<T>> {
        let kept: Vec<(T, T)> =
            a.leaf_modes().into_iter().filter(|(s, d)| !self.is_one(s) && !self.is_zero(d)).collect();
        self.coalesce_leaves(kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_int_tuple, parse_layout};

    fn l(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }

    fn same_function(a: &Layout, b: &Layout) {
        assert_eq!(a.size().unwrap(), b.size().unwrap(), "{a} vs {b}");
        assert_eq!(a.offsets().unwrap(), b.offsets().unwrap(), "{a} vs {b}");
    }

    #[test]
    fn spec_c1_c9_examples() {
        assert_eq!(coalesce(&l("(2,(1,6)):(1,(6,2))")).unwrap().to_string(), "12:1");
        assert_eq!(
            coalesce_by(&l("(2,(1,6)):(1,(6,2))"), &parse_int_tuple("(1,1)").unwrap()).unwrap().to_string(),
            "(2,6):(1,2)"
        );
        assert_eq!(coalesce(&l("(2,8):(4,8)")).unwrap().to_string(), "16:4");
        // docs/layout-spec.md §B.8: pycute merges zN on values.
        let zn = l("((16,7),(16,7)):((16,256),(1,1792))");
        let c = coalesce(&zn).unwrap();
        assert_eq!(c.to_string(), "(112,16,7):(16,1,1792)");
        same_function(&zn, &c);
    }

    #[test]
    fn edge_cases() {
        assert_eq!(coalesce(&l("(1,1):(3,4)")).unwrap().to_string(), "1:0");
        assert_eq!(coalesce(&l("():()")).unwrap().to_string(), "1:0");
        assert_eq!(coalesce(&l("(4,1):(1,7)")).unwrap().to_string(), "4:1");
        assert_eq!(coalesce(&l("(2,3):(-1,-2)")).unwrap().to_string(), "6:-1");
        assert_eq!(coalesce(&l("(2,3):(0,0)")).unwrap().to_string(), "6:0");
        assert_eq!(coalesce(&l("(4,3):(3,1) origin (2,3)")).unwrap().to_string(), "(4,3):(3,1)");
        // by-mode keeps modes past the profile and recurses into tuple profiles
        let a = l("((2,2),(3,1),(4,2)):((1,2),(4,12),(12,48))");
        assert_eq!(
            coalesce_by(&a, &parse_int_tuple("(1,1)").unwrap()).unwrap().to_string(),
            "(4,3,(4,2)):(1,4,(12,48))"
        );
        assert_eq!(
            coalesce_by(&a, &parse_int_tuple("((1,1),1,1)").unwrap()).unwrap().to_string(),
            "((2,2),3,8):((1,2),4,12)"
        );
        assert_eq!(coalesce_by(&a, &parse_int_tuple("7").unwrap()).unwrap().to_string(), "96:1");
        assert!(matches!(
            coalesce_by(&a, &parse_int_tuple("(1,1,1,1)").unwrap()),
            Err(AlgebraError::Incompatible { .. })
        ));
        same_function(&a, &coalesce_by(&a, &parse_int_tuple("(1,(1,1))").unwrap()).unwrap());
    }

    #[test]
    fn filter_examples() {
        assert_eq!(filter(&l("(4,(2,3)):(0,(1,2))")).unwrap().to_string(), "6:1");
        assert_eq!(filter(&l("(3,1):(0,5)")).unwrap().to_string(), "1:0");
        assert_eq!(filter(&l("(2,4,3):(1,0,4)")).unwrap().to_string(), "(2,3):(1,4)");
    }

    #[test]
    fn overflow_is_an_error() {
        let big = l("(4294967296,4294967296,2):(1,4294967296,0)");
        assert!(matches!(coalesce(&big), Err(AlgebraError::Overflow { .. })));
    }
}
