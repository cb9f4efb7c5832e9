// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

!a = !layout.tensor<f16, "l0a", "NZ", "(128,64)">
!b = !layout.tensor<f16, "l0b", "ZN", "(64,256)">
!c = !layout.tensor<f32, "l0c", "NZ", "(128,256)">

// CHECK-LABEL: func.func @matmul
// CHECK: "layout.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {accumulate = false} : (!layout.tensor<f16, "l0a", "NZ", "(128,64)">, !layout.tensor<f16, "l0b", "ZN", "(64,256)">, !layout.tensor<f32, "l0c", "NZ", "(128,256)">) -> ()
// CHECK: "layout.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {accumulate = true}
module attributes {layout.target = #layout.target<"a5">} {
  func.func @matmul() {
    %a = "layout.alloc"() : () -> !a
    %b = "layout.alloc"() : () -> !b
    %c = "layout.alloc"() : () -> !c
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!a, !b, !c) -> ()
    "layout.matmul"(%a, %b, %c) {accumulate = true} : (!a, !b, !c) -> ()
    return
  }
}
