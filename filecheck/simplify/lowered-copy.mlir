// The default pipeline on a real lowering (layout-lower-to-loops, then layout-simplify-offsets):
// GM ND 100x100 -> NZ. The lowering writes the 8 floor ops on loop variables as shifts and masks
// (the loops prove them non-negative: `passes/src/index_arith.rs`), and no division at all;
// the pass then removes the row part's shift and mask (i * 16, hoisted) and the column part's
// mask (rule R3).
// The default pipeline minus layout-verify, which rejects the on-chip view used for observing a
// buffer (an alloc'ed buffer that is only written would be deleted as dead); the lowering accepts
// it with host-copies=true and checks every other verifier rule.
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-fold,layout-lower-to-loops{host-copies=true},canonicalize,layout-simplify-offsets,canonicalize,cse,loop-invariant-code-motion)' | FileCheck %s
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-fold,layout-lower-to-loops{host-copies=true},canonicalize,cse,loop-invariant-code-motion)' | FileCheck %s --check-prefix=NOPASS

// NOPASS-NOT: arith.divsi
// NOPASS-NOT: arith.remsi
// NOPASS: arith.andi %{{.*}}, %c15
// NOPASS: arith.shrui %{{.*}}, %c4
// NOPASS-NOT: arith.divsi
// NOPASS-NOT: arith.remsi

// CHECK-LABEL: func.func @k
// CHECK-NOT: arith.divsi
// CHECK-NOT: arith.remsi
// The row part i mod 16 * 16 + i floordiv 16 * 256 is i * 16, hoisted out of the j loop.
// CHECK: scf.for %[[I:.*]] = %c0 to %c100 step %c1 {
// CHECK-NEXT: %[[ND:.*]] = arith.muli %[[I]], %c100 : index
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[I]], %c16 : index
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %c100 step %c1 {
// CHECK-NEXT: %[[SRC:.*]] = arith.addi %[[ND]], %[[J]] : index
// j mod 16 + (j floordiv 16)·1792 with j >= 0 is j + (j floordiv 16)·(1792 − 16) (rule R3):
// one shift, no mask.
// CHECK-NEXT: %[[A:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK-NEXT: %[[Q:.*]] = arith.shrui %[[J]], %c4 : index
// CHECK-NEXT: %[[QS:.*]] = arith.muli %[[Q]], %c1776 : index
// CHECK-NEXT: %[[DST:.*]] = arith.addi %[[A]], %[[QS]] : index
// CHECK-NEXT: %[[V:.*]] = memref.load %arg0[%[[SRC]]]
// CHECK-NEXT: memref.store %[[V]], %arg1[%[[DST]]]
// Padding columns j in [100, 112): j floordiv 16 = 6 and j mod 16 = j - 96 fold into a constant.
// CHECK: scf.for %{{.*}} = %c100 to %c112 step %c1 {
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.addi %{{.*}}, %c10656 : index
// CHECK-NEXT: memref.store
module attributes {layout.target = #layout.target<"a2">} {
  func.func @k(%m: memref<10000xf16>, %o: memref<12544xf16>) {
    %g = "layout.view"(%m) : (memref<10000xf16>) -> !layout.tensor<f16, "gm", "ND", "(100,100)">
    %b = "layout.view"(%o) : (memref<12544xf16>) -> !layout.tensor<f16, "ub", "NZ", "(100,100)">
    "layout.load"(%g, %b) : (!layout.tensor<f16, "gm", "ND", "(100,100)">, !layout.tensor<f16, "ub", "NZ", "(100,100)">) -> ()
    return
  }
}
