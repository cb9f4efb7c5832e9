//! Every field that can overflow, misaligned addresses, unsupported paths and layout
//! mismatches are typed errors naming the instruction, the field and the value.

use ascendc_params::*;
use layout_algebra::ascend::{frame, ElementType, FramePattern};
use layout_algebra::{Layout, Tuple};

const F16: ElementType = ElementType::F16;

fn pair(a: i64, b: i64) -> Tuple<i64> {
    Tuple::Tuple(vec![Tuple::Int(a), Tuple::Int(b)])
}

fn overflow(r: Result<Derived<i64>>) -> (&'static str, &'static str, i64) {
    match r {
        Err(ParamError::FieldOverflow { instr, field, value, .. }) => (instr, field, value),
        other => panic!("expected FieldOverflow, got {other:?}"),
    }
}

fn nz(rows: i64, cols: i64) -> Layout {
    frame(FramePattern::NZ, F16, &[rows, cols]).unwrap()
}

#[test]
fn nd2nz_fields() {
    // nValue > 16384 (and the message names it)
    let gm = frame(FramePattern::ND, F16, &[16400, 16]).unwrap();
    let e = gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&nz(16400, 16)), F16, Target::A2);
    assert_eq!(overflow(e.clone()), ("DataCopy(Nd2NzParams)", "nValue", 16400));
    assert!(e.unwrap_err().to_string().contains("nValue = 16400"));
    // dValue > 65535 on A2 (uint16_t), fine on A5 (uint32_t)
    let gm = frame(FramePattern::ND, F16, &[16, 65552]).unwrap();
    assert_eq!(
        overflow(gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&nz(16, 65552)), F16, Target::A2)).1,
        "dValue"
    );
    assert!(gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&nz(16, 65552)), F16, Target::A5).is_ok());
    // dstNzC0Stride > 16384: an L1 layout whose column blocks are 16400 rows apart
    let gm = frame(FramePattern::ND, F16, &[16, 32]).unwrap();
    let wide = Layout::new(
        Tuple::Tuple(vec![pair(16, 1), pair(16, 2)]),
        Tuple::Tuple(vec![pair(16, 256), pair(1, 16 * 16400)]),
    )
    .unwrap();
    assert_eq!(
        overflow(gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&wide), F16, Target::A2)),
        ("DataCopy(Nd2NzParams)", "dstNzC0Stride", 16400)
    );
    // srcDValue > u64? not reachable; > u16 on A2 is split (tests/derive_sim.rs)
}

#[test]
fn load_data_fields() {
    // srcStride > 65535 (L1 with 65537 row fractals), A2
    let rows = 16 * 65537;
    let e = l1_to_l0a(
        &Operand::new(&nz(rows, 16)),
        &Operand::new(&frame(FramePattern::ZZ, F16, &[rows, 16]).unwrap()),
        F16,
        Target::A2,
    );
    assert_eq!(overflow(e), ("LoadData(LoadData2DParams)", "srcStride", 65537));
    // A5: dstStride (uint16_t) and srcStride with 65537 row fractals
    let e = l1_to_l0a(&Operand::new(&nz(rows, 16)), &Operand::new(&nz(rows, 16)), F16, Target::A5);
    assert_eq!(overflow(e).1, "mStep");
    // kStep > 65535
    let cols = 16 * 65537;
    let e = l1_to_l0a(&Operand::new(&nz(16, cols)), &Operand::new(&nz(16, cols)), F16, Target::A5);
    assert_eq!(overflow(e).1, "kStep");
    // repeatTimes: symbolic counts become an assumption (u8 range), static ones are split
    use layout_algebra::SymExpr;
    let k = SymExpr::sym("k");
    let m = SymExpr::Const(32);
    let src = layout_algebra::ascend::frame_layout(FramePattern::NZ, 16, &[m.clone(), k.clone()]).unwrap();
    let dst = layout_algebra::ascend::frame_layout(FramePattern::ZZ, 16, &[m, k]).unwrap();
    let d = l1_to_l0a(&Operand::new(&src), &Operand::new(&dst), F16, Target::A2).unwrap();
    let rt: Vec<_> = d.assumptions.iter().filter(|a| a.field == "repeatTimes").collect();
    assert_eq!(rt.len(), 1);
    assert_eq!(rt[0].requirement, Requirement::InRange { min: 0, max: 255 });
    assert_eq!(rt[0].value.to_string(), "(k + 16 - 1) floordiv 16"); // unsimplified: index-simplify folds it
}

#[test]
fn load_data_with_transpose_fields() {
    let i8 = ElementType::I8;
    const I: &str = "LoadDataWithTranspose(LoadData2dTransposeParams)";
    // srcStride (uint16_t, in squares) = K1/2: 131072 row fractals → 65536
    let rows = 16 * 131072;
    let e = l1_to_l0b(
        &Operand::new(&frame(FramePattern::NZ, i8, &[rows, 32]).unwrap()),
        &Operand::new(&frame(FramePattern::ZN, i8, &[rows, 32]).unwrap()),
        i8,
        Target::A2,
    );
    assert_eq!(overflow(e.clone()), (I, "srcStride", 65536));
    assert!(e.unwrap_err().to_string().contains("srcStride = 65536"));
    // dstGap (uint16_t) = 2·K1 − 1 for L1 ZN → L0A ZZ: K1 = 40000 → 79999
    let k = 32 * 40000;
    let e = l1_to_l0a(
        &Operand::new(&frame(FramePattern::ZN, i8, &[32, k]).unwrap()),
        &Operand::new(&frame(FramePattern::ZZ, i8, &[32, k]).unwrap()),
        i8,
        Target::A2,
    );
    assert_eq!(overflow(e), (I, "dstGap", 79999));
    // dstFracGap (uint16_t) = K1 − 1 is bounded by srcStride = K1 (which fails first), so it
    // only overflows together with it: K1 = 65537
    let k = 32 * 65537;
    let e = l1_to_l0a(
        &Operand::new(&frame(FramePattern::ZN, i8, &[32, k]).unwrap()),
        &Operand::new(&frame(FramePattern::ZZ, i8, &[32, k]).unwrap()),
        i8,
        Target::A2,
    );
    assert_eq!(overflow(e), (I, "srcStride", 65537));
    // repeatTimes (uint8_t) > 255 squares is split (tests/derive_sim.rs); symbolic: an assumption
    use layout_algebra::SymExpr;
    let n = SymExpr::sym("n");
    let src = layout_algebra::ascend::frame_layout(FramePattern::NZ, 32, &[SymExpr::Const(64), n.clone()]).unwrap();
    let dst = layout_algebra::ascend::frame_layout(FramePattern::ZN, 32, &[SymExpr::Const(64), n]).unwrap();
    let d = l1_to_l0b(&Operand::new(&src), &Operand::new(&dst), i8, Target::A2).unwrap();
    assert!(
        d.assumptions
            .iter()
            .any(|a| a.field == "repeatTimes" && a.requirement == Requirement::InRange { min: 0, max: 255 }),
        "{:?}",
        d.assumptions
    );
    assert!(
        d.assumptions.iter().any(|a| a.field == "repeatTimes" && a.requirement == Requirement::MultipleOf(2)),
        "{:?}",
        d.assumptions
    );
}

#[test]
fn mmad_fields() {
    for (m, k, n, field) in [(4112, 16, 16, "m"), (16, 4112, 16, "k"), (16, 16, 4112, "n")] {
        let a = frame(FramePattern::ZZ, F16, &[m, k]).unwrap();
        let b = frame(FramePattern::ZN, F16, &[k, n]).unwrap();
        let c = frame(FramePattern::L0C, ElementType::F32, &[m, n]).unwrap();
        let e = mmad(&Operand::new(&c), &Operand::new(&a), &Operand::new(&b), F16, ElementType::F32, Target::A2, false);
        assert_eq!(overflow(e), ("Mmad(MmadParams)", field, 4112));
    }
}

#[test]
fn fixpipe_fields() {
    let acc = ElementType::F32;
    // nSize > 4095
    let l0c = frame(FramePattern::L0C, acc, &[16, 4112]).unwrap();
    let gm = frame(FramePattern::ND, acc, &[16, 4112]).unwrap();
    assert_eq!(overflow(l0c_to_gm_nd(&Operand::new(&l0c), &Operand::new(&gm), acc, acc, Target::A2)).1, "nSize");
    // srcStride > 65535 (L0C with 65552 rows; mSize is fine up to 65535 — use a 16-row view)
    let tall = frame(FramePattern::L0C, acc, &[65552, 16]).unwrap();
    let gm = frame(FramePattern::ND, acc, &[16, 16]).unwrap();
    assert_eq!(
        overflow(l0c_to_gm_nd(&Operand::new(&tall), &Operand::new(&gm), acc, acc, Target::A2)),
        ("Fixpipe(FixpipeParamsV220)", "srcStride", 65552)
    );
    // dstStride > uint32_t
    let l0c = frame(FramePattern::L0C, acc, &[16, 16]).unwrap();
    let huge = Layout::new(pair(16, 16), pair(1 << 32, 1)).unwrap();
    assert_eq!(overflow(l0c_to_gm_nd(&Operand::new(&l0c), &Operand::new(&huge), acc, acc, Target::A2)).1, "dstStride");
}

#[test]
fn misaligned_addresses() {
    let gm = frame(FramePattern::ND, F16, &[32, 32]).unwrap();
    // L1 base 16 B (needs 32 B)
    let l1 = nz(32, 32);
    match gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&l1).with_base(16), F16, Target::A2) {
        Err(ParamError::Misaligned { buffer: "L1", address: 16, align: 32, .. }) => {}
        other => panic!("{other:?}"),
    }
    // L0A base 256 B (needs 512 B)
    let zz = frame(FramePattern::ZZ, F16, &[32, 32]).unwrap();
    match l1_to_l0a(&Operand::new(&l1), &Operand::new(&zz).with_base(256), F16, Target::A2) {
        Err(ParamError::Misaligned { buffer: "L0A", address: 256, align: 512, .. }) => {}
        other => panic!("{other:?}"),
    }
    // L0B via Mmad, L0C base 32 B (needs 64 B)
    let b = frame(FramePattern::ZN, F16, &[32, 32]).unwrap();
    let c = frame(FramePattern::L0C, ElementType::F32, &[32, 32]).unwrap();
    let r = mmad(
        &Operand::new(&c).with_base(32),
        &Operand::new(&zz),
        &Operand::new(&b),
        F16,
        ElementType::F32,
        Target::A2,
        false,
    );
    assert!(matches!(r, Err(ParamError::Misaligned { buffer: "L0C", address: 32, align: 64, .. })), "{r:?}");
    let r = mmad(
        &Operand::new(&c),
        &Operand::new(&zz),
        &Operand::new(&b).with_base(1024 + 32),
        F16,
        ElementType::F32,
        Target::A2,
        false,
    );
    assert!(matches!(r, Err(ParamError::Misaligned { buffer: "L0B", .. })), "{r:?}");
    // a destination coordinate inside a fractal
    let big = nz(64, 64);
    let tile = frame(FramePattern::ND, F16, &[16, 16]).unwrap();
    let r = gm_nd_to_l1_nz(&Operand::new(&tile), &Operand::new(&big).at(8, 0), F16, Target::A2);
    assert!(matches!(r, Err(ParamError::NotMultiple { value: 8, unit: 16, .. })), "{r:?}");
    // LoadData from an L1 tile starting at row 8 (inside a fractal)
    let a0 = frame(FramePattern::ZZ, F16, &[16, 16]).unwrap();
    let r = l1_to_l0a(&Operand::new(&big).at(8, 0), &Operand::new(&a0), F16, Target::A2);
    assert!(matches!(r, Err(ParamError::NotMultiple { value: 8, unit: 16, .. })), "{r:?}");
    // Fixpipe from an L0C coordinate inside a fractal
    let r = l0c_to_gm_nd(
        &Operand::new(&c).at(0, 8),
        &Operand::new(&frame(FramePattern::ND, ElementType::F32, &[16, 16]).unwrap()),
        ElementType::F32,
        ElementType::F32,
        Target::A2,
    );
    assert!(matches!(r, Err(ParamError::NotMultiple { value: 8, .. })), "{r:?}");
}

#[test]
fn unsupported_and_mismatched_layouts() {
    let i8 = ElementType::I8;
    // int8 NZ → ZN: LoadDataWithTranspose on A2; the 8-bit V2 transpose (B8) of A5 is not emitted
    let l1 = frame(FramePattern::NZ, i8, &[64, 64]).unwrap();
    let l0b = frame(FramePattern::ZN, i8, &[64, 64]).unwrap();
    assert!(l1_to_l0b(&Operand::new(&l1), &Operand::new(&l0b), i8, Target::A2).is_ok());
    let r = l1_to_l0b(&Operand::new(&l1), &Operand::new(&l0b), i8, Target::A5);
    assert!(matches!(&r, Err(ParamError::Unsupported { detail, .. }) if detail.contains("B8")), "{r:?}");
    // f32 NZ(32,32) → ZN on A2: LoadDataWithTranspose would pair rows 0..15 with 16..31
    let f32 = ElementType::F32;
    let r = l1_to_l0b(
        &Operand::new(&frame(FramePattern::NZ, f32, &[32, 32]).unwrap()),
        &Operand::new(&frame(FramePattern::ZN, f32, &[32, 32]).unwrap()),
        f32,
        Target::A2,
    );
    assert!(
        matches!(&r, Err(ParamError::Unsupported { detail, .. }) if detail.contains("load the operand into L1 as ZZ")),
        "{r:?}"
    );
    // i8 squares: an odd number of 16-row L1 fractals (K = 40 → 3) is a layout error naming the fix
    let r = l1_to_l0b(
        &Operand::new(&frame(FramePattern::NZ, i8, &[40, 32]).unwrap()),
        &Operand::new(&frame(FramePattern::ZN, i8, &[40, 32]).unwrap()),
        i8,
        Target::A2,
    );
    assert!(
        matches!(&r, Err(ParamError::Layout { detail, .. }) if detail.contains("even number") && detail.contains("pad")),
        "{r:?}"
    );
    // ... and an odd number of 16-column L0B fractals (N = 40 → 3) leaves half a square
    let r = l1_to_l0b(
        &Operand::new(&frame(FramePattern::NZ, i8, &[32, 40]).unwrap()),
        &Operand::new(&frame(FramePattern::ZN, i8, &[32, 40]).unwrap()),
        i8,
        Target::A2,
    );
    assert!(matches!(r, Err(ParamError::NotMultiple { field: "repeatTimes", value: 3, unit: 2, .. })), "{r:?}");
    // A5 NZ → ZN f16 is the transposing LoadData2DParamsV2
    let l1 = nz(32, 32);
    let l0b = frame(FramePattern::ZN, F16, &[32, 32]).unwrap();
    let d = l1_to_l0b(&Operand::new(&l1), &Operand::new(&l0b), F16, Target::A5).unwrap();
    assert!(matches!(&d.instrs[0].intrinsic, Intrinsic::LoadData2DV2(p) if p.if_transpose));
    // A2 L0A must be ZZ
    assert!(matches!(
        l1_to_l0a(&Operand::new(&l1), &Operand::new(&nz(32, 32)), F16, Target::A2),
        Err(ParamError::Layout { .. })
    ));
    // Mmad: an L0A laid out for K = 64 used with a K = 40 origin is not what the cube reads
    let a = frame(FramePattern::ZZ, F16, &[32, 64]).unwrap().with_new_origin(pair(32, 40)).unwrap();
    let b = frame(FramePattern::ZN, F16, &[40, 16]).unwrap();
    let c = frame(FramePattern::L0C, ElementType::F32, &[32, 16]).unwrap();
    let r = mmad(&Operand::new(&c), &Operand::new(&a), &Operand::new(&b), F16, ElementType::F32, Target::A2, false);
    assert!(matches!(r, Err(ParamError::Layout { .. })), "{r:?}");
    // Mmad type combination
    let r = mmad(&Operand::new(&c), &Operand::new(&a), &Operand::new(&b), F16, ElementType::F16, Target::A2, false);
    assert!(matches!(r, Err(ParamError::Unsupported { .. })));
    // wrong dtype for the L1 C0 (f32 data into an f16-C0 NZ)
    let gm = frame(FramePattern::ND, ElementType::F32, &[32, 32]).unwrap();
    assert!(matches!(
        gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&l1), ElementType::F32, Target::A2),
        Err(ParamError::Layout { .. })
    ));
}

#[test]
fn symbolic_tails_give_expressions_that_evaluate_to_the_concrete_parameters() {
    use layout_algebra::ascend::frame_layout;
    use layout_algebra::SymExpr;
    use std::collections::HashMap;
    let (m, k) = (SymExpr::sym("m"), SymExpr::sym("k"));
    let gm = frame_layout(FramePattern::ND, 1, &[m.clone(), k.clone()]).unwrap();
    let l1 = frame_layout(FramePattern::NZ, 16, &[m.clone(), k.clone()]).unwrap();
    let d = gm_nd_to_l1_nz(&Operand::new(&gm), &Operand::new(&l1), F16, Target::A2).unwrap();
    let Intrinsic::DataCopyNd2Nz(p) = &d.instrs[0].intrinsic else { panic!() };
    let env = HashMap::from([("m".to_string(), 40), ("k".to_string(), 56)]);
    let got: Vec<i64> = p.fields().iter().map(|(_, v)| v.eval(&env).unwrap()).collect();
    assert_eq!(got, vec![1, 40, 56, 0, 56, 48, 1, 0]);
    for mv in [1, 15, 16, 17, 40, 1000] {
        let env = HashMap::from([("m".to_string(), mv), ("k".to_string(), 7)]);
        assert_eq!(p.dst_nz_c0_stride.eval(&env).unwrap(), (mv + 15) / 16 * 16, "m = {mv}");
    }
    let fields: Vec<&str> = d.assumptions.iter().map(|a| a.field).collect();
    assert!(
        fields.contains(&"nValue")
            && fields.contains(&"dValue")
            && fields.contains(&"srcDValue")
            && fields.contains(&"dstNzC0Stride"),
        "{fields:?}"
    );
}

#[test]
fn fixpipe_nz_fields_and_layouts() {
    let acc = ElementType::F32;
    const I: &str = "Fixpipe<CFG_NZ>(FixpipeParamsV220)";
    // nSize > 4095
    let l0c = frame(FramePattern::L0C, acc, &[16, 4112]).unwrap();
    let gm = nz(16, 4112);
    assert_eq!(
        overflow(l0c_to_gm_nz(&Operand::new(&l0c), &Operand::new(&gm), acc, F16, Target::A2)),
        (I, "nSize", 4112)
    );
    // srcStride > 65535
    let tall = frame(FramePattern::L0C, acc, &[65552, 16]).unwrap();
    assert_eq!(
        overflow(l0c_to_gm_nz(&Operand::new(&tall), &Operand::new(&nz(16, 16)), acc, F16, Target::A2)),
        (I, "srcStride", 65552)
    );
    // dstStride > uint32_t: column blocks 2^37 f16 elements apart = 2^33 units of 32 B (C0).
    let l0c = frame(FramePattern::L0C, acc, &[16, 32]).unwrap();
    let far =
        Layout::new(Tuple::Tuple(vec![pair(16, 1), pair(16, 2)]), Tuple::Tuple(vec![pair(16, 256), pair(1, 1 << 37)]))
            .unwrap();
    assert_eq!(
        overflow(l0c_to_gm_nz(&Operand::new(&l0c), &Operand::new(&far), acc, F16, Target::A2)),
        (I, "dstStride", 1 << 33)
    );
    // mSize > 65535
    let l0c = frame(FramePattern::L0C, acc, &[65552, 16]).unwrap();
    assert_eq!(
        overflow(l0c_to_gm_nz(&Operand::new(&l0c), &Operand::new(&nz(65552, 16)), acc, F16, Target::A2)).1,
        "mSize"
    );
    // f32 output needs C0 = 8 (32 B): an f16-shaped (C0 = 16) NZ destination is a layout error.
    let l0c = frame(FramePattern::L0C, acc, &[16, 16]).unwrap();
    assert!(matches!(
        l0c_to_gm_nz(&Operand::new(&l0c), &Operand::new(&nz(16, 16)), acc, acc, Target::A2),
        Err(ParamError::Layout { .. })
    ));
    // i32 → i32 to NZ C0 = 8 would need channel split (documented for f32 only).
    let l0c = frame(FramePattern::L0C, ElementType::I32, &[16, 16]).unwrap();
    let gm = frame(FramePattern::NZ, ElementType::I32, &[16, 16]).unwrap();
    assert!(matches!(
        l0c_to_gm_nz(&Operand::new(&l0c), &Operand::new(&gm), ElementType::I32, ElementType::I32, Target::A2),
        Err(ParamError::Unsupported { .. })
    ));
    // destination column coordinate not on a C0 boundary
    let l0c = frame(FramePattern::L0C, acc, &[16, 16]).unwrap();
    let gm = nz(32, 64);
    let tile = layout_algebra::ascend::tile_layout(&gm, &[16, 16], &[0, 8]).unwrap();
    assert!(matches!(
        l0c_to_gm_nz(&Operand::new(&l0c), &Operand::new(&tile).at(0, 8), acc, F16, Target::A2),
        Err(ParamError::NotMultiple { .. })
    ));
    // rows must be contiguous across row blocks (ZZ-like row-block stride)
    let zz = frame(FramePattern::ZZ, F16, &[32, 32]).unwrap();
    let l0c = frame(FramePattern::L0C, acc, &[32, 32]).unwrap();
    assert!(l0c_to_gm_nz(&Operand::new(&l0c), &Operand::new(&zz), acc, F16, Target::A2).is_err());
}
