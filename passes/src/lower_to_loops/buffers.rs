//! `layout.view` and `layout.alloc`: a 1-D buffer plus the layout of the result type.

use std::collections::HashMap;

use layout_algebra::{ascend::capacity, ascend::ElementType, IndexValue, SymExpr};
use layout_dialect::{TensorLayout, TensorType};
use melior::{
    dialect::{arith, memref},
    ir::{
        operation::{OperationBuilder, OperationLike},
        r#type::MemRefType,
        Attribute, OperationRef, Type, TypeLike, ValueLike,
    },
};

use super::{build, describe, element_types, guard, Lowerer, Tensor};
use crate::error::LoweringError;

/// Resolves the result type with fresh symbols and binds them to the `dyn` operands from
/// operand `first_dyn` on (binding order of `layout_dialect::tensor_layout`); also returns the
/// operands (for the view's checks).
fn bound_result(
    l: &mut Lowerer,
    op: &OperationRef,
    first_dyn: usize,
) -> Result<(TensorType, TensorLayout, Vec<guard::ViewOperand>), LoweringError> {
    let result = op.result(0).map_err(|e| LoweringError::IrShape(e.to_string()))?;
    let not_tensor = || LoweringError::IrShape("the result is not a !layout.tensor".into());
    let ty = l.layouts.tensor_type(result.r#type()).ok_or_else(not_tensor)?;
    // The cached layout's symbols (`d0, d1, ...`) are replaced below by the operands' own
    // (`s<n>`), so two tensors of one type never share a symbol.
    let mut resolved = l.layouts.resolve(result.r#type()).ok_or_else(not_tensor)??;
    let operands: Vec<_> = op.operands().skip(first_dyn).collect();
    if operands.len() != resolved.symbols.len() {
        return Err(LoweringError::Contract(format!(
            "{} has {} dynamic leaves but {} index operands bind them",
            ty,
            resolved.symbols.len(),
            operands.len()
        )));
    }
    // Size leaves (origin, shape) are clamped to >= 0, strides are not (see "Sizes are
    // non-negative" in the module documentation).
    let mut sizes = std::collections::HashSet::new();
    for leaf in resolved.layout.origin().leaves().into_iter().chain(resolved.layout.shape().leaves()) {
        if let SymExpr::Sym(name) = leaf {
            sizes.insert(name.to_string());
        }
    }
    let mut map = HashMap::new();
    let mut bound = Vec::new();
    for (k, (symbol, operand)) in resolved.symbols.iter().zip(operands).enumerate() {
        let size = sizes.contains(symbol);
        let value =
            if size { l.size_symbol_of(op.location(), operand.to_raw())? } else { l.symbol_of(operand.to_raw()) };
        map.insert(symbol.clone(), value);
        bound.push(guard::ViewOperand { position: first_dyn + k, value: operand.to_raw(), size });
    }
    resolved.layout = build::substitute_layout(&resolved.layout, &map)?;
    Ok((ty, resolved, bound))
}

fn tensor(
    l: &Lowerer,
    ty: &TensorType,
    resolved: &TensorLayout,
    buffer: mlir_sys::MlirValue,
    name: String,
) -> Result<Tensor, LoweringError> {
    let (elem, elem_type) = element_types(l.context, ty)?;
    let rank = resolved.layout.origin().leaves().len();
    Ok(Tensor {
        buffer,
        elem,
        elem_type,
        space: resolved.space,
        pattern: resolved.recognized_pattern(),
        layout: resolved.layout.clone(),
        coord: vec![SymExpr::Const(0); rank],
        base: SymExpr::Const(0),
        name,
        valid: None,
    })
}

pub(super) fn view(l: &mut Lowerer, op: &OperationRef) -> Result<(), LoweringError> {
    let (ty, resolved, operands) = bound_result(l, op, 1)?;
    let source = op.operand(0).map_err(|e| LoweringError::IrShape(e.to_string()))?;
    let (_, elem_type) = element_types(l.context, &ty)?;
    let raw = source.r#type().to_raw();
    // Safety: type queries on valid types.
    let (rank, identity, same_elem) = unsafe {
        if !mlir_sys::mlirTypeIsAMemRef(raw) {
            return Err(LoweringError::Contract(format!("layout.view needs a memref, got {}", source.r#type())));
        }
        let layout = mlir_sys::mlirMemRefTypeGetLayout(raw);
        let identity = mlir_sys::mlirAttributeIsAAffineMap(layout)
            && mlir_sys::mlirAffineMapIsIdentity(mlir_sys::mlirAffineMapAttrGetValue(layout));
        (
            mlir_sys::mlirShapedTypeGetRank(raw),
            identity,
            mlir_sys::mlirTypeEqual(mlir_sys::mlirShapedTypeGetElementType(raw), elem_type),
        )
    };
    if !same_elem {
        return Err(LoweringError::Contract(format!(
            "layout.view: the memref {} does not hold {} elements",
            source.r#type(),
            ty.elem
        )));
    }
    if rank < 1 || !identity {
        return Err(LoweringError::Contract(format!(
            "layout.view: the CPU lowering needs a memref of rank >= 1 with the identity layout, got {}",
            source.r#type()
        )));
    }
    let buffer = if rank == 1 {
        source.to_raw()
    } else {
        // Flatten a contiguous memref: memref<AxBxT> -> memref<(A*B)xT>.
        // Safety: type queries on a valid ranked type.
        let size = unsafe {
            (0..rank).try_fold(1i64, |acc, d| {
                if mlir_sys::mlirShapedTypeIsDynamicDim(raw, d as isize) {
                    None
                } else {
                    acc.checked_mul(mlir_sys::mlirShapedTypeGetDimSize(raw, d as isize))
                }
            })
        };
        let dim = size.unwrap_or(unsafe { mlir_sys::mlirShapedTypeGetDynamicSize() });
        // Safety: a valid element type.
        let flat = MemRefType::new(unsafe { Type::from_raw(elem_type) }, &[dim], None, None);
        let dims: Vec<String> = (0..rank).map(|d| d.to_string()).collect();
        let reassociation = Attribute::parse(l.context, &format!("[[{}]]", dims.join(", ")))
            .ok_or(LoweringError::Internal("reassociation".into()))?;
        let collapse = OperationBuilder::new("memref.collapse_shape", op.location())
            .add_operands(&[source])
            .add_attributes(&[(melior::ir::Identifier::new(l.context, "reassociation"), reassociation)])
            .add_results(&[flat.into()])
            .build()
            .map_err(|e| LoweringError::Unsupported(format!("cannot flatten {}: {e}", source.r#type())))?;
        build::Point::before(op).value(collapse)?
    };
    let mut t = tensor(l, &ty, &resolved, buffer, describe(op, "layout.view"))?;
    t.valid = guard::view(l, op, &t, source.to_raw(), &operands)?;
    if let Some(valid) = t.valid {
        guard::skip_rest_unless(op.location(), op, valid);
    }
    l.define(op, t)
}

/// The poison value an on-chip buffer starts with (see the module documentation).
pub(crate) fn poison_text(elem: ElementType) -> Result<String, LoweringError> {
    Ok(match elem {
        ElementType::F16 => "0x7E00 : f16".into(),
        ElementType::BF16 => "0x7FC0 : bf16".into(),
        ElementType::F32 => "0x7FC00000 : f32".into(),
        ElementType::F64 => "0x7FF8000000000000 : f64".into(),
        ElementType::I8 => format!("{} : i8", i8::MIN),
        ElementType::I16 => format!("{} : i16", i16::MIN),
        ElementType::I32 => format!("{} : i32", i32::MIN),
        ElementType::I64 => format!("{} : i64", i64::MIN),
        // E8M0 has no zero or infinity; 0xFF is its NaN.
        ElementType::F8E8M0FNU => "0xFF : f8E8M0FNU".into(),
        other => return Err(LoweringError::Unsupported(format!("no poison value for {other}"))),
    })
}

/// `memref.alloca` of the layout's elements, filled with poison. A static size over the
/// capacity of the memory is an error now; a dynamic one is checked first ([`guard::alloc`]):
/// when a check fails the alloca gets 1 element and the fill and the rest of the block are
/// skipped, so a bad size never reaches the stack.
pub(super) fn alloc(l: &mut Lowerer, op: &OperationRef) -> Result<(), LoweringError> {
    let (ty, resolved, operands) = bound_result(l, op, 0)?;
    let (elem, elem_type) = element_types(l.context, &ty)?;
    let location = op.location();
    let point = build::Point::before(op);
    // Safety: a valid element type.
    let elem_ty = unsafe { Type::from_raw(elem_type) };
    let (size, alloca, valid, count) = match layout_dialect::tensor_layout::to_static_layout(&resolved.layout) {
        Some(fixed) => {
            let n = fixed.cosize().map_err(LoweringError::algebra_in(format!("cosize of {}", fixed)))?;
            // The buffer's bytes must be addressable: LLVM computes them in i64 and would wrap.
            let bytes = elem.storage_bytes(n).map_err(|e| {
                LoweringError::Contract(format!("{ty} needs {n} elements of {elem}, more bytes than i64 holds ({e})"))
            })?;
            guard::static_alloc(l, &ty.to_string(), resolved.space, bytes)?;
            let ty = MemRefType::new(elem_ty, &[n], None, None);
            let count = if l.sanitize { Some(build::index_constant(l.context, location, point, n)?) } else { None };
            (SymExpr::Const(n), memref::alloca(l.context, ty, &[], &[], None, location), None, count)
        }
        None => {
            let n = capacity(&resolved.layout)?;
            let bytes = guard::footprint(&n, elem)?;
            let valid = guard::alloc(l, op, &ty.to_string(), resolved.space, &bytes, &operands)?;
            let dynamic = unsafe { mlir_sys::mlirShapedTypeGetDynamicSize() };
            let memref_ty = MemRefType::new(elem_ty, &[dynamic], None, None);
            let mut count = l.emit(location, point, std::slice::from_ref(&n))?[0];
            if let Some(ok) = valid {
                // A failed check must not reach the stack: one element instead.
                let one = build::index_constant(l.context, location, point, 1)?;
                count = point.value(arith::select(build::val(ok), build::val(count), build::val(one), location))?;
            }
            (n, memref::alloca(l.context, memref_ty, &[build::val(count)], &[], None, location), valid, Some(count))
        }
    };
    if size.as_constant().is_some_and(|n| n <= 0) {
        return Err(LoweringError::Contract(format!("{ty} has an empty footprint")));
    }
    let buffer = point.value(alloca)?;
    // Fill with poison: on hardware the buffer holds garbage.
    let fill = match valid {
        Some(ok) => build::if_then(location, point, ok),
        None => point,
    };
    let poison = build::constant_text(l.context, location, fill, &poison_text(elem)?)?;
    let nest = l.nest(location, fill, &[(SymExpr::Const(0), size.clone())])?;
    let index = l.emit(location, nest.body, &nest.ivs)?;
    build::store(nest.body, location, poison, buffer, &index);
    if let Some(count) = count.filter(|_| l.sanitize) {
        super::initcheck::allocate(l, location, point, buffer, count, fill, size)?;
    }
    let mut t = tensor(l, &ty, &resolved, buffer, describe(op, "layout.alloc"))?;
    t.valid = valid;
    if let Some(valid) = valid {
        guard::skip_rest_unless(location, op, valid);
    }
    l.define(op, t)
}
