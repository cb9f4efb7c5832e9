//! `layout.offset`: the emitted `crd_to_offset(layout, coord)`.

use layout_algebra::SymExpr;
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

use super::{build, Lowerer};
use crate::error::LoweringError;
use crate::tile::coord_tuple;

pub(super) fn offset(l: &mut Lowerer, op: &OperationRef) -> Result<(), LoweringError> {
    let t = l.operand(op, 0)?;
    let coords: Vec<SymExpr> = op.operands().skip(1).map(|v| l.symbol_of(v.to_raw())).collect();
    if coords.len() != t.layout.rank() {
        return Err(LoweringError::Contract(format!(
            "layout.offset: {} coordinates for a layout of rank {} ({})",
            coords.len(),
            t.layout.rank(),
            t.layout
        )));
    }
    let offset =
        t.layout.crd_to_offset(&coord_tuple(&t.layout, &coords)).map_err(LoweringError::algebra_in("layout.offset"))?;
    let value = l.emit(op.location(), build::Point::before(op), &[offset])?[0];
    let old = op.result(0).map_err(|e| LoweringError::IrShape(e.to_string()))?;
    // Safety: both values are valid; the offset op is erased after the rewrite.
    unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), value) };
    Ok(())
}
