//! The unroll-by-two of one qualifying loop (the form in the module preamble): the doubled
//! allocs are cloned after themselves, the body is cloned in front of itself with the clones as
//! buffers, and the original body moves under `scf.if (k + s < ub)` with `k + s` for `k`.

use std::collections::HashMap;

use melior::ir::{
    attribute::IntegerAttribute,
    block::BlockLike,
    operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
    r#type::IntegerType,
    Attribute, Block, Identifier, OperationRef, Region, RegionLike, Type, Value, ValueLike,
};
use mlir_sys::MlirOperation;

use super::{Candidate, MultiBufferError, Step};

/// `arith.cmpi` predicate `slt` (the comparison `scf.for` uses for its bound).
const SLT: i64 = 2;

fn internal(e: impl std::fmt::Display) -> MultiBufferError {
    MultiBufferError::Internal(e.to_string())
}

/// `seconds`: the second buffer of each original alloc already doubled by an earlier loop (key:
/// the original's result), shared so that loops over the same buffer (a peeled first K slice
/// and the K loop) do not each add one: the second buffers live in the whole function, like
/// the originals.
pub(super) fn rewrite<'c>(
    c: &Candidate<'c, '_>,
    seconds: &mut HashMap<usize, Value<'c, 'c>>,
) -> Result<(), MultiBufferError> {
    let for_op = c.for_op;
    let context = for_op.context();
    // Safety: the context outlives the pass run.
    let context = unsafe { context.to_ref() };
    let location = for_op.location();
    let index = Type::index(context);
    let doubled_constant = match c.step {
        Step::Const(s) => Some(s.checked_mul(2).ok_or(MultiBufferError::Step(s))?),
        Step::BlockNum => None,
    };
    let body = for_op.region(0).map_err(internal)?.first_block().ok_or_else(|| internal("scf.for without a body"))?;
    let iv: Value = body.argument(0).map_err(internal)?.into();
    let step = for_op.operand(2).map_err(internal)?;
    let upper = for_op.operand(1).map_err(internal)?;
    let terminator = body.terminator().ok_or_else(|| internal("scf.for body without a terminator"))?;

    // Second buffers, right after the originals; the first half of each iteration uses them.
    let mut map: HashMap<usize, Value> = HashMap::new();
    for alloc in &c.streamed {
        let original = key(alloc.result(0).map_err(internal)?.into());
        if let Some(second) = seconds.get(&original) {
            map.insert(original, *second);
            continue;
        }
        // Safety: cloning a valid op and inserting the clone after it in its own block.
        let copy = unsafe {
            let copy = mlir_sys::mlirOperationClone(alloc.to_raw());
            let block = mlir_sys::mlirOperationGetBlock(alloc.to_raw());
            mlir_sys::mlirBlockInsertOwnedOperationAfter(block, alloc.to_raw(), copy);
            OperationRef::from_raw(copy)
        };
        // Safety: the clone lives in the function as long as the pass runs.
        let second: Value<'c, 'c> = unsafe { Value::from_raw(copy.result(0).map_err(internal)?.to_raw()) };
        map.insert(original, second);
        seconds.insert(original, second);
    }

    // The body's ops (without the yield), cloned in front of themselves.
    let mut originals: Vec<OperationRef> = Vec::new();
    let mut next = body.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if op.to_raw().ptr != terminator.to_raw().ptr {
            originals.push(op);
        }
    }
    let Some(&first) = originals.first() else { return Ok(()) };
    for op in &originals {
        // Safety: a clone of a body op, inserted before the first body op; its operands (and those
        // of the ops in its regions) that name body values or streamed buffers are remapped.
        let copy = unsafe {
            let copy = mlir_sys::mlirOperationClone(op.to_raw());
            mlir_sys::mlirBlockInsertOwnedOperationBefore(body.to_raw(), first.to_raw(), copy);
            OperationRef::from_raw(copy)
        };
        remap(copy, &map);
        for (r, result) in op.results().enumerate() {
            map.insert(key(result.into()), copy.result(r).map_err(internal)?.into());
        }
    }

    // k1 = k + s; more = k1 < ub; scf.if more { original body at k1 }.
    let build = |name: &str, operands: &[Value<'c, '_>], attributes: &[(&str, Attribute<'c>)], results: &[Type<'c>]| {
        build_op(context, location, name, operands, attributes, results)
    };
    let add = body.insert_operation_before(first, build("arith.addi", &[iv, step], &[], &[index])?);
    let next_k: Value = add.result(0).map_err(internal)?.into();
    let i64_type = IntegerType::new(context, 64).into();
    let predicate = IntegerAttribute::new(i64_type, SLT).into();
    let cmp =
        build("arith.cmpi", &[next_k, upper], &[("predicate", predicate)], &[IntegerType::new(context, 1).into()])?;
    let cmp = body.insert_operation_before(first, cmp);
    let then_block = Block::new(&[]);
    then_block.append_operation(build("scf.yield", &[], &[], &[])?);
    let then_region = Region::new();
    then_region.append_block(then_block);
    let if_op = OperationBuilder::new("scf.if", location)
        .add_operands(&[cmp.result(0).map_err(internal)?.into()])
        .add_regions([then_region, Region::new()])
        .build()
        .map_err(internal)?;
    let if_op = body.insert_operation_before(first, if_op);
    let then_block =
        if_op.region(0).map_err(internal)?.first_block().ok_or_else(|| internal("scf.if without a block"))?;
    let yield_op = then_block.terminator().ok_or_else(|| internal("scf.if block without a yield"))?;
    for op in &originals {
        // Safety: moving a body op into the scf.if of the same body.
        unsafe { mlir_sys::mlirOperationMoveBefore(op.to_raw(), yield_op.to_raw()) };
    }
    let mut at_next_k = HashMap::new();
    at_next_k.insert(key(iv), next_k);
    remap(if_op, &at_next_k);

    // The doubled step: a constant, or `s + s` for a block count (no overflow: see `Step`).
    let block = for_op.block().ok_or_else(|| internal("scf.for outside a block"))?;
    let doubled = match doubled_constant {
        Some(doubled) => {
            let value = IntegerAttribute::new(index, doubled).into();
            build("arith.constant", &[], &[("value", value)], &[index])?
        }
        None => build("arith.addi", &[step, step], &[], &[index])?,
    };
    let doubled = block.insert_operation_before(for_op, doubled);
    // Safety: replacing the step operand of the loop with an index value defined before it.
    unsafe { mlir_sys::mlirOperationSetOperand(for_op.to_raw(), 2, doubled.result(0).map_err(internal)?.to_raw()) };
    Ok(())
}

/// A generic op (no regions) at `location`.
fn build_op<'c>(
    context: &'c melior::Context,
    location: melior::ir::Location<'c>,
    name: &str,
    operands: &[Value<'c, '_>],
    attributes: &[(&str, Attribute<'c>)],
    results: &[Type<'c>],
) -> Result<melior::ir::Operation<'c>, MultiBufferError> {
    let attributes: Vec<_> = attributes.iter().map(|(k, v)| (Identifier::new(context, k), *v)).collect();
    OperationBuilder::new(name, location)
        .add_operands(operands)
        .add_attributes(&attributes)
        .add_results(results)
        .build()
        .map_err(internal)
}

fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

/// Replaces every operand of `op` and of the ops nested in it that `map` names.
fn remap(op: OperationRef, map: &HashMap<usize, Value>) {
    let mut ops: Vec<MlirOperation> = Vec::new();
    op.walk(WalkOrder::PreOrder, |o| {
        ops.push(o.to_raw());
        WalkResult::Advance
    });
    for raw in ops {
        // Safety: every op of the walk is alive; operands are replaced by values that dominate
        // them (defined before the cloned or moved ops).
        unsafe {
            let n = mlir_sys::mlirOperationGetNumOperands(raw);
            for i in 0..n {
                let v = mlir_sys::mlirOperationGetOperand(raw, i);
                if let Some(new) = map.get(&(v.ptr as usize)) {
                    mlir_sys::mlirOperationSetOperand(raw, i, new.to_raw());
                }
            }
        }
    }
}
