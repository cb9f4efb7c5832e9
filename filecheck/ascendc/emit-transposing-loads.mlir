// Golden test of the transposing L1 -> L0B loads: B row-major (ND) in GM -> L1 NZ -> L0B ZN.
// a5 (arch 3510) f16: LoadData2DParamsV2 with ifTranspose = true (catlass ascend950 zN -> nZ):
// mStep = K fractals, kStep = N fractals, srcStride = K1 (NZ column-block stride / fractal),
// dstStride = N1 (ZN row-block stride / fractal).
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s

// CHECK: extern "C" __global__ __aicore__ void gemm_f16_a5_nd_b(
// CHECK: // LoadData2DParamsV2 L1 -> L0 (MTE1)
// CHECK: // LoadData2DParamsV2 L1 -> L0 (MTE1)
// CHECK: AscendC::LoadData2DParamsV2 [[P:p[0-9]+]];
// CHECK-NEXT: [[P]].mStartPosition = 0;
// CHECK-NEXT: [[P]].kStartPosition = 0;
// CHECK-NEXT: [[P]].mStep = 4;
// CHECK-NEXT: [[P]].kStep = 2;
// CHECK-NEXT: [[P]].srcStride = 4;
// CHECK-NEXT: [[P]].dstStride = 2;  // stride(dst, m_out) / fractal, in 512 B (transposed grid)
// CHECK-NEXT: [[P]].ifTranspose = true;  // transpose each 16x16 fractal and the fractal grid
// CHECK-NEXT: [[P]].sid = 0;
// CHECK-NEXT: AscendC::LoadData(b2[0], b1[0], [[P]]);
module attributes {layout.target = #layout.target<"a5">} {
  func.func @gemm_f16_a5_nd_b(%A: memref<2240xf16>, %B: memref<1344xf16>, %C: memref<960xf32>) {
    %ga = "layout.view"(%A) : (memref<2240xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,56)">
    %gb = "layout.view"(%B) : (memref<1344xf16>) -> !layout.tensor<f16, "gm", "ND", "(56,24)">
    %gc = "layout.view"(%C) : (memref<960xf32>) -> !layout.tensor<f32, "gm", "ND", "(40,24)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(40,56)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(56,24)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(40,56)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(56,24)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(40,24)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(40,56)">, !layout.tensor<f16, "l1", "NZ", "(40,56)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f16, "gm", "ND", "(56,24)">, !layout.tensor<f16, "l1", "NZ", "(56,24)">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<f16, "l1", "NZ", "(40,56)">, !layout.tensor<f16, "l0a", "NZ", "(40,56)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<f16, "l1", "NZ", "(56,24)">, !layout.tensor<f16, "l0b", "ZN", "(56,24)">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<f16, "l0a", "NZ", "(40,56)">, !layout.tensor<f16, "l0b", "ZN", "(56,24)">, !layout.tensor<f32, "l0c", "NZ", "(40,24)">) -> ()
    "layout.store"(%c0, %gc) : (!layout.tensor<f32, "l0c", "NZ", "(40,24)">, !layout.tensor<f32, "gm", "ND", "(40,24)">) -> ()
    return
  }
}
