//! `layout-simplify-offsets`: removes `div`/`rem` (and other cost) from index arithmetic with
//! range facts taken from the IR, using the e-graph simplifier of `index-simplify`.
//!
//! One file per concern:
//! * [`reader`]: trees of `index` `arith` ops → [`IndexExpr`] (exact readings only; anything
//!   else is an atom, a symbol);
//! * [`facts`]: ranges and congruences of atoms (loop variables, `memref.dim ≥ 0`);
//! * the simplified expression is written back with the one index emitter,
//!   [`crate::index_arith::IndexEmitter`], under the same facts.
//!
//! The pass, for every function-like region under the op it runs on:
//! 1. finds the *roots*: index values produced by a tree op (see [`reader::is_tree_op`]) that is
//!    read as an operator, and used by some op that is not read as part of a tree (a load,
//!    store, layout op, `func.return`, loop bound, call, an unreadable arith op, ...);
//! 2. reads each root to an [`IndexExpr`] with the facts of its atoms;
//! 3. simplifies it ([`simplify_offset`]); only when the result is strictly cheaper under
//!    `index-simplify`'s cost (div/mod ≫ mul > add = shift = and), emits it right before the
//!    root's op and replaces the root's uses — anything else stays byte-for-byte as it was;
//! 4. erases the ops of rewritten trees that became dead.
//!
//! Time and memory are linear in the number of ops: trees are bounded and a value past the
//! budget is split off (read as an atom); `layout-simplify-offsets-remarks` reports each split.
//! Details: docs/index-simplification.md §3.
//!
//! It runs after the lowerings that emit address arithmetic (docs/index-simplification.md §1).

pub mod facts;
pub mod reader;

#[cfg(test)]
pub(crate) mod budget_tests;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::time::Duration;

use index_simplify::smt::{simplify_proven, Proof, ProofOptions, Verdict};
use index_simplify::{simplify_with, Facts, IndexExpr, SimplifyCache, SimplifyOptions, SimplifyReport};
use melior::{
    dialect::DialectHandle,
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        OperationRef, Value, ValueLike,
    },
    pass::{
        transform::{create_canonicalizer, create_cse, create_loop_invariant_code_motion},
        ExternalPass, Pass, PassManager,
    },
};

use mlir_sys::MlirOperation;
use reader::{is_tree_op, node_op, Reader};
use thiserror::Error;

use crate::index_arith::{IndexEmitError, IndexEmitter};

use crate::ir::{defining_op, file_line_col, op_name};

use crate::external::{self, PassId};

pub const ARGUMENT: &str = "layout-simplify-offsets";
pub const DESCRIPTION: &str =
    "Remove div/rem from index arithmetic with loop-range facts (e-graph simplifier, index-simplify)";

/// The same pass, printing a remark for every tree split at the node budget.
pub const REMARKS_ARGUMENT: &str = "layout-simplify-offsets-remarks";
pub const REMARKS_DESCRIPTION: &str =
    "layout-simplify-offsets, with a remark (stderr) at each index expression split at the per-tree node budget";

static PASS_ID: PassId = PassId::new();
static REMARKS_PASS_ID: PassId = PassId::new();

/// Creates the pass (it creates `arith` ops).
pub fn create() -> Pass {
    external::create(&PASS_ID, run, "LayoutSimplifyOffsets", ARGUMENT, DESCRIPTION, &[DialectHandle::arith()])
}

/// Creates the pass that also prints [`SplitTree::remark`] for each split tree.
pub fn create_with_remarks() -> Pass {
    let deps = [DialectHandle::arith()];
    external::create(
        &REMARKS_PASS_ID,
        run_with_remarks,
        "LayoutSimplifyOffsetsRemarks",
        REMARKS_ARGUMENT,
        REMARKS_DESCRIPTION,
        &deps,
    )
}

fn run(root: OperationRef, _pass: ExternalPass) {
    simplify_offsets(root);
}

/// The pass option of the proof mode: `layout-simplify-offsets{prove=true}` (fast: one solver
/// query per rewrite) or `{prove=full}` (also whether the rewrite is exact under wrapping
/// arithmetic, longer timeout). The proofs are `index_simplify::smt::prove_rewrite`.
pub const PROVE_OPTION: &str = "prove";

static PROVE_FAST_PASS_ID: PassId = PassId::new();
static PROVE_FULL_PASS_ID: PassId = PassId::new();

/// Creates the pass from pipeline options (`{prove=true|fast|full|false}`, braces optional).
pub fn create_with_options(text: &str) -> Result<Pass, crate::error::LoweringError> {
    let text = text.trim().trim_start_matches('{').trim_end_matches('}').trim();
    let deps = [DialectHandle::arith()];
    let error = |message: String| Err(crate::error::LoweringError::PassOption { pass: ARGUMENT, message });
    match text.split_once('=').map_or((text, "true"), |(k, v)| (k.trim(), v.trim())) {
        ("", _) | (PROVE_OPTION, "false" | "0") => Ok(create()),
        (PROVE_OPTION, "true" | "1" | "fast") => Ok(external::create(
            &PROVE_FAST_PASS_ID,
            run_prove_fast,
            "LayoutSimplifyOffsetsProveFast",
            ARGUMENT,
            DESCRIPTION,
            &deps,
        )),
        (PROVE_OPTION, "full") => Ok(external::create(
            &PROVE_FULL_PASS_ID,
            run_prove_full,
            "LayoutSimplifyOffsetsProveFull",
            ARGUMENT,
            DESCRIPTION,
            &deps,
        )),
        (PROVE_OPTION, v) => error(format!("{PROVE_OPTION} must be true, fast, full or false, got '{v}'")),
        (k, _) => error(format!("unknown option '{k}' (known: {PROVE_OPTION}=true|fast|full|false)")),
    }
}

fn run_prove_fast(root: OperationRef, pass: ExternalPass) {
    run_proving(root, pass, &ProofOptions::fast());
}

fn run_prove_full(root: OperationRef, pass: ExternalPass) {
    run_proving(root, pass, &ProofOptions::full());
}

/// Simplifies with a proof of each rewrite; prints [`Summary::proof_line`] to stderr and fails
/// the pass on a counterexample (the error, with the values, is emitted at the root's op).
fn run_proving(root: OperationRef, pass: ExternalPass, opts: &ProofOptions) {
    let summary = simplify_offsets_with(root, Some(opts));
    eprintln!("{}", summary.proof_line());
    if summary.roots.iter().any(|r| matches!(r.proof.as_ref().map(|p| &p.verdict), Some(Verdict::Counterexample(_)))) {
        pass.signal_failure();
    }
}

fn run_with_remarks(root: OperationRef, _pass: ExternalPass) {
    for split in simplify_offsets(root).split {
        eprintln!("{}", split.remark());
    }
}

/// The passes that follow a lowering which emits address arithmetic (`layout-lower-to-loops`):
/// fold constants, simplify the offsets, clean up and hoist loop-invariant address parts. The
/// tail of `layout-opt --default-pipeline`, what the JIT hook (`layout_runtime::lower_layout_ops`)
/// and the self-check run after the lowering, and column (b) of `scripts/bench-offsets`: one
/// list, so the code that runs on the CPU is the code that is checked and benchmarked.
pub const POST_LOWERING: [&str; 5] = ["canonicalize", ARGUMENT, "canonicalize", "cse", "loop-invariant-code-motion"];

/// Adds [`POST_LOWERING`] to `manager`; with `simplify = false` without this pass (the
/// benchmark's baseline, column (a)).
pub fn add_post_lowering(manager: &PassManager, simplify: bool) {
    for name in POST_LOWERING {
        match name {
            "canonicalize" => manager.add_pass(create_canonicalizer()),
            "cse" => manager.add_pass(create_cse()),
            "loop-invariant-code-motion" => manager.add_pass(create_loop_invariant_code_motion()),
            _ if simplify => manager.add_pass(create()),
            _ => {}
        }
    }
}

/// The library entry for callers that build index expressions themselves (the AscendC
/// lowering: intrinsic parameters such as strides, repeat counts and offsets are index
/// expressions too). `facts` describe the symbols (loop and tile coordinates, dynamic sizes);
/// symbols without facts are unknown and no range rule fires on them. The result equals `expr`
/// at every point the facts admit; [`SimplifyReport::range`] is the proven range of the value
/// (e.g. to show a parameter fits `u16`), [`SimplifyReport::bound_hit`] says whether a resource
/// bound stopped the search.
pub fn simplify_offset(expr: &IndexExpr, facts: &Facts) -> SimplifyReport {
    simplify_with(expr, facts, &SimplifyOptions::default())
}

/// What happened to one root.
#[derive(Clone, Debug)]
pub struct RootReport {
    pub report: SimplifyReport,
    pub rewritten: bool,
    /// In the proof mode, the proof of the rewrite (`None` when nothing was rewritten).
    pub proof: Option<Proof>,
}

/// A value whose tree passed the node budget ([`reader::MAX_TREE_NODES`]): it is kept as
/// computed, the trees of its operands and of its users are simplified without it.
#[derive(Clone, Debug)]
pub struct SplitTree {
    /// `file:line:col` of its op.
    pub location: String,
    /// Operator nodes its tree would have had (shared sub-trees counted at each use).
    pub size: usize,
}

impl SplitTree {
    /// `file:line:col: remark: ...`, the line `layout-simplify-offsets-remarks` prints.
    pub fn remark(&self) -> String {
        format!(
            "{}: remark: {ARGUMENT}: this index expression has {} operations (shared sub-expressions counted at each use), more than the per-tree budget of {}; it is split here: this value is kept as computed and the expressions before and after it are simplified separately",
            self.location,
            self.size,
            reader::MAX_TREE_NODES
        )
    }
}

/// What [`simplify_offsets`] did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub roots: Vec<RootReport>,
    /// Trees split at the node budget, in reading order.
    pub split: Vec<SplitTree>,
    /// Ops erased because rewriting left them dead.
    pub erased: usize,
    /// Roots whose rebuild failed (then left untouched).
    pub errors: Vec<RebuildError>,
}

impl Summary {
    pub fn rewritten(&self) -> usize {
        self.roots.iter().filter(|r| r.rewritten).count()
    }
    pub fn bound_hit(&self) -> bool {
        self.roots.iter().any(|r| r.report.bound_hit)
    }
    pub fn simplify_time(&self) -> Duration {
        self.roots.iter().map(|r| r.report.elapsed).sum()
    }
    /// Solver time of the proof mode.
    pub fn solver_time(&self) -> Duration {
        self.roots.iter().filter_map(|r| r.proof.as_ref()).map(|p| p.elapsed).sum()
    }
    /// CPU time of the simplifier (`None` where it cannot be read).
    pub fn simplify_cpu(&self) -> Option<Duration> {
        self.roots.iter().map(|r| r.report.cpu).sum()
    }
    /// CPU time of the proof mode: this thread's and the solver process's.
    pub fn solver_cpu(&self) -> Option<Duration> {
        self.roots.iter().filter_map(|r| r.proof.as_ref()).map(|p| p.cpu).sum()
    }
    /// `layout-simplify-offsets: proofs: R rewrites: P proven (E exact also with wrapping), C
    /// counterexamples, U unknown; solver S ms, simplifier T ms; cpu: solver S' ms, simplifier
    /// T' ms` (wall time, then CPU time; the last part only where CPU time can be read).
    pub fn proof_line(&self) -> String {
        let verdicts: Vec<&Verdict> = self.roots.iter().filter_map(|r| r.proof.as_ref()).map(|p| &p.verdict).collect();
        let count = |f: fn(&Verdict) -> bool| verdicts.iter().filter(|v| f(v)).count();
        let line = format!(
            "{ARGUMENT}: proofs: {} rewrites: {} proven ({} exact also with wrapping), {} counterexamples, {} unknown; solver {:.1} ms, simplifier {:.1} ms",
            verdicts.len(),
            count(|v| v.is_proven()),
            count(|v| *v == Verdict::Proven),
            count(|v| matches!(v, Verdict::Counterexample(_))),
            count(|v| matches!(v, Verdict::Unknown(_))),
            self.solver_time().as_secs_f64() * 1e3,
            self.simplify_time().as_secs_f64() * 1e3,
        );
        match (self.solver_cpu(), self.simplify_cpu()) {
            (Some(solver), Some(simplifier)) => format!(
                "{line}; cpu: solver {:.1} ms, simplifier {:.1} ms",
                solver.as_secs_f64() * 1e3,
                simplifier.as_secs_f64() * 1e3
            ),
            _ => line,
        }
    }
}

/// Facts restricted to the symbols of `expr` (an inconsistent fact elsewhere — a loop that never
/// runs — must not block this expression).
fn facts_for(expr: &IndexExpr, all: &Facts) -> Facts {
    let mut out = Facts::new();
    for s in expr.symbols() {
        if let Some(f) = all.get(&s) {
            out.set(&s, *f);
        }
    }
    out
}

fn has_uses(value: Value) -> bool {
    // Safety: valid value.
    unsafe { !mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(value.to_raw())) }
}

/// The owners of the uses of `value`.
fn users<'c, 'a>(value: Value<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    // Safety: walking the use list of a valid value.
    unsafe {
        let mut u = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(u) {
            out.push(OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(u)));
            u = mlir_sys::mlirOpOperandGetNextUse(u);
        }
    }
    out
}

/// Runs the rewrite on everything under `root` and reports each root expression.
pub fn simplify_offsets(root: OperationRef) -> Summary {
    simplify_offsets_with(root, None)
}

/// [`simplify_offsets`], with `prove`: each rewrite is checked by the solver first, and one with
/// a counterexample is not applied (an error at its op).
pub fn simplify_offsets_with(root: OperationRef, prove: Option<&ProofOptions>) -> Summary {
    let mut candidates = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) != "arith.constant" && is_tree_op(&op_name(&op)) && op.result_count() == 1 {
            candidates.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let mut summary = Summary::default();
    let mut reader = Reader::new();
    // Read everything first (the IR is not changed while reading); only the roots' trees are
    // built, one at a time, so memory stays linear in the number of ops.
    let mut roots = Vec::new();
    for raw in &candidates {
        // Safety: collected ops are alive (nothing is erased before the rewrite phase).
        let op = unsafe { OperationRef::from_raw(*raw) };
        let Ok(result) = op.result(0) else { continue };
        let value: Value = result.into();
        if reader.scan(value).0 {
            roots.push((*raw, value));
        }
    }
    summary.split = reader
        .split
        .iter()
        .filter_map(|s| Some(SplitTree { location: file_line_col(defining_op(s.value)?.location()), size: s.size }))
        .collect();
    // A root is used by something that is not a tree node.
    let is_node_user = |reader: &Reader, user: &OperationRef| {
        user.result_count() == 1 && user.result(0).ok().is_some_and(|r| reader.is_node(r.into()) == Some(true))
    };
    let mut rewritten_roots = Vec::new();
    // The lowering emits the same address expression for several ops (CSE runs later), and
    // the same one over other loop variables for each copy: each distinct (expression, facts),
    // up to renaming of the symbols, is simplified once (`index_simplify::cache`).
    let mut cache = SimplifyCache::new();
    for (raw, value) in roots {
        if !users(value).iter().any(|u| !is_node_user(&reader, u)) {
            continue;
        }
        let Some(expr) = reader.expr(value) else { continue };
        let facts = facts_for(&expr, &reader.facts);
        let (report, proof) = match prove {
            None => (cache.simplify(&expr, &facts), None),
            Some(opts) => simplify_proven(&expr, &facts, &SimplifyOptions::default(), opts),
        };
        if let Some(Verdict::Counterexample(cx)) = proof.as_ref().map(|p| &p.verdict) {
            // Safety: the op is alive (erasure happens after all rewrites).
            let op = unsafe { OperationRef::from_raw(raw) };
            let message = format!("{ARGUMENT}: the rewrite of `{expr}` is wrong at {cx}; not applied");
            crate::emit_error(op.location(), &message);
        }
        let mut rewritten = false;
        if report.improved() {
            // Safety: the op is alive (erasure happens after all rewrites).
            let op = unsafe { OperationRef::from_raw(raw) };
            match rebuild_before(op, value, &report.expr, facts, &reader) {
                Ok(()) => {
                    rewritten = true;
                    rewritten_roots.push(value);
                }
                Err(e) => summary.errors.push(e),
            }
        }
        summary.roots.push(RootReport { report, rewritten, proof });
    }
    summary.erased = erase_dead_trees(&reader, &rewritten_roots);
    summary
}

/// Why a simplified root could not be written back (it is then left as it was).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RebuildError {
    #[error("{location}: the root op is not in a block")]
    NoBlock { location: String },
    #[error("{location}: symbol `{symbol}` of the simplified expression is not a value the reader met")]
    UnknownSymbol { location: String, symbol: String },
    #[error("{location}: {source}", location = .0.location(), source = .0)]
    Emit(#[from] IndexEmitError),
}

/// Emits `expr` before `op` and redirects the uses of `old` to it.
fn rebuild_before<'c, 'a>(
    op: OperationRef<'c, 'a>,
    old: Value<'c, 'a>,
    expr: &IndexExpr,
    facts: Facts,
    reader: &Reader<'c, 'a>,
) -> Result<(), RebuildError> {
    let location = op.location();
    let block = op.block().ok_or_else(|| RebuildError::NoBlock { location: file_line_col(location) })?;
    // `to_ref` borrows the `ContextRef` itself: keep it alive as long as `context` is used.
    let context_ref = location.context();
    // Safety: the context outlives the pass run and `context_ref` outlives `context`'s uses.
    let context = unsafe { context_ref.to_ref() };
    let mut emitter = IndexEmitter::new(context, location, facts, |new| block.insert_operation_before(op, new));
    for s in expr.symbols() {
        let v = reader
            .symbols
            .get(&s)
            .copied()
            .ok_or_else(|| RebuildError::UnknownSymbol { location: file_line_col(location), symbol: s.clone() })?;
        emitter.bind(&s, v);
    }
    let new = emitter.emit(expr)?;
    // Safety: both values are valid and of type index.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw()) };
    Ok(())
}

/// Erases the tree ops of the rewritten roots that have no uses left, and then those of their
/// operands that become dead (a worklist: each op is looked at once per operand it feeds).
fn erase_dead_trees(reader: &Reader, roots: &[Value]) -> usize {
    // The node ops of the rewritten trees by result (depth-first through node operands). The
    // worklist below looks values up here by address only, never touching an erased one.
    let mut tree_ops: HashMap<usize, MlirOperation> = HashMap::new();
    let mut stack: Vec<Value> = roots.to_vec();
    while let Some(v) = stack.pop() {
        if tree_ops.contains_key(&reader::key(v)) {
            continue;
        }
        let Some(op) = node_op(reader, v) else { continue };
        tree_ops.insert(reader::key(v), op.to_raw());
        stack.extend(op.operands());
    }
    let mut erased = 0;
    let mut work: Vec<usize> = roots.iter().map(|v| reader::key(*v)).collect();
    while let Some(k) = work.pop() {
        let Some(raw) = tree_ops.get(&k).copied() else { continue };
        // Safety: ops in `tree_ops` are alive: each is removed from it before it is destroyed.
        let op = unsafe { OperationRef::from_raw(raw) };
        if op.results().any(|r| has_uses(r.into())) {
            continue;
        }
        tree_ops.remove(&k);
        work.extend(op.operands().map(reader::key));
        // Safety: a live op without uses, destroyed once.
        unsafe { mlir_sys::mlirOperationDestroy(raw) };
        erased += 1;
    }
    erased
}
