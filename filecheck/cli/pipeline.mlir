// Rust and upstream passes mixed in one pipeline, nested anchors, per-pass flags, and
// --mlir-print-ir-after-all.
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-verify,canonicalize,func.func(cse),layout-verify)' | FileCheck %s
// RUN: layout-opt %s --layout-verify --canonicalize --cse --layout-verify | FileCheck %s
// RUN: layout-opt %s --pass-pipeline='builtin.module(func.func(cse,layout-verify),canonicalize{max-iterations=2})' | FileCheck %s
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-verify,canonicalize,func.func(cse))' --mlir-print-ir-after-all 2>&1 >/dev/null | FileCheck %s --check-prefix=IR
// RUN: not layout-opt %s --pass-pipeline='builtin.module(layout-verify,canonicalise)' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not layout-opt %s --pass-pipeline='builtin.module(cse' 2>&1 | FileCheck %s --check-prefix=SYNTAX
// RUN: not layout-opt %s --pass-pipeline='func.func(cse)' 2>&1 | FileCheck %s --check-prefix=ANCHOR
// RUN: not layout-opt %s --cse --pass-pipeline='builtin.module(cse)' 2>&1 | FileCheck %s --check-prefix=BOTH
// RUN: not layout-opt %s --pass-pipeline='builtin.module(layout-lower-to-loops{host-copy=true})' 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not layout-opt %s --pass-pipeline='builtin.module(layout-lower-to-loops{host-copies=yes})' 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not layout-opt %s --pass-pipeline='builtin.module(layout-verify{host-copies=true})' 2>&1 | FileCheck %s --check-prefix=NOOPT
// OPTION: error: layout-lower-to-loops: unknown option 'host-copy' (known: host-copies=true|false, sanitize=true|false)
// VALUE: error: layout-lower-to-loops: host-copies must be true or false, got 'yes'
// NOOPT: error: pass 'layout-verify' takes no options

// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[C:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[O:.*]] = "layout.offset"(%{{.*}}, %[[C]], %[[C]])
// CHECK-NEXT: return %[[O]], %[[C]]
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%t: !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> (index, index) {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %a = arith.addi %c2, %c3 : index
    %b = arith.addi %c2, %c3 : index
    %o = "layout.offset"(%t, %a, %b) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, index, index) -> index
    return %o, %b : index, index
  }
}

// IR: IR Dump After LayoutVerify (layout-verify)
// IR: IR Dump After Canonicalizer (canonicalize)
// IR: IR Dump After CSE (cse)
// IR-NEXT: func.func @f

// UNKNOWN: layout-opt: error: in pass pipeline: 'canonicalise' does not refer to a registered pass or pass pipeline
// SYNTAX: layout-opt: error: invalid pass pipeline at column 19: expected ')'
// ANCHOR: layout-opt: error: the pass pipeline must be anchored on the top-level op: 'builtin.module(...)'
// BOTH: layout-opt: error: '--pass-pipeline' cannot be combined with pass flags
