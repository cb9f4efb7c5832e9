//! `layout.tile`: the parent's buffer with `tile_layout(parent, shape, coord)` (catlass
//! `GetTileLayout`, docs/layout-spec.md §B.6) at the global coordinate `parent.coord + coord`
//! (docs/layout-spec.md §B.7), both from `crate::tile::tile_of`, shared with the AscendC lowering.

use layout_algebra::SymExpr;
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

use super::{describe, guard, Lowerer, Tensor};
use crate::error::LoweringError;
use crate::tile::{check_declared, tile_of};

pub(super) fn tile(l: &mut Lowerer, op: &OperationRef, shape: &[i64]) -> Result<(), LoweringError> {
    let parent = l.operand(op, 0)?;
    let coords: Vec<SymExpr> = op.operands().skip(1).map(|v| l.symbol_of(v.to_raw())).collect();
    if coords.len() != parent.coord.len() || shape.len() != coords.len() {
        return Err(LoweringError::Contract(format!(
            "layout.tile: {} coordinates and {} extents for a parent with {} origin extents ({})",
            coords.len(),
            shape.len(),
            parent.coord.len(),
            parent.layout
        )));
    }
    let placed = tile_of(&parent.layout, &parent.coord, shape, &coords).map_err(|e| e.in_op("layout.tile"))?;
    let layout = placed.layout;
    // The declared type must not claim anything the algebra contradicts (layout-verify G2).
    let result = op.result(0).map_err(|e| LoweringError::IrShape(e.to_string()))?;
    let declared = l
        .layouts
        .resolve(result.r#type())
        .ok_or(LoweringError::IrShape("the result is not a !layout.tensor".into()))??;
    check_declared(&declared.layout, &layout).map_err(|e| {
        LoweringError::Contract(format!("layout.tile: the result type disagrees with the layout algebra: {e}"))
    })?;
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
