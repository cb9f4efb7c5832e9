//! Deliberate bugs, to show that the proofs catch them: a wrong rewrite `x mod 16 → x` (each
//! `arith.andi %x, 15`, the NZ column inside its fractal, that `pick` selects replaced by
//! `%x`), a redirected access (`index + delta` on the selected witnessed stores), and a wrong
//! intrinsic field (`field + delta` on one `ascendc.*` op). Only
//! `layout-opt`'s hidden `--layout-prove-inject-*` flags and the tests call them.

use melior::ir::{
    attribute::IntegerAttribute,
    block::BlockLike,
    operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
    r#type::Type,
    Attribute, AttributeLike, Identifier, Module, OperationRef, Value, ValueLike,
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

/// Adds `delta` to the index of every `memref.store` tagged with an access witness
/// (`layout.access`) that `pick` selects, through an `arith.addi` just before it; returns how
/// many.
pub fn redirect_stores(module: &mut Module, pick: impl Fn(&OperationRef) -> bool, delta: i64) -> usize {
    let mut stores = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let tagged = op.has_attribute(layout_passes::lower_to_loops::witness::ACCESS_ATTRIBUTE);
        if layout_passes::ir::op_name(&op) == "memref.store" && tagged && op.operand_count() == 3 && pick(&op) {
            stores.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let mut redirected = 0;
    for raw in stores {
        // Safety: ops of the live module; one operand is replaced by a value defined before it.
        let op = unsafe { OperationRef::from_raw(raw) };
        let (Ok(index), Some(block)) = (op.operand(2), op.block()) else { continue };
        let context_ref = op.context();
        // Safety: the context outlives this function; `to_ref` borrows `context_ref`.
        let context = unsafe { context_ref.to_ref() };
        if let Some(sum) = add_before(context, block, op, index, delta) {
            unsafe { mlir_sys::mlirOperationSetOperand(raw, 2, sum.to_raw()) };
            redirected += 1;
        }
    }
    redirected
}

/// `old + delta` (an `index` constant and an `arith.addi`), inserted before `op` in `block`.
fn add_before<'c, 'a>(
    context: &'c melior::Context,
    block: melior::ir::BlockRef<'c, 'a>,
    op: OperationRef<'c, 'a>,
    old: Value<'c, 'a>,
    delta: i64,
) -> Option<Value<'c, 'a>> {
    let location = op.location();
    let index = Type::index(context);
    let constant = OperationBuilder::new("arith.constant", location)
        .add_attributes(&[(Identifier::new(context, "value"), IntegerAttribute::new(index, delta).into())])
        .add_results(&[index])
        .build()
        .ok()?;
    let constant = block.insert_operation_before(op, constant);
    let c = constant.result(0).ok()?;
    let sum = OperationBuilder::new("arith.addi", location)
        .add_operands(&[old, c.into()])
        .add_results(&[index])
        .build()
        .ok()?;
    let sum = block.insert_operation_before(op, sum);
    sum.result(0).ok().map(Into::into)
}

/// Adds `delta` to the field `field` of the `nth` (from 0) `op_name` op of `module`: in its
/// `params` constants, or as an `arith.addi` on its `dyn_fields` operand. Returns whether the
/// op and the field were found.
pub fn wrong_field(module: &Module, op_name: &str, nth: usize, field: &str, delta: i64) -> bool {
    let mut found = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if layout_passes::ir::op_name(&op) == op_name {
            found.push(op.to_raw());
        }
        WalkResult::Advance
    });
    let Some(&raw) = found.get(nth) else { return false };
    // Safety: an op of the live module; its attributes and operands are replaced in place.
    let op = unsafe { OperationRef::from_raw(raw) };
    let context_ref = op.context();
    // Safety: the context outlives this function; `to_ref` borrows `context_ref`.
    let context = unsafe { context_ref.to_ref() };
    let Ok(params) = op.attribute("params") else { return false };
    let params = params.to_raw();
    let text = |s: mlir_sys::MlirStringRef| unsafe {
        String::from_utf8_lossy(std::slice::from_raw_parts(s.data as *const u8, s.length)).into_owned()
    };
    let mut entries = Vec::new();
    let mut changed = false;
    // Safety: a dictionary attribute's entries.
    unsafe {
        for i in 0..mlir_sys::mlirDictionaryAttrGetNumElements(params) {
            let entry = mlir_sys::mlirDictionaryAttrGetElement(params, i);
            let name = text(mlir_sys::mlirIdentifierStr(entry.name));
            let value = Attribute::from_raw(entry.attribute);
            if name == field && mlir_sys::mlirAttributeIsAInteger(entry.attribute) {
                entries
                    .push(format!("{name} = {} : i64", mlir_sys::mlirIntegerAttrGetValueInt(entry.attribute) + delta));
                changed = true;
            } else {
                entries.push(format!("{name} = {value}"));
            }
        }
    }
    if changed {
        let Some(new) = Attribute::parse(context, &format!("{{{}}}", entries.join(", "))) else { return false };
        // Safety: the op's own attribute, replaced by one of the same kind.
        unsafe {
            let name = Identifier::new(context, "params");
            mlir_sys::mlirOperationSetAttributeByName(raw, mlir_sys::mlirIdentifierStr(name.to_raw()), new.to_raw());
        }
        return true;
    }
    let Ok(names) = op.attribute("dyn_fields") else { return false };
    let Some(kind) = ascendc_params::IntrinsicKind::from_op(op_name) else { return false };
    // Safety: an array of string attributes (the lowering's `dyn_fields`).
    let position = unsafe {
        (0..mlir_sys::mlirArrayAttrGetNumElements(names.to_raw())).position(|i| {
            let s = mlir_sys::mlirArrayAttrGetElement(names.to_raw(), i);
            mlir_sys::mlirAttributeIsAString(s) && text(mlir_sys::mlirStringAttrGetValue(s)) == field
        })
    };
    let (Some(k), Some(block)) = (position, op.block()) else { return false };
    let operand = kind.buffer_count() + k;
    let Ok(old) = op.operand(operand) else { return false };
    let Some(new) = add_before(context, block, op, old, delta) else { return false };
    // Safety: replaces one operand of the op by an index value defined before it.
    unsafe { mlir_sys::mlirOperationSetOperand(raw, operand as isize, new.to_raw()) };
    true
}
