//! Tests of [`crate::cache`]: a hit must be exactly what a new search finds.

use std::collections::HashMap;
use std::rc::Rc;

use egg::Symbol;

use crate::cache::SimplifyCache;
use crate::expr::{sym, IndexExpr};
use crate::facts::Facts;
use crate::simplify::{simplify_with, simplify_without_rules, SimplifyOptions, SimplifyReport};
use crate::tests::{random_expr, random_fact, Rng};

/// What the cache stands for, computed without it.
fn fresh(expr: &IndexExpr, facts: &Facts) -> SimplifyReport {
    simplify_without_rules(expr, facts).unwrap_or_else(|| simplify_with(expr, facts, &SimplifyOptions::default()))
}

/// The sharing of `e`: each `Rc` numbered at its first visit, each node as its kind and its
/// operands' numbers (equal for two trees that are equal and share at the same places).
fn sharing(e: &IndexExpr) -> Vec<String> {
    fn visit(e: &IndexExpr, ids: &mut HashMap<*const IndexExpr, usize>, out: &mut Vec<String>) -> String {
        match e {
            IndexExpr::Const(c) => c.to_string(),
            IndexExpr::Sym(n) => n.clone(),
            IndexExpr::Bin(op, a, b) => {
                let mut operand = |x: &Rc<IndexExpr>, out: &mut Vec<String>| {
                    if let Some(k) = ids.get(&Rc::as_ptr(x)) {
                        return format!("#{k}");
                    }
                    let text = visit(x, ids, out);
                    let k = ids.len();
                    ids.insert(Rc::as_ptr(x), k);
                    out.push(format!("#{k} = {text}"));
                    format!("#{k}")
                };
                let (a, b) = (operand(a, out), operand(b, out));
                format!("{a} {} {b}", op.symbol())
            }
        }
    }
    let mut out = Vec::new();
    let root = visit(e, &mut HashMap::new(), &mut out);
    out.push(root);
    out
}

fn rename(e: &IndexExpr, map: &HashMap<String, String>) -> IndexExpr {
    match e {
        IndexExpr::Sym(n) => IndexExpr::Sym(map.get(n).cloned().unwrap_or_else(|| n.clone())),
        IndexExpr::Bin(op, a, b) => IndexExpr::bin(*op, rename(a, map), rename(b, map)),
        IndexExpr::Const(_) => e.clone(),
    }
}

fn rename_facts(facts: &Facts, map: &HashMap<String, String>) -> Facts {
    let mut out = Facts::new();
    for (n, f) in facts.iter() {
        out.set(&map[n], *f);
    }
    out
}

/// Random facts of the symbols of `e` (some without any), as the passes give them.
fn facts_of(rng: &mut Rng, e: &IndexExpr) -> Facts {
    let mut facts = Facts::new();
    for s in e.symbols() {
        if rng.chance(0.85) {
            facts.set(&s, random_fact(rng));
        }
    }
    facts
}

/// Same report up to what the cache may differ in (the elapsed time).
fn assert_same(got: &SimplifyReport, want: &SimplifyReport, what: &str) {
    assert_eq!(got.expr, want.expr, "{what}: result");
    assert_eq!(sharing(&got.expr), sharing(&want.expr), "{what}: sharing of {}", want.expr);
    assert_eq!(got.input, want.input, "{what}: input");
    assert_eq!((got.cost_before, got.cost_after), (want.cost_before, want.cost_after), "{what}: costs");
    assert_eq!((got.div_mod_before, got.div_mod_after), (want.div_mod_before, want.div_mod_after), "{what}");
    assert_eq!(
        (got.iterations, got.nodes, got.classes, got.rounds),
        (want.iterations, want.nodes, want.classes, want.rounds)
    );
    assert_eq!(got.stop_reason, want.stop_reason, "{what}: stop reason");
    assert_eq!(got.rules_fired, want.rules_fired, "{what}: rules");
    assert_eq!(got.range, want.range, "{what}: range");
}

/// A query renamed so that the names keep their string order gets the renamed result of the
/// first, and that is exactly what a new search of it finds (tree, sharing, costs, statistics).
/// egg's order of the new names is whatever their hashes and the interning history make it
/// (the symbol table is sharded by a hash of the name), independent of the originals' order.
#[test]
fn a_renamed_query_gets_what_a_new_search_finds() {
    let mut rng = Rng::new(0x000C_AC4E_0001);
    let syms = ["a", "b", "i", "t"];
    let (mut hits, mut without_symbols, cases) = (0, 0, 150);
    for case in 0..cases {
        let e = random_expr(&mut rng, 4, &syms);
        let facts = facts_of(&mut rng, &e);
        if e.symbols().is_empty() {
            without_symbols += 1;
        }
        let mut cache = SimplifyCache::new();
        let first = cache.simplify(&e, &facts);
        assert_same(&first, &fresh(&e, &facts), "first query");
        let map: HashMap<String, String> = syms.iter().map(|s| (s.to_string(), format!("r{case}_{s}"))).collect();
        let (e2, facts2) = (rename(&e, &map), rename_facts(&facts, &map));
        let before = cache.stats().renamed_hits;
        let second = cache.simplify(&e2, &facts2);
        if cache.stats().renamed_hits > before {
            hits += 1;
        }
        assert_same(&second, &fresh(&e2, &facts2), &format!("renamed query {e2}"));
    }
    // An input without symbols is the same query again (an exact hit); every other one hits.
    assert_eq!(hits, cases - without_symbols, "renamed queries that hit, of {cases}");
}

/// Names whose string order differs from the first query's are a different key: the normal
/// form sorts atoms by name, so on some inputs the renamed first result is not what a search
/// of the renamed query finds (a cache keyed without the order would return it). Each answer
/// still equals a new search.
#[test]
fn another_name_order_is_another_entry() {
    let mut rng = Rng::new(0x000C_AC4E_0002);
    let syms = ["a", "b", "i", "t"];
    let (mut differs, cases) = (0, 150);
    for case in 0..cases {
        let e = random_expr(&mut rng, 4, &syms);
        let facts = facts_of(&mut rng, &e);
        let mut cache = SimplifyCache::new();
        let first = cache.simplify(&e, &facts);
        // The reversed string order: a → z…t, t → z…a.
        let map: HashMap<String, String> = syms
            .iter()
            .map(|s| (s.to_string(), format!("o{case}_{}", (b'a' + b't' - s.as_bytes()[0]) as char)))
            .collect();
        let (e2, facts2) = (rename(&e, &map), rename_facts(&facts, &map));
        let second = cache.simplify(&e2, &facts2);
        let symbols = e.symbols().len();
        if symbols >= 2 {
            assert_eq!(cache.stats().renamed_hits, 0, "{e} and {e2} share an entry");
        }
        assert_same(&second, &fresh(&e2, &facts2), &format!("reordered query {e2}"));
        if rename(&first.expr, &map) != second.expr {
            differs += 1;
        }
    }
    assert!(differs > 0, "no input where the name order changes the result: the test shows nothing");
}

/// Equal up to renaming with other facts: not the same question. `x mod 16` is `x` for
/// `x ∈ [0, 15]` only; a cache keyed on the shape alone would answer `y` for `y ∈ [0, 31]`.
#[test]
fn other_facts_are_another_entry() {
    let mut cache = SimplifyCache::new();
    let small = cache.simplify(&(sym("x") % 16), &Facts::new().range("x", 0, 15));
    assert_eq!(small.expr.to_string(), "x");
    let large = cache.simplify(&(sym("y") % 16), &Facts::new().range("y", 0, 31));
    assert_eq!(large.expr.to_string(), "y & 15");
    // A divisor only: the same interval, another congruence.
    let multiple = cache.simplify(&(sym("z") % 16), &Facts::new().range("z", 0, 31).divisible("z", 16));
    assert_eq!(multiple.expr.to_string(), "0");
    // Same facts, renamed: one entry.
    let again = cache.simplify(&(sym("w") % 16), &Facts::new().range("w", 0, 31));
    assert_eq!(again.expr.to_string(), "w & 15");
    assert_eq!(cache.stats().renamed_hits, 1);
    assert_eq!(cache.stats().queries, 4);
}

/// A repeated query is answered by value, with the first answer's tree (shared `Rc`s, which
/// the emitter emits once), and an unimproved answer is the input itself.
#[test]
fn a_repeat_is_the_first_answer_and_an_unimproved_answer_is_the_input() {
    let mut cache = SimplifyCache::new();
    let facts = Facts::new().range("i", 0, 15).range("t", 0, 6);
    let e = (sym("i") + sym("t") * 16) / 16 * 64 + (sym("i") + sym("t") * 16) % 16;
    let first = cache.simplify(&e, &facts);
    let second = cache.simplify(&e, &facts);
    assert_eq!(cache.stats().exact_hits, 1);
    let children = |r: &SimplifyReport| match &r.expr {
        IndexExpr::Bin(_, a, b) => Some((Rc::as_ptr(a), Rc::as_ptr(b))),
        _ => None,
    };
    assert!(children(&first).is_some());
    assert_eq!(children(&first), children(&second));
    // Names of this test only, interned in their string order (other tests run in parallel).
    for n in ["unimproved_u", "unimproved_v", "unimproved_w", "unimproved_x", "unimproved_y", "unimproved_z"] {
        let _ = Symbol::from(n);
    }
    let plain = sym("unimproved_u") * sym("unimproved_v") + sym("unimproved_w");
    let unchanged = cache.simplify(&plain, &Facts::new().range("unimproved_u", 0, 9));
    assert!(!unchanged.improved());
    let renamed = sym("unimproved_x") * sym("unimproved_y") + sym("unimproved_z");
    let again = cache.simplify(&renamed, &Facts::new().range("unimproved_x", 0, 9));
    assert_eq!(cache.stats().renamed_hits, 1);
    let IndexExpr::Bin(_, ra, _) = &renamed else { unreachable!() };
    let IndexExpr::Bin(_, ga, _) = &again.expr else { panic!("not a sum: {}", again.expr) };
    assert!(Rc::ptr_eq(ra, ga), "the unimproved answer is not the input itself");
}
