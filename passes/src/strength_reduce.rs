//! `layout-strength-reduce`: an address that is affine in the induction variable of an
//! innermost `scf.for` becomes a loop-carried value advanced by one add per iteration.
//!
//! For every index operand `a` of a `memref.load` / `memref.store` in the body of an innermost
//! loop `for iv = lb to ub step st`, computed from `iv`, constants and values defined outside
//! the loop by `arith.addi` / `subi` / `muli` by a constant only, with `a = f(iv)` and
//! `f(iv + st) − f(iv) = s·st` for the constant `s` (the coefficient of `iv`): the loop gets an
//! `iter_args` value that starts at `f(lb)` (the same ops, cloned before the loop with `iv` →
//! `lb`) and is yielded as itself `+ s·st`; `a`'s uses read it. The arithmetic is `index`
//! (wrapping), where `f(lb + n·st) = f(lb) + n·s·st` is an identity, so the loaded and stored
//! addresses are the same values as before; the old ops are erased when dead. An address whose
//! `addi`/`subi` spine also adds parts that are not affine (`(j >> 4)·240` of a ZZ column) is
//! carried for its affine part, the other parts added in the loop, when that saves ops.
//! Run after `loop-invariant-code-motion`, which moves invariant products out of the body
//! (they are leaves here). docs/index-simplification.md §15.

use std::collections::HashMap;

use melior::{
    dialect::{arith, DialectHandle},
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        Location, OperationRef, RegionLike, Type, TypeLike, Value, ValueLike,
    },
    pass::{ExternalPass, Pass},
};
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};

use crate::external::{self, PassId};
use crate::ir::{constant_int, op_name};

pub const ARGUMENT: &str = "layout-strength-reduce";
pub const DESCRIPTION: &str =
    "Addresses affine in an innermost loop's induction variable become iter_args advanced by one add";

static PASS_ID: PassId = PassId::new();

pub fn create() -> Pass {
    external::create(&PASS_ID, run, "LayoutStrengthReduce", ARGUMENT, DESCRIPTION, &[DialectHandle::arith()])
}

fn run(root: OperationRef, _pass: ExternalPass) {
    strength_reduce(root);
}

/// Rewrites every innermost `scf.for` under `root`; returns the number of addresses carried.
pub fn strength_reduce(root: OperationRef) -> usize {
    let mut loops = Vec::new();
    root.walk(WalkOrder::PostOrder, |op| {
        if op_name(&op) == "scf.for" && is_innermost(&op) {
            loops.push(op.to_raw());
        }
        WalkResult::Advance
    });
    // Safety: the collected loops are alive; each rewrite replaces only its own loop.
    loops.into_iter().map(|raw| reduce(unsafe { OperationRef::from_raw(raw) })).sum()
}

fn is_innermost(op: &OperationRef) -> bool {
    let mut nested = false;
    let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) else { return false };
    let mut cur = body.first_operation();
    while let Some(o) = cur {
        o.walk(WalkOrder::PreOrder, |inner| {
            nested |= op_name(&inner) == "scf.for";
            WalkResult::Advance
        });
        cur = o.next_in_block();
    }
    !nested
}

fn same(a: MlirValue, b: MlirValue) -> bool {
    a.ptr == b.ptr
}

/// The op defining `v` if it is in `body` (directly), else `None`.
fn defined_in(v: MlirValue, body: MlirBlock) -> Option<MlirOperation> {
    // Safety: queries on valid values and ops.
    unsafe {
        if !mlir_sys::mlirValueIsAOpResult(v) {
            return None;
        }
        let op = mlir_sys::mlirOpResultGetOwner(v);
        (mlir_sys::mlirOperationGetBlock(op).ptr == body.ptr).then_some(op)
    }
}

/// `(name, lhs, rhs)` of a binary op.
fn binary(op: MlirOperation) -> Option<(String, MlirValue, MlirValue)> {
    // Safety: a valid op.
    let op = unsafe { OperationRef::from_raw(op) };
    if op.operand_count() != 2 {
        return None;
    }
    Some((op_name(&op), op.operand(0).ok()?.to_raw(), op.operand(1).ok()?.to_raw()))
}

fn constant(v: MlirValue) -> Option<i64> {
    // Safety: a valid value.
    constant_int(unsafe { Value::from_raw(v) })
}

/// The coefficient of `iv` in `v` when `v` is affine in `iv` over the ops the module doc
/// lists (`Some(0)`: invariant), `None` otherwise or on overflow.
fn coefficient(v: MlirValue, iv: MlirValue, body: MlirBlock, memo: &mut HashMap<usize, Option<i64>>) -> Option<i64> {
    if same(v, iv) {
        return Some(1);
    }
    let Some(op) = defined_in(v, body) else {
        // A constant, a value from outside the loop, or another block argument (an iter_arg).
        // Safety: a valid value.
        let outside = unsafe { !mlir_sys::mlirValueIsABlockArgument(v) }
            || unsafe { mlir_sys::mlirBlockArgumentGetOwner(v).ptr != body.ptr };
        return outside.then_some(0);
    };
    if constant(v).is_some() {
        return Some(0);
    }
    if let Some(c) = memo.get(&(v.ptr as usize)) {
        return *c;
    }
    let result = (|| {
        let (name, a, b) = binary(op)?;
        match name.as_str() {
            "arith.addi" => coefficient(a, iv, body, memo)?.checked_add(coefficient(b, iv, body, memo)?),
            "arith.subi" => coefficient(a, iv, body, memo)?.checked_sub(coefficient(b, iv, body, memo)?),
            "arith.muli" => match (constant(a), constant(b)) {
                (_, Some(k)) => coefficient(a, iv, body, memo)?.checked_mul(k),
                (Some(k), _) => coefficient(b, iv, body, memo)?.checked_mul(k),
                _ => None,
            },
            _ => None,
        }
    })();
    memo.insert(v.ptr as usize, result);
    result
}

/// A part of an address that is computed in the loop and is not affine in `iv` (a shift of it),
/// added (or, `negated`, subtracted) to the affine rest.
struct Term {
    value: MlirValue,
    negated: bool,
}

/// `v` as (affine part) + Σ ±terms over its `addi`/`subi` spine: returns the coefficient of
/// `iv` in the affine part and pushes the terms, with `negated` the sign `v` has in the root.
fn split(
    v: MlirValue,
    iv: MlirValue,
    body: MlirBlock,
    negated: bool,
    terms: &mut Vec<Term>,
    memo: &mut HashMap<usize, Option<i64>>,
) -> Option<i64> {
    if let Some(s) = coefficient(v, iv, body, memo) {
        return Some(s);
    }
    let op = defined_in(v, body)?;
    match binary(op) {
        Some((name, a, b)) if name == "arith.addi" => {
            split(a, iv, body, negated, terms, memo)?.checked_add(split(b, iv, body, negated, terms, memo)?)
        }
        Some((name, a, b)) if name == "arith.subi" => {
            split(a, iv, body, negated, terms, memo)?.checked_sub(split(b, iv, body, !negated, terms, memo)?)
        }
        _ => {
            terms.push(Term { value: v, negated });
            Some(0)
        }
    }
}

/// The ops of `v`'s tree in the loop body, the terms' subtrees not counted.
fn tree_ops(v: MlirValue, body: MlirBlock, terms: &[Term]) -> usize {
    if terms.iter().any(|t| same(t.value, v)) || constant(v).is_some() {
        return 0;
    }
    let Some(op) = defined_in(v, body) else { return 0 };
    // Safety: a valid op.
    let operands: Vec<MlirValue> = unsafe {
        (0..mlir_sys::mlirOperationGetNumOperands(op)).map(|k| mlir_sys::mlirOperationGetOperand(op, k)).collect()
    };
    1 + operands.into_iter().map(|o| tree_ops(o, body, terms)).sum::<usize>()
}

/// Clones the tree of `v` before `at` with `iv` replaced by `lb` (what `v` is in the first
/// iteration).
fn clone_at_start(
    v: MlirValue,
    (iv, lb): (MlirValue, MlirValue),
    body: MlirBlock,
    at: &OperationRef,
    memo: &mut HashMap<usize, MlirValue>,
) -> Option<MlirValue> {
    if same(v, iv) {
        return Some(lb);
    }
    let Some(op) = defined_in(v, body) else { return Some(v) };
    if let Some(c) = memo.get(&(v.ptr as usize)) {
        return Some(*c);
    }
    // Safety: a valid op; its operands' clones first, then its own clone, are inserted
    // (owned) before `at`, in the loop's block, so each dominates its uses.
    let new = unsafe {
        let mut starts = Vec::new();
        for k in 0..mlir_sys::mlirOperationGetNumOperands(op) {
            starts.push(clone_at_start(mlir_sys::mlirOperationGetOperand(op, k), (iv, lb), body, at, memo)?);
        }
        let copy = mlir_sys::mlirOperationClone(op);
        let block = mlir_sys::mlirOperationGetBlock(at.to_raw());
        mlir_sys::mlirBlockInsertOwnedOperationBefore(block, at.to_raw(), copy);
        for (k, start) in starts.into_iter().enumerate() {
            mlir_sys::mlirOperationSetOperand(copy, k as isize, start);
        }
        mlir_sys::mlirOperationGetResult(copy, 0)
    };
    memo.insert(v.ptr as usize, new);
    Some(new)
}

/// The addresses of `memref.load` / `memref.store` directly in `body`, each once.
fn addresses(body: MlirBlock) -> Vec<MlirValue> {
    let mut out: Vec<MlirValue> = Vec::new();
    // Safety: a valid block.
    let block = unsafe { melior::ir::BlockRef::from_raw(body) };
    let mut cur = block.first_operation();
    while let Some(op) = cur {
        let first = match op_name(&op).as_str() {
            "memref.load" => Some(1),
            "memref.store" => Some(2),
            _ => None,
        };
        if let Some(first) = first {
            for k in first..op.operand_count() {
                if let Ok(v) = op.operand(k) {
                    if !out.iter().any(|o| same(*o, v.to_raw())) {
                        out.push(v.to_raw());
                    }
                }
            }
        }
        cur = op.next_in_block();
    }
    out
}

fn index_constant<'c>(at: &OperationRef<'c, '_>, location: Location<'c>, k: i64) -> MlirValue {
    let context_ref = location.context();
    // Safety: `to_ref` points into `context_ref` (never a temporary: `source_rules`), which lives
    // to the end of the function; the context outlives the pass run.
    let context = unsafe { context_ref.to_ref() };
    let op = arith::constant(context, IntegerAttribute::new(Type::index(context), k).into(), location);
    insert_before(at, op)
}

fn insert_before(at: &OperationRef, op: melior::ir::Operation) -> MlirValue {
    // Safety: `at` is in a block; the op is owned and inserted once.
    unsafe {
        let raw = op.into_raw();
        mlir_sys::mlirBlockInsertOwnedOperationBefore(mlir_sys::mlirOperationGetBlock(at.to_raw()), at.to_raw(), raw);
        mlir_sys::mlirOperationGetResult(raw, 0)
    }
}

/// Rewrites one innermost loop; returns the number of addresses it now carries.
fn reduce(for_op: OperationRef) -> usize {
    let Some(body) = for_op.region(0).ok().and_then(|r| r.first_block()) else { return 0 };
    let (Ok(iv), Ok(lb), Ok(step)) = (body.argument(0), for_op.operand(0), for_op.operand(2)) else { return 0 };
    let (iv, lb, step, body_raw) = (iv.to_raw(), lb.to_raw(), step.to_raw(), body.to_raw());
    let mut memo = HashMap::new();
    let mut carried: Vec<(MlirValue, i64)> = Vec::new();
    let mut rest: Vec<Vec<Term>> = Vec::new();
    for a in addresses(body_raw) {
        if same(a, iv) || defined_in(a, body_raw).is_none() {
            continue;
        }
        let mut terms = Vec::new();
        let Some(s) = split(a, iv, body_raw, false, &mut terms, &mut memo).filter(|s| *s != 0) else { continue };
        // With terms left in the loop, carry only when that saves ops: the body then spends one
        // add per term plus the increment.
        if !terms.is_empty() && terms.len() + 1 >= tree_ops(a, body_raw, &terms) {
            continue;
        }
        carried.push((a, s));
        rest.push(terms);
    }
    if carried.is_empty() {
        return 0;
    }
    let location = for_op.location();
    let context_ref = location.context();
    // Safety: `to_ref` points into `context_ref` (never a temporary: `source_rules`), which lives
    // to the end of the function; the context outlives the pass run.
    let context = unsafe { context_ref.to_ref() };
    let index = Type::index(context);
    // Initial values and increments, before the loop.
    let mut inits = Vec::new();
    let mut increments = Vec::new();
    for ((a, s), terms) in carried.iter().zip(&rest) {
        // The affine part's start: the tree at `lb` with the terms left in the loop as 0.
        let mut clones = HashMap::new();
        if !terms.is_empty() {
            let zero = index_constant(&for_op, location, 0);
            for t in terms {
                clones.insert(t.value.ptr as usize, zero);
            }
        }
        let Some(init) = clone_at_start(*a, (iv, lb), body_raw, &for_op, &mut clones) else { return 0 };
        let increment = match constant(step).and_then(|st| st.checked_mul(*s)) {
            Some(k) => index_constant(&for_op, location, k),
            None => {
                let k = index_constant(&for_op, location, *s);
                // Safety: valid values.
                let (st, k) = unsafe { (Value::from_raw(step), Value::from_raw(k)) };
                insert_before(&for_op, arith::muli(st, k, location))
            }
        };
        inits.push(init);
        increments.push(increment);
    }
    // The new loop: the old operands and results, then one index value per address.
    let old_results = for_op.result_count();
    // Safety: valid ops, values, regions and blocks throughout; the old loop is erased last,
    // after its body was moved and its results replaced.
    unsafe {
        let operands: Vec<Value> = for_op.operands().chain(inits.iter().map(|v| Value::from_raw(*v))).collect();
        let mut types: Vec<Type> = (0..old_results).filter_map(|k| for_op.result(k).ok().map(|r| r.r#type())).collect();
        types.extend(std::iter::repeat_n(index, carried.len()));
        let Ok(new_for) = OperationBuilder::new("scf.for", location)
            .add_operands(&operands)
            .add_results(&types)
            .add_regions([melior::ir::Region::new()])
            .build()
        else {
            return 0;
        };
        // (It has results: at least one per carried address.)
        let new_op = mlir_sys::mlirOpResultGetOwner(insert_before(&for_op, new_for));
        let (old_region, new_region) =
            (for_op.region(0).map(|r| r.to_raw()), mlir_sys::mlirOperationGetRegion(new_op, 0));
        let Ok(old_region) = old_region else { return 0 };
        mlir_sys::mlirRegionTakeBody(new_region, old_region);
        let yield_op = mlir_sys::mlirBlockGetTerminator(body_raw);
        let mut yields: Vec<MlirValue> = (0..mlir_sys::mlirOperationGetNumOperands(yield_op))
            .map(|k| mlir_sys::mlirOperationGetOperand(yield_op, k))
            .collect();
        let yield_ref = OperationRef::from_raw(yield_op);
        for (((a, _), increment), terms) in carried.iter().zip(&increments).zip(&rest) {
            let arg = mlir_sys::mlirBlockAddArgument(body_raw, index.to_raw(), location.to_raw());
            // The address: the carried affine part plus the terms, just before its old definition.
            let at = OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(*a));
            let mut address = arg;
            for t in terms {
                let (x, y) = (Value::from_raw(address), Value::from_raw(t.value));
                address = insert_before(
                    &at,
                    if t.negated { arith::subi(x, y, location) } else { arith::addi(x, y, location) },
                );
            }
            mlir_sys::mlirValueReplaceAllUsesOfWith(*a, address);
            let next = arith::addi(Value::from_raw(arg), Value::from_raw(*increment), location);
            yields.push(insert_before(&yield_ref, next));
        }
        mlir_sys::mlirOperationSetOperands(yield_op, yields.len() as isize, yields.as_ptr());
        for k in 0..old_results {
            let old = mlir_sys::mlirOperationGetResult(for_op.to_raw(), k as isize);
            mlir_sys::mlirValueReplaceAllUsesOfWith(old, mlir_sys::mlirOperationGetResult(new_op, k as isize));
        }
        mlir_sys::mlirOperationDestroy(for_op.to_raw());
        erase_dead_arith(body_raw);
    }
    carried.len()
}

/// Erases the `arith` ops of `block` whose results are unused (the old address trees), to a
/// fixpoint, so the loop shows what it computes without a `canonicalize`.
fn erase_dead_arith(block: MlirBlock) {
    loop {
        let mut dead = Vec::new();
        // Safety: a valid block and its ops.
        unsafe {
            let mut op = mlir_sys::mlirBlockGetFirstOperation(block);
            while !op.ptr.is_null() {
                let name = op_name(&OperationRef::from_raw(op));
                let results = mlir_sys::mlirOperationGetNumResults(op);
                let unused = (0..results).all(|k| {
                    mlir_sys::mlirOpOperandIsNull(mlir_sys::mlirValueGetFirstUse(mlir_sys::mlirOperationGetResult(
                        op, k,
                    )))
                });
                if name.starts_with("arith.") && results > 0 && unused {
                    dead.push(op);
                }
                op = mlir_sys::mlirOperationGetNextInBlock(op);
            }
            if dead.is_empty() {
                return;
            }
            dead.into_iter().for_each(|op| mlir_sys::mlirOperationDestroy(op));
        }
    }
}
