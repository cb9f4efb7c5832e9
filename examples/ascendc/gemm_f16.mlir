// A GEMM tile for the AscendC back end: C (M x N, f32, ND) = A (M x K, f16, ND) x B (K x N, f16, ND)
// with M = 40, K = 56, N = 24 (tails everywhere: nothing is a multiple of 16 but K of 8).
// GM ND -> L1 NZ (DataCopy + Nd2NzParams) -> L0A (ZZ on a2) / L0B (ZN, transposed per fractal)
// -> Mmad -> L0C NZ -> GM ND (Fixpipe NZ2ND).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_f16(%A: memref<2240xf16>, %B: memref<1344xf16>, %C: memref<960xf32>) {
    %ga = "layout.view"(%A) : (memref<2240xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,56)">
    %gb = "layout.view"(%B) : (memref<1344xf16>) -> !layout.tensor<f16, "gm", "ND", "(56,24)">
    %gc = "layout.view"(%C) : (memref<960xf32>) -> !layout.tensor<f32, "gm", "ND", "(40,24)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(40,56)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(56,24)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(40,56)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(56,24)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(40,24)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(40,56)">, !layout.tensor<f16, "l1", "NZ", "(40,56)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f16, "gm", "ND", "(56,24)">, !layout.tensor<f16, "l1", "NZ", "(56,24)">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<f16, "l1", "NZ", "(40,56)">, !layout.tensor<f16, "l0a", "ZZ", "(40,56)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<f16, "l1", "NZ", "(56,24)">, !layout.tensor<f16, "l0b", "ZN", "(56,24)">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(40,56)">, !layout.tensor<f16, "l0b", "ZN", "(56,24)">, !layout.tensor<f32, "l0c", "NZ", "(40,24)">) -> ()
    "layout.store"(%c0, %gc) : (!layout.tensor<f32, "l0c", "NZ", "(40,24)">, !layout.tensor<f32, "gm", "ND", "(40,24)">) -> ()
    return
  }
}
