//! The semantics of `layout.tile` and `layout.offset` shared by `layout-verify`, `layout-fold`
//! and both lowerings: all call the algebra (`tile_layout`, `crd_to_offset`) on symbolic values,
//! and every lowering places a tile with [`tile_of`].
//!
//! `layout.tile`'s coordinates are the *element* coordinates of the tile's top-left corner in
//! the parent's logical space, one per mode (catlass `GetTileLayout`, docs/layout-spec.md §B.6); the tile
//! shape is the static `shape` attribute.

use crate::error::LoweringError;
use layout_algebra::{
    ascend::{batch_matrix, tile_layout},
    AlgebraError, IndexValue, Layout, SymExpr, Tuple,
};
use layout_dialect::{LayoutTypeError, TensorLayout, TensorType};
use melior::ir::Value;

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
pub fn parent_layout(parent: &TensorType) -> Result<TensorLayout, LayoutTypeError> {
    parent.resolve_with_prefix(PARENT_PREFIX)
}

/// The layout of the tile of `shape` at `coords` of `parent` (catlass `GetTileLayout`).
pub fn expected_tile(
    parent: &TensorLayout,
    shape: &[i64],
    coords: &[Option<i64>],
) -> Result<Layout<SymExpr>, LoweringError> {
    Ok(tile_of(&parent.layout, &[], shape, &coord_values(coords))?.layout)
}

/// A placed tile: its layout and the element coordinates of its top-left corner in the whole
/// (root) tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacedTile {
    /// `tile_layout(parent, shape, local)`: the parent's strides, so it applies to the whole
    /// tensor's coordinates; its origin is clipped by the parent's origin at `local`.
    pub layout: Layout<SymExpr>,
    /// `parent corner + local` (empty when the parent's corner is not tracked).
    pub corner: Vec<SymExpr>,
}

/// The tile of `shape` at `local` (coordinates in the parent tile, per the op's definition) of
/// a parent with layout `parent` whose corner in the whole tensor is `parent_corner`. A tile of a
/// tile is placed at the sum of the corners: the one rule every lowering shares (the AscendC
/// lowering used to keep only `local`). `parent_corner` may be empty (the verifier and the fold
/// need only the layout).
pub fn tile_of(
    parent: &Layout<SymExpr>,
    parent_corner: &[SymExpr],
    shape: &[i64],
    local: &[SymExpr],
) -> Result<PlacedTile, LoweringError> {
    let extents: Vec<SymExpr> = shape.iter().map(|v| SymExpr::Const(*v)).collect();
    let layout = tile_layout(parent, &extents, local)?;
    let corner = if parent_corner.is_empty() {
        Vec::new()
    } else if parent_corner.len() != local.len() {
        return Err(LoweringError::IrShape(format!(
            "{} coordinates for a parent tile with a corner of rank {}",
            local.len(),
            parent_corner.len()
        )));
    } else {
        parent_corner.iter().zip(local).map(|(p, c)| add_coordinates(p, c)).collect::<Result<Vec<_>, _>>()?
    };
    Ok(PlacedTile { layout, corner })
}

/// The one handler of a `layout.tile` op, shared by both lowerings: its coordinate operands as
/// algebra values (constants where the IR has them, else `symbol(i, value)`, the symbol the
/// calling lowering binds to the value), the rank check, the placement ([`tile_of`]: a tile of
/// a tile sits at the sum of the corners) and, when `declared` is given, the check that the
/// result type claims nothing the algebra contradicts (layout-verify G2). Returns the placed
/// tile and the local coordinates.
pub fn lower_tile<'c, 'a>(
    parent: &Layout<SymExpr>,
    parent_corner: &[SymExpr],
    shape: &[i64],
    coordinates: impl IntoIterator<Item = Value<'c, 'a>>,
    mut symbol: impl FnMut(usize, Value<'c, 'a>) -> SymExpr,
    declared: Option<&Layout<SymExpr>>,
) -> Result<(PlacedTile, Vec<SymExpr>), LoweringError> {
    let local: Vec<SymExpr> = coordinates
        .into_iter()
        .enumerate()
        .map(|(i, v)| crate::ir::constant_int(v).map_or_else(|| symbol(i, v), SymExpr::Const))
        .collect();
    if local.len() != parent_corner.len() || shape.len() != local.len() {
        return Err(LoweringError::Contract(format!(
            "layout.tile: {} coordinates and {} extents for a parent with {} origin extents ({parent})",
            local.len(),
            shape.len(),
            parent_corner.len(),
        )));
    }
    let placed = tile_of(parent, parent_corner, shape, &local).map_err(|e| e.in_op("layout.tile"))?;
    if let Some(declared) = declared {
        check_declared(declared, &placed.layout).map_err(|e| {
            LoweringError::Contract(format!("layout.tile: the result type disagrees with the layout algebra: {e}"))
        })?;
    }
    Ok((placed, local))
}

/// The offset of local coordinate `local` of a tile placed at `corner` (one per origin leaf):
/// `crd_to_offset(layout, corner + local)`, the coordinate structured like the origin (a tile's
/// layout applies to the whole tensor's coordinates). `local` all zero gives the tile's base
/// offset. `what` names the tensor in an error.
pub fn address(
    layout: &Layout<SymExpr>,
    corner: &[SymExpr],
    local: &[SymExpr],
    what: &str,
) -> Result<SymExpr, LoweringError> {
    use layout_algebra::sym::BinOp;
    let global =
        corner.iter().zip(local).map(|(c, l)| SymExpr::bin(BinOp::Add, c, l)).collect::<Result<Vec<_>, _>>()?;
    let crd = layout.origin().unflatten(&global)?;
    layout.crd_to_offset(&crd).map_err(LoweringError::algebra_in(format!("address of {what}")))
}

/// `a + b` for corner coordinates, which are sums of constants and coordinate symbols: kept in
/// the linear normal form `Σ k·s + c` (symbols sorted), so a chain of N tiles at the same dynamic
/// coordinate has the corner `N·k`, not an expression N deep. Other expressions are added as is.
fn add_coordinates(a: &SymExpr, b: &SymExpr) -> Result<SymExpr, AlgebraError> {
    use layout_algebra::sym::BinOp;
    let plain = || SymExpr::bin(BinOp::Add, a, b);
    let (Some(x), Some(y)) = (linear_form(a), linear_form(b)) else { return plain() };
    let Some(sum) = x.add(&y) else { return plain() };
    sum.to_expr()
}

/// `Σ coefficient·symbol + constant`, symbols in name order.
#[derive(Debug, Default)]
struct LinearForm {
    terms: std::collections::BTreeMap<std::rc::Rc<str>, i64>,
    constant: i64,
}

impl LinearForm {
    /// The sum, or `None` on overflow.
    fn add(&self, other: &LinearForm) -> Option<LinearForm> {
        let mut out = LinearForm { terms: self.terms.clone(), constant: self.constant.checked_add(other.constant)? };
        for (s, k) in &other.terms {
            let entry = out.terms.entry(s.clone()).or_insert(0);
            *entry = entry.checked_add(*k)?;
        }
        out.terms.retain(|_, k| *k != 0);
        Some(out)
    }

    /// The product with a constant, or `None` on overflow.
    fn scale(mut self, factor: i64) -> Option<LinearForm> {
        self.constant = self.constant.checked_mul(factor)?;
        for k in self.terms.values_mut() {
            *k = k.checked_mul(factor)?;
        }
        self.terms.retain(|_, k| *k != 0);
        Some(self)
    }

    fn to_expr(&self) -> layout_algebra::Result<SymExpr> {
        use layout_algebra::sym::BinOp;
        let mut sum = SymExpr::Const(0);
        for (s, k) in &self.terms {
            let term = SymExpr::bin(BinOp::Mul, &SymExpr::Const(*k), &SymExpr::Sym(s.clone()))?;
            sum = SymExpr::bin(BinOp::Add, &sum, &term)?;
        }
        SymExpr::bin(BinOp::Add, &sum, &SymExpr::Const(self.constant))
    }
}

/// The linear form of `e` when it is a sum of constants and (constant multiples of) symbols.
fn linear_form(e: &SymExpr) -> Option<LinearForm> {
    use layout_algebra::sym::BinOp;
    match e {
        SymExpr::Const(c) => Some(LinearForm { constant: *c, ..LinearForm::default() }),
        SymExpr::Sym(s) => Some(LinearForm { terms: [(s.clone(), 1)].into(), constant: 0 }),
        SymExpr::Bin(BinOp::Add, a, b) => linear_form(a)?.add(&linear_form(b)?),
        SymExpr::Bin(BinOp::Mul, a, b) => match (a.as_ref(), b.as_ref()) {
            (SymExpr::Const(k), x) | (x, SymExpr::Const(k)) => linear_form(x)?.scale(*k),
            _ => None,
        },
        _ => None,
    }
}

/// Whether `layout` is a batch form `(B, L)` with origin `(b, (rows, cols))`
/// (docs/layout-spec.md §A.4), as the algebra tiles it.
pub fn is_batch_form(layout: &Layout<SymExpr>) -> bool {
    matches!(layout.origin(), Tuple::Tuple(o) if layout.rank() == 2 && o.len() == 2 && o[0].as_int().is_some() && o[1].as_int().is_none())
}

/// What a copy moves of a tensor: one matrix, its layout applied to the tensor's matrix
/// coordinates from `corner`, at element `offset` of the buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixView {
    pub layout: Layout<SymExpr>,
    pub corner: Vec<SymExpr>,
    pub offset: SymExpr,
}

/// The matrix a copy moves of a tensor with `layout` whose corner in the whole tensor is
/// `corner` (one coordinate per origin leaf): a batch form of batch extent 1 (a tile
/// `{shape = [1, rows, cols]}`, or a view of one matrix) is its matrix at the batch offset
/// (`layout_algebra::ascend::batch_matrix`, origin guarded by the batch origin); any other
/// layout is itself at offset 0. Both lowerings and `layout-verify` use it, so they agree.
pub fn matrix_view(layout: &Layout<SymExpr>, corner: &[SymExpr]) -> Result<MatrixView, LoweringError> {
    if !is_batch_form(layout) {
        return Ok(MatrixView { layout: layout.clone(), corner: corner.to_vec(), offset: SymExpr::Const(0) });
    }
    let batches = layout.shape().get(0)?.clone();
    if batches.as_int().and_then(IndexValue::as_constant) != Some(1) {
        return Err(LoweringError::Contract(format!(
            "a batch form of {batches} matrices is copied; a copy moves one matrix: tile it with a batch extent of 1 (layout.tile {{shape = array<i64: 1, rows, cols>}})"
        )));
    }
    let [batch, rows, cols] = corner else {
        return Err(LoweringError::Internal(format!("a batch form with a corner of rank {}", corner.len())));
    };
    let (matrix, offset) = batch_matrix(layout, batch)?;
    Ok(MatrixView { layout: matrix, corner: vec![rows.clone(), cols.clone()], offset })
}

/// The view a `layout.load` returns (its `written` result): the destination's layout with the
/// extent the copy wrote as its origin, `min(src, dst)` leaf by leaf (the region every lowering
/// copies). Reads through it (or tiles of it) cannot reach data the copy did not write: a tile
/// of it is clipped at this origin, and a matmul takes m, n, k from it.
pub fn written_view(dst: &Layout<SymExpr>, src_extents: &[SymExpr]) -> Result<Layout<SymExpr>, LoweringError> {
    let extents = dst.origin().leaves();
    if extents.len() != src_extents.len() {
        return Err(LoweringError::Contract(format!(
            "layout.load: the source has {} origin extents and the destination {}",
            src_extents.len(),
            extents.len()
        )));
    }
    Ok(dst.clip_origin(src_extents)?)
}

/// The coordinate tuple for `layout.offset` on a layout of `rank` top-level modes.
pub fn coord_tuple(layout: &Layout<SymExpr>, coords: &[SymExpr]) -> Tuple<SymExpr> {
    match layout.shape() {
        Tuple::Int(_) if coords.len() == 1 => Tuple::Int(coords[0].clone()),
        _ => Tuple::Tuple(coords.iter().cloned().map(Tuple::Int).collect()),
    }
}

/// The offset of constant coordinates, when the algebra gives a constant.
pub fn constant_offset(layout: &Layout<SymExpr>, coords: &[i64]) -> Result<Option<i64>, AlgebraError> {
    let values: Vec<SymExpr> = coords.iter().map(|c| SymExpr::Const(*c)).collect();
    let offset = layout.crd_to_offset(&coord_tuple(layout, &values))?;
    Ok(offset.as_constant())
}

/// Compares a declared layout with the algebra's: `Err(leaf description)` at the first
/// static leaf of `declared` that the algebra contradicts or cannot prove.
pub fn check_declared(declared: &Layout<SymExpr>, expected: &Layout<SymExpr>) -> Result<(), LoweringError> {
    for (what, d, e) in [
        ("origin", declared.origin(), expected.origin()),
        ("shape", declared.shape(), expected.shape()),
        ("stride", declared.stride(), expected.stride()),
    ] {
        if !d.congruent(e) {
            return Err(LoweringError::Contract(format!("the {what} has the structure {d} but the tile's is {e}")));
        }
        for (i, (dl, el)) in d.leaves().iter().zip(e.leaves()).enumerate() {
            if let Some(dv) = dl.as_constant() {
                match el.as_constant() {
                    Some(ev) if ev == dv => {}
                    Some(ev) => {
                        return Err(LoweringError::Contract(format!("{what} leaf {i} is {dv} but the tile's is {ev}")))
                    }
                    None => {
                        return Err(LoweringError::Contract(format!(
                            "{what} leaf {i} is declared {dv} but it is dynamic ({el}; c<i> = coordinate i, p<i> = parent leaf i)"
                        )))
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
        let LoweringError::Contract(claim) = claim else { panic!("not a contract error: {claim:?}") };
        assert!(claim.contains("declared 32 but it is dynamic"), "{claim}");
        let wrong = check_declared(&declared("((16,2),(16,3)):((16,256),(1,768))", "(?,?)"), &tile).unwrap_err();
        assert_eq!(wrong.to_string(), "stride leaf 3 is 768 but the tile's is 1792");
        assert!(check_declared(&declared("(32,48):(16,1)", "(?,?)"), &tile).is_err());
    }

    /// A tile of a tile sits at the sum of the corners; its layout keeps the root's strides and
    /// is clipped by the parent tile's origin at the local corner.
    #[test]
    fn tile_of_a_tile_adds_the_corners() {
        let root = TensorType::new("f16", "gm", "ND", "(64,64)").resolve().unwrap();
        let zero = [SymExpr::Const(0), SymExpr::Const(0)];
        let t1 = tile_of(&root.layout, &zero, &[48, 32], &[SymExpr::Const(16), SymExpr::Const(32)]).unwrap();
        assert_eq!(t1.corner, [SymExpr::Const(16), SymExpr::Const(32)]);
        let i = SymExpr::sym("i");
        let t2 = tile_of(&t1.layout, &t1.corner, &[32, 16], &[i.clone(), SymExpr::Const(16)]).unwrap();
        assert_eq!(t2.corner[1], SymExpr::Const(48));
        assert_eq!(t2.corner[0], SymExpr::bin(layout_algebra::sym::BinOp::Add, &i, &SymExpr::Const(16)).unwrap());
        // A chain of tiles at the same dynamic coordinate: the corner stays `n·i + c`.
        let t3 = tile_of(&t2.layout, &t2.corner, &[16, 16], &[i.clone(), SymExpr::Const(0)]).unwrap();
        assert_eq!(t3.corner[0].to_string(), "2 * i + 16");
        let (layout, origin) = layout_strings(&t2.layout);
        assert_eq!(layout, "(32,16):(64,1)");
        assert_eq!(origin, "(?,16)");
        assert_eq!(t2.layout.origin().leaves()[0].to_string(), "min(32, max(48 - i, 0))");
        let rank = tile_of(&t1.layout, &t1.corner, &[32], &[i]).unwrap_err();
        assert!(
            matches!(rank, LoweringError::Algebra(AlgebraError::Incompatible { what: "tile_layout", .. })),
            "{rank:?}"
        );
    }

    /// The shared handler on IR values: constants become constants, only the dynamic
    /// coordinate asks the lowering for its symbol, a tile of a tile sits at the sum of the
    /// corners, and a declared type the algebra contradicts is an error.
    #[test]
    fn lower_tile_reads_the_coordinates_and_places_a_tile_of_a_tile() {
        use melior::ir::{block::BlockLike, operation::OperationLike, RegionLike};
        let context = layout_dialect::create_context().unwrap();
        let source = "func.func @f(%i: index) {\n  %c16 = arith.constant 16 : index\n  %c32 = arith.constant 32 : index\n  return\n}";
        let module = layout_dialect::parse_source(&context, source).expect("parse");
        let func = module.body().first_operation().expect("func");
        let body = func.region(0).unwrap().first_block().unwrap();
        let i: Value = body.argument(0).unwrap().into();
        let c16: Value = body.first_operation().unwrap().result(0).unwrap().into();
        let c32: Value = body.first_operation().unwrap().next_in_block().unwrap().result(0).unwrap().into();
        let root = TensorType::new("f16", "gm", "ND", "(64,64)").resolve().unwrap();
        let zero = [SymExpr::Const(0), SymExpr::Const(0)];
        let asked = std::cell::RefCell::new(Vec::new());
        let symbol = |k: usize, _: Value| {
            asked.borrow_mut().push(k);
            SymExpr::sym("x")
        };
        let (t1, local) = lower_tile(&root.layout, &zero, &[48, 32], [c16, c32], &symbol, None).unwrap();
        assert_eq!(local, [SymExpr::Const(16), SymExpr::Const(32)]);
        let (t2, local) = lower_tile(&t1.layout, &t1.corner, &[32, 16], [i, c16], &symbol, None).unwrap();
        assert_eq!(*asked.borrow(), [0], "only the dynamic coordinate gets a symbol");
        assert_eq!(local, [SymExpr::sym("x"), SymExpr::Const(16)]);
        assert_eq!(t2.corner[0].to_string(), "x + 16");
        assert_eq!(t2.corner[1], SymExpr::Const(48));
        // Row x + 16 + 1, column 48 + 2 of the root: (x + 17) * 64 + 50.
        let offset = address(&t2.layout, &t2.corner, &[SymExpr::Const(1), SymExpr::Const(2)], "t2").unwrap();
        let at = |x: i64| offset.eval(&[("x".into(), x)].into_iter().collect()).unwrap();
        assert_eq!((at(0), at(5)), (17 * 64 + 50, 22 * 64 + 50));
        let declared = TensorType::new("f16", "gm", "(32,16):(32,1)", "(?,16)").resolve().unwrap();
        let wrong = lower_tile(&t1.layout, &t1.corner, &[32, 16], [i, c16], &symbol, Some(&declared.layout));
        assert_eq!(
            wrong.unwrap_err().to_string(),
            "layout.tile: the result type disagrees with the layout algebra: stride leaf 0 is 32 but the tile's is 64"
        );
        let rank = lower_tile(&t1.layout, &t1.corner, &[32], [i], &symbol, None).unwrap_err();
        assert!(rank.to_string().contains("1 coordinates and 1 extents for a parent with 2 origin extents"), "{rank}");
    }

    /// A tile of a batch form is copied as its matrix at the batch offset; other layouts as
    /// they are; a batch of several matrices is a contract error.
    #[test]
    fn matrix_view_of_a_batch_tile() {
        let root = TensorType::new("f16", "gm", "ND", "(3,40,70)").resolve().unwrap();
        assert!(is_batch_form(&root.layout));
        let zero = [SymExpr::Const(0), SymExpr::Const(0), SymExpr::Const(0)];
        let b = SymExpr::sym("b");
        let local = [b.clone(), SymExpr::Const(16), SymExpr::Const(64)];
        let t = tile_of(&root.layout, &zero, &[1, 32, 16], &local).unwrap();
        let view = matrix_view(&t.layout, &t.corner).unwrap();
        assert_eq!(view.offset.to_string(), "b * 2800");
        assert_eq!(view.corner, [SymExpr::Const(16), SymExpr::Const(64)]);
        assert_eq!(layout_strings(&view.layout).0, "(32,16):(70,1)");
        assert_eq!(view.layout.origin().leaves()[1].to_string(), "6 * min(1, max(3 - b, 0))");
        let matrix = TensorType::new("f16", "gm", "ND", "(40,70)").resolve().unwrap();
        assert!(!is_batch_form(&matrix.layout));
        let same = matrix_view(&matrix.layout, &zero[..2]).unwrap();
        assert_eq!((same.layout, same.offset), (matrix.layout.clone(), SymExpr::Const(0)));
        let whole = matrix_view(&root.layout, &zero).unwrap_err();
        assert!(whole.to_string().contains("a batch form of 3 matrices is copied"), "{whole}");
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
