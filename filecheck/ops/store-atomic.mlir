// `layout.store {atomic = "add"}` (the atomic-add store of split-K) round-trips and verifies on
// a2 (SetAtomicAdd adds f32 there); the errors are in filecheck/verify/epilogue-errors.mlir.
// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

!gm = !layout.tensor<f32, "gm", "ND", "(128,256)">
!l0c = !layout.tensor<f32, "l0c", "NZ", "(128,256)">

// CHECK-LABEL: func.func @store_atomic
// CHECK: "layout.store"(%{{.*}}, %{{.*}}) {atomic = "add"} : (!layout.tensor<f32, "l0c", "NZ", "(128,256)">, !layout.tensor<f32, "gm", "ND", "(128,256)">) -> ()
module attributes {layout.target = #layout.target<"a2">} {
  func.func @store_atomic(%m: memref<32768xf32>, %ma: memref<2048xf16>, %mb: memref<4096xf16>) {
    %g = "layout.view"(%m) : (memref<32768xf32>) -> !gm
    // C is written (a 128 x 16 x 256 matmul) before the store reads it (layout-verify R1).
    %ga = "layout.view"(%ma) : (memref<2048xf16>) -> !layout.tensor<f16, "gm", "NZ", "(128,16)">
    %gb = "layout.view"(%mb) : (memref<4096xf16>) -> !layout.tensor<f16, "gm", "ZN", "(16,256)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,16)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "ZN", "(16,256)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "NZ", "(128,16)">, !layout.tensor<f16, "l1", "NZ", "(128,16)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f16, "gm", "ZN", "(16,256)">, !layout.tensor<f16, "l1", "ZN", "(16,256)">) -> ()
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,256)">
    "layout.load"(%a1, %a) : (!layout.tensor<f16, "l1", "NZ", "(128,16)">, !layout.tensor<f16, "l0a", "ZZ", "(128,16)">) -> ()
    "layout.load"(%b1, %b) : (!layout.tensor<f16, "l1", "ZN", "(16,256)">, !layout.tensor<f16, "l0b", "ZN", "(16,256)">) -> ()
    %c = "layout.alloc"() : () -> !l0c
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,256)">, !l0c) -> ()
    "layout.store"(%c, %g) {atomic = "add"} : (!l0c, !gm) -> ()
    return
  }
}
