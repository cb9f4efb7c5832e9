// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

!l1 = !layout.tensor<f16, "l1", "NZ", "(100,100)">

// CHECK-LABEL: func.func @tile
// CHECK: "layout.tile"(%{{.*}}, %arg0, %arg1) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,?)">
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: "layout.tile"(%{{.*}}, %[[C0]], %[[C0]]) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(32,48)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @tile(%i: index, %j: index) {
    %a = "layout.alloc"() : () -> !l1
    %t = "layout.tile"(%a, %i, %j) {shape = array<i64: 32, 48>} : (!l1, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,?)">
    %c0 = arith.constant 0 : index
    %s = "layout.tile"(%a, %c0, %c0) {shape = array<i64: 32, 48>} : (!l1, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(32,48)">
    return
  }
}
