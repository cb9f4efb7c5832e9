//! The z3 process: one per thread, fed SMT-LIB2 scripts, each query between `push`/`pop`;
//! and a process-wide cache of its definite answers, keyed on the exact query text (the suite
//! asks the same rewrite of the same facts in many kernels). The cache is sound by construction:
//! an answer is reused only for a byte-identical formula, and only `unsat`/`sat` (never
//! `unknown`, which depends on the timeout and the load) is kept.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::encode::{prelude, sort, symbol, Theory};
use super::model::{self, ModelValue};

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
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Query {
    pub theory: Theory,
    /// The symbols a model reports, in order: each declared, or defined by [`Query::definitions`].
    pub symbols: Vec<String>,
    /// Symbols declared for the definitions' terms and not reported (a quotient `q` in `n = 16·q`).
    pub auxiliary: Vec<String>,
    /// Symbols of [`Query::symbols`] given by a term over the auxiliary ones (`define-fun`), not
    /// declared free: z3's arithmetic sees `16·q·k` as a linear term in the monomial `q·k` where
    /// `n·k` under `n mod 16 = 0` is nonlinear and left unknown (docs/index-simplification.md §13).
    pub definitions: Vec<(String, String)>,
    /// SMT-LIB2 formula over [`encode::symbol`]s, asserted after the prelude.
    pub assertion: String,
    /// Solve with `(check-sat-using (then simplify solve-eqs smt))`: in the incremental mode
    /// `push`/`pop` puts z3 in, `check-sat` skips the preprocessing that eliminates the symbols
    /// the facts define by an equation (the address proofs' fields and layout symbols; an
    /// L0A LoadData with a dynamic k: 2.9 s against 0.5 s, docs/index-simplification.md §14).
    pub presolve: bool,
}

impl Query {
    /// A query over free `symbols`, all reported.
    pub fn new(theory: Theory, symbols: Vec<String>, assertion: String) -> Query {
        Query { theory, symbols, auxiliary: Vec::new(), definitions: Vec::new(), assertion, presolve: false }
    }
}

/// The solver's answer to one [`Query`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Unsat,
    /// A model: each queried symbol with its value (of any size: `Int` symbols are unbounded).
    Sat(Vec<(String, ModelValue)>),
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
        let sort = sort(q.theory);
        let free = q.symbols.iter().filter(|s| !q.definitions.iter().any(|(d, _)| d == *s));
        for s in q.auxiliary.iter().chain(free) {
            script.push_str(&format!("(declare-const {} {sort})\n", symbol(s)));
        }
        for (s, term) in &q.definitions {
            script.push_str(&format!("(define-fun {} () {sort} {term})\n", symbol(s)));
        }
        let check = if q.presolve { "(check-sat-using (then simplify solve-eqs smt))" } else { "(check-sat)" };
        script.push_str(&format!("(assert {})\n{check}\n", q.assertion));
        for s in &q.symbols {
            script.push_str(&format!("(get-value ({}))\n", symbol(s)));
        }
        script.push_str("(echo \"@@\")\n(pop 1)\n");
    }
    script
}

/// Runs `queries` in this thread's solver process (`push`/`pop` around each), `timeout` per
/// query; a query asked before (the same text) is answered from the cache without the solver.
/// `Err` when the solver cannot be run or its output cannot be read.
pub fn check(queries: &[Query], timeout: Duration) -> Result<Vec<Answer>, SolverError> {
    let mut answers: Vec<Option<Answer>> = {
        let cache = cache().lock().map_err(|_| SolverError::Io("answer cache poisoned".into()))?;
        queries.iter().map(|q| cache.get(q).cloned()).collect()
    };
    let missing: Vec<Query> =
        queries.iter().zip(&answers).filter(|(_, a)| a.is_none()).map(|(q, _)| q.clone()).collect();
    HITS.fetch_add(queries.len() - missing.len(), Ordering::Relaxed);
    THREAD_CACHE.with(|c| {
        let s = c.get();
        c.set(CacheStats { hits: s.hits + queries.len() - missing.len(), misses: s.misses + missing.len() });
    });
    if !missing.is_empty() {
        MISSES.fetch_add(missing.len(), Ordering::Relaxed);
        let solved = ask(&missing, timeout)?;
        let mut cache = cache().lock().map_err(|_| SolverError::Io("answer cache poisoned".into()))?;
        let mut solved = missing.into_iter().zip(solved);
        for slot in answers.iter_mut().filter(|a| a.is_none()) {
            let (q, a) = solved.next().ok_or_else(|| SolverError::Io("answer lost".into()))?;
            if !matches!(a, Answer::Unknown(_)) {
                cache.insert(q, a.clone());
            }
            *slot = Some(a);
        }
    }
    answers.into_iter().map(|a| a.ok_or_else(|| SolverError::Io("answer lost".into()))).collect()
}

/// How many queries [`check`] answered from its cache and how many it sent to the solver, in
/// this process so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CacheStats {
    pub hits: usize,
    pub misses: usize,
}

pub fn cache_stats() -> CacheStats {
    CacheStats { hits: HITS.load(Ordering::Relaxed), misses: MISSES.load(Ordering::Relaxed) }
}

/// [`cache_stats`] of this thread's [`check`]s only (a test's own, whatever other tests ask).
pub fn thread_cache_stats() -> CacheStats {
    THREAD_CACHE.with(Cell::get)
}

thread_local! {
    static THREAD_CACHE: Cell<CacheStats> = const { Cell::new(CacheStats { hits: 0, misses: 0 }) };
}

static HITS: AtomicUsize = AtomicUsize::new(0);
static MISSES: AtomicUsize = AtomicUsize::new(0);

fn cache() -> &'static Mutex<HashMap<Query, Answer>> {
    static CACHE: OnceLock<Mutex<HashMap<Query, Answer>>> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Sends `queries` to this thread's solver process and reads the answers.
fn ask(queries: &[Query], timeout: Duration) -> Result<Vec<Answer>, SolverError> {
    let script = script(queries, timeout);
    let text = SESSION.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(Session::start()?);
        }
        let session = slot.as_mut().ok_or_else(|| SolverError::Io("no solver session".into()))?;
        let result = session.run(&script, queries.len());
        session.account_cpu();
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
    /// CPU time this thread's solver processes used, summed ([`solver_cpu_time`]).
    static SOLVER_CPU: Cell<Option<Duration>> = const { Cell::new(Some(Duration::ZERO)) };
}

/// CPU time the solver processes of this thread have used so far (their start included): the
/// difference of two readings is what the [`check`]s between them cost in the solver. `None`
/// once a reading failed ([`crate::cpu`]).
pub fn solver_cpu_time() -> Option<Duration> {
    SOLVER_CPU.with(Cell::get)
}

/// A running `z3 -in` fed scripts one at a time.
struct Session {
    child: Child,
    /// The solver's CPU time at the last reading ([`Session::account_cpu`]).
    cpu_seen: Duration,
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
        Ok(Session { child, cpu_seen: Duration::ZERO, stdin, stdout })
    }

    /// Adds the solver's CPU time since the last reading to [`SOLVER_CPU`].
    fn account_cpu(&mut self) {
        let now = crate::cpu::process_time(self.child.id());
        SOLVER_CPU.with(|total| {
            total.set(total.get().zip(now).map(|(t, now)| t + now.saturating_sub(self.cpu_seen)));
        });
        if let Some(now) = now {
            self.cpu_seen = now;
        }
    }

    /// Sends `script` (which ends each of its `answers` queries with `@@`) and reads the output
    /// up to the last `@@`. The answers are small, so writing everything first cannot fill the
    /// output pipe.
    fn run(&mut self, script: &str, answers: usize) -> Result<String, SolverError> {
        // No `(reset)` between scripts: it cost as much as the queries themselves (measured,
        // docs/index-simplification.md §13); every query's declarations and assertion live between
        // its own `push`/`pop`, so each starts from the same empty assertion stack.
        self.stdin
            .write_all(script.as_bytes())
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
                let v: ModelValue = model::parse_value(line, &symbol(s))
                    .ok_or_else(|| SolverError::Unreadable(format!("cannot read '{line}'")))?;
                values.push((s.clone(), v));
            }
            Ok(Answer::Sat(values))
        }
        other => Err(SolverError::Unreadable(format!("unexpected answer {other:?}"))),
    }
}
