//! The driver: normalize, saturate with bounds, extract, repeat.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::time::{Duration, Instant};

use egg::{BackoffScheduler, Extractor, Id, RecExpr, Runner, Symbol};

use crate::analysis::{IGraph, IndexAnalysis, IndexLang, Interval};
use crate::cost::{expr_cost, OpCost};
use crate::expr::{IndexExpr, Op};
use crate::facts::Facts;
use crate::normalize::{normalize, normalize_for_output};
use crate::rules::{rule_set, shared_rule_set, RuleDef};

/// Limits and switches. The defaults keep one offset expression well under a millisecond to a
/// few milliseconds; every limit that stops a run is reported in [`SimplifyReport::bound_hit`].
#[derive(Clone, Debug)]
pub struct SimplifyOptions {
    /// egg iterations per round.
    pub iter_limit: usize,
    /// e-nodes per round (checked by egg between iterations).
    pub node_limit: usize,
    /// Wall time per round.
    pub time_limit: Duration,
    /// Normalize → saturate → extract rounds (a round's rewrites build new sums; the next
    /// round normalizes and peels them).
    pub rounds: usize,
    /// Sums with at most this many terms (capped at 10) are inserted with every sub-sum peeled
    /// (2^n classes, n·2^(n−1) nodes); larger sums get only the one-term peels of the top level.
    pub peel_limit: usize,
    /// Enables P1/P2: `x floordiv 2^k` → `x >> k`, `x mod 2^k` → `x & (2^k−1)` for `x ≥ 0`.
    pub bit_ops: bool,
    /// Inputs deeper than this are returned unchanged (no recursion overflow on any input).
    pub max_depth: usize,
    /// Test-only: adds the wrong rule `x mod c ⇒ x` ([`crate::rules::unsound_rule_for_tests`])
    /// so tests can show the proof mode ([`crate::smt::simplify_proven`]) rejects its rewrites.
    #[doc(hidden)]
    pub unsound_rule_for_tests: bool,
}

impl Default for SimplifyOptions {
    fn default() -> Self {
        SimplifyOptions {
            iter_limit: 16,
            node_limit: 10_000,
            time_limit: Duration::from_millis(500),
            rounds: 3,
            peel_limit: 6,
            bit_ops: true,
            max_depth: 256,
            unsound_rule_for_tests: false,
        }
    }
}

/// Why the (last) run stopped.
#[derive(Clone, Debug, PartialEq)]
pub enum StopReason {
    /// No rule could add anything: the result is the best the rules can find.
    Saturated,
    IterationLimit(usize),
    NodeLimit(usize),
    TimeLimit(f64),
    Other(String),
    /// The input was deeper than [`SimplifyOptions::max_depth`]; returned unchanged.
    InputTooDeep {
        depth: usize,
        limit: usize,
    },
    /// The declared facts admit no point; returned unchanged.
    InconsistentFacts(String),
    /// Two facts about one e-class were disjoint (an unsound rule or analysis); the round was
    /// discarded.
    Conflict,
    /// `rounds == 0`.
    NotRun,
}

impl StopReason {
    /// True for the resource bounds (iterations, nodes, time).
    pub fn is_bound(&self) -> bool {
        matches!(self, StopReason::IterationLimit(_) | StopReason::NodeLimit(_) | StopReason::TimeLimit(_))
    }
}

impl From<&egg::StopReason> for StopReason {
    fn from(r: &egg::StopReason) -> Self {
        match r {
            egg::StopReason::Saturated => StopReason::Saturated,
            egg::StopReason::IterationLimit(n) => StopReason::IterationLimit(*n),
            egg::StopReason::NodeLimit(n) => StopReason::NodeLimit(*n),
            egg::StopReason::TimeLimit(t) => StopReason::TimeLimit(*t),
            egg::StopReason::Other(s) => StopReason::Other(s.clone()),
        }
    }
}

/// What [`simplify`] did.
#[derive(Clone, Debug)]
pub struct SimplifyReport {
    /// The input as given.
    pub input: IndexExpr,
    /// The result: equal to `input` at every point admitted by the facts, and never costlier.
    /// When nothing strictly cheaper was found this is `input` itself, unchanged.
    pub expr: IndexExpr,
    pub cost_before: usize,
    pub cost_after: usize,
    pub div_mod_before: usize,
    pub div_mod_after: usize,
    /// egg iterations, summed over rounds.
    pub iterations: usize,
    /// Largest e-graph (e-nodes) of any round.
    pub nodes: usize,
    /// Largest number of e-classes of any round.
    pub classes: usize,
    pub rounds: usize,
    /// The stop reason of the first round that hit a bound, else of the last round.
    pub stop_reason: StopReason,
    /// True when any round stopped on an iteration, node or time limit: the result is sound
    /// but maybe not the cheapest the rules could reach.
    pub bound_hit: bool,
    /// How often each rule newly applied (unions that changed the e-graph), over all rounds.
    pub rules_fired: BTreeMap<String, usize>,
    /// Range of the value proven by the analysis (for example to show a parameter fits `u16`).
    pub range: Interval,
    pub elapsed: Duration,
    /// CPU time of this thread in the call (`None` where it cannot be read, [`crate::cpu`]).
    pub cpu: Option<Duration>,
}

impl SimplifyReport {
    pub fn improved(&self) -> bool {
        self.cost_after < self.cost_before
    }

    fn unchanged(input: &IndexExpr, stop_reason: StopReason, start: Instant) -> Self {
        let cost = expr_cost(input);
        let dm = input.div_mod_count();
        SimplifyReport {
            input: input.clone(),
            expr: input.clone(),
            cost_before: cost,
            cost_after: cost,
            div_mod_before: dm,
            div_mod_after: dm,
            iterations: 0,
            nodes: 0,
            classes: 0,
            rounds: 0,
            stop_reason,
            bound_hit: false,
            rules_fired: BTreeMap::new(),
            range: Interval::TOP,
            elapsed: start.elapsed(),
            cpu: None,
        }
    }
}

impl fmt::Display for SimplifyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} => {} (cost {} -> {}, div/mod {} -> {}, {} rounds, {} iterations, {} nodes, {:?}{}, {:?})",
            self.input,
            self.expr,
            self.cost_before,
            self.cost_after,
            self.div_mod_before,
            self.div_mod_after,
            self.rounds,
            self.iterations,
            self.nodes,
            self.stop_reason,
            if self.bound_hit { ", bound hit" } else { "" },
            self.elapsed
        )
    }
}

/// Simplifies with the default options. See the crate documentation for the method.
pub fn simplify(expr: &IndexExpr, facts: &Facts) -> SimplifyReport {
    simplify_with(expr, facts, &SimplifyOptions::default())
}

/// One saturation round, exposed to the crate's tests (which check the whole e-graph).
pub(crate) struct Round {
    pub egraph: IGraph,
    pub root: Id,
    pub iterations: usize,
    pub stop_reason: StopReason,
    pub applied: BTreeMap<String, usize>,
}

pub(crate) fn run_round(input: &IndexExpr, facts: &Facts, opts: &SimplifyOptions, rules: &[RuleDef]) -> Round {
    let mut egraph = IGraph::new(IndexAnalysis::new(facts));
    let root = add_peeled(&mut egraph, input, opts.peel_limit);
    egraph.rebuild();
    let rewrites: Vec<_> = rules.iter().map(|r| &r.rewrite).collect();
    let runner: Runner<IndexLang, IndexAnalysis, ()> = Runner::default()
        .with_egraph(egraph)
        .with_iter_limit(opts.iter_limit)
        .with_node_limit(opts.node_limit)
        .with_time_limit(opts.time_limit)
        .with_scheduler(BackoffScheduler::default())
        .run(rewrites);
    let mut applied = BTreeMap::new();
    for it in &runner.iterations {
        for (name, n) in &it.applied {
            if *n > 0 {
                *applied.entry(name.to_string()).or_insert(0) += n;
            }
        }
    }
    let stop_reason =
        runner.stop_reason.as_ref().map(StopReason::from).unwrap_or(StopReason::Other("no stop reason".into()));
    let iterations = runner.iterations.len();
    let root = runner.egraph.find(root);
    Round { egraph: runner.egraph, root, iterations, stop_reason, applied }
}

/// Simplifies `expr` under `facts`.
///
/// 1. Checks the facts and the depth (returns the input unchanged otherwise).
/// 2. Normalizes linear sums outside the e-graph ([`crate::normalize`]).
/// 3. Inserts the expression, every sum with its terms peeled to the front, and saturates with
///    the rules under the limits of `opts`.
/// 4. Extracts the cheapest form under [`OpCost`], renormalizes, and repeats for
///    `opts.rounds` rounds or until a round changes nothing.
/// 5. Returns the cheapest candidate seen; the input itself unless something is strictly
///    cheaper.
pub fn simplify_with(expr: &IndexExpr, facts: &Facts, opts: &SimplifyOptions) -> SimplifyReport {
    let cpu = crate::cpu::thread_time();
    let mut report = run_simplify(expr, facts, opts);
    report.cpu = crate::cpu::thread_time_since(cpu);
    report
}

/// [`simplify_with`] without the CPU time.
fn run_simplify(expr: &IndexExpr, facts: &Facts, opts: &SimplifyOptions) -> SimplifyReport {
    let start = Instant::now();
    if let Err(e) = facts.check() {
        return SimplifyReport::unchanged(
            expr,
            StopReason::InconsistentFacts(format!("{}: {}", e.symbol, e.detail)),
            start,
        );
    }
    let depth = expr.depth();
    if depth > opts.max_depth {
        return SimplifyReport::unchanged(expr, StopReason::InputTooDeep { depth, limit: opts.max_depth }, start);
    }
    let mut report = SimplifyReport::unchanged(expr, StopReason::NotRun, start);
    let with_unsound_rule: Vec<RuleDef>;
    let rules = if opts.unsound_rule_for_tests {
        with_unsound_rule = rule_set(opts.bit_ops).into_iter().chain(crate::rules::unsound_rule_for_tests()).collect();
        &with_unsound_rule
    } else {
        shared_rule_set(opts.bit_ops)
    };
    let mut best = expr.clone();
    let mut best_cost = report.cost_before;
    let consider = |cand: IndexExpr, best: &mut IndexExpr, best_cost: &mut usize| {
        let c = expr_cost(&cand);
        if c < *best_cost {
            *best = cand;
            *best_cost = c;
        }
    };
    consider(normalize_for_output(expr), &mut best, &mut best_cost);

    let mut cur = normalize(expr);
    let mut first_bound: Option<StopReason> = None;
    for _ in 0..opts.rounds {
        let round = run_round(&cur, facts, opts, rules);
        report.rounds += 1;
        report.iterations += round.iterations;
        report.nodes = report.nodes.max(round.egraph.total_number_of_nodes());
        report.classes = report.classes.max(round.egraph.number_of_classes());
        for (k, v) in &round.applied {
            *report.rules_fired.entry(k.clone()).or_insert(0) += v;
        }
        if round.egraph.classes().any(|c| c.data.conflict) {
            report.stop_reason = StopReason::Conflict;
            break;
        }
        report.range = round.egraph[round.root].data.range.intersect(&report.range);
        if round.stop_reason.is_bound() && first_bound.is_none() {
            first_bound = Some(round.stop_reason.clone());
        }
        report.stop_reason = round.stop_reason.clone();
        let (_, best_rec) = Extractor::new(&round.egraph, OpCost).find_best(round.root);
        let Some(extracted) = from_recexpr(&best_rec) else { break };
        // The normalized form first: on a tie it is the one kept (sorted, subtractions).
        consider(normalize_for_output(&extracted), &mut best, &mut best_cost);
        consider(extracted.clone(), &mut best, &mut best_cost);
        let next = normalize(&extracted);
        if next == cur {
            break;
        }
        cur = next;
    }
    if let Some(b) = first_bound {
        report.bound_hit = true;
        report.stop_reason = b;
    }
    report.cost_after = best_cost;
    report.div_mod_after = best.div_mod_count();
    report.expr = best;
    report.elapsed = start.elapsed();
    report
}

/// [`simplify`]'s result for an input that no rule can rewrite, computed without the e-graph
/// (address sums without division such as `i * 256 + j`; in the GEMM examples only a few of
/// the distinct expressions are such, most have a `floordiv` or `mod`). `Some` when `expr` has only
/// `+`, `-`, `*`, `<<`, its normal form only `+` and `*` with no operand `0` or `1`, and no
/// symbol's facts pin one value. Then no rule's left-hand side matches in the e-graph (each
/// needs `/`, `%`, `min`, `max`, `-`, a shift, a mask or an operand `0`/`1`) and no class folds
/// to a constant (a sum or product of non-constant classes is not constant), so the e-graph
/// only holds reorderings of the one linear form, none cheaper than the output normal form:
/// the result is `normalize_for_output(expr)` when strictly cheaper than `expr`, else `expr`,
/// exactly [`simplify`]'s. egg's symbols are interned as [`run_round`] would intern them (egg
/// orders symbols by first interning, which later extractions' tie-breaks read). The report's
/// `range` is [`crate::analyze`] of the input; rounds, iterations and nodes are 0.
pub fn simplify_without_rules(expr: &IndexExpr, facts: &Facts) -> Option<SimplifyReport> {
    let cpu = crate::cpu::thread_time();
    let mut report = linear_form(expr, facts)?;
    report.cpu = crate::cpu::thread_time_since(cpu);
    Some(report)
}

/// [`simplify_without_rules`] without the CPU time.
fn linear_form(expr: &IndexExpr, facts: &Facts) -> Option<SimplifyReport> {
    let start = Instant::now();
    let ops_ok = |e: &IndexExpr, allowed: &[Op], operand_ok: &dyn Fn(&IndexExpr) -> bool| {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            if let IndexExpr::Bin(op, a, b) = e {
                if !allowed.contains(op) || !operand_ok(a) || !operand_ok(b) {
                    return false;
                }
                stack.push(a);
                stack.push(b);
            }
        }
        true
    };
    if !ops_ok(expr, &[Op::Add, Op::Sub, Op::Mul, Op::Shl], &|_| true) {
        return None;
    }
    if facts.check().is_err() || expr.depth() > SimplifyOptions::default().max_depth {
        return None;
    }
    let cur = normalize(expr);
    let not_0_or_1 = |e: &IndexExpr| !matches!(e, IndexExpr::Const(0 | 1));
    if !ops_ok(&cur, &[Op::Add, Op::Mul], &not_0_or_1) {
        return None;
    }
    let symbols = cur.symbols();
    if symbols.iter().any(|s| facts.get(s).is_some_and(|f| crate::analysis::Data::from_fact(f).konst().is_some())) {
        return None;
    }
    // The interning of `run_round`: the facts' symbols (`IndexAnalysis::new`), then the
    // input's in the order `add_peeled` meets them (left to right).
    for (name, _) in facts.iter() {
        let _ = Symbol::from(name);
    }
    let mut stack = vec![&cur];
    while let Some(e) = stack.pop() {
        match e {
            IndexExpr::Sym(s) => {
                let _ = Symbol::from(s.as_str());
            }
            IndexExpr::Bin(_, a, b) => {
                stack.push(b);
                stack.push(a);
            }
            IndexExpr::Const(_) => {}
        }
    }
    let mut report = SimplifyReport::unchanged(expr, StopReason::Saturated, start);
    let out = normalize_for_output(expr);
    let cost = expr_cost(&out);
    if cost < report.cost_before {
        report.expr = out;
        report.cost_after = cost;
    }
    report.range = crate::analysis::analyze(expr, facts).range;
    report.elapsed = start.elapsed();
    Some(report)
}

/// Hard cap on [`SimplifyOptions::peel_limit`]: 10 terms are 1023 sub-sums and 5120 nodes.
const MAX_PEEL: usize = 10;

/// Adds `e` to the e-graph. Each maximal `+` chain with `n ≤ peel_limit` terms is added as
/// every one of its sub-sums, each in all "one term first" forms `tᵢ + (rest)`, so the binary
/// patterns of the rules see every term at the head of every sub-sum. Larger sums get the
/// canonical chain plus the `n` top-level peels.
pub(crate) fn add_peeled(eg: &mut IGraph, e: &IndexExpr, peel_limit: usize) -> Id {
    match e {
        IndexExpr::Const(k) => eg.add(IndexLang::Num(*k)),
        IndexExpr::Sym(s) => eg.add(IndexLang::Sym(Symbol::from(s.as_str()))),
        IndexExpr::Bin(Op::Add, ..) => {
            let mut terms = Vec::new();
            collect_sum(e, &mut terms);
            let ids: Vec<Id> = terms.iter().map(|t| add_peeled(eg, t, peel_limit)).collect();
            if ids.len() <= peel_limit.min(MAX_PEEL) {
                let mut memo = HashMap::new();
                let full = (1u32 << ids.len()) - 1;
                sub_sum(eg, &ids, full, &mut memo)
            } else {
                let chain = |eg: &mut IGraph, ids: &[Id]| -> Id {
                    let mut acc = ids[0];
                    for &t in &ids[1..] {
                        acc = eg.add(IndexLang::Add([acc, t]));
                    }
                    acc
                };
                let root = chain(eg, &ids);
                for i in 0..ids.len() {
                    let rest: Vec<Id> = ids.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, id)| *id).collect();
                    let r = chain(eg, &rest);
                    let peeled = eg.add(IndexLang::Add([ids[i], r]));
                    eg.union(root, peeled);
                }
                root
            }
        }
        IndexExpr::Bin(op, a, b) => {
            let a = add_peeled(eg, a, peel_limit);
            let b = add_peeled(eg, b, peel_limit);
            eg.add(IndexLang::from_op(*op, [a, b]))
        }
    }
}

fn collect_sum<'a>(e: &'a IndexExpr, out: &mut Vec<&'a IndexExpr>) {
    match e {
        IndexExpr::Bin(Op::Add, a, b) => {
            collect_sum(a, out);
            collect_sum(b, out);
        }
        other => out.push(other),
    }
}

fn sub_sum(eg: &mut IGraph, ids: &[Id], mask: u32, memo: &mut HashMap<u32, Id>) -> Id {
    if mask.count_ones() == 1 {
        return ids[mask.trailing_zeros() as usize];
    }
    if let Some(id) = memo.get(&mask) {
        return *id;
    }
    let mut class: Option<Id> = None;
    for i in 0..ids.len() {
        let bit = 1u32 << i;
        if mask & bit == 0 {
            continue;
        }
        let rest = sub_sum(eg, ids, mask & !bit, memo);
        let node = eg.add(IndexLang::Add([ids[i], rest]));
        class = Some(match class {
            None => node,
            Some(c) => {
                eg.union(c, node);
                c
            }
        });
    }
    // mask has ≥ 2 bits here, so the loop ran.
    let id = class.unwrap_or(ids[0]);
    memo.insert(mask, id);
    id
}

/// Converts an extracted `RecExpr` into a tree. `None` only for a malformed `RecExpr`.
pub(crate) fn from_recexpr(rec: &RecExpr<IndexLang>) -> Option<IndexExpr> {
    let nodes = rec.as_ref();
    let mut built: Vec<IndexExpr> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let e = match node {
            IndexLang::Num(v) => IndexExpr::Const(*v),
            IndexLang::Sym(s) => IndexExpr::Sym(s.as_str().to_string()),
            other => {
                let (op, [a, b]) = other.as_op()?;
                let a = built.get(usize::from(a))?.clone();
                let b = built.get(usize::from(b))?.clone();
                IndexExpr::bin(op, a, b)
            }
        };
        built.push(e);
    }
    built.pop()
}
