//! Targeted tests: the simplifications the passes rely on really happen, with the layout
//! algebra's own offset formulas as input, and the limits are reported.

use std::collections::HashMap;
use std::time::Duration;

use index_simplify::smt::{simplify_proven, ProofOptions};
use index_simplify::{
    rule_catalog, simplify_with, sym, Facts, IndexExpr, IndexVisitor, Op, SimplifyOptions, SimplifyReport, StopReason,
};

/// `index_simplify::simplify` with the proof mode always on: every rewrite these tests make is
/// proven by z3 (docs/index-simplification.md §12), not only sampled.
fn simplify(e: &IndexExpr, facts: &Facts) -> SimplifyReport {
    let (report, proof) = simplify_proven(e, facts, &SimplifyOptions::default(), &ProofOptions::fast());
    if let Some(p) = proof {
        assert!(p.verdict.is_proven(), "{e} => {} under {facts:?}: {:?}", report.expr, p.verdict);
    }
    report
}
use layout_algebra::ascend::{frame_layout, FramePattern};
use layout_algebra::sym::BinOp;
use layout_algebra::{crd_to_offset, SymExpr, Tuple};

/// Offset of `(r, c)` in a `rows × cols` matrix of the given frame pattern, as the layout
/// algebra emits it.
fn offset(pattern: FramePattern, c0: i64, rows: i64, cols: i64, r: SymExpr, c: SymExpr) -> SymExpr {
    let l = frame_layout(pattern, c0, &[SymExpr::Const(rows), SymExpr::Const(cols)]).unwrap();
    crd_to_offset(&Tuple::Tuple(vec![Tuple::Int(r), Tuple::Int(c)]), l.shape(), l.stride()).unwrap()
}

/// `local + tile·n` as a SymExpr.
fn tile_coord(local: &str, tile: &str, n: i64) -> SymExpr {
    let scaled = SymExpr::bin(BinOp::Mul, &SymExpr::sym(tile), &SymExpr::Const(n)).unwrap();
    SymExpr::bin(BinOp::Add, &SymExpr::sym(local), &scaled).unwrap()
}

fn env(pairs: &[(&str, i64)]) -> HashMap<String, i64> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

#[test]
fn worked_example_nz_rows() {
    let r = || sym("r");
    let e = (r() % 16) * 16 + (r() / 16) * 256;
    for facts in [Facts::new().range("r", 0, 15), Facts::new().range("r", 0, 111), Facts::new()] {
        let rep = simplify(&e, &facts);
        assert_eq!(rep.expr.to_string(), "r * 16", "{rep}");
        assert!(rep.cost_after < rep.cost_before);
        assert_eq!(rep.div_mod_after, 0);
    }
}

#[test]
fn tile_local_coordinate_div_and_mod() {
    let facts = Facts::new().range("i", 0, 15).range("t", 0, 6);
    let row = sym("i") + sym("t") * 16;
    let rep = simplify(&(row.clone() / 16), &facts);
    assert_eq!(rep.expr, sym("t"), "{rep}");
    assert!(["D0", "D2", "D3", "D1m"].iter().any(|r| rep.rules_fired.contains_key(*r)), "{rep}");
    assert_eq!(simplify(&(row.clone() % 16), &facts).expr, sym("i"));
    // Without the range of i only the range-free D1 applies and a division remains.
    let rep = simplify(&(row / 16), &Facts::new().range("t", 0, 6));
    assert_eq!(rep.expr.to_string(), "t + i floordiv 16");
    assert_eq!(rep.div_mod_after, 1);
}

/// NZ, ZN and ZZ (fp16: C0 = 16; fp32 NZ: C0 = 8) offsets of a tile-local coordinate
/// `(i + 16·tr, j + c0·tc)` lose every div/mod, the cost strictly decreases, and the result
/// agrees with the layout algebra's concrete offsets everywhere in the tile grid.
#[test]
fn static_tile_offsets_lose_every_div_mod() {
    let cases = [
        (FramePattern::NZ, 16),
        (FramePattern::ZN, 16),
        (FramePattern::ZZ, 16),
        (FramePattern::NZ, 8),
        (FramePattern::ZZ, 8),
    ];
    for (pattern, c0) in cases {
        let (rows, cols) = (100, 100);
        // The fractal is 16 × c0 for NZ/ZZ and c0 × 16 for ZN.
        let (fr, fc) = if pattern == FramePattern::ZN { (c0, 16) } else { (16, c0) };
        let (nr, nc) = ((rows + fr - 1) / fr, (cols + fc - 1) / fc);
        let e = offset(pattern, c0, rows, cols, tile_coord("i", "tr", fr), tile_coord("j", "tc", fc));
        let facts =
            Facts::new().range("i", 0, fr - 1).range("j", 0, fc - 1).range("tr", 0, nr - 1).range("tc", 0, nc - 1);
        let rep = simplify(&IndexExpr::from(&e), &facts);
        assert_eq!(rep.div_mod_before, 4, "{pattern:?}: {rep}");
        assert_eq!(rep.div_mod_after, 0, "{pattern:?}: {rep}");
        assert!(
            rep.expr.op_counts().iter().all(|(op, _)| matches!(op, Op::Add | Op::Sub | Op::Mul)),
            "{pattern:?}: {rep}"
        );
        assert!(rep.cost_after < rep.cost_before, "{pattern:?}: {rep}");
        assert!(!rep.bound_hit, "{pattern:?}: {rep}");
        let concrete = frame_layout(pattern, c0, &[rows, cols]).unwrap();
        for tr in 0..nr {
            for tc in 0..nc {
                for (i, j) in [(0, 0), (fr - 1, fc - 1), (3, 1), (fr / 2, fc - 1)] {
                    let want = concrete
                        .crd_to_offset(&Tuple::Tuple(vec![Tuple::Int(i + fr * tr), Tuple::Int(j + fc * tc)]))
                        .unwrap();
                    let got = rep.expr.eval(&env(&[("i", i), ("j", j), ("tr", tr), ("tc", tc)]));
                    assert_eq!(got, Some(want), "{pattern:?} c0={c0} at tile ({tr},{tc}) ({i},{j}): {}", rep.expr);
                }
            }
        }
        // Back to the algebra's domain, unchanged in value.
        let back = rep.expr.to_sym_expr().unwrap();
        let pt: HashMap<String, i64> = env(&[("i", 5), ("j", 2), ("tr", 3), ("tc", 4)]);
        assert_eq!(back.eval(&pt).ok(), e.eval(&pt).ok());
    }
}

/// On a whole-matrix coordinate `r, c ∈ [0, 111]` the row part of NZ still folds (R1s) and
/// the column part loses its mask (R3, `c ≥ 0`: `c mod 16 + (c div 16)·1792 = c + (c div 16)·1776`)
/// and its division becomes a shift (P1); with bit ops off it keeps div/mod.
#[test]
fn whole_matrix_offsets_use_shifts_on_non_negative_values() {
    let e = IndexExpr::from(&offset(FramePattern::NZ, 16, 100, 100, SymExpr::sym("r"), SymExpr::sym("c")));
    let facts = Facts::new().range("r", 0, 111).range("c", 0, 111);
    let rep = simplify(&e, &facts);
    assert_eq!(rep.expr.to_string(), "c + r * 16 + (c >> 4) * 1776", "{rep}");
    assert_eq!(rep.div_mod_after, 0, "{rep}");
    assert!(rep.rules_fired.contains_key("P1") && rep.rules_fired.contains_key("P2"), "{rep}");
    let no_bits = simplify_with(&e, &facts, &SimplifyOptions { bit_ops: false, ..Default::default() });
    // R3 needs no bit op, so only the column division stays.
    assert_eq!(no_bits.div_mod_after, 1, "{no_bits}");
    // Signed c: no shifts, and the column div/mod stay.
    let signed = simplify(&e, &Facts::new().range("r", 0, 111).range("c", -16, 111));
    assert_eq!(signed.div_mod_after, 2, "{signed}");
    assert!(signed.expr.op_counts().iter().all(|(op, _)| !matches!(op, Op::Shr | Op::And)), "{signed}");
    for r in [0, 17, 111] {
        for c in [0, 15, 16, 99, 111] {
            let pt = env(&[("r", r), ("c", c)]);
            assert_eq!(rep.expr.eval(&pt), e.eval(&pt));
            assert_eq!(no_bits.expr.eval(&pt), e.eval(&pt));
        }
    }
}

#[test]
fn dynamic_sizes_with_divisibility() {
    let facts = Facts::new().at_least("n", 0).divisible("n", 16).range("i", 0, 15).at_least("k", 0);
    let rep = simplify(&((sym("n") / 16) * 16), &facts);
    assert_eq!(rep.expr, sym("n"), "{rep}");
    let rep = simplify(&((sym("n") + sym("i")) / 16), &facts);
    assert_eq!(rep.expr.to_string(), "n >> 4", "{rep}");
    let rep = simplify(&((sym("n") * sym("k") + sym("i")) % 16), &facts);
    assert_eq!(rep.expr, sym("i"), "{rep}");
    // M4 through the analysis: n + 3 ≡ 3 (mod 16) for a signed n too.
    let rep = simplify(&((sym("m") + 3) % 16), &Facts::new().divisible("m", 16));
    assert_eq!(rep.expr, IndexExpr::Const(3), "{rep}");
    // A tail tile: min(16, n − 16·t) is 16 for every full tile.
    let f = Facts::new().range("n", 64, 64).range("t", 0, 3);
    let rep = simplify(&IndexExpr::bin(Op::Min, IndexExpr::Const(16), sym("n") - sym("t") * 16), &f);
    assert_eq!(rep.expr, IndexExpr::Const(16), "{rep}");
}

#[test]
fn recombination_rules() {
    let x = || sym("x");
    // R1 and R2 hold for every x.
    assert_eq!(simplify(&((x() / 8) * 8 + x() % 8), &Facts::new()).expr, x());
    let rep = simplify(&(((x() / 16) % 4) * 16 + x() % 16), &Facts::new());
    assert_eq!(rep.expr.to_string(), "x mod 64", "{rep}");
    // D4 and M3.
    assert_eq!(simplify(&((x() / 4) / 8), &Facts::new()).expr.to_string(), "x floordiv 32");
    assert_eq!(simplify(&((x() % 64) % 16), &Facts::new()).expr.to_string(), "x mod 16");
}

#[test]
fn bound_hit_is_reported_with_tiny_limits() {
    let e =
        IndexExpr::from(&offset(FramePattern::NZ, 16, 100, 100, tile_coord("i", "tr", 16), tile_coord("j", "tc", 16)));
    let facts = Facts::new().range("i", 0, 15).range("j", 0, 15).range("tr", 0, 6).range("tc", 0, 6);
    let check = |opts: SimplifyOptions, want: fn(&StopReason) -> bool| {
        let rep = simplify_with(&e, &facts, &opts);
        assert!(rep.bound_hit, "{rep}");
        assert!(want(&rep.stop_reason), "{rep}");
        assert!(rep.cost_after <= rep.cost_before);
        for (i, j, tr, tc) in [(0, 0, 0, 0), (15, 15, 6, 6), (3, 9, 2, 5)] {
            let pt = env(&[("i", i), ("j", j), ("tr", tr), ("tc", tc)]);
            assert_eq!(rep.expr.eval(&pt), e.eval(&pt));
        }
    };
    check(SimplifyOptions { iter_limit: 1, ..Default::default() }, |r| matches!(r, StopReason::IterationLimit(1)));
    check(SimplifyOptions { node_limit: 10, ..Default::default() }, |r| matches!(r, StopReason::NodeLimit(_)));
    check(SimplifyOptions { time_limit: Duration::ZERO, ..Default::default() }, |r| {
        matches!(r, StopReason::TimeLimit(_))
    });
    // With the defaults nothing is hit.
    assert!(!simplify(&e, &facts).bound_hit);
}

#[test]
fn never_panics_on_odd_inputs() {
    let x = || sym("x");
    let facts = Facts::new().range("x", -5, 5);
    let odd = [
        x() / 0,
        x() % 0,
        IndexExpr::bin(Op::FloorDiv, IndexExpr::Const(i64::MIN), IndexExpr::Const(-1)),
        IndexExpr::bin(Op::FloorMod, IndexExpr::Const(i64::MIN), IndexExpr::Const(-1)),
        IndexExpr::Const(i64::MAX) * 2 + x(),
        (x() + i64::MAX) * i64::MAX,
        x() << 64,
        x() >> -1,
        x() << 62,
        x() & -1,
        x() / -16 + x() % -16,
        (x() * 16 + 3) / i64::MIN,
        IndexExpr::bin(Op::Min, x() * i64::MIN, x() * i64::MAX),
        (x() % 16) * i64::MAX + (x() / 16) * i64::MIN,
    ];
    for e in odd {
        let rep = simplify(&e, &facts);
        for v in -5..=5 {
            let pt = env(&[("x", v)]);
            if let Some(want) = e.eval(&pt) {
                assert_eq!(rep.expr.eval(&pt), Some(want), "{rep}");
            }
        }
    }
    // Deeper than the limit: returned unchanged, reported.
    let mut deep = x();
    for k in 0..600 {
        deep = deep + k;
    }
    let rep = simplify(&deep, &facts);
    assert!(matches!(rep.stop_reason, StopReason::InputTooDeep { .. }), "{:?}", rep.stop_reason);
    assert_eq!(rep.expr, deep);
    // Contradictory facts: unchanged, reported.
    for f in [
        Facts::new().range("x", 5, 1),
        Facts::new().range("x", 1, 15).divisible("x", 16),
        Facts::new().divisible("x", 0),
    ] {
        let rep = simplify(&(x() % 16), &f);
        assert!(matches!(rep.stop_reason, StopReason::InconsistentFacts(_)), "{:?}", rep.stop_reason);
        assert_eq!(rep.expr, x() % 16);
    }
}

/// A visitor that rebuilds an s-expression: the shape a pass uses to emit arith ops.
#[test]
fn visitor_rebuilds_bottom_up() {
    struct Sexp;
    impl IndexVisitor for Sexp {
        type Out = String;
        type Error = ();
        fn constant(&mut self, v: i64) -> Result<String, ()> {
            Ok(format!("(arith.constant {v})"))
        }
        fn symbol(&mut self, n: &str) -> Result<String, ()> {
            Ok(format!("%{n}"))
        }
        fn binary(&mut self, op: Op, a: String, b: String) -> Result<String, ()> {
            let name = match op {
                Op::Add => "addi",
                Op::Mul => "muli",
                Op::Shr => "shrui",
                Op::And => "andi",
                _ => return Err(()),
            };
            Ok(format!("({name} {a} {b})"))
        }
    }
    let rep = simplify(&((sym("c") % 16) + (sym("c") / 16) * 8), &Facts::new().range("c", 0, 111));
    let s = rep.expr.visit(&mut Sexp).unwrap();
    assert_eq!(s, "(addi (muli (shrui %c (arith.constant 4)) (arith.constant 8)) (andi %c (arith.constant 15)))");
}

#[test]
fn catalog_names_the_notes_rules() {
    let names: Vec<&str> = rule_catalog().iter().map(|r| r.name).collect();
    for want in ["D0", "D1", "D2", "D3", "D4", "D5", "M0", "M1", "M2", "M3", "M4", "S1", "R1", "R2", "P1", "P2"] {
        assert!(names.contains(&want), "missing rule {want}");
    }
}
