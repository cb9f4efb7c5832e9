//! Soundness tests with access to the e-graph.
//!
//! * `every_rule_is_sound_on_random_points`: each rule alone, on random instances of its
//!   left-hand side; after it ran, **every e-node of every e-class** is evaluated at random
//!   points inside the declared ranges (edges included) and must agree with its class, and the
//!   class value must lie inside the analysis interval and congruence. Each rule must also have
//!   fired on enough instances for the check to mean something.
//! * `simplify_preserves_value_on_random_expressions`: random trees over symbols with random
//!   facts; the result equals the input at random points, and the first round's whole e-graph is
//!   checked the same way.
//! * `no_fact_rule_fires_on_unknown_ranges`.

use std::collections::{BTreeMap, HashMap};

use egg::{ENodeOrVar, Id, PatternAst, Runner, Symbol};

use crate::analysis::{IGraph, IndexAnalysis, IndexLang};
use crate::expr::{IndexExpr, Op};
use crate::facts::{Facts, SymFact};
use crate::rules::rule_set;
use crate::simplify::{run_round, simplify_with, SimplifyOptions};

/// SplitMix64: small, deterministic, good enough for test inputs.
pub(crate) struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[lo, hi]` (inclusive).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (hi as i128 - lo as i128 + 1) as u128;
        (lo as i128 + (self.next() as u128 % span) as i128) as i64
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

/// Random facts for one symbol: mostly a range (often starting at 0, sometimes negative),
/// sometimes a divisor, sometimes nothing at all.
pub(crate) fn random_fact(rng: &mut Rng) -> SymFact {
    loop {
        let mut f = SymFact::default();
        if rng.chance(0.8) {
            let lo = match rng.range(0, 5) {
                0..=2 => 0,
                3 => rng.range(-40, -1),
                _ => rng.range(1, 40),
            };
            let w = rng.pick(&[0, 1, 3, 7, 15, 16, 31, 63, 100, 255]);
            f.lo = Some(lo);
            f.hi = Some(lo + w);
        }
        if rng.chance(0.2) {
            let d = rng.pick(&[2, 4, 8, 16, 32]);
            f.divisor = Some(d);
            // Half of them with a non-zero residue (loop induction variables `lb + k·step`).
            if rng.chance(0.5) {
                f.residue = rng.range(0, d - 1);
            }
        }
        let mut facts = Facts::new();
        facts.set("s", f);
        if facts.check().is_ok() {
            return f;
        }
    }
}

/// A value admitted by `f`: range ends (rounded to the divisor) with higher probability.
fn sample(rng: &mut Rng, f: &SymFact, edge: usize) -> i64 {
    let lo = f.lo.unwrap_or(-300);
    let hi = f.hi.unwrap_or(300);
    let d = f.divisor.unwrap_or(1);
    let r = if f.divisor.is_some() { f.residue } else { 0 };
    let first = lo + (r - lo).rem_euclid(d);
    let last = hi - (hi - r).rem_euclid(d);
    if first > last {
        // Only possible for an unknown end combined with a divisor that skips the window.
        return first;
    }
    let count = (last - first) / d;
    match edge % 4 {
        0 if edge < 8 => first,
        1 if edge < 8 => last,
        _ => first + d * rng.range(0, count),
    }
}

fn add_plain(eg: &mut IGraph, e: &IndexExpr) -> Id {
    match e {
        IndexExpr::Const(k) => eg.add(IndexLang::Num(*k)),
        IndexExpr::Sym(s) => eg.add(IndexLang::Sym(Symbol::from(s.as_str()))),
        IndexExpr::Bin(op, a, b) => {
            let a = add_plain(eg, a);
            let b = add_plain(eg, b);
            eg.add(IndexLang::from_op(*op, [a, b]))
        }
    }
}

/// Evaluates every e-node at `env` and checks that each class has one value, inside its
/// interval and congruence. Undefined nodes (division by zero, overflow) are skipped.
fn check_egraph_at(eg: &IGraph, env: &HashMap<String, i64>) -> Result<usize, String> {
    let mut val: HashMap<Id, i64> = HashMap::new();
    loop {
        let mut changed = false;
        for class in eg.classes() {
            for node in &class.nodes {
                let v = match node {
                    IndexLang::Num(k) => Some(*k),
                    IndexLang::Sym(s) => env.get(s.as_str()).copied(),
                    other => other.as_op().and_then(|(op, [a, b])| {
                        let a = val.get(&eg.find(a))?;
                        let b = val.get(&eg.find(b))?;
                        op.eval(*a, *b)
                    }),
                };
                let Some(v) = v else { continue };
                match val.get(&class.id) {
                    None => {
                        val.insert(class.id, v);
                        changed = true;
                    }
                    Some(old) if *old != v => {
                        return Err(format!("class {} has values {old} and {v} (node {node:?}) at {env:?}", class.id));
                    }
                    _ => {}
                }
            }
        }
        if !changed {
            break;
        }
    }
    for class in eg.classes() {
        if let Some(v) = val.get(&class.id) {
            let d = class.data;
            if d.range.lo.is_some_and(|l| *v < l) || d.range.hi.is_some_and(|h| *v > h) {
                return Err(format!("class {} value {v} outside {:?} at {env:?}", class.id, d.range));
            }
            let m = d.modular;
            let ok = if m.m == 0 { *v == m.r } else { (*v as i128 - m.r as i128).rem_euclid(m.m as i128) == 0 };
            if !ok {
                return Err(format!("class {} value {v} violates {m:?} at {env:?}", class.id));
            }
        }
    }
    Ok(val.len())
}

fn is_const_var(name: &str) -> bool {
    name.starts_with("?c") || name.starts_with("?k") || name.starts_with("?m")
}

/// A random instance of the rule's left-hand side: constants for `?c…/?k…/?m…` (related to each
/// other often enough for the conditions to hold), small expressions over fresh symbols with
/// random facts for the other variables.
fn instantiate(rng: &mut Rng, lhs: &PatternAst<IndexLang>, facts: &mut Facts) -> Option<IndexExpr> {
    let nodes = lhs.as_ref();
    let mut vars: BTreeMap<String, IndexExpr> = BTreeMap::new();
    // Fix constants first, so `?ck = ?c·?k` and masks can be made consistent.
    for n in nodes {
        if let ENodeOrVar::Var(v) = n {
            let name = v.to_string();
            if vars.contains_key(&name) || !is_const_var(&name) {
                continue;
            }
            let e = if rng.chance(0.12) {
                // A symbolic positive divisor (exercises D0/M0 with a non-constant divisor).
                let s = format!("d{}", vars.len());
                facts.set(
                    &s,
                    SymFact { lo: Some(rng.range(1, 40)), hi: Some(rng.range(40, 80)), divisor: None, residue: 0 },
                );
                IndexExpr::Sym(s)
            } else if rng.chance(0.9) {
                IndexExpr::Const(rng.pick(&[1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 256]))
            } else {
                IndexExpr::Const(rng.pick(&[0, -1, -4, -16, 5, 7, 15, 31]))
            };
            vars.insert(name, e);
        }
    }
    if let (Some(IndexExpr::Const(c)), Some(IndexExpr::Const(k))) = (vars.get("?c"), vars.get("?k")) {
        if vars.contains_key("?ck") && rng.chance(0.7) {
            vars.insert("?ck".into(), IndexExpr::Const(c * k));
        }
    }
    if vars.contains_key("?m") && rng.chance(0.7) {
        vars.insert("?m".into(), IndexExpr::Const(rng.pick(&[1, 3, 7, 15, 31, 255])));
    }
    if let Some(IndexExpr::Const(k)) = vars.get("?k") {
        if nodes.iter().any(|n| matches!(n, ENodeOrVar::ENode(IndexLang::Shl(_) | IndexLang::Shr(_))))
            && rng.chance(0.8)
        {
            let k = k.rem_euclid(9);
            vars.insert("?k".into(), IndexExpr::Const(k));
        }
    }
    let mut sym_count = 0;
    let mut fresh = |rng: &mut Rng, facts: &mut Facts| {
        sym_count += 1;
        let name = format!("s{sym_count}");
        facts.set(&name, random_fact(rng));
        name
    };
    let mut built: Vec<IndexExpr> = Vec::new();
    for n in nodes {
        let e = match n {
            ENodeOrVar::Var(v) => {
                let name = v.to_string();
                if let Some(e) = vars.get(&name) {
                    e.clone()
                } else {
                    let s = IndexExpr::Sym(fresh(rng, facts));
                    let e = match rng.range(0, 9) {
                        0 => IndexExpr::bin(Op::Mul, s, IndexExpr::Const(rng.pick(&[2, 4, 16, -3]))),
                        1 => IndexExpr::bin(Op::Add, s, IndexExpr::Const(rng.pick(&[1, 16, -5]))),
                        2 => IndexExpr::bin(Op::FloorMod, s, IndexExpr::Const(rng.pick(&[4, 16, 7]))),
                        3 => IndexExpr::bin(Op::FloorDiv, s, IndexExpr::Const(rng.pick(&[4, 16, 7]))),
                        4 => {
                            let t = IndexExpr::Sym(fresh(rng, facts));
                            IndexExpr::bin(Op::Add, s, IndexExpr::bin(Op::Mul, t, IndexExpr::Const(16)))
                        }
                        _ => s,
                    };
                    vars.insert(name, e.clone());
                    e
                }
            }
            ENodeOrVar::ENode(node) => match node {
                IndexLang::Num(k) => IndexExpr::Const(*k),
                IndexLang::Sym(s) => IndexExpr::Sym(s.as_str().to_string()),
                other => {
                    let (op, [a, b]) = other.as_op()?;
                    IndexExpr::bin(op, built.get(usize::from(a))?.clone(), built.get(usize::from(b))?.clone())
                }
            },
        };
        built.push(e);
    }
    built.pop()
}

fn env_for(rng: &mut Rng, facts: &Facts, edge: usize) -> HashMap<String, i64> {
    facts.iter().map(|(n, f)| (n.to_string(), sample(rng, f, edge))).collect()
}

#[test]
fn rule_patterns_all_parse() {
    // rule() drops a rule whose pattern fails to parse; make sure none was dropped.
    assert_eq!(rule_set(true).len(), 42);
    assert_eq!(rule_set(false).len(), 40);
}

#[test]
fn every_rule_is_sound_on_random_points() {
    let mut rng = Rng::new(0x1DE5_1A7E);
    let mut summary = Vec::new();
    for def in rule_set(true) {
        let lhs: PatternAst<IndexLang> = def.info.lhs.parse().expect("rule pattern parses");
        let single = [&def.rewrite];
        let (mut fired, mut folded, mut instances, mut points) = (0usize, 0usize, 0usize, 0usize);
        for _ in 0..400 {
            let mut facts = Facts::new();
            let Some(e) = instantiate(&mut rng, &lhs, &mut facts) else { continue };
            let mut eg = IGraph::new(IndexAnalysis::new(&facts));
            let root = add_plain(&mut eg, &e);
            eg.rebuild();
            let runner: Runner<IndexLang, IndexAnalysis, ()> =
                Runner::default().with_egraph(eg).with_iter_limit(2).run(single);
            let n: usize = runner.iterations.iter().filter_map(|it| it.applied.get(&Symbol::from(def.info.name))).sum();
            instances += 1;
            if n > 0 {
                fired += 1;
            }
            let root = runner.egraph.find(root);
            if runner.egraph[root].nodes.iter().any(|n| matches!(n, IndexLang::Num(_))) {
                folded += 1;
            }
            for edge in 0..24 {
                let env = env_for(&mut rng, &facts, edge);
                if let Err(msg) = check_egraph_at(&runner.egraph, &env) {
                    panic!("rule {} unsound on instance {e} with facts {facts:?}: {msg}", def.info.name);
                }
                points += 1;
            }
        }
        summary.push(format!(
            "{}: fired on {fired}/{instances} (lhs constant-folded by the analysis on {folded}), {points} points",
            def.info.name
        ));
        // M4 (x mod c → r mod c when c | m for x ≡ r mod m) is what the analysis itself does
        // when it computes the congruence of `x mod c`: the class is folded before the rule can
        // match. For it, the folds are the instances (and the e-graph check covers them).
        let exercised = if def.info.name == "M4" { fired + folded } else { fired };
        assert!(
            exercised >= 5,
            "rule {} fired on only {fired} of {instances} random instances: the test would prove nothing",
            def.info.name
        );
    }
    println!("{}", summary.join("\n"));
}

/// A random index expression: the operators of the language, divisions and modulos mostly by
/// (positive) constants, tile-coordinate shapes `s + 16·t` to give the rules work.
pub(crate) fn random_expr(rng: &mut Rng, depth: u32, syms: &[&str]) -> IndexExpr {
    let leaf = |rng: &mut Rng| {
        if rng.chance(0.65) {
            IndexExpr::sym(rng.pick(syms))
        } else {
            IndexExpr::Const(rng.pick(&[0, 1, 2, 3, 4, 8, 15, 16, 32, -1, -7, 256]))
        }
    };
    if depth == 0 || rng.chance(0.2) {
        return leaf(rng);
    }
    let sub = |rng: &mut Rng| random_expr(rng, depth - 1, syms);
    let cdiv = |rng: &mut Rng| {
        IndexExpr::Const(if rng.chance(0.93) {
            rng.pick(&[1, 2, 3, 4, 8, 16, 32, 48, 256])
        } else {
            rng.pick(&[-4, -16, 0])
        })
    };
    match rng.range(0, 19) {
        0..=3 => IndexExpr::bin(Op::Add, sub(rng), sub(rng)),
        4 => IndexExpr::bin(Op::Sub, sub(rng), sub(rng)),
        5..=6 => IndexExpr::bin(Op::Mul, sub(rng), IndexExpr::Const(rng.pick(&[2, 3, 4, 16, 256, -2]))),
        7 => IndexExpr::bin(Op::Mul, sub(rng), sub(rng)),
        8..=9 => IndexExpr::bin(Op::FloorDiv, sub(rng), cdiv(rng)),
        10..=11 => IndexExpr::bin(Op::FloorMod, sub(rng), cdiv(rng)),
        12 => IndexExpr::bin(if rng.chance(0.5) { Op::FloorDiv } else { Op::FloorMod }, sub(rng), leaf(rng)),
        13 => IndexExpr::bin(if rng.chance(0.5) { Op::Min } else { Op::Max }, sub(rng), sub(rng)),
        14 => IndexExpr::bin(Op::Shr, sub(rng), IndexExpr::Const(rng.range(0, 5))),
        15 => IndexExpr::bin(Op::And, sub(rng), IndexExpr::Const(rng.pick(&[1, 3, 15, 255, 6]))),
        16 => IndexExpr::bin(Op::Shl, sub(rng), IndexExpr::Const(rng.range(0, 4))),
        _ => {
            // (i + c·t) op c, the tile-coordinate shape, possibly scaled.
            let c = rng.pick(&[4, 8, 16, 32]);
            let inner = IndexExpr::bin(
                Op::Add,
                sub(rng),
                IndexExpr::bin(Op::Mul, IndexExpr::sym(rng.pick(syms)), IndexExpr::Const(c)),
            );
            let op = if rng.chance(0.5) { Op::FloorDiv } else { Op::FloorMod };
            let e = IndexExpr::bin(op, inner, IndexExpr::Const(c));
            if rng.chance(0.5) {
                IndexExpr::bin(Op::Mul, e, IndexExpr::Const(rng.pick(&[1, 16, 256])))
            } else {
                e
            }
        }
    }
}

#[test]
fn simplify_preserves_value_on_random_expressions() {
    let mut rng = Rng::new(42);
    let syms = ["a", "b", "i", "t"];
    let opts = SimplifyOptions::default();
    let rules = rule_set(true);
    let (mut improved, mut checked_points, mut defined) = (0, 0, 0);
    let cases = 400;
    for case in 0..cases {
        let mut facts = Facts::new();
        for s in syms {
            facts.set(s, random_fact(&mut rng));
        }
        let e = random_expr(&mut rng, 4, &syms);
        let rep = simplify_with(&e, &facts, &opts);
        assert!(rep.cost_after <= rep.cost_before, "cost grew: {rep}");
        if rep.improved() {
            improved += 1;
        }
        // The whole e-graph of the first round must be consistent too.
        let round = run_round(&crate::normalize::normalize(&e), &facts, &opts, &rules);
        for k in 0..40 {
            let env = env_for(&mut rng, &facts, k);
            if k < 8 {
                if let Err(msg) = check_egraph_at(&round.egraph, &env) {
                    panic!("case {case}: e-graph of {e} under {facts:?} inconsistent: {msg}");
                }
            }
            if let Some(want) = e.eval(&env) {
                defined += 1;
                let got = rep.expr.eval(&env);
                assert_eq!(got, Some(want), "case {case}: {e} => {} differs at {env:?} (facts {facts:?})", rep.expr);
            }
            checked_points += 1;
        }
    }
    println!("{improved}/{cases} random expressions improved; {defined}/{checked_points} points defined and equal");
    assert!(
        improved >= cases / 5,
        "only {improved} of {cases} random expressions simplified: generator too weak to test anything"
    );
    assert!(defined >= checked_points / 2);
}

#[test]
fn no_fact_rule_fires_on_unknown_ranges() {
    let (x, y) = (IndexExpr::sym("x"), IndexExpr::sym("y"));
    let facts = Facts::new(); // x and y unknown
    let needs_range: Vec<&str> = rule_set(true).iter().filter(|r| r.info.needs_range).map(|r| r.info.name).collect();
    assert!(needs_range.len() >= 12);
    // Nothing can remove a division or modulo here without a range.
    let keep = [
        x.clone() % 16,
        x.clone() / 16,
        (x.clone() + y.clone()) / 16,
        (x.clone() * 16 + y.clone()) / 16,
        (x.clone() * 16 + y.clone()) % 32,
        (x.clone() * 4 + y.clone()) / 16,
        (x.clone() * 4 + y.clone()) % 16,
        (x.clone() / 16) * 16,
        x.clone() % 16 * 16 + y.clone() / 16 * 256,
        IndexExpr::bin(Op::Min, x.clone() / 4, y.clone()),
        (x.clone() >> 4) + (y.clone() & 15),
        (x.clone() * y.clone()) / y.clone(),
        (x.clone() * y.clone()) % y.clone(),
    ];
    for e in keep {
        let rep = crate::simplify(&e, &facts);
        for name in &needs_range {
            assert!(!rep.rules_fired.contains_key(*name), "rule {name} fired on unknown ranges: {rep}");
        }
        let dm = |e: &IndexExpr| {
            e.div_mod_count()
                + e.op_counts().iter().filter(|(op, _)| matches!(op, Op::Shr | Op::And)).map(|(_, n)| n).sum::<usize>()
        };
        assert_eq!(dm(&rep.expr), dm(&e), "a division/modulo vanished without facts: {rep}");
    }
    // The same shapes with ranges do lose their divisions (the test above is not vacuous).
    let known = Facts::new().range("x", 0, 15).range("y", 0, 15);
    let rep = crate::simplify(&((IndexExpr::sym("x") * 16 + IndexExpr::sym("y")) / 16), &known);
    assert_eq!(rep.expr, IndexExpr::sym("x"));
    assert!(rep.rules_fired.keys().any(|k| needs_range.contains(&k.as_str())));
}

/// The proof mode on the random expressions of the test above (the first 80): no rewrite has a
/// counterexample, and the solver proves nearly all of them (symbolic products with division
/// may time out).
#[test]
fn random_rewrites_are_proven_by_the_solver() {
    use crate::smt::{prove_rewrite, ProofOptions, Verdict};
    let mut rng = Rng::new(42);
    let syms = ["a", "b", "i", "t"];
    let (mut rewrites, mut proven) = (0, 0);
    for case in 0..80 {
        let mut facts = Facts::new();
        for s in syms {
            facts.set(s, random_fact(&mut rng));
        }
        let e = random_expr(&mut rng, 4, &syms);
        let rep = simplify_with(&e, &facts, &SimplifyOptions::default());
        if rep.expr == e {
            continue;
        }
        rewrites += 1;
        let proof = prove_rewrite(&e, &rep.expr, &facts, &ProofOptions::fast());
        assert!(
            !matches!(proof.verdict, Verdict::Counterexample(_)),
            "case {case}: {e} => {}: {:?}",
            rep.expr,
            proof.verdict
        );
        proven += usize::from(proof.verdict.is_proven());
    }
    println!("{proven}/{rewrites} random rewrites proven");
    assert!(rewrites >= 16 && proven * 10 >= rewrites * 9, "{proven}/{rewrites} proven");
}

/// A random expression of the operators `simplify_without_rules` accepts (and, rarely, one it
/// does not), with the constants that make rules match (`0`, `1`) and that make the output form
/// cheaper (`-1`).
fn random_linear(rng: &mut Rng, depth: u32, syms: &[&str]) -> IndexExpr {
    if depth == 0 || rng.chance(0.25) {
        return if rng.chance(0.6) {
            IndexExpr::sym(rng.pick(syms))
        } else {
            IndexExpr::Const(rng.pick(&[0, 1, -1, 2, 3, 16, 256, -7]))
        };
    }
    let sub = |rng: &mut Rng| random_linear(rng, depth - 1, syms);
    match rng.range(0, 12) {
        0..=3 => IndexExpr::bin(Op::Add, sub(rng), sub(rng)),
        4..=5 => IndexExpr::bin(Op::Sub, sub(rng), sub(rng)),
        6..=7 => IndexExpr::bin(Op::Mul, sub(rng), IndexExpr::Const(rng.pick(&[1, -1, 2, 16, 256, -3]))),
        8 => IndexExpr::bin(Op::Mul, sub(rng), sub(rng)),
        9 => IndexExpr::bin(Op::Shl, sub(rng), IndexExpr::Const(rng.range(0, 4))),
        10 => IndexExpr::bin(Op::FloorDiv, sub(rng), IndexExpr::Const(16)),
        _ => IndexExpr::bin(Op::Max, sub(rng), sub(rng)),
    }
}

/// `simplify_without_rules` answers only where the e-graph could do nothing, and then exactly
/// what `simplify` returns (the same tree, the same costs).
#[test]
fn without_rules_agrees_with_simplify() {
    let mut rng = Rng::new(0x5EED_0F14);
    let syms = ["a", "b", "i", "t"];
    let (mut answered, mut declined, mut rewritten, cases) = (0, 0, 0, 600);
    for case in 0..cases {
        let mut facts = Facts::new();
        for s in syms {
            let mut f = random_fact(&mut rng);
            if rng.chance(0.1) {
                // A pinned symbol: the analysis folds it to a constant.
                let v = rng.range(-3, 20);
                f = SymFact { lo: Some(v), hi: Some(v), ..SymFact::default() };
            }
            if rng.chance(0.8) {
                facts.set(s, f);
            }
        }
        let e = random_linear(&mut rng, 4, &syms);
        let facts = {
            // As the pass gives them: the facts of the expression's symbols only.
            let mut own = Facts::new();
            for s in e.symbols() {
                if let Some(f) = facts.get(&s) {
                    own.set(&s, *f);
                }
            }
            own
        };
        let fast = crate::simplify::simplify_without_rules(&e, &facts);
        let full = simplify_with(&e, &facts, &SimplifyOptions::default());
        match fast {
            None => declined += 1,
            Some(fast) => {
                answered += 1;
                assert_eq!(fast.expr, full.expr, "case {case}: {e} under {facts:?}");
                assert_eq!(
                    (fast.cost_before, fast.cost_after),
                    (full.cost_before, full.cost_after),
                    "case {case}: {e}"
                );
                assert!(full.rules_fired.is_empty(), "case {case}: {e}: rules fired: {:?}", full.rules_fired);
                if fast.improved() {
                    rewritten += 1;
                }
            }
        }
    }
    println!("{answered} answered ({rewritten} rewritten), {declined} declined of {cases}");
    assert!(answered >= cases / 4 && declined >= cases / 4, "{answered} answered, {declined} declined");
    assert!(rewritten >= 20, "only {rewritten} answered cases were rewritten");
}
