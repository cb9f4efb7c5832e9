// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

// CHECK-LABEL: func.func @alloc
// CHECK: "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
// CHECK: "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
// CHECK: "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,256)">
// CHECK: "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,256)">
// CHECK: "layout.alloc"(%arg0) : (index) -> !layout.tensor<f16, "ub", "ND", "(?,64)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @alloc(%m: index) {
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
    %1 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
    %2 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,256)">
    %3 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,256)">
    %4 = "layout.alloc"(%m) : (index) -> !layout.tensor<f16, "ub", "ND", "(?,64)">
    return
  }
}
