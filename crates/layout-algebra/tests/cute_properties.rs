//! Brute-force property tests of the CuTe algebra (`layout_algebra::cute`).
//!
//! Small random layouts come from a fixed-seed xorshift generator (no dependencies): ranks 1–3,
//! nested modes, shapes 1–6, strides 0–40 (uniform) or "structured" strides (leaves in a random
//! order, each stride a small multiple of the extent of the leaves before it, so that many
//! cases are admissible). Every function is checked on every index against its defining
//! post-condition; inadmissible arguments must give `AlgebraError::Inadmissible`, never a
//! panic. Each property also counts its admissible cases and asserts a minimum, so a generator
//! that degenerates to trivial cases makes the test fail.

use std::collections::{BTreeMap, HashSet};

use layout_algebra::cute::*;
use layout_algebra::{AlgebraError, IntTuple, Layout, Tuple};

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

// ---------------------------------------------------------------------------------------------
// generator

#[derive(Clone, Copy, PartialEq)]
enum Strides {
    Uniform,
    Structured,
    Mixed,
}

/// A random nested structure with `Int(0)` placeholders: an integer, or a tuple of 1–3 modes,
/// each a leaf or (sometimes) a tuple of 1–3 leaves / sub-tuples.
fn random_structure(rng: &mut Rng, max_rank: usize) -> IntTuple {
    fn mode(rng: &mut Rng, depth: usize) -> IntTuple {
        if depth < 2 && rng.percent(30) {
            let n = rng.range(1, 3) as usize;
            Tuple::Tuple((0..n).map(|_| mode(rng, depth + 1)).collect())
        } else {
            Tuple::Int(0)
        }
    }
    if max_rank == 1 && rng.percent(50) {
        return mode(rng, 1);
    }
    if rng.percent(15) {
        return Tuple::Int(0);
    }
    let r = rng.range(1, max_rank as i64) as usize;
    Tuple::Tuple((0..r).map(|_| mode(rng, 1)).collect())
}

fn random_layout_in(rng: &mut Rng, max_rank: usize, max_shape: i64, max_size: i64, style: Strides) -> Layout {
    loop {
        let structure = random_structure(rng, max_rank);
        let n = structure.leaf_count();
        if n > 5 {
            continue;
        }
        let shapes: Vec<i64> = (0..n).map(|_| if rng.percent(12) { 1 } else { rng.range(2, max_shape) }).collect();
        let style = match style {
            Strides::Mixed => {
                if rng.percent(50) {
                    Strides::Structured
                } else {
                    Strides::Uniform
                }
            }
            s => s,
        };
        let strides: Vec<i64> = match style {
            Strides::Uniform => (0..n).map(|_| rng.range(0, 40)).collect(),
            _ => {
                // leaves in a random order, stride = small multiple of the extent so far
                let mut order: Vec<usize> = (0..n).collect();
                for i in (1..n).rev() {
                    order.swap(i, rng.below(i as u64 + 1) as usize);
                }
                let mut st = vec![0; n];
                let mut cur = 1i64;
                for &k in &order {
                    if rng.percent(8) {
                        st[k] = 0;
                        continue;
                    }
                    let gap = [1, 1, 1, 1, 2, 3][rng.below(6) as usize];
                    st[k] = cur * gap;
                    cur = st[k] * shapes[k];
                }
                st
            }
        };
        let shape = structure.unflatten(&shapes).unwrap();
        let stride = structure.unflatten(&strides).unwrap();
        let l = Layout::new(shape, stride).unwrap();
        if l.size().unwrap() <= max_size && l.cosize().unwrap() <= 4096 {
            return l;
        }
    }
}

fn random_layout(rng: &mut Rng, style: Strides) -> Layout {
    random_layout_in(rng, 3, 6, 256, style)
}

// ---------------------------------------------------------------------------------------------
// helpers

fn at(l: &Layout, i: i64) -> i64 {
    l.crd_to_offset(&Tuple::Int(i)).unwrap_or_else(|e| panic!("{l} at {i}: {e}"))
}

fn offsets(l: &Layout) -> Vec<i64> {
    l.offsets().unwrap()
}

fn image(l: &Layout) -> HashSet<i64> {
    offsets(l).into_iter().collect()
}

fn multiset(l: &Layout) -> BTreeMap<i64, usize> {
    let mut m = BTreeMap::new();
    for o in offsets(l) {
        *m.entry(o).or_insert(0) += 1;
    }
    m
}

fn injective(l: &Layout) -> bool {
    let o = offsets(l);
    o.len() == image(l).len()
}

fn modes_of(l: &Layout) -> Vec<Layout> {
    (0..l.rank())
        .map(|i| Layout::new(l.shape().get(i).unwrap().clone(), l.stride().get(i).unwrap().clone()).unwrap())
        .collect()
}

fn same(a: &Layout, b: &Layout) -> bool {
    a.shape() == b.shape() && a.stride() == b.stride()
}

/// Inadmissible is the only acceptable failure of an algebra operation on valid inputs.
fn expect_inadmissible(what: &str, e: &AlgebraError) {
    assert!(matches!(e, AlgebraError::Inadmissible { .. }), "{what}: unexpected error {e:?}");
}

/// A random tiler for `a`: a layout, or by-mode with Keep / small layouts per mode.
fn random_tiler(rng: &mut Rng, a: &Layout) -> Tiler {
    if rng.percent(40) {
        return Tiler::Layout(random_layout_in(rng, 2, 4, 16, Strides::Mixed));
    }
    let n = rng.range(1, a.rank() as i64) as usize;
    Tiler::ByMode(
        (0..n)
            .map(|_| {
                if rng.percent(20) {
                    Tiler::Keep
                } else {
                    Tiler::Layout(random_layout_in(rng, 1, 4, 8, Strides::Mixed))
                }
            })
            .collect(),
    )
}

// ---------------------------------------------------------------------------------------------
// properties

#[test]
fn generator_is_not_trivial() {
    let mut rng = Rng::new(1);
    let (mut nested, mut ranks, mut zero, mut big) = (0, [0usize; 4], 0, 0);
    for _ in 0..1000 {
        let l = random_layout(&mut rng, Strides::Mixed);
        if l.depth() >= 2 {
            nested += 1;
        }
        ranks[l.rank().min(3)] += 1;
        if l.leaf_modes().iter().any(|&(s, d)| s > 1 && d == 0) {
            zero += 1;
        }
        if l.size().unwrap() >= 24 {
            big += 1;
        }
    }
    assert!(
        nested > 100 && ranks[1] > 100 && ranks[2] > 100 && ranks[3] > 100 && zero > 50 && big > 300,
        "{nested} {ranks:?} {zero} {big}"
    );
}

#[test]
fn coalesce_preserves_the_function() {
    let mut rng = Rng::new(11);
    let mut merged = 0;
    for _ in 0..3000 {
        let a = random_layout(&mut rng, Strides::Mixed);
        let c = coalesce(&a).unwrap();
        assert_eq!(c.size().unwrap(), a.size().unwrap(), "{a} -> {c}");
        assert!(c.depth() <= 1, "{a} -> {c}");
        assert_eq!(offsets(&c), offsets(&a), "{a} -> {c}");
        assert!(c.leaf_modes().iter().all(|&(s, _)| s != 1) || c.to_string() == "1:0", "{a} -> {c}");
        if c.leaf_modes().len() < a.leaf_modes().iter().filter(|m| m.0 != 1).count() {
            merged += 1;
        }
        // coalesce is idempotent
        assert_eq!(coalesce(&c).unwrap(), c);

        // by mode: a profile with an integer for some top-level modes
        if let Tuple::Tuple(ms) = a.shape() {
            let profile =
                Tuple::Tuple(ms.iter().map(|m| if rng.percent(50) { Tuple::Int(1) } else { m.clone() }).collect());
            let p = coalesce_by(&a, &profile).unwrap();
            assert_eq!(p.rank(), a.rank(), "{a} by {profile} -> {p}");
            assert_eq!(offsets(&p), offsets(&a), "{a} by {profile} -> {p}");
            let (am, pm) = (modes_of(&a), modes_of(&p));
            for (i, prof) in profile.modes().iter().enumerate() {
                assert_eq!(pm[i].size().unwrap(), am[i].size().unwrap());
                if prof.is_int() {
                    assert!(pm[i].depth() <= 1 && same(&pm[i], &coalesce(&am[i]).unwrap()), "{a} by {profile} -> {p}");
                }
            }
        }
    }
    assert!(merged > 150, "only {merged} layouts had mergeable modes");
}

#[test]
fn filter_keeps_the_image() {
    let mut rng = Rng::new(12);
    let mut dropped = 0;
    for _ in 0..3000 {
        let a = random_layout(&mut rng, Strides::Mixed);
        let f = filter(&a).unwrap();
        assert_eq!(image(&f), image(&a), "{a} -> {f}");
        assert!(f.depth() <= 1);
        let want: i64 = a.leaf_modes().iter().filter(|&&(s, d)| s != 1 && d != 0).map(|&(s, _)| s).product();
        assert_eq!(f.size().unwrap(), want, "{a} -> {f}");
        if f.size().unwrap() > 1 {
            assert!(f.leaf_modes().iter().all(|&(s, d)| s != 1 && d != 0), "{a} -> {f}");
        } else {
            assert_eq!(f.to_string(), "1:0");
        }
        if want < a.size().unwrap() {
            dropped += 1;
        }
    }
    assert!(dropped > 150, "only {dropped} layouts had stride-0 modes");
}

#[test]
fn composition_is_function_composition() {
    let mut rng = Rng::new(21);
    let (mut ok, mut in_domain, mut err, mut nested_results) = (0, 0, 0, 0);
    for case in 0..4000 {
        let a = random_layout_in(&mut rng, 3, 6, 128, Strides::Mixed);
        let b = if case % 2 == 0 {
            random_layout_in(&mut rng, 2, 6, 48, Strides::Structured)
        } else {
            random_layout_in(&mut rng, 2, 6, 48, Strides::Uniform)
        };
        let ca = coalesce(&a).unwrap();
        match composition(&a, &b) {
            Ok(r) => {
                ok += 1;
                assert!(compatible(b.shape(), r.shape()), "compatible({b}, {r}) for {a} ∘ {b}");
                let mut all_in = true;
                for i in 0..b.size().unwrap() {
                    let bi = at(&b, i);
                    let ri = at(&r, i);
                    assert_eq!(ri, at(&ca, bi), "({a} ∘ {b})({i}) = {r} at {i}");
                    if bi < a.size().unwrap() {
                        assert_eq!(ri, at(&a, bi), "({a} ∘ {b})({i}) = {r} at {i}");
                    } else {
                        all_in = false;
                    }
                }
                if all_in {
                    in_domain += 1;
                }
                if r.depth() > b.depth() {
                    nested_results += 1;
                }
            }
            Err(e) => {
                expect_inadmissible(&format!("{a} ∘ {b}"), &e);
                err += 1;
            }
        }
        // Completeness: A composed with the identity of its own size, or with the compact layout
        // of its own shape, is admissible and is A again.
        for id in [
            Layout::new(Tuple::Int(a.size().unwrap()), Tuple::Int(1)).unwrap(),
            Layout::column_major(a.shape().clone()).unwrap(),
        ] {
            let r = composition(&a, &id).unwrap_or_else(|e| panic!("{a} ∘ {id}: {e}"));
            assert_eq!(offsets(&r), offsets(&a), "{a} ∘ {id} = {r}");
        }
        // A compact layout composes with anything (its coalesced form is n:1; for size 1 it
        // is 1:0, which does not extend past the domain, hence the size > 1).
        let compact = Layout::column_major(a.shape().clone()).unwrap();
        if compact.size().unwrap() > 1 {
            let r = composition(&compact, &b).unwrap_or_else(|e| panic!("{compact} ∘ {b}: {e}"));
            for i in 0..b.size().unwrap() {
                assert_eq!(at(&r, i), at(&b, i), "{compact} ∘ {b} = {r} at {i}");
            }
        }
    }
    eprintln!("composition: ok {ok} (in domain {in_domain}, refined {nested_results}), inadmissible {err}");
    assert!(
        ok > 1500 && in_domain > 600 && nested_results > 40 && err > 200,
        "ok {ok} in-domain {in_domain} refined {nested_results} err {err}"
    );
}

#[test]
fn composition_by_tilers_is_by_mode() {
    let mut rng = Rng::new(22);
    let mut ok = 0;
    for _ in 0..2000 {
        let a = random_layout_in(&mut rng, 3, 6, 128, Strides::Mixed);
        let t = random_tiler(&mut rng, &a);
        match composition_by(&a, &t) {
            Ok(r) => {
                ok += 1;
                match &t {
                    Tiler::Layout(b) => assert_eq!(r, composition(&a, b).unwrap()),
                    Tiler::Keep => unreachable!(),
                    Tiler::ByMode(parts) => {
                        let (am, rm) = (modes_of(&a), modes_of(&r));
                        assert_eq!(rm.len(), am.len(), "{a} ∘ {t} = {r}");
                        for i in 0..am.len() {
                            match parts.get(i) {
                                None | Some(Tiler::Keep) => assert!(same(&rm[i], &am[i]), "{a} ∘ {t} = {r}"),
                                Some(Tiler::Layout(b)) => {
                                    assert!(compatible(b.shape(), rm[i].shape()));
                                    for j in 0..b.size().unwrap() {
                                        assert_eq!(
                                            at(&rm[i], j),
                                            at(&coalesce(&am[i]).unwrap(), at(b, j)),
                                            "{a} ∘ {t} = {r}, mode {i} at {j}"
                                        );
                                    }
                                }
                                Some(Tiler::ByMode(_)) => unreachable!(),
                            }
                        }
                    }
                }
            }
            Err(e) => expect_inadmissible(&format!("{a} ∘ {t}"), &e),
        }
    }
    assert!(ok > 600, "only {ok} admissible");
}

#[test]
fn complement_fills_the_holes() {
    let mut rng = Rng::new(31);
    let (mut ok, mut err, mut nontrivial) = (0, 0, 0);
    for _ in 0..4000 {
        let a = random_layout(&mut rng, Strides::Mixed);
        let m = rng.range(1, 2 * a.cosize().unwrap() + 8);
        let fa = filter(&a).unwrap();
        match complement(&a, m) {
            Ok(r) => {
                ok += 1;
                assert!(r.depth() <= 1, "complement({a},{m}) = {r}");
                let strides: Vec<i64> = r.leaf_modes().iter().filter(|m| m.0 != 1).map(|m| m.1).collect();
                assert!(
                    strides.windows(2).all(|w| w[0] < w[1]) && strides.iter().all(|&d| d > 0),
                    "ordered: complement({a},{m}) = {r}"
                );
                let ia = image(&a);
                for o in offsets(&r) {
                    assert!(o == 0 || !ia.contains(&o), "complement({a},{m}) = {r} hits {o}");
                }
                let both = Layout::concat(&[a.clone(), r.clone()]).unwrap();
                assert!(both.cosize().unwrap() >= m, "cosize((A,R)) < {m}: complement({a},{m}) = {r}");
                // (filter(A), R) is injective: every sum of the two is reached once.
                let fr = Layout::concat(&[fa.clone(), r.clone()]).unwrap();
                assert!(injective(&fr), "({fa}, {r}) not injective");
                if r.size().unwrap() > 1 && fa.size().unwrap() > 1 {
                    nontrivial += 1;
                }
                // the default cotarget
                let d = complement_default(&a).unwrap();
                assert!(Layout::concat(&[a.clone(), d.clone()]).unwrap().cosize().unwrap() >= fa.cosize().unwrap());
            }
            Err(e) => {
                expect_inadmissible(&format!("complement({a},{m})"), &e);
                err += 1;
            }
        }
        // A non-injective image cannot be complemented.
        if !injective(&fa) {
            assert!(complement(&a, m).is_err(), "complement({a},{m}) of a non-injective layout");
        }
        // Completeness: a structured layout (each stride a multiple of the extent of the leaves
        // with smaller strides) is always complementable, whatever order its leaves are in.
        let s = random_layout(&mut rng, Strides::Structured);
        let m = rng.range(1, 2 * s.cosize().unwrap() + 8);
        let r = complement(&s, m).unwrap_or_else(|e| panic!("complement({s},{m}): {e}"));
        assert!(injective(&Layout::concat(&[filter(&s).unwrap(), r]).unwrap()));
    }
    eprintln!("complement: ok {ok} (nontrivial {nontrivial}), inadmissible {err}");
    assert!(ok > 1500 && nontrivial > 800 && err > 300, "ok {ok} nontrivial {nontrivial} err {err}");
}

#[test]
fn right_inverse_is_a_right_inverse() {
    let mut rng = Rng::new(41);
    let (mut long, mut bijections) = (0, 0);
    for _ in 0..3000 {
        let a = random_layout(&mut rng, Strides::Mixed);
        let r = right_inverse(&a).unwrap_or_else(|e| panic!("right_inverse({a}): {e}"));
        for i in 0..r.size().unwrap() {
            assert_eq!(at(&a, at(&r, i)), i, "A(R({i})) for A = {a}, R = {r}");
        }
        if r.size().unwrap() >= 4 {
            long += 1;
        }
        // Appending a copy of one leaf as a new mode adds no offset, so it must not shrink the
        // right inverse (a duplicate stride must be skipped, not end the chain).
        let leaves = a.leaf_modes();
        let k = rng.below(leaves.len() as u64) as usize;
        let dup = Layout::concat(&[a.clone(), Layout::from_leaves(&[leaves[k]]).unwrap()]).unwrap();
        let rd = right_inverse(&dup).unwrap();
        assert_eq!(rd.size().unwrap(), r.size().unwrap(), "right_inverse({dup}) = {rd} vs right_inverse({a}) = {r}");
        for i in 0..rd.size().unwrap() {
            assert_eq!(at(&dup, at(&rd, i)), i);
        }
        // a bijection onto [0, size) has a full inverse
        let mut o = offsets(&a);
        o.sort();
        if o.iter().enumerate().all(|(i, &v)| v == i as i64) {
            bijections += 1;
            assert_eq!(r.size().unwrap(), a.size().unwrap(), "right_inverse({a}) = {r} is not full");
        }
    }
    eprintln!("right_inverse: size >= 4 in {long}, bijections {bijections}");
    assert!(long > 500 && bijections > 200, "long {long} bijections {bijections}");
}

#[test]
fn left_inverse_is_a_left_inverse() {
    let mut rng = Rng::new(51);
    let (mut ok, mut err, mut noninj) = (0, 0, 0);
    for _ in 0..3000 {
        let a = random_layout(&mut rng, Strides::Mixed);
        let res = left_inverse(&a);
        if !injective(&a) {
            noninj += 1;
            match res {
                Ok(r) => panic!("left_inverse({a}) = {r} of a non-injective layout"),
                Err(e) => expect_inadmissible(&format!("left_inverse({a})"), &e),
            }
            continue;
        }
        match res {
            Ok(r) => {
                ok += 1;
                for i in 0..a.size().unwrap() {
                    assert_eq!(at(&r, at(&a, i)), i, "R(A({i})) for A = {a}, R = {r}");
                }
            }
            Err(e) => {
                expect_inadmissible(&format!("left_inverse({a})"), &e);
                // only when the complement is inadmissible too
                assert!(complement(&a, 1).is_err(), "left_inverse({a}) failed but complement exists: {e}");
                err += 1;
            }
        }
    }
    // Completeness: injective structured layouts always have a left inverse.
    let mut structured = 0;
    for _ in 0..1000 {
        let a = random_layout(&mut rng, Strides::Structured);
        if injective(&a) {
            structured += 1;
            let r = left_inverse(&a).unwrap_or_else(|e| panic!("left_inverse({a}): {e}"));
            for i in 0..a.size().unwrap() {
                assert_eq!(at(&r, at(&a, i)), i, "R(A({i})) for A = {a}, R = {r}");
            }
        }
    }
    assert!(structured > 300, "{structured}");
    eprintln!("left_inverse: ok {ok}, inadmissible injective {err}, non-injective {noninj}");
    assert!(ok > 1000 && noninj > 300, "ok {ok} err {err} noninj {noninj}");
}

#[test]
fn divides_follow_composition() {
    let mut rng = Rng::new(61);
    let (mut ok, mut err, mut by_mode) = (0, 0, 0);
    for _ in 0..3000 {
        let a = random_layout_in(&mut rng, 3, 6, 128, Strides::Mixed);
        let t = random_tiler(&mut rng, &a);
        let ld = match logical_divide(&a, &t) {
            Ok(r) => r,
            Err(e) => {
                expect_inadmissible(&format!("{a} ⊘ {t}"), &e);
                err += 1;
                for f in [zipped_divide, tiled_divide, flat_divide] {
                    assert!(f(&a, &t).is_err(), "{a} ⊘ {t}");
                }
                continue;
            }
        };
        ok += 1;
        let zd = zipped_divide(&a, &t).unwrap();
        let td = tiled_divide(&a, &t).unwrap();
        let fd = flat_divide(&a, &t).unwrap();
        // layout<0>(zipped_divide(a, b)) == composition(a, b), on the modes the tiler covers
        // (composition keeps the others, the zipped divide puts them into mode 1)
        match &t {
            Tiler::ByMode(parts) => {
                let tiles = modes_of(&zd.mode(0).unwrap());
                let comp = modes_of(&composition_by(&a, &t).unwrap());
                assert_eq!(tiles.len(), parts.len());
                assert_eq!(tiles[..], comp[..parts.len()], "{a} ⊘ {t}: {zd}");
                if parts.len() == a.rank() && !a.shape().is_int() {
                    assert_eq!(zd.mode(0).unwrap(), composition_by(&a, &t).unwrap(), "{a} ⊘ {t}: {zd}");
                }
            }
            _ => assert_eq!(zd.mode(0).unwrap(), composition_by(&a, &t).unwrap(), "{a} ⊘ {t}: {zd}"),
        }
        // the arrangements only regroup the modes of the zipped divide
        assert_eq!(zd.rank(), 2);
        assert_eq!(td.leaf_modes(), zd.leaf_modes());
        assert_eq!(fd.leaf_modes(), zd.leaf_modes());
        assert!(same(&td.mode(0).unwrap(), &zd.mode(0).unwrap()));
        assert_eq!(td.rank(), 1 + modes_of(&zd.mode(1).unwrap()).len());
        assert_eq!(fd.rank(), modes_of(&zd.mode(0).unwrap()).len() + modes_of(&zd.mode(1).unwrap()).len());
        // and the logical divide, up to that regrouping, is the same function (multiset)
        assert_eq!(multiset(&ld), multiset(&zd), "{a} ⊘ {t}: {ld} vs {zd}");
        match &t {
            Tiler::Layout(b) => {
                // R = A ∘ (B, B*), B* = complement(B, size(A)); rank 2; compatible(B, R[0])
                assert_eq!(ld.rank(), 2);
                assert!(compatible(b.shape(), ld.mode(0).unwrap().shape()));
                assert!(same(&ld, &zd));
                let bb = Layout::concat(&[b.clone(), complement(b, a.size().unwrap()).unwrap()]).unwrap();
                assert_eq!(ld.size().unwrap(), bb.size().unwrap());
                let ca = coalesce(&a).unwrap();
                for i in 0..ld.size().unwrap() {
                    let j = at(&bb, i);
                    assert_eq!(at(&ld, i), at(&ca, j), "({a} ⊘ {b})({i}) = {ld}");
                    if j < a.size().unwrap() {
                        assert_eq!(at(&ld, i), at(&a, j));
                    }
                }
                // the tiles cover A's domain: (B, B*) reaches every index below size(A)
                let reached: HashSet<i64> = offsets(&bb).into_iter().collect();
                assert!((0..a.size().unwrap()).all(|k| reached.contains(&k)) || !injective(&filter(b).unwrap()));
            }
            Tiler::ByMode(parts) => {
                by_mode += 1;
                let (am, lm) = (modes_of(&a), modes_of(&ld));
                assert_eq!(lm.len(), am.len());
                for i in 0..am.len() {
                    match parts.get(i) {
                        None | Some(Tiler::Keep) => assert!(same(&lm[i], &am[i])),
                        Some(p) => assert_eq!(lm[i], logical_divide(&am[i], p).unwrap()),
                    }
                }
            }
            Tiler::Keep => unreachable!(),
        }
    }
    // Completeness: dividing each mode by its own first leaf is always admissible, and the
    // tile is that leaf.
    for _ in 0..1000 {
        let a = random_layout_in(&mut rng, 3, 6, 128, Strides::Mixed);
        let ms = modes_of(&a);
        let t = Tiler::ByMode(
            ms.iter()
                .map(|m| Tiler::Layout(Layout::new(Tuple::Int(m.leaf_modes()[0].0), Tuple::Int(1)).unwrap()))
                .collect(),
        );
        let zd = zipped_divide(&a, &t).unwrap_or_else(|e| panic!("{a} ⊘ {t}: {e}"));
        let tiles = modes_of(&zd.mode(0).unwrap());
        for (m, tile) in ms.iter().zip(&tiles) {
            let (s0, d0) = m.leaf_modes()[0];
            assert_eq!(offsets(tile), (0..s0).map(|i| i * d0).collect::<Vec<_>>(), "{a} ⊘ {t}: {zd}");
        }
        assert_eq!(multiset(&zd), multiset(&a), "{a} ⊘ {t}: {zd}");
    }
    eprintln!("divide: ok {ok} (by mode {by_mode}), inadmissible {err}");
    assert!(ok > 1000 && by_mode > 500 && err > 100, "ok {ok} by-mode {by_mode} err {err}");
}

#[test]
fn products_keep_the_block() {
    let mut rng = Rng::new(71);
    let (mut ok, mut err, mut inj) = (0, 0, 0);
    for _ in 0..3000 {
        let a = random_layout_in(&mut rng, 3, 5, 64, Strides::Mixed);
        let b = random_layout_in(&mut rng, 2, 4, 16, Strides::Mixed);
        let t = Tiler::Layout(b.clone());
        let r = match logical_product(&a, &t) {
            Ok(r) => r,
            Err(e) => {
                expect_inadmissible(&format!("{a} ⊗ {b}"), &e);
                err += 1;
                continue;
            }
        };
        ok += 1;
        assert_eq!(r.rank(), 2);
        let (r0, r1) = (r.mode(0).unwrap(), r.mode(1).unwrap());
        assert!(compatible(a.shape(), r0.shape()) && same(&r0, &a), "{a} ⊗ {b} = {r}");
        assert!(compatible(b.shape(), r1.shape()), "{a} ⊗ {b} = {r}");
        // R[1] = A* ∘ B
        let a_star = complement(&a, a.size().unwrap() * b.cosize().unwrap()).unwrap();
        for j in 0..b.size().unwrap() {
            assert_eq!(at(&r1, j), at(&a_star, at(&b, j)), "{a} ⊗ {b} = {r} at {j}");
        }
        // the repeats never land on the block (except at 0)
        let i0 = image(&r0);
        assert!(image(&r1).iter().all(|o| *o == 0 || !i0.contains(o)), "{a} ⊗ {b} = {r}");
        if injective(&a) && injective(&b) {
            inj += 1;
            assert!(injective(&r), "{a} ⊗ {b} = {r} is not injective");
        }
        // zipped / tiled / flat regroup the same leaves
        let zp = zipped_product(&a, &t).unwrap();
        assert!(same(&zp, &r));
        assert_eq!(tiled_product(&a, &t).unwrap().leaf_modes(), r.leaf_modes());
        assert_eq!(flat_product(&a, &t).unwrap().leaf_modes(), r.leaf_modes());
    }
    eprintln!("logical_product: ok {ok} (injective {inj}), inadmissible {err}");
    assert!(ok > 1200 && inj > 500 && err > 100, "ok {ok} injective {inj} err {err}");
}

#[test]
fn by_mode_products_are_by_mode() {
    let mut rng = Rng::new(72);
    let mut ok = 0;
    for _ in 0..1500 {
        let a = random_layout_in(&mut rng, 3, 5, 64, Strides::Mixed);
        let t = random_tiler(&mut rng, &a);
        let Tiler::ByMode(parts) = &t else { continue };
        match logical_product(&a, &t) {
            Ok(r) => {
                ok += 1;
                let (am, rm) = (modes_of(&a), modes_of(&r));
                for i in 0..am.len() {
                    match parts.get(i) {
                        None | Some(Tiler::Keep) => assert!(same(&rm[i], &am[i])),
                        Some(p) => {
                            assert_eq!(rm[i], logical_product(&am[i], p).unwrap());
                            assert!(same(&rm[i].mode(0).unwrap(), &am[i]));
                        }
                    }
                }
                let zp = zipped_product(&a, &t).unwrap();
                assert_eq!(multiset(&zp), multiset(&r));
                assert_eq!(tiled_product(&a, &t).unwrap().leaf_modes(), zp.leaf_modes());
                assert_eq!(flat_product(&a, &t).unwrap().leaf_modes(), zp.leaf_modes());
            }
            Err(e) => expect_inadmissible(&format!("{a} ⊗ {t}"), &e),
        }
    }
    assert!(ok > 300, "only {ok} admissible");
}

#[test]
fn blocked_and_raked_products_zip_the_modes() {
    let mut rng = Rng::new(81);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..3000 {
        let a = random_layout_in(&mut rng, 3, 4, 64, Strides::Mixed);
        let b = random_layout_in(&mut rng, 3, 4, 16, Strides::Mixed);
        let (bl, rk) = match (blocked_product(&a, &b), raked_product(&a, &b)) {
            (Ok(x), Ok(y)) => (x, y),
            (Err(e1), Err(e2)) => {
                expect_inadmissible(&format!("blocked_product({a}, {b})"), &e1);
                expect_inadmissible(&format!("raked_product({a}, {b})"), &e2);
                err += 1;
                continue;
            }
            (x, y) => panic!("blocked/raked disagree on admissibility for {a}, {b}: {x:?} {y:?}"),
        };
        ok += 1;
        let r = a.rank().max(b.rank());
        let pad = |l: &Layout| {
            let mut m = modes_of(l);
            while m.len() < r {
                m.push(Layout::from_leaves(&[]).unwrap());
            }
            m
        };
        let (am, bm) = (pad(&a), pad(&b));
        let (blm, rkm) = if r == 1 { (vec![bl.clone()], vec![rk.clone()]) } else { (modes_of(&bl), modes_of(&rk)) };
        assert_eq!(blm.len(), r, "blocked_product({a}, {b}) = {bl}");
        for i in 0..r {
            let (blk, rep) = (blm[i].mode(0).unwrap(), blm[i].mode(1).unwrap());
            assert!(same(&blk, &am[i]), "blocked_product({a}, {b}) = {bl}: mode {i}");
            assert!(compatible(bm[i].shape(), rep.shape()), "blocked_product({a}, {b}) = {bl}: mode {i}");
            assert!(
                same(&rkm[i].mode(0).unwrap(), &rep) && same(&rkm[i].mode(1).unwrap(), &blk),
                "raked_product({a}, {b}) = {rk}: mode {i}"
            );
        }
        // same elements as the logical product, block first vs. repeat first
        let lp = logical_product(&a, &Tiler::Layout(b.clone())).unwrap();
        assert_eq!(multiset(&bl), multiset(&lp), "blocked_product({a}, {b}) = {bl} vs {lp}");
        assert_eq!(multiset(&rk), multiset(&lp), "raked_product({a}, {b}) = {rk} vs {lp}");
        // blocked: the first size(A_0) indices of mode 0 walk A_0 (one block along mode 0)
        for j in 0..am[0].size().unwrap() {
            assert_eq!(at(&blm[0], j), at(&am[0], j));
        }
    }
    // Completeness: a compact block can be multiplied by anything (its complement is one mode).
    for _ in 0..1000 {
        let a = Layout::column_major(random_layout_in(&mut rng, 3, 4, 64, Strides::Mixed).shape().clone()).unwrap();
        let b = random_layout_in(&mut rng, 3, 4, 16, Strides::Mixed);
        let bl = blocked_product(&a, &b).unwrap_or_else(|e| panic!("blocked_product({a}, {b}): {e}"));
        let rk = raked_product(&a, &b).unwrap_or_else(|e| panic!("raked_product({a}, {b}): {e}"));
        let lp = logical_product(&a, &Tiler::Layout(b.clone())).unwrap();
        assert_eq!(multiset(&bl), multiset(&lp));
        assert_eq!(multiset(&rk), multiset(&lp));
    }
    eprintln!("blocked/raked: ok {ok}, inadmissible {err}");
    assert!(ok > 1200 && err > 100, "ok {ok} err {err}");
}

#[test]
fn overflow_never_panics() {
    // huge strides: every operation returns, some with Overflow errors
    let mut rng = Rng::new(91);
    for _ in 0..500 {
        let mut a = random_layout(&mut rng, Strides::Mixed);
        let scale = 1i64 << rng.range(40, 62);
        let stride = a.stride().map(&mut |d: &i64| Ok::<_, AlgebraError>(d.saturating_mul(scale))).unwrap();
        a = Layout::new(a.shape().clone(), stride).unwrap();
        let b = random_layout_in(&mut rng, 2, 6, 48, Strides::Mixed);
        let _ = coalesce(&a);
        let _ = filter(&a);
        let _ = composition(&a, &b);
        let _ = composition(&b, &a);
        let _ = complement(&a, i64::MAX);
        let _ = complement_default(&a);
        let _ = right_inverse(&a);
        let _ = left_inverse(&a);
        let _ = logical_divide(&b, &Tiler::Layout(a.clone()));
        let _ = logical_product(&a, &Tiler::Layout(b.clone()));
        let _ = logical_product(&b, &Tiler::Layout(a.clone()));
        let _ = blocked_product(&a, &b);
        let _ = raked_product(&b, &a);
    }
}

/// `Layout::same_function` against the definition: two layouts are the same function when they
/// take the same coordinates (congruent shapes with equal leaves) and map every one of them to
/// the same offset. The second layout re-draws some strides (often on extent-1 leaves, where
/// any stride is the same function) and sometimes a shape leaf or the nesting; every index of
/// the domain is compared.
#[test]
fn same_function_is_equality_of_offsets() {
    let mut rng = Rng::new(31);
    let (mut equal_with_other_strides, mut differ_on_strides, mut differ_on_shape) = (0, 0, 0);
    for _ in 0..4000 {
        let a = random_layout(&mut rng, Strides::Mixed);
        let (mut shape, mut stride) = (a.shape().leaves(), a.stride().leaves());
        for (s, d) in shape.iter().zip(stride.iter_mut()) {
            if rng.percent(if *s == 1 { 70 } else { 15 }) {
                *d = rng.range(0, 40);
            }
        }
        let reshaped = rng.percent(10);
        if reshaped {
            let i = rng.below(shape.len());
            shape[i] = rng.range(1, 6);
        }
        let nested = rng.percent(8);
        let structure = if nested { Tuple::Tuple(vec![a.shape().clone()]) } else { a.shape().clone() };
        let b = Layout::new(structure.unflatten(&shape).unwrap(), structure.unflatten(&stride).unwrap()).unwrap();
        let brute = !nested && a.shape() == b.shape() && offsets(&a) == offsets(&b);
        assert_eq!(a.same_function(&b), brute, "{a} vs {b}");
        assert_eq!(b.same_function(&a), brute, "{b} vs {a} (symmetry)");
        // The origin is not part of the function.
        let clipped = a.with_new_origin(a.origin().map(&mut |_| Ok::<i64, ()>(0)).unwrap()).unwrap();
        assert!(a.same_function(&clipped), "{a} vs {clipped}");
        match (brute, a.stride() == b.stride()) {
            (true, false) => equal_with_other_strides += 1,
            (false, _) if a.shape() == b.shape() => differ_on_strides += 1,
            (false, _) => differ_on_shape += 1,
            _ => {}
        }
    }
    assert!(
        equal_with_other_strides > 200 && differ_on_strides > 200 && differ_on_shape > 200,
        "{equal_with_other_strides} {differ_on_strides} {differ_on_shape}"
    );
}

/// The reproducer: an L0C sub-tile whose column-block stride (on a mode of extent 1)
/// is the parent's, not the one Mmad infers; symbolic leaves compare structurally.
#[test]
fn same_function_ignores_strides_of_unit_modes() {
    let tile = layout_algebra::parse_layout("((16,2),(16,1)):((16,256),(1,1024))").unwrap();
    let mmad = layout_algebra::parse_layout("((16,2),(16,1)):((16,256),(1,512))").unwrap();
    assert!(tile.same_function(&mmad) && tile != mmad);
    let wider = layout_algebra::parse_layout("((16,2),(16,2)):((16,256),(1,1024))").unwrap();
    let wider_mmad = layout_algebra::parse_layout("((16,2),(16,2)):((16,256),(1,512))").unwrap();
    assert!(!wider.same_function(&wider_mmad));
    let flat = layout_algebra::parse_layout("(16,1):(1,7)").unwrap();
    assert!(!flat.same_function(&layout_algebra::parse_layout("16:1").unwrap()), "nesting is part of the domain");
    use layout_algebra::SymExpr;
    let t = |xs: [SymExpr; 2]| Tuple::Tuple(xs.into_iter().map(Tuple::Int).collect());
    let (m, one) = (SymExpr::sym("m"), SymExpr::Const(1));
    let sym = Layout::new(t([m.clone(), one.clone()]), t([SymExpr::Const(16), SymExpr::Const(3)])).unwrap();
    let other = Layout::new(t([m.clone(), one]), t([SymExpr::Const(16), SymExpr::Const(5)])).unwrap();
    let pairs = sym.function_pairs(&other).unwrap();
    assert_eq!(pairs.len(), 3, "a dynamic extent keeps its stride pair, the unit one drops: {pairs:?}");
    assert!(sym.same_function(&other));
}
