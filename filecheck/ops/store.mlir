// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

!gm = !layout.tensor<f32, "gm", "ND", "(128,256)">
!l0c = !layout.tensor<f32, "l0c", "NZ", "(128,256)">

// CHECK-LABEL: func.func @store
// CHECK: "layout.store"(%{{.*}}, %{{.*}}) : (!layout.tensor<f32, "l0c", "NZ", "(128,256)">, !layout.tensor<f32, "gm", "ND", "(128,256)">) -> ()
module attributes {layout.target = #layout.target<"a5">} {
  func.func @store(%m: memref<32768xf32>) {
    %g = "layout.view"(%m) : (memref<32768xf32>) -> !gm
    %c = "layout.alloc"() : () -> !l0c
    "layout.store"(%c, %g) : (!l0c, !gm) -> ()
    return
  }
}
