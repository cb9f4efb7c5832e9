//! The buffer budget of a double-buffered loop: every on-chip buffer the loop uses is live
//! during the whole loop, and each streamed one twice, so they must all fit their memories at
//! once. They are placed with the lowering's [`Placement`] (sizes, alignment and the target's
//! capacities come from there and from `layout_algebra::ascend::MemorySpace::capacity`): the
//! first that does not fit is the error, with the buffers placed before it and their bytes.
//! Dynamic buffers have no static size and are left to the lowering's own checks.

use std::collections::HashSet;

use ascendc_params::{Buffer, Target};
use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef, Value, ValueLike,
};

use layout_dialect::ops::LayoutOp;

use super::Candidate;
use crate::{
    ir::{defining_op, tensor_of},
    lower_to_ascendc::placement::{Placement, PlacementError},
    lower_to_loops::guard::position,
};

/// The doubled buffers of a loop do not fit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the double buffers of this loop do not fit: {0}")]
pub struct BudgetError(pub Box<PlacementError>);

/// Places every static on-chip buffer `c.for_op` uses, then the second buffer of every
/// streamed one.
pub(super) fn check(target: Target, c: &Candidate) -> Result<(), BudgetError> {
    let mut used: Vec<OperationRef> = Vec::new();
    let mut seen = HashSet::new();
    c.for_op.walk(WalkOrder::PreOrder, |op| {
        for v in op.operands() {
            if let Some(alloc) = root_alloc(v) {
                if seen.insert(alloc.to_raw().ptr as usize) {
                    // Safety: the alloc outlives the check.
                    used.push(unsafe { OperationRef::from_raw(alloc.to_raw()) });
                }
            }
        }
        WalkResult::Advance
    });
    let mut placement = Placement::new(target);
    let mut place = |alloc: OperationRef, second: bool| -> Result<(), BudgetError> {
        let Some((buffer, elements, elem, ty)) = static_size(alloc) else { return Ok(()) };
        let site = line_col(&position(alloc.location()));
        let name = if second {
            format!("the second buffer of {ty} (alloc at {site})")
        } else {
            format!("{ty} (alloc at {site})")
        };
        placement.place(buffer, &name, elements, elem).map(|_| ()).map_err(|e| BudgetError(Box::new(e)))
    };
    for alloc in &used {
        place(*alloc, false)?;
    }
    for alloc in &c.streamed {
        place(*alloc, true)?;
    }
    Ok(())
}

/// `line:col` of a `file:line:col` text (the whole text otherwise).
fn line_col(site: &str) -> String {
    match site.rsplitn(3, ':').take(2).collect::<Vec<_>>().as_slice() {
        [col, line] => format!("{line}:{col}"),
        _ => site.to_string(),
    }
}

/// The `layout.alloc` a (tile, written view) value lives in.
fn root_alloc<'c, 'a>(v: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut v = v;
    loop {
        let op = defining_op(v)?;
        match LayoutOp::decode(op)?.ok()? {
            LayoutOp::Tile { source, .. } => v = source,
            LayoutOp::Load { dst, .. } => v = dst,
            LayoutOp::Matmul { c, .. } => v = c,
            LayoutOp::Alloc { .. } => return Some(op),
            _ => return None,
        }
    }
}

/// Memory, element count (cosize), element type and type text of a static on-chip alloc.
fn static_size(alloc: OperationRef) -> Option<(Buffer, i64, layout_algebra::ascend::ElementType, String)> {
    let result: Value = alloc.result(0).ok()?.into();
    let ty = tensor_of(result)?;
    let resolved = ty.resolve().ok()?;
    let buffer = Buffer::of_space(resolved.space).filter(|b| *b != Buffer::Gm)?;
    let elements = resolved.static_layout()?.cosize().ok()?;
    Some((buffer, elements, resolved.elem, result.r#type().to_string()))
}
