// The GEMM tile of gemm_f16.mlir on Ascend 950 (target "a5", arch 3510):
// C (M x N, f32, ND) = A (M x K, f16, ND) x B (K x N, f16, DN) with M = 40, K = 56, N = 24.
//
// What differs from a2:
// - L0A holds A in NZ (16 x C0 fractals, row-major inside, fractal columns outermost), not ZZ:
//   L1 NZ -> L0A NZ is a plain fractal copy, LoadData with LoadData2DParamsV2
//   (mStartPosition/kStartPosition/mStep/kStep/srcStride/dstStride, in fractals).
// - Here B is stored column-major (DN), so it is already ZN in L1 (B in ND would go L1 NZ ->
//   L0B ZN with LoadData2DParamsV2 ifTranspose, filecheck/ascendc/emit-transposing-loads.mlir):
//   DataCopy + Nd2NzParams moves it DN -> ZN (the
//   ND2NZ instruction on the transposed views: DN(K,N) is ND(N,K), ZN(K,N) is NZ(N,K)), then
//   L1 ZN -> L0B ZN is again a plain fractal copy (LoadData2DParamsV2).
// - Nd2NzParams has wider fields on 3510 (dValue uint32_t, srcDValue uint64_t).
module attributes {layout.target = #layout.target<"a5">} {
  func.func @gemm_f16_a5(%A: memref<2240xf16>, %B: memref<1344xf16>, %C: memref<960xf32>) {
    %ga = "layout.view"(%A) : (memref<2240xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,56)">
    %gb = "layout.view"(%B) : (memref<1344xf16>) -> !layout.tensor<f16, "gm", "DN", "(56,24)">
    %gc = "layout.view"(%C) : (memref<960xf32>) -> !layout.tensor<f32, "gm", "ND", "(40,24)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(40,56)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "ZN", "(56,24)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(40,56)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(56,24)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(40,24)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(40,56)">, !layout.tensor<f16, "l1", "NZ", "(40,56)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f16, "gm", "DN", "(56,24)">, !layout.tensor<f16, "l1", "ZN", "(56,24)">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<f16, "l1", "NZ", "(40,56)">, !layout.tensor<f16, "l0a", "NZ", "(40,56)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<f16, "l1", "ZN", "(56,24)">, !layout.tensor<f16, "l0b", "ZN", "(56,24)">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<f16, "l0a", "NZ", "(40,56)">, !layout.tensor<f16, "l0b", "ZN", "(56,24)">, !layout.tensor<f32, "l0c", "NZ", "(40,24)">) -> ()
    "layout.store"(%c0, %gc) : (!layout.tensor<f32, "l0c", "NZ", "(40,24)">, !layout.tensor<f32, "gm", "ND", "(40,24)">) -> ()
    return
  }
}
