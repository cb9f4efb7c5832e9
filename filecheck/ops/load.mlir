// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

!gm = !layout.tensor<f16, "gm", "ND", "(128,64)">
!l1 = !layout.tensor<f16, "l1", "NZ", "(128,64)">
!l0a = !layout.tensor<f16, "l0a", "ZZ", "(128,64)">

// CHECK-LABEL: func.func @load
// CHECK: "layout.load"(%{{.*}}, [[L1:%[0-9]+]]) : (!layout.tensor<f16, "gm", "ND", "(128,64)">, !layout.tensor<f16, "l1", "NZ", "(128,64)">) -> ()
// CHECK: "layout.load"([[L1]], %{{.*}}) : (!layout.tensor<f16, "l1", "NZ", "(128,64)">, !layout.tensor<f16, "l0a", "ZZ", "(128,64)">) -> ()
module attributes {layout.target = #layout.target<"a2">} {
  func.func @load(%m: memref<8192xf16>) {
    %g = "layout.view"(%m) : (memref<8192xf16>) -> !gm
    %l1 = "layout.alloc"() : () -> !l1
    %l0a = "layout.alloc"() : () -> !l0a
    "layout.load"(%g, %l1) : (!gm, !l1) -> ()
    "layout.load"(%l1, %l0a) : (!l1, !l0a) -> ()
    return
  }
}
