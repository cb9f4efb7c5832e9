// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

!a = !layout.tensor<f16, "l0a", "NZ", "(128,64)">
!b = !layout.tensor<f16, "l0b", "ZN", "(64,256)">
!c = !layout.tensor<f32, "l0c", "NZ", "(128,256)">
!gma = !layout.tensor<f16, "gm", "NZ", "(128,64)">
!gmb = !layout.tensor<f16, "gm", "ZN", "(64,256)">
!l1a = !layout.tensor<f16, "l1", "NZ", "(128,64)">
!l1b = !layout.tensor<f16, "l1", "ZN", "(64,256)">

// CHECK-LABEL: func.func @matmul
// CHECK: "layout.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {accumulate = false} : (!layout.tensor<f16, "l0a", "NZ", "(128,64)">, !layout.tensor<f16, "l0b", "ZN", "(64,256)">, !layout.tensor<f32, "l0c", "NZ", "(128,256)">) -> ()
// CHECK: "layout.matmul"(%{{.*}}, %{{.*}}, %{{.*}}) {accumulate = true}
module attributes {layout.target = #layout.target<"a5">} {
  func.func @matmul(%ma: memref<8192xf16>, %mb: memref<16384xf16>) {
    // A and B are written before the matmul reads them (layout-verify R1).
    %ga = "layout.view"(%ma) : (memref<8192xf16>) -> !gma
    %gb = "layout.view"(%mb) : (memref<16384xf16>) -> !gmb
    %a1 = "layout.alloc"() : () -> !l1a
    %b1 = "layout.alloc"() : () -> !l1b
    "layout.load"(%ga, %a1) : (!gma, !l1a) -> ()
    "layout.load"(%gb, %b1) : (!gmb, !l1b) -> ()
    %a = "layout.alloc"() : () -> !a
    %b = "layout.alloc"() : () -> !b
    %c = "layout.alloc"() : () -> !c
    "layout.load"(%a1, %a) : (!l1a, !a) -> ()
    "layout.load"(%b1, %b) : (!l1b, !b) -> ()
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!a, !b, !c) -> ()
    "layout.matmul"(%a, %b, %c) {accumulate = true} : (!a, !b, !c) -> ()
    return
  }
}
