// One 40x24x56 GEMM block on a2 (f16 in, f32 out, tails in m, n and k) in the layout dialect,
// for every back end of layout-run:
//   layout-run ascendc_gemm_a2.mlir --entry gemm --backend loops|ascendc-cpp|ascendc-llvm [--sanitize]
module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm(%A: memref<2240xf16>, %B: memref<1344xf16>, %C: memref<960xf32>) attributes {llvm.emit_c_interface} {
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
