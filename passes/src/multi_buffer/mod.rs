//! `layout-multi-buffer`: ping-pong buffers in the loops that stream data through on-chip
//! memory (K loops), so the copies of one slice can overlap the cube on the previous one.
//!
//! A loop qualifies when it is an `scf.for` without results, with a constant positive step,
//! with no nested loop that loads, and with at least one *streamed* buffer: a `layout.alloc` in
//! L1, L0A or L0B, outside the loop, loaded into inside it, whose every use in the function is
//! the destination of a `layout.load`. Its data is then read only through the `written` views
//! of those loads (rule R1), which live in one iteration: no value crosses iterations through
//! the buffer, so a second buffer may take every other slice. The rewrite ([`rewrite`]):
//!
//! ```text
//! for k = lb to ub step 2s {
//!   body(k)       on copies of the streamed buffers (pong)
//!   k1 = k + s
//!   if (k1 < ub) { body(k1) on the original buffers (ping) }
//! }
//! ```
//!
//! An odd number of slices ends in the first half (the `scf.if` is false). The first half takes
//! the copies, so a slice peeled before the loop (K slice 0, on the originals) alternates with
//! it. Before rewriting, the buffers the loop uses, doubled ones twice, are placed on the
//! module's target ([`budget`]): when they do not fit, a located error at the loop names them
//! with their sizes, and nothing is rewritten.

mod budget;
mod rewrite;
#[cfg(test)]
mod tests;

use melior::{
    dialect::DialectHandle,
    ir::{
        operation::{OperationLike, WalkOrder, WalkResult},
        Location, OperationRef, Value, ValueLike,
    },
    pass::{ExternalPass, Pass},
};

use layout_dialect::{ops::LayoutOp, types::target_of, MemorySpace};

pub use budget::BudgetError;

use crate::{
    emit_error,
    external::{self, PassId},
    ir::{constant_int, defining_op, op_name, tensor_of},
};

pub const ARGUMENT: &str = "layout-multi-buffer";
pub const DESCRIPTION: &str =
    "Double-buffer the L1/L0A/L0B buffers of K loops: unrolled by two, every other slice in a second buffer, an odd last slice under scf.if";

static PASS_ID: PassId = PassId::new();

pub fn create() -> Pass {
    external::create(
        &PASS_ID,
        run,
        "LayoutMultiBuffer",
        ARGUMENT,
        DESCRIPTION,
        &[DialectHandle::arith(), DialectHandle::scf()],
    )
}

fn run(root: OperationRef, pass: ExternalPass) {
    if let Err(failures) = multi_buffer(root) {
        for (location, error) in failures {
            emit_error(location, &format!("{ARGUMENT}: {error}"));
        }
        pass.signal_failure();
    }
}

/// Why a loop could not be double-buffered.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MultiBufferError {
    /// The module has no `layout.target` to check the budgets against.
    #[error("the buffer budgets need a target: {0}")]
    Target(String),
    /// The doubled buffers do not fit.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// Twice the loop step leaves `i64`.
    #[error("twice the step {0} leaves i64")]
    Step(i64),
    /// Building an op failed: a bug of the pass, not of its input.
    #[error("internal: {0}")]
    Internal(String),
}

/// A qualifying loop and its streamed buffers (the `layout.alloc` ops, in program order).
pub(crate) struct Candidate<'c, 'a> {
    pub for_op: OperationRef<'c, 'a>,
    pub step: i64,
    pub streamed: Vec<OperationRef<'c, 'a>>,
}

/// Double-buffers every qualifying loop under `root`; returns how many were rewritten, or the
/// located errors (a loop whose buffers do not fit is left as it was).
pub fn multi_buffer<'c>(root: OperationRef<'c, '_>) -> Result<usize, Vec<(Location<'c>, MultiBufferError)>> {
    let candidates = candidates(root);
    if candidates.is_empty() {
        return Ok(0);
    }
    let target = target_of(root).map_err(|(location, e)| vec![(location, MultiBufferError::Target(e.to_string()))])?;
    let mut failures = Vec::new();
    let mut done = 0;
    let mut seconds = std::collections::HashMap::new();
    for c in &candidates {
        let checked = budget::check(target, c).map_err(MultiBufferError::from);
        match checked.and_then(|()| rewrite::rewrite(c, &mut seconds)) {
            Ok(()) => done += 1,
            Err(e) => failures.push((c.for_op.location(), e)),
        }
    }
    if failures.is_empty() {
        Ok(done)
    } else {
        Err(failures)
    }
}

/// The qualifying loops under `root`, outermost first.
fn candidates<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<Candidate<'c, 'a>> {
    let mut loops = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "scf.for" {
            // Safety: the ops outlive the walk; nothing is erased while candidates are used.
            loops.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    loops.into_iter().filter_map(candidate).collect()
}

fn candidate<'c, 'a>(for_op: OperationRef<'c, 'a>) -> Option<Candidate<'c, 'a>> {
    if for_op.result_count() != 0 {
        return None;
    }
    let step = constant_int(for_op.operand(2).ok()?).filter(|&s| s > 0)?;
    let mut loads: Vec<OperationRef> = Vec::new();
    let mut nested_load = false;
    for_op.walk(WalkOrder::PreOrder, |op| {
        if let Some(Ok(LayoutOp::Load { .. })) = LayoutOp::decode(op) {
            if enclosing_loop(op).map(|l| l.to_raw().ptr) == Some(for_op.to_raw().ptr) {
                // Safety: as above.
                loads.push(unsafe { OperationRef::from_raw(op.to_raw()) });
            } else {
                nested_load = true;
            }
        }
        WalkResult::Advance
    });
    if nested_load {
        return None;
    }
    let mut streamed: Vec<OperationRef> = Vec::new();
    for load in loads {
        let Some(Ok(LayoutOp::Load { dst, .. })) = LayoutOp::decode(load) else { continue };
        let Some(alloc) = defining_op(dst) else { continue };
        let is_alloc = matches!(LayoutOp::decode(alloc), Some(Ok(LayoutOp::Alloc { .. })));
        let streamable = tensor_of(dst)
            .is_some_and(|t| [MemorySpace::L1, MemorySpace::L0a, MemorySpace::L0b].iter().any(|s| s.name() == t.space));
        if is_alloc
            && streamable
            && !inside(alloc, for_op)
            && only_load_destination(dst)
            && !streamed.iter().any(|s| s.to_raw().ptr == alloc.to_raw().ptr)
        {
            streamed.push(alloc);
        }
    }
    (!streamed.is_empty()).then_some(Candidate { for_op, step, streamed })
}

/// The innermost `scf.for` around `op`.
fn enclosing_loop<'c, 'a>(op: OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut next = op.parent_operation();
    while let Some(parent) = next {
        if op_name(&parent) == "scf.for" {
            return Some(parent);
        }
        next = parent.parent_operation();
    }
    None
}

/// Whether `op` is nested in `ancestor`.
fn inside(op: OperationRef, ancestor: OperationRef) -> bool {
    let mut next = op.parent_operation();
    while let Some(parent) = next {
        if parent.to_raw().ptr == ancestor.to_raw().ptr {
            return true;
        }
        next = parent.parent_operation();
    }
    false
}

/// Every use of `value` is operand 1 (the destination) of a `layout.load`.
fn only_load_destination(value: Value) -> bool {
    // Safety: walking the use list of a valid value.
    unsafe {
        let mut use_ = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(use_) {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(use_));
            if op_name(&owner) != "layout.load" || mlir_sys::mlirOpOperandGetOperandNumber(use_) != 1 {
                return false;
            }
            use_ = mlir_sys::mlirOpOperandGetNextUse(use_);
        }
    }
    true
}
