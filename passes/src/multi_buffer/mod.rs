//! `layout-multi-buffer`: ping-pong buffers in the loops that stream data through on-chip
//! memory (K loops) and in the loops over C tiles, so the copies of one slice overlap the cube
//! on the previous one, and the Fixpipe of one C tile the Mmads of the next.
//!
//! A loop qualifies when it is an `scf.for` without results, stepped by a positive constant or
//! by `layout.block_num` (the tiles of one block), with a *doubled* buffer (a `layout.alloc`
//! outside the loop; [`streamed`], [`overwritten`]): a **streamed** L1/L0A/L0B buffer is loaded
//! into directly in the loop and in no loop nested in it, and every use of it is the destination
//! of a `layout.load` (read only through the `written` views, rule R1, which live in one
//! iteration); an **overwritten** L0C accumulator is used only inside the loop, by matmuls and
//! stores, and each iteration starts with a `matmul {accumulate = false}` into it. No value
//! crosses iterations through either, so a second buffer may take every other iteration:
//!
//! ```text
//! for k = lb to ub step 2s {
//!   body(k)       on copies of the doubled buffers (pong)
//!   k1 = k + s
//!   if (k1 < ub) { body(k1) on the original buffers (ping) }
//! }
//! ```
//!
//! Inner loops are rewritten first (an outer body is cloned with them). The budget ([`budget`]):
//! every buffer the loop uses, doubled ones twice, placed on the target; streamed buffers that do
//! not fit are a located error at the loop; accumulators are doubled only where two fit (one is
//! always correct, and a C tile may fill L0C).

mod budget;
mod rewrite;
#[cfg(test)]
pub(crate) mod tests;

use melior::{
    dialect::DialectHandle,
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        Location, OperationRef, RegionLike, Value, ValueLike,
    },
    pass::{ExternalPass, Pass},
};

use layout_dialect::{
    ops::{BlockQuery, LayoutOp},
    types::target_of,
    MemorySpace,
};

pub use budget::BudgetError;

use crate::{
    emit_error,
    external::{self, PassId},
    ir::{constant_int, defining_op, op_name, tensor_of},
};

pub const ARGUMENT: &str = "layout-multi-buffer";
pub const DESCRIPTION: &str =
    "Double-buffer the L1/L0A/L0B buffers of K loops and the L0C accumulator of C-tile loops: unrolled by two, every other iteration in a second buffer, an odd last one under scf.if";

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

/// The step of a qualifying loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A positive constant.
    Const(i64),
    /// `layout.block_num`: at least 1 and at most the hardware's block limit, so twice it is an
    /// index without overflow.
    BlockNum,
}

/// A qualifying loop and its doubled buffers (the `layout.alloc` ops, in program order):
/// `streamed` L1/L0A/L0B ones, then the `overwritten` L0C accumulators.
pub(crate) struct Candidate<'c, 'a> {
    pub for_op: OperationRef<'c, 'a>,
    pub step: Step,
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
    // Innermost first: an outer loop's body is cloned with its inner loops already rewritten.
    for (c, accumulators) in candidates.iter().rev() {
        let mut doubled = Candidate { for_op: c.for_op, step: c.step, streamed: c.streamed.clone() };
        doubled.streamed.extend(accumulators.iter().copied());
        let mut checked = budget::check(target, &doubled);
        if checked.is_err() && !accumulators.is_empty() {
            // Two accumulators do not fit: keep one (always correct), double the rest.
            doubled.streamed.truncate(c.streamed.len());
            if doubled.streamed.is_empty() {
                continue;
            }
            checked = budget::check(target, &doubled);
        }
        match checked.map_err(MultiBufferError::from).and_then(|()| rewrite::rewrite(&doubled, &mut seconds)) {
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

/// The qualifying loops under `root`, outermost first, each with its streamed buffers and,
/// apart, its overwritten accumulators.
fn candidates<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<(Candidate<'c, 'a>, Vec<OperationRef<'c, 'a>>)> {
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

fn candidate<'c, 'a>(for_op: OperationRef<'c, 'a>) -> Option<(Candidate<'c, 'a>, Vec<OperationRef<'c, 'a>>)> {
    if for_op.result_count() != 0 {
        return None;
    }
    let step = step_of(for_op.operand(2).ok()?)?;
    let streamed = streamed(for_op);
    let accumulators = overwritten(for_op);
    (!streamed.is_empty() || !accumulators.is_empty()).then_some((Candidate { for_op, step, streamed }, accumulators))
}

fn step_of(step: Value) -> Option<Step> {
    if let Some(s) = constant_int(step) {
        return (s > 0).then_some(Step::Const(s));
    }
    let op = defining_op(step)?;
    matches!(LayoutOp::decode(op), Some(Ok(LayoutOp::Block { query: BlockQuery::Num, .. }))).then_some(Step::BlockNum)
}

/// The streamed buffers of `for_op`: L1/L0A/L0B allocs outside it, loaded into directly in it
/// and in no loop nested in it (that loop streams them), used only as load destinations.
fn streamed<'c, 'a>(for_op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut direct: Vec<OperationRef> = Vec::new();
    let mut nested: Vec<usize> = Vec::new();
    for_op.walk(WalkOrder::PreOrder, |op| {
        if let Some(Ok(LayoutOp::Load { dst, .. })) = LayoutOp::decode(op) {
            if let Some(alloc) = defining_op(dst) {
                if enclosing_loop(op).map(|l| l.to_raw().ptr) == Some(for_op.to_raw().ptr) {
                    // Safety: as above.
                    direct.push(unsafe { OperationRef::from_raw(alloc.to_raw()) });
                } else {
                    nested.push(alloc.to_raw().ptr as usize);
                }
            }
        }
        WalkResult::Advance
    });
    let mut out: Vec<OperationRef> = Vec::new();
    for alloc in direct {
        let Ok(result) = alloc.result(0) else { continue };
        let dst: Value = result.into();
        let is_alloc = matches!(LayoutOp::decode(alloc), Some(Ok(LayoutOp::Alloc { .. })));
        let streamable = in_space(dst, &[MemorySpace::L1, MemorySpace::L0a, MemorySpace::L0b]);
        if is_alloc
            && streamable
            && !inside(alloc, for_op)
            && !nested.contains(&(alloc.to_raw().ptr as usize))
            && only_load_destination(dst)
            && !out.iter().any(|s| s.to_raw().ptr == alloc.to_raw().ptr)
        {
            out.push(alloc);
        }
    }
    out
}

/// The overwritten accumulators of `for_op`: L0C allocs outside it, used only in it, only as the
/// C of a matmul or the source of a store, whose first use in the body (in program order, as
/// an op of the body or nested in one) is a `matmul {accumulate = false}` op of the body itself.
fn overwritten<'c, 'a>(for_op: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let Some(body) = for_op.region(0).ok().and_then(|r| r.first_block()) else { return Vec::new() };
    let mut out: Vec<OperationRef> = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        let mut used: Vec<Value> = Vec::new();
        op.walk(WalkOrder::PreOrder, |o| {
            // Safety: the operands are values of the function, alive while the pass runs.
            used.extend(o.operands().map(|v| unsafe { Value::from_raw(v.to_raw()) }));
            WalkResult::Advance
        });
        for v in used {
            let Some(alloc) = defining_op(v) else { continue };
            if seen.contains(&(alloc.to_raw().ptr as usize)) || !in_space(v, &[MemorySpace::L0c]) {
                continue;
            }
            seen.push(alloc.to_raw().ptr as usize);
            let overwrites = matches!(
                LayoutOp::decode(op),
                Some(Ok(LayoutOp::Matmul { c, accumulate: false, .. })) if c.to_raw().ptr == v.to_raw().ptr
            );
            let is_alloc = matches!(LayoutOp::decode(alloc), Some(Ok(LayoutOp::Alloc { .. })));
            if overwrites && is_alloc && !inside(alloc, for_op) && only_accumulated_inside(v, for_op) {
                // Safety: the alloc outlives the pass.
                out.push(unsafe { OperationRef::from_raw(alloc.to_raw()) });
            }
        }
    }
    out
}

fn in_space(v: Value, spaces: &[MemorySpace]) -> bool {
    tensor_of(v).is_some_and(|t| spaces.iter().any(|s| s.name() == t.space))
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
    every_use(value, |owner, operand| op_name(&owner) == "layout.load" && operand == 1)
}

/// Every use of `value` is inside `for_op`, as operand 2 (C) of a `layout.matmul` or operand 0
/// (the source) of a `layout.store`.
fn only_accumulated_inside(value: Value, for_op: OperationRef) -> bool {
    every_use(value, |owner, operand| {
        let role = matches!((op_name(&owner).as_str(), operand), ("layout.matmul", 2) | ("layout.store", 0));
        role && inside(owner, for_op)
    })
}

/// Whether `keep(owner, operand number)` holds for every use of `value`.
fn every_use(value: Value, keep: impl Fn(OperationRef, u32) -> bool) -> bool {
    // Safety: walking the use list of a valid value.
    unsafe {
        let mut use_ = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(use_) {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(use_));
            if !keep(owner, mlir_sys::mlirOpOperandGetOperandNumber(use_)) {
                return false;
            }
            use_ = mlir_sys::mlirOpOperandGetNextUse(use_);
        }
    }
    true
}
