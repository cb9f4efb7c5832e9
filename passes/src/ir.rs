//! Small IR queries shared by the passes (things melior does not wrap).

use layout_dialect::TensorType;
use melior::ir::{operation::OperationLike, Attribute, AttributeLike, OperationRef, Type, TypeLike, Value, ValueLike};

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

/// The elements of an `array<i64: ...>` attribute; `None` for any other attribute.
pub fn i64_array(attr: Attribute) -> Option<Vec<i64>> {
    // Safety: valid attribute; indices in range.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI64Array(attr.to_raw()) {
            return None;
        }
        let n = mlir_sys::mlirDenseArrayGetNumElements(attr.to_raw());
        Some((0..n).map(|i| mlir_sys::mlirDenseI64ArrayGetElement(attr.to_raw(), i)).collect())
    }
}

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
    user_names(value).iter().all(|n| n.starts_with("layout."))
}
