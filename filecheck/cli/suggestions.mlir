// "Did you mean": misspelled flags (one or two dashes), pass flags with options, pass names in
// a pipeline (upstream and Rust passes), op names in generic and custom form.
// RUN: not layout-opt %s --layout-verfy 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not layout-opt %s -layout-verfy 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not layout-opt %s --split-inpt-file 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not layout-opt %s --zzzz 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: not layout-opt %s --pass-pipeline='builtin.module(layout-verify,canonicalise)' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: not layout-opt %s --emit=ascendcc 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not layout-opt %S/../misspelled-op.mlir 2>&1 | FileCheck %s --check-prefix=OP
// RUN: not layout-opt %S/Inputs/misspelled-custom-op.mlir 2>&1 | FileCheck %s --check-prefix=CUSTOM
// RUN: not layout-opt %s --layout-simplify-ofsets=prove=true 2>&1 | FileCheck %s --check-prefix=PASSOPTION
// RUN: not layout-opt %s --pass-pipeline='builtin.module(layout-verfy)' 2>&1 | FileCheck %s --check-prefix=RUSTPASS

// FLAG: layout-opt: error: unknown option '--layout-verfy'; did you mean '--layout-verify'?
// OPTION: layout-opt: error: unknown option '--split-inpt-file'; did you mean '--split-input-file'?
// NONE: layout-opt: error: unknown option '--zzzz' (see --help)
// PIPELINE: layout-opt: error: in pass pipeline: 'canonicalise' does not refer to a registered pass or pass pipeline; did you mean 'canonicalize'?
// EMIT: layout-opt: error: invalid value 'ascendcc' for '--emit=<KIND>' [possible values: mlir, llvm, ascendc, ascendc-llvm]; did you mean 'ascendc'?
// OP: misspelled-op.mlir:11:5: error: unregistered operation 'layout.lod'
// OP: misspelled-op.mlir:11:5: note: did you mean 'layout.load'?
// CUSTOM: misspelled-custom-op.mlir:3:3: error: custom op 'ascendc.pipe_barier' is unknown
// CUSTOM: misspelled-custom-op.mlir:3:3: note: did you mean 'ascendc.pipe_barrier'?
// PASSOPTION: layout-opt: error: unknown option '--layout-simplify-ofsets'; did you mean '--layout-simplify-offsets'?
// RUSTPASS: layout-opt: error: in pass pipeline: 'layout-verfy' does not refer to a registered pass or pass pipeline; did you mean 'layout-verify'? (see --help for the passes layout-opt knows)
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    return
  }
}
