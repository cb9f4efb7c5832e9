//! `layout.tile`: the parent's buffer with `tile_layout(parent, shape, coord)` (catlass
//! `GetTileLayout`, docs/layout-spec.md §B.6) at the global coordinate `parent.coord + coord`
//! (docs/layout-spec.md §B.7), both from `crate::tile::lower_tile`, shared with the AscendC
//! lowering; then the contract checks of the coordinates and the self-check's notes.

use layout_algebra::SymExpr;
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

use super::{describe, guard, Lowerer, Tensor};
use crate::error::LoweringError;
use crate::tile::lower_tile;

pub(super) fn tile(l: &mut Lowerer, op: &OperationRef, shape: &[i64]) -> Result<(), LoweringError> {
    let parent = l.operand(op, 0)?;
    let result = op.result(0).map_err(|e| LoweringError::IrShape(e.to_string()))?;
    let declared = l
        .layouts
        .resolve(result.r#type())
        .ok_or(LoweringError::IrShape("the result is not a !layout.tensor".into()))??;
    let (placed, coords) = lower_tile(
        &parent.layout,
        &parent.coord,
        shape,
        op.operands().skip(1),
        |_, v| l.symbol_of(v.to_raw()),
        Some(&declared.layout),
    )?;
    let layout = placed.layout;
    let parent_extents = parent.extents();
    for (k, c) in coords.iter().enumerate() {
        if let SymExpr::Sym(name) = c {
            l.note_tile_coordinate(name, shape[k], &parent_extents[k]);
        }
    }
    let valid = guard::tile(l, op, &parent, &coords)?;
    let t = Tensor { layout, coord: placed.corner, name: describe(op, "layout.tile"), valid, ..parent };
    l.define(op, t)
}
