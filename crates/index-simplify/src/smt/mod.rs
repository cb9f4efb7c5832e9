//! Proofs with an SMT solver: the rule schemas ([`schemas`], proven once by a test) and
//! translation validation of each rewrite ([`prove_rewrite`], the `prove` mode of
//! `layout-simplify-offsets`).
//!
//! The solver is the `z3` binary (Debian package `z3`, installed by `scripts/bootstrap.sh`),
//! fed SMT-LIB2 text on stdin: no library linked into any binary, nothing built from source;
//! why this and not the `z3` crate: docs/index-simplification.md §13.

pub mod encode;
pub mod model;
pub mod schemas;
mod solver;

use std::fmt;
use std::time::{Duration, Instant};

use crate::expr::IndexExpr;
use crate::facts::Facts;
use crate::simplify::{simplify_with, SimplifyOptions, SimplifyReport};
use encode::{conj, constant, encode_within, le, symbol, Semantics, Theory};
pub use model::ModelValue;
pub use solver::{
    cache_stats, check, script, solver_cpu_time, thread_cache_stats, Answer, CacheStats, Query, SolverError, SOLVER,
};

/// How hard [`prove_rewrite`] tries.
#[derive(Clone, Debug)]
pub struct ProofOptions {
    /// Per solver query.
    pub timeout: Duration,
    /// Also ask whether the rewrite is exact under wrapping `arith` semantics (what MLIR
    /// computes when an intermediate overflows), reported as [`Verdict::Proven`] vs
    /// [`Verdict::ProvenWithoutOverflow`]. Off in the fast mode: one query per rewrite.
    pub wrapping: bool,
}

impl ProofOptions {
    /// One query per rewrite, 10 s each: the default of the test suite (a proof takes milliseconds;
    /// the margin is for a machine loaded by parallel tests, where 2 s once ran out).
    pub fn fast() -> Self {
        ProofOptions { timeout: Duration::from_secs(10), wrapping: false }
    }
    /// Both queries, 10 s each (`layout-simplify-offsets{prove=full}`).
    pub fn full() -> Self {
        ProofOptions { timeout: Duration::from_secs(10), wrapping: true }
    }
}

/// Values of the symbols at which the original and the simplified expression differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    pub values: Vec<(String, ModelValue)>,
    /// The two sides evaluated there (`None`: undefined, e.g. an overflow, or a value outside
    /// `i64`, which no `i64` input can have).
    pub original: Option<i64>,
    pub simplified: Option<i64>,
}

impl Counterexample {
    /// The values that fit `i64`, as an environment for [`IndexExpr::eval`].
    pub fn env(&self) -> std::collections::HashMap<String, i64> {
        self.values.iter().filter_map(|(s, v)| Some((s.clone(), v.as_i64()?))).collect()
    }
}

impl fmt::Display for Counterexample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let vals: Vec<String> = self.values.iter().map(|(s, v)| format!("{s} = {v}")).collect();
        let show = |v: Option<i64>| v.map_or("undefined (overflow)".to_string(), |v| v.to_string());
        write!(f, "{}: original = {}, simplified = {}", vals.join(", "), show(self.original), show(self.simplified))
    }
}

/// The outcome of [`prove_rewrite`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Equal at every point the facts admit, whatever overflows (two's complement wrapping).
    Proven,
    /// Equal (and the simplified side defined) at every point the facts admit where no
    /// intermediate of the original overflows — the documented assumption (§2). In the fast
    /// mode every proof is of this kind.
    ProvenWithoutOverflow,
    /// A point the facts admit where the original is defined and the simplified differs.
    Counterexample(Counterexample),
    /// Timeout, or the solver could not be run (the reason).
    Unknown(String),
}

impl Verdict {
    pub fn is_proven(&self) -> bool {
        matches!(self, Verdict::Proven | Verdict::ProvenWithoutOverflow)
    }
}

/// A verdict and the solver time it took.
#[derive(Clone, Debug)]
pub struct Proof {
    pub verdict: Verdict,
    pub elapsed: Duration,
    /// CPU time of the proof: this thread's (encoding, reading the answers) and the solver
    /// process's (`None` where it cannot be read, [`crate::cpu`]).
    pub cpu: Option<Duration>,
}

/// The facts as SMT constraints on the symbols of an expression (range and congruence).
fn fact_constraints(t: Theory, symbols: &[String], facts: &Facts) -> Vec<String> {
    let mut out = Vec::new();
    for s in symbols {
        let Some(f) = facts.get(s) else { continue };
        let name = symbol(s);
        if let Some(lo) = f.lo {
            out.push(le(t, &constant(t, lo), &name));
        }
        if let Some(hi) = f.hi {
            out.push(le(t, &name, &constant(t, hi)));
        }
        // In integers a congruence is a definition instead (see [`congruence_definitions`]).
        if let Some(d) = f.divisor.filter(|d| *d > 0 && t == Theory::Bv64) {
            out.push(encode::congruent(t, &name, f.residue, d));
        }
    }
    out
}

/// For each symbol with a congruence fact `n ≡ r (mod d)`, the integer query's definition
/// `n = d·q + (r mod d)` over a fresh auxiliary `q` (named `n div d`): linear arithmetic then
/// sees `n·k` as `d·(q·k)`, where the congruence as a constraint leaves it nonlinear and z3
/// answers unknown (`(n·k + i) mod 16 = i`, measured: over 60 s against 0.06 s).
fn congruence_definitions(symbols: &[String], facts: &Facts) -> (Vec<String>, Vec<(String, String)>) {
    let (mut auxiliary, mut definitions) = (Vec::new(), Vec::new());
    for s in symbols {
        let Some((d, r)) =
            facts.get(s).and_then(|f| f.divisor.filter(|d| *d > 0).map(|d| (d, f.residue.rem_euclid(d))))
        else {
            continue;
        };
        let q = format!("{s} div {d}");
        let t = Theory::Int;
        definitions.push((s.clone(), format!("(+ (* {} {}) {})", constant(t, d), symbol(&q), constant(t, r))));
        auxiliary.push(q);
    }
    (auxiliary, definitions)
}

/// Asks whether `original ≠ simplified` is satisfiable under `facts` (64-bit two's complement
/// bit-vectors, floor `floordiv`/`mod`, arithmetic `>>`): the per-rewrite translation
/// validation. The gating query uses checked semantics (a point where the original overflows is
/// outside the contract, §2); with [`ProofOptions::wrapping`] a second query tells whether the
/// rewrite is exact even there.
pub fn prove_rewrite(original: &IndexExpr, simplified: &IndexExpr, facts: &Facts, opts: &ProofOptions) -> Proof {
    let (start, thread_cpu, solver_cpu) = (Instant::now(), crate::cpu::thread_time(), solver_cpu_time());
    // The queries are over canonical names, so rewrites equal up to renaming share one answer
    // of the cache; the verdict is read back under the caller's names.
    let names = Renaming::of(&[original, simplified]);
    let (o, s, f) = (names.expr(original), names.expr(simplified), names.facts(facts));
    let verdict = match prove_canonical(&o, &s, &f, &names.canonical(), opts) {
        Ok(answers) => verdict(original, simplified, &names.back(answers)),
        Err(e) => Verdict::Unknown(e.to_string()),
    };
    let solver = solver_cpu_time().zip(solver_cpu).map(|(now, then)| now.saturating_sub(then));
    let cpu = crate::cpu::thread_time_since(thread_cpu).zip(solver).map(|(a, b)| a + b);
    Proof { verdict, elapsed: start.elapsed(), cpu }
}

/// The answers of [`prove_rewrite`]'s queries about `original` and `simplified` over `symbols`:
/// the checked one, then (with [`ProofOptions::wrapping`], or when the checked one has a model)
/// the wrapping one.
fn prove_canonical(
    original: &IndexExpr,
    simplified: &IndexExpr,
    facts: &Facts,
    symbols: &[String],
    opts: &ProofOptions,
) -> Result<Vec<Answer>, SolverError> {
    // The checked semantics in integers with range conditions are the same as in bit-vectors
    // with overflow predicates, and linear for constant divisors: much faster for z3. When the
    // integer query is not answered (symbolic products), the bit-vector one is tried.
    let int_ok = encode::int_expressible(original) && encode::int_expressible(simplified);
    let checked = |t: Theory| query(original, simplified, facts, symbols, t, Semantics::Checked);
    let wrapping = || query(original, simplified, facts, symbols, Theory::Bv64, Semantics::Wrapping);
    let mut queries = vec![checked(if int_ok { Theory::Int } else { Theory::Bv64 })];
    if opts.wrapping {
        queries.push(wrapping());
    }
    let mut answers = check(&queries, opts.timeout)?;
    if int_ok && matches!(answers[0], Answer::Unknown(_)) {
        if let Ok(mut bv) = check(&[checked(Theory::Bv64)], opts.timeout) {
            answers[0] = bv.remove(0);
        }
    }
    // A difference only where an intermediate overflows may still be exact in the wrapping
    // arithmetic the emitted `arith` ops compute (distributing a product over a sum is): then
    // the rewrite is proven.
    if matches!(answers[0], Answer::Sat(_)) && answers.len() == 1 {
        answers.push(
            check(&[wrapping()], opts.timeout).map_or_else(|e| Answer::Unknown(e.to_string()), |mut a| a.remove(0)),
        );
    }
    Ok(answers)
}

/// The symbols of a rewrite named `v0, v1, …` in the order they first occur (the original left
/// to right, then the simplified). Two rewrites equal up to the names of their symbols (the
/// same address over the loop variables of two loops) become the same queries, text for text,
/// and the answer cache answers the second; two that differ in any operator, constant, fact or
/// in which position holds which symbol stay different. Renaming is a bijection applied to the
/// whole formula (facts included), so the queries are equisatisfiable, and a model is mapped
/// back by the inverse ([`Renaming::back`]): exact.
struct Renaming {
    /// The caller's name of `v{i}`.
    original: Vec<String>,
    /// The canonical name of each of the caller's.
    to_canonical: std::collections::HashMap<String, String>,
}

impl Renaming {
    fn of(exprs: &[&IndexExpr]) -> Renaming {
        fn visit(e: &IndexExpr, r: &mut Renaming) {
            match e {
                IndexExpr::Const(_) => {}
                IndexExpr::Sym(n) => {
                    if !r.to_canonical.contains_key(n) {
                        r.to_canonical.insert(n.clone(), format!("v{}", r.original.len()));
                        r.original.push(n.clone());
                    }
                }
                IndexExpr::Bin(_, a, b) => {
                    visit(a, r);
                    visit(b, r);
                }
            }
        }
        let mut r = Renaming { original: Vec::new(), to_canonical: Default::default() };
        for e in exprs {
            visit(e, &mut r);
        }
        r
    }

    /// The canonical names, `v0, v1, …`.
    fn canonical(&self) -> Vec<String> {
        (0..self.original.len()).map(|i| format!("v{i}")).collect()
    }

    fn expr(&self, e: &IndexExpr) -> IndexExpr {
        match e {
            IndexExpr::Const(_) => e.clone(),
            IndexExpr::Sym(n) => IndexExpr::Sym(self.to_canonical[n].clone()),
            IndexExpr::Bin(op, a, b) => IndexExpr::bin(*op, self.expr(a), self.expr(b)),
        }
    }

    /// The facts of the renamed symbols (facts about other symbols are not part of the query).
    fn facts(&self, facts: &Facts) -> Facts {
        let mut out = Facts::new();
        for (name, canonical) in self.original.iter().map(|n| (n, &self.to_canonical[n])) {
            if let Some(f) = facts.get(name) {
                out.set(canonical, *f);
            }
        }
        out
    }

    /// `answers` with each model under the caller's names, sorted by name.
    fn back(&self, answers: Vec<Answer>) -> Vec<Answer> {
        let index: std::collections::HashMap<String, usize> = self.canonical().into_iter().zip(0..).collect();
        answers
            .into_iter()
            .map(|a| match a {
                Answer::Sat(values) => {
                    let mut values: Vec<(String, ModelValue)> = values
                        .into_iter()
                        .map(|(s, v)| (index.get(&s).map_or(s, |&i| self.original[i].clone()), v))
                        .collect();
                    values.sort_by(|a, b| a.0.cmp(&b.0));
                    Answer::Sat(values)
                }
                other => other,
            })
            .collect()
    }
}

/// `facts ∧ original defined ∧ ¬(simplified defined ∧ original = simplified)`.
fn query(
    original: &IndexExpr,
    simplified: &IndexExpr,
    facts: &Facts,
    symbols: &[String],
    t: Theory,
    sem: Semantics,
) -> Query {
    let mut parts = fact_constraints(t, symbols, facts);
    // Every symbol is an `i64`: by its facts, or else by its own `in64` condition. Within these
    // bounds the integer encoding leaves out the range conditions they imply.
    let bounds = |s: &str| {
        let f = facts.get(s).copied().unwrap_or_default();
        Some((f.lo.unwrap_or(i64::MIN) as i128, f.hi.unwrap_or(i64::MAX) as i128))
    };
    if t == Theory::Int {
        let unbounded = symbols.iter().filter(|s| facts.get(s).is_none_or(|f| f.lo.is_none() || f.hi.is_none()));
        parts.extend(unbounded.map(|s| format!("(in64 {})", symbol(s))));
    }
    let (o, s) = (encode_within(original, t, sem, &bounds), encode_within(simplified, t, sem, &bounds));
    parts.push(o.defined_formula());
    parts.push(format!("(or (not {}) (not (= {} {})))", s.defined_formula(), o.value, s.value));
    let mut q = Query::new(t, symbols.to_vec(), conj(&parts));
    if t == Theory::Int {
        (q.auxiliary, q.definitions) = congruence_definitions(symbols, facts);
    }
    q
}

/// The verdict from the checked answer and, when asked, the wrapping one.
fn verdict(original: &IndexExpr, simplified: &IndexExpr, answers: &[Answer]) -> Verdict {
    match answers {
        [Answer::Unsat, Answer::Unsat] => Verdict::Proven,
        [Answer::Unsat, ..] => Verdict::ProvenWithoutOverflow,
        [Answer::Sat(_), Answer::Unsat] => Verdict::Proven,
        [Answer::Sat(values), ..] => {
            let mut cx = Counterexample { values: values.clone(), original: None, simplified: None };
            let env = cx.env();
            (cx.original, cx.simplified) = (original.eval(&env), simplified.eval(&env));
            Verdict::Counterexample(cx)
        }
        [Answer::Unknown(why), ..] => Verdict::Unknown(why.clone()),
        [] => Verdict::Unknown("no answer".to_string()),
    }
}

/// [`simplify_with`], then [`prove_rewrite`] when the result differs from the input (the
/// `prove` mode of `layout-simplify-offsets`). A counterexample rejects the rewrite: the report
/// then holds the input unchanged (`improved()` is false) and the proof says why.
pub fn simplify_proven(
    expr: &IndexExpr,
    facts: &Facts,
    opts: &SimplifyOptions,
    proof_opts: &ProofOptions,
) -> (SimplifyReport, Option<Proof>) {
    let mut report = simplify_with(expr, facts, opts);
    if report.expr == report.input {
        return (report, None);
    }
    let proof = prove_rewrite(&report.input, &report.expr, facts, proof_opts);
    if matches!(proof.verdict, Verdict::Counterexample(_)) {
        report.expr = report.input.clone();
        report.cost_after = report.cost_before;
        report.div_mod_after = report.div_mod_before;
    }
    (report, Some(proof))
}

#[cfg(test)]
mod tests;
