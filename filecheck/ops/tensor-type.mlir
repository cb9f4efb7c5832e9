// Round trip of the !layout.tensor type and the #layout.target attribute: pattern layouts in
// both spellings, CuTe layouts with dynamic leaves, every element-type family.
// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --mlir-print-op-generic | layout-opt | FileCheck %s

!gm = !layout.tensor<f16, "gm", "ND", "(100,?)">
!l1 = !layout.tensor<bf16, "l1", "zN", "(100,100)">
!cute = !layout.tensor<i8, "l1", "((16,?),(32,?)):((32,512),(1,?))", "(?,?)">

// CHECK: module attributes {layout.target = #layout.target<"a5">}
module attributes {layout.target = #layout.target<"a5">} {
  // CHECK-LABEL: func.func @types
  // CHECK-SAME: !layout.tensor<f16, "gm", "ND", "(100,?)">
  // CHECK-SAME: !layout.tensor<bf16, "l1", "zN", "(100,100)">
  // CHECK-SAME: !layout.tensor<i8, "l1", "((16,?),(32,?)):((32,512),(1,?))", "(?,?)">
  // CHECK-SAME: !layout.tensor<f32, "l0c", "NZ", "(16,16)">
  // CHECK-SAME: !layout.tensor<f8E8M0FNU, "l0a_scale", "ZZ", "(16,2)">
  // CHECK-SAME: !layout.tensor<f8E4M3FN, "l1", "NZ", "(32,64)">
  // CHECK-SAME: !layout.tensor<f4E2M1FN, "l1", "NZ", "(16,64)">
  func.func @types(%a: !gm, %b: !l1, %c: !cute,
                   %d: !layout.tensor<f32, "l0c", "NZ", "(16,16)">,
                   %e: !layout.tensor<f8E8M0FNU, "l0a_scale", "ZZ", "(16,2)">,
                   %f: !layout.tensor<f8E4M3FN, "l1", "NZ", "(32,64)">,
                   %g: !layout.tensor<f4E2M1FN, "l1", "NZ", "(16,64)">) {
    return
  }
}
