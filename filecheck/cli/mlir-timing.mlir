// --mlir-timing: MLIR's per-pass wall-time report on stderr, one line per pass that ran
// (Rust passes under their class names, like upstream ones); the output is unchanged.
// The times themselves are not checked.
// RUN: layout-opt %s --layout-verify --layout-fold --canonicalize --cse --mlir-timing -o /dev/null 2>&1 | FileCheck %s
// RUN: layout-opt %s --default-pipeline --mlir-timing 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: layout-opt %s --layout-verify 2>&1 | FileCheck %s --check-prefix=OFF

// CHECK: Execution time report
// CHECK: Total Execution Time: {{[0-9.]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  LayoutVerify
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  LayoutFold
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  Canonicalizer
// CHECK-NEXT: {{[0-9.]+}} ({{ *[0-9.]+}}%)  CSE
// CHECK: {{[0-9.]+}} (100.0%)  Total

// DEFAULT: func.func @f
// DEFAULT: Execution time report
// DEFAULT: LayoutLowerToLoops
// DEFAULT: LayoutSimplifyOffsets
// DEFAULT: LoopInvariantCodeMotion
// DEFAULT: (100.0%)  Total

// OFF-NOT: Execution time report
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    return
  }
}
