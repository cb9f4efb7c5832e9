// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

!l1 = !layout.tensor<f16, "l1", "NZ", "(100,100)">

// CHECK-LABEL: func.func @offset
// CHECK: %[[O:.*]] = "layout.offset"(%{{.*}}, %arg0, %arg1) : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> index
// CHECK: return %[[O]] : index
module attributes {layout.target = #layout.target<"a2">} {
  func.func @offset(%i: index, %j: index) -> index {
    %a = "layout.alloc"() : () -> !l1
    %o = "layout.offset"(%a, %i, %j) : (!l1, index, index) -> index
    return %o : index
  }
}
