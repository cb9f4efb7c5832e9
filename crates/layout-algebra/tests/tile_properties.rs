//! Properties of `tile_layout` (catlass `GetTileLayout`, docs/layout-spec.md §B.6) on random parents, tiles and
//! coordinates, and agreement of its symbolic form with the concrete one.

use std::collections::HashMap;

use layout_algebra::ascend::{frame_layout, tile_layout, FramePattern};
use layout_algebra::{IndexValue, IntTuple, Layout, SymExpr, Tuple};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

use FramePattern::*;

fn pt(i: i64, j: i64) -> IntTuple {
    IntTuple::Tuple(vec![IntTuple::Int(i), IntTuple::Int(j)])
}

/// A random parent: a frame pattern (C0, logical rows/cols respecting its preconditions) or
/// one of the catlass MX scale layouts whose modes have different ranks. Returns a label, the
/// logical rows and cols, and the layout (origin = rows, cols).
fn random_parent(rng: &mut Rng) -> (String, i64, i64, Layout) {
    let mut m = 1 + rng.below(150);
    let mut n = 1 + rng.below(150);
    match rng.below(8) {
        0 => {
            // catlass MakeMxScaleLayout RowMajor A: (rows,(2,ceil(cols/2))):(RoundUp(cols,2),(1,2))
            let l = Layout::with_origin(
                IntTuple::Tuple(vec![IntTuple::Int(m), pt(2, (n + 1) / 2)]),
                IntTuple::Tuple(vec![IntTuple::Int((n + 1) / 2 * 2), pt(1, 2)]),
                pt(m, n),
            )
            .unwrap();
            return ("mx-scale-A".into(), m, n, l);
        }
        1 => {
            // catlass MakeMxScaleLayout RowMajor B: ((2,ceil(rows/2)),cols):((1,cols*2),2)
            let l = Layout::with_origin(
                IntTuple::Tuple(vec![pt(2, (m + 1) / 2), IntTuple::Int(n)]),
                IntTuple::Tuple(vec![pt(1, n * 2), IntTuple::Int(2)]),
                pt(m, n),
            )
            .unwrap();
            return ("mx-scale-B".into(), m, n, l);
        }
        _ => {}
    }
    let p = rng.pick(&[NZ, ZN, ZZ, NN, L0C, ND, DN, NDExt, DNExt, ScaleAND, ScaleADN, ScaleBND, ScaleBDN]);
    let c0 = match p {
        NZ | ZN | ZZ => rng.pick(&[4, 8, 16, 32, 64]),
        NN => rng.pick(&[2, 8, 16]),
        L0C => 16,
        ScaleAND | ScaleADN | ScaleBND | ScaleBDN => 2,
        _ => 1,
    };
    if (p == NN && c0 == 2) || p == ScaleBND {
        m += m % 2;
    }
    if p == ScaleADN {
        n += n % 2;
    }
    let l = frame_layout(p, c0, &[m, n]).unwrap();
    (format!("{p} C0={c0}"), m, n, l)
}

#[test]
fn tiles_address_like_the_parent_and_clip_the_origin() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..1500 {
        let (p, m, n, parent) = random_parent(&mut rng);
        let ts = [1 + rng.below(70), 1 + rng.below(70)];
        let c = [rng.below(m + 20), rng.below(n + 20)];
        let tile = tile_layout(&parent, &ts, &c).unwrap();
        let ctx = format!("{p} {m}x{n} parent {parent} tile {ts:?} at {c:?} -> {tile}");

        // stride inherited
        assert_eq!(tile.stride(), parent.stride(), "{ctx}");
        // origin = brute-force count of valid rows / cols of the tile window
        let valid_rows = (c[0]..c[0] + ts[0]).filter(|r| *r < m).count() as i64;
        let valid_cols = (c[1]..c[1] + ts[1]).filter(|k| *k < n).count() as i64;
        assert_eq!(tile.origin(), &pt(valid_rows, valid_cols), "{ctx}");
        // the shape covers the tile: every top-level mode has at least t elements
        for (k, t) in ts.iter().enumerate() {
            let mode = tile.shape().get(k).unwrap().size().unwrap();
            assert!(mode >= *t, "{ctx}");
        }
        // inner extents are the parent's
        for k in 0..2 {
            let pm = parent.shape().get(k).unwrap();
            let tm = tile.shape().get(k).unwrap();
            if !pm.is_int() {
                assert_eq!(pm.get(0).unwrap(), tm.get(0).unwrap(), "{ctx}");
            }
        }
        // every valid element, addressed with global coordinates, is where the parent puts it
        for a in 0..valid_rows {
            for b in 0..valid_cols {
                let g = pt(c[0] + a, c[1] + b);
                assert_eq!(tile.crd_to_offset(&g).unwrap(), parent.crd_to_offset(&g).unwrap(), "{ctx} local ({a},{b})");
            }
        }
        // the coordinate never influences the shape
        let other = tile_layout(&parent, &ts, &[0, 0]).unwrap();
        assert_eq!(other.shape(), tile.shape(), "{ctx}");
    }
}

#[test]
fn aligned_origins_also_work_with_local_coordinates() {
    // At an origin aligned to the inner block, pointer shift + local coordinates (AscendC Te
    // Slice style) agrees with global addressing.
    let mut rng = Rng(42);
    for _ in 0..600 {
        let (p, m, n, parent) = random_parent(&mut rng);
        let unit = |k: usize| match parent.shape().get(k).unwrap() {
            Tuple::Int(_) => 1,
            t => *t.get(0).unwrap().as_int().unwrap(),
        };
        let (u0, u1) = (unit(0), unit(1));
        let c = [rng.below(m.div_euclid(u0) + 1) * u0, rng.below(n.div_euclid(u1) + 1) * u1];
        let ts = [1 + rng.below(50), 1 + rng.below(50)];
        let tile = tile_layout(&parent, &ts, &c).unwrap();
        let base = parent.crd_to_offset(&pt(c[0], c[1])).unwrap();
        let (vr, vc) = match tile.origin() {
            Tuple::Tuple(o) => (*o[0].as_int().unwrap(), *o[1].as_int().unwrap()),
            _ => unreachable!(),
        };
        for a in 0..vr {
            for b in 0..vc {
                let global = parent.crd_to_offset(&pt(c[0] + a, c[1] + b)).unwrap();
                assert_eq!(
                    base + tile.crd_to_offset(&pt(a, b)).unwrap(),
                    global,
                    "{p} {m}x{n} at {c:?} local ({a},{b})"
                );
            }
        }
    }
}

#[test]
fn unaligned_local_addressing_is_wrong_as_the_spec_warns() {
    // docs/layout-spec.md §B.8 counterexample: zN fp16 100x100, origin (8,4), local (0,12): Te-style 132+12 = 144,
    // but the true global (8,16) is at 1920, which tile_layout with global coordinates gives.
    let parent = frame_layout(NZ, 16, &[100i64, 100]).unwrap();
    let tile = tile_layout(&parent, &[16, 16], &[8, 4]).unwrap();
    assert_eq!(parent.crd_to_offset(&pt(8, 4)).unwrap() + tile.crd_to_offset(&pt(0, 12)).unwrap(), 144);
    assert_eq!(tile.crd_to_offset(&pt(8, 16)).unwrap(), 1920);
}

fn eval_tuple(t: &Tuple<SymExpr>, env: &HashMap<String, i64>) -> IntTuple {
    t.map(&mut |e: &SymExpr| e.eval(env)).unwrap()
}

fn eval_layout(l: &Layout<SymExpr>, env: &HashMap<String, i64>) -> Layout {
    Layout::with_origin(eval_tuple(l.shape(), env), eval_tuple(l.stride(), env), eval_tuple(l.origin(), env)).unwrap()
}

fn to_sym(t: &IntTuple) -> Tuple<SymExpr> {
    t.map(&mut |v: &i64| Ok::<_, layout_algebra::AlgebraError>(SymExpr::Const(*v))).unwrap()
}

#[test]
fn symbolic_coordinates_agree_with_concrete() {
    let mut rng = Rng(7);
    let (i, j) = (SymExpr::sym("i"), SymExpr::sym("j"));
    for _ in 0..200 {
        let (p, m, n, parent) = random_parent(&mut rng);
        let sparent =
            Layout::with_origin(to_sym(parent.shape()), to_sym(parent.stride()), to_sym(parent.origin())).unwrap();
        let ts = [1 + rng.below(64), 1 + rng.below(64)];
        let st = [SymExpr::Const(ts[0]), SymExpr::Const(ts[1])];
        let tile = tile_layout(&sparent, &st, &[i.clone(), j.clone()]).unwrap();
        // dynamic coordinate: shape and stride are constants, only the origin is symbolic
        assert!(
            tile.shape().leaves().iter().chain(tile.stride().leaves().iter()).all(|v| v.as_constant().is_some()),
            "{p}: {tile}"
        );
        for _ in 0..20 {
            let c = [rng.below(m + 10), rng.below(n + 10)];
            let env = HashMap::from([("i".to_string(), c[0]), ("j".to_string(), c[1])]);
            assert_eq!(eval_layout(&tile, &env), tile_layout(&parent, &ts, &c).unwrap(), "{p} {m}x{n} {ts:?} at {c:?}");
        }
    }
}

#[test]
fn symbolic_parent_tile_and_coordinate_agree_with_concrete() {
    // everything dynamic: matrix size, tile size and coordinate
    let (m, n, tr, tc, i, j) = (
        SymExpr::sym("m"),
        SymExpr::sym("n"),
        SymExpr::sym("tr"),
        SymExpr::sym("tc"),
        SymExpr::sym("i"),
        SymExpr::sym("j"),
    );
    let mut rng = Rng(99);
    for (p, c0) in
        [(NZ, 16), (ZN, 8), (ZZ, 32), (NN, 2), (L0C, 16), (ND, 1), (DN, 1), (NDExt, 1), (ScaleADN, 2), (ScaleBND, 2)]
    {
        let sparent = frame_layout(p, c0, &[m.clone(), n.clone()]).unwrap();
        let tile = tile_layout(&sparent, &[tr.clone(), tc.clone()], &[i.clone(), j.clone()]).unwrap();
        for _ in 0..100 {
            let (mv, nv) = (2 * (1 + rng.below(70)), 2 * (1 + rng.below(70)));
            let (trv, tcv) = (1 + rng.below(60), 1 + rng.below(60));
            let (iv, jv) = (rng.below(mv + 5), rng.below(nv + 5));
            let env: HashMap<String, i64> = [("m", mv), ("n", nv), ("tr", trv), ("tc", tcv), ("i", iv), ("j", jv)]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v))
                .collect();
            let parent = frame_layout(p, c0, &[mv, nv]).unwrap();
            assert_eq!(
                eval_layout(&tile, &env),
                tile_layout(&parent, &[trv, tcv], &[iv, jv]).unwrap(),
                "{p} {mv}x{nv}"
            );
        }
    }
}

/// `clip_origin` (the `written` view of a copy): the origin becomes the leafwise minimum of the
/// old origin and the extents, and the function is unchanged on every coordinate of the shape.
#[test]
fn clip_origin_takes_the_leafwise_minimum_and_keeps_the_function() {
    let mut rng = Rng::new(61);
    for _ in 0..300 {
        let (name, m, n, l) = random_parent(&mut rng);
        let (em, en) = (rng.range(0, m + 20), rng.range(0, n + 20));
        let clipped = l.clip_origin(&[em, en]).unwrap();
        assert_eq!(clipped.origin(), &pt(m.min(em), n.min(en)), "{name}: origin of {l} clipped to ({em},{en})");
        assert_eq!((clipped.shape(), clipped.stride()), (l.shape(), l.stride()), "{name}");
        let size = l.size().unwrap();
        for i in (0..size).step_by(7) {
            assert_eq!(clipped.crd_to_offset(&IntTuple::Int(i)), l.crd_to_offset(&IntTuple::Int(i)), "{name} at {i}");
        }
    }
    let l = frame_layout(NZ, 16, &[32, 16]).unwrap();
    assert!(l.clip_origin(&[8]).is_err(), "one extent for a rank-2 origin");
}
