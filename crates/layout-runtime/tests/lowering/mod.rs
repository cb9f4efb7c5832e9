//! End-to-end tests of `layout-lower-to-loops` (issue 4): kernels with layout ops are lowered,
//! JIT-compiled and run on seeded data; results are compared with references computed here on
//! logical indices; the self-check runs on every kernel.

use std::collections::HashMap;

use layout_algebra::{ascend::FramePattern, IndexValue, IntTuple, Layout};
use layout_dialect::{legality, MemorySpace, Target, TensorType};
use layout_npy::{random::Rng, Array, Data, ElemType, F16};
use layout_runtime::{create_context, lower_layout_ops, lower_layout_ops_with, self_check, Arg, Jit};
use melior::ir::Module;

/// Run-time contract checks of views and tiles: same binary, one link.
mod contract;

/// The address proofs with z3 (issue 15 item 3).
mod prove;

/// The AscendC path's intrinsic calls, proven.
mod prove_ascendc;

fn parse<'c>(context: &'c melior::Context, text: &str) -> Module<'c> {
    layout_dialect::parse_source(context, text).unwrap_or_else(|| panic!("kernel parses:\n{text}"))
}

/// The verifier rules for kernels that observe on-chip buffers through views of them (an
/// alloc'ed buffer that is only written is dead code): `host_copies`, nothing else relaxed.
const OBSERVE_ON_CHIP: layout_passes::verify::Rules = layout_passes::verify::Rules { host_copies: true, any_c0: false };

/// [`self_check`] of a kernel with on-chip views ([`OBSERVE_ON_CHIP`]).
fn self_check_observing(module: &Module, entry: &str) -> layout_runtime::SelfCheckReport {
    layout_runtime::self_check::self_check_with(
        module,
        Some(entry),
        &HashMap::new(),
        OBSERVE_ON_CHIP,
        &layout_runtime::layout_lowering::simplify_lowered,
    )
    .unwrap_or_else(|e| panic!("self-check: {e}"))
}

/// Self-check (every address of every tensor), then lower (verify + lowering, with initcheck:
/// a kernel that reads an on-chip element nothing wrote fails its call) and JIT.
fn compile(module: &mut Module, entry: &str, args: &HashMap<usize, i64>) -> (Jit, layout_runtime::SelfCheckReport) {
    lower_layout_ops_checked(module, entry, args, true)
}

fn lower_layout_ops_checked(
    module: &mut Module,
    entry: &str,
    args: &HashMap<usize, i64>,
    initcheck: bool,
) -> (Jit, layout_runtime::SelfCheckReport) {
    let report = self_check(module, Some(entry), args).unwrap_or_else(|e| panic!("self-check: {e}"));
    lower_layout_ops_with(module, initcheck).unwrap_or_else(|e| panic!("lowering: {e}"));
    (Jit::new(module).expect("jit"), report)
}

// ------------------------------------------------------------------------------------------
// GEMM: GM ND -> L1 NZ -> L0A/L0B -> L0C -> GM ND.

fn gemm_kernel(target: &str, elem: &str, acc: &str, m: usize, k: usize, n: usize) -> String {
    let l0a = if target == "a2" { "ZZ" } else { "NZ" };
    let t = |space: &str, layout: &str, e: &str, r: usize, c: usize| {
        format!("!layout.tensor<{e}, \"{space}\", \"{layout}\", \"({r},{c})\">")
    };
    let (ga, gb, gc) = (t("gm", "ND", elem, m, k), t("gm", "ND", elem, k, n), t("gm", "ND", acc, m, n));
    let (a1, b1) = (t("l1", "NZ", elem, m, k), t("l1", "NZ", elem, k, n));
    let (a0, b0, c0) = (t("l0a", l0a, elem, m, k), t("l0b", "ZN", elem, k, n), t("l0c", "NZ", acc, m, n));
    format!(
        r#"module attributes {{layout.target = #layout.target<"{target}">}} {{
  func.func @gemm(%A: memref<{m}x{k}x{elem}>, %B: memref<{k}x{n}x{elem}>, %C: memref<{m}x{n}x{acc}>) attributes {{llvm.emit_c_interface}} {{
    %ga = "layout.view"(%A) : (memref<{m}x{k}x{elem}>) -> {ga}
    %gb = "layout.view"(%B) : (memref<{k}x{n}x{elem}>) -> {gb}
    %gc = "layout.view"(%C) : (memref<{m}x{n}x{acc}>) -> {gc}
    %a1 = "layout.alloc"() : () -> {a1}
    %b1 = "layout.alloc"() : () -> {b1}
    "layout.load"(%ga, %a1) : ({ga}, {a1}) -> ()
    "layout.load"(%gb, %b1) : ({gb}, {b1}) -> ()
    %a0 = "layout.alloc"() : () -> {a0}
    %b0 = "layout.alloc"() : () -> {b0}
    %c0 = "layout.alloc"() : () -> {c0}
    "layout.load"(%a1, %a0) : ({a1}, {a0}) -> ()
    "layout.load"(%b1, %b0) : ({b1}, {b0}) -> ()
    "layout.matmul"(%a0, %b0, %c0) {{accumulate = false}} : ({a0}, {b0}, {c0}) -> ()
    "layout.store"(%c0, %gc) : ({c0}, {gc}) -> ()
    return
  }}
}}"#
    )
}

/// C[i][j] = sum_p A[i][p] * B[p][j] on logical indices, in f64 (exact for the generator's
/// inputs: f16 values are multiples of 1/8 in [-1, 1], i8 values in [-4, 4]).
fn reference(a: &Array, b: &Array, m: usize, k: usize, n: usize) -> Vec<f64> {
    let mut out = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            out[i * n + j] = (0..k).map(|p| a.get_f64(i * k + p) * b.get_f64(p * n + j)).sum();
        }
    }
    out
}

#[test]
fn gemm_through_every_buffer_matches_the_logical_reference() {
    // (M, K, N): aligned for f16 (16) and i8 (32), and tails in every dimension.
    let sizes = [(32, 64, 32), (33, 40, 17), (1, 1, 1), (50, 70, 20), (16, 96, 48)];
    let mut rng = Rng::new(2024);
    for target in ["a2", "a5"] {
        for (elem, acc, ty) in [("f16", "f32", ElemType::F16), ("i8", "i32", ElemType::I8)] {
            for (m, k, n) in sizes {
                let context = create_context().unwrap();
                let mut module = parse(&context, &gemm_kernel(target, elem, acc, m, k, n));
                let (jit, report) = compile(&mut module, "gemm", &HashMap::new());
                assert!(report.unchecked.is_empty() && report.tensors == 8, "{report}");
                let mut a = rng.array(ty, &[m, k]);
                let mut b = rng.array(ty, &[k, n]);
                let acc_ty = if acc == "f32" { ElemType::F32 } else { ElemType::I32 };
                let mut c = rng.array(acc_ty, &[m, n]);
                let want = reference(&a, &b, m, k, n);
                jit.call("gemm", &mut [Arg::MemRef(&mut a), Arg::MemRef(&mut b), Arg::MemRef(&mut c)]).unwrap();
                // Bit-exact for both: i8 -> i32 is integer arithmetic; f16 -> f32 sums of
                // multiples of 1/64 with |sum| <= K are exact in f32 for K < 2^18.
                for (idx, w) in want.iter().enumerate() {
                    assert_eq!(c.get_f64(idx), *w, "{target} {elem} {m}x{k}x{n} C[{}][{}]", idx / n, idx % n);
                }
            }
        }
    }
}

// ------------------------------------------------------------------------------------------
// Tiled GEMM example (dynamic M, N, K loop, accumulate).

#[test]
fn tiled_gemm_example_with_tail_tiles() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tiled_gemm.mlir")).unwrap();
    let mut rng = Rng::new(7);
    for (m, n) in [(128, 128), (200, 136), (5, 250), (129, 1)] {
        let context = create_context().unwrap();
        let mut module = parse(&context, &text);
        let args = HashMap::from([(3, m as i64), (4, n as i64)]);
        // Without initcheck: at M = 5 the L1 -> L0A copy of the 128-row tail tile reads L1 rows
        // 5.. that nothing wrote (issue 11 item 1, valid regions; pinned by
        // `initcheck_reports_the_tiled_gemm_tail_reads`). The rows computed from them are not stored.
        let (jit, report) = lower_layout_ops_checked(&mut module, "tiled_gemm", &args, false);
        assert!(report.unchecked.is_empty(), "{report}");
        assert!(report.instances > report.tensors, "tile coordinates were enumerated: {report}");
        let mut a = rng.array(ElemType::F16, &[m, 256]);
        let mut b = rng.array(ElemType::F16, &[256, n]);
        let mut c = rng.array(ElemType::F32, &[m, n]); // garbage: every element must be written
        let want = reference(&a, &b, m, 256, n);
        jit.call(
            "tiled_gemm",
            &mut [
                Arg::MemRef(&mut a),
                Arg::MemRef(&mut b),
                Arg::MemRef(&mut c),
                Arg::Index(m as i64),
                Arg::Index(n as i64),
            ],
        )
        .unwrap();
        for (idx, w) in want.iter().enumerate() {
            assert_eq!(c.get_f64(idx), *w, "{m}x{n} C[{}][{}]", idx / n, idx % n);
        }
    }
}

/// `layout-strength-reduce` on the lowered tiled GEMM (after the JIT hook's `POST_LOWERING`):
/// addresses are carried across iterations, and C still equals the reference exactly.
#[test]
fn tiled_gemm_example_is_exact_after_strength_reduction() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tiled_gemm.mlir")).unwrap();
    let mut rng = Rng::new(11);
    for (m, n) in [(200, 136), (5, 250)] {
        let context = create_context().unwrap();
        let mut module = parse(&context, &text);
        lower_layout_ops(&mut module).unwrap();
        let carried = layout_passes::strength_reduce::strength_reduce(module.as_operation());
        // 9 at the time of writing (copies, zero-fills, MAC loops); 0 would mean the pass did nothing.
        assert!(carried >= 5, "only {carried} addresses carried");
        assert!(
            melior::ir::operation::OperationLike::verify(&module.as_operation()),
            "invalid after strength reduction"
        );
        let jit = Jit::new(&module).expect("jit");
        let mut a = rng.array(ElemType::F16, &[m, 256]);
        let mut b = rng.array(ElemType::F16, &[256, n]);
        let mut c = rng.array(ElemType::F32, &[m, n]);
        let want = reference(&a, &b, m, 256, n);
        let args = &mut [
            Arg::MemRef(&mut a),
            Arg::MemRef(&mut b),
            Arg::MemRef(&mut c),
            Arg::Index(m as i64),
            Arg::Index(n as i64),
        ];
        jit.call("tiled_gemm", args).unwrap();
        for (idx, w) in want.iter().enumerate() {
            assert_eq!(c.get_f64(idx), *w, "{m}x{n} C[{}][{}]", idx / n, idx % n);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Every legal copy pair (docs/layout-spec.md §D, `legality::legal_pairs`), on data with tails.

const SRC_PAD: f64 = 4.0; // never produced by the generator ([-1, 1])
const DST_INIT: f64 = -4.0;

fn pattern_ok(p: FramePattern) -> bool {
    p.is_matrix()
}

/// The 64-bit element type of ND/DN tensors in L1.
const F64: (&str, ElemType) = ("f64", ElemType::F64);

/// The 32-bit operands of a2 L1 ZZ / NN (`legality::legal_patterns`).
const F32: (&str, ElemType) = ("f32", ElemType::F32);

/// MX scales (`f8E8M0FNU`, C0 = 2) travel as their bit pattern: u8 arrays.
const E8M0: (&str, ElemType) = ("f8E8M0FNU", ElemType::U8);

/// Source padding and destination initial values that the generator never produces.
fn sentinels(elem: ElemType) -> (f64, f64) {
    if elem == ElemType::U8 {
        (255.0, 254.0) // E8M0 NaN and a large exponent; values are 0..200
    } else {
        (SRC_PAD, DST_INIT)
    }
}

fn random_value(elem: ElemType, rng: &mut Rng) -> f64 {
    match elem {
        ElemType::U8 => rng.range(0, 200) as f64,
        ElemType::I32 | ElemType::I8 => rng.range(-8, 8) as f64,
        _ => rng.range(-8, 8) as f64 / 8.0,
    }
}

fn elem_for(space: MemorySpace, p: FramePattern) -> (&'static str, ElemType) {
    if space == MemorySpace::L0c || p == FramePattern::L0C {
        ("f32", ElemType::F32)
    } else {
        ("f16", ElemType::F16)
    }
}

fn q_of(p: FramePattern) -> FramePattern {
    p
}

fn static_layout(ty: &TensorType) -> Layout {
    ty.resolve().unwrap().static_layout().unwrap()
}

fn crd(layout: &Layout, idx: &[i64]) -> IntTuple {
    layout.origin().unflatten(idx).unwrap()
}

fn make(elem: ElemType, values: Vec<f64>) -> Array {
    let n = values.len();
    let data = match elem {
        ElemType::F16 => Data::F16(values.iter().map(|v| F16::from_f32(*v as f32)).collect()),
        ElemType::F32 => Data::F32(values.iter().map(|v| *v as f32).collect()),
        ElemType::I32 => Data::I32(values.iter().map(|v| *v as i32).collect()),
        ElemType::I8 => Data::I8(values.iter().map(|v| *v as i8).collect()),
        ElemType::U8 => Data::U8(values.iter().map(|v| *v as u8).collect()),
        ElemType::F64 => Data::F64(values),
        other => panic!("{other}"),
    };
    Array::new(vec![n], data).unwrap()
}

/// Runs `src (P in S) -> dst (Q in D)` with both buffers bound by `layout.view` (on-chip views
/// are a CPU-only device to observe the buffers: the kernel is lowered with [`OBSERVE_ON_CHIP`])
/// and checks every element of the destination buffer.
fn check_copy(
    target: Target,
    src: (MemorySpace, FramePattern, ElemType, &str),
    dst: (MemorySpace, FramePattern, ElemType, &str),
    dims: &[i64],
    op: &str,
    rng: &mut Rng,
) -> u64 {
    let name = |p: FramePattern| if p == FramePattern::L0C { "NZ".to_string() } else { p.name().to_string() };
    let dims_text = format!("({})", dims.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(","));
    let sty =
        TensorType { elem: src.3.into(), space: src.0.name().into(), layout: name(src.1), origin: dims_text.clone() };
    let dty = TensorType { elem: dst.3.into(), space: dst.0.name().into(), layout: name(dst.1), origin: dims_text };
    let (sl, dl) = (static_layout(&sty), static_layout(&dty));
    let (scos, dcos) = (sl.cosize().unwrap() as usize, dl.cosize().unwrap() as usize);
    let text = format!(
        r#"module attributes {{layout.target = #layout.target<"{}">}} {{
  func.func @copy(%s: memref<{scos}x{}>, %d: memref<{dcos}x{}>) attributes {{llvm.emit_c_interface}} {{
    %a = "layout.view"(%s) : (memref<{scos}x{}>) -> {sty}
    %b = "layout.view"(%d) : (memref<{dcos}x{}>) -> {dty}
    "{op}"(%a, %b) : ({sty}, {dty}) -> ()
    return
  }}
}}"#,
        target.name(),
        src.3,
        dst.3,
        src.3,
        dst.3
    );
    let context = create_context().unwrap();
    let module = parse(&context, &text);
    let report = self_check_observing(&module, "copy");
    assert_eq!((report.tensors, report.unchecked.len()), (2, 0), "{report}");
    for d in ["arith", "scf", "memref", "func"] {
        context.get_or_load_dialect(d);
    }
    let options = layout_passes::lower_to_loops::Options { rules: OBSERVE_ON_CHIP, ..Default::default() };
    layout_passes::lower_to_loops::lower(module.as_operation(), &options).expect("lowering");
    let jit = Jit::new(&module).expect("jit");

    // Logical coordinates of the valid region (batch, rows, cols or rows, cols).
    let logical: Vec<Vec<i64>> = match dims {
        [r, c] => (0..*r).flat_map(|i| (0..*c).map(move |j| vec![i, j])).collect(),
        [b, r, c] => (0..*b).flat_map(|x| (0..*r).flat_map(move |i| (0..*c).map(move |j| vec![x, i, j]))).collect(),
        _ => unreachable!(),
    };
    let values: Vec<f64> = logical.iter().map(|_| random_value(src.2, rng)).collect();
    let (src_pad, dst_init) = sentinels(dst.2);
    let mut sbuf = vec![src_pad; scos];
    for (x, v) in logical.iter().zip(&values) {
        sbuf[sl.crd_to_offset(&crd(&sl, x)).unwrap() as usize] = *v;
    }
    let mut sarr = make(src.2, sbuf);
    let mut darr = make(dst.2, vec![dst_init; dcos]);
    jit.call("copy", &mut [Arg::MemRef(&mut sarr), Arg::MemRef(&mut darr)]).unwrap();

    // Expected destination: the values at their places, the zero-filled C0 tails (ND->NZ,
    // DN->ZN), the initial value everywhere else (the MX scale loads fill nothing).
    let mut want = vec![dst_init; dcos];
    use FramePattern::*;
    let rank = dims.len();
    let fill_axis = match (src.1, dst.1) {
        (ND | NDExt, NZ) => Some(rank - 1),
        (DN | DNExt, ZN) => Some(rank - 2),
        _ => None,
    };
    if let Some(axis) = fill_axis {
        let c0 =
            layout_algebra::ascend::frame_c0(q_of(dst.1), layout_algebra::ascend::ElementType::parse(dst.3).unwrap())
                .unwrap();
        let end = (dims[axis] + c0 - 1) / c0 * c0;
        for x in &logical {
            if x[axis] == dims[axis] - 1 {
                for t in dims[axis]..end {
                    let mut y = x.clone();
                    y[axis] = t;
                    want[dl.crd_to_offset(&crd(&dl, &y)).unwrap() as usize] = 0.0;
                }
            }
        }
    }
    for (x, v) in logical.iter().zip(&values) {
        want[dl.crd_to_offset(&crd(&dl, x)).unwrap() as usize] = *v;
    }
    for (p, w) in want.iter().enumerate() {
        assert_eq!(darr.get_f64(p), *w, "{} {src:?} -> {dst:?} {dims:?}: destination offset {p}", target.name());
    }
    dcos as u64
}

#[test]
fn every_legal_copy_pair_places_every_element_and_fills_padding_as_the_hardware() {
    let spaces = MemorySpace::ALL;
    let mut rng = Rng::new(99);
    let (mut pairs, mut skipped, mut mx_cases, mut conv_cases) = (0, Vec::new(), 0, 0);
    let mut illegal_types: Vec<String> = Vec::new();
    for target in [Target::A2, Target::A5] {
        for s in spaces {
            for d in spaces {
                let Ok(direction) = legality::direction(s, d, target) else { continue };
                let op = direction.op_name();
                for (p, q) in legality::legal_pairs(s, d, target) {
                    if (s, d) == (MemorySpace::Gm, MemorySpace::L1) && !p.is_matrix() && q == FramePattern::NC1HWC0 {
                        conv_cases += check_conv_pair(target, p, &mut rng);
                        pairs += 1;
                        continue;
                    }
                    if !pattern_ok(p) || !pattern_ok(q) {
                        skipped.push(format!("{} {}->{} {p}->{q}", target.name(), s.name(), d.name()));
                        continue;
                    }
                    let scale_space = matches!(s, MemorySpace::L0aScale | MemorySpace::L0bScale)
                        || matches!(d, MemorySpace::L0aScale | MemorySpace::L0bScale);
                    // L1 ZZ/NN exist only for MX scales (layout-verify T4): those pairs are MX
                    // loads; a pair T4 rejects for f16 and for the scales is not lowered.
                    let elem_ok = |space, pattern, elem: &str| {
                        let elem = layout_algebra::ascend::ElementType::parse(elem).unwrap();
                        legality::legal_patterns(space, target, elem).contains(&pattern)
                    };
                    let pair_ok = |(se, de): (&str, &str)| elem_ok(s, p, se) && elem_ok(d, q, de);
                    let plain = (elem_for(s, p).0, elem_for(d, q).0);
                    let mx_only = !pair_ok(plain) && pair_ok((E8M0.0, E8M0.0));
                    let mx = p.is_scale() || q.is_scale() || scale_space || mx_only;
                    // L1 holds ND/DN only for 64-bit elements (layout-verify T4; the legal
                    // pairs list ND -> ND and DN -> DN for those).
                    let l1_plain =
                        (s == MemorySpace::L1 && !p.is_fractal()) || (d == MemorySpace::L1 && !q.is_fractal());
                    // a2 L1 ZZ/NN hold f32 operands (the 32-bit transposing L1 -> L0 loads).
                    let f32_only = !mx && !pair_ok(plain) && pair_ok((F32.0, F32.0));
                    let ((se, st), (de, dt)) = if mx {
                        (E8M0, E8M0)
                    } else if l1_plain {
                        (F64, F64)
                    } else if f32_only {
                        (F32, F32)
                    } else {
                        (elem_for(s, p), elem_for(d, q))
                    };
                    if !pair_ok((se, de)) {
                        illegal_types.push(format!(
                            "{} {}->{} {p}->{q} ({se} -> {de})",
                            target.name(),
                            s.name(),
                            d.name()
                        ));
                        continue;
                    }
                    // Unaligned in both dims (C0 16 for f16, 8 for f32); even rows for NN (C0 = 2).
                    check_copy(target, (s, p, st, se), (d, q, dt, de), &[34, 40], op, &mut rng);
                    pairs += 1;
                    // MX scales: tails in the fractal (16) and in C0 (2) where the pattern
                    // allows odd sizes (ScaleADN: even cols; ScaleBND, NN with C0 = 2: even rows).
                    let scale_dims: &[&[i64]] = match (p, q) {
                        (FramePattern::ScaleAND, _) => &[&[33, 7], &[1, 1]],
                        (FramePattern::ScaleADN, _) => &[&[33, 6], &[1, 2]],
                        (FramePattern::ScaleBND | FramePattern::ScaleBDN, _) => &[&[6, 33], &[2, 1]],
                        (_, FramePattern::ZZ) if mx => &[&[33, 7]],
                        (_, FramePattern::NN) if mx => &[&[6, 33]],
                        _ => &[],
                    };
                    for dims in scale_dims {
                        check_copy(target, (s, p, st, se), (d, q, dt, de), dims, op, &mut rng);
                        mx_cases += 1;
                    }
                    // The MX loads of plain layouts (ND -> ZZ, DN -> NN, ZZ -> ZZ, NN -> NN) also
                    // with e8m0 scales.
                    if !mx
                        && target == Target::A5
                        && (s, d) == (MemorySpace::Gm, MemorySpace::L1)
                        && matches!(q, FramePattern::ZZ | FramePattern::NN)
                    {
                        let dims: &[i64] = if q == FramePattern::ZZ { &[33, 7] } else { &[6, 33] };
                        check_copy(target, (s, p, E8M0.1, E8M0.0), (d, q, E8M0.1, E8M0.0), dims, op, &mut rng);
                        mx_cases += 1;
                    }
                    // Batched (ND/DN/NZ/ZN frames have a batch form) for GM <-> L1.
                    if matches!((s, d), (MemorySpace::Gm, MemorySpace::L1) | (MemorySpace::L1, MemorySpace::Gm))
                        && matches!(p, FramePattern::ND | FramePattern::DN | FramePattern::NZ | FramePattern::ZN)
                    {
                        check_copy(target, (s, p, st, se), (d, q, dt, de), &[2, 18, 20], op, &mut rng);
                    }
                }
            }
        }
    }
    // Fixpipe conversions: f32 -> f16 / bf16 (truncf) and i32 -> i32.
    for (de, dt) in [("f16", ElemType::F16), ("i32", ElemType::I32)] {
        let se = if de == "i32" { ("i32", ElemType::I32) } else { ("f32", ElemType::F32) };
        check_copy(
            Target::A2,
            (MemorySpace::L0c, FramePattern::L0C, se.1, se.0),
            (MemorySpace::Gm, FramePattern::ND, dt, de),
            &[34, 40],
            "layout.store",
            &mut rng,
        );
    }
    // `legal_pairs` lists these a2 pairs, but the scale buffers do not exist on a2
    // (`legal_patterns`, T1), so no verified kernel has them. (a2 L1 ZZ / NN hold f32: the
    // pairs GM ND -> ZZ, DN -> NN, L1 NN -> L0A ZZ and ZZ -> L0B ZN run above with f32.)
    assert_eq!(
        illegal_types,
        ["a2 l1->l0a_scale ZZ->ZZ (f8E8M0FNU -> f8E8M0FNU)", "a2 l1->l0b_scale NN->NN (f8E8M0FNU -> f8E8M0FNU)"],
        "legal pairs whose types layout-verify rejects"
    );
    assert!(pairs >= 60, "{pairs} pairs");
    // 14: the a2 scale-buffer cases are gone (no such buffers on a2: layout-verify T1).
    assert!(mx_cases >= 14 && conv_cases >= 12, "{mx_cases} MX cases, {conv_cases} conv cases");
    // Not lowered (rejected with "not supported by this compiler yet", see
    // `matrix_conv_copies_are_rejected_clearly`): Fixpipe L0C -> NCHW/NHWC/NC1HWC0 and
    // a5 Img2Col NC1HWC0 -> NZ (a matrix <-> convolution change without an element
    // correspondence in the types).
    let expected = |s: &String| {
        s.contains("l0c->gm L0C->") && (s.contains("NC1HWC0") || s.contains("NCHW") || s.contains("NHWC"))
            || s.contains("a5 l1->l0a NC1HWC0->NZ")
    };
    assert!(skipped.iter().all(expected), "{skipped:?}");
    assert_eq!(skipped.len(), 7, "{skipped:?}");
}

/// The GM -> L1 convolution copies `NC1HWC0 <- src` for one source pattern, in f16 (C0 16),
/// f32 (C0 8) and i8 (C0 32), with channel tails, a destination with a spare C1 block and the
/// 5-dim NC1HWC0 spelling; returns the number of cases.
fn check_conv_pair(target: Target, src: FramePattern, rng: &mut Rng) -> usize {
    let mut cases = 0;
    for (elem, ty, c0) in [("f16", ElemType::F16, 16), ("f32", ElemType::F32, 8), ("i8", ElemType::I8, 32)] {
        // (n, c, h, w) of the source, C1 of the destination, 5-dim origin or not.
        for (n, c, h, w, c1, five) in [
            (2, 20, 3, 5, None, false),
            (1, 2 * c0, 2, 3, None, true),
            (2, c0 + 3, 1, 4, Some(3), false),
            (1, 1, 1, 1, None, true),
        ] {
            let c1 = c1.unwrap_or((c + c0 - 1) / c0);
            let sdims = match src {
                FramePattern::NCHW => vec![n, c, h, w],
                FramePattern::NHWC => vec![n, h, w, c],
                _ => vec![n, (c + c0 - 1) / c0, h, w, c0],
            };
            let ddims = if five { vec![n, c1, h, w, c0] } else { vec![n, c1, h, w] };
            check_conv_copy(target, (src, &sdims), &ddims, (elem, ty), rng);
            cases += 1;
        }
    }
    cases
}

/// Runs `gm src -> l1 NC1HWC0` (both bound by `layout.view`) and checks every destination
/// element against the algebra: logical `(n, c, h, w)` is placed at `conv_coordinate`, the
/// channels `[C, align(C, C0))` of every pixel are zero (NCHW/NHWC sources), the rest keeps its
/// initial value.
fn check_conv_copy(
    target: Target,
    (sp, sdims): (FramePattern, &[i64]),
    ddims: &[i64],
    (elem, ty): (&str, ElemType),
    rng: &mut Rng,
) {
    use layout_algebra::ascend::{conv_coordinate, conv_logical_extents};
    let text_of = |d: &[i64]| format!("({})", d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(","));
    let sty = TensorType { elem: elem.into(), space: "gm".into(), layout: sp.name().into(), origin: text_of(sdims) };
    let dty = TensorType { elem: elem.into(), space: "l1".into(), layout: "NC1HWC0".into(), origin: text_of(ddims) };
    let (sl, dl) = (static_layout(&sty), static_layout(&dty));
    let (scos, dcos) = (sl.cosize().unwrap() as usize, dl.cosize().unwrap() as usize);
    let text = format!(
        r#"module attributes {{layout.target = #layout.target<"{t}">}} {{
  func.func @copy(%s: memref<{scos}x{elem}>, %d: memref<{dcos}x{elem}>) attributes {{llvm.emit_c_interface}} {{
    %a = "layout.view"(%s) : (memref<{scos}x{elem}>) -> {sty}
    %b = "layout.view"(%d) : (memref<{dcos}x{elem}>) -> {dty}
    "layout.load"(%a, %b) : ({sty}, {dty}) -> ()
    return
  }}
}}"#,
        t = target.name()
    );
    let context = create_context().unwrap();
    let module = parse(&context, &text);
    let report = self_check_observing(&module, "copy");
    assert_eq!((report.tensors, report.unchecked.len()), (2, 0), "{report}");
    for d in ["arith", "scf", "memref", "func"] {
        context.get_or_load_dialect(d);
    }
    let options = layout_passes::lower_to_loops::Options { rules: OBSERVE_ON_CHIP, ..Default::default() };
    layout_passes::lower_to_loops::lower(module.as_operation(), &options).expect("lowering");
    let jit = Jit::new(&module).expect("jit");

    let (sleaves, dleaves) = (sl.origin().leaves(), dl.origin().leaves());
    let se = conv_logical_extents(sp, &sleaves).unwrap();
    let (sc0, dc0) = (if sp == FramePattern::NC1HWC0 { sleaves[4] } else { 1 }, dleaves[4]);
    let logical: Vec<[i64; 4]> = (0..se[0])
        .flat_map(|n| (0..se[1]).flat_map(move |c| (0..se[2]).flat_map(move |h| (0..se[3]).map(move |w| [n, c, h, w]))))
        .collect();
    let values: Vec<f64> = logical.iter().map(|_| random_value(ty, rng)).collect();
    let (src_pad, dst_init) = if ty == ElemType::I8 { (100.0, -100.0) } else { (SRC_PAD, DST_INIT) };
    let place = |l: &Layout, p: FramePattern, c0: i64, x: &[i64; 4]| {
        l.crd_to_offset(&crd(l, &conv_coordinate(p, &c0, x).unwrap())).unwrap() as usize
    };
    let mut sbuf = vec![src_pad; scos];
    for (x, v) in logical.iter().zip(&values) {
        sbuf[place(&sl, sp, sc0, x)] = *v;
    }
    let mut sarr = make(ty, sbuf);
    let mut darr = make(ty, vec![dst_init; dcos]);
    jit.call("copy", &mut [Arg::MemRef(&mut sarr), Arg::MemRef(&mut darr)]).unwrap();

    let mut want = vec![dst_init; dcos];
    if sp != FramePattern::NC1HWC0 {
        for x in logical.iter().filter(|x| x[1] == se[1] - 1) {
            for c in se[1]..(se[1] + dc0 - 1) / dc0 * dc0 {
                want[place(&dl, FramePattern::NC1HWC0, dc0, &[x[0], c, x[2], x[3]])] = 0.0;
            }
        }
    }
    for (x, v) in logical.iter().zip(&values) {
        want[place(&dl, FramePattern::NC1HWC0, dc0, x)] = *v;
    }
    for (p, w) in want.iter().enumerate() {
        assert_eq!(
            darr.get_f64(p),
            *w,
            "{} gm {sp} {sdims:?} -> l1 NC1HWC0 {ddims:?} {elem}: destination offset {p}",
            target.name()
        );
    }
}

/// The legal pairs between a matrix and a convolution layout that this compiler does not
/// implement (Fixpipe L0C -> NCHW, Img2Col) are rejected with a located error, not lowered
/// wrongly; a conv copy whose source does not fit is rejected by the verifier.
#[test]
fn matrix_conv_copies_are_rejected_clearly() {
    let cases = [
        (
            "a5",
            r#"%c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(30,40)">
    %g = "layout.view"(%m) : (memref<1200xf32>) -> !layout.tensor<f32, "gm", "NCHW", "(1,40,5,6)">
    "layout.store"(%c, %g) : (!layout.tensor<f32, "l0c", "NZ", "(30,40)">, !layout.tensor<f32, "gm", "NCHW", "(1,40,5,6)">) -> ()"#,
            "not supported by this compiler yet",
        ),
        (
            "a2",
            r#"%c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(32,32)">
    %g = "layout.view"(%m) : (memref<1200xf32>) -> !layout.tensor<f32, "gm", "NC1HWC0", "(1,2,4,8)">
    "layout.store"(%c, %g) : (!layout.tensor<f32, "l0c", "NZ", "(32,32)">, !layout.tensor<f32, "gm", "NC1HWC0", "(1,2,4,8)">) -> ()"#,
            "not supported by this compiler yet",
        ),
        (
            "a5",
            r#"%g = "layout.view"(%m) : (memref<1200xf32>) -> !layout.tensor<f32, "gm", "NCHW", "(1,20,5,6)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l1", "NC1HWC0", "(1,2,5,6)">
    "layout.load"(%g, %c) : (!layout.tensor<f32, "gm", "NCHW", "(1,20,5,6)">, !layout.tensor<f32, "l1", "NC1HWC0", "(1,2,5,6)">) -> ()"#,
            "c = 20 does not fit the destination (c = 16 = c1·c0)",
        ),
    ];
    for (target, body, want) in cases {
        let context = create_context().unwrap();
        let text = format!(
            "module attributes {{layout.target = #layout.target<\"{target}\">}} {{\n  func.func @k(%m: memref<1200xf32>) {{\n    {body}\n    return\n  }}\n}}\n"
        );
        let mut module = parse(&context, &text);
        let error = lower_layout_ops(&mut module).unwrap_err();
        let d = &error.diagnostics()[0];
        assert!(d.message.contains(want) && d.position.as_ref().is_some_and(|p| p.line == 5), "{error}");
    }
}

/// The algebra's NZ (used above to place elements) agrees with the PyPTO closed form of spec
/// docs/layout-spec.md §A.5: `((j/C0)·M1 + i/16)·16 + i%16)·C0 + j%C0` (an independent formula, test-only).
#[test]
fn nz_placement_agrees_with_the_pypto_formula() {
    let ty = TensorType { elem: "f16".into(), space: "l1".into(), layout: "NZ".into(), origin: "(34,40)".into() };
    let l = static_layout(&ty);
    let (c0, m1) = (16i64, (34 + 15) / 16);
    for i in 0..34 {
        for j in 0..40 {
            let want = (((j / c0) * m1 + i / 16) * 16 + i % 16) * c0 + j % c0;
            assert_eq!(l.crd_to_offset(&crd(&l, &[i, j])).unwrap(), want);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Errors and offsets.

#[test]
fn offsets_and_unsupported_input_are_handled() {
    let context = create_context().unwrap();
    let mut module = parse(
        &context,
        r#"module attributes {layout.target = #layout.target<"a2">} {
  func.func @off(%i: index, %j: index) -> index attributes {llvm.emit_c_interface} {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(100,100)">
    %o = "layout.offset"(%a, %i, %j) : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> index
    return %o : index
  }
}"#,
    );
    let (jit, _) = compile(&mut module, "off", &HashMap::new());
    let l = static_layout(&TensorType {
        elem: "f16".into(),
        space: "l1".into(),
        layout: "NZ".into(),
        origin: "(100,100)".into(),
    });
    for (i, j) in [(17, 33), (0, 0), (99, 99), (111, 111)] {
        let got = jit.call("off", &mut [Arg::Index(i), Arg::Index(j)]).unwrap();
        assert_eq!(got, Some(layout_runtime::Scalar::Index(l.crd_to_offset(&crd(&l, &[i, j])).unwrap())));
    }
    // i32 -> i8 needs quantization parameters (REQ8): a located error, no panic.
    let context = create_context().unwrap();
    // (C is written by an i8 matmul first: the store may read only what was written, R1.)
    let text = r#"module attributes {layout.target = #layout.target<"a2">} {
  func.func @q(%m: memref<256xi8>, %ma: memref<512xi8>, %mb: memref<512xi8>) {
    %ga = "layout.view"(%ma) : (memref<512xi8>) -> !layout.tensor<i8, "gm", "ND", "(16,32)">
    %gb = "layout.view"(%mb) : (memref<512xi8>) -> !layout.tensor<i8, "gm", "ZN", "(32,16)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(16,32)">
    "layout.load"(%ga, %a1) : (!layout.tensor<i8, "gm", "ND", "(16,32)">, !layout.tensor<i8, "l1", "NZ", "(16,32)">) -> ()
    %a = "layout.alloc"() : () -> !layout.tensor<i8, "l0a", "ZZ", "(16,32)">
    "layout.load"(%a1, %a) : (!layout.tensor<i8, "l1", "NZ", "(16,32)">, !layout.tensor<i8, "l0a", "ZZ", "(16,32)">) -> ()
    %b = "layout.alloc"() : () -> !layout.tensor<i8, "l0b", "ZN", "(32,16)">
    "layout.load"(%gb, %b) : (!layout.tensor<i8, "gm", "ZN", "(32,16)">, !layout.tensor<i8, "l0b", "ZN", "(32,16)">) -> ()
    %c = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(16,16)">
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!layout.tensor<i8, "l0a", "ZZ", "(16,32)">, !layout.tensor<i8, "l0b", "ZN", "(32,16)">, !layout.tensor<i32, "l0c", "NZ", "(16,16)">) -> ()
    %g = "layout.view"(%m) : (memref<256xi8>) -> !layout.tensor<i8, "gm", "ND", "(16,16)">
    "layout.store"(%c, %g) : (!layout.tensor<i32, "l0c", "NZ", "(16,16)">, !layout.tensor<i8, "gm", "ND", "(16,16)">) -> ()
    return
  }
}
"#;
    let mut module = parse(&context, text);
    let error = lower_layout_ops(&mut module).unwrap_err();
    let d = &error.diagnostics()[0];
    // The verifier's conversion table (L3) rejects it before the lowering.
    assert!(
        d.message.contains("cannot convert i32 to i8") && d.position.as_ref().is_some_and(|p| p.line == 14),
        "{error}"
    );
}

/// The self-check catches a wrong address: the side function of an NZ tensor is compared with
/// a layout whose column-block stride is off by one fractal; the error names the tensor and the
/// first wrong coordinate.
#[test]
fn self_check_reports_a_wrong_address_with_tensor_and_coordinate() {
    let context = create_context().unwrap();
    let module = parse(&context, &gemm_kernel("a2", "f16", "f32", 33, 40, 17));
    for d in ["arith", "scf", "memref", "func"] {
        context.get_or_load_dialect(d);
    }
    let lowered = layout_passes::lower_to_loops::lower(
        module.as_operation(),
        &layout_passes::lower_to_loops::Options { self_check: true, ..Default::default() },
    )
    .unwrap();
    let jit = Jit::new(&module).unwrap();
    let spec =
        lowered.checks.iter().find(|s| s.tensor.contains("\"l1\", \"NZ\", \"(33,40)\"")).expect("the L1 A buffer");
    layout_runtime::self_check::check_instance(&jit, spec, &HashMap::new()).expect("the true layout passes");
    let mut wrong = spec.clone();
    let stride = wrong.layout.stride().map(&mut |e: &layout_algebra::SymExpr| {
        Ok::<_, String>(if e.as_constant() == Some(768) { layout_algebra::SymExpr::Const(1024) } else { e.clone() })
    });
    wrong.layout = layout_algebra::Layout::with_origin(
        wrong.layout.shape().clone(),
        stride.unwrap(),
        wrong.layout.origin().clone(),
    )
    .unwrap();
    let error = layout_runtime::self_check::check_instance(&jit, &wrong, &HashMap::new()).unwrap_err();
    // Typed: the tensor, the coordinate and both addresses, as fields.
    let layout_runtime::Error::AddressMismatch(mismatch) = &error else {
        panic!("expected an address mismatch, got: {error}")
    };
    assert!(mismatch.tensor.contains("layout.alloc"), "{error}");
    assert_eq!((mismatch.coordinate.as_str(), mismatch.lowered), ("(0,16)", 768), "{error}");
    assert_ne!(mismatch.lowered, mismatch.expected, "{error}");
    let error = error.to_string();
    assert!(
        error.contains("layout.alloc")
            && error.contains("at coordinate (0,16)")
            && error.contains("lowered address is 768"),
        "{error}"
    );
}

// ------------------------------------------------------------------------------------------
// The self-check covers the simplified address code (layout-simplify-offsets on the JIT path).

/// GM ND 96x40 -> UB NZ in 32-row tiles: the tile coordinate is a loop variable (step 32); the
/// tiles are 32x48, whole fractals (layout-verify G3), with the origin clipped to 40 columns.
const TILED_NZ_COPY: &str = r#"module attributes {layout.target = #layout.target<"a2">} {
  func.func @copy(%s: memref<3840xf16>, %d: memref<4608xf16>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c96 = arith.constant 96 : index
    %g = "layout.view"(%s) : (memref<3840xf16>) -> !layout.tensor<f16, "gm", "ND", "(96,40)">
    %b = "layout.view"(%d) : (memref<4608xf16>) -> !layout.tensor<f16, "ub", "NZ", "(96,40)">
    scf.for %t = %c0 to %c96 step %c32 {
      %tg = "layout.tile"(%g, %t, %c0) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "gm", "ND", "(96,40)">, index, index) -> !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
      %tb = "layout.tile"(%b, %t, %c0) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "ub", "NZ", "(96,40)">, index, index) -> !layout.tensor<f16, "ub", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
      "layout.load"(%tg, %tb) : (!layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">, !layout.tensor<f16, "ub", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">) -> ()
    }
    return
  }
}"#;

/// The `func.func` around `op` is a self-check side function.
fn in_side_function(op: &melior::ir::OperationRef) -> bool {
    use melior::ir::operation::OperationLike;
    let mut current = op.parent_operation();
    while let Some(p) = current {
        if layout_passes::ir::op_name(&p) == "func.func" {
            return p
                .attribute("sym_name")
                .map(|a| a.to_string().contains(layout_passes::lower_to_loops::self_check::SIDE_FUNCTION_PREFIX))
                .unwrap_or(false);
        }
        current = p.parent_operation();
    }
    false
}

/// The self-check JITs the side functions after the same simplification as the JIT hook: their
/// address code (tile coordinate included, which gets the loop's range facts) has no div/rem
/// left, and every address still equals the algebra.
#[test]
fn self_check_runs_on_the_simplified_address_code() {
    let context = create_context().unwrap();
    let module = parse(&context, TILED_NZ_COPY);
    let seen = std::cell::RefCell::new(String::new());
    let report =
        layout_runtime::self_check::self_check_with(&module, Some("copy"), &HashMap::new(), OBSERVE_ON_CHIP, &|m| {
            layout_runtime::layout_lowering::simplify_lowered(m)?;
            *seen.borrow_mut() = m.as_operation().to_string();
            Ok(())
        })
        .unwrap_or_else(|e| panic!("self-check: {e}"));
    assert_eq!((report.tensors, report.unchecked.len()), (4, 0), "{report}");
    let text = seen.into_inner();
    assert!(
        text.contains("__layout_selfcheck_") && text.contains("arith.andi") && text.contains("arith.shrui"),
        "{text}"
    );
    assert!(!text.contains("arith.divsi") && !text.contains("arith.remsi"), "{text}");
    // The default entry does the same.
    let report = self_check_observing(&module, "copy");
    assert_eq!(report.tensors, 4, "{report}");
}

/// The real simplification, then a deliberately wrong rewrite `x mod 16 -> x`: every
/// `arith.andi %x, 15` of the side functions (the NZ column in the fractal) replaced by `%x`.
/// Counts the replaced masks in `corrupted`.
pub(super) fn simplify_then_drop_nz_column_masks(
    m: &mut melior::ir::Module,
    corrupted: &std::cell::Cell<usize>,
) -> layout_runtime::Result<()> {
    simplify_then_drop_masks(m, corrupted, in_side_function)
}

/// [`simplify_then_drop_nz_column_masks`] in the kernel's own code (not the side functions):
/// what the access proofs read.
pub(super) fn simplify_then_drop_kernel_nz_column_masks(
    m: &mut melior::ir::Module,
    corrupted: &std::cell::Cell<usize>,
) -> layout_runtime::Result<()> {
    simplify_then_drop_masks(m, corrupted, |op| !in_side_function(op))
}

fn simplify_then_drop_masks(
    m: &mut melior::ir::Module,
    corrupted: &std::cell::Cell<usize>,
    pick: fn(&melior::ir::OperationRef) -> bool,
) -> layout_runtime::Result<()> {
    layout_runtime::layout_lowering::simplify_lowered(m)?;
    corrupted.set(corrupted.get() + layout_runtime::address_proof::inject::drop_column_masks(m, pick));
    Ok(())
}

/// A wrong simplification fails the self-check: after the real simplification, a deliberately
/// wrong rewrite `x mod 16 -> x` (every `arith.andi %x, 15` of the side functions replaced by
/// `%x`) is injected; the check names the tensor and the first wrong coordinate.
#[test]
fn self_check_catches_a_wrong_simplification() {
    let context = create_context().unwrap();
    let module = parse(&context, TILED_NZ_COPY);
    let corrupted = std::cell::Cell::new(0);
    let error =
        layout_runtime::self_check::self_check_with(&module, Some("copy"), &HashMap::new(), OBSERVE_ON_CHIP, &|m| {
            simplify_then_drop_nz_column_masks(m, &corrupted)
        })
        .expect_err("the wrong rewrite must be caught")
        .to_string();
    assert!(corrupted.get() > 0, "no mask to corrupt");
    assert!(
        error.starts_with("self-check: layout.")
            && error.contains("at coordinate")
            && error.contains("the lowered address is")
            && error.contains("the algebra's crd_to_offset is"),
        "{error}"
    );
}

// ------------------------------------------------------------------------------------------
// initcheck (`layout-lower-to-loops{sanitize=true}`, docs/sanitizer.md).

#[test]
fn an_accumulation_into_unwritten_l0c_is_a_compile_time_error() {
    // `accumulate = true` into a fresh L0C reads C before anything wrote it: `layout-verify` R1
    // rejects it before any back end runs (the run-time initcheck is the backstop for what it
    // cannot see: see the next test).
    let text = gemm_kernel("a2", "f16", "f32", 32, 32, 16).replace("accumulate = false", "accumulate = true");
    let line = text.lines().position(|l| l.contains("\"layout.matmul\"")).unwrap() + 1;
    let context = create_context().unwrap();
    let mut module = parse(&context, &text);
    let error = lower_layout_ops_with(&mut module, true).expect_err("R1 must reject it").to_string();
    assert!(error.contains(&format!(":{line}:5: error: layout.matmul reads C from the l0c buffer")), "{error}");
    assert!(error.contains("which may not have been written before"), "{error}");
}

#[test]
fn the_tiled_gemm_tails_run_clean_under_initcheck() {
    // examples/tiled_gemm.mlir at M = 5 reads its L1 panels only through the views of what the
    // loads wrote, so initcheck (which reported row 5 of the K slice before valid regions)
    // finds nothing, and the result is bit-identical to the run without it.
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tiled_gemm.mlir")).unwrap();
    let mut rng = Rng::new(3);
    let (a, b) = (rng.array(ElemType::F16, &[5, 256]), rng.array(ElemType::F16, &[256, 250]));
    let mut results = Vec::new();
    for sanitize in [true, false] {
        let context = create_context().unwrap();
        let mut module = parse(&context, &text);
        lower_layout_ops_with(&mut module, sanitize).unwrap_or_else(|e| panic!("lowering: {e}"));
        let jit = Jit::new(&module).expect("jit");
        let (mut a, mut b) = (a.clone(), b.clone());
        let mut c = Array::zeros(ElemType::F32, &[5, 250]);
        let args = &mut [Arg::MemRef(&mut a), Arg::MemRef(&mut b), Arg::MemRef(&mut c), Arg::Index(5), Arg::Index(250)];
        jit.call("tiled_gemm", args).unwrap_or_else(|e| panic!("sanitize {sanitize}: {e}"));
        results.push(c);
    }
    assert!(results[0].data().to_le_bytes() == results[1].data().to_le_bytes(), "initcheck changed the result");
    assert!((0..5 * 250).all(|i| results[0].get_f64(i).is_finite()), "a poisoned element reached C");
}
