// Golden test of LoadDataWithTranspose (a2, arch 2201, i8): B row-major (ND) in GM -> L1 NZ
// (16x32 fractals) -> L0B ZN (32x16 fractals). Two consecutive L1 fractals form a 32x32 square,
// transposed into two ZN fractals: one call per 32-row square row (K1 = 2), repeatTimes = squares
// along N (1), srcStride = 4/2 = 2 squares, dstGap = 1, dstFracGap = 0.
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s

// CHECK: extern "C" __global__ __aicore__ void gemm_i8_a2_nd_b(
// CHECK: // LoadData2dTransposeParams L1 -> L0, squares of two fractals transposed (MTE1)
// CHECK: AscendC::LoadData2dTransposeParams [[P:p[0-9]+]];
// CHECK-NEXT: [[P]].startIndex = 0;
// CHECK-NEXT: [[P]].repeatTimes = 1;
// CHECK-NEXT: [[P]].srcStride = 2;
// CHECK-NEXT: [[P]].dstGap = 1;
// CHECK-NEXT: [[P]].dstFracGap = 0;
// CHECK-NEXT: [[P]].addrMode = 0;
// CHECK-NEXT: for (int64_t r = 0; r < 2; ++r) {
// CHECK-NEXT: AscendC::LoadDataWithTranspose(b2[r * 1024], b1[r * 1024], [[P]]);
module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_i8_a2_nd_b(%A: memref<2400xi8>, %B: memref<1440xi8>, %C: memref<960xi32>) {
    %ga = "layout.view"(%A) : (memref<2400xi8>) -> !layout.tensor<i8, "gm", "ND", "(40,60)">
    %gb = "layout.view"(%B) : (memref<1440xi8>) -> !layout.tensor<i8, "gm", "ND", "(60,24)">
    %gc = "layout.view"(%C) : (memref<960xi32>) -> !layout.tensor<i32, "gm", "ND", "(40,24)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(40,60)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(60,24)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0a", "ZZ", "(40,60)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0b", "ZN", "(60,24)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(40,24)">
    "layout.load"(%ga, %a1) : (!layout.tensor<i8, "gm", "ND", "(40,60)">, !layout.tensor<i8, "l1", "NZ", "(40,60)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<i8, "gm", "ND", "(60,24)">, !layout.tensor<i8, "l1", "NZ", "(60,24)">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<i8, "l1", "NZ", "(40,60)">, !layout.tensor<i8, "l0a", "ZZ", "(40,60)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<i8, "l1", "NZ", "(60,24)">, !layout.tensor<i8, "l0b", "ZN", "(60,24)">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<i8, "l0a", "ZZ", "(40,60)">, !layout.tensor<i8, "l0b", "ZN", "(60,24)">, !layout.tensor<i32, "l0c", "NZ", "(40,24)">) -> ()
    "layout.store"(%c0, %gc) : (!layout.tensor<i32, "l0c", "NZ", "(40,24)">, !layout.tensor<i32, "gm", "ND", "(40,24)">) -> ()
    return
  }
}
