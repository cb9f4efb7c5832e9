// Run-time contract checks of layout-lower-to-loops (passes/src/lower_to_loops/guard.rs): a
// dynamic view checks its sizes and its extent against the memref once, at the view; a failed
// check calls the runtime hook with a located message and the rest of the function is skipped.
// A tile at an argument coordinate checks 0 <= m0 <= M; a tile at the variable of an scf.for
// whose bounds prove that (m0 = 0 to M) gets no check, so the loop body has none.
// The L1 views observe the destination (host-copies=true, as in simplify/lowered-copy.mlir).
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-lower-to-loops{host-copies=true},canonicalize)' | FileCheck %s

// CHECK-LABEL: func.func private @__layout_guard_failed(index, index, index, index)
// CHECK-LABEL: func.func @at_argument(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?x256xf16>, %{{.*}}: memref<8192xf16>, %[[M:[a-z0-9]+]]: index, %[[M0:[a-z0-9]+]]: index)
// The size M >= 0, M within the bound where the extent fits in i64, the extent M*256 <= dim
// (the static L1 view is checked at compile time: nothing at run time).
// CHECK: %[[DIM:.*]] = memref.dim
// CHECK: arith.cmpi slt, %[[M]], %c0
// CHECK: func.call @__layout_guard_failed(
// CHECK: arith.cmpi sgt, %{{.*}}, %c36028797018963967
// CHECK: func.call @__layout_guard_failed(
// CHECK: arith.cmpi sgt, %{{.*}}, %[[DIM]]
// CHECK: func.call @__layout_guard_failed(
// The rest of the function runs only if the view is valid.
// CHECK: scf.if
// The tile coordinate: m0 < 0 or m0 > M.
// CHECK: arith.cmpi slt, %[[M0]], %c0
// CHECK: arith.cmpi sgt, %[[M0]],
// CHECK: func.call @__layout_guard_failed(
// The copy runs under the tile's flag.
// CHECK: scf.if
// CHECK: scf.for
// CHECK-NOT: func.call
// CHECK: memref.load
// CHECK: return

// CHECK-LABEL: func.func @in_loop(
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c32
// CHECK-NOT: func.call
// CHECK-NOT: scf.if
// CHECK: memref.load
// CHECK: return

!gmA = !layout.tensor<f16, "gm", "ND", "(?,256)">
!gmT = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(32,256)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @at_argument(%A: memref<?x256xf16>, %D: memref<8192xf16>, %M: index, %m0: index) {
    %c0 = arith.constant 0 : index
    %ga = "layout.view"(%A, %M) : (memref<?x256xf16>, index) -> !gmA
    %a1 = "layout.view"(%D) : (memref<8192xf16>) -> !l1A
    %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 32, 256>} : (!gmA, index, index) -> !gmT
    "layout.load"(%ta, %a1) : (!gmT, !l1A) -> ()
    return
  }
  func.func @in_loop(%A: memref<?x256xf16>, %D: memref<8192xf16>, %M: index) {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %ga = "layout.view"(%A, %M) : (memref<?x256xf16>, index) -> !gmA
    %a1 = "layout.view"(%D) : (memref<8192xf16>) -> !l1A
    scf.for %m0 = %c0 to %M step %c32 {
      %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 32, 256>} : (!gmA, index, index) -> !gmT
      "layout.load"(%ta, %a1) : (!gmT, !l1A) -> ()
    }
    return
  }
}
