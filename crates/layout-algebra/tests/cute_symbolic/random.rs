//! Static agreement and random dynamic layouts against the `i64` algebra.

use std::collections::HashMap;

use layout_algebra::cute::{self, Algebra, SymFacts, Tiler};
use layout_algebra::{AlgebraError, IndexValue, Layout, SymExpr, Tuple};

use crate::rng::Rng;
use crate::support::*;

#[test]
fn static_layouts_give_the_i64_answers_in_the_symbolic_domain() {
    // One implementation: on constant leaves the symbolic algebra is the i64 algebra, with the
    // same results and the same error messages.
    let mut rng = Rng(0x5eed_cafe);
    let none = SymFacts::new();
    let alg = Algebra::new(&none);
    let mut ok = 0;
    for _ in 0..400 {
        let a = random_static(&mut rng);
        let b = random_static(&mut rng);
        let (sa, sb) = (lift(&a), lift(&b));
        let same = |x: Result<Layout>, y: Result<Layout<SymExpr>>| match (x, y) {
            (Ok(x), Ok(y)) => {
                assert_eq!(lift(&x), y, "{a} / {b}");
                1
            }
            (Err(x), Err(y)) => {
                assert_eq!(x, y, "{a} / {b}");
                0
            }
            (x, y) => panic!("{a} / {b}: {x:?} vs {y:?}"),
        };
        ok += same(cute::coalesce(&a), alg.coalesce(&sa));
        ok += same(cute::filter(&a), alg.filter(&sa));
        ok += same(cute::composition(&a, &b), alg.composition(&sa, &sb));
        ok += same(cute::complement(&a, 48), alg.complement(&sa, &SymExpr::Const(48)));
        ok += same(cute::complement_default(&a), alg.complement_default(&sa));
        let t = Tiler::Layout(b.clone());
        ok += same(cute::logical_divide(&a, &t), alg.logical_divide(&sa, &lift_tiler(&t)));
        ok += same(cute::zipped_divide(&a, &t), alg.zipped_divide(&sa, &lift_tiler(&t)));
        ok += same(cute::logical_product(&a, &t), alg.logical_product(&sa, &lift_tiler(&t)));
        ok += same(cute::blocked_product(&a, &b), alg.blocked_product(&sa, &sb));
        ok += same(cute::raked_product(&a, &b), alg.raked_product(&sa, &sb));
        ok += same(cute::right_inverse(&a), alg.right_inverse(&sa));
        ok += same(cute::left_inverse(&a), alg.left_inverse(&sa));
    }
    assert!(ok > 1500, "only {ok} admissible cases");
}

// ---------------------------------------------------------------------------------------------
// random dynamic layouts

/// Nested shape of 1–4 leaves with placeholders; returns the leaf count and a builder.
fn random_structure(rng: &mut Rng) -> Tuple<()> {
    let rank = 1 + rng.below(3);
    let modes: Vec<Tuple<()>> = (0..rank)
        .map(|_| if rng.below(3) == 0 { Tuple::Tuple(vec![Tuple::Int(()); 2]) } else { Tuple::Int(()) })
        .collect();
    if modes.len() == 1 {
        modes.into_iter().next().unwrap()
    } else {
        Tuple::Tuple(modes)
    }
}

/// Compact strides over the leaves in a random order (prefix products), each scaled by 1 or 2,
/// sometimes one stride replaced by a random one: mostly admissible, sometimes not.
fn random_layout_from(
    rng: &mut Rng,
    leaves: Vec<SymExpr>,
    structure: &Tuple<()>,
    extra: &[SymExpr],
) -> Layout<SymExpr> {
    let n = leaves.len();
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut strides = vec![SymExpr::Const(0); n];
    let mut cur = SymExpr::Const(1);
    for &i in &order {
        if rng.below(4) == 0 {
            cur = cur.mul(&SymExpr::Const(2)).unwrap();
        }
        strides[i] = cur.clone();
        cur = cur.mul(&leaves[i]).unwrap();
    }
    if rng.below(4) == 0 {
        let i = rng.below(n);
        strides[i] = rng.pick(extra);
    }
    Layout::new(structure.unflatten(&leaves).unwrap(), structure.unflatten(&strides).unwrap()).unwrap()
}

fn random_dynamic(rng: &mut Rng) -> Layout<SymExpr> {
    let structure = random_structure(rng);
    let choices = [
        SymExpr::Const(1),
        SymExpr::Const(2),
        SymExpr::Const(4),
        SymExpr::Const(3),
        SymExpr::sym("M"),
        SymExpr::sym("N"),
        leaf("2*M"),
        leaf("4*N"),
    ];
    let leaves: Vec<SymExpr> = (0..structure.leaf_count()).map(|_| rng.pick(&choices)).collect();
    let extra =
        [SymExpr::Const(0), SymExpr::Const(1), SymExpr::Const(8), SymExpr::sym("M"), leaf("2*N"), SymExpr::sym("K")];
    random_layout_from(rng, leaves, &structure, &extra)
}

fn random_static(rng: &mut Rng) -> Layout {
    let structure = random_structure(rng);
    let leaves: Vec<SymExpr> =
        (0..structure.leaf_count()).map(|_| SymExpr::Const(rng.pick(&[1, 2, 3, 4, 6]))).collect();
    let extra = [SymExpr::Const(0), SymExpr::Const(1), SymExpr::Const(5), SymExpr::Const(12)];
    let l = random_layout_from(rng, leaves, &structure, &extra);
    eval(&l, &HashMap::new())
}

fn random_static_tiler(rng: &mut Rng) -> Tiler {
    match rng.below(3) {
        0 => Tiler::Layout(random_static(rng)),
        1 => Tiler::parse(rng.pick(&["(2,2)", "(4,2)", "4", "8:1", "(2,2):(1,4)"])).unwrap(),
        _ => Tiler::parse(rng.pick(&["<2:1,_>", "<_,2:1>", "<4:1,2:1>", "<(2,2):(1,4),_>"])).unwrap(),
    }
}

/// Up to 6 points with every symbol >= 2 (see `logical_divide_of_a_dynamic_matrix_by_a_static_tile`
/// for why size-1 extents are compared on the domain only) where `a` and `b` are small, so that
/// comparing functions element by element stays cheap.
fn random_points(
    rng: &mut Rng,
    facts: &SymFacts,
    values: &[i64],
    a: &Layout<SymExpr>,
    b: &Layout<SymExpr>,
) -> Vec<HashMap<String, i64>> {
    let mut out = Vec::new();
    for _ in 0..60 {
        let p = env(&[("M", rng.pick(values)), ("N", rng.pick(values)), ("K", rng.pick(values))]);
        if facts.hold_at(&p) && eval(a, &p).size().unwrap() <= 96 && eval(b, &p).size().unwrap() <= 48 {
            out.push(p);
            if out.len() == 6 {
                break;
            }
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    proved: usize,
    unprovable: usize,
}

/// A symbolic result checked at the points against the concrete operation on the evaluated
/// arguments: same function (and, by the size check, same domain). An error must be a named
/// admissibility condition.
fn check_random(
    what: &str,
    tally: &mut Tally,
    sym: Result<Layout<SymExpr>>,
    points: &[HashMap<String, i64>],
    concrete: impl Fn(&HashMap<String, i64>) -> Result<Layout>,
) {
    match sym {
        Ok(r) => {
            tally.proved += 1;
            for p in points {
                let want =
                    concrete(p).unwrap_or_else(|e| panic!("{what}: proved symbolically as {r}, but at {p:?}: {e}"));
                assert_same_function(&eval(&r, p), &want, &format!("{what} = {r} at {p:?}"));
            }
        }
        Err(AlgebraError::Inadmissible { .. } | AlgebraError::NotPositive { .. }) => tally.unprovable += 1,
        // a tiler of higher rank than the layout: a structural error, the same for numbers
        Err(e @ AlgebraError::Incompatible { .. }) => {
            assert!(matches!(concrete(&points[0]), Err(AlgebraError::Incompatible { .. })), "{what}: {e}")
        }
        Err(e) => panic!("{what}: unexpected error {e:?}"),
    }
}

type Result<T> = std::result::Result<T, AlgebraError>;

#[test]
fn random_dynamic_layouts_agree_with_the_concrete_algebra_at_every_point() {
    let fact_sets = [
        (SymFacts::new(), vec![2i64, 3, 4, 5, 8]),
        (SymFacts::new().divisible("M", 4).divisible("N", 8).at_least("K", 2), vec![2, 4, 8, 16, 24]),
    ];
    let mut rng = Rng(0x0dd_ba11);
    let mut tally = Tally::default();
    for (facts, values) in &fact_sets {
        let alg = Algebra::new(facts);
        for case in 0..200 {
            let a = random_dynamic(&mut rng);
            let b = if case % 2 == 0 { random_dynamic(&mut rng) } else { lift(&random_static(&mut rng)) };
            let t = random_static_tiler(&mut rng);
            let st = lift_tiler(&t);
            let points = random_points(&mut rng, facts, values, &a, &b);
            if points.is_empty() {
                continue;
            }
            let at = |l: &Layout<SymExpr>, p: &HashMap<String, i64>| eval(l, p);
            check_random(&format!("coalesce({a})"), &mut tally, alg.coalesce(&a), &points, |p| {
                cute::coalesce(&at(&a, p))
            });
            check_random(&format!("filter({a})"), &mut tally, alg.filter(&a), &points, |p| cute::filter(&at(&a, p)));
            // composition: compared on the domain of A (see check_composition)
            match alg.composition(&a, &b) {
                Ok(r) => {
                    tally.proved += 1;
                    check_composition(&format!("{a} ∘ {b}"), &r, &a, &b, &points);
                }
                Err(e) => {
                    condition(&e);
                    tally.unprovable += 1;
                }
            }
            let cot = a.size().unwrap().mul(&SymExpr::Const(2)).unwrap();
            check_random(&format!("complement({b}, {cot})"), &mut tally, alg.complement(&b, &cot), &points, |p| {
                cute::complement(&at(&b, p), cot.eval(p).unwrap())
            });
            for (name, sym, conc) in [
                (
                    "logical_divide",
                    Algebra::<SymExpr>::logical_divide as fn(&_, &_, &_) -> _,
                    cute::logical_divide as fn(&_, &_) -> _,
                ),
                ("zipped_divide", Algebra::zipped_divide, cute::zipped_divide),
                ("tiled_divide", Algebra::tiled_divide, cute::tiled_divide),
                ("logical_product", Algebra::logical_product, cute::logical_product),
                ("zipped_product", Algebra::zipped_product, cute::zipped_product),
            ] {
                check_random(&format!("{name}({a}, {t})"), &mut tally, sym(&alg, &a, &st), &points, |p| {
                    conc(&at(&a, p), &t)
                });
            }
            check_random(&format!("right_inverse({a})"), &mut tally, alg.right_inverse(&a), &points, |p| {
                cute::right_inverse(&at(&a, p))
            });
            check_random(&format!("left_inverse({a})"), &mut tally, alg.left_inverse(&a), &points, |p| {
                cute::left_inverse(&at(&a, p))
            });
            let bs = b.clone();
            check_random(
                &format!("blocked_product({a}, {bs})"),
                &mut tally,
                alg.blocked_product(&a, &bs),
                &points,
                |p| cute::blocked_product(&at(&a, p), &at(&bs, p)),
            );
            check_random(&format!("raked_product({bs}, {a})"), &mut tally, alg.raked_product(&bs, &a), &points, |p| {
                cute::raked_product(&at(&bs, p), &at(&a, p))
            });
        }
    }
    // both outcomes occur often: the generator is neither trivial nor hopeless
    assert!(tally.proved > 2000 && tally.unprovable > 300, "proved {}, unprovable {}", tally.proved, tally.unprovable);
}
