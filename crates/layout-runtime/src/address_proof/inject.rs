//! A deliberately wrong rewrite, to show that the proofs catch one: `x mod 16 → x`, each
//! `arith.andi %x, 15` (the NZ column inside its fractal) that `pick` selects replaced by `%x`.
//! Only `layout-opt --layout-prove-inject-wrong-mask` and the tests call it; no lowering does.

use melior::ir::{
    operation::{OperationLike, WalkOrder, WalkResult},
    Module, OperationRef, ValueLike,
};

/// Replaces the selected `arith.andi %x, 15` by `%x` in `module`; returns how many.
pub fn drop_column_masks(module: &mut Module, pick: impl Fn(&OperationRef) -> bool) -> usize {
    let mut masks = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let is_mask = layout_passes::ir::op_name(&op) == "arith.andi"
            && op.operand(1).ok().and_then(layout_passes::ir::constant_int) == Some(15)
            && pick(&op);
        if is_mask {
            masks.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let mut dropped = 0;
    for raw in masks {
        // Safety: ops of the live module; only use lists change.
        let op = unsafe { OperationRef::from_raw(raw) };
        if let (Ok(x), Ok(r)) = (op.operand(0), op.result(0)) {
            unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(r.to_raw(), x.to_raw()) };
            dropped += 1;
        }
    }
    dropped
}
