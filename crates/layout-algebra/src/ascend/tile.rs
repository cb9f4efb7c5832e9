//! Tile layouts: catlass TLA `GetTileLayout(layout, tileShape, coord)`, docs/layout-spec.md §B.6.

use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};
use crate::int_tuple::Tuple;
use crate::layout::Layout;

fn pair<T>(a: Tuple<T>, b: Tuple<T>) -> Tuple<T> {
    Tuple::Tuple(vec![a, b])
}

/// The integer inner extent `mode[0]` of a mode (`get<k,0>`; an integer mode is its own inner
/// extent, as `get<0>(int)` in catlass).
fn inner_extent<T: IndexValue>(mode: &Tuple<T>, which: usize) -> Result<&T> {
    mode.get(0)?.as_int().ok_or_else(|| AlgebraError::Incompatible {
        what: "tile_layout",
        detail: format!(
            "inner extent of mode {which} of the parent shape must be an integer, got {}",
            mode.get(0).map(|m| m.to_string()).unwrap_or_default()
        ),
    })
}

/// The parent origin as one extent per top-level mode.
fn origin_extents<T: IndexValue>(parent: &Layout<T>) -> Result<Vec<T>> {
    let bad = || AlgebraError::Incompatible {
        what: "tile_layout",
        detail: format!(
            "the parent origin {} must have one integer extent per top-level mode (batch forms: a rank-3 tile)",
            parent.origin()
        ),
    };
    match parent.origin() {
        Tuple::Int(o) => Ok(vec![o.clone()]),
        Tuple::Tuple(os) => os.iter().map(|o| o.as_int().cloned().ok_or_else(bad)).collect(),
    }
}

/// The layout of a tile of `parent` (catlass TLA `GetTileLayout`, docs/layout-spec.md §B.6): the tile of
/// shape `tile_shape` (elements) whose top-left corner is at `coord` (elements, in the
/// parent's logical space — not a tile index). Both are flat and of equal rank R.
///
/// * stride: inherited, `D' = D` (the memory is the parent's);
/// * origin: clipped to the parent's valid extent, `O'[k] = min(t[k], max(O[k] − c[k], 0))`;
/// * shape (never depends on `coord`):
///   * depth(parent) ≤ 1: `S' = t` (R must equal the parent rank);
///   * depth > 1 (R must be 2, `(rows, cols) = t`):
///     * `rank(S[0]) == 1 && rank(S[1]) == 2` (MX scale A): `S' = (rows, (C0, ceil(cols/C0)))`,
///       `C0 = S[1][0]`;
///     * `rank(S[0]) == 2 && rank(S[1]) == 1` (MX scale B): `S' = ((C0, ceil(rows/C0)), cols)`,
///       `C0 = S[0][0]`;
///     * otherwise `S' = ((S[0][0], ceil(rows/S[0][0])), (S[1][0], ceil(cols/S[1][0])))`.
///
/// The tile layout is applied to **parent (global) coordinates**: element `coord + local` of the
/// tile is at `tile.crd_to_offset(coord + local)`, equal to the parent's offset there, aligned
/// origin or not (the last sub-mode takes the unreduced quotient). Fractal-aligned origins are
/// an unchecked precondition of cube data movement (docs/layout-spec.md §B.7), not of this function.
///
/// Batch forms (`(B, L)` with origin `(b, (rows, cols))`, §A.4) take a rank-3 `(batch, rows,
/// cols)` tile and give a batch form: the batch mode tiled as a flat mode, `L` as above; a batch
/// extent of 1 selects one matrix.
///
/// Generic: with symbolic `coord` (and constant parent and tile shape) the stride and shape stay
/// constants and only the origin is symbolic, `min(t, max(O - c, 0))`.
///
/// Example: parent zN fp16 100×100 `((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)`,
/// `t = (32,48)`, `c = (96,96)` → `((16,2),(16,3)):((16,256),(1,1792)) origin (4,4)`;
/// `c = (8,40)` → origin `(32,48)`; `c = (100,0)` → origin `(0,48)`.
///
/// Errors: `t` and `c` of different or zero rank; a static tile extent ≤ 0 or coordinate < 0;
/// rank mismatch with a depth-1 parent; R ≠ 2 for a deeper parent (R ≠ 3 for a batch form); a
/// parent whose inner extents are not integers; a result shape not congruent
/// with the inherited stride.
pub fn tile_layout<T: IndexValue>(parent: &Layout<T>, tile_shape: &[T], coord: &[T]) -> Result<Layout<T>> {
    let r = tile_shape.len();
    if r == 0 || coord.len() != r {
        return Err(AlgebraError::Incompatible {
            what: "tile_layout",
            detail: format!(
                "tile shape has rank {r} and coordinate rank {}; both must have the same positive rank",
                coord.len()
            ),
        });
    }
    for t in tile_shape {
        if let Some(v) = t.as_constant() {
            if v <= 0 {
                return Err(AlgebraError::NotPositive { what: "tile extent", value: v.to_string() });
            }
        }
    }
    for c in coord {
        if let Some(v) = c.as_constant() {
            if v < 0 {
                return Err(AlgebraError::Incompatible {
                    what: "tile_layout",
                    detail: format!("tile coordinate must be non-negative, got {v}"),
                });
            }
        }
    }

    if let Some((batch, matrix)) = batch_parts(parent, r)? {
        return tile_batched(&batch, &matrix, tile_shape, coord);
    }

    let shape = parent.shape();
    let depth = parent.depth();
    let new_shape = if depth <= 1 {
        if parent.rank() != r {
            return Err(AlgebraError::Incompatible {
                what: "tile_layout",
                detail: format!("tile shape has rank {r} but the parent {} has rank {}", shape, parent.rank()),
            });
        }
        match shape {
            Tuple::Int(_) => Tuple::Int(tile_shape[0].clone()),
            Tuple::Tuple(_) => Tuple::Tuple(tile_shape.iter().cloned().map(Tuple::Int).collect()),
        }
    } else {
        if r != 2 || parent.rank() != 2 {
            return Err(AlgebraError::Incompatible {
                what: "tile_layout",
                detail: format!(
                    "a nested parent needs rank 2 and a (rows, cols) tile; parent {} has rank {}, tile rank {r}",
                    shape,
                    parent.rank()
                ),
            });
        }
        let (rows, cols) = (&tile_shape[0], &tile_shape[1]);
        let (s0, s1) = (shape.get(0)?, shape.get(1)?);
        match (s0.rank(), s1.rank()) {
            (1, 2) => {
                let c0 = inner_extent(s1, 1)?;
                pair(Tuple::Int(rows.clone()), pair(Tuple::Int(c0.clone()), Tuple::Int(cols.ceil_div(c0)?)))
            }
            (2, 1) => {
                let c0 = inner_extent(s0, 0)?;
                pair(pair(Tuple::Int(c0.clone()), Tuple::Int(rows.ceil_div(c0)?)), Tuple::Int(cols.clone()))
            }
            _ => {
                let (i0, i1) = (inner_extent(s0, 0)?, inner_extent(s1, 1)?);
                pair(
                    pair(Tuple::Int(i0.clone()), Tuple::Int(rows.ceil_div(i0)?)),
                    pair(Tuple::Int(i1.clone()), Tuple::Int(cols.ceil_div(i1)?)),
                )
            }
        }
    };

    let origin = origin_extents(parent)?;
    if origin.len() != r {
        return Err(AlgebraError::Incompatible {
            what: "tile_layout",
            detail: format!("the parent origin {} has {} extents, the tile rank is {r}", parent.origin(), origin.len()),
        });
    }
    let zero = T::constant(0);
    let clipped = origin
        .iter()
        .zip(tile_shape.iter().zip(coord))
        .map(|(o, (t, c))| t.min(&o.sub(c)?.max(&zero)?))
        .collect::<Result<Vec<T>>>()?;
    let new_origin = match parent.origin() {
        Tuple::Int(_) => Tuple::Int(clipped[0].clone()),
        Tuple::Tuple(_) => Tuple::Tuple(clipped.into_iter().map(Tuple::Int).collect()),
    };
    Layout::with_origin(new_shape, parent.stride().clone(), new_origin)
}

/// A batch-form parent `(B, L)` with origin `(b, (rows, cols))` (docs/layout-spec.md §A.4)
/// tiled with a rank-3 `(batch, rows, cols)` tile: its batch mode and its matrix `L` (with the
/// matrix origin), or `None` for any other parent or tile rank.
fn batch_parts<T: IndexValue>(parent: &Layout<T>, r: usize) -> Result<Option<(Layout<T>, Layout<T>)>> {
    let Tuple::Tuple(origins) = parent.origin() else { return Ok(None) };
    if r != 3
        || parent.rank() != 2
        || origins.len() != 2
        || origins[0].as_int().is_none()
        || origins[1].as_int().is_some()
    {
        return Ok(None);
    }
    let batch = parent.mode(0)?;
    let (s, d) = (parent.shape().get(1)?.clone(), parent.stride().get(1)?.clone());
    Ok(Some((batch, Layout::with_origin(s, d, origins[1].clone())?)))
}

/// A tile of a batch-form parent: the batch mode is tiled as a flat mode (stride inherited,
/// origin clipped), the matrix as [`tile_layout`] tiles a matrix. The result is again a batch
/// form `(t0, L'):(D0, D')` origin `(b', O')`, applied to parent coordinates `(b, (r, c))`.
fn tile_batched<T: IndexValue>(
    batch: &Layout<T>,
    matrix: &Layout<T>,
    tile_shape: &[T],
    coord: &[T],
) -> Result<Layout<T>> {
    let b = tile_layout(batch, &tile_shape[..1], &coord[..1])?;
    let m = tile_layout(matrix, &tile_shape[1..], &coord[1..])?;
    Layout::with_origin(
        pair(b.shape().clone(), m.shape().clone()),
        pair(b.stride().clone(), m.stride().clone()),
        pair(b.origin().clone(), m.origin().clone()),
    )
}

/// One matrix of a batch-form tile of batch extent 1 (`(1, L):(D0, D')` origin `(ob, O)`,
/// [`tile_layout`] of a batch form): the matrix `L` at the element offset of batch coordinate
/// `batch` (`crd_to_offset` of the batch mode, `batch·D0`), applied to the matrix coordinates
/// `(r, c)` of the parent as the tile is. The batch origin `ob = min(1, max(B − b, 0))` guards the
/// matrix: its origin is `O·ob`, empty when `b` is past the last matrix, so nothing outside the
/// batch is read or written through it.
///
/// Errors: a layout that is not a batch form, or a batch extent other than the constant 1 (a
/// tile of several matrices has no single matrix).
pub fn batch_matrix<T: IndexValue>(tile: &Layout<T>, batch: &T) -> Result<(Layout<T>, T)> {
    let not_batch = |why: &str| AlgebraError::Incompatible {
        what: "batch_matrix",
        detail: format!("{tile} is not one matrix of a batch form: {why}"),
    };
    let Tuple::Tuple(origins) = tile.origin() else { return Err(not_batch("its origin is an integer")) };
    let (batch_origin, matrix_origin) = match origins.as_slice() {
        [Tuple::Int(b), m @ Tuple::Tuple(_)] if tile.rank() == 2 => (b, m),
        _ => return Err(not_batch("the origin is not (batch, (rows, cols))")),
    };
    let batch_mode = tile.mode(0)?;
    if batch_mode.shape().as_int().and_then(IndexValue::as_constant) != Some(1) {
        return Err(not_batch(&format!("the batch extent is {}, not 1", batch_mode.shape())));
    }
    let offset = batch_mode.crd_to_offset(&Tuple::Int(batch.clone()))?;
    let guarded = matrix_origin.map(&mut |o: &T| o.mul(batch_origin))?;
    let matrix = Layout::with_origin(tile.shape().get(1)?.clone(), tile.stride().get(1)?.clone(), guarded)?;
    Ok((matrix, offset))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ascend::{frame, ElementType, FramePattern};
    use crate::parse::{parse_int_tuple, parse_layout};
    use crate::sym::SymExpr;

    fn t(s: &str) -> Tuple<i64> {
        parse_int_tuple(s).unwrap()
    }

    fn tile(parent: &str, ts: &[i64], c: &[i64]) -> String {
        tile_layout(&parse_layout(parent).unwrap(), ts, c).unwrap().to_string()
    }

    #[test]
    fn spec_b6_examples() {
        assert_eq!(
            tile("((4,2),(4,3)):((4,16),(1,32)) origin (8,12)", &[4, 4], &[6, 10]),
            "((4,1),(4,1)):((4,16),(1,32)) origin (2,2)"
        );
        let zn = frame(FramePattern::NZ, ElementType::F16, &[100, 100]).unwrap();
        let at = |c: &[i64]| tile_layout(&zn, &[32, 48], c).unwrap();
        assert_eq!(at(&[96, 96]).to_string(), "((16,2),(16,3)):((16,256),(1,1792)) origin (4,4)");
        assert_eq!(at(&[8, 40]).origin(), &t("(32,48)"));
        assert_eq!(at(&[8, 40]).shape(), &t("((16,2),(16,3))"));
        assert_eq!(at(&[100, 0]).origin(), &t("(0,48)"));
        assert_eq!(at(&[500, 500]).origin(), &t("(0,0)"));
        // RowMajor (8,16): GetTile(t, coord (6,10), shape (4,8)) -> origin (2,6)
        let rm = frame(FramePattern::ND, ElementType::F16, &[8, 16]).unwrap();
        let tl = tile_layout(&rm, &[4, 8], &[6, 10]).unwrap();
        assert_eq!(tl.to_string(), "(4,8):(16,1) origin (2,6)");
    }

    #[test]
    fn mx_scale_shapes() {
        // catlass MakeMxScaleLayout RowMajor A (32 x 10): (rows,(2,ceil(cols/2))):(RoundUp(cols,2),(1,2))
        assert_eq!(tile("(32,(2,5)):(10,(1,2))", &[16, 6], &[16, 4]), "(16,(2,3)):(10,(1,2))"); // origin (16,6) = default, not printed
        assert_eq!(tile("(32,(2,5)):(10,(1,2))", &[16, 5], &[20, 8]), "(16,(2,3)):(10,(1,2)) origin (12,2)");
        // RowMajor B (10 x 32): ((2,ceil(rows/2)),cols):((1,cols*2),2)
        assert_eq!(tile("((2,5),32):((1,64),2)", &[4, 16], &[8, 0]), "((2,2),16):((1,64),2) origin (2,16)");
        assert_eq!(tile("((2,5),32):((1,64),2)", &[3, 16], &[0, 0]), "((2,2),16):((1,64),2) origin (3,16)");
    }

    /// A tile of a batch form selects matrices: every element of the tile, at parent coordinates
    /// `(b, (r, c))`, has the parent's offset there (brute force), and the origin is clipped.
    #[test]
    fn batch_forms_tile_per_matrix() {
        for (pattern, dims, ts, c) in [
            (FramePattern::ND, [3i64, 50, 70], [1i64, 32, 32], [2i64, 32, 64]),
            (FramePattern::ND, [3, 50, 70], [2, 16, 8], [1, 0, 8]),
            (FramePattern::NZ, [2, 100, 100], [1, 32, 48], [1, 96, 96]),
        ] {
            let parent = frame(pattern, ElementType::F16, &dims).unwrap();
            let tl = tile_layout(&parent, &ts, &c).unwrap();
            let want_origin = (0..3).map(|k| ts[k].min((dims[k] - c[k]).max(0))).collect::<Vec<_>>();
            assert_eq!(tl.origin(), &t(&format!("({},({},{}))", want_origin[0], want_origin[1], want_origin[2])));
            for b in 0..want_origin[0] {
                for i in 0..want_origin[1] {
                    for j in 0..want_origin[2] {
                        let crd = t(&format!("({},({},{}))", c[0] + b, c[1] + i, c[2] + j));
                        assert_eq!(tl.crd_to_offset(&crd).unwrap(), parent.crd_to_offset(&crd).unwrap());
                    }
                }
            }
        }
        let nd = frame(FramePattern::ND, ElementType::F16, &[3, 50, 70]).unwrap();
        assert_eq!(
            tile("(3,(50,70)):(3500,(70,1)) origin (3,(50,70))", &[1, 32, 32], &[2, 32, 64]),
            tile_layout(&nd, &[1, 32, 32], &[2, 32, 64]).unwrap().to_string()
        );
        assert_eq!(
            tile_layout(&nd, &[1, 32, 32], &[2, 32, 64]).unwrap().to_string(),
            "(1,(32,32)):(3500,(70,1)) origin (1,(18,6))"
        );
        assert_eq!(tile_layout(&nd, &[1, 32, 32], &[3, 0, 0]).unwrap().origin(), &t("(0,(32,32))"));
    }

    #[test]
    fn coordinate_never_changes_shape_or_stride() {
        let zn = frame(FramePattern::ZN, ElementType::F32, &[100, 60]).unwrap();
        let first = tile_layout(&zn, &[24, 40], &[0, 0]).unwrap();
        for c in [[0i64, 0], [8, 16], [99, 59], [1000, 3], [5, 7]] {
            let l = tile_layout(&zn, &[24, 40], &c).unwrap();
            assert_eq!((l.shape(), l.stride()), (first.shape(), first.stride()));
        }
    }

    #[test]
    fn rank_one_and_flat_parents() {
        assert_eq!(tile("100:1", &[32], &[80]), "32:1 origin 20");
        assert_eq!(tile("(100):(1)", &[32], &[10]), "(32):(1)");
        assert_eq!(tile("(4,5,6):(30,6,1)", &[2, 2, 4], &[3, 4, 3]), "(2,2,4):(30,6,1) origin (1,1,3)");
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let zn = frame(FramePattern::NZ, ElementType::F16, &[100, 100]).unwrap();
        assert!(tile_layout(&zn, &[32], &[0]).is_err());
        assert!(tile_layout(&zn, &[32, 32], &[0]).is_err());
        assert!(tile_layout::<i64>(&zn, &[], &[]).is_err());
        assert!(matches!(tile_layout(&zn, &[0, 32], &[0, 0]), Err(AlgebraError::NotPositive { .. })));
        assert!(tile_layout(&zn, &[16, 32], &[-1, 0]).is_err());
        assert!(tile_layout(&zn, &[16, 32, 4], &[0, 0, 0]).is_err());
        let batched = frame(FramePattern::NZ, ElementType::F16, &[2, 100, 100]).unwrap();
        assert!(tile_layout(&batched, &[16, 16], &[0, 0]).is_err());
        assert!(tile_layout(&batched, &[1, 16, 16, 1], &[0, 0, 0, 0]).is_err());
        assert!(tile_layout(&parse_layout("(4,5):(5,1)").unwrap(), &[2, 2, 2], &[0, 0, 0]).is_err());
        // a nested parent whose modes do not have two sub-modes: shape not congruent with stride
        assert!(tile_layout(&parse_layout("((4,2,2),(4,3)):((4,16,32),(1,64))").unwrap(), &[4, 4], &[0, 0]).is_err());
        assert!(tile_layout(&parse_layout("(((2,2),2),(4,3)):(((4,8),16),(1,64))").unwrap(), &[4, 4], &[0, 0]).is_err());
        let huge = parse_layout("(4,5):(5,1)").unwrap();
        assert!(tile_layout(&huge, &[2, 2], &[i64::MIN + 1, 0]).is_err());
    }

    #[test]
    fn symbolic_coordinate_leaves_only_the_origin_symbolic() {
        let zn = frame(FramePattern::NZ, ElementType::F16, &[100, 100]).unwrap();
        let to_sym = |x: &Tuple<i64>| x.map(&mut |v: &i64| Ok::<_, AlgebraError>(SymExpr::Const(*v))).unwrap();
        let parent = Layout::with_origin(to_sym(zn.shape()), to_sym(zn.stride()), to_sym(zn.origin())).unwrap();
        let c = [SymExpr::sym("i"), SymExpr::sym("j")];
        let l = tile_layout(&parent, &[SymExpr::Const(32), SymExpr::Const(48)], &c).unwrap();
        assert!(l.shape().leaves().iter().chain(l.stride().leaves().iter()).all(|v| v.as_constant().is_some()));
        assert_eq!(l.shape(), &to_sym(&t("((16,2),(16,3))")));
        assert_eq!(
            l.stride(),
            zn.stride().map(&mut |v: &i64| Ok::<_, AlgebraError>(SymExpr::Const(*v))).as_ref().unwrap()
        );
        assert_eq!(l.origin().to_string(), "(min(32, max(100 - i, 0)),min(48, max(100 - j, 0)))");
    }

    /// The matrix of a batch tile at batch `b` has the parent's offset at `(b, (r, c))` for
    /// every valid element, and no valid element once `b` is past the batch (brute force).
    #[test]
    fn batch_matrix_is_the_parent_at_the_batch() {
        for pattern in [FramePattern::ND, FramePattern::DN, FramePattern::NZ] {
            let parent = frame(pattern, ElementType::F16, &[3, 40, 70]).unwrap();
            for (b, r, c) in [(0i64, 0i64, 0i64), (1, 16, 32), (2, 32, 64), (3, 0, 0)] {
                let tl = tile_layout(&parent, &[1, 16, 32], &[b, r, c]).unwrap();
                let (matrix, offset) = batch_matrix(&tl, &b).unwrap();
                let o = matrix.origin().leaves();
                let want = |t: i64, e: i64, x: i64| if b < 3 { t.min((e - x).max(0)) } else { 0 };
                assert_eq!((o[0], o[1]), (want(16, 40, r), want(32, 70, c)), "{pattern:?} {b}");
                for i in 0..o[0] {
                    for j in 0..o[1] {
                        let crd = t(&format!("({},({},{}))", b, r + i, c + j));
                        let local = t(&format!("({},{})", r + i, c + j));
                        assert_eq!(offset + matrix.crd_to_offset(&local).unwrap(), parent.crd_to_offset(&crd).unwrap());
                    }
                }
            }
        }
        let sym = SymExpr::sym("b");
        let nd = frame(FramePattern::ND, ElementType::F16, &[3, 40, 70]).unwrap();
        let to_sym = |x: &Tuple<i64>| x.map(&mut |v: &i64| Ok::<_, AlgebraError>(SymExpr::Const(*v))).unwrap();
        let parent = Layout::with_origin(to_sym(nd.shape()), to_sym(nd.stride()), to_sym(nd.origin())).unwrap();
        let ts = [SymExpr::Const(1), SymExpr::Const(16), SymExpr::Const(32)];
        let tl = tile_layout(&parent, &ts, &[sym.clone(), SymExpr::Const(0), SymExpr::Const(0)]).unwrap();
        let (matrix, offset) = batch_matrix(&tl, &sym).unwrap();
        assert_eq!(offset.to_string(), "b * 2800");
        assert_eq!(matrix.origin().leaves()[0].to_string(), "16 * min(1, max(3 - b, 0))");
        assert!(batch_matrix(&tile_layout(&nd, &[2, 16, 32], &[0, 0, 0]).unwrap(), &0).is_err());
        assert!(batch_matrix(&tile_layout(&nd, &[1, 16, 32], &[0, 0, 0]).unwrap().mode(1).unwrap(), &0).is_err());
        let plain = frame(FramePattern::ND, ElementType::F16, &[40, 70]).unwrap();
        assert!(batch_matrix(&plain, &0).is_err());
    }
}
