//! Contract checks of views and tiles: no out-of-contract dynamic value becomes an address
//! (the checks per op: docs/layout-spec.md §D.5.3).
//!
//! What the lowering cannot prove statically it checks at run time, once per view, tile or
//! dynamic alloc, never inside a copy loop; violations visible statically are located
//! compile-time errors. A tensor's flag ([`super::Tensor::valid`]) is the conjunction of its
//! checks and its parent's; every copy and matmul runs under `scf.if` of its operands' flags
//! ([`guarded`]). A failing check calls [`HOOK`] (provided by `layout_runtime::Jit`) with a
//! `file:line:col: error: ...` message.

use std::collections::BTreeSet;

use layout_algebra::{ascend::ElementType, IndexValue, SymExpr};
use layout_dialect::{ops::LayoutOpKind, MemorySpace};
use melior::{
    dialect::{arith, func, memref},
    ir::{
        attribute::{FlatSymbolRefAttribute, StringAttribute, TypeAttribute},
        operation::{OperationBuilder, OperationLike},
        r#type::{FunctionType, IntegerType, MemRefType, TypeLike},
        Attribute, Identifier, Location, OperationRef, Region, Type, ValueLike,
    },
};
use mlir_sys::MlirValue;

use super::{build, Lowerer, Tensor};
use crate::error::LoweringError;

/// The runtime hook a failing check calls: `(message pointer, message length, a, b)`, all
/// `index` (`i64` in the C ABI).
pub const HOOK: &str = "__layout_guard_failed";

/// A dynamic operand of `layout.view`: its position, SSA value, and whether it binds a size.
pub(super) struct ViewOperand {
    pub position: usize,
    pub value: MlirValue,
    pub size: bool,
}

/// `file:line:col` of a file location (the raw location text otherwise).
pub(crate) fn position(location: Location) -> String {
    let text = location.to_string();
    let inner = text.strip_prefix("loc(").and_then(|t| t.strip_suffix(')')).unwrap_or(&text);
    match inner.strip_prefix('"').and_then(|t| t.split_once('"')) {
        Some((file, rest)) if rest.starts_with(':') => format!("{file}{rest}"),
        _ => text,
    }
}

/// How messages name the memref of a view: `argument #k (memref<...>)` for an argument of the
/// enclosing function.
pub(super) fn memref_name(value: MlirValue) -> String {
    let ty = build::val(value).r#type().to_string();
    // Safety: queries on a valid value and its owner block.
    unsafe {
        if mlir_sys::mlirValueIsABlockArgument(value) {
            let owner = mlir_sys::mlirBlockGetParentOperation(mlir_sys::mlirBlockArgumentGetOwner(value));
            if !owner.ptr.is_null() && crate::ir::op_name(&OperationRef::from_raw(owner)) == "func.func" {
                return format!("argument #{} ({ty})", mlir_sys::mlirBlockArgumentGetArgNumber(value));
            }
        }
    }
    format!("the memref {ty}")
}

/// Whether the `i1` value `flag`, emitted earlier in program order, dominates `point`: its
/// block is the point's block or encloses it.
fn dominates(flag: MlirValue, point: build::Point) -> bool {
    // Safety: queries on valid values, ops and blocks.
    unsafe {
        let defining = mlir_sys::mlirOpResultGetOwner(flag);
        let home = mlir_sys::mlirOperationGetBlock(defining);
        let mut block = point.block();
        while !block.ptr.is_null() {
            if block.ptr == home.ptr {
                return true;
            }
            let parent = mlir_sys::mlirBlockGetParentOperation(block);
            if parent.ptr.is_null() {
                return false;
            }
            block = mlir_sys::mlirOperationGetBlock(parent);
        }
        false
    }
}

/// The element count of a rank-1 memref of static size.
fn static_elements(buffer: MlirValue) -> Option<i64> {
    let ty = build::val(buffer).r#type().to_raw();
    // Safety: type queries on a valid shaped type.
    unsafe {
        (mlir_sys::mlirShapedTypeGetRank(ty) == 1 && !mlir_sys::mlirShapedTypeIsDynamicDim(ty, 0))
            .then(|| mlir_sys::mlirShapedTypeGetDimSize(ty, 0))
    }
}

/// The largest `limit` (a power of two minus one) such that `exprs` cannot overflow when every
/// size symbol is in `[0, limit]` and every other symbol in `[-limit, limit]`.
fn overflow_free_limit(exprs: &[&SymExpr], is_size: &dyn Fn(&str) -> bool) -> Option<i64> {
    (0..63).map(|k| i64::MAX >> k).find(|&limit| {
        let range = |s: &str| Some(if is_size(s) { (0, limit) } else { (-limit, limit) });
        exprs.iter().all(|e| e.bounds(&range).is_ok())
    })
}

/// Emits the checks of a `layout.view` whose layout (symbols bound) is `tensor.layout` over
/// the flat `tensor.buffer`; returns its flag (None: nothing to check).
pub(super) fn view(
    l: &mut Lowerer,
    op: &OperationRef,
    tensor: &Tensor,
    source: MlirValue,
    operands: &[ViewOperand],
) -> Result<Option<MlirValue>, LoweringError> {
    let location = op.location();
    let point = build::Point::before(op);
    let ty = op.result(0).map(|r| r.r#type().to_string()).map_err(|e| LoweringError::IrShape(e.to_string()))?;
    let what = format!("{}: error: layout.view of {} as {ty}", position(location), memref_name(source));
    let (first, end) =
        tensor.layout.offset_span().map_err(LoweringError::algebra_in(format!("layout.view: the extent of {ty}")))?;
    let static_size = static_elements(tensor.buffer);
    if let (Some(f), Some(e), Some(n)) = (first.as_constant(), end.as_constant(), static_size) {
        // A static span over a memref of static size is checked now.
        if f < 0 || e > n {
            return Err(LoweringError::Contract(format!(
                "layout.view of {} as {ty}: the layout reaches offsets [{f}, {e}), the memref has {n} elements",
                memref_name(source)
            )));
        }
        return Ok(None);
    }
    let zero = build::index_constant(l.context, location, point, 0)?;
    let given = match static_size {
        Some(n) => build::index_constant(l.context, location, point, n)?,
        None => point.value(memref::dim(build::val(tensor.buffer), build::val(zero), location))?,
    };
    let mut flags = Vec::new();

    flags.extend(sizes_nonnegative(l, location, point, &what, operands)?);
    let in_range =
        symbols_in_range(l, location, point, &what, &[&first, &end], "the extent of the layout").map_err(|e| {
            e.unwrap_or_else(|| {
                let message = format!("cannot bound the extent of {ty} ({first} .. {end}) for a run-time check");
                LoweringError::Unsupported(message).in_op("layout.view")
            })
        })?;
    flags.extend(in_range);

    let bounds = l.emit(location, point, &[first.clone(), end.clone()])?;
    let mut checks = vec![(arith::CmpiPredicate::Sgt, bounds[1], given, "needs {a} elements, the memref has {b}")];
    if first.as_constant().is_none_or(|f| f < 0) {
        checks.push((arith::CmpiPredicate::Slt, bounds[0], zero, "reaches offset {a}, before the start of the memref"));
    }
    for (predicate, a, b, text) in checks {
        let mut bad = compare(l, location, point, predicate, a, b)?;
        if let Some(in_range) = in_range {
            // Out of range, the values are meaningless (and already reported).
            bad = point.value(arith::andi(build::val(bad), build::val(in_range), location))?;
        }
        fail_if(l, location, point, bad, &format!("{what}: {text}"), a, b)?;
        flags.push(not(l, location, point, bad)?);
    }
    conjunction(location, point, &flags)
}

/// The capacity in bytes of `space` on the module's target and how messages name it
/// (`L1 on a2`), from the one per-target table (`lower_to_ascendc::placement::capacity`).
/// None: a memory the table has no entry for (gm, ub, the MX scale buffers).
fn capacity_of(l: &Lowerer, space: MemorySpace) -> Option<(i64, String)> {
    let target = l.target?;
    let bytes = space.capacity(target)?;
    let name = ascendc_params::Buffer::of_space(space).map_or_else(|| space.name().to_uppercase(), |b| b.name().into());
    Some((bytes, format!("{name} on {}", target.name())))
}

/// The bytes of `elements` elements of `elem`: `elements · storage_bytes(1)`, exact for the
/// whole-byte element types, the only ones the CPU lowering supports ([`super::element_types`]).
pub(super) fn footprint(elements: &SymExpr, elem: ElementType) -> Result<SymExpr, LoweringError> {
    let per_element = elem.storage_bytes(1)?;
    elements
        .mul(&SymExpr::Const(per_element))
        .map_err(LoweringError::algebra_in(format!("the footprint of {elements} elements")))
}

/// Checks a static `layout.alloc` of `ty` (`bytes` bytes in `space`) now: over the capacity
/// of its memory on the target it is an error.
pub(super) fn static_alloc(l: &Lowerer, ty: &str, space: MemorySpace, bytes: i64) -> Result<(), LoweringError> {
    match capacity_of(l, space) {
        Some((capacity, memory)) if bytes > capacity => Err(LoweringError::Contract(format!(
            "layout.alloc of {ty}: needs {bytes} bytes, {memory} holds {capacity} bytes"
        ))),
        _ => Ok(()),
    }
}

/// Emits the checks of a dynamic `layout.alloc` (result type `ty`, `bytes` bytes in `space`,
/// size symbols bound by `operands`), before its alloca: every size operand `≥ 0`, every
/// symbol within the overflow-free limit of `bytes`, and `bytes ≤` the capacity of the memory
/// on the target. Returns the flag (None: nothing to check). Why: the alloca's size comes
/// from these values, and a huge one is a stack overflow, a wrapped one a small buffer.
pub(super) fn alloc(
    l: &mut Lowerer,
    op: &OperationRef,
    ty: &str,
    space: MemorySpace,
    bytes: &SymExpr,
    operands: &[ViewOperand],
) -> Result<Option<MlirValue>, LoweringError> {
    let location = op.location();
    let point = build::Point::before(op);
    let Some((capacity, memory)) = capacity_of(l, space) else {
        return Err(LoweringError::Contract(format!(
            "layout.alloc of {ty}: a dynamic size in {} cannot be checked: the target table has no capacity for it",
            space.name()
        )));
    };
    if let Some(n) = bytes.as_constant() {
        return static_alloc(l, ty, space, n).map(|()| None);
    }
    let what = format!("{}: error: layout.alloc of {ty}", position(location));
    let mut flags = sizes_nonnegative(l, location, point, &what, operands)?;
    let in_range = symbols_in_range(l, location, point, &what, &[bytes], "its footprint in bytes").map_err(|e| {
        e.unwrap_or_else(|| {
            let message = format!("cannot bound the footprint of {ty} ({bytes} bytes) for a run-time check");
            LoweringError::Unsupported(message).in_op("layout.alloc")
        })
    })?;
    let needed = l.emit(location, point, std::slice::from_ref(bytes))?[0];
    let held = build::index_constant(l.context, location, point, capacity)?;
    let mut bad = compare(l, location, point, arith::CmpiPredicate::Sgt, needed, held)?;
    if let Some(in_range) = in_range {
        // Out of range, the byte count is meaningless (and already reported).
        bad = point.value(arith::andi(build::val(bad), build::val(in_range), location))?;
        flags.push(in_range);
    }
    let message = format!("{what}: needs {{a}} bytes, {memory} holds {{b}} bytes");
    fail_if(l, location, point, bad, &message, needed, held)?;
    flags.push(not(l, location, point, bad)?);
    conjunction(location, point, &flags)
}

/// Checks every dynamic size operand of a view or alloc: `≥ 0` (the raw operand: the clamp
/// would hide a negative one). Returns the flags (one per operand, reused where they dominate).
fn sizes_nonnegative(
    l: &mut Lowerer,
    location: Location,
    point: build::Point,
    what: &str,
    operands: &[ViewOperand],
) -> Result<Vec<MlirValue>, LoweringError> {
    let mut flags = Vec::new();
    for operand in operands.iter().filter(|o| o.size && crate::ir::constant_int(build::val(o.value)).is_none()) {
        let key = format!("size {:?}", operand.value.ptr);
        if let Some(ok) = l.checked.get(&key).copied().filter(|ok| dominates(*ok, point)) {
            flags.push(ok);
            continue;
        }
        let zero = build::index_constant(l.context, location, point, 0)?;
        let bad = compare(l, location, point, arith::CmpiPredicate::Slt, operand.value, zero)?;
        let message = format!("{what}: dynamic size operand #{} is {{a}}; sizes must be >= 0", operand.position);
        fail_if(l, location, point, bad, &message, operand.value, zero)?;
        let ok = not(l, location, point, bad)?;
        l.checked.insert(key, ok);
        flags.push(ok);
    }
    Ok(flags)
}

/// Checks every symbol of `exprs` against the [`overflow_free_limit`] of `exprs` (sizes in
/// `[0, limit]`, other values in `±limit`), so the wrapping `index` arithmetic that computes
/// them is exact; `quantity` names them in the message. Returns the conjunction of the flags;
/// `Err(None)` when no limit bounds them.
fn symbols_in_range(
    l: &mut Lowerer,
    location: Location,
    point: build::Point,
    what: &str,
    exprs: &[&SymExpr],
    quantity: &str,
) -> Result<Option<MlirValue>, Option<LoweringError>> {
    let symbols: BTreeSet<String> = exprs.iter().flat_map(|e| e.symbols()).collect();
    let clamped = l.clamped.clone();
    let is_size = |s: &str| clamped.contains(s);
    let limit = overflow_free_limit(exprs, &is_size).ok_or(None)?;
    let mut in_range = Vec::new();
    for symbol in &symbols {
        // A symbol shared by several views is checked once against the smallest limit so far.
        let key = format!("range {symbol} {limit}");
        if let Some(ok) = l.checked.get(&key).copied().filter(|ok| dominates(*ok, point)) {
            in_range.push(ok);
            continue;
        }
        let limit_value = build::index_constant(l.context, location, point, limit)?;
        let value = l.emit(location, point, &[SymExpr::sym(symbol)])?[0];
        let mut bad = compare(l, location, point, arith::CmpiPredicate::Sgt, value, limit_value)?;
        if !is_size(symbol) {
            let low = build::index_constant(l.context, location, point, -limit)?;
            let below = compare(l, location, point, arith::CmpiPredicate::Slt, value, low)?;
            bad = point.value(arith::ori(build::val(bad), build::val(below), location))?;
        }
        let (kind, low) = if is_size(symbol) { ("size", "0") } else { ("value", "-{b}") };
        let message =
            format!("{what}: the dynamic {kind} {{a}} is outside [{low}, {{b}}], where {quantity} fits in i64");
        fail_if(l, location, point, bad, &message, value, limit_value)?;
        let ok = not(l, location, point, bad)?;
        // A check against `limit` also proves every larger limit.
        for k in 0..63 {
            if (i64::MAX >> k) >= limit {
                l.checked.entry(format!("range {symbol} {}", i64::MAX >> k)).or_insert(ok);
            }
        }
        in_range.push(ok);
    }
    Ok(conjunction(location, point, &in_range)?)
}

/// Runs the rest of `op`'s block only where `valid` holds: the ops after `op` move into
/// `scf.if %valid` (when the block's terminator takes no operands, so nothing after `op` is
/// used outside it). Why: a failed view check must stop the kernel's own loops too — a loop up
/// to a huge size (`M = 2^63 - 1`) would otherwise run on, its accesses all skipped.
pub(super) fn skip_rest_unless(location: Location, op: &OperationRef, valid: MlirValue) {
    // Safety: queries and moves of valid ops in one block; the moved ops stay in the function.
    unsafe {
        let block = mlir_sys::mlirOperationGetBlock(op.to_raw());
        let terminator = mlir_sys::mlirBlockGetTerminator(block);
        let next = mlir_sys::mlirOperationGetNextInBlock(op.to_raw());
        if terminator.ptr.is_null()
            || mlir_sys::mlirOperationGetNumOperands(terminator) != 0
            || next.ptr == terminator.ptr
            || next.ptr.is_null()
        {
            return;
        }
        let mut rest = Vec::new();
        let mut current = next;
        while current.ptr != terminator.ptr {
            // Static allocs stay where they are: in the entry block they become static LLVM
            // allocas (nested, they would be dynamic ones, which LLVM optimizes far less).
            let static_alloc = LayoutOpKind::from_name(&crate::ir::op_name(&OperationRef::from_raw(current)))
                == Some(LayoutOpKind::Alloc)
                && mlir_sys::mlirOperationGetNumOperands(current) == 0;
            let following = mlir_sys::mlirOperationGetNextInBlock(current);
            if !static_alloc {
                rest.push(current);
            } else if let Some(&first) = rest.first() {
                // Before the ops that move (and so before the `scf.if`): it has no operands.
                mlir_sys::mlirOperationMoveBefore(current, first);
            }
            current = following;
        }
        let Some(&next) = rest.first() else { return };
        let then = build::if_then(location, build::Point::before(&OperationRef::from_raw(next)), valid);
        let anchor = mlir_sys::mlirBlockGetTerminator(then.block());
        for moved in rest {
            mlir_sys::mlirOperationMoveBefore(moved, anchor);
        }
    }
}

/// Emits the checks of a `layout.tile` of `parent` at `coords` (relative to the parent's
/// corner); returns the tile's flag (its checks and the parent's).
pub(super) fn tile(
    l: &mut Lowerer,
    op: &OperationRef,
    parent: &Tensor,
    coords: &[SymExpr],
) -> Result<Option<MlirValue>, LoweringError> {
    let location = op.location();
    let point = build::Point::before(op);
    let extents = parent.extents();
    let mut flags: Vec<MlirValue> = parent.valid.into_iter().collect();
    for (k, (c, e)) in coords.iter().zip(&extents).enumerate() {
        let outside = |c: i64, e: &str| {
            let message = format!("coordinate #{k} is {c}, outside [0, {e}] (a tile must start inside its parent)");
            LoweringError::Contract(message).in_op("layout.tile")
        };
        match (c.as_constant(), e.as_constant()) {
            (Some(c), Some(e)) if c < 0 || c > e => return Err(outside(c, &e.to_string())),
            (Some(c), _) if c < 0 => return Err(outside(c, &e.to_string())),
            // 0 <= e: every extent is a size (clamped, or clipped by a checked parent tile).
            (Some(_), Some(_)) | (Some(0), None) => continue,
            _ if loop_proves_inside(l, c, e) => continue,
            _ => {}
        }
        let values = l.emit(location, point, &[c.clone(), e.clone()])?;
        let zero = build::index_constant(l.context, location, point, 0)?;
        let below = compare(l, location, point, arith::CmpiPredicate::Slt, values[0], zero)?;
        let above = compare(l, location, point, arith::CmpiPredicate::Sgt, values[0], values[1])?;
        let bad = point.value(arith::ori(build::val(below), build::val(above), location))?;
        let message = format!(
            "{}: error: layout.tile: coordinate #{k} is {{a}}, outside [0, {{b}}] (the parent's extent; a tile may hang past the parent's origin, but it must start inside it)",
            position(location)
        );
        fail_if(l, location, point, bad, &message, values[0], values[1])?;
        flags.push(not(l, location, point, bad)?);
    }
    conjunction(location, point, &flags)
}

/// Whether `coord` is the induction variable of an `scf.for %c = lb to ub step s` whose bounds
/// prove `0 <= c <= extent`: constant `lb >= 0`, constant `s > 0`, and `ub` either a constant
/// `<= extent + 1` or the value `extent` is bound from (a size `e` is `max(ub, 0) >= ub > c`).
/// Why: the tiles of a tiled kernel are at loop variables like these (`m0 = 0 to M step 128`);
/// proving them here keeps their checks — a branch and a call per tile in the loop — out of
/// the hot loops.
fn loop_proves_inside(l: &mut Lowerer, coord: &SymExpr, extent: &SymExpr) -> bool {
    let SymExpr::Sym(name) = coord else { return false };
    let Some(&value) = l.env.get(name.as_ref()) else { return false };
    // Safety: queries on a valid value, its owner block and op.
    let (lb, ub, step) = unsafe {
        if !mlir_sys::mlirValueIsABlockArgument(value) || mlir_sys::mlirBlockArgumentGetArgNumber(value) != 0 {
            return false;
        }
        let owner = mlir_sys::mlirBlockGetParentOperation(mlir_sys::mlirBlockArgumentGetOwner(value));
        if owner.ptr.is_null() {
            return false;
        }
        let owner_ref = OperationRef::from_raw(owner);
        if crate::ir::op_name(&owner_ref) != "scf.for" || owner_ref.has_attribute("unsignedCmp") {
            return false;
        }
        (
            mlir_sys::mlirOperationGetOperand(owner, 0),
            mlir_sys::mlirOperationGetOperand(owner, 1),
            mlir_sys::mlirOperationGetOperand(owner, 2),
        )
    };
    let constant = |v: MlirValue| crate::ir::constant_int(build::val(v));
    if constant(lb).is_none_or(|v| v < 0) || constant(step).is_none_or(|v| v <= 0) {
        return false;
    }
    match (constant(ub), extent.as_constant()) {
        (Some(u), Some(e)) => u <= e.saturating_add(1),
        _ => l.symbol_of(ub) == *extent,
    }
}

/// The point where an op's memory accesses go: inside `scf.if` of the flags of `tensors`
/// (`point` itself when none has one).
pub(super) fn guarded(
    location: Location,
    point: build::Point,
    tensors: &[&Tensor],
) -> Result<build::Point, LoweringError> {
    let mut flags: Vec<MlirValue> = Vec::new();
    for flag in tensors.iter().filter_map(|t| t.valid) {
        if !flags.iter().any(|f| f.ptr == flag.ptr) {
            flags.push(flag);
        }
    }
    Ok(match conjunction(location, point, &flags)? {
        Some(all) => build::if_then(location, point, all),
        None => point,
    })
}

fn compare(
    l: &Lowerer,
    location: Location,
    point: build::Point,
    predicate: arith::CmpiPredicate,
    a: MlirValue,
    b: MlirValue,
) -> Result<MlirValue, LoweringError> {
    point.value(arith::cmpi(l.context, predicate, build::val(a), build::val(b), location))
}

fn not(l: &Lowerer, location: Location, point: build::Point, flag: MlirValue) -> Result<MlirValue, LoweringError> {
    let one = build::constant_text(l.context, location, point, "true")?;
    point.value(arith::xori(build::val(flag), build::val(one), location))
}

/// `f0 && f1 && ...` (None for no flags).
fn conjunction(
    location: Location,
    point: build::Point,
    flags: &[MlirValue],
) -> Result<Option<MlirValue>, LoweringError> {
    let Some((first, rest)) = flags.split_first() else { return Ok(None) };
    let mut all = *first;
    for flag in rest {
        all = point.value(arith::andi(build::val(all), build::val(*flag), location))?;
    }
    Ok(Some(all))
}

/// `scf.if %bad { call @__layout_guard_failed(message, a, b) }` at `point`.
pub(super) fn fail_if(
    l: &mut Lowerer,
    location: Location,
    point: build::Point,
    bad: MlirValue,
    message: &str,
    a: MlirValue,
    b: MlirValue,
) -> Result<(), LoweringError> {
    let module_point = before_function(point)?;
    declare_hook(l, location, module_point)?;
    let then = build::if_then(location, point, bad);
    let (pointer, length) = message_global(l, location, then, message)?;
    let arguments = [pointer, length, a, b].map(build::val);
    then.insert(func::call(l.context, FlatSymbolRefAttribute::new(l.context, HOOK), &arguments, &[], location));
    Ok(())
}

/// A constant global holding `message` (module level) and, at `point`, its address and length
/// as index values: what the runtime hooks take to name the op.
pub(super) fn message_global(
    l: &mut Lowerer,
    location: Location,
    point: build::Point,
    message: &str,
) -> Result<(MlirValue, MlirValue), LoweringError> {
    let module_point = before_function(point)?;
    let bytes = message.as_bytes();
    let name = format!("__layout_guard_message_{}", l.fresh());
    let i8_type: Type = IntegerType::new(l.context, 8).into();
    let message_type = MemRefType::new(i8_type, &[bytes.len() as i64], None, None);
    // `dense<[...]> : tensor<Nxi8>` built from the bytes (the same uniqued attribute the
    // textual form parses to, without printing and parsing every byte).
    let values: Vec<i8> = bytes.iter().map(|b| *b as i8).collect();
    let shape = [bytes.len() as i64];
    // Safety: a valid context and element type; `shape` and `values` outlive the calls.
    let initial = unsafe {
        let no_encoding = mlir_sys::mlirAttributeGetNull();
        let tensor = mlir_sys::mlirRankedTensorTypeGet(1, shape.as_ptr(), i8_type.to_raw(), no_encoding);
        Attribute::from_raw(mlir_sys::mlirDenseElementsAttrInt8Get(tensor, values.len() as isize, values.as_ptr()))
    };
    module_point.insert(memref::global(
        l.context,
        &name,
        Some("private"),
        message_type,
        Some(initial),
        true,
        None,
        location,
    ));
    let then = point;
    let global = then.value(memref::get_global(l.context, &name, message_type, location))?;
    let pointer = then.value(
        OperationBuilder::new("memref.extract_aligned_pointer_as_index", location)
            .add_operands(&[build::val(global)])
            .add_results(&[Type::index(l.context)])
            .build()
            .map_err(|e| LoweringError::Internal(format!("{e}")))?,
    )?;
    let length = build::index_constant(l.context, location, then, bytes.len() as i64)?;
    Ok((pointer, length))
}

/// The point before the `func.func` around `point` (in the module body).
pub(super) fn before_function(point: build::Point) -> Result<build::Point, LoweringError> {
    let mut block = point.block();
    loop {
        // Safety: walks up valid blocks and ops.
        let op = unsafe { mlir_sys::mlirBlockGetParentOperation(block) };
        if op.ptr.is_null() {
            return Err(LoweringError::Internal("a checked op outside a function".into()));
        }
        // Safety: a valid op.
        let op = unsafe { OperationRef::from_raw(op) };
        if crate::ir::op_name(&op) == "func.func" {
            return Ok(build::Point::before(&op));
        }
        // Safety: a valid op.
        block = unsafe { mlir_sys::mlirOperationGetBlock(op.to_raw()) };
        if block.ptr.is_null() {
            return Err(LoweringError::Internal("a checked op outside a function".into()));
        }
    }
}

/// Declares `func.func private @__layout_guard_failed(index, index, index, index)` once.
fn declare_hook(l: &mut Lowerer, location: Location, module_point: build::Point) -> Result<(), LoweringError> {
    if l.hook_declared || defines_symbol(module_point, HOOK) {
        l.hook_declared = true;
        return Ok(());
    }
    let index = Type::index(l.context);
    let ty = FunctionType::new(l.context, &[index; 4], &[]);
    let visibility = (Identifier::new(l.context, "sym_visibility"), StringAttribute::new(l.context, "private").into());
    module_point.insert(func::func(
        l.context,
        StringAttribute::new(l.context, HOOK),
        TypeAttribute::new(ty.into()),
        Region::new(),
        &[visibility],
        location,
    ));
    l.hook_declared = true;
    Ok(())
}

/// Whether the block of `point` has a top-level op with `sym_name = name`.
pub(super) fn defines_symbol(point: build::Point, name: &str) -> bool {
    // Safety: iterates the ops of a valid block.
    let mut op = unsafe { mlir_sys::mlirBlockGetFirstOperation(point.block()) };
    while !op.ptr.is_null() {
        // Safety: a valid op.
        let op_ref = unsafe { OperationRef::from_raw(op) };
        let found = op_ref
            .attribute("sym_name")
            .ok()
            .and_then(|a| StringAttribute::try_from(a).ok())
            .is_some_and(|s| s.value() == name);
        if found {
            return true;
        }
        // Safety: as above.
        op = unsafe { mlir_sys::mlirOperationGetNextInBlock(op) };
    }
    false
}
