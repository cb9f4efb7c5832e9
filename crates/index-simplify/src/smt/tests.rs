//! The per-rewrite proofs on the simplifier's own examples, and the injected wrong rule.

use super::*;
use crate::{sym, Facts};

fn proven(verdict: &Verdict) -> bool {
    verdict.is_proven()
}

#[test]
fn nz_row_offset_is_proven_exact_even_with_overflow() {
    let r = || sym("r");
    let e = (r() % 16) * 16 + (r() / 16) * 256;
    // R1s: exact for every r, also where r·16 wraps (both sides wrap alike).
    let p = prove_rewrite(&e, &(r() * 16), &Facts::new(), &ProofOptions::full());
    assert_eq!(p.verdict, Verdict::Proven);
}

#[test]
fn a_rewrite_that_needs_no_overflow_is_reported_so() {
    // (x·16 + y) floordiv 16 = x + y floordiv 16 needs x·16 not to wrap.
    let e = (sym("x") * 16 + sym("y")) / 16;
    let p = prove_rewrite(&e, &(sym("x") + sym("y") / 16), &Facts::new(), &ProofOptions::full());
    assert_eq!(p.verdict, Verdict::ProvenWithoutOverflow);
}

#[test]
fn facts_are_used_and_a_wrong_rewrite_has_a_counterexample() {
    let i = || sym("i");
    let facts = Facts::new().range("i", 0, 15);
    assert!(proven(&prove_rewrite(&(i() % 16), &i(), &facts, &ProofOptions::fast()).verdict));
    let wide = Facts::new().range("i", 0, 100);
    let Verdict::Counterexample(cx) = prove_rewrite(&(i() % 16), &i(), &wide, &ProofOptions::fast()).verdict else {
        panic!("i mod 16 = i accepted for i in [0, 100]")
    };
    let v = cx.values[0].1.as_i64().expect("an i64 value");
    assert!((16..=100).contains(&v), "counterexample {cx} outside the facts or not a difference");
    assert_eq!((cx.original, cx.simplified), (Some(v % 16), Some(v)));
    assert_eq!(cx.to_string(), format!("i = {v}: original = {}, simplified = {v}", v % 16));
}

#[test]
fn congruences_are_used() {
    // t ≡ 3 (mod 16) ⇒ t mod 16 = 3; without the fact it is refused.
    let facts = Facts::new().congruent("t", 3, 16);
    assert!(proven(&prove_rewrite(&(sym("t") % 16), &IndexExpr::c(3), &facts, &ProofOptions::fast()).verdict));
    let p = prove_rewrite(&(sym("t") % 16), &IndexExpr::c(3), &Facts::new(), &ProofOptions::fast());
    assert!(matches!(p.verdict, Verdict::Counterexample(_)));
}

/// A congruence is a definition `n = 16·q` in the integer query: a symbolic product with it is
/// answered (z3 left `(n·k + i) mod 16 = i` unknown for over 60 s with the congruence as a
/// constraint, and CI timed out on it), and a counterexample still reports `n` itself, ≡ 0 (mod 16).
#[test]
fn congruences_are_definitions_and_counterexamples_report_the_symbol() {
    let facts = Facts::new().at_least("n", 0).divisible("n", 16).range("i", 0, 15).at_least("k", 0);
    let e = (sym("n") * sym("k") + sym("i")) % 16;
    assert!(proven(&prove_rewrite(&e, &sym("i"), &facts, &ProofOptions::fast()).verdict));
    // Wrong: the sum mod 32 is not i when n·k is an odd multiple of 16.
    let wrong = (sym("n") * sym("k") + sym("i")) % 32;
    let Verdict::Counterexample(cx) = prove_rewrite(&wrong, &sym("i"), &facts, &ProofOptions::fast()).verdict else {
        panic!("a wrong rewrite was not refuted")
    };
    let env = cx.env();
    assert_eq!(env["n"] % 16, 0, "{cx:?}");
    assert_ne!(wrong.eval(&env), sym("i").eval(&env), "{cx:?}");
}

#[test]
fn simplifier_results_on_its_examples_are_proven() {
    let r = || sym("r");
    let cases = [
        ((r() % 16) * 16 + (r() / 16) * 256, Facts::new().range("r", 0, 15)),
        ((sym("i") + sym("t") * 16) / 16, Facts::new().range("i", 0, 15).range("t", 0, 6)),
        ((sym("i") + sym("t") * 16) % 16, Facts::new().range("i", 0, 15).range("t", 0, 6)),
        ((r() / 16) % 4 * 16 + r() % 16, Facts::new().at_least("r", 0)),
        ((sym("i") + sym("n") * 16) / 16, Facts::new()),
    ];
    for (e, facts) in cases {
        let (report, proof) = simplify_proven(&e, &facts, &SimplifyOptions::default(), &ProofOptions::full());
        assert!(report.improved(), "{e} not simplified");
        let proof = proof.expect("a rewrite is proven");
        assert!(proof.verdict.is_proven(), "{e} => {}: {:?}", report.expr, proof.verdict);
    }
}

/// The injected wrong rule `x mod c ⇒ x` rewrites `r mod 16 * 16` to `r * 16`; the proof mode
/// finds a counterexample and keeps the input.
#[test]
fn injected_wrong_rule_is_caught() {
    let e = sym("r") % 16 + sym("q") * 4;
    let facts = Facts::new().range("r", 0, 1000).range("q", 0, 10);
    let opts = SimplifyOptions { unsound_rule_for_tests: true, ..SimplifyOptions::default() };
    let unchecked = crate::simplify_with(&e, &facts, &opts);
    assert!(unchecked.improved(), "the wrong rule should fire: {}", unchecked.expr);
    let (report, proof) = simplify_proven(&e, &facts, &opts, &ProofOptions::fast());
    let Some(Proof { verdict: Verdict::Counterexample(cx), .. }) = proof else { panic!("not caught: {proof:?}") };
    assert_eq!(report.expr, e, "the rewrite must not be applied");
    assert!(!report.improved());
    let env = cx.env();
    assert_ne!(e.eval(&env), unchecked.expr.eval(&env), "{cx} is not a counterexample");
}

/// Found by `random_rewrites_are_proven_by_the_solver`: normalizing distributes a product over
/// a sum, so `(t + 32 + i·2)·3·32` becomes `i·192 + t·96 + 3072`, whose `t·96` overflows at
/// `t = −96076792050570582` where the original (−9223372036854772800) does not. In checked
/// semantics that is a difference; in the wrapping arithmetic the emitted `arith` ops compute,
/// the two are equal everywhere, so the rewrite is proven (and not a counterexample).
#[test]
fn distribution_overflowing_only_in_an_intermediate_is_exact_with_wrapping() {
    let (i, t) = (|| sym("i"), || sym("t"));
    let original = (t() + 32 + i() * 2) * 3 * (IndexExpr::c(4) << 3);
    let simplified = i() * 192 + t() * 96 + 3072;
    let env = [("i".to_string(), 0), ("t".to_string(), -96076792050570582)].into_iter().collect();
    assert_eq!((original.eval(&env), simplified.eval(&env)), (Some(-9223372036854772800), None));
    let p = prove_rewrite(&original, &simplified, &Facts::new(), &ProofOptions::fast());
    assert_eq!(p.verdict, Verdict::Proven);
}

/// A model value outside `i64` is printed exactly (it once made the reader answer "unknown"):
/// the only `x` with `2^63 − 1 < x < 2^63 + 1`, the only `y` just below `−2^63`, and `2^100`.
#[test]
fn counterexamples_outside_i64_are_read_exactly() {
    let q = Query::new(
        Theory::Int,
        vec!["x".into(), "y".into(), "z".into()],
        "(and (> |x| 9223372036854775807) (< |x| 9223372036854775809) \
         (< |y| (- 9223372036854775808)) (> |y| (- 9223372036854775810)) \
         (= |z| (* 1099511627776 1099511627776 1048576)))"
            .into(),
    );
    let answers = check(&[q], Duration::from_secs(10)).unwrap();
    let Answer::Sat(values) = &answers[0] else { panic!("{answers:?}") };
    let shown: Vec<String> = values.iter().map(|(s, v)| format!("{s} = {v}")).collect();
    assert_eq!(shown, ["x = 9223372036854775808", "y = -9223372036854775809", "z = 1267650600228229401496703205376"]);
    assert!(values.iter().all(|(_, v)| v.as_i64().is_none()));
}

/// The answer cache reuses only identical queries: the same rewrite under wider facts is a
/// different formula and still refuted, and a refuted query asked again is refuted again (the
/// injected wrong rule is caught on every call, not only the first).
#[test]
fn the_answer_cache_never_turns_a_counterexample_into_a_proof() {
    let i = || sym("i");
    let narrow = Facts::new().range("i", 0, 15);
    let wide = Facts::new().range("i", 0, 100);
    for _ in 0..2 {
        assert!(proven(&prove_rewrite(&(i() % 16), &i(), &narrow, &ProofOptions::fast()).verdict));
        let p = prove_rewrite(&(i() % 16), &i(), &wide, &ProofOptions::fast());
        assert!(matches!(p.verdict, Verdict::Counterexample(_)), "{:?}", p.verdict);
    }
    let e = sym("r") % 16 + sym("q") * 4;
    let facts = Facts::new().range("r", 0, 1000).range("q", 0, 10);
    let opts = SimplifyOptions { unsound_rule_for_tests: true, ..SimplifyOptions::default() };
    let before = cache_stats().hits;
    for _ in 0..2 {
        let (report, proof) = simplify_proven(&e, &facts, &opts, &ProofOptions::fast());
        assert!(matches!(proof.map(|p| p.verdict), Some(Verdict::Counterexample(_))));
        assert_eq!(report.expr, e);
    }
    assert!(cache_stats().hits > before, "the second call was not answered from the cache");
}

/// The cache hits and misses of `f`'s solver calls on this thread.
fn cache_use<T>(f: impl FnOnce() -> T) -> (T, CacheStats) {
    let before = thread_cache_stats();
    let out = f();
    let after = thread_cache_stats();
    (out, CacheStats { hits: after.hits - before.hits, misses: after.misses - before.misses })
}

/// A rewrite equal to an earlier one up to the names of its symbols is answered by the cache
/// (no solver call), and proven; the constants are unusual so no other test asks these queries.
#[test]
fn rewrites_equal_up_to_renaming_share_one_answer() {
    let row = |i: &str, t: &str| (sym(i) + sym(t) * 1031) % 1031;
    let facts = |i: &str, t: &str| Facts::new().range(i, 0, 1030).range(t, 0, 6);
    let (p, first) = cache_use(|| prove_rewrite(&row("i", "t"), &sym("i"), &facts("i", "t"), &ProofOptions::fast()));
    assert!(p.verdict.is_proven(), "{:?}", p.verdict);
    assert_eq!(first.hits + first.misses, 1);
    // `t` and `i` swap names: still the same rewrite up to renaming.
    let (p, second) = cache_use(|| prove_rewrite(&row("t", "i"), &sym("t"), &facts("t", "i"), &ProofOptions::fast()));
    assert!(p.verdict.is_proven(), "{:?}", p.verdict);
    assert_eq!(second, CacheStats { hits: 1, misses: 0 }, "not answered from the cache");
}

/// Rewrites equal up to renaming of the symbols' names but not of their roles are different
/// queries: the same expression with the facts on the other symbol, or the result taken from
/// the other position, is refuted after the right one was proven.
#[test]
fn renaming_keeps_each_symbol_with_its_facts_and_position() {
    let e = sym("x") % 1033 + sym("y");
    let good = Facts::new().range("x", 0, 1032).range("y", 0, 5000);
    assert!(proven(&prove_rewrite(&e, &(sym("x") + sym("y")), &good, &ProofOptions::fast()).verdict));
    // The facts swapped between the two symbols: x is now up to 5000.
    let swapped = Facts::new().range("x", 0, 5000).range("y", 0, 1032);
    let Verdict::Counterexample(cx) =
        prove_rewrite(&e, &(sym("x") + sym("y")), &swapped, &ProofOptions::fast()).verdict
    else {
        panic!("x mod 1033 = x accepted for x up to 5000")
    };
    let env = cx.env();
    assert!(env["x"] >= 1033, "{cx}");
    assert_ne!(e.eval(&env), (sym("x") + sym("y")).eval(&env), "{cx}");
    // Same symbols and facts, the result names the symbol in the other position.
    let row = (sym("i") + sym("t") * 1031) % 1031;
    let facts = Facts::new().range("i", 0, 1030).range("t", 0, 6);
    assert!(proven(&prove_rewrite(&row, &sym("i"), &facts, &ProofOptions::fast()).verdict));
    let Verdict::Counterexample(cx) = prove_rewrite(&row, &sym("t"), &facts, &ProofOptions::fast()).verdict else {
        panic!("(i + 1031 t) mod 1031 = t accepted")
    };
    assert_ne!(row.eval(&cx.env()), sym("t").eval(&cx.env()), "{cx}");
    // x − y ⇒ y − x has the same symbols in the same order of first occurrence on the left.
    let p = prove_rewrite(&(sym("x") - sym("y")), &(sym("y") - sym("x")), &Facts::new(), &ProofOptions::fast());
    assert!(matches!(p.verdict, Verdict::Counterexample(_)), "{:?}", p.verdict);
}

/// A counterexample answered by the cache for a renamed rewrite names the caller's symbols,
/// sorted, and is a real difference there.
#[test]
fn a_counterexample_from_the_cache_names_the_callers_symbols() {
    let wrong = |a: &str, b: &str| (sym(a) % 1039 + sym(b) * 3, sym(a) + sym(b) * 3);
    let facts = |a: &str, b: &str| Facts::new().range(a, 0, 4000).range(b, 0, 9);
    let (e, s) = wrong("p", "q");
    let (first, _) = cache_use(|| prove_rewrite(&e, &s, &facts("p", "q"), &ProofOptions::fast()));
    assert!(matches!(first.verdict, Verdict::Counterexample(_)), "{:?}", first.verdict);
    let (e, s) = wrong("zz", "aa");
    let (p, used) = cache_use(|| prove_rewrite(&e, &s, &facts("zz", "aa"), &ProofOptions::fast()));
    let Verdict::Counterexample(cx) = p.verdict else {
        panic!("the renamed wrong rewrite was accepted: {:?}", p.verdict)
    };
    assert_eq!(used.misses, 0, "the checked query (and its wrapping re-ask) should come from the cache");
    let names: Vec<&str> = cx.values.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["aa", "zz"]);
    let env = cx.env();
    assert!((1039..=4000).contains(&env["zz"]) && (0..=9).contains(&env["aa"]), "{cx}");
    assert_ne!(e.eval(&env), s.eval(&env), "{cx}");
}

/// The integer query leaves out the range conditions the facts imply (`encode::encode_within`):
/// a simplified side that overflows only at the edge of the facts is still refuted there, at
/// exactly that point, and proven one below it.
#[test]
fn an_overflow_at_the_edge_of_the_facts_is_still_refuted() {
    let x = || sym("x");
    let times4 = || x() * 4 / 4;
    for (lo, hi, edge) in [(0, 1i64 << 61, 1i64 << 61), (-(1i64 << 61) - 1, 0, -(1i64 << 61) - 1)] {
        let facts = Facts::new().range("x", lo, hi);
        let Verdict::Counterexample(cx) = prove_rewrite(&x(), &times4(), &facts, &ProofOptions::fast()).verdict else {
            panic!("x = x·4 / 4 accepted for x in [{lo}, {hi}], where x·4 overflows at {edge}")
        };
        assert_eq!(cx.env()["x"], edge, "{cx}");
        assert_eq!((cx.original, cx.simplified), (Some(edge), None));
        let inside = if lo == 0 { Facts::new().range("x", 0, hi - 1) } else { Facts::new().range("x", lo + 1, 0) };
        assert!(proven(&prove_rewrite(&x(), &times4(), &inside, &ProofOptions::fast()).verdict));
    }
}
