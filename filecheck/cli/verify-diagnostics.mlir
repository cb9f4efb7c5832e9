// --verify-diagnostics itself: a missing expected diagnostic and an unexpected one both fail,
// with located messages; @below skips other designator lines.
// RUN: not layout-opt %s --split-input-file --verify-diagnostics --layout-verify 2>&1 | FileCheck %s

module attributes {layout.target = #layout.target<"a2">} {
  // CHECK: verify-diagnostics.mlir:[[@LINE+1]]:6: error: expected error "this is never emitted" was not produced
  // expected-error@+1 {{this is never emitted}}
  %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  // CHECK: verify-diagnostics.mlir:[[@LINE+1]]:8: error: unexpected error: unknown memory space "L1"
  %0 = "layout.alloc"() : () -> !layout.tensor<f16, "L1", "NZ", "(16,16)">
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  // expected-error@below {{unknown memory space "L1"}}
  // CHECK: verify-diagnostics.mlir:[[@LINE+2]]:6: error: expected note "never" was not produced
  // CHECK-NOT: error
  // expected-note@unknown {{never}}
  %0 = "layout.alloc"() : () -> !layout.tensor<f16, "L1", "NZ", "(16,16)">
}
