//! Live ranges of the on-chip buffers of a module, for [`super::placement`]: positions are
//! pre-order indices of the ops, so a range is an interval of the program text.

use std::collections::HashMap;

use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    OperationRef, Value,
};

use layout_dialect::ops::LayoutOp;

use super::{placement, root_of};
use crate::ir::{defining_op, op_name};

/// The enclosing `func.func` of an op (its raw pointer; 0 outside any function).
pub(super) fn function_of(op: OperationRef) -> usize {
    let mut next = op.parent_operation();
    while let Some(parent) = next {
        if op_name(&parent) == "func.func" {
            return parent.to_raw().ptr as usize;
        }
        next = parent.parent_operation();
    }
    0
}

/// The live range of every on-chip buffer (keyed by its `layout.alloc` result): from its first
/// to its last access (load, store, matmul, through tiles), in pre-order positions. An access
/// inside a loop that does not contain the alloc extends to the whole outermost such loop (the
/// data may be read in the next iteration).
pub(super) fn live_ranges(ops: &[OperationRef], position: &HashMap<usize, usize>) -> HashMap<usize, placement::Live> {
    let pos = |op: OperationRef| position.get(&(op.to_raw().ptr as usize)).copied().unwrap_or(0);
    // The last pre-order position inside `op` (its descendants follow it in pre-order), once
    // per region op.
    let mut ends: HashMap<usize, usize> = HashMap::new();
    let mut last = |op: OperationRef| {
        *ends.entry(op.to_raw().ptr as usize).or_insert_with(|| {
            let mut n = 0usize;
            op.walk(WalkOrder::PreOrder, |_| {
                n += 1;
                WalkResult::Advance
            });
            pos(op) + n.saturating_sub(1)
        })
    };
    let mut live: HashMap<usize, placement::Live> = HashMap::new();
    for op in ops {
        // Views, allocs, tiles and offsets move no data; every other layout op accesses its
        // operands.
        match LayoutOp::decode(*op) {
            Some(Ok(
                LayoutOp::View { .. }
                | LayoutOp::Alloc { .. }
                | LayoutOp::Tile { .. }
                | LayoutOp::Offset { .. }
                | LayoutOp::Block { .. },
            ))
            | None => continue,
            Some(_) => {}
        }
        for v in op.operands() {
            let Some(root) = root_of(v) else { continue };
            let Some(alloc) = root_op(v) else { continue };
            let mut span = (pos(*op), pos(*op));
            let mut next = op.parent_operation();
            while let Some(parent) = next {
                if op_name(&parent) == "func.func" || pos(alloc) > pos(parent) && pos(alloc) <= last(parent) {
                    break;
                }
                if matches!(op_name(&parent).as_str(), "scf.for" | "scf.while" | "scf.parallel") {
                    span = (pos(parent), last(parent));
                }
                next = parent.parent_operation();
            }
            let e = live.entry(root).or_insert(span);
            *e = (e.0.min(span.0), e.1.max(span.1));
        }
    }
    live
}

/// The op defining the root `layout.alloc`/`layout.view` of a (tile) value.
fn root_op<'c, 'a>(v: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut v = v;
    loop {
        let op = defining_op(v)?;
        match LayoutOp::decode(op) {
            Some(Ok(LayoutOp::Tile { source, .. })) => v = source,
            _ => return Some(op),
        }
    }
}
