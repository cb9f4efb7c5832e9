//! Cube edge cases through the three back ends against references written here: a matmul into
//! L0C sub-tiles whose layouts differ from the one Mmad infers only on modes of extent 1
//! (`Layout::same_function`), and m = 1 GEMMs on a5, where Mmad must set `disableGemv`
//! (issue 11 item 9).

use super::{check_gemm, gemm_kernel, lower, three_ways, values, Case, Gemm};
use ascendc_emit::run;
use layout_npy::random::Rng;
use layout_runtime::{Array, ElemType};

/// Two 32×16 products into two sub-tiles of one 64×32 L0C accumulator, at (0,0) and (32,16):
/// `C[0:32, 0:16] = A[0:32, :] · B[:, 0:16]` and `C[32:64, 16:32] = A[32:64, :] · B[:, 16:32]`,
/// each stored from its sub-tile. A sub-tile's layout is
/// `((16,2),(16,1)):((16,256),(1,1024))`: the parent's 64-row column-block stride (1024) on its
/// single column block, where Mmad infers 512 for m = 32 — the same function.
fn l0c_subtile_kernel() -> String {
    let sub = r#"!layout.tensor<f32, "l0c", "((16,2),(16,1)):((16,256),(1,1024))", "(32,16)">"#;
    let gm16 =
        |r: usize, c: usize, ld: usize| format!(r#"!layout.tensor<f16, "gm", "({r},{c}):({ld},1)", "({r},{c})">"#);
    let (ta, tb) = (gm16(32, 32, 32), gm16(32, 16, 32));
    let tc = r#"!layout.tensor<f32, "gm", "(32,16):(32,1)", "(32,16)">"#;
    let half = |i: usize, row: usize, col: usize| {
        format!(
            r#"
    %ta{i} = "layout.tile"(%ga, %c{row}, %c0) {{shape = array<i64: 32, 32>}} : (!gA, index, index) -> {ta}
    %tb{i} = "layout.tile"(%gb, %c0, %c{col}) {{shape = array<i64: 32, 16>}} : (!gB, index, index) -> {tb}
    %a1v{i} = "layout.load"(%ta{i}, %a1) : ({ta}, !l1A) -> !l1A
    %b1v{i} = "layout.load"(%tb{i}, %b1) : ({tb}, !l1B) -> !l1B
    %a0v{i} = "layout.load"(%a1v{i}, %a0) : (!l1A, !l0A) -> !l0A
    %b0v{i} = "layout.load"(%b1v{i}, %b0) : (!l1B, !l0B) -> !l0B
    %sub{i} = "layout.tile"(%acc, %c{row}, %c{col}) {{shape = array<i64: 32, 16>}} : (!l0C, index, index) -> {sub}
    %w{i} = "layout.matmul"(%a0v{i}, %b0v{i}, %sub{i}) {{accumulate = false}} : (!l0A, !l0B, {sub}) -> {sub}
    %tc{i} = "layout.tile"(%gc, %c{row}, %c{col}) {{shape = array<i64: 32, 16>}} : (!gC, index, index) -> {tc}
    "layout.store"(%w{i}, %tc{i}) : ({sub}, {tc}) -> ()"#
        )
    };
    format!(
        r#"!gA = !layout.tensor<f16, "gm", "ND", "(64,32)">
!gB = !layout.tensor<f16, "gm", "ND", "(32,32)">
!gC = !layout.tensor<f32, "gm", "ND", "(64,32)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(32,32)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(32,16)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(32,32)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(32,16)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(64,32)">
module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @l0c_subtiles(%A: memref<2048xf16>, %B: memref<1024xf16>, %C: memref<2048xf32>) attributes {{llvm.emit_c_interface}} {{
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %ga = "layout.view"(%A) : (memref<2048xf16>) -> !gA
    %gb = "layout.view"(%B) : (memref<1024xf16>) -> !gB
    %gc = "layout.view"(%C) : (memref<2048xf32>) -> !gC
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C{top}{bottom}
    return
  }}
}}"#,
        top = half(0, 0, 0),
        bottom = half(1, 32, 16),
    )
}

#[test]
fn matmul_into_l0c_subtiles_with_unit_mode_strides() {
    let mut rng = Rng::new(4242);
    let a = rng.array(ElemType::F16, &[64 * 32]);
    let b = rng.array(ElemType::F16, &[32 * 32]);
    let case = Case {
        name: "l0c_subtiles",
        func: "l0c_subtiles",
        source: l0c_subtile_kernel(),
        target: "a2",
        inputs: vec![a.clone(), b.clone(), Array::zeros(ElemType::F32, &[64 * 32])],
        scalars: vec![],
        sanitize: run::checks::ALL,
        outputs: vec![2],
    };
    let got = values(&three_ways(&case)[0]);
    for r in 0..64 {
        for c in 0..32 {
            let stored = (r < 32) == (c < 16);
            let want = if stored { (0..32).map(|k| a.get_f64(r * 32 + k) * b.get_f64(k * 32 + c)).sum() } else { 0.0 };
            assert_eq!(got[r * 32 + c], want, "C[{r}][{c}]");
        }
    }
}

/// m = 1 on a5: the product is right on every back end (the model runs an m = 1 Mmad with
/// `disableGemv = false` in GEMV mode), and the emitted C++ sets `disableGemv = true` on a5 only
/// (the 2201 `MmadParams` has no such field).
#[test]
fn gemm_with_one_row_sets_disable_gemv_on_a5() {
    for (name, g) in [
        ("gemm_m1_a5_dn", Gemm { m: 1, n: 24, k: 40, b_dn: true }),
        ("gemm_m1_a5_nd", Gemm { m: 1, n: 17, k: 33, b_dn: false }),
    ] {
        check_gemm(name, "a5", g, "f16", "f32", "f32");
    }
    for (target, set) in [("a5", true), ("a2", false)] {
        let g = Gemm { m: 1, n: 24, k: 40, b_dn: true };
        let context = layout_runtime::create_context().unwrap();
        let module = lower(&context, &gemm_kernel("m1", target, &g, "f16", "f32", "f32"));
        let cpp = ascendc_emit::emit_cpp(&module).unwrap();
        assert_eq!(cpp.contains(".disableGemv = true;"), set, "{target}:\n{cpp}");
        assert_eq!(cpp.contains("disableGemv"), set, "{target}: the 2201 MmadParams has no disableGemv");
    }
}
