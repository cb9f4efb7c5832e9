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
use crate::load_data::LoadData2DParams;
use crate::target::{Buffer, Target};

/// Sources hold distinct non-zero values; the destination starts as `UNTOUCHED` (its low 16
/// bits for 16-bit elements).
const UNTOUCHED: u32 = 0xdead_beef;

fn check(intr: Intrinsic<i64>, types: [ElementType; 2], fractals: Option<Fractals>, rows: i64, cols: i64) {
    let eb = i64::from(types[0].bits() / 8);
    let untouched = if eb == 4 { UNTOUCHED } else { UNTOUCHED & 0xffff };
    let fields: Vec<(&'static str, i64)> = intr.fields().into_iter().map(|(n, v)| (n, *v)).collect();
    let flags: Vec<(&'static str, StaticValue)> = intr.static_fields();
    let flag = |name: &'static str| flags.iter().any(|(n, v)| *n == name && *v == StaticValue::Bool(true));
    let field = |name: &'static str| fields.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("{name}")).1;
    let len = 1 << 14;
    // f32 values (Fixpipe converts), or 16-bit patterns (copied as they are).
    let src: Vec<u8> = (1..=len as u32)
        .flat_map(|v| if eb == 4 { (v as f32).to_le_bytes().to_vec() } else { (v as u16).to_le_bytes().to_vec() })
        .collect();
    let mut dst: Vec<u8> =
        std::iter::repeat_n(untouched.to_le_bytes(), len).flat_map(|w| w[..eb as usize].to_vec()).collect();
    let kind = intr.kind();
    let at = |buffer| Access { buffer, offset: 0, step: 0 };
    let instr = Instr { intrinsic: intr, dst: at(Buffer::L1), srcs: vec![at(Buffer::Gm)], repeat: 1 };
    execute(&instr, &mut dst, &[&src], &types, Target::A2).expect("the model runs the call");
    let word = |b: &[u8], i: i64| {
        let at = (i * eb) as usize;
        b[at..at + eb as usize].iter().rev().fold(0u32, |w, &byte| (w << 8) | u32::from(byte))
    };
    let mut moved = std::collections::HashSet::new();
    for row in 0..rows {
        for col in 0..cols {
            let e = element(kind, &field, &flag, (eb, fractals), &row, &col).unwrap().expect("a mapped intrinsic");
            if e.indices.iter().all(|(_, v, extent)| (0..*extent).contains(v)) {
                assert_eq!(word(&dst, e.dst), word(&src, e.src), "{kind:?} ({row}, {col}): {e:?}");
                assert!(moved.insert(e.dst), "{kind:?}: two elements to {}", e.dst);
            }
        }
    }
    assert!(!moved.is_empty());
    for i in 0..len as i64 {
        let w = word(&dst, i);
        let padding = kind == IntrinsicKind::DataCopyNd2Nz && w == 0;
        assert!(
            moved.contains(&i) || w == untouched || padding,
            "{kind:?}: element {i} written ({w:#x}) but not mapped"
        );
    }
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
        check(Intrinsic::DataCopyNd2Nz(p), f32s, None, n + 3, d + 9);
    }
    for (count, len, gs, gd) in [(2, 3, 1, 0), (3, 5, 0, 2), (1, 4, 3, 3), (4, 1, 2, 5)] {
        let p = DataCopyParams { block_count: count, block_len: len, src_stride: gs, dst_stride: gd };
        check(Intrinsic::DataCopy(p), f32s, None, len + 2, 8 * (count + 2));
    }
    for (m, n, ss, ds) in [(3, 5, 4, 7), (17, 20, 32, 20), (1, 33, 1, 40), (5, 16, 5, 16)] {
        let p = FixpipeParamsV220 {
            n_size: n,
            m_size: m,
            src_stride: ss,
            dst_stride: ds,
            relu_en: false,
            quant_pre: QuantMode::NoQuant,
            deq_scalar: 0,
            nd_num: 1,
            src_nd_stride: 0,
            dst_nd_stride: 0,
            unit_flag: 0,
            is_channel_split: false,
        };
        check(Intrinsic::FixpipeNz2Nd(p), f32s, None, m + 2, n + 17);
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
        check(Intrinsic::LoadData2D(p), f32s, Some(f), f.rows + 3, f.cols * (times + 2));
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
        check(Intrinsic::LoadData2D(p), [ElementType::F16, ElementType::F16], Some(f), 19, 16 * (times + 1));
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
        let _ = element(kind, &field, &flag, (2, fractals), &1, &1).unwrap();
        if let Some(RowsPerCall::Field(rows)) = rows_per_call(kind) {
            assert!(decl.params.field(rows).is_some(), "{}: {rows}", decl.op);
        }
    }
}
