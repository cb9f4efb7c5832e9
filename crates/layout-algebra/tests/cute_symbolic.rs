//! The CuTe algebra on symbolic layouts (`Algebra<SymExpr>`): every result, evaluated at many
//! points allowed by the facts, is the `i64` result at that point; what cannot be proved is an
//! `Inadmissible` error naming the condition.

use std::collections::HashMap;

use layout_algebra::cute::{self, Algebra, SymFacts, Tiler};
use layout_algebra::{AlgebraError, IntTuple, Layout, SymExpr, Tuple};

// ---------------------------------------------------------------------------------------------
// symbolic layouts from text: leaves are products of integers and names (`16*M`)

fn leaf(text: &str) -> SymExpr {
    text.split('*').fold(SymExpr::Const(1), |acc, f| {
        let f = f.trim();
        let v = f.parse::<i64>().map(SymExpr::Const).unwrap_or_else(|_| SymExpr::sym(f));
        SymExpr::bin(layout_algebra::sym::BinOp::Mul, &acc, &v).unwrap()
    })
}

fn tuple(text: &str) -> Tuple<SymExpr> {
    fn parse(s: &[u8], at: &mut usize) -> Tuple<SymExpr> {
        if s[*at] == b'(' {
            *at += 1;
            let mut out = Vec::new();
            while s[*at] != b')' {
                out.push(parse(s, at));
                if s[*at] == b',' {
                    *at += 1;
                }
            }
            *at += 1;
            Tuple::Tuple(out)
        } else {
            let start = *at;
            while *at < s.len() && !b"(),:".contains(&s[*at]) {
                *at += 1;
            }
            Tuple::Int(leaf(std::str::from_utf8(&s[start..*at]).unwrap()))
        }
    }
    let mut at = 0;
    let t = parse(text.as_bytes(), &mut at);
    assert_eq!(at, text.len(), "{text}");
    t
}

/// `shape:stride` with symbolic leaves.
fn sl(text: &str) -> Layout<SymExpr> {
    let (s, d) = text.split_once(':').unwrap();
    Layout::new(tuple(s), tuple(d)).unwrap()
}

fn lift(l: &Layout) -> Layout<SymExpr> {
    let f = &mut |v: &i64| Ok::<_, AlgebraError>(SymExpr::Const(*v));
    Layout::new(l.shape().map(f).unwrap(), l.stride().map(f).unwrap()).unwrap()
}

fn lift_tiler(t: &Tiler) -> Tiler<SymExpr> {
    t.map(&mut |v: &i64| Ok(SymExpr::Const(*v))).unwrap()
}

fn eval_tuple(t: &Tuple<SymExpr>, env: &HashMap<String, i64>) -> IntTuple {
    t.map(&mut |e: &SymExpr| e.eval(env)).unwrap()
}

fn eval(l: &Layout<SymExpr>, env: &HashMap<String, i64>) -> Layout {
    Layout::new(eval_tuple(l.shape(), env), eval_tuple(l.stride(), env)).unwrap()
}

fn eval_tiler(t: &Tiler<SymExpr>, env: &HashMap<String, i64>) -> Tiler {
    t.map(&mut |e: &SymExpr| e.eval(env)).unwrap()
}

fn env(pairs: &[(&str, i64)]) -> HashMap<String, i64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// `R(i)` for every `i < size`, the same for both; sizes equal.
fn assert_same_function(sym_at_point: &Layout, concrete: &Layout, what: &str) {
    let n = concrete.size().unwrap();
    assert_eq!(sym_at_point.size().unwrap(), n, "{what}: size of {sym_at_point} vs {concrete}");
    for i in 0..n {
        let x = sym_at_point.crd_to_offset(&Tuple::Int(i)).unwrap();
        let y = concrete.crd_to_offset(&Tuple::Int(i)).unwrap();
        assert_eq!(x, y, "{what}: at {i}: {sym_at_point} vs {concrete}");
    }
}

fn condition(e: &AlgebraError) -> String {
    match e {
        AlgebraError::Inadmissible { condition, .. } => condition.clone(),
        other => panic!("expected Inadmissible, got {other:?}"),
    }
}

const POINTS: [i64; 9] = [1, 2, 3, 5, 16, 17, 32, 48, 100];

/// Checks `sym` (a result of the symbolic algebra) against `concrete(point)` at every point:
/// the same function, and (`exact_at` true for the point) the same layout.
fn check_points(
    what: &str,
    sym: &Layout<SymExpr>,
    points: &[HashMap<String, i64>],
    concrete: impl Fn(&HashMap<String, i64>) -> Layout,
    exact_at: impl Fn(&HashMap<String, i64>) -> bool,
) {
    for p in points {
        let (at, want) = (eval(sym, p), concrete(p));
        assert_same_function(&at, &want, &format!("{what} at {p:?}"));
        if exact_at(p) {
            assert_eq!(at, want, "{what} at {p:?}: {sym}");
        }
    }
}

/// `R(i) == A(B(i))` and `R(i) == (A ∘ B)(i)` with the concrete composition, for every `i` whose
/// `B(i)` is inside `A` (past `size(A)` the extension of `A` is a convention that differs where
/// the concrete `coalesce(A)` drops a trailing size-1 mode).
fn check_composition(
    what: &str,
    r: &Layout<SymExpr>,
    a: &Layout<SymExpr>,
    b: &Layout<SymExpr>,
    points: &[HashMap<String, i64>],
) {
    let mut inside = 0;
    for p in points {
        let (ap, bp, rp) = (eval(a, p), eval(b, p), eval(r, p));
        let concrete = cute::composition(&ap, &bp).unwrap_or_else(|e| panic!("{what} at {p:?}: {e}"));
        assert_eq!(rp.size().unwrap(), bp.size().unwrap(), "{what} at {p:?}");
        for i in 0..bp.size().unwrap() {
            let bi = bp.crd_to_offset(&Tuple::Int(i)).unwrap();
            if (0..ap.size().unwrap()).contains(&bi) {
                let ri = rp.crd_to_offset(&Tuple::Int(i)).unwrap();
                assert_eq!(ri, ap.crd_to_offset(&Tuple::Int(bi)).unwrap(), "{what} at {p:?}, {i}: {rp}");
                assert_eq!(ri, concrete.crd_to_offset(&Tuple::Int(i)).unwrap(), "{what} at {p:?}, {i}");
                inside += 1;
            }
        }
    }
    assert!(inside > 0, "{what}: no index inside A");
}

fn grid(names: &[&str], values: &[i64], facts: &SymFacts) -> Vec<HashMap<String, i64>> {
    let mut out = vec![HashMap::new()];
    for n in names {
        out = out
            .into_iter()
            .flat_map(|p| {
                values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.insert(n.to_string(), *v);
                    q
                })
            })
            .filter(|p| facts.hold_at(p))
            .collect();
    }
    assert!(!out.is_empty());
    out
}

#[test]
fn logical_divide_of_a_dynamic_matrix_by_a_static_tile() {
    let a = sl("(M,N):(1,M)");
    let tiler = Tiler::parse("(16,32)").unwrap();
    let none = SymFacts::new();
    let r = Algebra::new(&none).logical_divide(&a, &lift_tiler(&tiler)).unwrap();
    // CuTe's rest modes: ceil_div(M, 16) and ceil_div(N, 32).
    assert_eq!(r.to_string(), "((16,(M + 15) floordiv 16),(32,(N + 31) floordiv 32)):((1,16),(M,32 * M))");
    // (Symbols of value 1 are left out here: where size(A) is 1 the concrete coalesce(A) is 1:0,
    // whose extension past size(A) is 0 — outside A the two extensions are conventions; see
    // `composition_with_dynamic_operands` for the comparison on the domain of A.)
    let points = grid(&["M", "N"], &POINTS[1..], &none);
    let concrete = |p: &HashMap<String, i64>| cute::logical_divide(&eval(&a, p), &tiler).unwrap();
    // where no rest extent is 1 (the concrete algebra drops a size-1 mode's stride to 0)
    check_points("M,N ⊘ (16,32)", &r, &points, concrete, |p| p["M"] > 16 && p["N"] > 32);

    // with the facts M % 16 == 0 and N % 32 == 0 the rests divide exactly
    let facts = SymFacts::new().divisible("M", 16).divisible("N", 32);
    let r = Algebra::new(&facts).logical_divide(&a, &lift_tiler(&tiler)).unwrap();
    assert_eq!(r.to_string(), "((16,M floordiv 16),(32,N floordiv 32)):((1,16),(M,32 * M))");
    let points = grid(&["M", "N"], &[16, 32, 64, 96, 160], &facts);
    check_points("M,N ⊘ (16,32) exact", &r, &points, concrete, |p| p["M"] > 16 && p["N"] > 32);

    // a whole-layout tiler: (M,N):(1,M) coalesces to M*N:1
    let t16 = Tiler::parse("16:1").unwrap();
    let r = Algebra::new(&facts).logical_divide(&a, &lift_tiler(&t16)).unwrap();
    assert_eq!(r.to_string(), "(16,M * N floordiv 16):(1,16)");
    let concrete = |p: &HashMap<String, i64>| cute::logical_divide(&eval(&a, p), &t16).unwrap();
    check_points("M,N ⊘ 16:1", &r, &points, concrete, |_| true);
}

#[test]
fn zipped_tiled_flat_divides_of_a_dynamic_matrix() {
    let a = sl("(M,N,4):(1,M,M*N)");
    let tiler = Tiler::parse("<8:1,(2,4):(1,8)>").unwrap();
    let facts = SymFacts::new().divisible("M", 8).divisible("N", 32);
    let alg = Algebra::new(&facts);
    let t = lift_tiler(&tiler);
    let points = grid(&["M", "N"], &[8, 16, 24, 32, 64], &facts);
    let zd = alg.zipped_divide(&a, &t).unwrap();
    assert_eq!(
        zd.to_string(),
        "((8,(2,4)),(M floordiv 8,(4,N floordiv 32),4)):((1,(M,8 * M)),(8,(2 * M,32 * M),M * N))"
    );
    check_points(
        "zipped",
        &zd,
        &points,
        |p| cute::zipped_divide(&eval(&a, p), &tiler).unwrap(),
        |p| p["M"] > 8 && p["N"] > 32,
    );
    let td = alg.tiled_divide(&a, &t).unwrap();
    assert_eq!(td.to_string(), "((8,(2,4)),M floordiv 8,(4,N floordiv 32),4):((1,(M,8 * M)),8,(2 * M,32 * M),M * N)");
    check_points(
        "tiled",
        &td,
        &points,
        |p| cute::tiled_divide(&eval(&a, p), &tiler).unwrap(),
        |p| p["M"] > 8 && p["N"] > 32,
    );
    let fd = alg.flat_divide(&a, &t).unwrap();
    check_points(
        "flat",
        &fd,
        &points,
        |p| cute::flat_divide(&eval(&a, p), &tiler).unwrap(),
        |p| p["M"] > 8 && p["N"] > 32,
    );
    // mode 0 of the zipped divide is the composition with a tiler that covers every mode
    let covering = lift_tiler(&Tiler::parse("<8:1,(2,4):(1,8),_>").unwrap());
    assert_eq!(alg.zipped_divide(&a, &covering).unwrap().mode(0).unwrap(), alg.composition_by(&a, &covering).unwrap());
}

#[test]
fn composition_with_dynamic_operands() {
    let none = SymFacts::new();
    let alg = Algebra::new(&none);
    let points = grid(&["M", "N", "K"], &[1, 2, 5, 16, 17], &none);
    for (a, b, want) in [
        // A coalesces to M*N:1, so any B is admissible
        ("(M,N):(1,M)", "(16,N):(1,M)", "(16,N):(1,M)"),
        ("(M,N,4):(1,M,M*N)", "(4,M):(M*N,1)", "(4,M):(M * N,1)"),
        // B steps over a whole mode of A: stride 16 divided by 16
        ("(16,N):(1,K)", "(4,N):(4,16)", "(4,N):(4,K)"),
        // a dynamic stride of B that is a multiple of the static mode it skips
        ("(4,M):(1,8)", "3:4*K", "3:8 * K"),
        // broadcast B
        ("(M,N):(1,K)", "(3,N):(0,0)", "(3,N):(0,0)"),
    ] {
        let (sa, sb) = (sl(a), sl(b));
        let r = alg.composition(&sa, &sb).unwrap();
        assert_eq!(r.to_string(), want, "{a} ∘ {b}");
        check_composition(&format!("{a} ∘ {b}"), &r, &sa, &sb, &points);
    }
    // (M,N):(1,K) ∘ (16,4):(1,16) needs M >= 16 (or 16 % M == 0) for the 16 and
    // M / 16 >= 4 (or 4 % (M / 16) == 0) for the 4, and 15 + 16·3 < M: all provable from
    // M % 64 == 0 (so M >= 64), none without it
    let (a, b) = (sl("(M,N):(1,K)"), sl("(16,4):(1,16)"));
    let e = alg.composition(&a, &b).unwrap_err();
    assert!(condition(&e).starts_with("shape divisibility: cannot prove 16 % M == 0 or M >= 16"), "{e}");
    let facts = SymFacts::new().divisible("M", 64);
    let r = Algebra::new(&facts).composition(&a, &b).unwrap();
    assert_eq!(r.to_string(), "(16,4):(1,16)");
    let points = grid(&["M", "N", "K"], &[1, 3, 64, 128, 192], &facts);
    check_composition("with M % 16 == 0", &r, &a, &b, &points);
    // N >= 16 (but not a multiple) also decides the cap: 16 <= N
    let facts = SymFacts::new().at_least("M", 16);
    let r = Algebra::new(&facts).composition(&sl("(M,N):(1,K)"), &sl("16:1")).unwrap();
    assert_eq!(r.to_string(), "16:1");
}

#[test]
fn products_of_dynamic_blocks() {
    let none = SymFacts::new();
    let alg = Algebra::new(&none);
    let points = grid(&["M", "N"], &[2, 3, 8, 17], &none);
    let a = sl("(M,N):(1,M)");
    let b = layout_algebra::parse_layout("(2,3):(1,2)").unwrap();
    let lp = alg.logical_product(&a, &Tiler::Layout(lift(&b))).unwrap();
    assert_eq!(lp.to_string(), "((M,N),(2,3)):((1,M),(M * N,2 * M * N))");
    let exact = |p: &HashMap<String, i64>| p["M"] > 1 && p["N"] > 1;
    check_points(
        "logical_product",
        &lp,
        &points,
        |p| cute::logical_product(&eval(&a, p), &Tiler::Layout(b.clone())).unwrap(),
        exact,
    );
    let bp = alg.blocked_product(&a, &lift(&b)).unwrap();
    assert_eq!(bp.to_string(), "((M,2),(N,3)):((1,M * N),(M,2 * M * N))");
    check_points("blocked_product", &bp, &points, |p| cute::blocked_product(&eval(&a, p), &b).unwrap(), exact);
    let rp = alg.raked_product(&a, &lift(&b)).unwrap();
    check_points("raked_product", &rp, &points, |p| cute::raked_product(&eval(&a, p), &b).unwrap(), exact);
    // a static block repeated over a dynamic grid
    let (blk, grid_l) = (layout_algebra::parse_layout("(16,8):(8,1)").unwrap(), sl("(M,N):(1,M)"));
    let rp = alg.raked_product(&lift(&blk), &grid_l).unwrap();
    assert_eq!(rp.to_string(), "((M,16),(N,8)):((128,8),(128 * M,1))");
    check_points("raked over a grid", &rp, &points, |p| cute::raked_product(&blk, &eval(&grid_l, p)).unwrap(), exact);
    // by mode, N:M ⊗ 3:1 composes complement(N:M, 3·N) = (M, ceil(3N / NM)):(1, NM) with 3:1,
    // which needs 3 % M == 0 or M >= 3: inadmissible, as it is for numbers (M = 2, N = 5)
    let tiler = Tiler::parse("<2:1,3:1>").unwrap();
    let e = alg.zipped_product(&a, &lift_tiler(&tiler)).unwrap_err();
    assert!(condition(&e).starts_with("shape divisibility: cannot prove 3 % M == 0 or M >= 3"), "{e}");
    let e = cute::zipped_product(&eval(&a, &env(&[("M", 2), ("N", 5)])), &tiler).unwrap_err();
    assert!(condition(&e).starts_with("shape divisibility: 3 % 2 != 0"), "{e}");
    // with M >= 3 declared the cap is decided
    let facts = SymFacts::new().at_least("M", 3);
    let zp = Algebra::new(&facts).zipped_product(&a, &lift_tiler(&tiler)).unwrap();
    assert_eq!(zp.to_string(), "((M,N),(2,3)):((1,M),(M,1))");
    let points = grid(&["M", "N"], &[3, 4, 8, 17], &facts);
    check_points("zipped_product", &zp, &points, |p| cute::zipped_product(&eval(&a, p), &tiler).unwrap(), |_| true);
}
