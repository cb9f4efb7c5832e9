// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

// CHECK-LABEL: func.func @view
// CHECK: %[[V:.*]] = "layout.view"(%arg0) : (memref<12800xf16>) -> !layout.tensor<f16, "gm", "ND", "(100,128)">
// CHECK: "layout.view"(%arg1, %arg2) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(?,128)">
// CHECK: "layout.view"(%arg1, %arg2, %arg2, %arg2) : (memref<?xf16>, index, index, index) -> !layout.tensor<f16, "gm", "(?,128):(?,1)", "(?,128)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @view(%m: memref<12800xf16>, %d: memref<?xf16>, %n: index) {
    %0 = "layout.view"(%m) : (memref<12800xf16>) -> !layout.tensor<f16, "gm", "ND", "(100,128)">
    %1 = "layout.view"(%d, %n) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(?,128)">
    %2 = "layout.view"(%d, %n, %n, %n) : (memref<?xf16>, index, index, index) -> !layout.tensor<f16, "gm", "(?,128):(?,1)", "(?,128)">
    return
  }
}
