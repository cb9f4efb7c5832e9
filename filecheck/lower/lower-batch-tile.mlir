// layout-lower-to-loops: a tile of a batch form (batch extent 1) is copied as its matrix at
// the batch offset (layout_algebra::ascend::batch_matrix, docs/dialect.md layout.tile): GM ND
// (3,40,70) f16, matrix %b, rows 0..40 (of 48), cols 64..70 -> L1 NZ (48,16). The batch offset
// is b * 2800 (= 40 * 70); the copied extents are guarded by the batch origin
// min(1, max(3 - b, 0)), so b = 3 copies nothing and b outside [0, 3] is a located error.
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-verify,layout-lower-to-loops,canonicalize,cse)' | FileCheck %s
// CHECK-LABEL: func.func @batch_load
// CHECK-DAG: %[[C2800:.*]] = arith.constant 2800 : index
// CHECK-DAG: %[[C70:.*]] = arith.constant 70 : index
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : index
// CHECK-DAG: %[[C40:.*]] = arith.constant 40 : index
// CHECK-DAG: %[[C6:.*]] = arith.constant 6 : index
// CHECK-DAG: %[[C3:.*]] = arith.constant 3 : index
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : memref<3x40x70xf16> into memref<8400xf16>
// The batch coordinate is checked against [0, 3] before any access.
// CHECK: %[[LO:.*]] = arith.cmpi slt, %arg2, %c0
// CHECK-NEXT: %[[HI:.*]] = arith.cmpi sgt, %arg2, %[[C3]]
// CHECK: func.call @__layout_guard_failed
// CHECK: scf.if
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[C3]], %arg2
// CHECK-NEXT: %[[P:.*]] = arith.maxsi %[[D]], %c0
// CHECK-NEXT: %[[OB:.*]] = arith.minsi %[[P]], %c1
// CHECK-NEXT: %[[R:.*]] = arith.muli %[[OB]], %[[C40]]
// CHECK-NEXT: %[[ROWS:.*]] = arith.minsi %[[R]], %c48
// CHECK-NEXT: %[[C:.*]] = arith.muli %[[OB]], %[[C6]]
// CHECK-NEXT: %[[COLS:.*]] = arith.minsi %[[C]], %c16
// CHECK-NEXT: scf.for %[[I:.*]] = %c0 to %[[ROWS]]
// CHECK-NEXT: scf.for %[[J:.*]] = %c0 to %[[COLS]]
// CHECK-NEXT: %[[BASE:.*]] = arith.muli %arg2, %[[C2800]]
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[I]], %[[C70]]
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[J]], %[[C64]]
// CHECK-NEXT: %[[IN:.*]] = arith.addi %[[ROW]], %[[COL]]
// CHECK-NEXT: %[[SRC:.*]] = arith.addi %[[BASE]], %[[IN]]
// CHECK: memref.load %[[FLAT]][%[[SRC]]] : memref<8400xf16>
module attributes {layout.target = #layout.target<"a2">} {
  func.func @batch_load(%m: memref<3x40x70xf16>, %o: memref<768xf16>, %b: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %g = "layout.view"(%m) : (memref<3x40x70xf16>) -> !layout.tensor<f16, "gm", "ND", "(3,40,70)">
    %out = "layout.view"(%o) : (memref<768xf16>) -> !layout.tensor<f16, "gm", "NZ", "(48,16)">
    %l1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(48,16)">
    %t = "layout.tile"(%g, %b, %c0, %c64) {shape = array<i64: 1, 48, 16>} : (!layout.tensor<f16, "gm", "ND", "(3,40,70)">, index, index, index) -> !layout.tensor<f16, "gm", "(1,(48,16)):(2800,(70,1))", "(?,(40,6))">
    %w = "layout.load"(%t, %l1) : (!layout.tensor<f16, "gm", "(1,(48,16)):(2800,(70,1))", "(?,(40,6))">, !layout.tensor<f16, "l1", "NZ", "(48,16)">) -> !layout.tensor<f16, "l1", "((16,3),(16,1)):((16,256),(1,768))", "(?,?)">
    "layout.store"(%w, %out) : (!layout.tensor<f16, "l1", "((16,3),(16,1)):((16,256),(1,768))", "(?,?)">, !layout.tensor<f16, "gm", "NZ", "(48,16)">) -> ()
    return
  }
}
