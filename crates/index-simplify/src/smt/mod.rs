//! Proofs with an SMT solver: the rule schemas ([`schemas`], proven once by a test) and
//! translation validation of each rewrite ([`prove_rewrite`], the `prove` mode of
//! `layout-simplify-offsets`).
//!
//! The solver is the `z3` binary (Debian package `z3`, installed by `scripts/bootstrap.sh`),
//! fed SMT-LIB2 text on stdin: no library linked into any binary, nothing built from source;
//! why this and not the `z3` crate: docs/index-simplification.md §13.

pub mod encode;
pub mod schemas;

use std::cell::RefCell;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use crate::expr::IndexExpr;
use crate::facts::Facts;
use crate::simplify::{simplify_with, SimplifyOptions, SimplifyReport};
use encode::{conj, constant, encode, le, prelude, sort, symbol, Semantics, Theory};

/// The solver command (`z3` on `PATH`).
pub const SOLVER: &str = "z3";

/// Why the solver's answers could not be had or read (the texts name [`SOLVER`], "z3").
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolverError {
    #[error("cannot run `z3` ({0}): install the Debian package z3 (scripts/bootstrap.sh)")]
    Start(String),
    #[error("z3: {0}")]
    Io(String),
    #[error("z3 exited after {seen} of {expected} answers: {output}")]
    Exited { seen: usize, expected: usize, output: String },
    #[error("z3 answered {answered} of {asked} queries: {output}")]
    Short { answered: usize, asked: usize, output: String },
    #[error("z3: {0}")]
    Unreadable(String),
}

/// One satisfiability query: declarations, one assertion, the symbols whose values a model
/// should report.
#[derive(Clone, Debug)]
pub struct Query {
    pub theory: Theory,
    pub symbols: Vec<String>,
    /// SMT-LIB2 formula over [`encode::symbol`]s, asserted after the prelude.
    pub assertion: String,
}

/// The solver's answer to one [`Query`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Unsat,
    /// A model: each queried symbol with its value.
    Sat(Vec<(String, i64)>),
    /// Timeout or an answer the solver could not give (the reason).
    Unknown(String),
}

/// The SMT-LIB2 text [`check`] sends: each query between `push`/`pop`, answered by
/// `check-sat`, one `get-value` per symbol and an `@@` separator.
pub fn script(queries: &[Query], timeout: Duration) -> String {
    let mut script = format!("(set-option :timeout {})\n", timeout.as_millis().max(1));
    for q in queries {
        script.push_str("(push 1)\n");
        script.push_str(prelude(q.theory));
        for s in &q.symbols {
            script.push_str(&format!("(declare-const {} {})\n", symbol(s), sort(q.theory)));
        }
        script.push_str(&format!("(assert {})\n(check-sat)\n", q.assertion));
        for s in &q.symbols {
            script.push_str(&format!("(get-value ({}))\n", symbol(s)));
        }
        script.push_str("(echo \"@@\")\n(pop 1)\n");
    }
    script
}

/// Runs `queries` in one solver process (`push`/`pop` around each), `timeout` per query.
/// `Err` when the solver cannot be run or its output cannot be read.
pub fn check(queries: &[Query], timeout: Duration) -> Result<Vec<Answer>, SolverError> {
    let script = script(queries, timeout);
    let text = SESSION.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(Session::start()?);
        }
        let session = slot.as_mut().ok_or_else(|| SolverError::Io("no solver session".into()))?;
        let result = session.run(&script, queries.len());
        if result.is_err() {
            // A solver that failed mid-way is not reused.
            if let Some(mut s) = slot.take() {
                let _ = s.child.kill();
                let _ = s.child.wait();
            }
        }
        result
    })?;
    let chunks: Vec<&str> = text.split("@@").collect();
    if chunks.len() < queries.len() {
        let (answered, asked, output) = (chunks.len() - 1, queries.len(), text.trim().to_string());
        return Err(SolverError::Short { answered, asked, output });
    }
    queries.iter().zip(chunks).map(|(q, chunk)| parse_answer(q, chunk)).collect()
}

thread_local! {
    /// One solver process per thread, reused by every [`check`]: starting z3 costs more than
    /// most proofs. Its input closes (and it exits) with the thread.
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// A running `z3 -in` fed scripts one at a time.
struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Session {
    fn start() -> Result<Session, SolverError> {
        let mut child = Command::new(SOLVER)
            .args(["-in", "-smt2"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| SolverError::Start(e.to_string()))?;
        let no = |what: &str| SolverError::Io(format!("no {what} for the solver"));
        let stdin = child.stdin.take().ok_or_else(|| no("stdin"))?;
        let stdout = BufReader::new(child.stdout.take().ok_or_else(|| no("stdout"))?);
        Ok(Session { child, stdin, stdout })
    }

    /// Sends `script` (which ends each of its `answers` queries with `@@`) and reads the output
    /// up to the last `@@`. The answers are small, so writing everything first cannot fill the
    /// output pipe.
    fn run(&mut self, script: &str, answers: usize) -> Result<String, SolverError> {
        // `(reset)`: each script starts from a fresh solver state, as in a new process.
        self.stdin
            .write_all(b"(reset)\n")
            .and_then(|_| self.stdin.write_all(script.as_bytes()))
            .and_then(|_| self.stdin.flush())
            .map_err(|e| SolverError::Io(e.to_string()))?;
        let (mut text, mut seen) = (String::new(), 0);
        while seen < answers {
            let mut line = String::new();
            match self.stdout.read_line(&mut line) {
                Ok(0) => {
                    let output = text.trim().to_string();
                    return Err(SolverError::Exited { seen, expected: answers, output });
                }
                Ok(_) => {}
                Err(e) => return Err(SolverError::Io(e.to_string())),
            }
            if line.trim() == "@@" {
                seen += 1;
            }
            text.push_str(&line);
        }
        Ok(text)
    }
}

fn parse_answer(q: &Query, chunk: &str) -> Result<Answer, SolverError> {
    let mut lines = chunk.lines().map(str::trim).filter(|l| !l.is_empty());
    match lines.next() {
        Some("unsat") => Ok(Answer::Unsat),
        Some("unknown") => Ok(Answer::Unknown("timeout or incomplete".to_string())),
        Some("sat") => {
            let mut values = Vec::new();
            for (s, line) in q.symbols.iter().zip(lines) {
                let v = parse_value(line, &symbol(s))
                    .ok_or_else(|| SolverError::Unreadable(format!("cannot read '{line}'")))?;
                values.push((s.clone(), v));
            }
            Ok(Answer::Sat(values))
        }
        other => Err(SolverError::Unreadable(format!("unexpected answer {other:?}"))),
    }
}

/// Reads `((|x| #x00000000000000ff))` or `((|x| (- 4)))`.
fn parse_value(line: &str, name: &str) -> Option<i64> {
    let rest = line.strip_prefix("((")?.strip_prefix(name)?.trim();
    let rest = rest.strip_suffix("))")?.trim();
    if let Some(hex) = rest.strip_prefix("#x") {
        return u64::from_str_radix(hex, 16).ok().map(|u| u as i64);
    }
    if let Some(neg) = rest.strip_prefix("(-").and_then(|r| r.strip_suffix(')')) {
        return neg.trim().parse::<i128>().ok().and_then(|v| i64::try_from(-v).ok());
    }
    rest.parse().ok()
}

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
    pub values: Vec<(String, i64)>,
    /// The two sides evaluated there (`None`: undefined, e.g. an overflow).
    pub original: Option<i64>,
    pub simplified: Option<i64>,
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
        if let Some(d) = f.divisor.filter(|d| *d > 0) {
            out.push(encode::congruent(t, &name, f.residue, d));
        }
    }
    out
}

/// Asks whether `original ≠ simplified` is satisfiable under `facts` (64-bit two's complement
/// bit-vectors, floor `floordiv`/`mod`, arithmetic `>>`): the per-rewrite translation
/// validation. The gating query uses checked semantics (a point where the original overflows is
/// outside the contract, §2); with [`ProofOptions::wrapping`] a second query tells whether the
/// rewrite is exact even there.
pub fn prove_rewrite(original: &IndexExpr, simplified: &IndexExpr, facts: &Facts, opts: &ProofOptions) -> Proof {
    let start = Instant::now();
    let mut symbols = original.symbols();
    symbols.extend(simplified.symbols());
    symbols.sort();
    symbols.dedup();
    // The checked semantics in integers with range conditions are the same as in bit-vectors
    // with overflow predicates, and linear for constant divisors: much faster for z3. When the
    // integer query is not answered (symbolic products), the bit-vector one is tried.
    let int_ok = encode::int_expressible(original) && encode::int_expressible(simplified);
    let checked = |t: Theory| query(original, simplified, facts, &symbols, t, Semantics::Checked);
    let wrapping = || query(original, simplified, facts, &symbols, Theory::Bv64, Semantics::Wrapping);
    let mut queries = vec![checked(if int_ok { Theory::Int } else { Theory::Bv64 })];
    if opts.wrapping {
        queries.push(wrapping());
    }
    let verdict = match check(&queries, opts.timeout) {
        Err(e) => Verdict::Unknown(e.to_string()),
        Ok(mut answers) => {
            if int_ok && matches!(answers[0], Answer::Unknown(_)) {
                if let Ok(mut bv) = check(&[checked(Theory::Bv64)], opts.timeout) {
                    answers[0] = bv.remove(0);
                }
            }
            // A difference only where an intermediate overflows may still be exact in the
            // wrapping arithmetic the emitted `arith` ops compute (distributing a product over a
            // sum is): then the rewrite is proven.
            if matches!(answers[0], Answer::Sat(_)) && answers.len() == 1 {
                answers.push(
                    check(&[wrapping()], opts.timeout)
                        .map_or_else(|e| Answer::Unknown(e.to_string()), |mut a| a.remove(0)),
                );
            }
            verdict(original, simplified, &answers)
        }
    };
    Proof { verdict, elapsed: start.elapsed() }
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
    if t == Theory::Int {
        parts.extend(symbols.iter().map(|s| format!("(in64 {})", symbol(s))));
    }
    let (o, s) = (encode(original, t, sem), encode(simplified, t, sem));
    parts.push(o.defined_formula());
    parts.push(format!("(or (not {}) (not (= {} {})))", s.defined_formula(), o.value, s.value));
    Query { theory: t, symbols: symbols.to_vec(), assertion: conj(&parts) }
}

/// The verdict from the checked answer and, when asked, the wrapping one.
fn verdict(original: &IndexExpr, simplified: &IndexExpr, answers: &[Answer]) -> Verdict {
    match answers {
        [Answer::Unsat, Answer::Unsat] => Verdict::Proven,
        [Answer::Unsat, ..] => Verdict::ProvenWithoutOverflow,
        [Answer::Sat(_), Answer::Unsat] => Verdict::Proven,
        [Answer::Sat(values), ..] => {
            let env = values.iter().cloned().collect();
            Verdict::Counterexample(Counterexample {
                values: values.clone(),
                original: original.eval(&env),
                simplified: simplified.eval(&env),
            })
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
