//! Hand-written cases: dynamic matrices divided, composed, multiplied and inverted.

use std::collections::HashMap;

use layout_algebra::cute::{self, Algebra, SymFacts, Tiler};
use layout_algebra::Tuple;

use crate::support::*;

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

#[test]
fn unprovable_conditions_are_named_with_the_expressions() {
    let none = SymFacts::new();
    let alg = Algebra::new(&none);
    for (a, b, want) in [
        (
            "(M*16,N):(1,K)",
            "(16,4):(1,64)",
            "stride divisibility: cannot prove (16 * M) % 64 == 0 or 64 % (16 * M) == 0 (mode 0 of coalesce(A) against B's mode 4:64",
        ),
        ("(16,4):(1,64)", "4:N", "stride divisibility: cannot prove 16 % N == 0 or N % 16 == 0 (mode 0"),
        ("(N*16,4):(1,N)", "64:1", "shape divisibility: cannot prove 64 % (16 * N) == 0 or 16 * N >= 64 (mode 0"),
        ("(M,4):(1,K)", "(2,2):(1,1)", "right-distributivity: the modes of B together may reach coordinate 2 >= M (cannot prove 2 < M) in mode 0 (M:1)"),
    ] {
        let m2 = SymFacts::new().at_least("M", 2);
        let e = Algebra::new(&m2).composition(&sl(a), &sl(b)).unwrap_err();
        assert!(condition(&e).starts_with(want), "{a} ∘ {b}: {e}");
    }
    // the same condition with numbers is refuted, with the i64 wording
    let e = alg.composition(&sl("(6,4):(1,7)"), &sl("3:4")).unwrap_err();
    assert!(condition(&e).starts_with("stride divisibility: 6 % 4 != 0 and 4 % 6 != 0"), "{e}");
    // complement: injectivity, divisibility and the order of the strides
    for (a, cotarget, want) in [
        ("(4,N):(M,1)", "4*M*N", "injectivity: cannot prove stride M of mode 4:M >= N = N*1"),
        ("(4,N):(1,4*M+2)", "4*M*N", "stride divisibility: (4 * M + 2) % 4 != 0 (stride of mode N:(4 * M + 2)"),
        ("(4,8):(M,N)", "64", "sorted strides: cannot order modes 4:M and 8:N"),
        ("4:M", "0", "cotarget"),
    ] {
        let e = alg.complement(&sl(a), &leaf(cotarget)).unwrap_err();
        let text = e.to_string();
        assert!(text.contains(want), "complement({a}, {cotarget}): {text}");
    }
    // a divide by a dynamic-stride tile: K against the static 4-mode of A
    let e = alg.logical_divide(&sl("(4,M):(1,8)"), &Tiler::Layout(sl("3:K"))).unwrap_err();
    assert!(condition(&e).starts_with("stride divisibility: cannot prove 4 % K == 0 or K % 4 == 0"), "{e}");
    // with K % 4 == 0 the tile steps over the 4-mode: stride 8·(K/4) = 2K, and the rest splits
    // K into (4, K/4) (exact quotients of a symbol by its divisor stay `K floordiv 4`)
    let facts = SymFacts::new().divisible("K", 4);
    let (a, t) = (sl("(4,M):(1,8)"), Tiler::Layout(sl("3:K")));
    let r = Algebra::new(&facts).logical_divide(&a, &t).unwrap();
    assert_eq!(
        r.to_string(),
        "(3,((4,K floordiv 4),(3 * K + 4 * M - 1) floordiv (3 * K))):(8 * (K floordiv 4),((1,8),8 * (3 * K floordiv 4)))"
    );
    for p in grid(&["M", "K"], &[2, 4, 8, 12, 17], &facts) {
        let want = cute::logical_divide(&eval(&a, &p), &Tiler::Layout(eval(&sl("3:K"), &p))).unwrap();
        assert_same_function(&eval(&r, &p), &want, &format!("(4,M):(1,8) ⊘ 3:K at {p:?}"));
    }
    // facts make the complement admissible: M % 4 == 0
    let facts = SymFacts::new().divisible("M", 4);
    let r = Algebra::new(&facts).complement(&sl("(4,N):(1,M)"), &leaf("4*M*N")).unwrap();
    assert_eq!(r.to_string(), "(M floordiv 4,4):(4,M * N)");
    for p in grid(&["M", "N"], &[4, 8, 12, 3, 5], &facts) {
        let want = cute::complement(&eval(&sl("(4,N):(1,M)"), &p), 4 * p["M"] * p["N"]).unwrap();
        assert_same_function(&eval(&r, &p), &want, &format!("complement at {p:?}"));
    }
}

#[test]
fn inverses_of_dynamic_layouts() {
    let none = SymFacts::new();
    let alg = Algebra::new(&none);
    let points = grid(&["M", "N"], &[1, 2, 3, 8, 17], &none);
    for (a, right, left) in [
        ("(M,N):(1,M)", "M * N:1", "M * N:1"),
        ("(4,M):(M,1)", "(M,4):(4,1)", "(M,4):(4,1)"),
        ("(2,(M,4)):(4*M,(1,M))", "(4 * M,2):(2,1)", "(4 * M,2):(2,1)"),
    ] {
        let sa = sl(a);
        let r = alg.right_inverse(&sa).unwrap();
        assert_eq!(r.to_string(), right, "right_inverse({a})");
        let l = alg.left_inverse(&sa).unwrap();
        assert_eq!(l.to_string(), left, "left_inverse({a})");
        for p in &points {
            let (ap, rp, lp) = (eval(&sa, p), eval(&r, p), eval(&l, p));
            assert_same_function(&rp, &cute::right_inverse(&ap).unwrap(), &format!("right_inverse({a}) at {p:?}"));
            for i in 0..rp.size().unwrap() {
                let ri = rp.crd_to_offset(&Tuple::Int(i)).unwrap();
                assert_eq!(ap.crd_to_offset(&Tuple::Int(ri)).unwrap(), i, "A(R({i})) for {a} at {p:?}");
            }
            for i in 0..ap.size().unwrap() {
                let ai = ap.crd_to_offset(&Tuple::Int(i)).unwrap();
                assert_eq!(lp.crd_to_offset(&Tuple::Int(ai)).unwrap(), i, "L(A({i})) for {a} at {p:?}");
            }
        }
    }
    // the place of K in the chain is not decided
    let e = alg.right_inverse(&sl("(4,M):(1,K)")).unwrap_err();
    assert!(condition(&e).starts_with("cannot decide stride K against the extent 4 of the chain"), "{e}");
    let e = alg.left_inverse(&sl("(4,M):(1,K)")).unwrap_err();
    assert!(condition(&e).starts_with("injectivity: cannot prove stride K of mode M:K >= 4"), "{e}");
    let e = alg.left_inverse(&sl("(M,4):(0,1)")).unwrap_err();
    assert!(condition(&e).starts_with("injectivity: mode M:0"), "{e}");
}
