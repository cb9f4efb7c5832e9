//! `complement(A, M)`: the layout that fills the gaps of `A` up to `M` (docs/layout-spec.md §C.3).

use crate::domain::{Decide, Truth};
use crate::error::{AlgebraError, Result};
use crate::layout::Layout;

use super::algebra::Algebra;
use super::util::inadmissible;

/// `complement(A, M)`: an ordered layout `R` whose image is disjoint from `A`'s (except 0) and
/// such that `(A, R)` covers at least `[0, M)`.
///
/// Math: drop the stride-0 and size-1 leaves of `A` (`filter`), sort the remaining leaves
/// `s_i:d_i` by stride (ties by shape), `cur = 1`; for each leaf append `d_i / cur : cur` and set
/// `cur = s_i·d_i`; finally append `ceil_div(M, cur) : cur` and coalesce.
///
/// Admissibility, for each sorted leaf: `d_i ≥ cur` (no overlap with the leaves before it; CuTe
/// "non-injective layout") and `d_i % cur == 0` (stride divisibility); strides must be
/// non-negative; `M ≥ 1`.
///
/// Post: `R` has positive increasing strides (it is coalesced), its image meets `A`'s only in 0,
/// and `cosize((A, R)) ≥ M`.
///
/// Example: `complement(4:2, 24)`: leaf `4:2` gives `2/1 : 1 = 2:1`, `cur = 8`; then
/// `ceil_div(24, 8) : 8 = 3:8`, so `R = (2,3):(1,8)`. Others (docs/layout-spec.md §C.3):
/// `complement(4:1,24) = 6:4`, `complement(6:4,24) = 4:1`, `complement((4,6):(1,4),24) = 1:0`,
/// `complement((2,4):(1,6),24) = 3:2`, `complement((2,2):(1,6),24) = (3,2):(2,12)`.
pub fn complement(a: &Layout, cotarget: i64) -> Result<Layout> {
    Algebra::exact().complement(a, &cotarget)
}

/// `complement(A, cosize(filter(A)))` (the C++ default): fills the holes inside `A`'s span only.
///
/// Example: `complement_default((2,2):(1,6)) = 3:2` (`cosize = 8`: holes 2,4 → `3:2` covers
/// {0,2,4}; the final mode `ceil_div(8,12) = 1` vanishes).
pub fn complement_default(a: &Layout) -> Result<Layout> {
    Algebra::exact().complement_default(a)
}

/// In a symbolic domain the sort needs the order of the strides: CuTe sorts static strides
/// only; here a stride may be an expression as long as its order against the others is
/// provable (`M` before `16·M`). Two strides that are provably `<=` but may be equal are
/// ordered as `<=` says: where they are equal, the injectivity check that must then be proved
/// (`d_j >= s_i·d_i`) forces `s_i == 1` there, a mode the concrete algorithm would drop, so
/// both orders give the same function.
impl<T: Decide> Algebra<'_, T> {
    /// [`complement`] in this domain.
    pub fn complement(&self, a: &Layout<T>, cotarget: &T) -> Result<Layout<T>> {
        let leaves = self.complement_leaves(a, cotarget, "complement", "stride divisibility")?;
        let r = self.coalesce_leaves(leaves)?;
        self.canon_layout(&r)
    }

    /// [`complement_default`] in this domain.
    pub fn complement_default(&self, a: &Layout<T>) -> Result<Layout<T>> {
        let cotarget = self.cosize(&self.filter(a)?)?;
        self.complement(a, &cotarget)
    }

    /// `1 + Σ (s_i - 1)·|d_i|` (CuTe `cosize`); the sign of every stride must be decided.
    pub fn cosize(&self, a: &Layout<T>) -> Result<T> {
        let mut acc = T::constant(1);
        for (s, d) in a.leaf_modes() {
            let Some(m) = self.abs(&d)? else {
                return Err(inadmissible(
                    "cosize",
                    format!("cannot decide the sign of stride {}", self.show(&d).bare()),
                ));
            };
            acc = acc.add(&s.sub(&T::constant(1))?.mul(&m)?)?;
        }
        Ok(self.canon(&acc))
    }

    /// The uncoalesced leaves of `complement(a, cotarget)`: one gap-filling leaf before every
    /// sorted leaf of `a`, then the tail `ceil_div(cotarget, cur) : cur`. `label` names the
    /// divisibility condition in errors.
    pub(crate) fn complement_leaves(
        &self,
        a: &Layout<T>,
        cotarget: &T,
        op: &'static str,
        label: &str,
    ) -> Result<Vec<(T, T)>> {
        let one = T::constant(1);
        if !self.le(&one, cotarget).proved() {
            return Err(AlgebraError::NotPositive {
                what: "complement cotarget",
                value: self.show(cotarget).bare().into(),
            });
        }
        let zero = T::constant(0);
        let mut leaves = Vec::new();
        for (s, d) in a.leaf_modes().into_iter().filter(|(s, d)| !self.is_one(s) && !self.is_zero(d)) {
            let non_negative = self.le(&zero, &d);
            if !non_negative.proved() {
                let (sh, dh) = (self.show(&s), self.show(&d));
                let why = match non_negative {
                    Truth::Unknown => format!("cannot prove {} >= 0", dh.bare()),
                    _ => "has a negative stride".to_string(),
                };
                return Err(inadmissible(op, format!("non-negative strides: mode {sh}:{dh} of {a} {why}")));
            }
            leaves.push((s, d));
        }
        let leaves = self.sort_by_stride(leaves, |x| x, a, op)?;
        let mut out = Vec::with_capacity(leaves.len() + 1);
        let mut cur = one.clone();
        let mut prev: Option<(T, T)> = None;
        for (s, d) in leaves {
            let overlaps = self.lt(&d, &cur);
            if !(!overlaps).proved() {
                let (ps, pd) = prev.unwrap_or((one.clone(), one.clone()));
                let (sh, dh, ch, psh, pdh) =
                    (self.show(&s), self.show(&d), self.show(&cur), self.show(&ps), self.show(&pd));
                let what = match overlaps {
                    Truth::Unknown => format!("cannot prove stride {} of mode {sh}:{dh} >= {}", dh.bare(), ch.bare()),
                    _ => format!("stride {} of mode {sh}:{dh} < {}", dh.bare(), ch.bare()),
                };
                return Err(inadmissible(
                    op,
                    format!("injectivity: {what} = {psh}*{pdh}, the extent of mode {psh}:{pdh} (in {a})"),
                ));
            }
            let divisible = self.divides(&d, &cur);
            if !divisible.proved() {
                let (sh, dh) = (self.show(&s), self.show(&d));
                return Err(inadmissible(
                    op,
                    format!(
                        "{label}: {} (stride of mode {sh}:{dh} by the extent of the modes before it, in {a})",
                        self.not_divisible(&d, &cur, divisible)
                    ),
                ));
            }
            out.push((self.exact_div(&d, &cur)?, cur.clone()));
            cur = s.mul(&d)?;
            prev = Some((s, d));
        }
        out.push((self.ceil_div(cotarget, &cur)?, cur));
        Ok(out)
    }

    /// Stable insertion sort by `(stride, shape)` of `leaf(item)`, each comparison decided (see
    /// the impl docs).
    pub(crate) fn sort_by_stride<X>(
        &self,
        items: Vec<X>,
        leaf: impl Fn(&X) -> &(T, T),
        a: &Layout<T>,
        op: &'static str,
    ) -> Result<Vec<X>> {
        let mut sorted: Vec<X> = Vec::with_capacity(items.len());
        for item in items {
            let mut at = sorted.len();
            while at > 0 {
                if self.before(leaf(&sorted[at - 1]), leaf(&item), a, op)? {
                    break;
                }
                at -= 1;
            }
            sorted.insert(at, item);
        }
        Ok(sorted)
    }

    /// Whether `x` may stay before `y` in the order by `(stride, shape)`.
    fn before(&self, x: &(T, T), y: &(T, T), a: &Layout<T>, op: &'static str) -> Result<bool> {
        if self.eq(&x.1, &y.1).proved() {
            match (self.le(&x.0, &y.0), self.lt(&y.0, &x.0)) {
                (Truth::Proved, _) => return Ok(true),
                (_, Truth::Proved) => return Ok(false),
                _ => {}
            }
        } else {
            match (self.le(&x.1, &y.1), self.le(&y.1, &x.1)) {
                (Truth::Proved, _) => return Ok(true),
                (_, Truth::Proved) => return Ok(false),
                _ => {}
            }
        }
        let (xs, xd, ys, yd) = (self.show(&x.0), self.show(&x.1), self.show(&y.0), self.show(&y.1));
        Err(inadmissible(
            op,
            format!(
                "sorted strides: cannot order modes {xs}:{xd} and {ys}:{yd} of {a} (CuTe sorts static strides; a dynamic one needs a provable order)"
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_layout;
    use std::collections::HashSet;

    fn l(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }

    fn check_post(a: &Layout, r: &Layout, m: i64) {
        let strides: Vec<i64> = r.leaf_modes().iter().filter(|(s, _)| *s != 1).map(|&(_, d)| d).collect();
        assert!(strides.windows(2).all(|w| 0 < w[0] && w[0] < w[1]), "ordered {r}");
        let ia: HashSet<i64> = a.offsets().unwrap().into_iter().collect();
        for o in r.offsets().unwrap() {
            assert!(o == 0 || !ia.contains(&o), "{a} and {r} share {o}");
        }
        assert!(Layout::concat(&[a.clone(), r.clone()]).unwrap().cosize().unwrap() >= m);
    }

    #[test]
    fn spec_c3_examples() {
        for (a, m, want) in [
            ("4:1", 24, "6:4"),
            ("6:4", 24, "4:1"),
            ("(4,6):(1,4)", 24, "1:0"),
            ("4:2", 24, "(2,3):(1,8)"),
            ("(2,4):(1,6)", 24, "3:2"),
            ("(2,2):(1,6)", 24, "(3,2):(2,12)"),
        ] {
            let r = complement(&l(a), m).unwrap();
            assert_eq!(r.to_string(), want, "complement({a},{m})");
            check_post(&l(a), &r, m);
        }
    }

    #[test]
    fn defaults_and_filtering() {
        assert_eq!(complement_default(&l("(2,2):(1,6)")).unwrap().to_string(), "3:2");
        assert_eq!(complement_default(&l("4:2")).unwrap().to_string(), "2:1");
        assert_eq!(complement_default(&l("1:0")).unwrap().to_string(), "1:0");
        // stride-0 and size-1 leaves are ignored
        assert_eq!(complement(&l("(4,3,1):(0,2,5)"), 24).unwrap().to_string(), "(2,4):(1,6)");
        assert_eq!(complement(&l("(2,(3,2)):(3,(1,12))"), 48).unwrap().to_string(), "(2,2):(6,24)");
        check_post(&l("(2,(3,2)):(3,(1,12))"), &complement(&l("(2,(3,2)):(3,(1,12))"), 48).unwrap(), 48);
    }

    #[test]
    fn inadmissible_cases() {
        let e = complement(&l("(2,2):(1,1)"), 8).unwrap_err();
        assert!(
            matches!(&e, AlgebraError::Inadmissible { op: "complement", condition } if condition.starts_with("injectivity: stride 1 of mode 2:1 < 2")),
            "{e}"
        );
        let e = complement(&l("(2,2):(1,3)"), 8).unwrap_err();
        assert!(
            matches!(&e, AlgebraError::Inadmissible { condition, .. } if condition.starts_with("stride divisibility: 3 % 2 != 0")),
            "{e}"
        );
        assert!(matches!(complement(&l("4:-1"), 8), Err(AlgebraError::Inadmissible { .. })));
        assert!(matches!(complement(&l("4:1"), 0), Err(AlgebraError::NotPositive { .. })));
        assert!(matches!(complement(&l("(4,4611686018427387904):(1,4)"), 8), Err(AlgebraError::Overflow { .. })));
    }
}
