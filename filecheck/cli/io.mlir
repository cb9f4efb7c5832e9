// Driver behaviour: -o (atomic; nothing written on error), stdin, empty/garbage/missing input,
// locations with the source line and a caret, --help.
// RUN: rm -rf %t && mkdir -p %t
// RUN: layout-opt %s -o %t/out.mlir && FileCheck %s --input-file=%t/out.mlir
// RUN: layout-opt - < %s | FileCheck %s
// RUN: cat %s | layout-opt | FileCheck %s
// RUN: not layout-opt %S/../verify/verify-errors.mlir --split-input-file --layout-verify -o %t/bad.mlir 2>/dev/null
// RUN: not test -e %t/bad.mlir
// RUN: cp %s %t/keep.mlir && not layout-opt %S/../misspelled-op.mlir -o %t/keep.mlir 2>/dev/null && cmp %s %t/keep.mlir
// RUN: printf '' | layout-opt | FileCheck %s --check-prefix=EMPTY
// RUN: printf '}}} "unterminated\n' | not layout-opt 2>&1 | FileCheck %s --check-prefix=GARBAGE
// RUN: not layout-opt %t/does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not layout-opt %t 2>&1 | FileCheck %s --check-prefix=DIR
// RUN: not layout-opt --no-such-flag %s 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: layout-opt --help | FileCheck %s --check-prefix=HELP
// RUN: layout-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK: module attributes {layout.target = #layout.target<"a2">}
// CHECK: "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
// GENERIC: "builtin.module"() ({
// GENERIC: "func.func"() <{function_type = () -> (), sym_name = "f"}>
// GENERIC: "func.return"() : () -> ()
// GENERIC: }) {layout.target = #layout.target<"a2">} : () -> ()
// EMPTY: module {
// EMPTY-NEXT: }
// GARBAGE: <stdin>:1:1: error: {{.*}}
// GARBAGE-NEXT: }}} "unterminated
// GARBAGE-NEXT: ^
// MISSING: layout-opt: error: cannot open input file '{{.*}}does-not-exist.mlir': No such file or directory
// DIR: layout-opt: error: cannot open input file
// FLAG: layout-opt: error: unknown option '--no-such-flag'
// HELP: USAGE: layout-opt
// HELP: --split-input-file
// HELP: --verify-diagnostics
// HELP: --layout-verify Check layout-dialect semantics
// HELP: --canonicalize Canonicalize operations
// HELP: --cse
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    return
  }
}
