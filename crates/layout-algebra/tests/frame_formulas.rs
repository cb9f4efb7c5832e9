//! Brute-force checks of the frame patterns against independent formulas written here from the
//! physical orders of docs/layout-spec.md §A.5 (PyPTO reshape / AscendC transpose strings), not from the crate.

use layout_algebra::ascend::{capacity, frame, frame_c0, frame_layout, ElementType, FramePattern};
use layout_algebra::{IntTuple, Layout};

use FramePattern::*;

fn at(l: &Layout, i: i64, j: i64) -> i64 {
    l.crd_to_offset(&IntTuple::Tuple(vec![IntTuple::Int(i), IntTuple::Int(j)])).unwrap()
}

fn cdiv(a: i64, b: i64) -> i64 {
    (a + b - 1) / b
}

/// NZ: array `[ceil(N/C0), ceil(M/16), 16, C0]` in C order (PyPTO golden reshape+transpose,
/// AscendC `(…,N1,M1,M0,N0)`).
fn nz_ref(m: i64, _n: i64, c0: i64, i: i64, j: i64) -> i64 {
    let m1 = cdiv(m, 16);
    ((j / c0 * m1 + i / 16) * 16 + i % 16) * c0 + j % c0
}

/// ZZ: AscendC `(…,M1,K1,M0,K0)`: array `[ceil(M/16), ceil(N/C0), 16, C0]`.
fn zz_ref(_m: i64, n: i64, c0: i64, i: i64, j: i64) -> i64 {
    let n1 = cdiv(n, c0);
    ((i / 16 * n1 + j / c0) * 16 + i % 16) * c0 + j % c0
}

/// ZN of `[K, N]`: AscendC `(…,K1,N1,N0,K0)`: array `[ceil(K/C0), ceil(N/16), 16, C0]`, the row
/// index `i` running inside a C0 block.
fn zn_ref(_k: i64, n: i64, c0: i64, i: i64, j: i64) -> i64 {
    let n1 = cdiv(n, 16);
    ((i / c0 * n1 + j / 16) * 16 + j % 16) * c0 + i % c0
}

/// NN: column-major grid of column-major C0×16 fractals: array `[ceil(N/16), ceil(M/C0), 16, C0]`.
fn nn_ref(m: i64, _n: i64, c0: i64, i: i64, j: i64) -> i64 {
    let m1 = cdiv(m, c0);
    ((j / 16 * m1 + i / c0) * 16 + j % 16) * c0 + i % c0
}

const SIZES: [i64; 9] = [1, 2, 7, 16, 17, 33, 48, 100, 130];
const C0S: [i64; 5] = [4, 8, 16, 32, 64];

type Reference = fn(i64, i64, i64, i64, i64) -> i64;

fn check_against(pattern: FramePattern, c0: i64, m: i64, n: i64, reference: Reference) {
    let l = frame_layout(pattern, c0, &[m, n]).unwrap();
    for i in 0..m {
        for j in 0..n {
            assert_eq!(at(&l, i, j), reference(m, n, c0, i, j), "{pattern} C0={c0} {m}x{n} at ({i},{j}): {l}");
        }
    }
}

#[test]
fn nz_zz_zn_nn_match_the_physical_orders_for_every_coordinate() {
    for c0 in C0S {
        for m in SIZES {
            for n in SIZES {
                check_against(NZ, c0, m, n, nz_ref);
                check_against(ZZ, c0, m, n, zz_ref);
                check_against(ZN, c0, m, n, zn_ref);
                check_against(NN, c0, m, n, nn_ref);
            }
        }
    }
}

#[test]
fn dtype_c0_and_l0c_match_the_physical_orders() {
    use ElementType as E;
    for (dtype, c0) in [
        (E::F4E2M1FN, 64),
        (E::I4, 64),
        (E::I8, 32),
        (E::HiF8, 32),
        (E::F16, 16),
        (E::BF16, 16),
        (E::F32, 8),
        (E::I32, 8),
    ] {
        for (m, n) in [(100, 100), (17, 129), (64, 33), (1, 1)] {
            let nz = frame(NZ, dtype, &[m, n]).unwrap();
            let zz = frame(ZZ, dtype, &[m, n]).unwrap();
            let zn = frame(ZN, dtype, &[m, n]).unwrap();
            let l0c = frame(L0C, dtype, &[m, n]).unwrap();
            for i in 0..m {
                for j in 0..n {
                    assert_eq!(at(&nz, i, j), nz_ref(m, n, c0, i, j));
                    assert_eq!(at(&zz, i, j), zz_ref(m, n, c0, i, j));
                    assert_eq!(at(&zn, i, j), zn_ref(m, n, c0, i, j));
                    assert_eq!(at(&l0c, i, j), nz_ref(m, n, 16, i, j), "L0C is NZ with a 16x16 fractal");
                }
            }
        }
    }
    // MX scales: e8m0 in ZZ (scale A) and NN (scale B) use C0 = 2
    for (m, n) in [(32, 6), (18, 34), (2, 2)] {
        let zz = frame(ZZ, E::F8E8M0FNU, &[m, n]).unwrap();
        let nn = frame(NN, E::F8E8M0FNU, &[m, n]).unwrap();
        for i in 0..m {
            for j in 0..n {
                assert_eq!(at(&zz, i, j), zz_ref(m, n, 2, i, j));
                assert_eq!(at(&nn, i, j), nn_ref(m, n, 2, i, j));
            }
        }
    }
}

#[test]
fn transpose_identities() {
    for c0 in C0S {
        for m in SIZES {
            for n in SIZES {
                let zn = frame_layout(ZN, c0, &[m, n]).unwrap();
                let nz_t = frame_layout(NZ, c0, &[n, m]).unwrap();
                let nn = frame_layout(NN, c0, &[m, n]).unwrap();
                let zz_t = frame_layout(ZZ, c0, &[n, m]).unwrap();
                for i in 0..m {
                    for j in 0..n {
                        assert_eq!(at(&zn, i, j), at(&nz_t, j, i), "ZN({m},{n}) vs NZ({n},{m}) C0={c0}");
                        assert_eq!(at(&nn, i, j), at(&zz_t, j, i), "NN({m},{n}) vs ZZ({n},{m}) C0={c0}");
                    }
                }
                let nd = frame_layout(ND, 1, &[m, n]).unwrap();
                let dn_t = frame_layout(DN, 1, &[n, m]).unwrap();
                assert_eq!(at(&nd, m - 1, n - 1), at(&dn_t, n - 1, m - 1));
            }
        }
    }
}

fn align(a: i64, b: i64) -> i64 {
    cdiv(a, b) * b
}

#[test]
fn compact_fractal_layouts_are_injective_with_the_aligned_footprint() {
    for c0 in C0S {
        for m in SIZES {
            for n in SIZES {
                for (p, r_in, c_in) in [(NZ, 16, c0), (ZZ, 16, c0), (ZN, c0, 16), (NN, c0, 16)] {
                    let l = frame_layout(p, c0, &[m, n]).unwrap();
                    let footprint = align(m, r_in) * align(n, c_in);
                    let size = l.size().unwrap();
                    assert_eq!(size, footprint, "{p} {m}x{n} C0={c0}");
                    let mut seen = vec![false; footprint as usize];
                    for idx in 0..size {
                        let off = l.crd_to_offset(&IntTuple::Int(idx)).unwrap();
                        assert!(
                            (0..footprint).contains(&off),
                            "{p} {m}x{n}: offset {off} outside the footprint {footprint}"
                        );
                        assert!(!seen[off as usize], "{p} {m}x{n} C0={c0}: offset {off} hit twice");
                        seen[off as usize] = true;
                    }
                    assert_eq!(l.cosize().unwrap(), footprint);
                    assert_eq!(capacity(&l).unwrap(), footprint);
                }
            }
        }
    }
}

#[test]
fn flat_and_scale_patterns_match_direct_formulas() {
    for m in [2i64, 4, 10, 32] {
        for n in [2i64, 6, 16, 34] {
            let nd = frame_layout(ND, 1, &[m, n]).unwrap();
            let dn = frame_layout(DN, 1, &[m, n]).unwrap();
            let ndx = frame_layout(NDExt, 1, &[m, n]).unwrap();
            let dnx = frame_layout(DNExt, 1, &[m, n]).unwrap();
            let sand = frame(ScaleAND, ElementType::F8E8M0FNU, &[m, n]).unwrap();
            let sadn = frame(ScaleADN, ElementType::F8E8M0FNU, &[m, n]).unwrap();
            let sbnd = frame(ScaleBND, ElementType::F8E8M0FNU, &[m, n]).unwrap();
            let sbdn = frame(ScaleBDN, ElementType::F8E8M0FNU, &[m, n]).unwrap();
            for i in 0..m {
                for j in 0..n {
                    let row_major = i * n + j;
                    let col_major = i + j * m;
                    assert_eq!(at(&nd, i, j), row_major);
                    assert_eq!(at(&ndx, i, j), row_major);
                    assert_eq!(at(&sand, i, j), row_major);
                    assert_eq!(at(&dn, i, j), col_major);
                    assert_eq!(at(&dnx, i, j), col_major);
                    assert_eq!(at(&sbdn, i, j), col_major);
                    // scaleA [M,G] stored [G/2][M][2]; scaleB [G,N] stored [G/2][N][2]
                    assert_eq!(at(&sadn, i, j), (j / 2) * 2 * m + 2 * i + j % 2, "ScaleADN {m}x{n} ({i},{j})");
                    assert_eq!(at(&sbnd, i, j), (i / 2) * 2 * n + 2 * j + i % 2, "ScaleBND {m}x{n} ({i},{j})");
                }
            }
        }
    }
}

#[test]
fn batches_are_stacked_at_the_capacity() {
    for p in [ND, DN, NDExt, DNExt, NZ, ZN, ZZ, NN, L0C, ScaleAND, ScaleADN, ScaleBND, ScaleBDN] {
        let dtype = ElementType::F16;
        let c0 = frame_c0(p, dtype).unwrap();
        let (b, m, n) = (3i64, 34i64, 50i64);
        let single = frame_layout(p, c0, &[m, n]).unwrap();
        let batched = frame_layout(p, c0, &[b, m, n]).unwrap();
        let cap = capacity(&single).unwrap();
        for k in 0..b {
            for i in (0..m).step_by(3) {
                for j in (0..n).step_by(7) {
                    let crd = IntTuple::Tuple(vec![
                        IntTuple::Int(k),
                        IntTuple::Tuple(vec![IntTuple::Int(i), IntTuple::Int(j)]),
                    ]);
                    assert_eq!(batched.crd_to_offset(&crd).unwrap(), k * cap + at(&single, i, j), "{p}");
                }
            }
        }
    }
}

#[test]
fn conv_patterns_are_row_major() {
    let nchw = frame_layout(NCHW, 1, &[2i64, 3, 4, 5]).unwrap();
    let nhwc = frame_layout(NHWC, 1, &[2i64, 4, 5, 3]).unwrap();
    let nc1hwc0 = frame(NC1HWC0, ElementType::F16, &[2, 3, 4, 5]).unwrap();
    for n in 0..2 {
        for c in 0..3 {
            for h in 0..4 {
                for w in 0..5 {
                    let crd = |v: [i64; 4]| IntTuple::Tuple(v.iter().map(|x| IntTuple::Int(*x)).collect());
                    assert_eq!(nchw.crd_to_offset(&crd([n, c, h, w])).unwrap(), ((n * 3 + c) * 4 + h) * 5 + w);
                    assert_eq!(nhwc.crd_to_offset(&crd([n, h, w, c])).unwrap(), ((n * 4 + h) * 5 + w) * 3 + c);
                    for c0 in [0, 7, 15] {
                        let crd5 = IntTuple::Tuple([n, c, h, w, c0].iter().map(|x| IntTuple::Int(*x)).collect());
                        assert_eq!(nc1hwc0.crd_to_offset(&crd5).unwrap(), (((n * 3 + c) * 4 + h) * 5 + w) * 16 + c0);
                    }
                }
            }
        }
    }
}
