//! The declared element mapping against the CPU model: for small parameter sets of every
//! mapped intrinsic, the model runs one call on a source of distinct values; every element the
//! mapping says is moved must hold its source value, and every other destination element must
//! be untouched (or one of ND2NZ's zero-filled padding columns).

use layout_algebra::ascend::ElementType;

use super::*;
use crate::data_copy::{DataCopyParams, Nd2NzParams};
use crate::decl::{StaticValue, INTRINSICS};
use crate::exec::execute;
use crate::fixpipe::{FixpipeParamsV220, QuantMode};
use crate::instr::{Access, Instr, Intrinsic};
use crate::load_data::{LoadData2DParams, LoadData2DParamsV2, LoadData2dTransposeParams};
use crate::mmad::MmadParams;
use crate::target::{Buffer, Target};

/// Sources hold distinct non-zero values; the destination starts as `UNTOUCHED` (its low 16
/// bits for 16-bit elements, its low byte for 8-bit ones).
const UNTOUCHED: u32 = 0xdead_beef;

/// Element `i`'s value in run `pass` (8-bit sources need two runs to tell 2^16 elements apart:
/// the low and the high byte of `i + 1`).
fn pattern(eb: i64, pass: u32, i: u32) -> Vec<u8> {
    match eb {
        4 => (i as f32).to_le_bytes().to_vec(),
        2 => (i as u16).to_le_bytes().to_vec(),
        _ => vec![(i >> (8 * pass)) as u8],
    }
}

fn check(intr: Intrinsic<i64>, types: [ElementType; 2], shape: CallShape, rows: i64, cols: i64) {
    let eb = i64::from(types[0].bits() / 8);
    let untouched = match eb {
        4 => UNTOUCHED,
        2 => UNTOUCHED & 0xffff,
        _ => UNTOUCHED & 0xff,
    };
    let fields: Vec<(&'static str, i64)> = intr.fields().into_iter().map(|(n, v)| (n, *v)).collect();
    let flags: Vec<(&'static str, StaticValue)> = intr.static_fields();
    let flag = |name: &'static str| flags.iter().any(|(n, v)| *n == name && *v == StaticValue::Bool(true));
    let field = |name: &'static str| fields.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("{name}")).1;
    let len = 1 << 14;
    let kind = intr.kind();
    let at = |buffer| Access { buffer, offset: 0, step: 0 };
    let instr = Instr { intrinsic: intr, dst: at(Buffer::L1), srcs: vec![at(Buffer::Gm)], repeat: 1 };
    let word = |b: &[u8], i: i64| {
        let at = (i * eb) as usize;
        b[at..at + eb as usize].iter().rev().fold(0u32, |w, &byte| (w << 8) | u32::from(byte))
    };
    // The destination after each run, with the source it read.
    let runs: Vec<(Vec<u8>, Vec<u8>)> = (0..if eb == 1 { 2 } else { 1 })
        .map(|pass| {
            let src: Vec<u8> = (1..=len as u32).flat_map(|v| pattern(eb, pass, v)).collect();
            let mut dst: Vec<u8> =
                std::iter::repeat_n(untouched.to_le_bytes(), len).flat_map(|w| w[..eb as usize].to_vec()).collect();
            execute(&instr, &mut dst, &[&src], &types, shape.target).expect("the model runs the call");
            (dst, src)
        })
        .collect();
    let mut moved = std::collections::HashSet::new();
    for row in 0..rows {
        for col in 0..cols {
            let e = element(kind, &field, &flag, &shape, &row, &col).unwrap().expect("a mapped intrinsic");
            if e.indices.iter().all(|(_, v, extent)| (0..*extent).contains(v)) {
                for (dst, src) in &runs {
                    assert_eq!(word(dst, e.dst), word(src, e.srcs[0]), "{kind:?} ({row}, {col}): {e:?}");
                }
                assert!(moved.insert(e.dst), "{kind:?}: two elements to {}", e.dst);
            }
        }
    }
    assert!(!moved.is_empty());
    for i in 0..len as i64 {
        let words: Vec<u32> = runs.iter().map(|(dst, _)| word(dst, i)).collect();
        let padding = kind == IntrinsicKind::DataCopyNd2Nz && words.iter().all(|w| *w == 0);
        assert!(
            moved.contains(&i) || words.iter().all(|w| *w == untouched) || padding,
            "{kind:?}: element {i} written ({words:x?}) but not mapped"
        );
    }
}

/// The shape of a copy of `eb`-byte elements on arch 2201.
fn a2(eb: i64, fractals: Option<Fractals>) -> CallShape {
    CallShape { elem_bytes: eb, fractals, target: Target::A2, m_along_rows: true }
}

#[test]
fn the_mapping_is_what_the_model_does() {
    let f32s = [ElementType::F32, ElementType::F32];
    for (n, d, ld, c0s, ns) in [(3, 5, 7, 4, 1), (5, 9, 9, 11, 2), (1, 16, 20, 1, 1), (7, 3, 3, 8, 1)] {
        let p = Nd2NzParams {
            nd_num: 1,
            n_value: n,
            d_value: d,
            src_nd_matrix_stride: 0,
            src_d_value: ld,
            dst_nz_c0_stride: c0s,
            dst_nz_n_stride: ns,
            dst_nz_matrix_stride: 0,
        };
        check(Intrinsic::DataCopyNd2Nz(p), f32s, a2(4, None), n + 3, d + 9);
    }
    for (count, len, gs, gd) in [(2, 3, 1, 0), (3, 5, 0, 2), (1, 4, 3, 3), (4, 1, 2, 5)] {
        let p = DataCopyParams { block_count: count, block_len: len, src_stride: gs, dst_stride: gd };
        check(Intrinsic::DataCopy(p), f32s, a2(4, None), len + 2, 8 * (count + 2));
    }
    for (m, n, ss, ds) in [(3, 5, 4, 7), (17, 20, 32, 20), (1, 33, 1, 40), (5, 16, 5, 16)] {
        check(Intrinsic::FixpipeNz2Nd(fixpipe(m, n, ss, ds, false)), f32s, a2(4, None), m + 2, n + 17);
    }
    // LoadData: 32-bit fractals of 16 x 8, row-major (NZ) and column-major (ZN) sources.
    for (start, times, ss, gap, row_major) in
        [(0, 3, 1, 0, true), (1, 2, 3, 1, true), (2, 4, 2, 2, false), (0, 1, 5, 0, false)]
    {
        let p = LoadData2DParams {
            start_index: start,
            repeat_times: times,
            src_stride: ss,
            sid: 0,
            dst_gap: gap,
            if_transpose: false,
            addr_mode: 0,
        };
        let f = if row_major {
            Fractals { rows: 16, cols: 8, row_major }
        } else {
            Fractals { rows: 8, cols: 16, row_major }
        };
        check(Intrinsic::LoadData2D(p), f32s, a2(4, Some(f)), f.rows + 3, f.cols * (times + 2));
    }
    // 16-bit: 16 x 16 fractals, with and without the transpose of each fractal.
    for (times, ss, gap, transpose) in [(2, 1, 0, true), (3, 2, 1, true), (2, 3, 0, false)] {
        let p = LoadData2DParams {
            start_index: 1,
            repeat_times: times,
            src_stride: ss,
            sid: 0,
            dst_gap: gap,
            if_transpose: transpose,
            addr_mode: 0,
        };
        let f = Fractals { rows: 16, cols: 16, row_major: true };
        check(Intrinsic::LoadData2D(p), [ElementType::F16, ElementType::F16], a2(2, Some(f)), 19, 16 * (times + 1));
    }
}

/// A `FixpipeParamsV220` without quantization or epilogue (f32 → f32).
fn fixpipe(m: i64, n: i64, src_stride: i64, dst_stride: i64, split: bool) -> FixpipeParamsV220 {
    FixpipeParamsV220 {
        n_size: n,
        m_size: m,
        src_stride,
        dst_stride,
        relu_en: false,
        quant_pre: QuantMode::NoQuant,
        deq_scalar: 0,
        nd_num: 1,
        src_nd_stride: 0,
        dst_nd_stride: 0,
        unit_flag: 0,
        is_channel_split: split,
    }
}

/// LoadData2DParamsV2 (3510): blocks of 32-bit fractals (16 × 8 row-major, 8 × 16
/// column-major) with m along the rows or the columns, and 16-bit ones with the transpose.
#[test]
fn the_v2_load_mapping_is_what_the_model_does() {
    let f32s = [ElementType::F32, ElementType::F32];
    let f16s = [ElementType::F16, ElementType::F16];
    let nz32 = Fractals { rows: 16, cols: 8, row_major: true };
    let zn32 = Fractals { rows: 8, cols: 16, row_major: false };
    let nz16 = Fractals { rows: 16, cols: 16, row_major: true };
    // (types, fractals, m along rows, transpose, mStart, kStart, mStep, kStep, srcStride, dstStride)
    let cases = [
        (f32s, nz32, true, false, 1, 0, 2, 3, 4, 2),
        (f32s, nz32, false, false, 0, 1, 3, 2, 5, 4),
        (f32s, zn32, true, false, 2, 1, 1, 3, 3, 1),
        (f16s, nz16, true, true, 1, 1, 2, 2, 3, 3),
        (f16s, nz16, false, true, 0, 2, 3, 1, 4, 2),
    ];
    for (types, f, m_rows, transpose, ms, ks, m_step, k_step, ss, ds) in cases {
        let p = LoadData2DParamsV2 {
            m_start_position: ms,
            k_start_position: ks,
            m_step,
            k_step,
            src_stride: ss,
            dst_stride: ds,
            if_transpose: transpose,
            sid: 0,
        };
        let eb = i64::from(types[0].bits() / 8);
        let shape = CallShape { elem_bytes: eb, fractals: Some(f), target: Target::A5, m_along_rows: m_rows };
        let (rows, cols) = if m_rows { (m_step, k_step) } else { (k_step, m_step) };
        check(Intrinsic::LoadData2DV2(p), types, shape, f.rows * (rows + 1), f.cols * (cols + 2));
    }
}

/// Fixpipe NZ2NZ: 16- and 8-column (channel split) destination blocks, `dstStride` in 32 B
/// on 2201 and in elements on 3510.
#[test]
fn the_nz_fixpipe_mapping_is_what_the_model_does() {
    let f32s = [ElementType::F32, ElementType::F32];
    for target in [Target::A2, Target::A5] {
        for (m, n, ss, ds, split) in
            [(3, 16, 4, 7, false), (17, 32, 32, 40, false), (5, 24, 5, 9, true), (1, 8, 1, 3, true)]
        {
            // On 3510 dstStride counts elements: a block of rows needs at least m·W of them.
            let ds = if target == Target::A5 { ds * 8 + m * 16 } else { ds + m * 2 };
            let shape = CallShape { elem_bytes: 4, fractals: None, target, m_along_rows: true };
            check(Intrinsic::FixpipeNz2Nz(fixpipe(m, n, ss, ds, split)), f32s, shape, m + 2, n + 17);
        }
    }
}

/// LoadDataWithTranspose: 8-bit 32×32 squares of NZ (pair mode rows) and ZN (pair mode
/// columns) fractals, 32-bit 16×16 squares of ZZ and NN fractals, 16-bit single fractals.
#[test]
fn the_transposing_load_mapping_is_what_the_model_does() {
    let cases: [(ElementType, Fractals); 5] = [
        (ElementType::I8, Fractals { rows: 16, cols: 32, row_major: true }),
        (ElementType::I8, Fractals { rows: 32, cols: 16, row_major: false }),
        (ElementType::F32, Fractals { rows: 16, cols: 8, row_major: true }),
        (ElementType::F32, Fractals { rows: 8, cols: 16, row_major: false }),
        (ElementType::F16, Fractals { rows: 16, cols: 16, row_major: true }),
    ];
    for (ty, f) in cases {
        for (start, times, ss, gap, frac_gap) in [(0, 2, 1, 1, 0), (1, 3, 2, 3, 1), (0, 1, 3, 2, 2)] {
            let p = LoadData2dTransposeParams {
                start_index: start,
                repeat_times: times,
                src_stride: ss,
                dst_gap: gap,
                dst_frac_gap: frac_gap,
                addr_mode: 0,
            };
            let eb = i64::from(ty.bits() / 8);
            let shape = a2(eb, Some(f));
            let Some(RowsPerCall::Elements(pair)) = rows_per_call(IntrinsicKind::LoadDataWithTranspose, &shape) else {
                panic!("rows per call")
            };
            let side = if eb == 1 { 32 } else { 16 };
            check(Intrinsic::LoadDataWithTranspose(p), [ty, ty], shape, pair + 3, side * (times + 2));
        }
    }
}

/// Mmad, one product at a time: with B one-hot at `(kk, j)` (1) the model's C column `j` is
/// A's column `kk`, and every other C element 0; with A one-hot at `(i, kk)`, C's row `i` is
/// B's row `kk`. On 2201 (A ZZ) and 3510 (A NZ; GEMV off, and on with m = 1), f32 (C0 = 8) and
/// i8 (C0 = 32).
#[test]
fn the_mmad_mapping_is_what_the_model_does() {
    let cases = [
        (Target::A2, ElementType::F32, (17, 18, 11), true),
        (Target::A2, ElementType::I8, (5, 20, 35), true),
        (Target::A5, ElementType::F32, (20, 9, 17), true),
        (Target::A5, ElementType::F32, (1, 17, 12), false),
    ];
    for (target, ab, (m, n, k), disable_gemv) in cases {
        let acc = if ab == ElementType::I8 { ElementType::I32 } else { ElementType::F32 };
        let p = MmadParams {
            m,
            n,
            k,
            unit_flag: 0,
            cmatrix_source: false,
            cmatrix_init_val: true,
            k_direction_align: false,
            disable_gemv,
        };
        let intr = Intrinsic::Mmad(p);
        let fields: Vec<(&'static str, i64)> = intr.fields().into_iter().map(|(n, v)| (n, *v)).collect();
        let statics = intr.static_fields();
        let flag = |name: &'static str| statics.iter().any(|(n, v)| *n == name && *v == StaticValue::Bool(true));
        let field = |name: &'static str| fields.iter().find(|(n, _)| *n == name).unwrap().1;
        let eb = i64::from(ab.bits() / 8);
        let shape = CallShape { elem_bytes: eb, fractals: None, target, m_along_rows: true };
        let at = |i: i64, j: i64, kk: i64| mmad_element(&field, &flag, &shape, (&i, &j, &kk)).unwrap().unwrap();
        // Every operand's footprint: the fractals of A, B and C.
        let (c0, ceil) = (32 / eb, |x: i64, d: i64| (x + d - 1) / d);
        let (m1, k1, n1) = (ceil(m, 16), ceil(k, c0), ceil(n, 16));
        let len = (m1 * n1 * 256).max(m1 * k1 * 16 * c0).max(k1 * n1 * 16 * c0) as usize;
        // Value v (small integers, exact in f32 and i32 sums) in an operand of `eb` bytes.
        let put = |buf: &mut Vec<u8>, at: i64, v: i64| {
            let bytes = if eb == 4 { (v as f32).to_le_bytes().to_vec() } else { vec![v as i8 as u8] };
            buf[(at * eb) as usize..((at + 1) * eb) as usize].copy_from_slice(&bytes);
        };
        let get = |c: &[u8], at: i64| -> i64 {
            let w: [u8; 4] = c[(at * 4) as usize..(at * 4 + 4) as usize].try_into().unwrap();
            if acc == ElementType::I32 {
                i64::from(i32::from_le_bytes(w))
            } else {
                f32::from_le_bytes(w) as i64
            }
        };
        let run = |a: &[u8], b: &[u8]| {
            let mut c = vec![0u8; len * 4];
            let at = |buffer| Access { buffer, offset: 0, step: 0 };
            let instr = Instr {
                intrinsic: intr.clone(),
                dst: at(Buffer::L0C),
                srcs: vec![at(Buffer::L0A), at(Buffer::L0B)],
                repeat: 1,
            };
            execute(&instr, &mut c, &[a, b], &[acc, ab, ab], target).expect("the model runs Mmad");
            c
        };
        // Distinct values 1..=100 (i8 range) at every mapped element of the full operand.
        let value = |x: i64, y: i64| 1 + (x * 7 + y * 3) % 100;
        for (one_hot_b, outer, inner) in [(true, n, k), (false, m, k)] {
            for o in 0..outer {
                for kk in 0..inner {
                    let (mut a, mut b) = (vec![0u8; len * eb as usize], vec![0u8; len * eb as usize]);
                    for i in 0..m {
                        for r in 0..k {
                            put(
                                &mut a,
                                at(i, 0, r).srcs[0],
                                if one_hot_b { value(i, r) } else { i64::from(i == o && r == kk) },
                            );
                        }
                    }
                    for j in 0..n {
                        for r in 0..k {
                            put(
                                &mut b,
                                at(0, j, r).srcs[1],
                                if one_hot_b { i64::from(j == o && r == kk) } else { value(j, r) },
                            );
                        }
                    }
                    let c = run(&a, &b);
                    let mut expected = std::collections::HashMap::new();
                    for i in 0..m {
                        for j in 0..n {
                            let e = at(i, j, kk);
                            let v = match one_hot_b {
                                true if j == o => value(i, kk),
                                false if i == o => value(j, kk),
                                _ => 0,
                            };
                            assert!(expected.insert(e.dst, v).is_none(), "{target:?}: two C elements at {}", e.dst);
                        }
                    }
                    for at in 0..len as i64 {
                        let want = expected.get(&at).copied().unwrap_or(0);
                        assert_eq!(get(&c, at), want, "{target:?} {ab} m={m} n={n} k={k}: C[{at}] (one-hot {o}, {kk})");
                    }
                }
            }
        }
    }
}

/// The mapping reads fields by their declared names only.
#[test]
fn the_mapping_reads_declared_fields() {
    for decl in INTRINSICS {
        let kind = IntrinsicKind::from_op(decl.op).unwrap();
        let field = |name: &'static str| {
            assert!(decl.params.field(name).is_some() || name == "repeat", "{}: no field {name}", decl.op);
            1i64
        };
        let flag = |name: &'static str| {
            assert!(decl.params.field(name).is_some(), "{}: no flag {name}", decl.op);
            false
        };
        let fractals = Some(Fractals { rows: 16, cols: 16, row_major: true });
        for (target, elem_bytes) in [Target::A2, Target::A5].into_iter().flat_map(|t| [(t, 1), (t, 2), (t, 4)]) {
            let shape = CallShape { elem_bytes, fractals, target, m_along_rows: true };
            let _ = element(kind, &field, &flag, &shape, &1, &1).unwrap();
            if kind == IntrinsicKind::Mmad {
                let _ = mmad_element(&field, &flag, &shape, (&1, &1, &1)).unwrap();
            }
        }
        if let Some(RowsPerCall::Field(rows)) = rows_per_call(kind, &a2(2, fractals)) {
            assert!(decl.params.field(rows).is_some(), "{}: {rows}", decl.op);
        }
    }
}
