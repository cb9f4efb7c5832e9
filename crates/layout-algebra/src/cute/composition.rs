//! Functional composition `R = A ∘ B` (docs/layout-spec.md §C.2).

use crate::domain::{Decide, Truth};
use crate::error::{AlgebraError, Result};
use crate::int_tuple::{IntTuple, Tuple};
use crate::layout::Layout;

use super::algebra::{either, Algebra};
use super::tiler::Tiler;
use super::util::{by_mode, concat, from_leaves, inadmissible, plain};

/// `R = A ∘ B`, the layout with `R(c) = A(B(c))` and `compatible(B, R)`.
///
/// Math (CuTe / pycute):
/// * **Right-distributivity.** If `B` has a tuple shape, `R = (A∘B_0, A∘B_1, …)` mode by mode
///   (recursively), so `R` refines `B`'s shape.
/// * **Integral `B = s:d`.** If `d == 0`, `R = s:0`. Otherwise take the leaves `s_i:d_i` of
///   `coalesce(A)` and start with `rest_shape = s`, `rest_stride = d`. For every leaf but the last:
///   *stride divisibility* `s_i % rest_stride == 0 or rest_stride % s_i == 0` must hold;
///   `new_shape = min(max(1, s_i / rest_stride), rest_shape)`; *shape divisibility*
///   `rest_shape % new_shape == 0` must hold; if `new_shape ≠ 1` append
///   `new_shape : rest_stride·d_i`; then `rest_shape /= new_shape`,
///   `rest_stride = ceil_div(rest_stride, s_i)`. Finally append
///   `rest_shape : rest_stride·d_last` if `rest_shape ≠ 1` or nothing was appended.
///   Once `rest_shape == 1` the remaining leaves only move the stride of a size-1 mode, so the
///   divisibility conditions are not checked there.
/// * **Right-distributivity condition** (checked here, not by CuTe): the by-mode split is only
///   `A∘B` if `A(x + y) == A(x) + A(y)` for the offsets `x`, `y` of different modes of `B`, i.e.
///   if the coordinates that all modes of `B` put into each non-last mode `s_k` of
///   `coalesce(A)` add up to less than `s_k` (no carry). E.g. `(6,4):(1,10) ∘ (3,2):(2,3)`
///   would split into `(3,2):(2,3)` — both modes in the 6-mode, reaching `4 + 3 = 7 ≥ 6`, so at
///   `c = (2,1)` it gives `7` while `A(B(c)) = A(7) = 11`: inadmissible.
///
/// `R(i) == A(B(i))` for every `i < size(B)` with `B(i) < size(A)`. Past `size(A)`, `A` is taken
/// as extended along the last leaf of `coalesce(A)` (which equals `A`'s own extension unless `A`
/// ends in size-1 leaves).
///
/// Errors: `Inadmissible` naming the failed condition with its numbers, e.g.
/// `stride divisibility: 6 % 4 != 0 and 4 % 6 != 0 (…)`, `shape divisibility: 6 % 4 != 0 (…)`,
/// `right-distributivity: …`; `Inadmissible` for a negative stride of `B`.
///
/// Examples (docs/layout-spec.md §C.2):
/// * `(6,2):(8,2) ∘ (4,3):(3,1) = ((2,2),3):((24,2),8)`: mode `4:3` — leaf `6:8`:
///   `6 % 3 == 0`, new shape `min(2,4) = 2` → `2:24`, rest `2`, rest stride `1`; last leaf `2:2`
///   → `2:2`; mode `3:1` — leaf `6:8`: new shape `min(6,3) = 3` → `3:8`, done.
/// * `20:2 ∘ (5,4):(4,1) = (5,4):(8,2)`; `(4,6,8,10):(2,3,5,7) ∘ 6:12 = (2,3):(9,5)`.
pub fn composition(a: &Layout, b: &Layout) -> Result<Layout> {
    Algebra::exact().composition(a, b)
}

/// The symbolic reading of the rules above (one implementation for every domain):
/// * `stride divisibility` must be proved one way round: if `rest_stride | s_i` the new shape is
///   `q = s_i / rest_stride` capped at `rest_shape`, the cap decided by `q >= rest_shape`, or by
///   `rest_shape % q == 0` (then `q <= rest_shape`), or `q % rest_shape == 0` (then
///   `q >= rest_shape`); if `s_i | rest_stride` nothing is appended and the stride becomes
///   `rest_stride / s_i`. CuTe does the same case split with `shape_div` and *assumes*
///   divisibility for dynamic values; here it must follow from the facts.
/// * A size that is 1 only at some points (`ceil_div(M, 16)`) is kept as a mode: same function.
/// * `right-distributivity` needs `load_k < s_k` proved.
impl<T: Decide> Algebra<'_, T> {
    /// [`composition`] in this domain.
    pub fn composition(&self, a: &Layout<T>, b: &Layout<T>) -> Result<Layout<T>> {
        let flat = self.coalesce(a)?.leaf_modes();
        if flat.is_empty() {
            return Err(AlgebraError::Invalid("composition: coalesce returned no leaf".into()));
        }
        let mut c = Composer { alg: *self, a, b, load: vec![T::constant(0); flat.len() - 1], flat };
        let r = c.compose_tuple(b.shape(), b.stride())?;
        // Right-distributivity: A(x + y) == A(x) + A(y) only if adding the coordinates of x and y
        // in the mixed radix of coalesce(A) carries nowhere (the last mode is unbounded).
        for (k, (load, (s, d))) in c.load.iter().zip(&c.flat).enumerate() {
            let fits = self.lt(load, s);
            if !fits.proved() {
                let (load, s, d) = (self.show(load), self.show(s), self.show(d));
                let reach = match fits {
                    Truth::Unknown => {
                        format!("may reach coordinate {} >= {} (cannot prove {load} < {s})", load.bare(), s.bare())
                    }
                    _ => format!("reach coordinate {} >= {}", load.bare(), s.bare()),
                };
                return Err(inadmissible(
                    "composition",
                    format!(
                        "right-distributivity: the modes of B together {reach} in mode {k} ({s}:{d}) of coalesce(A), so R(c) != A(B(c)) (in {a} ∘ {b})"
                    ),
                ));
            }
        }
        self.canon_layout(&r)
    }
}

/// State of one composition: the leaves of `coalesce(A)` and, per leaf but the last, the
/// largest coordinate that the modes of `B` composed so far can add up to in it.
struct Composer<'a, 'f, T: Decide> {
    alg: Algebra<'f, T>,
    a: &'a Layout<T>,
    b: &'a Layout<T>,
    flat: Vec<(T, T)>,
    load: Vec<T>,
}

impl<T: Decide> Composer<'_, '_, T> {
    fn compose_tuple(&mut self, s: &Tuple<T>, d: &Tuple<T>) -> Result<Layout<T>> {
        match (s, d) {
            (Tuple::Int(s), Tuple::Int(d)) => self.compose_int(s, d),
            (Tuple::Tuple(ss), Tuple::Tuple(ds)) if ss.len() == ds.len() => {
                let parts = ss.iter().zip(ds).map(|(s, d)| self.compose_tuple(s, d)).collect::<Result<Vec<_>>>()?;
                concat(&parts)
            }
            _ => Err(AlgebraError::NotCongruent {
                what: "composition: shape and stride of B",
                lhs: s.to_string(),
                rhs: d.to_string(),
            }),
        }
    }

    fn compose_int(&mut self, s: &T, d: &T) -> Result<Layout<T>> {
        let (alg, a, b) = (self.alg, self.a, self.b);
        let zero = T::constant(0);
        if alg.is_zero(d) {
            return from_leaves(&[(s.clone(), zero)]);
        }
        let positive = alg.lt(&zero, d);
        if !positive.proved() {
            let (sh, dh) = (alg.show(s), alg.show(d));
            let why = match positive {
                Truth::Unknown => format!("cannot prove {} > 0", dh.bare()),
                _ => format!("stride {} < 0", dh.bare()),
            };
            return Err(inadmissible(
                "composition",
                format!("non-negative strides of B: mode {sh}:{dh} has {why} (in {a} ∘ {b})"),
            ));
        }
        let Some(((_, last_stride), init)) = self.flat.split_last() else {
            return Err(AlgebraError::Invalid("composition: coalesce returned no leaf".into()));
        };
        let last_stride = last_stride.clone();
        let init = init.to_vec();
        let mut out: Vec<(T, T)> = Vec::new();
        let mut rest_shape = s.clone();
        let mut rest_stride = d.clone();
        for (k, (cs, cd)) in init.iter().enumerate() {
            if alg.is_one(&rest_shape) {
                // Only moves the stride of a size-1 mode: no condition applies.
                rest_stride = alg.ceil_div(&rest_stride, cs)?;
                continue;
            }
            let context =
                || format!("mode {k} of coalesce(A) against B's mode {}:{}, in {a} ∘ {b}", alg.show(s), alg.show(d));
            let r = rest_stride.clone();
            let stride_divides_shape = alg.divides(cs, &r);
            let (new_shape, next_stride) = if stride_divides_shape.proved() {
                // r | cs, so r <= cs and ceil(r / cs) = 1.
                let q = alg.exact_div(cs, &r)?;
                (capped_shape(alg, &q, &rest_shape, &context)?, T::constant(1))
            } else {
                let shape_divides_stride = alg.divides(&r, cs);
                if !shape_divides_stride.proved() {
                    let (x, y) = (alg.show(cs), alg.show(&r));
                    let why = if either(stride_divides_shape, shape_divides_stride) == Truth::Refuted {
                        format!("{x} % {y} != 0 and {y} % {x} != 0")
                    } else {
                        format!("cannot prove {x} % {y} == 0 or {y} % {x} == 0")
                    };
                    return Err(inadmissible("composition", format!("stride divisibility: {why} ({})", context())));
                }
                // cs | r: the whole mode is stepped over (new shape 1).
                (T::constant(1), alg.exact_div(&r, cs)?)
            };
            if !alg.is_one(&new_shape) {
                out.push((new_shape.clone(), r.mul(cd)?));
                // coordinates 0, r, …, r·(n-1) in mode k (r·(n-1) < cs by construction)
                self.load[k] = self.load[k].add(&r.mul(&new_shape.sub(&T::constant(1))?)?)?;
            }
            rest_shape = alg.exact_div(&rest_shape, &new_shape)?;
            rest_stride = next_stride;
        }
        if !alg.is_one(&rest_shape) || out.is_empty() {
            // The stride of a size-1 mode is irrelevant: do not fail on its overflow.
            let stride = match rest_stride.mul(&last_stride) {
                Ok(v) => v,
                Err(_) if alg.is_one(&rest_shape) => zero,
                Err(e) => return Err(e),
            };
            out.push((rest_shape, stride));
        }
        from_leaves(&out)
    }
}
/// `min(q, rest_shape)` where `rest_shape % min(q, rest_shape) == 0` must hold (the shape
/// divisibility condition): decided by `q >= rest_shape`, `rest_shape % q == 0` (which implies
/// `q <= rest_shape`) or `q % rest_shape == 0` (which implies `q >= rest_shape`).
fn capped_shape<T: Decide>(alg: Algebra<'_, T>, q: &T, rest_shape: &T, context: &dyn Fn() -> String) -> Result<T> {
    let covers = alg.le(rest_shape, q);
    if covers.proved() {
        return Ok(rest_shape.clone());
    }
    let divides = alg.divides(rest_shape, q);
    if divides.proved() {
        return Ok(q.clone());
    }
    if alg.divides(q, rest_shape).proved() {
        return Ok(rest_shape.clone());
    }
    let (n, m) = (alg.show(rest_shape), alg.show(q));
    let why = if covers == Truth::Refuted && divides == Truth::Refuted {
        format!("{n} % {m} != 0")
    } else {
        format!("cannot prove {n} % {m} == 0 or {} >= {}", m.bare(), n.bare())
    };
    Err(inadmissible("composition", format!("shape divisibility: {why} ({})", context())))
}

/// Composition with a [`Tiler`]: `Keep` returns `A`, `Layout(B)` is [`composition`], and
/// `ByMode([T0, T1, …])` composes mode `i` of `A` with `Ti` and keeps the modes past the end
/// (more tiler modes than layout modes is an `Incompatible` error).
///
/// Example: `(12,(4,8)):(59,(13,1)) ∘ <3:4, 8:2> = (3,(2,4)):(236,(26,1))` — mode 0:
/// `12:59 ∘ 3:4 = 3:236`; mode 1: `(4,8):(13,1) ∘ 8:2 = (2,4):(26,1)`.
pub fn composition_by(a: &Layout, tiler: &Tiler) -> Result<Layout> {
    Algebra::exact().composition_by(a, tiler)
}

impl<T: Decide> Algebra<'_, T> {
    /// [`composition_by`] in this domain.
    pub fn composition_by(&self, a: &Layout<T>, tiler: &Tiler<T>) -> Result<Layout<T>> {
        match tiler {
            Tiler::Keep => plain(a),
            Tiler::Layout(b) => self.composition(a, b),
            Tiler::ByMode(parts) => by_mode(a, parts, "composition_by", |m, t| self.composition_by(m, t)),
        }
    }
}

/// CuTe `compatible(A, B)` on shapes: an integer `A` is compatible with any `B` of the same
/// size; a tuple `A` only with a tuple `B` of the same rank whose modes are compatible with
/// `A`'s. (`B` refines `A`.) Example: `compatible((4,3), ((2,2),3))` is true,
/// `compatible((4,3), (12))` and `compatible((4,3), 12)` are false.
pub fn compatible(a: &IntTuple, b: &IntTuple) -> bool {
    match (a, b) {
        (Tuple::Int(_), _) => a.size().ok() == b.size().ok(),
        (Tuple::Tuple(x), Tuple::Tuple(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| compatible(p, q)),
        (Tuple::Tuple(_), Tuple::Int(_)) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::{parse_int_tuple, parse_layout};

    fn l(s: &str) -> Layout {
        parse_layout(s).unwrap()
    }

    fn compose(a: &str, b: &str) -> Layout {
        let (a, b) = (l(a), l(b));
        let r = composition(&a, &b).unwrap();
        check_post(&a, &b, &r);
        r
    }

    /// `compatible(B, R)` and `R(i) == A(B(i))` on the whole domain of B.
    fn check_post(a: &Layout, b: &Layout, r: &Layout) {
        assert!(compatible(b.shape(), r.shape()), "compatible({b}, {r})");
        for i in 0..b.size().unwrap() {
            let bi = b.crd_to_offset(&Tuple::Int(i)).unwrap();
            assert_eq!(
                r.crd_to_offset(&Tuple::Int(i)).unwrap(),
                a.crd_to_offset(&Tuple::Int(bi)).unwrap(),
                "{a} ∘ {b} at {i}"
            );
        }
    }

    #[test]
    fn spec_c2_examples() {
        assert_eq!(compose("(6,2):(8,2)", "(4,3):(3,1)").to_string(), "((2,2),3):((24,2),8)");
        assert_eq!(compose("20:2", "(5,4):(4,1)").to_string(), "(5,4):(8,2)");
        assert_eq!(compose("(10,2):(16,4)", "(5,4):(1,5)").to_string(), "(5,(2,2)):(16,(80,4))");
        assert_eq!(compose("(4,6,8,10):(2,3,5,7)", "6:12").to_string(), "(2,3):(9,5)");
        let a = l("(12,(4,8)):(59,(13,1))");
        let t = Tiler::ByMode(vec![Tiler::Layout(l("3:4")), Tiler::Layout(l("8:2"))]);
        assert_eq!(composition_by(&a, &t).unwrap().to_string(), "(3,(2,4)):(236,(26,1))");
        let t = Tiler::from_shape(&parse_int_tuple("(3,8)").unwrap()).unwrap();
        assert_eq!(composition_by(&a, &t).unwrap().to_string(), "(3,(4,2)):(59,(13,1))");
    }

    #[test]
    fn spec_c2_symbolic_example_with_numbers() {
        // (3,6,2,8):(w,x,y,z) ∘ 16:9 = (1,2,2,4):(9w,3x,y,z), w,x,y,z = 1000,100,10,1
        // (non-mergeable). The size-1 mode of the doc is dropped here: compare as functions.
        let r = compose("(3,6,2,8):(1000,100,10,1)", "16:9");
        assert_eq!(r.to_string(), "(2,2,4):(300,10,1)");
        assert_eq!(r.offsets().unwrap(), l("(1,2,2,4):(9000,300,10,1)").offsets().unwrap());
        // (3,6,2,8)/72 = (1,1,1,4): composing with 4:72 keeps only the last mode, stride 2z.
        assert_eq!(parse_int_tuple("(3,6,2,8)").unwrap().shape_div(72).unwrap().to_string(), "(1,1,1,4)");
        assert_eq!(compose("(3,6,2,8):(1000,100,10,1)", "4:72").to_string(), "4:2");
    }

    #[test]
    fn more_cases() {
        assert_eq!(compose("(4,2):(1,4)", "5:0").to_string(), "5:0");
        assert_eq!(compose("(4,(3,2)):(5,(20,60))", "12:2").to_string(), "12:10");
        assert_eq!(compose("(4,(3,2)):(5,(21,60))", "6:2").to_string(), "(2,3):(10,21)");
        // B reaching past size(A) extends along the last mode.
        assert_eq!(compose("(4,3):(1,10)", "(2,5):(2,4)").to_string(), "(2,5):(2,10)");
        // identity and nesting of B
        let a = l("((16,7),(16,7)):((16,256),(1,1792))");
        let id = Layout::column_major(a.shape().clone()).unwrap();
        let r = composition(&a, &id).unwrap();
        check_post(&a, &id, &r);
        assert_eq!(r.offsets().unwrap(), a.offsets().unwrap());
        // origins are not propagated
        let r = composition(&l("8:1 origin 5"), &l("4:2 origin 3")).unwrap();
        assert!(r.has_default_origin());
    }

    #[test]
    fn inadmissible_cases_name_the_condition() {
        let e = composition(&l("(6,4):(1,7)"), &l("3:4")).unwrap_err();
        match e {
            AlgebraError::Inadmissible { op, condition } => {
                assert_eq!(op, "composition");
                assert!(condition.starts_with("stride divisibility: 6 % 4 != 0 and 4 % 6 != 0"), "{condition}");
            }
            other => panic!("{other:?}"),
        }
        let e = composition(&l("(4,6):(1,5)"), &l("6:1")).unwrap_err();
        assert!(
            matches!(&e, AlgebraError::Inadmissible { condition, .. } if condition.starts_with("shape divisibility: 6 % 4 != 0")),
            "{e}"
        );
        assert!(matches!(composition(&l("8:1"), &l("4:-1")), Err(AlgebraError::Inadmissible { .. })));
        // modes of B that overlap in one mode of A: CuTe would return (3,2):(2,3), which is
        // 7 at (2,1) where A(B(2,1)) = A(7) = 11.
        let e = composition(&l("(6,4):(1,10)"), &l("(3,2):(2,3)")).unwrap_err();
        assert!(
            matches!(&e, AlgebraError::Inadmissible { condition, .. } if condition.starts_with("right-distributivity: the modes of B together reach coordinate 7 >= 6 in mode 0 (6:1)")),
            "{e}"
        );
        // exactly at the boundary: 4 + 2 = 6 carries into the next mode (A(6) = 10, not 6)
        let e = composition(&l("(6,4):(1,10)"), &l("(3,2):(2,2)")).unwrap_err();
        assert!(
            matches!(&e, AlgebraError::Inadmissible { condition, .. } if condition.starts_with("right-distributivity: the modes of B together reach coordinate 6 >= 6")),
            "{e}"
        );
        assert_eq!(compose("(8,4):(1,10)", "(3,2):(2,2)").to_string(), "(3,2):(2,2)");
        // the same modes fit in a larger mode, and anything fits in the last (unbounded) mode
        assert_eq!(compose("(12,4):(1,20)", "(3,2):(2,3)").to_string(), "(3,2):(2,3)");
        assert_eq!(compose("6:1", "(3,2):(2,3)").to_string(), "(3,2):(2,3)");
        // a size-1 B checks nothing (pycute would assert on 6 vs 4 here)
        assert_eq!(compose("(6,4):(1,7)", "1:4").size().unwrap(), 1);
    }

    #[test]
    fn by_mode_errors_and_keep() {
        let a = l("(4,6):(1,4)");
        assert!(matches!(
            composition_by(&a, &Tiler::parse("<2:1,2:1,2:1>").unwrap()),
            Err(AlgebraError::Incompatible { .. })
        ));
        assert_eq!(composition_by(&a, &Tiler::parse("<_,3:2>").unwrap()).unwrap().to_string(), "(4,3):(1,8)");
        assert_eq!(composition_by(&a, &Tiler::Keep).unwrap(), a);
        assert_eq!(composition_by(&l("8:3"), &Tiler::parse("<4:2>").unwrap()).unwrap().to_string(), "(4):(6)");
    }

    #[test]
    fn compatible_is_refinement() {
        let t = |s: &str| parse_int_tuple(s).unwrap();
        assert!(compatible(&t("(4,3)"), &t("((2,2),3)")));
        assert!(compatible(&t("12"), &t("((2,2),3)")));
        assert!(!compatible(&t("(4,3)"), &t("12")));
        assert!(!compatible(&t("(4,3)"), &t("(12)")));
        assert!(!compatible(&t("(4,3)"), &t("(3,4)")));
    }

    #[test]
    fn overflow_is_an_error_not_a_panic() {
        let a = l("8:2305843009213693952");
        assert!(matches!(composition(&a, &l("2:8")), Err(AlgebraError::Overflow { .. })));
        // a huge but valid layout composes fine
        let a = l("(2,4611686018427387904):(4611686018427387904,1)");
        assert_eq!(composition(&a, &l("4:1")).unwrap().to_string(), "(2,2):(4611686018427387904,1)");
    }
}
