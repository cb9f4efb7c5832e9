//! `layout-fold`: everything static becomes constants and static types, computed by the
//! layout algebra (never re-derived here).
//!
//! In program order (so refined types flow into later ops):
//! - `layout.view` / `layout.alloc` whose `dyn` operands are `arith.constant`s: the constants
//!   are substituted into the result type (binding order of `layout_dialect::tensor_layout`)
//!   and dropped from the operands; `!layout.tensor<f16, "gm", "ND", "(?,128)">` with `%c100`
//!   becomes `!layout.tensor<f16, "gm", "ND", "(100,128)">`.
//! - `layout.tile`: the result type becomes `tile_layout(parent, shape, coord)` with constant
//!   coordinates as numbers and the others as symbols; every leaf the algebra proves constant
//!   is printed, the rest is `?`. Constant coordinate → fully static type with the clipped
//!   origin (NZ f16 100×100, 32×48 at (96,96) → origin `(4,4)`); dynamic coordinate → static
//!   strides and inner shape survive, only the origin is `?`.
//! - `layout.offset` with constant coordinates: replaced by `arith.constant` of
//!   `crd_to_offset` (NZ f16 100×100 at (17,33) → 3857), also when the layout has dynamic
//!   leaves that the offset does not depend on.
//!
//! A value's type is only refined in place when all its users are `layout` ops (a `func.return`
//! or call would need the old type). Ops whose types are invalid are left for `layout-verify`.

use crate::{
    ir::{constant_int, i64_array, only_layout_users, op_name, tensor_of},
    tile,
};
use layout_dialect::ops::LayoutOpKind;
use layout_dialect::tensor_layout::count_dynamic;
use layout_dialect::TensorType;
use melior::{
    dialect::{arith, DialectHandle},
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        Location, OperationRef, Type, TypeLike, Value, ValueLike,
    },
    pass::{ExternalPass, Pass},
};

use crate::external::{self, PassId};

pub const ARGUMENT: &str = "layout-fold";
pub const DESCRIPTION: &str =
    "Fold static layout facts: constant offsets, static tile/view/alloc types (via the layout algebra)";

static PASS_ID: PassId = PassId::new();

/// Creates the pass (it creates `arith.constant` ops, so `arith` is a dependent dialect).
pub fn create() -> Pass {
    external::create(&PASS_ID, run, "LayoutFold", ARGUMENT, DESCRIPTION, &[DialectHandle::arith()])
}

fn run(root: OperationRef, _pass: ExternalPass) {
    fold(root);
}

/// Folds everything under `root`; returns the number of ops changed.
pub fn fold(root: OperationRef) -> usize {
    let mut collected = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if let Some(kind) = LayoutOpKind::from_name(&op_name(&op)) {
            collected.push((kind, op.to_raw()));
        }
        WalkResult::Advance
    });
    let mut changed = 0;
    for (kind, raw) in collected {
        // Safety: collected ops are alive; only `layout.offset` ops are erased, each after its
        // own (single) visit.
        let op = unsafe { OperationRef::from_raw(raw) };
        let done = match kind {
            LayoutOpKind::View => fold_binding(&op, 1),
            LayoutOpKind::Alloc => fold_binding(&op, 0),
            LayoutOpKind::Tile => fold_tile(&op),
            LayoutOpKind::Offset => fold_offset(&op),
            LayoutOpKind::Load | LayoutOpKind::Matmul => fold_written(&op),
            LayoutOpKind::Store | LayoutOpKind::BlockIdx | LayoutOpKind::BlockNum => false,
        };
        changed += usize::from(done);
    }
    changed
}

fn set_type(value: Value, ty: &TensorType, location: Location) -> bool {
    // `to_ref` reinterprets the `ContextRef` itself, so it must outlive the reference: keep it
    // in a local (a temporary would leave `context` dangling; release builds crash on that).
    let context_ref = location.context();
    // Safety: the context outlives the pass run and `context_ref` outlives `context`.
    let context = unsafe { context_ref.to_ref() };
    let Some(new) = ty.to_type(context) else {
        return false;
    };
    // Safety: valid value and type of the same context.
    unsafe { mlir_sys::mlirValueSetType(value.to_raw(), new.to_raw()) };
    true
}

/// view/alloc: substitute constant `dyn` operands (from operand `first_dyn` on) into the type.
fn fold_binding(op: &OperationRef, first_dyn: usize) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    let result: Value = result.into();
    let Some(ty) = tensor_of(result) else {
        return false;
    };
    let operands: Vec<Value> = op.operands().collect();
    if operands.len() < first_dyn {
        return false;
    }
    let values: Vec<Option<i64>> = operands[first_dyn..].iter().map(|v| constant_int(*v)).collect();
    if values.iter().all(Option::is_none) || !only_layout_users(result) {
        return false;
    }
    let Ok(bound) = ty.bind(&values) else {
        return false;
    };
    if bound.resolve().is_err() {
        return false;
    }
    let kept: Vec<_> = operands[..first_dyn]
        .iter()
        .chain(operands[first_dyn..].iter().zip(&values).filter(|(_, c)| c.is_none()).map(|(v, _)| v))
        .map(|v| v.to_raw())
        .collect();
    if !set_type(result, &bound, op.location()) {
        return false;
    }
    // Safety: valid op; the operand array outlives the call.
    unsafe { mlir_sys::mlirOperationSetOperands(op.to_raw(), kept.len() as isize, kept.as_ptr()) };
    true
}

fn fold_tile(op: &OperationRef) -> bool {
    let (Ok(source), Ok(result)) = (op.operand(0), op.result(0)) else {
        return false;
    };
    let result: Value = result.into();
    let (Some(parent_ty), Some(result_ty)) = (tensor_of(source), tensor_of(result)) else {
        return false;
    };
    let Some(shape) = op.attribute("shape").ok().and_then(i64_array) else {
        return false;
    };
    let coords: Vec<Option<i64>> = op.operands().skip(1).map(constant_int).collect();
    let (Ok(parent), Ok(declared)) = (tile::parent_layout(&parent_ty), result_ty.resolve_with_prefix("r")) else {
        return false;
    };
    let Ok(expected) = tile::expected_tile(&parent, &shape, &coords) else {
        return false;
    };
    if count_dynamic(&expected) >= count_dynamic(&declared.layout)
        || tile::check_declared(&declared.layout, &expected).is_err()
        || !only_layout_users(result)
    {
        return false;
    }
    let new = TensorType::from_layout(declared.elem, declared.space, &expected);
    set_type(result, &new, op.location())
}

/// load/matmul: the `written` result gets the leaves the algebra proves
/// ([`tile::written_view`] of the operand types), as a tile does.
fn fold_written(op: &OperationRef) -> bool {
    let Ok(result) = op.result(0) else {
        return false;
    };
    let result: Value = result.into();
    let operand = |i: usize, prefix: &str| {
        op.operand(i).ok().and_then(tensor_of).and_then(|t| t.resolve_with_prefix(prefix).ok())
    };
    let Some(Ok(declared)) = tensor_of(result).map(|t| t.resolve_with_prefix("r")) else {
        return false;
    };
    let (dst, extents) = if op.operand_count() == 3 {
        let (Some(a), Some(b), Some(c)) = (operand(0, "a"), operand(1, "b"), operand(2, "c")) else { return false };
        let (ae, be) = (a.layout.origin().leaves(), b.layout.origin().leaves());
        if ae.len() != 2 || be.len() != 2 {
            return false;
        }
        (c, vec![ae[0].clone(), be[1].clone()])
    } else {
        let (Some(src), Some(dst)) = (operand(0, "s"), operand(1, "d")) else { return false };
        let extents = src.layout.origin().leaves();
        (dst, extents)
    };
    let Ok(expected) = tile::written_view(&dst.layout, &extents) else {
        return false;
    };
    if count_dynamic(&expected) >= count_dynamic(&declared.layout)
        || tile::check_declared(&declared.layout, &expected).is_err()
        || !only_layout_users(result)
    {
        return false;
    }
    let new = TensorType::from_layout(declared.elem, declared.space, &expected);
    set_type(result, &new, op.location())
}

fn fold_offset(op: &OperationRef) -> bool {
    let Some(source) = op.operand(0).ok().and_then(tensor_of) else {
        return false;
    };
    let Some(coords) = op.operands().skip(1).map(constant_int).collect::<Option<Vec<i64>>>() else {
        return false;
    };
    let Ok(layout) = source.resolve() else {
        return false;
    };
    if coords.len() != layout.rank() || coords.iter().any(|c| *c < 0) {
        return false;
    }
    let Ok(Some(offset)) = tile::constant_offset(&layout.layout, &coords) else {
        return false;
    };
    let (Some(block), Ok(old)) = (op.block(), op.result(0)) else {
        return false;
    };
    let location = op.location();
    // `to_ref` reinterprets the `ContextRef` itself, so it must outlive the reference: keep it
    // in a local (a temporary would leave `context` dangling; release builds crash on that).
    let context_ref = location.context();
    // Safety: the context outlives the pass run and `context_ref` outlives `context`.
    let context = unsafe { context_ref.to_ref() };
    let index = Type::index(context);
    let constant = arith::constant(context, IntegerAttribute::new(index, offset).into(), location);
    let constant = block.insert_operation_before(*op, constant);
    let Ok(new) = constant.result(0) else {
        return false;
    };
    // Safety: both values are valid; the offset op has no uses afterwards and is erased once.
    unsafe {
        mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new.to_raw());
        mlir_sys::mlirOperationDestroy(op.to_raw());
    }
    true
}

#[cfg(test)]
mod tests {
    use melior::ir::operation::OperationLike;

    #[test]
    fn folds_a_module() {
        let context = layout_dialect::create_context().unwrap();
        let module = layout_dialect::parse_source(
            &context,
            r#"module attributes {layout.target = #layout.target<"a2">} {
                 func.func @f(%i: index) -> index {
                   %c17 = arith.constant 17 : index
                   %c33 = arith.constant 33 : index
                   %c64 = arith.constant 64 : index
                   %a = "layout.alloc"(%c64) : (index) -> !layout.tensor<f16, "l1", "NZ", "(?,64)">
                   %t = "layout.tile"(%a, %i, %c64) {shape = array<i64: 16, 16>} : (!layout.tensor<f16, "l1", "NZ", "(?,64)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
                   %o = "layout.offset"(%a, %c17, %c33) : (!layout.tensor<f16, "l1", "NZ", "(?,64)">, index, index) -> index
                   return %o : index
                 }
               }"#,
        )
        .unwrap();
        assert_eq!(super::fold(module.as_operation()), 3);
        let text = module.as_operation().to_string();
        assert!(text.contains(r#""layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">"#), "{text}");
        // NZ f16 64x64 (17,33): 16 + 256 + 1 + 2*1024 = 2321; tile at column 64 of a 64-wide parent: origin 0.
        assert!(text.contains("arith.constant 2321 : index"), "{text}");
        assert!(text.contains(r#""((16,1),(16,1)):((16,256),(1,1024))", "(?,0)">"#), "{text}");
        assert!(module.as_operation().verify());
    }
}
