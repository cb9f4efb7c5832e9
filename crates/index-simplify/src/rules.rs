//! The rewrite rules: the table with each rule's rewrite, condition and why it holds is
//! docs/index-simplification.md §6 (ids D0–D7, M0–M6, S1, R0–R3, P1–P2, B1–B3, N1–N2, I*).
//!
//! `/` and `%` are floor division and modulo; every conditional rule reads proven facts only
//! (an unknown bound makes a range condition false, so no `needs_range` rule fires on a symbol
//! without facts). Associativity and commutativity are not rules: sums are normalized outside
//! the e-graph and inserted with each term peeled to the front, the shape the binary
//! `(+ (* ?x ?c1) ?y)` patterns need (docs/index-simplification.md §7).

use std::sync::{Arc, OnceLock};

use egg::{
    Applier, ENodeOrVar, Id, Language, Pattern, PatternAst, Rewrite, SearchMatches, Searcher, Subst, Symbol, Var,
};

use crate::analysis::{Data, IGraph, IndexAnalysis, IndexLang};
use crate::expr::{power_of_two_exp, Op};

/// Description of one rule.
#[derive(Clone, Debug)]
pub struct RuleInfo {
    pub name: &'static str,
    /// The left-hand side as an egg pattern (s-expression).
    pub lhs: &'static str,
    /// True when the condition reads interval facts (a proven bound): such a rule cannot fire
    /// on a symbol of unknown range. (D1m, M1m and M4 read congruences, which come from
    /// declared divisors or from the structure, like `x·16 ≡ 0 (mod 16)`.)
    pub needs_range: bool,
}

/// Access to the match inside a rule's right-hand side builder.
pub(crate) struct Cx<'a> {
    eg: &'a mut IGraph,
    subst: &'a Subst,
}

impl Cx<'_> {
    fn var(name: &str) -> Option<Var> {
        name.parse().ok()
    }
    fn id(&self, v: &str) -> Option<Id> {
        self.subst.get(Cx::var(v)?).copied()
    }
    fn data(&self, v: &str) -> Option<Data> {
        Some(self.eg[self.id(v)?].data)
    }
    /// Any constant.
    fn k(&self, v: &str) -> Option<i64> {
        self.data(v)?.konst()
    }
    /// A positive constant.
    fn pk(&self, v: &str) -> Option<i64> {
        self.data(v)?.pos_const()
    }
    fn num(&mut self, k: i64) -> Id {
        self.eg.add(IndexLang::Num(k))
    }
    /// Adds `a op b`, skipping the trivial `·1`, `/1`, `+0` so rules need no cleanup round.
    fn op(&mut self, op: Op, a: Id, b: Id) -> Id {
        let kb = self.eg[b].data.konst();
        match (op, kb) {
            (Op::Mul | Op::FloorDiv, Some(1)) | (Op::Add | Op::Sub, Some(0)) => a,
            _ => self.eg.add(IndexLang::from_op(op, [a, b])),
        }
    }
    fn op_k(&mut self, op: Op, a: Id, k: i64) -> Id {
        let b = self.num(k);
        self.op(op, a, b)
    }
    /// `y ∈ [0, c)`: proven `0 ≤ lo(y)` and `hi(y) < c`.
    fn within(&self, y: &str, c: i64) -> bool {
        self.data(y).is_some_and(|d| d.range.within(c))
    }
    fn nonzero(&self, v: &str) -> bool {
        self.data(v)
            .is_some_and(|d| matches!(d.range.lo, Some(l) if l >= 1) || matches!(d.range.hi, Some(h) if h <= -1))
    }
}

type Build = dyn Fn(&mut Cx) -> Option<Id> + Send + Sync;

/// An applier that computes the right-hand side (constants like `c1/c2`) and checks the
/// condition; `None` means "does not apply".
struct Compute(Arc<Build>);

impl Applier<IndexLang, IndexAnalysis> for Compute {
    fn apply_one(
        &self,
        egraph: &mut IGraph,
        eclass: Id,
        subst: &Subst,
        _ast: Option<&PatternAst<IndexLang>>,
        _rule: Symbol,
    ) -> Vec<Id> {
        let mut cx = Cx { eg: egraph, subst };
        match (self.0)(&mut cx) {
            Some(new) if egraph.union(eclass, new) => vec![eclass],
            _ => vec![],
        }
    }
}

/// A left-hand side that is searched only when the e-graph has a node of every operator the
/// pattern names: a match maps each pattern node to an e-node of the same operator, and egg's
/// index of the classes by operator is exact when it searches (after a rebuild), so skipping
/// the search finds exactly what it would have found, nothing. Most searches end here: once a
/// round has removed the divisions, the 30-odd `/` and `%` rules cannot match, yet the pattern
/// search would visit every `+` class of the peeled sums for each of them.
struct Lhs {
    pattern: Pattern<IndexLang>,
    ops: Vec<std::mem::Discriminant<IndexLang>>,
}

impl Lhs {
    fn new(pattern: Pattern<IndexLang>) -> Self {
        let mut ops = Vec::new();
        for node in pattern.ast.as_ref() {
            if let ENodeOrVar::ENode(e) = node {
                if !ops.contains(&e.discriminant()) {
                    ops.push(e.discriminant());
                }
            }
        }
        Lhs { pattern, ops }
    }

    fn impossible(&self, egraph: &IGraph) -> bool {
        self.ops.iter().any(|op| egraph.classes_for_op(op).is_none_or(|mut ids| ids.next().is_none()))
    }
}

impl Searcher<IndexLang, IndexAnalysis> for Lhs {
    fn search_eclass_with_limit(
        &self,
        egraph: &IGraph,
        eclass: Id,
        limit: usize,
    ) -> Option<SearchMatches<'_, IndexLang>> {
        self.pattern.search_eclass_with_limit(egraph, eclass, limit)
    }

    fn search_with_limit(&self, egraph: &IGraph, limit: usize) -> Vec<SearchMatches<'_, IndexLang>> {
        if self.impossible(egraph) {
            return vec![];
        }
        self.pattern.search_with_limit(egraph, limit)
    }

    fn get_pattern_ast(&self) -> Option<&PatternAst<IndexLang>> {
        Searcher::<IndexLang, IndexAnalysis>::get_pattern_ast(&self.pattern)
    }

    fn vars(&self) -> Vec<Var> {
        Searcher::<IndexLang, IndexAnalysis>::vars(&self.pattern)
    }
}

/// A rule with its description.
pub struct RuleDef {
    pub info: RuleInfo,
    pub rewrite: Rewrite<IndexLang, IndexAnalysis>,
}

fn rule(
    name: &'static str,
    lhs: &'static str,
    needs_range: bool,
    f: impl Fn(&mut Cx) -> Option<Id> + Send + Sync + 'static,
) -> Option<RuleDef> {
    let pattern: Pattern<IndexLang> = lhs.parse().ok()?;
    let rewrite = Rewrite::new(name, Lhs::new(pattern), Compute(Arc::new(f))).ok()?;
    Some(RuleDef { info: RuleInfo { name, lhs, needs_range }, rewrite })
}

/// The whole rule set. `bit_ops` enables P1/P2 (floor ops → shifts/masks on non-negative
/// values). Never panics: a rule whose pattern failed to parse would simply be missing, and
/// the unit tests check that none is.
pub fn rule_set(bit_ops: bool) -> Vec<RuleDef> {
    let mut v: Vec<Option<RuleDef>> = vec![
        // ---- division ----
        rule("D0", "(/ ?y ?c)", true, |cx| {
            let c = cx.data("?c")?.range.lo.filter(|l| *l >= 1)?;
            cx.within("?y", c).then(|| cx.num(0))
        }),
        rule("D1", "(/ (+ (* ?x ?c1) ?y) ?c2)", false, |cx| {
            let (c1, c2) = (cx.k("?c1")?, cx.pk("?c2")?);
            if c1 % c2 != 0 {
                return None;
            }
            let (x, y, c2id) = (cx.id("?x")?, cx.id("?y")?, cx.id("?c2")?);
            let xq = cx.op_k(Op::Mul, x, c1 / c2);
            let yd = cx.op(Op::FloorDiv, y, c2id);
            Some(cx.op(Op::Add, xq, yd))
        }),
        rule("D1m", "(/ (+ ?a ?y) ?c)", false, |cx| {
            let c = cx.pk("?c")?;
            if !cx.data("?a")?.modular.multiple_of(c) {
                return None;
            }
            let (a, y, cid) = (cx.id("?a")?, cx.id("?y")?, cx.id("?c")?);
            let ad = cx.op(Op::FloorDiv, a, cid);
            let yd = cx.op(Op::FloorDiv, y, cid);
            Some(cx.op(Op::Add, ad, yd))
        }),
        rule("D2", "(/ (+ (* ?x ?c) ?y) ?c)", true, |cx| {
            let c = cx.pk("?c")?;
            if cx.within("?y", c) {
                cx.id("?x")
            } else {
                None
            }
        }),
        rule("D3", "(/ (+ (* ?x ?c1) ?y) ?c2)", true, |cx| {
            let (c1, c2) = (cx.pk("?c1")?, cx.pk("?c2")?);
            if c2 % c1 != 0 || !cx.within("?y", c1) {
                return None;
            }
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::FloorDiv, x, c2 / c1))
        }),
        rule("D4", "(/ (/ ?x ?c1) ?c2)", false, |cx| {
            let c = cx.pk("?c1")?.checked_mul(cx.pk("?c2")?)?;
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::FloorDiv, x, c))
        }),
        rule("D5", "(/ (* ?x ?c1) ?c2)", false, |cx| {
            let (c1, c2) = (cx.pk("?c1")?, cx.pk("?c2")?);
            if c2 % c1 != 0 {
                return None;
            }
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::FloorDiv, x, c2 / c1))
        }),
        rule("D6", "(/ (* ?x ?c1) ?c2)", false, |cx| {
            let (c1, c2) = (cx.k("?c1")?, cx.pk("?c2")?);
            if c1 % c2 != 0 {
                return None;
            }
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::Mul, x, c1 / c2))
        }),
        rule("D7", "(/ (* ?x ?y) ?y)", true, |cx| if cx.nonzero("?y") { cx.id("?x") } else { None }),
        // ---- modulo ----
        rule("M0", "(% ?y ?c)", true, |cx| {
            let c = cx.data("?c")?.range.lo.filter(|l| *l >= 1)?;
            if cx.within("?y", c) {
                cx.id("?y")
            } else {
                None
            }
        }),
        rule("M0s", "(% ?y ?c)", true, |cx| {
            let c = cx.pk("?c")?;
            let r = cx.data("?y")?.range;
            let (lo, hi) = (r.lo?, r.hi?);
            let q = crate::expr::floor_div(lo, c)?;
            if q == 0 || crate::expr::floor_div(hi, c)? != q {
                return None;
            }
            let shift = q.checked_mul(c)?.checked_neg()?;
            let y = cx.id("?y")?;
            Some(cx.op_k(Op::Add, y, shift))
        }),
        rule("M1", "(% (+ (* ?x ?c1) ?y) ?c2)", false, |cx| {
            let (c1, c2) = (cx.k("?c1")?, cx.pk("?c2")?);
            if c1 % c2 != 0 {
                return None;
            }
            let (y, c2id) = (cx.id("?y")?, cx.id("?c2")?);
            Some(cx.op(Op::FloorMod, y, c2id))
        }),
        rule("M1m", "(% (+ ?a ?y) ?c)", false, |cx| {
            let c = cx.pk("?c")?;
            if !cx.data("?a")?.modular.multiple_of(c) {
                return None;
            }
            let (y, cid) = (cx.id("?y")?, cx.id("?c")?);
            Some(cx.op(Op::FloorMod, y, cid))
        }),
        rule("M2", "(% (+ (* ?x ?c1) ?y) ?c2)", true, |cx| {
            let (c1, c2) = (cx.pk("?c1")?, cx.pk("?c2")?);
            if c2 % c1 != 0 || !cx.within("?y", c1) {
                return None;
            }
            let (x, y, c1id) = (cx.id("?x")?, cx.id("?y")?, cx.id("?c1")?);
            let xm = cx.op_k(Op::FloorMod, x, c2 / c1);
            let xs = cx.op(Op::Mul, xm, c1id);
            Some(cx.op(Op::Add, xs, y))
        }),
        rule("M3", "(% (% ?x ?c1) ?c2)", false, |cx| {
            let (c1, c2) = (cx.pk("?c1")?, cx.pk("?c2")?);
            if c1 % c2 != 0 {
                return None;
            }
            let (x, c2id) = (cx.id("?x")?, cx.id("?c2")?);
            Some(cx.op(Op::FloorMod, x, c2id))
        }),
        rule("M4", "(% ?x ?c)", false, |cx| {
            let c = cx.pk("?c")?;
            let m = cx.data("?x")?.modular;
            if m.m > 0 && m.m % c == 0 {
                Some(cx.num(m.r % c))
            } else {
                None
            }
        }),
        rule("M6", "(% (* ?x ?y) ?y)", true, |cx| if cx.nonzero("?y") { Some(cx.num(0)) } else { None }),
        // ---- split / recombine ----
        rule("S1", "(/ (% ?x ?c1) ?c2)", false, |cx| {
            let (c1, c2) = (cx.pk("?c1")?, cx.pk("?c2")?);
            if c1 % c2 != 0 {
                return None;
            }
            let (x, c2id) = (cx.id("?x")?, cx.id("?c2")?);
            let xd = cx.op(Op::FloorDiv, x, c2id);
            Some(cx.op_k(Op::FloorMod, xd, c1 / c2))
        }),
        rule("R1", "(+ (* (/ ?x ?c) ?c) (% ?x ?c))", false, |cx| {
            cx.pk("?c")?;
            cx.id("?x")
        }),
        rule("R1b", "(+ (% ?x ?c) (* (/ ?x ?c) ?c))", false, |cx| {
            cx.pk("?c")?;
            cx.id("?x")
        }),
        rule("R1s", "(+ (* (% ?x ?c) ?k) (* (/ ?x ?c) ?ck))", false, r1s),
        rule("R1sb", "(+ (* (/ ?x ?c) ?ck) (* (% ?x ?c) ?k))", false, r1s),
        // R3: `x % c + (x / c)·s ⇒ x + (x / c)·(s − c)` (and scaled by `k`): a fractal address
        // `col % 16 + (col / 16)·S` loses its modulo (docs/index-simplification.md §6).
        rule("R3", "(+ (% ?x ?c) (* (/ ?x ?c) ?s))", true, |cx| r3(cx, false)),
        rule("R3b", "(+ (* (/ ?x ?c) ?s) (% ?x ?c))", true, |cx| r3(cx, false)),
        rule("R3s", "(+ (* (% ?x ?c) ?k) (* (/ ?x ?c) ?s))", true, |cx| r3(cx, true)),
        rule("R3sb", "(+ (* (/ ?x ?c) ?s) (* (% ?x ?c) ?k))", true, |cx| r3(cx, true)),
        rule("R0", "(* (/ ?x ?c) ?k)", false, |cx| {
            let (c, k) = (cx.pk("?c")?, cx.k("?k")?);
            if k % c != 0 || !cx.data("?x")?.modular.multiple_of(c) {
                return None;
            }
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::Mul, x, k / c))
        }),
        rule("R2", "(+ (* (% (/ ?x ?c1) ?c2) ?c1) (% ?x ?c1))", false, r2),
        rule("R2b", "(+ (% ?x ?c1) (* (% (/ ?x ?c1) ?c2) ?c1))", false, r2),
        // ---- shifts and masks ----
        rule("B1", "(>> ?x ?k)", false, |cx| {
            let k = cx.k("?k").filter(|k| (0..=62).contains(k))?;
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::FloorDiv, x, 1i64 << k))
        }),
        rule("B2", "(& ?x ?m)", false, |cx| {
            let k = crate::expr::low_mask_width(cx.k("?m")?)?;
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::FloorMod, x, 1i64 << k))
        }),
        rule("B3", "(<< ?x ?k)", false, |cx| {
            let k = cx.k("?k").filter(|k| (0..=62).contains(k))?;
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::Mul, x, 1i64 << k))
        }),
        // ---- min / max ----
        rule("N1", "(min ?a ?b)", true, |cx| {
            let (a, b) = (cx.data("?a")?.range, cx.data("?b")?.range);
            match (a.hi, b.lo, b.hi, a.lo) {
                (Some(ah), Some(bl), _, _) if ah <= bl => cx.id("?a"),
                (_, _, Some(bh), Some(al)) if bh <= al => cx.id("?b"),
                _ => None,
            }
        }),
        rule("N2", "(max ?a ?b)", true, |cx| {
            let (a, b) = (cx.data("?a")?.range, cx.data("?b")?.range);
            match (a.lo, b.hi, b.lo, a.hi) {
                (Some(al), Some(bh), _, _) if al >= bh => cx.id("?a"),
                (_, _, Some(bl), Some(ah)) if bl >= ah => cx.id("?b"),
                _ => None,
            }
        }),
        // ---- identities ----
        rule("I-add0", "(+ ?x 0)", false, |cx| cx.id("?x")),
        rule("I-0add", "(+ 0 ?x)", false, |cx| cx.id("?x")),
        rule("I-mul1", "(* ?x 1)", false, |cx| cx.id("?x")),
        rule("I-div1", "(/ ?x 1)", false, |cx| cx.id("?x")),
        rule("I-sub0", "(- ?x 0)", false, |cx| cx.id("?x")),
        rule("I-subx", "(- ?x ?x)", false, |cx| Some(cx.num(0))),
    ];
    if bit_ops {
        v.push(rule("P1", "(/ ?x ?c)", true, |cx| {
            let k = power_of_two_exp(cx.pk("?c")?).filter(|k| *k >= 1)?;
            if !cx.data("?x")?.range.non_negative() {
                return None;
            }
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::Shr, x, k as i64))
        }));
        v.push(rule("P2", "(% ?x ?c)", true, |cx| {
            let c = cx.pk("?c")?;
            power_of_two_exp(c).filter(|k| *k >= 1)?;
            if !cx.data("?x")?.range.non_negative() {
                return None;
            }
            let x = cx.id("?x")?;
            Some(cx.op_k(Op::And, x, c - 1))
        }));
    }
    v.into_iter().flatten().collect()
}

fn r1s(cx: &mut Cx) -> Option<Id> {
    let (c, k, ck) = (cx.pk("?c")?, cx.k("?k")?, cx.k("?ck")?);
    if c.checked_mul(k)? != ck {
        return None;
    }
    let x = cx.id("?x")?;
    Some(cx.op_k(Op::Mul, x, k))
}

/// R3/R3s: `(x % c)·k + (x / c)·s ⇒ x·k + (x / c)·(s − c·k)` (`k = 1` unless `scaled`). Exact
/// for every `x` (`x = c·(x / c) + x % c`); `x ≥ 0` and `s ≥ c·k ≥ 1` keep every intermediate of
/// the right-hand side between 0 and the left-hand side, so it is defined where the left is.
fn r3(cx: &mut Cx, scaled: bool) -> Option<Id> {
    let c = cx.pk("?c")?;
    let k = if scaled { cx.pk("?k")? } else { 1 };
    let ck = c.checked_mul(k)?;
    let s = cx.data("?s")?;
    if !cx.data("?x")?.range.non_negative() || s.range.lo.is_none_or(|lo| lo < ck) {
        return None;
    }
    let (x, cid, sid) = (cx.id("?x")?, cx.id("?c")?, cx.id("?s")?);
    let xk = cx.op_k(Op::Mul, x, k);
    let rest = match s.konst() {
        Some(sk) if sk == ck => return Some(xk),
        Some(sk) => cx.num(sk.checked_sub(ck)?),
        None => cx.op_k(Op::Sub, sid, ck),
    };
    let q = cx.op(Op::FloorDiv, x, cid);
    let qs = cx.op(Op::Mul, q, rest);
    Some(cx.op(Op::Add, xk, qs))
}

fn r2(cx: &mut Cx) -> Option<Id> {
    let c = cx.pk("?c1")?.checked_mul(cx.pk("?c2")?)?;
    let x = cx.id("?x")?;
    Some(cx.op_k(Op::FloorMod, x, c))
}

/// [`rule_set`], built once per process: building it parses every pattern and allocates every
/// rewrite, which cost more than saturating a typical offset expression (issue 14), and the
/// rules are immutable (egg keeps the scheduler's per-rule state in the `Runner`).
pub fn shared_rule_set(bit_ops: bool) -> &'static [RuleDef] {
    static WITH_BIT_OPS: OnceLock<Vec<RuleDef>> = OnceLock::new();
    static WITHOUT_BIT_OPS: OnceLock<Vec<RuleDef>> = OnceLock::new();
    let cell = if bit_ops { &WITH_BIT_OPS } else { &WITHOUT_BIT_OPS };
    cell.get_or_init(|| rule_set(bit_ops))
}

/// Names and descriptions of all rules (including P1/P2).
pub fn rule_catalog() -> Vec<RuleInfo> {
    rule_set(true).into_iter().map(|r| r.info).collect()
}

/// A deliberately wrong rule, `x mod c ⇒ x` for any positive constant `c`, that only
/// [`crate::SimplifyOptions::unsound_rule_for_tests`] adds: the proof mode must catch it. Not in
/// [`rule_set`] (so it has no schema).
#[doc(hidden)]
pub fn unsound_rule_for_tests() -> Option<RuleDef> {
    rule("X-unsound", "(% ?x ?c)", false, |cx| {
        cx.pk("?c")?;
        cx.id("?x")
    })
}
