//! `layout.tile`: the parent's buffer with `tile_layout(parent, shape, coord)` (catlass
//! `GetTileLayout`, docs/layout-spec.md §B.6) at the global coordinate `parent.coord + coord` (docs/layout-spec.md §B.7).

use layout_algebra::{ascend::tile_layout, SymExpr};
use melior::ir::{operation::OperationLike, OperationRef, ValueLike};

use super::{build, describe, guard, Lowerer, Tensor};
use crate::{ir::tensor_of, tile::check_declared};

pub(super) fn tile(l: &mut Lowerer, op: &OperationRef, shape: &[i64]) -> Result<(), String> {
    let parent = l.operand(op, 0)?;
    let coords: Vec<SymExpr> = op.operands().skip(1).map(|v| l.symbol_of(v.to_raw())).collect();
    if coords.len() != parent.coord.len() || shape.len() != coords.len() {
        return Err(format!(
            "layout.tile: {} coordinates and {} extents for a parent with {} origin extents ({}); batched layouts cannot be tiled",
            coords.len(),
            shape.len(),
            parent.coord.len(),
            parent.layout
        ));
    }
    let extents: Vec<SymExpr> = shape.iter().map(|v| SymExpr::Const(*v)).collect();
    let layout = tile_layout(&parent.layout, &extents, &coords).map_err(|e| format!("layout.tile: {e}"))?;
    // The declared type must not claim anything the algebra contradicts (layout-verify G2).
    let result = op.result(0).map_err(|e| e.to_string())?;
    let declared = tensor_of(result.into())
        .ok_or("the result is not a !layout.tensor")?
        .resolve_with_prefix("r")
        .map_err(|e| e.to_string())?;
    check_declared(&declared.layout, &layout)
        .map_err(|e| format!("layout.tile: the result type disagrees with the layout algebra: {e}"))?;
    let parent_extents = parent.extents();
    for (k, c) in coords.iter().enumerate() {
        if let SymExpr::Sym(name) = c {
            l.note_tile_coordinate(name, shape[k], &parent_extents[k]);
        }
    }
    let valid = guard::tile(l, op, &parent, &coords)?;
    let coord = parent.coord.iter().zip(&coords).map(|(p, c)| build::add(p, c)).collect::<Result<Vec<_>, _>>()?;
    let t = Tensor { layout, coord, name: describe(op, "layout.tile"), valid, ..parent };
    l.define(op, t)
}
