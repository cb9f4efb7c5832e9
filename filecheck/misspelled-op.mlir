// A misspelled op name is an error: the dialect is registered (IRDL), never "unregistered".
// RUN: not layout-opt %s 2>&1 | FileCheck %s
// RUN: not layout-opt %s --allow-unregistered-dialect 2>&1 | FileCheck %s --check-prefix=ALLOW

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // CHECK: misspelled-op.mlir:[[@LINE+3]]:5: error: unregistered operation 'layout.lod' found in dialect ('layout') that does not allow unknown operations
    // CHECK-NEXT: {{^}}    "layout.lod"(%a, %a)
    // CHECK-NEXT: {{^}}    ^
    "layout.lod"(%a, %a) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    return
  }
}

// ALLOW: layout-opt: error: '--allow-unregistered-dialect' is not supported
// STOCK: error: unregistered operation 'layout.lod' found in dialect
