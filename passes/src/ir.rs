//! Small IR queries shared by the passes (things melior does not wrap).

use layout_dialect::TensorType;
use melior::ir::{operation::OperationLike, AttributeLike, Location, OperationRef, Type, TypeLike, Value, ValueLike};

/// The op's name (`layout.tile`), or "" if it is not UTF-8.
pub fn op_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> String {
    op.name().as_string_ref().as_str().map(str::to_string).unwrap_or_default()
}

/// The `!layout.tensor` type of a value, as text parameters.
pub fn tensor_of(value: Value) -> Option<TensorType> {
    TensorType::from_type(value.r#type())
}

/// The op that defines `value`, if it is an op result (not a block argument).
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    // Safety: the value is valid; an op result's owner is a valid operation.
    unsafe {
        if mlir_sys::mlirValueIsAOpResult(value.to_raw()) {
            Some(OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw())))
        } else {
            None
        }
    }
}

/// The value of an integer `arith.constant` (index or any integer type).
pub fn constant_int(value: Value) -> Option<i64> {
    let op = defining_op(value)?;
    if op_name(&op) != "arith.constant" {
        return None;
    }
    let attr = op.attribute("value").ok()?;
    // Safety: valid attribute.
    unsafe {
        mlir_sys::mlirAttributeIsAInteger(attr.to_raw()).then(|| mlir_sys::mlirIntegerAttrGetValueInt(attr.to_raw()))
    }
}

/// The elements of an `array<i64: ...>` attribute (the op views' reader).
pub use layout_dialect::ops::i64_array;

/// Element type text and (if static) element count of a memref type.
pub fn memref_info(ty: Type) -> Option<(String, Option<i64>)> {
    // Safety: valid type; dims in range.
    unsafe {
        let raw = ty.to_raw();
        if !mlir_sys::mlirTypeIsAMemRef(raw) {
            return None;
        }
        let elem = Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)).to_string();
        let count = if mlir_sys::mlirShapedTypeHasStaticShape(raw) {
            let rank = mlir_sys::mlirShapedTypeGetRank(raw);
            (0..rank).try_fold(1i64, |acc, d| acc.checked_mul(mlir_sys::mlirShapedTypeGetDimSize(raw, d as isize)))
        } else {
            None
        };
        Some((elem, count))
    }
}

/// Names of the ops that use `value`.
pub fn user_names(value: Value) -> Vec<String> {
    let mut out = Vec::new();
    // Safety: walking the use list of a valid value.
    unsafe {
        let mut use_ = mlir_sys::mlirValueGetFirstUse(value.to_raw());
        while !mlir_sys::mlirOpOperandIsNull(use_) {
            let owner = OperationRef::from_raw(mlir_sys::mlirOpOperandGetOwner(use_));
            out.push(op_name(&owner));
            use_ = mlir_sys::mlirOpOperandGetNextUse(use_);
        }
    }
    out
}

/// Whether every user of `value` is a `layout.*` op (so its type may be refined in place).
pub fn only_layout_users(value: Value) -> bool {
    user_names(value).iter().all(|n| layout_dialect::ops::LayoutOpKind::from_name(n).is_some())
}

/// `file:line:col` of a location (the first one inside a name, call-site or fused location),
/// the prefix of a diagnostic printed by a pass itself; MLIR's `loc(...)` text if it has none.
pub fn file_line_col(location: Location) -> String {
    fn find(location: Location, depth: usize) -> Option<String> {
        if depth > 16 {
            return None;
        }
        if location.is_file_line_col_range() {
            let file = location.file_line_col_range_filename();
            let file = file.as_string_ref().as_str().unwrap_or("-").to_string();
            let (line, column) =
                (location.file_line_col_range_start_line(), location.file_line_col_range_start_column());
            return Some(format!("{file}:{line}:{column}"));
        }
        if location.is_name() {
            return find(location.name_child_location(), depth + 1);
        }
        if location.is_call_site() {
            return find(location.call_site_callee(), depth + 1);
        }
        if location.is_fused() {
            return (0..location.fused_num_locations()).find_map(|i| find(location.fused_location(i), depth + 1));
        }
        None
    }
    find(location, 0).unwrap_or_else(|| location.to_string())
}
