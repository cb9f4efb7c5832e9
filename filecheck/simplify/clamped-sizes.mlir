// Dynamic sizes are clamped where layout-lower-to-loops binds them (module doc of
// passes/src/lower_to_loops, "Sizes are non-negative"): every origin/shape leaf bound by an
// SSA value is used as `arith.maxsi(%v, %c0)`, emitted once at the function entry; stride
// leaves are used as they are. The fact `>= 0` lets layout-simplify-offsets read the divisions
// of the ND -> NZ zero-fill loop as floor operations; a negative size (out of contract) gives
// empty loops.
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-fold,layout-lower-to-loops{host-copies=true})' | FileCheck %s --check-prefix=LOWER
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-fold,layout-lower-to-loops{host-copies=true},canonicalize,layout-simplify-offsets,canonicalize,cse,loop-invariant-code-motion)' | FileCheck %s --check-prefix=SIMPLE
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-fold,layout-lower-to-loops{host-copies=true},canonicalize,layout-simplify-offsets,canonicalize,cse,loop-invariant-code-motion)' | mlir-opt --allow-unregistered-dialect --inline --canonicalize | FileCheck %s --check-prefix=NEG

// LOWER-LABEL: func.func @k(
// LOWER-SAME: %[[R:[a-z0-9]+]]: index, %[[C:[a-z0-9]+]]: index)
// LOWER: %[[NC:.*]] = arith.maxsi %[[C]], %{{.*}} : index
// LOWER: %[[NR:.*]] = arith.maxsi %[[R]], %{{.*}} : index
// LOWER: scf.for %{{.*}} = %{{.*}} to %[[NR]] step
// LOWER: scf.for %{{.*}} = %{{.*}} to %[[NC]] step
// LOWER: return
// The stride leaf %S is not a size: not clamped.
// LOWER-LABEL: func.func @strided(
// LOWER-SAME: %[[R2:[a-z0-9]+]]: index, %[[C2:[a-z0-9]+]]: index, %[[S:[a-z0-9]+]]: index)
// LOWER-NOT: arith.maxsi %[[S]]
// LOWER: arith.maxsi %[[C2]]
// LOWER-NOT: arith.maxsi %[[S]]
// LOWER: arith.maxsi %[[R2]]
// LOWER-NOT: arith.maxsi %[[S]]
// LOWER: arith.muli %{{.*}}, %[[S]] : index
// LOWER: return

// Both innermost loops of the dynamic ND -> NZ copy (copy and zero-fill) are free of div/rem.
// SIMPLE-LABEL: func.func @k(
// SIMPLE: %[[NC:.*]] = arith.maxsi %arg3, %c0 : index
// SIMPLE: scf.for %[[J:.*]] = %c0 to %[[NC]] step %c1 {
// SIMPLE-NOT: arith.divsi
// SIMPLE-NOT: arith.remsi
// SIMPLE: memref.store
// SIMPLE: scf.for %[[F:.*]] = %[[NC]] to %{{.*}} step %c1 {
// SIMPLE-NOT: arith.divsi
// SIMPLE-NOT: arith.remsi
// SIMPLE: arith.shrui %[[F]], %c4 : index
// SIMPLE-NOT: arith.divsi
// SIMPLE-NOT: arith.remsi
// SIMPLE: arith.andi %[[F]], %c15 : index
// SIMPLE-NOT: arith.divsi
// SIMPLE-NOT: arith.remsi
// SIMPLE: memref.store
// SIMPLE-NOT: arith.divsi
// SIMPLE-NOT: arith.remsi
// SIMPLE: return

// C = -5 (out of contract) inlined: the view's negative-size check (passes/src/lower_to_loops/
// guard.rs) calls the runtime hook unconditionally, and the clamp folds to 0, so every loop is
// empty (canonicalize erases them). Without the clamp, the zero-fill loop would run over
// [-5, 0) and store at negative offsets.
// NEG-LABEL: func.func @negative(
// NEG-NOT: scf.for
// NEG: call @__layout_guard_failed(%{{.*}}, %{{.*}}, %c-5, %c0)
// NEG-NOT: scf.for
// NEG: return
// The view of L1 observes the destination: host-copies=true (see lowered-copy.mlir).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @k(%s: memref<?xf16>, %d: memref<?xf16>, %R: index, %C: index) {
    %g = "layout.view"(%s, %R, %C) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "gm", "ND", "(?,?)">
    %b = "layout.view"(%d, %R, %C) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "l1", "NZ", "(?,?)">
    "layout.load"(%g, %b) : (!layout.tensor<f16, "gm", "ND", "(?,?)">, !layout.tensor<f16, "l1", "NZ", "(?,?)">) -> ()
    return
  }
  func.func @strided(%s: memref<?xf16>, %d: memref<?xf16>, %R: index, %C: index, %S: index) {
    %g = "layout.view"(%s, %R, %C, %R, %C, %S) : (memref<?xf16>, index, index, index, index, index) -> !layout.tensor<f16, "gm", "(?,?):(?,1)", "(?,?)">
    %b = "layout.view"(%d, %R, %C) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "gm", "ND", "(?,?)">
    "layout.store"(%g, %b) : (!layout.tensor<f16, "gm", "(?,?):(?,1)", "(?,?)">, !layout.tensor<f16, "gm", "ND", "(?,?)">) -> ()
    return
  }
  func.func @negative(%s: memref<?xf16>, %d: memref<?xf16>) {
    %r = arith.constant 4 : index
    %c = arith.constant -5 : index
    call @k(%s, %d, %r, %c) : (memref<?xf16>, memref<?xf16>, index, index) -> ()
    return
  }
}
