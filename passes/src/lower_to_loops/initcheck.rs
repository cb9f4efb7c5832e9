//! initcheck of the loop lowering (`layout-lower-to-loops{sanitize=true}`, docs/sanitizer.md):
//! every on-chip `layout.alloc` gets a shadow `memref<N x i8>` of "written" flags, zero at the
//! alloc; every store into the buffer (copies, zero-fills, matmul results) sets its flag, and
//! every read from it (copy sources, matmul operands, an accumulated C) checks the flag first.
//! A read of an unwritten element calls the guard hook ([`guard::HOOK`]) with the op's
//! location, the buffer and the element's coordinate; the run goes on (the first report is
//! kept) and the kernel call then fails with it.

use layout_algebra::SymExpr;
use melior::{
    dialect::{arith, memref},
    ir::{r#type::IntegerType, Location, Type},
};
use mlir_sys::MlirValue;

use super::{build, guard, Lowerer, Tensor};
use crate::error::LoweringError;

/// The shadow flags of `tensor`'s buffer, if it has them.
pub(super) fn shadow(l: &Lowerer, tensor: &Tensor) -> Option<MlirValue> {
    l.shadows.get(&(tensor.buffer.ptr as usize)).copied()
}

/// A zero-filled shadow of `count` flags for `buffer` (an on-chip alloca) at `point`.
pub(super) fn allocate(
    l: &mut Lowerer,
    location: Location,
    point: build::Point,
    buffer: MlirValue,
    count: MlirValue,
    fill: build::Point,
    size: SymExpr,
) -> Result<(), LoweringError> {
    let i8_type: Type = IntegerType::new(l.context, 8).into();
    let dynamic = unsafe { mlir_sys::mlirShapedTypeGetDynamicSize() };
    let ty = melior::ir::r#type::MemRefType::new(i8_type, &[dynamic], None, None);
    let shadow = point.value(memref::alloca(l.context, ty, &[build::val(count)], &[], None, location))?;
    let zero = build::constant_text(l.context, location, fill, "0 : i8")?;
    let nest = l.nest(location, fill, &[(SymExpr::Const(0), size)])?;
    let index = l.emit(location, nest.body, &nest.ivs)?;
    build::store(nest.body, location, zero, shadow, &index);
    l.shadows.insert(buffer.ptr as usize, shadow);
    Ok(())
}

/// Sets the flag of element `offset` of `tensor` (no-op without a shadow).
pub(super) fn mark(
    l: &mut Lowerer,
    location: Location,
    point: build::Point,
    tensor: &Tensor,
    offset: MlirValue,
) -> Result<(), LoweringError> {
    let Some(shadow) = shadow(l, tensor) else { return Ok(()) };
    let one = build::constant_text(l.context, location, point, "1 : i8")?;
    build::store(point, location, one, shadow, &[offset]);
    Ok(())
}

/// Checks the flag of element `offset` of `tensor`, read by `what` at local coordinate
/// `local` (reported as the tensor's coordinate `coord + local`, first two leaves).
pub(super) fn check(
    l: &mut Lowerer,
    location: Location,
    point: build::Point,
    what: &str,
    tensor: &Tensor,
    offset: MlirValue,
    local: &[SymExpr],
) -> Result<(), LoweringError> {
    let Some(shadow) = shadow(l, tensor) else { return Ok(()) };
    let flag = build::load(point, location, shadow, offset)?;
    let zero = build::constant_text(l.context, location, point, "0 : i8")?;
    let bad =
        point.value(arith::cmpi(l.context, arith::CmpiPredicate::Eq, build::val(flag), build::val(zero), location))?;
    let mut crd = Vec::new();
    for (c, x) in tensor.coord.iter().zip(local).take(2) {
        crd.push(build::add(c, x)?);
    }
    while crd.len() < 2 {
        crd.push(SymExpr::Const(0));
    }
    let values = l.emit(location, point, &crd)?;
    let placeholders = if local.len() >= 2 { "({a}, {b})" } else { "({a})" };
    let message = format!(
        "{}: error: initcheck: {what} reads element {placeholders} of {}, which nothing wrote before",
        guard::position(location),
        tensor.name
    );
    guard::fail_if(l, location, point, bad, &message, values[0], values[1])
}
