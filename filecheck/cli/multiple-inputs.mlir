// Several input files: each processed on its own (as --split-input-file's chunks are), the
// outputs joined in command-line order, diagnostics naming their file; a pass flag takes
// mlir-opt-style options (`--PASS=OPTIONS` is `PASS{OPTIONS}`).
// RUN: layout-opt %s %S/../ops/alloc.mlir %s --layout-fold | FileCheck %s
// RUN: not layout-opt %s %S/Inputs/second.mlir --layout-verify 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: layout-opt %S/../../examples/tiled_gemm.mlir %s --layout-verify --layout-fold --layout-lower-to-loops --canonicalize --layout-simplify-offsets=prove=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROVE
// RUN: not layout-opt %s --layout-simplify-offsets=prove=maybe 2>&1 | FileCheck %s --check-prefix=VALUE

// CHECK: func.func @first
// CHECK: // -----
// CHECK: module
// CHECK: // -----
// CHECK: func.func @first
// ERR: second.mlir:3:{{[0-9]+}}: error:
// ERR-NOT: multiple-inputs.mlir:{{.*}}error
// PROVE: layout-simplify-offsets: proofs: {{[0-9]+}} rewrites: {{[0-9]+}} proven
// VALUE: error: layout-simplify-offsets: prove must be true, fast, full or false, got 'maybe'
module attributes {layout.target = #layout.target<"a2">} {
  func.func @first() {
    return
  }
}
