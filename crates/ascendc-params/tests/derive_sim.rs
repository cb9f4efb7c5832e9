//! Parameter derivations proven by simulation: the derived instructions run on the CPU model
//! (C ABI) and every destination element is compared with `crd_to_offset` of the destination
//! layout — the model knows only the documented instruction semantics, the derivation only the
//! layouts.

mod common;

use ascendc_params::exec::execute;
use ascendc_params::*;
use common::*;
use layout_algebra::ascend::{frame, tile_layout, ElementType, FramePattern};
use layout_algebra::Layout;

const POISON: u8 = 0xA5;

/// GM tile → L1, then checks every valid element and the zero-filled C0 tail.
fn check_gm_to_l1(
    parent: &Layout,
    tile: [i64; 2],
    at: [i64; 2],
    dst_pattern: FramePattern,
    t: ElementType,
    target: Target,
) -> Vec<u8> {
    let src_l = tile_layout(parent, &tile, &at).unwrap();
    let rows = tile[0].min(parent.origin().get(0).unwrap().as_int().copied().unwrap() - at[0]);
    let cols = tile[1].min(parent.origin().get(1).unwrap().as_int().copied().unwrap() - at[1]);
    let dst_l = frame(dst_pattern, t, &[tile[0], tile[1]]).unwrap();
    let src = Operand::new(&src_l).at(at[0], at[1]);
    let d = gm_nd_to_l1_nz(&src, &Operand::new(&dst_l), t, target).unwrap();
    assert!(d.assumptions.is_empty());
    let n = parent.cosize().unwrap() as usize;
    let mut gm = vec![0u8; n * eb(t)];
    for i in 0..n {
        set(&mut gm, t, i, pattern(t, i));
    }
    let mut l1 = vec![POISON; dst_l.cosize().unwrap() as usize * eb(t)];
    run1(&d, &mut l1, &gm, t, target);
    for r in 0..rows {
        for c in 0..cols {
            let want = get(&gm, t, off(parent, at[0] + r, at[1] + c));
            assert_eq!(get(&l1, t, off(&dst_l, r, c)), want, "{target:?} {t} ({r},{c}) of {tile:?} at {at:?}");
        }
    }
    // Zero-filled tail of the last C0 block along the ND row (along columns for ND→NZ, along
    // rows for DN→ZN, where the "ND row" is a column of the logical matrix).
    let c0 = t.c0();
    if matches!(dst_pattern, FramePattern::NZ | FramePattern::ZZ) {
        for r in 0..rows {
            for c in cols..(cols + c0 - 1) / c0 * c0 {
                assert_eq!(get(&l1, t, off(&dst_l, r, c)), 0, "zero fill ({r},{c})");
            }
        }
    } else {
        for c in 0..cols {
            for r in rows..(rows + c0 - 1) / c0 * c0 {
                assert_eq!(get(&l1, t, off(&dst_l, r, c)), 0, "zero fill ({r},{c})");
            }
        }
    }
    l1
}

#[test]
fn spec_worked_example_nd2nz() {
    let gm = frame(FramePattern::ND, ElementType::F16, &[40, 56]).unwrap();
    let l1 = frame(FramePattern::NZ, ElementType::F16, &[40, 56]).unwrap();
    assert_eq!(l1.to_string(), "((16,3),(16,4)):((16,256),(1,768)) origin (40,56)");
    for target in [Target::A2, Target::A5] {
        let d = gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&l1), ElementType::F16, target).unwrap();
        assert_eq!(d.instrs.len(), 1);
        let Intrinsic::DataCopyNd2Nz(p) = &d.instrs[0].intrinsic else { panic!() };
        assert_eq!(
            p,
            &Nd2NzParams {
                nd_num: 1,
                n_value: 40,
                d_value: 56,
                src_nd_matrix_stride: 0,
                src_d_value: 56,
                dst_nz_c0_stride: 48,
                dst_nz_n_stride: 1,
                dst_nz_matrix_stride: 0
            }
        );
    }
    check_gm_to_l1(&gm, [40, 56], [0, 0], FramePattern::NZ, ElementType::F16, Target::A2);
}

/// a2 f32, GM ND → L1 ZZ and DN → L1 NN (the L1 layouts of the 32-bit transposing loads):
/// one ND2NZ call per 16-row band (`nValue = 16`, looped), plus one for the row tail; with a GM
/// row stride past `uint16_t`, one call per row (16 loops, row i of every band).
#[test]
fn gm_to_l1_banded_zz_and_nn() {
    let t = ElementType::F32;
    for (m, k) in [(64, 64), (40, 56), (17, 33), (1, 1), (16, 8), (96, 100)] {
        let gm = frame(FramePattern::ND, t, &[m, k]).unwrap();
        check_gm_to_l1(&gm, [m, k], [0, 0], FramePattern::ZZ, t, Target::A2);
        let dn = frame(FramePattern::DN, t, &[m, k]).unwrap();
        check_gm_to_l1(&dn, [m, k], [0, 0], FramePattern::NN, t, Target::A2);
        // the calls: full bands of 16 rows (columns for DN → NN), then the tail
        let zz = frame(FramePattern::ZZ, t, &[m, k]).unwrap();
        let d = gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&zz), t, Target::A2).unwrap();
        let calls: Vec<(i64, i64)> = d
            .instrs
            .iter()
            .map(|i| match &i.intrinsic {
                Intrinsic::DataCopyNd2Nz(p) => (p.n_value, i.repeat),
                other => panic!("{other:?}"),
            })
            .collect();
        let mut want = vec![];
        if m / 16 > 0 {
            want.push((16, m / 16));
        }
        if m % 16 > 0 {
            want.push((m % 16, 1));
        }
        assert_eq!(calls, want, "{m}x{k}");
        let Intrinsic::DataCopyNd2Nz(p) = &d.instrs[0].intrinsic else { panic!() };
        assert_eq!((p.nd_num, p.dst_nz_c0_stride, p.dst_nz_n_stride, p.src_d_value), (1, 16, 1, k));
    }
    // tiles of a larger matrix, interior and clipped at the tail
    let gm = frame(FramePattern::ND, t, &[100, 70]).unwrap();
    for at in [[0, 0], [32, 16], [64, 48], [96, 64]] {
        check_gm_to_l1(&gm, [32, 32], at, FramePattern::ZZ, t, Target::A2);
    }
    let dn = frame(FramePattern::DN, t, &[70, 100]).unwrap();
    check_gm_to_l1(&dn, [32, 48], [64, 96], FramePattern::NN, t, Target::A2);
    // a GM row stride of 70000 elements (> 65535): one call per row, 16 loops
    let wide = frame(FramePattern::ND, t, &[20, 70000]).unwrap();
    let src_l = tile_layout(&wide, &[20, 24], &[0, 0]).unwrap();
    let zz = frame(FramePattern::ZZ, t, &[20, 24]).unwrap();
    let d = gm_nd_to_l1_nz(&Operand::new(&src_l), &Operand::new(&zz), t, Target::A2).unwrap();
    let repeats: Vec<i64> = d.instrs.iter().map(|i| i.repeat).collect();
    assert_eq!(repeats, [2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    check_gm_to_l1(&wide, [20, 24], [0, 0], FramePattern::ZZ, t, Target::A2);
}

#[test]
fn gm_to_l1_aligned_unaligned_and_tiles() {
    for t in [ElementType::F16, ElementType::I8, ElementType::F32] {
        for target in [Target::A2, Target::A5] {
            for (m, k) in [(64, 64), (40, 56), (17, 33), (1, 1), (96, 100)] {
                let gm = frame(FramePattern::ND, t, &[m, k]).unwrap();
                check_gm_to_l1(&gm, [m, k], [0, 0], FramePattern::NZ, t, target);
                // DN source → ZN (B given transposed in GM)
                let dn = frame(FramePattern::DN, t, &[m, k]).unwrap();
                check_gm_to_l1(&dn, [m, k], [0, 0], FramePattern::ZN, t, target);
            }
            // tiles of a larger matrix, interior and clipped at the tail
            let gm = frame(FramePattern::ND, t, &[100, 70]).unwrap();
            for at in [[0, 0], [32, 16], [64, 48], [96, 64]] {
                check_gm_to_l1(&gm, [32, 32], at, FramePattern::NZ, t, target);
            }
            let dn = frame(FramePattern::DN, t, &[70, 100]).unwrap();
            check_gm_to_l1(&dn, [32, 48], [64, 96], FramePattern::ZN, t, target);
        }
    }
}

/// L1 (filled with distinct values) → L0; every element of the destination's padded extent is
/// compared with the source at the same logical coordinate.
fn check_l1_to_l0(
    src_l: &Layout,
    at: [i64; 2],
    dst_l: &Layout,
    t: ElementType,
    target: Target,
    buffer: Buffer,
) -> Derived<i64> {
    let mut l1 = vec![0u8; src_l.cosize().unwrap() as usize * eb(t)];
    for i in 0..src_l.cosize().unwrap() as usize {
        set(&mut l1, t, i, pattern(t, i));
    }
    let src = Operand::new(src_l).at(at[0], at[1]);
    let d = l1_to_l0(&src, &Operand::new(dst_l), t, target, buffer).unwrap_or_else(|e| panic!("{e}"));
    let mut l0 = vec![POISON; dst_l.cosize().unwrap() as usize * eb(t)];
    run1(&d, &mut l0, &l1, t, target);
    let rows = dst_l.mode(0).unwrap().size().unwrap();
    let cols = dst_l.mode(1).unwrap().size().unwrap();
    for r in 0..rows {
        for c in 0..cols {
            assert_eq!(
                get(&l0, t, off(dst_l, r, c)),
                get(&l1, t, off(src_l, at[0] + r, at[1] + c)),
                "{target:?} {t} ({r},{c}) {src_l} -> {dst_l}"
            );
        }
    }
    d
}

#[test]
fn l1_to_l0a_both_targets() {
    for t in [ElementType::F16, ElementType::I8, ElementType::F32] {
        for target in [Target::A2, Target::A5] {
            for (m, k) in [(64, 64), (40, 56), (17, 33), (1, 1), (128, 96)] {
                let l1 = frame(FramePattern::NZ, t, &[m, k]).unwrap();
                let l0a = frame(target.l0a_pattern(), t, &[m, k]).unwrap();
                let d = check_l1_to_l0(&l1, [0, 0], &l0a, t, target, Buffer::L0A);
                if target == Target::A2 {
                    // catlass: one LoadData per row of fractals, repeatTimes = K1, srcStride = M1
                    let m1 = (m + 15) / 16;
                    let k1 = (k + t.c0() - 1) / t.c0();
                    assert_eq!(d.instrs[0].repeat, m1);
                    let Intrinsic::LoadData2D(p) = &d.instrs[0].intrinsic else { panic!() };
                    assert_eq!((p.repeat_times, p.src_stride, p.dst_gap, p.if_transpose), (k1, m1, 0, false));
                }
            }
            // a sub-tile of a bigger L1 buffer at a fractal-aligned coordinate
            let big = frame(FramePattern::NZ, t, &[96, 4 * t.c0()]).unwrap();
            let l0a = frame(target.l0a_pattern(), t, &[32, 2 * t.c0()]).unwrap();
            check_l1_to_l0(&big, [48, t.c0()], &l0a, t, target, Buffer::L0A);
        }
    }
    // f16 A given transposed (DN in GM → ZN in L1) → ZZ on A2 with per-fractal transpose
    let zn = frame(FramePattern::ZN, ElementType::F16, &[40, 56]).unwrap();
    let zz = frame(FramePattern::ZZ, ElementType::F16, &[40, 56]).unwrap();
    let d = check_l1_to_l0(&zn, [0, 0], &zz, ElementType::F16, Target::A2, Buffer::L0A);
    let Intrinsic::LoadData2D(p) = &d.instrs[0].intrinsic else { panic!() };
    assert!(p.if_transpose);
}

#[test]
fn l1_to_l0b_both_targets() {
    for (m_k, n) in [(64, 48), (56, 24), (33, 5), (1, 1), (96, 80)] {
        // A2 f16: L1 NZ(K,N) → L0B ZN(K,N), transposed per 16×16 fractal
        let nz = frame(FramePattern::NZ, ElementType::F16, &[m_k, n]).unwrap();
        let zn = frame(FramePattern::ZN, ElementType::F16, &[m_k, n]).unwrap();
        let d = check_l1_to_l0(&nz, [0, 0], &zn, ElementType::F16, Target::A2, Buffer::L0B);
        let Intrinsic::LoadData2D(p) = &d.instrs[0].intrinsic else { panic!() };
        assert!(p.if_transpose);
        // ZN → ZN without transpose, every type, both targets
        for t in [ElementType::F16, ElementType::I8, ElementType::F32] {
            for target in [Target::A2, Target::A5] {
                let l1 = frame(FramePattern::ZN, t, &[m_k, n]).unwrap();
                let l0b = frame(FramePattern::ZN, t, &[m_k, n]).unwrap();
                check_l1_to_l0(&l1, [0, 0], &l0b, t, target, Buffer::L0B);
            }
        }
    }
}

#[test]
fn a5_transposing_load_data_v2_nz_to_zn() {
    // A5, 16-bit: L1 NZ(K,N) → L0B ZN(K,N) with LoadData2DParamsV2 { ifTranspose = true }
    // (catlass ascend950 zN → nZ): mStep = K fractals, kStep = N fractals, srcStride = K1,
    // dstStride = N1 (the nZ row-block stride).
    for t in [ElementType::F16, ElementType::BF16] {
        for (k, n) in [(64, 48), (56, 24), (33, 5), (1, 1), (96, 80), (40, 300)] {
            let nz = frame(FramePattern::NZ, t, &[k, n]).unwrap();
            let zn = frame(FramePattern::ZN, t, &[k, n]).unwrap();
            let d = check_l1_to_l0(&nz, [0, 0], &zn, t, Target::A5, Buffer::L0B);
            let Intrinsic::LoadData2DV2(p) = &d.instrs[0].intrinsic else { panic!() };
            let (k1, n1) = ((k + 15) / 16, (n + 15) / 16);
            assert_eq!(
                (
                    p.m_start_position,
                    p.k_start_position,
                    p.m_step,
                    p.k_step,
                    p.src_stride,
                    p.dst_stride,
                    p.if_transpose
                ),
                (0, 0, k1, n1, k1, n1, true)
            );
        }
        // a fractal-aligned sub-tile of a bigger L1 buffer: start positions
        let big = frame(FramePattern::NZ, t, &[96, 80]).unwrap();
        let zn = frame(FramePattern::ZN, t, &[32, 48]).unwrap();
        let d = check_l1_to_l0(&big, [48, 16], &zn, t, Target::A5, Buffer::L0B);
        let Intrinsic::LoadData2DV2(p) = &d.instrs[0].intrinsic else { panic!() };
        assert_eq!((p.m_start_position, p.k_start_position, p.src_stride, p.dst_stride), (3, 1, 6, 3));
        // A given transposed: L1 ZN(M,K) → L0A NZ(M,K)
        let zn = frame(FramePattern::ZN, t, &[40, 56]).unwrap();
        let nz = frame(FramePattern::NZ, t, &[40, 56]).unwrap();
        check_l1_to_l0(&zn, [0, 0], &nz, t, Target::A5, Buffer::L0A);
    }
}

fn align(x: i64, a: i64) -> i64 {
    (x + a - 1) / a * a
}

#[test]
fn a2_load_data_with_transpose_8bit() {
    // A2, i8: L1 NZ(K,N) (16×32 fractals) → L0B ZN(K,N) (32×16 fractals) with
    // LoadDataWithTranspose: one call per 32-row square row, repeatTimes = squares along N,
    // srcStride = K1/2 squares, dstGap = 1, dstFracGap = 0. L1 rows padded to 32 and L0B
    // columns to 32 where the tail needs it.
    let t = ElementType::I8;
    for (k, n) in [(64, 64), (60, 24), (33, 5), (1, 1), (96, 80), (32, 32 * 260)] {
        let nz = frame(FramePattern::NZ, t, &[align(k, 32), n]).unwrap();
        let zn = frame(FramePattern::ZN, t, &[k, align(n, 32)]).unwrap();
        let d = check_l1_to_l0(&nz, [0, 0], &zn, t, Target::A2, Buffer::L0B);
        let squares = align(n, 32) / 32;
        let reps = transpose_repeats(&d);
        let want: Vec<i64> = (0..squares).step_by(255).map(|s| (squares - s).min(255)).collect();
        assert_eq!(reps, want, "{k}x{n}");
        let Intrinsic::LoadDataWithTranspose(p) = &d.instrs[0].intrinsic else { panic!() };
        assert_eq!((p.start_index, p.src_stride, p.dst_gap, p.dst_frac_gap), (0, align(k, 32) / 32, 1, 0));
        assert_eq!(d.instrs[0].repeat, align(k, 32) / 32);
    }
    // A given transposed: L1 ZN(M,K) → L0A ZZ(M,K): the two halves of a square are a ZZ row
    // of fractals apart (dstFracGap = K1 − 1).
    for (m, k) in [(64, 96), (40, 70), (1, 1)] {
        let zn = frame(FramePattern::ZN, t, &[m, align(k, 32)]).unwrap();
        let zz = frame(FramePattern::ZZ, t, &[align(m, 32), k]).unwrap();
        let d = check_l1_to_l0(&zn, [0, 0], &zz, t, Target::A2, Buffer::L0A);
        let Intrinsic::LoadDataWithTranspose(p) = &d.instrs[0].intrinsic else { panic!() };
        let k1 = align(k, 32) / 32;
        assert_eq!((p.dst_frac_gap, p.dst_gap), (k1 - 1, 2 * k1 - 1));
    }
    // a square-aligned sub-tile of a bigger L1 buffer
    let big = frame(FramePattern::NZ, t, &[128, 96]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[64, 64]).unwrap();
    check_l1_to_l0(&big, [32, 32], &zn, t, Target::A2, Buffer::L0B);
}

/// A2 i8, GM ND → L1 NZ → L0B ZN with odd fractal counts (k = 40: 3 16-row L1 fractals;
/// n = 40: 3 16-column L0B fractals): the L1 tile is allocated with rows padded to 32 and the
/// L0B tile with columns padded to 32, both keeping the real (k, n) as origin. Every element of
/// the real region is checked at `crd_to_offset` against GM; the extra L0B columns n..align(n,
/// 32) of the real rows hold the ND2NZ zero fill of the L1 C0 tail, the extra rows
/// k..align(k, 32) whatever the L1 padding held (poison here, never read by Mmad: k is real).
#[test]
fn a2_load_data_with_transpose_8bit_odd_fractal_counts() {
    let t = ElementType::I8;
    for (k, n) in [(40, 40), (17, 5), (48, 80), (80, 17)] {
        let (kp, np) = (align(k, 32), align(n, 32));
        let with_origin =
            |l: Layout| l.with_new_origin(layout_algebra::Tuple::from_vec(vec![k.into(), n.into()])).unwrap();
        let gm_l = frame(FramePattern::ND, t, &[k, n]).unwrap();
        let l1_l = with_origin(frame(FramePattern::NZ, t, &[kp, n]).unwrap());
        let l0_l = with_origin(frame(FramePattern::ZN, t, &[k, np]).unwrap());
        let mut gm = vec![0u8; (k * n) as usize];
        for i in 0..(k * n) as usize {
            set(&mut gm, t, i, pattern(t, i));
        }
        let mut l1 = vec![POISON; l1_l.cosize().unwrap() as usize];
        let d = gm_nd_to_l1_nz(&Operand::new(&gm_l), &Operand::new(&l1_l), t, Target::A2).unwrap();
        run1(&d, &mut l1, &gm, t, Target::A2);
        let d = l1_to_l0b(&Operand::new(&l1_l), &Operand::new(&l0_l), t, Target::A2).unwrap_or_else(|e| panic!("{e}"));
        assert!(d.assumptions.is_empty());
        let Intrinsic::LoadDataWithTranspose(p) = &d.instrs[0].intrinsic else { panic!() };
        assert_eq!((p.repeat_times, p.src_stride, d.instrs[0].repeat), (np / 32, kp / 32, kp / 32), "{k}x{n}");
        let mut l0 = vec![POISON; l0_l.cosize().unwrap() as usize];
        run1(&d, &mut l0, &l1, t, Target::A2);
        for r in 0..k {
            for c in 0..n {
                assert_eq!(get(&l0, t, off(&l0_l, r, c)), get(&gm, t, off(&gm_l, r, c)), "{k}x{n} ({r},{c})");
            }
            for c in n..np {
                assert_eq!(get(&l0, t, off(&l0_l, r, c)), 0, "{k}x{n} padding column ({r},{c})");
            }
        }
    }
    // Without the padding the squares would leave the tiles: typed errors, no panic.
    let nz = frame(FramePattern::NZ, t, &[40, 40]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[40, 64]).unwrap();
    assert!(l1_to_l0b(&Operand::new(&nz), &Operand::new(&zn), t, Target::A2).is_err());
    let nz = frame(FramePattern::NZ, t, &[64, 40]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[40, 40]).unwrap();
    assert!(l1_to_l0b(&Operand::new(&nz), &Operand::new(&zn), t, Target::A2).is_err());
    // Mmad with a square-padded L0B needs L0C padded too (the cube writes align(n, 32) columns).
    let org = |l: Layout, r: i64, c: i64| {
        l.with_new_origin(layout_algebra::Tuple::from_vec(vec![r.into(), c.into()])).unwrap()
    };
    let a0 = frame(FramePattern::ZZ, t, &[40, 40]).unwrap();
    let b0 = org(frame(FramePattern::ZN, t, &[40, 64]).unwrap(), 40, 40);
    let c_real = frame(FramePattern::L0C, ElementType::I32, &[40, 40]).unwrap();
    let c_pad = org(frame(FramePattern::L0C, ElementType::I32, &[40, 64]).unwrap(), 40, 40);
    let mm = |c: &Layout| {
        mmad(&Operand::new(c), &Operand::new(&a0), &Operand::new(&b0), t, ElementType::I32, Target::A2, false)
    };
    assert!(mm(&c_real).is_err());
    let Intrinsic::Mmad(p) = &mm(&c_pad).unwrap().instrs[0].intrinsic else { panic!() };
    // m, n: the fractal grids of A (48 rows) and the padded B (64 columns); k exact.
    assert_eq!((p.m, p.n, p.k), (48, 64, 40));
}

#[test]
fn repeat_times_over_255_is_split_and_still_correct() {
    let t = ElementType::F16;
    let (m, k) = (32, 16 * 300);
    let l1 = frame(FramePattern::NZ, t, &[m, k]).unwrap();
    let zz = frame(FramePattern::ZZ, t, &[m, k]).unwrap();
    let d = check_l1_to_l0(&l1, [0, 0], &zz, t, Target::A2, Buffer::L0A);
    assert_eq!(d.instrs.len(), 2);
    let reps: Vec<i64> = d
        .instrs
        .iter()
        .map(|i| match &i.intrinsic {
            Intrinsic::LoadData2D(p) => p.repeat_times,
            _ => 0,
        })
        .collect();
    assert_eq!(reps, vec![255, 45]);
}

#[test]
fn gm_row_stride_over_u16_splits_per_row_on_a2() {
    let t = ElementType::F16;
    let parent = Layout::new(common::crd(5, 40), common::crd(70_000, 1)).unwrap();
    let a2 = check_gm_to_l1(&parent, [5, 40], [0, 0], FramePattern::NZ, t, Target::A2);
    let a5 = check_gm_to_l1(&parent, [5, 40], [0, 0], FramePattern::NZ, t, Target::A5);
    assert_eq!(a2, a5);
    let dst = frame(FramePattern::NZ, t, &[5, 40]).unwrap();
    let d = gm_nd_to_l1_nz(&Operand::new(&parent), &Operand::new(&dst), t, Target::A2).unwrap();
    let Intrinsic::DataCopyNd2Nz(p) = &d.instrs[0].intrinsic else { panic!() };
    assert_eq!((d.instrs[0].repeat, p.n_value, d.instrs[0].srcs[0].step), (5, 1, 70_000));
    let d = gm_nd_to_l1_nz(&Operand::new(&parent), &Operand::new(&dst), t, Target::A5).unwrap();
    let Intrinsic::DataCopyNd2Nz(p) = &d.instrs[0].intrinsic else { panic!() };
    assert_eq!((d.instrs[0].repeat, p.n_value, p.src_d_value), (1, 5, 70_000));
}

#[test]
fn nz_to_nz_data_copy() {
    let t = ElementType::F16;
    let gm = frame(FramePattern::NZ, t, &[100, 100]).unwrap();
    let l1 = frame(FramePattern::NZ, t, &[32, 48]).unwrap();
    let src_l = tile_layout(&gm, &[32, 48], &[32, 16]).unwrap();
    let d = copy_nz_to_nz(&Operand::new(&src_l).at(32, 16), &Operand::new(&l1), Buffer::Gm, Buffer::L1, t).unwrap();
    let Intrinsic::DataCopy(p) = &d.instrs[0].intrinsic else { panic!() };
    assert_eq!(p, &DataCopyParams { block_count: 3, block_len: 32, src_stride: 112 - 32, dst_stride: 0 });
    let mut g = vec![0u8; gm.cosize().unwrap() as usize * 2];
    for i in 0..g.len() / 2 {
        set(&mut g, t, i, pattern(t, i));
    }
    let mut l = vec![POISON; l1.cosize().unwrap() as usize * 2];
    run1(&d, &mut l, &g, t, Target::A2);
    for r in 0..32 {
        for c in 0..48 {
            assert_eq!(get(&l, t, off(&l1, r, c)), get(&g, t, off(&gm, 32 + r, 16 + c)));
        }
    }
}

/// Full GEMM from derived parameters only, run on the model, against a reference loop.
fn gemm(t: ElementType, target: Target, m: i64, k: i64, n: i64, b_dn: bool) {
    let acc = if t == ElementType::I8 { ElementType::I32 } else { ElementType::F32 };
    let a_gm = frame(FramePattern::ND, t, &[m, k]).unwrap();
    let b_gm = frame(if b_dn { FramePattern::DN } else { FramePattern::ND }, t, &[k, n]).unwrap();
    let c_gm = frame(FramePattern::ND, acc, &[m, n]).unwrap();
    let a_l1 = frame(FramePattern::NZ, t, &[m, k]).unwrap();
    // A2 i8 with B row-major: whole 32×32 squares (catlass): L1 rows and L0B/L0C columns
    // padded to 32, the origin (valid extent) stays the real (k, n) / (m, n).
    let squares = t == ElementType::I8 && target == Target::A2 && !b_dn;
    let (kp, np) = if squares { (align(k, 32), align(n, 32)) } else { (k, n) };
    let real = |l: Layout, r: i64, c: i64| {
        l.with_new_origin(layout_algebra::Tuple::from_vec(vec![r.into(), c.into()])).unwrap()
    };
    let b_l1 = real(frame(if b_dn { FramePattern::ZN } else { FramePattern::NZ }, t, &[kp, n]).unwrap(), k, n);
    let a_l0 = frame(target.l0a_pattern(), t, &[m, k]).unwrap();
    let b_l0 = real(frame(FramePattern::ZN, t, &[k, np]).unwrap(), k, n);
    let c_l0 = real(frame(FramePattern::L0C, acc, &[m, np]).unwrap(), m, n);
    let vals = |i: usize, salt: usize| -> i64 { ((i * 7919 + salt * 104729) % 17) as i64 - 8 };
    let enc = |v: i64| -> u32 {
        match t {
            ElementType::I8 => v as i8 as u8 as u32,
            // small integers are exact in f16: sign, exponent, mantissa by hand
            _ => half_bits(v as f32) as u32,
        }
    };
    let mut a = vec![0u8; (m * k) as usize * eb(t)];
    let mut b = vec![0u8; (k * n) as usize * eb(t)];
    for r in 0..m {
        for c in 0..k {
            set(&mut a, t, off(&a_gm, r, c), enc(vals((r * k + c) as usize, 1)));
        }
    }
    for r in 0..k {
        for c in 0..n {
            set(&mut b, t, off(&b_gm, r, c), enc(vals((r * n + c) as usize, 2)));
        }
    }
    let mut a1 = vec![POISON; a_l1.cosize().unwrap() as usize * eb(t)];
    let mut b1 = vec![POISON; b_l1.cosize().unwrap() as usize * eb(t)];
    let mut a0 = vec![POISON; a_l0.cosize().unwrap() as usize * eb(t)];
    let mut b0 = vec![POISON; b_l0.cosize().unwrap() as usize * eb(t)];
    let mut c0 = vec![POISON; c_l0.cosize().unwrap() as usize * 4];
    let mut out = vec![POISON; (m * n) as usize * 4];
    run1(&gm_nd_to_l1_nz(&Operand::new(&a_gm), &Operand::new(&a_l1), t, target).unwrap(), &mut a1, &a, t, target);
    run1(&gm_nd_to_l1_nz(&Operand::new(&b_gm), &Operand::new(&b_l1), t, target).unwrap(), &mut b1, &b, t, target);
    run1(&l1_to_l0a(&Operand::new(&a_l1), &Operand::new(&a_l0), t, target).unwrap(), &mut a0, &a1, t, target);
    run1(&l1_to_l0b(&Operand::new(&b_l1), &Operand::new(&b_l0), t, target).unwrap(), &mut b0, &b1, t, target);
    let mm = mmad(&Operand::new(&c_l0), &Operand::new(&a_l0), &Operand::new(&b_l0), t, acc, target, false).unwrap();
    let Intrinsic::Mmad(p) = &mm.instrs[0].intrinsic else { panic!() };
    // The cube's m and n are the fractal grids of A and B (B padded to whole squares when it
    // reads 8-bit squares); k is exact.
    let cube_n = if squares { np } else { align(n, 16) };
    assert_eq!((p.m, p.n, p.k, p.cmatrix_init_val), (align(m, 16), cube_n, k, true));
    execute(&mm.instrs[0], &mut c0, &[&a0, &b0], &[acc, t, t], target).unwrap();
    // The extra L0C columns n..np the padded cube wrote (from L0B padding) cannot reach GM:
    // poison them, Fixpipe stores only the real n columns (nSize = n) into an m×n buffer.
    for r in 0..m {
        for c in n..np {
            set(&mut c0, acc, off(&c_l0, r, c), 0xDEAD_BEEF);
        }
    }
    let fx = l0c_to_gm_nd(&Operand::new(&c_l0), &Operand::new(&c_gm), acc, acc, target).unwrap();
    let Intrinsic::FixpipeNz2Nd(fp) = &fx.instrs[0].intrinsic else { panic!() };
    assert_eq!((fp.n_size, fp.m_size), (n, m));
    execute(&fx.instrs[0], &mut out, &[&c0], &[acc, acc], target).unwrap();
    for r in 0..m {
        for c in 0..n {
            let want: i64 = (0..k).map(|x| vals((r * k + x) as usize, 1) * vals((x * n + c) as usize, 2)).sum();
            let got = get(&out, acc, off(&c_gm, r, c));
            let got = if acc == ElementType::I32 { got as i32 as i64 } else { f32::from_bits(got) as i64 };
            assert_eq!(got, want, "{t} {target:?} {m}x{k}x{n} C[{r}][{c}]");
        }
    }
}

/// f16 bits of a small integer-valued float (exact).
fn half_bits(f: f32) -> u16 {
    if f == 0.0 {
        return 0;
    }
    let sign = if f < 0.0 { 0x8000u16 } else { 0 };
    let a = f.abs();
    let e = a.log2().floor() as i32;
    let mant = ((a / 2f32.powi(e) - 1.0) * 1024.0).round() as u16;
    sign | (((e + 15) as u16) << 10) | mant
}

#[test]
fn gemm_from_derived_parameters_is_exact() {
    for target in [Target::A2, Target::A5] {
        for (m, k, n) in [(64, 64, 48), (40, 56, 24), (17, 33, 5), (1, 1, 1), (33, 70, 20)] {
            gemm(ElementType::I8, target, m, k, n, true);
            gemm(ElementType::F16, target, m, k, n, true);
            gemm(ElementType::F16, target, m, k, n, false);
        }
        // i8 with B row-major (ND) in GM: the transposing load reads whole 32×32 squares, so
        // the L1 tile has rows padded to 32 and L0B/L0C columns padded to 32 (odd fractal
        // counts: k = 40 has 3 16-row L1 fractals, n = 40 / 17 / 5 have 3 / 2 / 1 16-column ones).
        if target == Target::A2 {
            for (m, k, n) in
                [(64, 64, 64), (40, 60, 24), (17, 20, 32), (40, 40, 40), (33, 17, 5), (16, 80, 17), (1, 1, 1)]
            {
                gemm(ElementType::I8, target, m, k, n, false);
            }
        }
    }
}

#[test]
fn accumulate_sets_cmatrix_init_val_false() {
    let t = ElementType::F16;
    let a = frame(FramePattern::ZZ, t, &[32, 32]).unwrap();
    let b = frame(FramePattern::ZN, t, &[32, 16]).unwrap();
    let c = frame(FramePattern::L0C, ElementType::F32, &[32, 16]).unwrap();
    let d =
        mmad(&Operand::new(&c), &Operand::new(&a), &Operand::new(&b), t, ElementType::F32, Target::A2, true).unwrap();
    let Intrinsic::Mmad(p) = &d.instrs[0].intrinsic else { panic!() };
    assert!(!p.cmatrix_init_val && !p.cmatrix_source);
}

#[test]
fn fixpipe_parameters_for_a_tail_tile() {
    // C 100x70 f16 in GM, tile (32,48) at (96,48): mSize 4, nSize 22 (tails), srcStride 32
    let gm = frame(FramePattern::ND, ElementType::F16, &[100, 70]).unwrap();
    let tile = tile_layout(&gm, &[32, 48], &[96, 48]).unwrap();
    let l0c = frame(FramePattern::L0C, ElementType::F32, &[32, 48]).unwrap();
    let d = l0c_to_gm_nd(
        &Operand::new(&l0c),
        &Operand::new(&tile).at(96, 48),
        ElementType::F32,
        ElementType::F16,
        Target::A2,
    )
    .unwrap();
    let Intrinsic::FixpipeNz2Nd(p) = &d.instrs[0].intrinsic else { panic!() };
    assert_eq!((p.n_size, p.m_size, p.src_stride, p.dst_stride, p.quant_pre), (22, 4, 32, 70, QuantMode::F322F16));
    assert_eq!(d.instrs[0].dst.offset, 96 * 70 + 48);
}

#[test]
fn fixpipe_epilogue_fields_and_the_combinations_without_a_mode() {
    // i32 40x24 -> f16 with relu and scale 0.25: DEQF16, reluEn, deqScalar = bits(0.25f).
    let l0c = frame(FramePattern::L0C, ElementType::I32, &[40, 24]).unwrap();
    let gm = frame(FramePattern::ND, ElementType::F16, &[40, 24]).unwrap();
    let (src, dst) = (Operand::new(&l0c), Operand::new(&gm));
    let deq = Epilogue { relu: true, scale: Some(0.25) };
    let d = l0c_to_gm_nd_with(&src, &dst, (ElementType::I32, ElementType::F16), Target::A2, deq).unwrap();
    let Intrinsic::FixpipeNz2Nd(p) = &d.instrs[0].intrinsic else { panic!() };
    assert_eq!((p.quant_pre, p.relu_en, p.deq_scalar), (QuantMode::DEQF16, true, 0x3E80_0000));
    assert_eq!((p.n_size, p.m_size, p.src_stride), (24, 40, 48));
    // The same to GM NZ (C0 = 16).
    let nz = frame(FramePattern::NZ, ElementType::F16, &[40, 24]).unwrap();
    let d = l0c_to_gm_nz_with(&src, &Operand::new(&nz), (ElementType::I32, ElementType::F16), Target::A5, deq).unwrap();
    let Intrinsic::FixpipeNz2Nz(p) = &d.instrs[0].intrinsic else { panic!() };
    assert_eq!((p.quant_pre, p.relu_en, p.deq_scalar, p.n_size), (QuantMode::DEQF16, true, 0x3E80_0000, 32));
    // i32 -> f16 without a scale, and a scale on f32 -> f16, have no quantPre mode.
    let none = l0c_to_gm_nd_with(&src, &dst, (ElementType::I32, ElementType::F16), Target::A2, Epilogue::NONE);
    assert!(none.unwrap_err().to_string().contains("i32 → f16 (supported:"));
    let f32_l0c = frame(FramePattern::L0C, ElementType::F32, &[40, 24]).unwrap();
    let scaled = Epilogue { relu: false, scale: Some(2.0) };
    let err =
        l0c_to_gm_nd_with(&Operand::new(&f32_l0c), &dst, (ElementType::F32, ElementType::F16), Target::A2, scaled);
    assert!(err.unwrap_err().to_string().contains("f32 → f16 with scale 2"));
    // The scale the hardware uses: the low 13 mantissa bits dropped.
    assert_eq!(fixpipe_scale(0.1).to_bits(), 0.1f32.to_bits() & !0x1fff);
    assert_eq!(fixpipe_scale(0.25), 0.25);
    assert_eq!(QuantMode::ALL.map(QuantMode::abi_code), [0, 1, 2, 3]);
    assert!(QuantMode::ALL.iter().all(|m| QuantMode::from_name(m.name()) == Some(*m)));
}

/// L0C tile (`tile`, f32, values v(r, c) small integers) → the tile at `at` of the GM NZ
/// `gm` (`rows × cols` valid) through `l0c_to_gm_nz`, on poisoned buffers. Every destination
/// element of the valid tile is checked at `crd_to_offset` of the destination layout; the
/// columns up to the next C0 boundary (documented whole 32-B blocks) hold the L0C values at the
/// same positions; every other byte is still poison.
fn check_fixpipe_nz(
    gm: &Layout,
    (rows, cols): (i64, i64),
    tile: [i64; 2],
    at: [i64; 2],
    out: ElementType,
    target: Target,
) -> FixpipeParamsV220 {
    let acc = ElementType::F32;
    let dst_l = tile_layout(gm, &tile, &at).unwrap();
    let l0c = frame(FramePattern::L0C, acc, &tile).unwrap();
    let d = l0c_to_gm_nz(&Operand::new(&l0c), &Operand::new(&dst_l).at(at[0], at[1]), acc, out, target).unwrap();
    let v = |r: i64, c: i64| ((r * tile[1] + c) % 1000 + 1) as f32;
    // the whole (16-padded) L0C tile holds values: the padding columns are copied too
    let mut c0 = vec![POISON; l0c.cosize().unwrap() as usize * 4];
    for r in 0..align(tile[0], 16) {
        for c in 0..align(tile[1], 16) {
            set(&mut c0, acc, off(&l0c, r, c), v(r, c).to_bits());
        }
    }
    let mut g = vec![POISON; gm.cosize().unwrap() as usize * eb(out)];
    execute(&d.instrs[0], &mut g, &[&c0], &[out, acc], target).unwrap_or_else(|e| panic!("{e}"));
    let conv = |x: f32| if out == acc { x.to_bits() } else { u32::from(half_bits(x)) };
    let c0_elems = 32 / eb(out) as i64;
    let (er, ec) = ((rows - at[0]).min(tile[0]), (cols - at[1]).min(tile[1]));
    let mut want: Vec<Option<u32>> = vec![None; gm.cosize().unwrap() as usize];
    for r in 0..er {
        for c in 0..align(ec, c0_elems) {
            want[off(gm, at[0] + r, at[1] + c)] = Some(conv(v(r, c)));
        }
    }
    let poison = get(&[POISON; 4], out, 0);
    for (i, w) in want.iter().enumerate() {
        assert_eq!(get(&g, out, i), w.unwrap_or(poison), "{out} {target:?} tile {tile:?} at {at:?}: GM element {i}");
    }
    let Intrinsic::FixpipeNz2Nz(p) = &d.instrs[0].intrinsic else { panic!("not NZ2NZ: {:?}", d.instrs[0].intrinsic) };
    p.clone()
}

#[test]
fn fixpipe_nz2nz_f32_channel_split_and_f16_tails() {
    for target in [Target::A2, Target::A5] {
        // dstStride between destination column blocks: 32 B blocks (C0 elements) on a2
        // (FixpipeParamsV220), elements on a5 (FixpipeParamsArch3510).
        let unit = |c0: i64| if target == Target::A5 { c0 } else { 1 };
        // f32 GM NZ 40x20 (C0 = 8): ((16,3),(8,3)):((8,128),(1,384)); whole tensor, m and n tails.
        let gm = frame(FramePattern::NZ, ElementType::F32, &[40, 20]).unwrap();
        let p = check_fixpipe_nz(&gm, (40, 20), [40, 20], [0, 0], ElementType::F32, target);
        assert_eq!(
            (p.n_size, p.m_size, p.src_stride, p.dst_stride, p.is_channel_split),
            (24, 40, 48, 48 * unit(8), true)
        );
        // f32 tile (32,16) at (32,8) of a 70x30 NZ: tails in both modes (rows 38, cols 22 → 24).
        let gm = frame(FramePattern::NZ, ElementType::F32, &[70, 30]).unwrap();
        let p = check_fixpipe_nz(&gm, (70, 30), [32, 16], [32, 8], ElementType::F32, target);
        assert_eq!((p.n_size, p.m_size, p.dst_stride), (16, 32, 80 * unit(8)));
        let p = check_fixpipe_nz(&gm, (70, 30), [32, 24], [64, 16], ElementType::F32, target);
        assert_eq!((p.n_size, p.m_size), (16, 6));
        // f16 (F322F16, C0 = 16): tile (32,48) at (96,48) of 100x70: 4 rows, 22 cols → nSize 32.
        let gm = frame(FramePattern::NZ, ElementType::F16, &[100, 70]).unwrap();
        let p = check_fixpipe_nz(&gm, (100, 70), [32, 48], [96, 48], ElementType::F16, target);
        assert_eq!(
            (p.n_size, p.m_size, p.src_stride, p.dst_stride, p.quant_pre, p.is_channel_split),
            (32, 4, 32, 112 * unit(16), QuantMode::F322F16, false)
        );
        let p = check_fixpipe_nz(&gm, (100, 70), [48, 32], [16, 0], ElementType::F16, target);
        assert_eq!((p.n_size, p.m_size), (32, 48));
    }
}

/// a5 `disableGemv`: an Mmad with m = 1 runs in GEMV mode unless `disableGemv` is true, and
/// GEMV reads A as K contiguous elements instead of row 0 of its NZ fractals. The derivation
/// sets it on a5 (and passes the padded m = 16); here m is forced to the real 1, as a kernel
/// passing real sizes (catlass) does: with the derived `disableGemv = true` the product is
/// right, with the 3510 default (false) the model reads the contiguous row and gets another one.
#[test]
fn a5_mmad_with_m_1_needs_disable_gemv() {
    let t = ElementType::F16;
    let (k, n) = (40i64, 24i64);
    let a_l0 = frame(FramePattern::NZ, t, &[1, k]).unwrap();
    let b_l0 = frame(FramePattern::ZN, t, &[k, n]).unwrap();
    let c_l0 = frame(FramePattern::L0C, ElementType::F32, &[1, n]).unwrap();
    let mut a0 = vec![0u8; a_l0.cosize().unwrap() as usize * 2];
    let mut b0 = vec![0u8; b_l0.cosize().unwrap() as usize * 2];
    let av = |x: i64| (x * 5 % 7) - 3;
    let bv = |x: i64, c: i64| ((x * 3 + c * 11) % 9) - 4;
    // Every element of A's buffer gets a value: row 0 of the fractals holds A, the others
    // (what GEMV would read at offsets 16..K) hold other numbers.
    for i in 0..a_l0.cosize().unwrap() as usize {
        set(&mut a0, t, i, half_bits(((i * 13 % 11) as f32) - 5.0) as u32);
    }
    for x in 0..k {
        set(&mut a0, t, off(&a_l0, 0, x), half_bits(av(x) as f32) as u32);
        for c in 0..n {
            set(&mut b0, t, off(&b_l0, x, c), half_bits(bv(x, c) as f32) as u32);
        }
    }
    let d =
        mmad(&Operand::new(&c_l0), &Operand::new(&a_l0), &Operand::new(&b_l0), t, ElementType::F32, Target::A5, false)
            .unwrap();
    let Intrinsic::Mmad(p) = &d.instrs[0].intrinsic else { panic!() };
    assert!(p.disable_gemv, "a5 Mmad must disable GEMV");
    let a2 = frame(FramePattern::ZZ, t, &[1, k]).unwrap();
    let d2 =
        mmad(&Operand::new(&c_l0), &Operand::new(&a2), &Operand::new(&b_l0), t, ElementType::F32, Target::A2, false);
    let Intrinsic::Mmad(p2) = &d2.unwrap().instrs[0].intrinsic else { panic!() };
    assert!(!p2.disable_gemv, "a2 MmadParams has no disableGemv");
    let run = |disable_gemv: bool| -> Vec<i64> {
        let mut instr = d.instrs[0].clone();
        instr.intrinsic = Intrinsic::Mmad(MmadParams { m: 1, disable_gemv, ..p.clone() });
        let mut c0 = vec![0u8; c_l0.cosize().unwrap() as usize * 4];
        execute(&instr, &mut c0, &[&a0, &b0], &[ElementType::F32, t, t], Target::A5).unwrap();
        (0..n).map(|c| f32::from_bits(get(&c0, ElementType::F32, off(&c_l0, 0, c))) as i64).collect()
    };
    let want: Vec<i64> = (0..n).map(|c| (0..k).map(|x| av(x) * bv(x, c)).sum()).collect();
    assert_eq!(run(true), want);
    // GEMV: A[0][x] is the buffer's element x.
    let a_at = |i: usize| (0..k).find(|&x| off(&a_l0, 0, x) == i).map_or((i * 13 % 11) as i64 - 5, av);
    let gemv: Vec<i64> = (0..n).map(|c| (0..k).map(|x| a_at(x as usize) * bv(x, c)).sum()).collect();
    assert_ne!(gemv, want);
    assert_eq!(run(false), gemv, "GEMV mode reads A as one contiguous row");
}

#[test]
fn a2_load_data_with_transpose_32bit() {
    // A2, f32: LoadDataWithTranspose joins two consecutive 16×8 fractals side by side into a
    // 16×16 square, so the L1 fractals must be contiguous along the 8-element mode: B in L1 ZZ(K,N)
    // → L0B ZN(K,N), A in L1 NN(M,K) → L0A ZZ(M,K). Every destination element is compared with
    // the source at the same coordinate (the model only knows the documented square semantics).
    let t = ElementType::F32;
    for (k, n) in [(16, 32), (32, 16), (64, 48), (16, 16 * 260)] {
        let zz = frame(FramePattern::ZZ, t, &[k, n]).unwrap();
        let zn = frame(FramePattern::ZN, t, &[k, n]).unwrap();
        let d = check_l1_to_l0(&zz, [0, 0], &zn, t, Target::A2, Buffer::L0B);
        let n1 = n / 16;
        let reps = transpose_repeats(&d);
        let want: Vec<i64> = (0..n1).step_by(255).map(|s| (n1 - s).min(255)).collect();
        assert_eq!(reps, want, "{k}x{n}");
        let Intrinsic::LoadDataWithTranspose(p) = &d.instrs[0].intrinsic else { panic!() };
        // the catlass float zZ → nZ values: srcStride 1, dstGap 0, dstFracGap N/16 − 1
        assert_eq!((p.start_index, p.src_stride, p.dst_gap, p.dst_frac_gap), (0, 1, 0, n1 - 1), "{k}x{n}");
        assert_eq!(d.instrs[0].repeat, k / 16);
    }
    // The documented float example: B 16×32 in L1 NZ (one 16-row fractal: its column blocks
    // are contiguous) → L0B: repeatTimes 2, srcStride 1, dstGap 0, dstFracGap 1.
    let nz = frame(FramePattern::NZ, t, &[16, 32]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[16, 32]).unwrap();
    let d = check_l1_to_l0(&nz, [0, 0], &zn, t, Target::A2, Buffer::L0B);
    let Intrinsic::LoadDataWithTranspose(p) = &d.instrs[0].intrinsic else { panic!() };
    assert_eq!((p.repeat_times, p.src_stride, p.dst_gap, p.dst_frac_gap), (2, 1, 0, 1));
    // A given transposed: L1 NN(M,K) → L0A ZZ(M,K) (catlass float nN → zZ)
    for (m, k) in [(16, 16), (48, 32), (32, 64)] {
        let nn = frame(FramePattern::NN, t, &[m, k]).unwrap();
        let zz = frame(FramePattern::ZZ, t, &[m, k]).unwrap();
        let d = check_l1_to_l0(&nn, [0, 0], &zz, t, Target::A2, Buffer::L0A);
        let Intrinsic::LoadDataWithTranspose(p) = &d.instrs[0].intrinsic else { panic!() };
        // the catlass float nN → zZ values: one call per 16-row band, the squares along K
        // (repeatTimes K/16, srcStride M/16, dstGap 1, dstFracGap 0)
        assert_eq!((p.repeat_times, p.src_stride, p.dst_gap, p.dst_frac_gap), (k / 16, m / 16, 1, 0), "{m}x{k}");
        assert_eq!(d.instrs[0].repeat, m / 16, "{m}x{k}");
    }
    // a square-aligned sub-tile of a bigger L1 ZZ buffer
    let big = frame(FramePattern::ZZ, t, &[64, 64]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[32, 32]).unwrap();
    check_l1_to_l0(&big, [16, 32], &zn, t, Target::A2, Buffer::L0B);
}

/// A K tail with an odd number of 8-element fractals (k = 1..8, 17..24: the last L0 slice of
/// a dynamic K), written from the start of an L0 buffer of 32 K. The last square of every
/// 16-row band writes its second half one fractal past the tile along K: in L0A ZZ onto the
/// next band's first fractal, which the next band's call rewrites (so the calls must run band
/// by band), in L0B ZN one fractal row below the tile, inside the buffer. Every element of the
/// tile is compared with L1; the L0 memory is exactly the buffer (a write past it panics).
#[test]
fn a2_load_data_with_transpose_32bit_odd_k_fractal_counts() {
    let t = ElementType::F32;
    let fill = |l: &Layout| {
        let mut v = vec![0u8; l.cosize().unwrap() as usize * eb(t)];
        for i in 0..l.cosize().unwrap() as usize {
            set(&mut v, t, i, pattern(t, i));
        }
        v
    };
    for k in [1, 8, 17, 24, 32] {
        for (m, n) in [(16, 16), (48, 32)] {
            // A: L1 NN(m, 32) → L0A ZZ(m, k) in a ZZ(m, 32) buffer
            let nn = frame(FramePattern::NN, t, &[m, 32]).unwrap();
            let buf = frame(FramePattern::ZZ, t, &[m, 32]).unwrap();
            let zz = frame(FramePattern::ZZ, t, &[m, k]).unwrap();
            // B: L1 ZZ(32, n) → L0B ZN(k, n) in a ZN(32, n) buffer
            let zzb = frame(FramePattern::ZZ, t, &[32, n]).unwrap();
            let bufb = frame(FramePattern::ZN, t, &[32, n]).unwrap();
            let zn = frame(FramePattern::ZN, t, &[k, n]).unwrap();
            for (src_l, buf_l, dst_l, buffer) in [(&nn, &buf, &zz, Buffer::L0A), (&zzb, &bufb, &zn, Buffer::L0B)] {
                let l1 = fill(src_l);
                let dst = Operand::new(dst_l).in_buffer(buf_l);
                let d = l1_to_l0(&Operand::new(src_l), &dst, t, Target::A2, buffer).unwrap_or_else(|e| panic!("{e}"));
                let mut l0 = vec![POISON; buf_l.cosize().unwrap() as usize * eb(t)];
                run1(&d, &mut l0, &l1, t, Target::A2);
                for r in 0..dst_l.mode(0).unwrap().size().unwrap() {
                    for c in 0..dst_l.mode(1).unwrap().size().unwrap() {
                        let (want, got) = (get(&l1, t, off(src_l, r, c)), get(&l0, t, off(dst_l, r, c)));
                        assert_eq!(got, want, "k={k} {buffer:?} ({r},{c}) {src_l} -> {dst_l}");
                    }
                }
                // Without the buffer there is no room for the spare half: a clear error.
                if (k + 7) / 8 % 2 == 1 {
                    match l1_to_l0(&Operand::new(src_l), &Operand::new(dst_l), t, Target::A2, buffer) {
                        Err(ParamError::Layout { detail, .. }) => assert!(detail.contains("odd count"), "{detail}"),
                        other => panic!("{other:?}"),
                    }
                }
            }
        }
    }
    // A buffer with an odd fractal count along K (24) has no spare row either.
    let nn = frame(FramePattern::NN, t, &[16, 32]).unwrap();
    let zz = frame(FramePattern::ZZ, t, &[16, 24]).unwrap();
    let dst = Operand::new(&zz).in_buffer(&zz);
    match l1_to_l0(&Operand::new(&nn), &dst, t, Target::A2, Buffer::L0A) {
        Err(ParamError::Layout { detail, .. }) => assert!(detail.contains("even"), "{detail}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a2_load_data_with_transpose_32bit_rejects_wrong_pairs_and_odd_counts() {
    let t = ElementType::F32;
    let unsupported = |r: Result<Derived<i64>, ParamError>, what: &str| match r {
        Err(ParamError::Unsupported { detail, .. }) => assert!(detail.contains(what), "{detail}"),
        other => panic!("expected Unsupported ({what}), got {other:?}"),
    };
    // L1 NZ with two 16-row fractals: consecutive fractals are stacked along the rows, not side
    // by side, so a square would mix rows 0..15 and 16..31 (the matrix's NZ → ZN f32 cells).
    let nz = frame(FramePattern::NZ, t, &[32, 32]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[32, 32]).unwrap();
    unsupported(l1_to_l0b(&Operand::new(&nz), &Operand::new(&zn), t, Target::A2), "NZ → ZN for f32: a 16×16 square");
    let zn_a = frame(FramePattern::ZN, t, &[32, 32]).unwrap();
    let zz_a = frame(FramePattern::ZZ, t, &[32, 32]).unwrap();
    unsupported(
        l1_to_l0a(&Operand::new(&zn_a), &Operand::new(&zz_a), t, Target::A2),
        "ZN → ZZ for f32: a 16×16 square",
    );
    // an odd number of 8-row destination fractals: the second half of the last square would
    // land outside the L0B tile
    let zz = frame(FramePattern::ZZ, t, &[32, 32]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[24, 32]).unwrap();
    match l1_to_l0b(&Operand::new(&zz), &Operand::new(&zn), t, Target::A2) {
        Err(ParamError::Layout { detail, .. }) => assert!(detail.contains("odd count"), "{detail}"),
        other => panic!("{other:?}"),
    }
    // a source with fewer columns than the destination's squares need
    let zz = frame(FramePattern::ZZ, t, &[16, 24]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[16, 32]).unwrap();
    match l1_to_l0b(&Operand::new(&zz), &Operand::new(&zn), t, Target::A2) {
        Err(ParamError::Layout { detail, .. }) => assert!(detail.contains("smaller"), "{detail}"),
        other => panic!("{other:?}"),
    }
    // A5 has no LoadDataWithTranspose: still unsupported there
    let nz = frame(FramePattern::NZ, t, &[16, 32]).unwrap();
    let zn = frame(FramePattern::ZN, t, &[16, 32]).unwrap();
    assert!(l1_to_l0b(&Operand::new(&nz), &Operand::new(&zn), t, Target::A5).is_err());
}

/// `repeatTimes` of each derived call (−1 for a call that is not `LoadDataWithTranspose`).
fn transpose_repeats(d: &Derived<i64>) -> Vec<i64> {
    d.instrs
        .iter()
        .map(|i| match &i.intrinsic {
            Intrinsic::LoadDataWithTranspose(p) => p.repeat_times,
            _ => -1,
        })
        .collect()
}
