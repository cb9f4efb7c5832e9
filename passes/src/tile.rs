//! The semantics of `layout.tile` and `layout.offset` shared by `layout-verify` and
//! `layout-fold`: both call the algebra (`tile_layout`, `crd_to_offset`) on symbolic values.
//!
//! `layout.tile`'s coordinates are the *element* coordinates of the tile's top-left corner in
//! the parent's logical space, one per mode (catlass `GetTileLayout`, docs/layout-spec.md §B.6); the tile
//! shape is the static `shape` attribute.

use layout_algebra::{ascend::tile_layout, IndexValue, Layout, SymExpr, Tuple};
use layout_dialect::{TensorLayout, TensorType};

/// Symbol prefix for the parent's `?` leaves (`p0`, `p1`, ...).
pub const PARENT_PREFIX: &str = "p";
/// Symbol name of coordinate `i` when it is not a constant (`c0`, `c1`, ...).
pub fn coord_symbol(i: usize) -> SymExpr {
    SymExpr::sym(&format!("c{i}"))
}

/// Coordinates as algebra values: constants where known, symbols `c{i}` elsewhere.
pub fn coord_values(coords: &[Option<i64>]) -> Vec<SymExpr> {
    coords.iter().enumerate().map(|(i, c)| c.map_or_else(|| coord_symbol(i), SymExpr::Const)).collect()
}

/// The parent as algebra values, its `?` leaves as `p0, p1, ...`.
pub fn parent_layout(parent: &TensorType) -> Result<TensorLayout, String> {
    parent.resolve_with_prefix(PARENT_PREFIX).map_err(|e| e.to_string())
}

/// The layout of the tile of `shape` at `coords` of `parent` (catlass `GetTileLayout`).
pub fn expected_tile(parent: &TensorLayout, shape: &[i64], coords: &[Option<i64>]) -> Result<Layout<SymExpr>, String> {
    let shape: Vec<SymExpr> = shape.iter().map(|v| SymExpr::Const(*v)).collect();
    tile_layout(&parent.layout, &shape, &coord_values(coords)).map_err(|e| e.to_string())
}

/// The coordinate tuple for `layout.offset` on a layout of `rank` top-level modes.
pub fn coord_tuple(layout: &Layout<SymExpr>, coords: &[SymExpr]) -> Tuple<SymExpr> {
    match layout.shape() {
        Tuple::Int(_) if coords.len() == 1 => Tuple::Int(coords[0].clone()),
        _ => Tuple::Tuple(coords.iter().cloned().map(Tuple::Int).collect()),
    }
}

/// The offset of constant coordinates, when the algebra gives a constant.
pub fn constant_offset(layout: &Layout<SymExpr>, coords: &[i64]) -> Result<Option<i64>, String> {
    let values: Vec<SymExpr> = coords.iter().map(|c| SymExpr::Const(*c)).collect();
    let offset = layout.crd_to_offset(&coord_tuple(layout, &values)).map_err(|e| e.to_string())?;
    Ok(offset.as_constant())
}

/// Compares a declared layout with the algebra's: `Err(leaf description)` at the first
/// static leaf of `declared` that the algebra contradicts or cannot prove.
pub fn check_declared(declared: &Layout<SymExpr>, expected: &Layout<SymExpr>) -> Result<(), String> {
    for (what, d, e) in [
        ("origin", declared.origin(), expected.origin()),
        ("shape", declared.shape(), expected.shape()),
        ("stride", declared.stride(), expected.stride()),
    ] {
        if !d.congruent(e) {
            return Err(format!("the {what} has the structure {d} but the tile's is {e}"));
        }
        for (i, (dl, el)) in d.leaves().iter().zip(e.leaves()).enumerate() {
            if let Some(dv) = dl.as_constant() {
                match el.as_constant() {
                    Some(ev) if ev == dv => {}
                    Some(ev) => return Err(format!("{what} leaf {i} is {dv} but the tile's is {ev}")),
                    None => {
                        return Err(format!(
                            "{what} leaf {i} is declared {dv} but it is dynamic ({el}; c<i> = coordinate i, p<i> = parent leaf i)"
                        ))
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout_dialect::tensor_layout::layout_strings;

    #[test]
    fn constant_and_dynamic_tiles() {
        let parent = parent_layout(&TensorType::new("f16", "l1", "NZ", "(100,100)")).unwrap();
        let fixed = expected_tile(&parent, &[32, 48], &[Some(96), Some(96)]).unwrap();
        assert_eq!(layout_strings(&fixed), ("((16,2),(16,3)):((16,256),(1,1792))".into(), "(4,4)".into()));
        let dynamic = expected_tile(&parent, &[32, 48], &[None, Some(48)]).unwrap();
        assert_eq!(layout_strings(&dynamic), ("((16,2),(16,3)):((16,256),(1,1792))".into(), "(?,48)".into()));
        assert_eq!(dynamic.origin().leaves()[0].to_string(), "min(32, max(100 - c0, 0))");
    }

    #[test]
    fn declared_types_are_checked_leaf_by_leaf() {
        let parent = parent_layout(&TensorType::new("f16", "l1", "NZ", "(100,100)")).unwrap();
        let tile = expected_tile(&parent, &[32, 48], &[None, None]).unwrap();
        let declared = |l: &str, o: &str| TensorType::new("f16", "l1", l, o).resolve_with_prefix("r").unwrap().layout;
        assert!(check_declared(&declared("((16,?),(16,3)):((?,256),(1,1792))", "(?,?)"), &tile).is_ok());
        let claim = check_declared(&declared("((16,2),(16,3)):((16,256),(1,1792))", "(32,?)"), &tile).unwrap_err();
        assert!(claim.contains("declared 32 but it is dynamic"), "{claim}");
        let wrong = check_declared(&declared("((16,2),(16,3)):((16,256),(1,768))", "(?,?)"), &tile).unwrap_err();
        assert!(wrong.contains("stride leaf 3 is 768"), "{wrong}");
        assert!(check_declared(&declared("(32,48):(16,1)", "(?,?)"), &tile).is_err());
    }

    #[test]
    fn offsets() {
        let nz = TensorType::new("f16", "l1", "NZ", "(100,100)").resolve().unwrap();
        assert_eq!(constant_offset(&nz.layout, &[17, 33]), Ok(Some(3857)));
        // Row 0 of a row-major view with a dynamic row stride is still constant.
        let nd = TensorType::new("f16", "gm", "ND", "(?,?)").resolve().unwrap();
        assert_eq!(constant_offset(&nd.layout, &[0, 5]), Ok(Some(5)));
        assert_eq!(constant_offset(&nd.layout, &[1, 5]), Ok(None));
        assert!(constant_offset(&nz.layout, &[0, i64::MAX]).is_err());
    }
}
