//! `right_inverse` and `left_inverse` (docs/layout-spec.md §C.4).

use crate::domain::{Decide, Truth};
use crate::error::{AlgebraError, Result};
use crate::int_tuple::Tuple;
use crate::layout::Layout;

use super::algebra::Algebra;
use super::util::inadmissible;

/// A right inverse `R` of `A`: `A(R(i)) == i` for every `i < size(R)`, as large as the chain
/// below allows.
///
/// Math: flatten `A` to leaves `s_k:d_k` and give each its coordinate stride
/// `p_k = prefix_product(flat shape)_k`; drop leaves of size 1 or stride ≤ 0; sort by stride;
/// with `cur = 1`, repeatedly take the next leaf with `d_k == cur` (skipping leaves with
/// `d_k < cur`, stopping at the first `d_k > cur`), append `s_k : p_k` and set `cur = s_k·d_k`;
/// coalesce. (`R(i)` walks the offsets `0, 1, …, size(R)-1` and returns the index of `A` that
/// maps there.) No leaf with stride 1 gives `1:0`.
///
/// Example: `right_inverse((2,4,6):(4,1,8))`: prefix products `(1,2,8)`; stride 1 is leaf
/// `4:1` (p = 2) → `4:2`; `cur = 4`: leaf `2:4` (p = 1) → `2:1`; `cur = 8`: leaf `6:8` (p = 8) →
/// `6:8`; result `(4,2,6):(2,1,8)`. Also `right_inverse((8,4):(4,1)) = (4,8):(8,1)`,
/// `right_inverse(4:2) = 1:0`, and for zN fp16 100×100
/// `right_inverse(((16,7),(16,7)):((16,256),(1,1792))) = (16,112,7):(112,1,1792)` (offset 1 →
/// index 112 = logical (0,1)).
pub fn right_inverse(a: &Layout) -> Result<Layout> {
    Algebra::exact().right_inverse(a)
}

/// A left inverse `R` of an injective `A`: `R(A(i)) == i` for every `i < size(A)`.
///
/// Math (pycute): `R = right_inverse((A, complement(A)))` with `complement(A) =
/// complement(A, 1)`: the complement fills every hole below the extent of `A`, so `(A, A*)` is a
/// bijection onto `[0, cosize)` and its right inverse is a full inverse; restricted to the image
/// of `A` it returns `A`'s index. Left inverses are **not unique** (C++ builds a different but
/// equivalent one): only the values on the image of `A` are specified.
///
/// Admissibility: `A` injective — no leaf of size > 1 with stride 0 (`injectivity`), sorted
/// strides not overlapping the extent of the leaves before them — and *left inverse
/// divisibility*: each sorted stride divisible by the extent `cur` of the leaves before it.
///
/// Example: `left_inverse(4:2)`: `complement(4:2) = 2:1`, `right_inverse((4,2):(2,1)) =
/// (2,4):(4,1)`; it maps offset 2·i back to i. `left_inverse((8,4):(4,1)) = (4,8):(8,1)`;
/// `left_inverse((4,2):(1,16)) = (4,4,2):(1,8,4)` (pycute; C++ `(16,2):(1,4)`).
pub fn left_inverse(a: &Layout) -> Result<Layout> {
    Algebra::exact().left_inverse(a)
}

/// In a symbolic domain every decision of the chain must be proved: the order of the strides
/// (as in [`Algebra::complement`]), `d_k == cur`, `d_k < cur` or `d_k > cur`, and the sign of
/// each stride. CuTe needs static strides here (it drops dynamic ones from the right inverse
/// and asserts static strides for the left inverse); a dynamic stride is accepted where its
/// place in the chain is provable, so `right_inverse((M,N):(1,M)) = M * N:1`. An undecided
/// step is an `Inadmissible` error rather than a silently shorter inverse.
impl<T: Decide> Algebra<'_, T> {
    /// [`right_inverse`] in this domain.
    pub fn right_inverse(&self, a: &Layout<T>) -> Result<Layout<T>> {
        let shape = a.shape().flatten();
        let prefix = shape.prefix_product()?.leaves();
        let zero = T::constant(0);
        let mut items = Vec::new();
        for ((s, d), p) in shape.leaves().into_iter().zip(a.stride().leaves()).zip(prefix) {
            if self.is_one(&s) {
                continue;
            }
            match (self.lt(&zero, &d), self.le(&d, &zero)) {
                (Truth::Proved, _) => items.push(((s, d), p)),
                (_, Truth::Proved) => {}
                _ => {
                    return Err(inadmissible(
                        "right_inverse",
                        format!("cannot decide the sign of stride {} (in {a})", self.show(&d).bare()),
                    ))
                }
            }
        }
        let items = self.sort_by_stride(items, |(leaf, _)| leaf, a, "right_inverse")?;
        let mut out = Vec::new();
        let mut cur = T::constant(1);
        for ((s, d), p) in items {
            if self.lt(&d, &cur).proved() {
                continue;
            }
            if self.lt(&cur, &d).proved() {
                break;
            }
            if !self.eq(&d, &cur).proved() {
                let (dh, ch) = (self.show(&d), self.show(&cur));
                return Err(inadmissible(
                    "right_inverse",
                    format!(
                        "cannot decide stride {} against the extent {} of the chain (in {a})",
                        dh.bare(),
                        ch.bare()
                    ),
                ));
            }
            out.push((s.clone(), p));
            cur = match s.mul(&d) {
                Ok(v) => v,
                // Nothing can follow a leaf whose extent leaves i64; the chain ends here.
                Err(_) => break,
            };
        }
        let r = self.coalesce_leaves(out)?;
        self.canon_layout(&r)
    }

    /// [`left_inverse`] in this domain.
    pub fn left_inverse(&self, a: &Layout<T>) -> Result<Layout<T>> {
        if let Some((s, d)) = a.leaf_modes().into_iter().find(|(s, d)| !self.is_one(s) && self.is_zero(d)) {
            let (sh, dh) = (self.show(&s), self.show(&d));
            return Err(inadmissible("left_inverse", format!("injectivity: mode {sh}:{dh} of {a} has stride 0")));
        }
        let gaps = self.complement_leaves(a, &T::constant(1), "left_inverse", "left inverse divisibility")?;
        let c = self.coalesce_leaves(gaps)?;
        let both = Layout::new(
            Tuple::Tuple(vec![a.shape().clone(), c.shape().clone()]),
            Tuple::Tuple(vec![a.stride().clone(), c.stride().clone()]),
        )?;
        let r = self.right_inverse(&both)?;
        // The pair is a bijection onto [0, cosize), so the inverse must cover all of it.
        let want = both.size()?;
        if !self.eq(&r.size()?, &want).proved() {
            return Err(AlgebraError::Invalid(format!(
                "left_inverse: right inverse of {both} has size {} != {}",
                self.show(&r.size()?).bare(),
                self.show(&want).bare()
            )));
        }
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_layout;

    fn l(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }

    fn check_right(a: &Layout, r: &Layout) {
        for i in 0..r.size().unwrap() {
            let ri = r.crd_to_offset(&Tuple::Int(i)).unwrap();
            assert_eq!(a.crd_to_offset(&Tuple::Int(ri)).unwrap(), i, "A(R({i})) for A = {a}, R = {r}");
        }
    }

    fn check_left(a: &Layout, r: &Layout) {
        for i in 0..a.size().unwrap() {
            let ai = a.crd_to_offset(&Tuple::Int(i)).unwrap();
            assert_eq!(r.crd_to_offset(&Tuple::Int(ai)).unwrap(), i, "R(A({i})) for A = {a}, R = {r}");
        }
    }

    #[test]
    fn spec_c4_right_inverse() {
        for (a, want) in [
            ("(8,4):(4,1)", "(4,8):(8,1)"),
            ("(4,2):(1,16)", "4:1"),
            ("(2,4,6):(4,1,8)", "(4,2,6):(2,1,8)"),
            ("4:2", "1:0"),
            ("((16,7),(16,7)):((16,256),(1,1792))", "(16,112,7):(112,1,1792)"),
        ] {
            let r = right_inverse(&l(a)).unwrap();
            assert_eq!(r.to_string(), want, "right_inverse({a})");
            check_right(&l(a), &r);
        }
        let r = right_inverse(&l("((16,7),(16,7)):((16,256),(1,1792))")).unwrap();
        assert_eq!(r.crd_to_offset(&Tuple::Int(1)).unwrap(), 112);
        assert_eq!(r.crd_to_offset(&Tuple::Int(16)).unwrap(), 1);
    }

    #[test]
    fn spec_c4_left_inverse() {
        assert_eq!(left_inverse(&l("4:2")).unwrap().to_string(), "(2,4):(4,1)");
        assert_eq!(left_inverse(&l("(8,4):(4,1)")).unwrap().to_string(), "(4,8):(8,1)");
        let a = l("(4,2):(1,16)");
        let r = left_inverse(&a).unwrap();
        assert_eq!(r.to_string(), "(4,4,2):(1,8,4)");
        check_left(&a, &r);
        // The C++ answer is another left inverse: both agree on the image of A.
        let cpp = l("(16,2):(1,4)");
        check_left(&a, &cpp);
        for a in
            ["4:2", "(8,4):(4,1)", "(3,(2,5)):(10,(1,60))", "((16,7),(16,7)):((16,256),(1,1792))", "1:0", "(2,1):(3,0)"]
        {
            check_left(&l(a), &left_inverse(&l(a)).unwrap());
        }
    }

    #[test]
    fn skips_stride_zero_and_duplicates() {
        // pycute stops at the stride-0 leaf; skipping it gives the full inverse.
        let a = l("(2,4):(0,1)");
        let r = right_inverse(&a).unwrap();
        assert_eq!(r.to_string(), "4:2");
        check_right(&a, &r);
        let a = l("(2,2,2):(1,1,2)");
        let r = right_inverse(&a).unwrap();
        assert_eq!(r.to_string(), "(2,2):(1,4)");
        check_right(&a, &r);
        assert_eq!(right_inverse(&l("(4,3):(-1,4)")).unwrap().to_string(), "1:0");
    }

    #[test]
    fn left_inverse_inadmissible() {
        let e = left_inverse(&l("(4,2):(1,0)")).unwrap_err();
        assert!(
            matches!(&e, AlgebraError::Inadmissible { op: "left_inverse", condition } if condition.starts_with("injectivity")),
            "{e}"
        );
        let e = left_inverse(&l("(2,2):(1,3)")).unwrap_err();
        assert!(
            matches!(&e, AlgebraError::Inadmissible { op: "left_inverse", condition } if condition.starts_with("left inverse divisibility: 3 % 2 != 0")),
            "{e}"
        );
        assert!(matches!(left_inverse(&l("(2,2):(1,1)")), Err(AlgebraError::Inadmissible { .. })));
    }
}
