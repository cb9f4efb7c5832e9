// The proof mode of layout-simplify-offsets (docs/index-simplification.md §13): every rewrite of
// the lowered tiled GEMM is checked by z3 before it is applied; none has a counterexample or
// times out. The summary line goes to stderr; the IR is the same as without the option.
// RUN: layout-opt %S/../../examples/tiled_gemm.mlir --pass-pipeline='builtin.module(layout-verify,layout-fold,layout-lower-to-loops,canonicalize,layout-simplify-offsets{prove=true},canonicalize,cse,loop-invariant-code-motion)' -o /dev/null 2>&1 | FileCheck %s
// RUN: layout-opt %S/simplify-offsets.mlir --split-input-file --pass-pipeline='builtin.module(layout-simplify-offsets{prove=full})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=FULL
// RUN: not layout-opt %s --pass-pipeline='builtin.module(layout-simplify-offsets{prove=maybe})' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not layout-opt %s --pass-pipeline='builtin.module(layout-simplify-offsets{proof=true})' 2>&1 | FileCheck %s --check-prefix=OPTION

// CHECK: layout-simplify-offsets: proofs: 34 rewrites: 34 proven (0 exact also with wrapping), 0 counterexamples, 0 unknown;
// FULL: layout-simplify-offsets: proofs: {{[1-9][0-9]*}} rewrites: {{[1-9][0-9]*}} proven ({{[0-9]+}} exact also with wrapping), 0 counterexamples, 0 unknown;
// FULL-NOT: counterexamples, [1-9]
// VALUE: error: layout-simplify-offsets: prove must be true, fast, full or false, got 'maybe'
// OPTION: error: layout-simplify-offsets: unknown option 'proof' (known: prove=true|fast|full|false)

func.func @f(%a: index) -> index {
  return %a : index
}
