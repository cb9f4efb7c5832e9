//! The worked numbers of docs/layout-spec.md §A.8 for the frame patterns (offset tables, footprints, batch).

use layout_algebra::ascend::{capacity, frame, frame_layout, recognize, ElementType, FramePattern};
use layout_algebra::{parse_int_tuple, parse_layout, IntTuple, Layout};

use FramePattern::*;

const COORDS: [(i64, i64); 8] = [(0, 1), (1, 0), (15, 15), (16, 0), (0, 16), (1, 5), (17, 33), (99, 99)];

fn at(l: &Layout, i: i64, j: i64) -> i64 {
    l.crd_to_offset(&IntTuple::Tuple(vec![IntTuple::Int(i), IntTuple::Int(j)])).unwrap()
}

fn t(s: &str) -> IntTuple {
    parse_int_tuple(s).unwrap()
}

#[test]
fn fp16_100x100_offset_table() {
    let f16 = ElementType::F16;
    let rows: [(Layout, &str, [i64; 8]); 5] = [
        (
            frame(NZ, f16, &[100, 100]).unwrap(),
            "((16,7),(16,7)):((16,256),(1,1792))",
            [1, 16, 255, 256, 1792, 21, 3857, 12339],
        ),
        (
            frame(ZN, f16, &[100, 100]).unwrap(),
            "((16,7),(16,7)):((1,1792),(16,256))",
            [16, 1, 255, 1792, 256, 81, 2321, 12339],
        ),
        (
            frame(ZZ, f16, &[100, 100]).unwrap(),
            "((16,7),(16,7)):((16,1792),(1,256))",
            [1, 16, 255, 1792, 256, 21, 2321, 12339],
        ),
        // catlass nN with C0 = 16 (the Te NN pattern is C0 = 2 only)
        (
            frame_layout(NN, 16, &[100i64, 100]).unwrap(),
            "((16,7),(16,7)):((1,256),(16,1792))",
            [16, 1, 255, 256, 1792, 81, 3857, 12339],
        ),
        (
            frame(L0C, ElementType::F32, &[100, 100]).unwrap(),
            "((16,7),(16,7)):((16,256),(1,1792))",
            [1, 16, 255, 256, 1792, 21, 3857, 12339],
        ),
    ];
    for (l, text, want) in rows {
        assert_eq!(l.to_string(), format!("{text} origin (100,100)"));
        assert_eq!(l.origin(), &t("(100,100)"));
        for ((i, j), w) in COORDS.iter().zip(want) {
            assert_eq!(at(&l, *i, *j), w, "{l} at ({i},{j})");
        }
        assert_eq!(l.cosize().unwrap(), 12544, "{l}");
        assert_eq!(capacity(&l).unwrap(), 12544, "{l}");
        assert_eq!(l.size().unwrap(), 12544, "{l}");
    }
}

#[test]
fn fp32_and_int8_100x100() {
    let zn = frame(NZ, ElementType::F32, &[100, 100]).unwrap();
    assert_eq!(zn.to_string(), "((16,7),(8,13)):((8,128),(1,896)) origin (100,100)");
    assert_eq!(at(&zn, 1, 5), 13);
    assert_eq!(at(&zn, 17, 33), 3721);
    assert_eq!(zn.cosize().unwrap(), 11648);
    assert_eq!(capacity(&zn).unwrap(), 11648);
    let nz = frame(ZN, ElementType::F32, &[100, 100]).unwrap();
    assert_eq!(nz.to_string(), "((8,13),(16,7)):((1,896),(8,128)) origin (100,100)");
    assert_eq!(at(&nz, 1, 5), 41);
    assert_eq!(at(&nz, 17, 33), 2057);
    let i8 = frame(NZ, ElementType::I8, &[100, 100]).unwrap();
    assert_eq!(i8.to_string(), "((16,7),(32,4)):((32,512),(1,3584)) origin (100,100)");
    assert_eq!(at(&i8, 0, 16), 16);
    assert_eq!(at(&i8, 1, 5), 37);
    assert_eq!(at(&i8, 17, 33), 4129);
    assert_eq!(i8.cosize().unwrap(), 14336);
    assert_eq!(capacity(&i8).unwrap(), 14336);
}

#[test]
fn batch_element() {
    let b = frame(NZ, ElementType::F16, &[2, 100, 100]).unwrap();
    assert_eq!(b.to_string(), "(2,((16,7),(16,7))):(12544,((16,256),(1,1792))) origin (2,(100,100))");
    assert_eq!(b.crd_to_offset(&t("(1,(17,33))")).unwrap(), 16401);
    assert_eq!(recognize(&b).map(|r| (r.pattern, r.c0, r.batched)), Some((NZ, 16, true)));
}

#[test]
fn pycute_blocked_product_example() {
    // docs/layout-spec.md §A.2: blocked_product((16,8):(8,1), (7,13):(1,7)) = ((16,7),(8,13)):((8,128),(1,896)) = zN fp32 100x100
    let want = parse_layout("((16,7),(8,13)):((8,128),(1,896)) origin (100,100)").unwrap();
    assert_eq!(frame(NZ, ElementType::F32, &[100, 100]).unwrap(), want);
}

#[test]
fn catlass_4x6_toy_with_2x2_fractals() {
    // docs/layout-spec.md §A.8: zN = ((2,2),(2,3)):((2,4),(1,8)), nZ = ((2,2),(2,3)):((1,12),(2,4)); independent formulas
    // with 2x2 fractals: zN (i,j) -> ((j/2)*2 + i/2)*4 + (i%2)*2 + j%2 ; nZ (i,j) -> ((i/2)*3 + j/2)*4 + (j%2)*2 + i%2
    let zn = parse_layout("((2,2),(2,3)):((2,4),(1,8))").unwrap();
    let nz = parse_layout("((2,2),(2,3)):((1,12),(2,4))").unwrap();
    let table = [((0, 1), 1, 2), ((1, 0), 2, 1), ((0, 2), 8, 4), ((1, 2), 10, 5), ((2, 0), 4, 12), ((3, 0), 6, 13)];
    for ((i, j), z, n) in table {
        assert_eq!(at(&zn, i, j), z, "zN ({i},{j})");
        assert_eq!(at(&nz, i, j), n, "nZ ({i},{j})");
    }
    for i in 0..4 {
        for j in 0..6 {
            assert_eq!(at(&zn, i, j), ((j / 2) * 2 + i / 2) * 4 + (i % 2) * 2 + j % 2);
            assert_eq!(at(&nz, i, j), ((i / 2) * 3 + j / 2) * 4 + (j % 2) * 2 + i % 2);
        }
    }
}

#[test]
fn tla_doc_toy() {
    // docs/layout-spec.md §A.8 TLA doc example: ((4,2),(4,3)):((4,16),(1,32)) origin (8,12)
    let l = parse_layout("((4,2),(4,3)):((4,16),(1,32)) origin (8,12)").unwrap();
    assert_eq!(at(&l, 1, 5), 37);
    assert_eq!(l.crd_to_offset(&t("((1,0),(1,1))")).unwrap(), 37);
    assert_eq!(l.crd_to_offset(&t("13")).unwrap(), 21);
}
