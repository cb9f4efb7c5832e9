// --layout-prove-addresses: every load and store the loop lowering emits for this kernel (the
// GM tile's load, the NZ tile's store, the zero-fill of its columns 40..48), after the address
// simplification, equals the algebra's crd_to_offset for every M in [0, 2^31), with no i64
// overflow. The hidden --layout-prove-inject-wrong-mask drops the NZ column-in-fractal mask
// (`x mod 16 -> x`) after the simplification: a located counterexample, exit status 1.
// RUN: layout-opt --layout-prove-addresses --layout-prove-host-copies %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not layout-opt --layout-prove-addresses --layout-prove-host-copies --layout-prove-inject-wrong-mask %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRONG
// RUN: layout-opt --layout-prove-addresses --layout-prove-host-copies --layout-prove-size-limit=1024 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SMALL
// RUN: not layout-opt --layout-prove-addresses --layout-prove-size-limit=0 %s 2>&1 | FileCheck %s --check-prefix=ZERO

// CHECK: prove-addresses.mlir:29:7: remark: address proven: load by layout.load of layout.tile
// CHECK: prove-addresses.mlir:29:7: remark: address proven: store by layout.load of layout.tile
// CHECK: prove-addresses.mlir:29:7: remark: address proven: zero-fill store by layout.load of layout.tile
// CHECK: address proofs: 3 accesses: 3 proven, 0 counterexamples, 0 unknown
// WRONG: prove-addresses.mlir:29:7: remark: address proven: load by layout.load of layout.tile
// WRONG: prove-addresses.mlir:29:7: error: address counterexample: store by layout.load of layout.tile {{.*}} lowered = {{[0-9]+}}, algebra = {{[0-9]+}}
// WRONG: address proofs: 3 accesses: {{[0-9]}} proven, {{[1-9]}} counterexamples
// SMALL: address proofs: 3 accesses: 3 proven
// ZERO: error: invalid value '0' for '--layout-prove-size-limit <N>'
module attributes {layout.target = #layout.target<"a2">} {
  func.func @copy(%s: memref<?xf16>, %d: memref<4608xf16>, %m: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %g = "layout.view"(%s, %m) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(?,40)">
    %b = "layout.view"(%d) : (memref<4608xf16>) -> !layout.tensor<f16, "ub", "NZ", "(96,40)">
    scf.for %t = %c0 to %m step %c32 {
      %tg = "layout.tile"(%g, %t, %c0) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "gm", "ND", "(?,40)">, index, index) -> !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
      %tb = "layout.tile"(%b, %t, %c0) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "ub", "NZ", "(96,40)">, index, index) -> !layout.tensor<f16, "ub", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
      "layout.load"(%tg, %tb) : (!layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">, !layout.tensor<f16, "ub", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">) -> ()
    }
    return
  }
}
