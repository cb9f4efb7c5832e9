// An error in the layout lowering is reported once, at its op, with the source line: no
// unlocated summary ("lowering the layout ops failed") before it, and no follow-up error for
// the ops that use the failed op's result ("operand #1 is a !layout.tensor that is not a
// result of layout.view/alloc/tile").
// RUN: not layout-opt --emit=llvm %s 2>&1 | FileCheck %s --implicit-check-not=error:
// RUN: not layout-opt --emit=llvm - < %s 2>&1 | FileCheck %s --check-prefix=STDIN --implicit-check-not=error:
// RUN: not layout-opt --layout-lower-to-loops %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%A: memref<?xf16>) {
    %c0 = arith.constant 0 : index
    %g = "layout.view"(%A) : (memref<?xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    // CHECK: emit-llvm-errors.mlir:[[@LINE+4]]:10: error: cosize of (16,16):(4611686018427387904,1): integer overflow in mul: 15 * 4611686018427387904
    // CHECK-NEXT: {{^}}    %l = "layout.alloc"()
    // CHECK-NEXT: {{^}}         ^
    // STDIN: <stdin>:[[@LINE+1]]:10: error: cosize of (16,16):(4611686018427387904,1): integer overflow
    %l = "layout.alloc"() : () -> !layout.tensor<f16, "ub", "(16,16):(4611686018427387904,1)", "(16,16)">
    %t = "layout.tile"(%l, %c0, %c0) {shape = array<i64: 16, 16>} : (!layout.tensor<f16, "ub", "(16,16):(4611686018427387904,1)", "(16,16)">, index, index) -> !layout.tensor<f16, "ub", "(16,16):(4611686018427387904,1)", "(16,16)">
    "layout.load"(%g, %t) : (!layout.tensor<f16, "gm", "ND", "(16,16)">, !layout.tensor<f16, "ub", "(16,16):(4611686018427387904,1)", "(16,16)">) -> ()
    return
  }
}
