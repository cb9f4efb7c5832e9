// With --split-input-file, diagnostics keep the line numbers of the whole file, and chunks
// that succeed are still printed.
// RUN: not layout-opt %s --split-input-file --layout-verify 2>&1 >%t | FileCheck %s
// RUN: FileCheck %s --check-prefix=OUT --input-file=%t

module attributes {layout.target = #layout.target<"a2">} {
  %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  // CHECK: split-locations.mlir:[[@LINE+3]]:8: error: unknown memory space "L0A"
  // CHECK-NEXT: {{^}}  %0 = "layout.alloc"
  // CHECK-NEXT: {{^}}       ^
  %0 = "layout.alloc"() : () -> !layout.tensor<f16, "L0A", "ZZ", "(16,16)">
}

// -----

// CHECK: split-locations.mlir:[[@LINE+1]]:{{[0-9]+}}: error: expected attribute value
%0 = "layout.alloc"() : () -> !layout.tensor<f16, l1, "NZ", "(16,16)">

// OUT: "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
// OUT-NOT: L0A
