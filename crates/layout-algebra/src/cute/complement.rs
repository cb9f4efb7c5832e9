//! `complement(A, M)`: the layout that fills the gaps of `A` up to `M` (spec §C.3).

use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};
use crate::layout::Layout;

use super::coalesce::{coalesce, filter};
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
/// `ceil_div(24, 8) : 8 = 3:8`, so `R = (2,3):(1,8)`. Others (spec §C.3):
/// `complement(4:1,24) = 6:4`, `complement(6:4,24) = 4:1`, `complement((4,6):(1,4),24) = 1:0`,
/// `complement((2,4):(1,6),24) = 3:2`, `complement((2,2):(1,6),24) = (3,2):(2,12)`.
pub fn complement(a: &Layout, cotarget: i64) -> Result<Layout> {
    let leaves = complement_leaves(a, cotarget, "complement", "stride divisibility")?;
    coalesce(&Layout::from_leaves(&leaves)?)
}

/// `complement(A, cosize(filter(A)))` (the C++ default): fills the holes inside `A`'s span only.
///
/// Example: `complement_default((2,2):(1,6)) = 3:2` (`cosize = 8`: holes 2,4 → `3:2` covers
/// {0,2,4}; the final mode `ceil_div(8,12) = 1` vanishes).
pub fn complement_default(a: &Layout) -> Result<Layout> {
    let cotarget = filter(a)?.cosize()?;
    complement(a, cotarget)
}

/// The uncoalesced leaves of `complement(a, cotarget)`: one gap-filling leaf before every sorted
/// leaf of `a`, then the tail `ceil_div(cotarget, cur) : cur`. `label` names the divisibility
/// condition in errors (left_inverse reuses this with its own wording).
pub(crate) fn complement_leaves(a: &Layout, cotarget: i64, op: &'static str, label: &str) -> Result<Vec<(i64, i64)>> {
    if cotarget < 1 {
        return Err(AlgebraError::NotPositive { what: "complement cotarget", value: cotarget.to_string() });
    }
    let mut leaves: Vec<(i64, i64)> = a.leaf_modes().into_iter().filter(|&(s, d)| s != 1 && d != 0).collect();
    if let Some(&(s, d)) = leaves.iter().find(|&&(_, d)| d < 0) {
        return Err(inadmissible(op, format!("non-negative strides: mode {s}:{d} of {a} has a negative stride")));
    }
    leaves.sort_by_key(|&(s, d)| (d, s));
    let mut out = Vec::with_capacity(leaves.len() + 1);
    let mut cur: i64 = 1;
    let mut prev: Option<(i64, i64)> = None;
    for (s, d) in leaves {
        if d < cur {
            let (ps, pd) = prev.unwrap_or((1, 1));
            return Err(inadmissible(
                op,
                format!("injectivity: stride {d} of mode {s}:{d} < {cur} = {ps}*{pd}, the extent of mode {ps}:{pd} (in {a})"),
            ));
        }
        if d.floor_mod(&cur)? != 0 {
            return Err(inadmissible(
                op,
                format!(
                    "{label}: {d} % {cur} != 0 (stride of mode {s}:{d} by the extent of the modes before it, in {a})"
                ),
            ));
        }
        out.push((d.floor_div(&cur)?, cur));
        cur = s.mul(&d)?;
        prev = Some((s, d));
    }
    out.push((cotarget.ceil_div(&cur)?, cur));
    Ok(out)
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
