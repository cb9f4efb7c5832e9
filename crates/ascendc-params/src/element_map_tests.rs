//! The declared element mapping against the CPU model: for small parameter sets of every
//! mapped intrinsic, the model runs one call on a source of distinct values; every element the
//! mapping says is moved must hold its source value, and every other destination element must
//! be untouched (or one of ND2NZ's zero-filled padding columns).

use layout_algebra::ascend::ElementType;

use super::*;
use crate::data_copy::{DataCopyParams, Nd2NzParams};
use crate::decl::INTRINSICS;
use crate::exec::execute;
use crate::fixpipe::{FixpipeParamsV220, QuantMode};
use crate::instr::{Access, Instr, Intrinsic};
use crate::target::{Buffer, Target};

/// 4-byte elements: distinct non-zero values; the destination starts as `UNTOUCHED`.
const UNTOUCHED: u32 = 0xdead_beef;

fn check(intr: Intrinsic<i64>, types: [ElementType; 2], rows: i64, cols: i64) {
    let eb = i64::from(types[0].bits() / 8);
    assert_eq!(eb, 4, "the test uses 4-byte elements");
    let fields: Vec<(&'static str, i64)> = intr.fields().into_iter().map(|(n, v)| (n, *v)).collect();
    let field = |name: &'static str| fields.iter().find(|(n, _)| *n == name).unwrap_or_else(|| panic!("{name}")).1;
    let len = 1 << 14;
    let src: Vec<u8> = (1..=len as u32).flat_map(|v| (v as f32).to_le_bytes()).collect();
    let mut dst: Vec<u8> = std::iter::repeat_n(UNTOUCHED.to_le_bytes(), len).flatten().collect();
    let kind = intr.kind();
    let at = |buffer| Access { buffer, offset: 0, step: 0 };
    let instr = Instr { intrinsic: intr, dst: at(Buffer::L1), srcs: vec![at(Buffer::Gm)], repeat: 1 };
    execute(&instr, &mut dst, &[&src], &types, Target::A2).expect("the model runs the call");
    let word = |b: &[u8], i: i64| u32::from_le_bytes(b[i as usize * 4..i as usize * 4 + 4].try_into().unwrap());
    let mut moved = std::collections::HashSet::new();
    for row in 0..rows {
        for col in 0..cols {
            let e = element(kind, &field, eb, &row, &col).unwrap().expect("a mapped intrinsic");
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
            moved.contains(&i) || w == UNTOUCHED || padding,
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
        check(Intrinsic::DataCopyNd2Nz(p), f32s, n + 3, d + 9);
    }
    for (count, len, gs, gd) in [(2, 3, 1, 0), (3, 5, 0, 2), (1, 4, 3, 3), (4, 1, 2, 5)] {
        let p = DataCopyParams { block_count: count, block_len: len, src_stride: gs, dst_stride: gd };
        check(Intrinsic::DataCopy(p), f32s, len + 2, 8 * (count + 2));
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
        check(Intrinsic::FixpipeNz2Nd(p), f32s, m + 2, n + 17);
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
        let _ = element(kind, &field, 2, &1, &1).unwrap();
        if let Some(rows) = rows_per_call(kind) {
            assert!(decl.params.field(rows).is_some(), "{}: {rows}", decl.op);
        }
    }
}
