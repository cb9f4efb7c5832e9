// layout-lower-to-loops: the loop structure and the constants the layout algebra folds.
// RUN: layout-opt %s --split-input-file --pass-pipeline='builtin.module(layout-verify,layout-lower-to-loops,canonicalize,cse)' | FileCheck %s
// RUN: layout-opt %s --split-input-file --layout-verify --layout-lower-to-loops | FileCheck %s --check-prefix=RAW

// GM ND (32,40) f16 -> L1 NZ (C0 = 16) -> GM NZ. NZ offset of (i,j):
// i mod 16 * 16 + i floordiv 16 * 256 + j mod 16 + j floordiv 16 * 512 (512 = align(32,16)*16);
// ND offset i * 40 + j. The L1 buffer is cosize = 32 * 48 = 1536 elements, poisoned first;
// ND2NZ zero-fills columns 40..47 of every valid row. The loops prove i, j ≥ 0, so the index
// emitter writes `floordiv 16` / `mod 16` as `shrui 4` / `andi 15` (exact for non-negative values).
// CHECK-LABEL: func.func @nd2nz
// CHECK-DAG: %[[C40:.*]] = arith.constant 40 : index
// CHECK-DAG: %[[C48:.*]] = arith.constant 48 : index
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C15:.*]] = arith.constant 15 : index
// CHECK-DAG: %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG: %[[C256:.*]] = arith.constant 256 : index
// CHECK-DAG: %[[C512:.*]] = arith.constant 512 : index
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-DAG: %[[POISON:.*]] = arith.constant 0x7E00 : f16
// CHECK: %[[L1:.*]] = memref.alloca() : memref<1536xf16>
// CHECK: scf.for %[[P:.*]] = %{{.*}} to %c1536
// CHECK-NEXT: memref.store %[[POISON]], %[[L1]][%[[P]]]
// The copy: rows 0..32, cols 0..40.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c32
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %[[C40]]
// CHECK-NEXT: %[[R:.*]] = arith.muli %[[I]], %[[C40]]
// CHECK-NEXT: %[[SRC:.*]] = arith.addi %[[R]], %[[J]]
// CHECK-NEXT: %[[IM:.*]] = arith.andi %[[I]], %[[C15]]
// CHECK-NEXT: %[[IMS:.*]] = arith.muli %[[IM]], %[[C16]]
// CHECK-NEXT: %[[ID:.*]] = arith.shrui %[[I]], %[[C4]]
// CHECK-NEXT: %[[IDS:.*]] = arith.muli %[[ID]], %[[C256]]
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[IMS]], %[[IDS]]
// CHECK-NEXT: %[[JM:.*]] = arith.andi %[[J]], %[[C15]]
// CHECK-NEXT: %[[JD:.*]] = arith.shrui %[[J]], %[[C4]]
// CHECK-NEXT: %[[JDS:.*]] = arith.muli %[[JD]], %[[C512]]
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[JM]], %[[JDS]]
// CHECK-NEXT: %[[DST:.*]] = arith.addi %[[ROW]], %[[COL]]
// CHECK-NEXT: %[[V:.*]] = memref.load %arg0[%[[SRC]]] : memref<1280xf16>
// CHECK-NEXT: memref.store %[[V]], %[[L1]][%[[DST]]] : memref<1536xf16>
// The zero-fill: rows 0..32, cols 40..48.
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32
// CHECK-NEXT: scf.for %{{.*}} = %[[C40]] to %[[C48]]
// CHECK: memref.store %[[ZERO]], %[[L1]]
// The store to GM NZ: same offsets on both sides.
// CHECK: %[[W:.*]] = memref.load %[[L1]][%[[OFF:.*]]] : memref<1536xf16>
// CHECK-NEXT: memref.store %[[W]], %arg1[%[[OFF]]] : memref<1536xf16>
// CHECK-NOT: "layout.
// RAW-LABEL: func.func @nd2nz
// RAW-NOT: "layout.
!gm = !layout.tensor<f16, "gm", "ND", "(32,40)">
!l1 = !layout.tensor<f16, "l1", "NZ", "(32,40)">
!out = !layout.tensor<f16, "gm", "NZ", "(32,40)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @nd2nz(%m: memref<1280xf16>, %o: memref<1536xf16>) {
    %g = "layout.view"(%m) : (memref<1280xf16>) -> !gm
    %b = "layout.alloc"() : () -> !l1
    "layout.load"(%g, %b) : (!gm, !l1) -> ()
    %r = "layout.view"(%o) : (memref<1536xf16>) -> !out
    "layout.store"(%b, %r) : (!l1, !out) -> ()
    return
  }
}

// -----

// layout.offset with a dynamic row: ZZ f16 (32,48) on l0a: i mod 16 * 16 + i floordiv 16 * 768
// (768 = 16 * align(48,16)) + a constant column part for j = 17: 1 + 256 = 257. Nothing proves
// the argument non-negative, so the floor operations are written as such: `floordivsi`, and
// `i mod 16 = i - floordivsi(i, 16) * 16` (a truncating `remsi` would differ at i < 0).
// CHECK-LABEL: func.func @offset
// CHECK-DAG: %[[C16:.*]] = arith.constant 16 : index
// CHECK-DAG: %[[C768:.*]] = arith.constant 768 : index
// CHECK-DAG: %[[C257:.*]] = arith.constant 257 : index
// CHECK: %[[D:.*]] = arith.floordivsi %arg0, %[[C16]]
// CHECK-NEXT: %[[DM:.*]] = arith.muli %[[D]], %[[C16]]
// CHECK-NEXT: %[[M:.*]] = arith.subi %arg0, %[[DM]]
// CHECK-NEXT: %[[MS:.*]] = arith.muli %[[M]], %[[C16]]
// CHECK-NEXT: %[[DS:.*]] = arith.muli %[[D]], %[[C768]]
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[MS]], %[[DS]]
// CHECK-NEXT: %[[OFF:.*]] = arith.addi %[[ROW]], %[[C257]]
// CHECK-NEXT: return %[[OFF]] : index
module attributes {layout.target = #layout.target<"a2">} {
  func.func @offset(%i: index) -> index {
    %c17 = arith.constant 17 : index
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(32,48)">
    %o = "layout.offset"(%a, %i, %c17) : (!layout.tensor<f16, "l0a", "ZZ", "(32,48)">, index, index) -> index
    return %o : index
  }
}

// -----

// matmul 16x32x16 f16 (a2): C[i,j] = sum_p extf(A[i,p]) * extf(B[p,j]) with an scf.for carrying the
// f32 sum from 0.0 (accumulate = false); B is ZN (C0 = 16): p mod 16 + p floordiv 16 * 256 ...
// A and B are written first (A: GM NZ -> L1 -> L0A, 16 x 32; B: GM ZN -> L0B, 32 x 16; the
// matmul may read only what was written, layout-verify R1), then the matmul's loops.
// CHECK-LABEL: func.func @mm
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %c32
// CHECK: scf.for %{{.*}} = %{{.*}} to %c16
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %c32
// CHECK: scf.for %{{.*}} = %{{.*}} to %c32
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %c16
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c16
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %c16
// CHECK: %[[SUM:.*]] = scf.for %[[P:.*]] = %{{.*}} to %c32 step %{{.*}} iter_args(%[[ACC:.*]] = %cst{{.*}}) -> (f32)
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: %[[PR:.*]] = arith.mulf
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[ACC]], %[[PR]] : f32
// CHECK-NEXT: scf.yield %[[S]] : f32
// CHECK: memref.store %[[SUM]]
module attributes {layout.target = #layout.target<"a2">} {
  func.func @mm(%o: memref<256xf32>, %ma: memref<512xf16>, %mb: memref<512xf16>) {
    %ga = "layout.view"(%ma) : (memref<512xf16>) -> !layout.tensor<f16, "gm", "NZ", "(16,32)">
    %gb = "layout.view"(%mb) : (memref<512xf16>) -> !layout.tensor<f16, "gm", "ZN", "(32,16)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,32)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "NZ", "(16,32)">, !layout.tensor<f16, "l1", "NZ", "(16,32)">) -> ()
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(16,32)">
    "layout.load"(%a1, %a) : (!layout.tensor<f16, "l1", "NZ", "(16,32)">, !layout.tensor<f16, "l0a", "ZZ", "(16,32)">) -> ()
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(32,16)">
    "layout.load"(%gb, %b) : (!layout.tensor<f16, "gm", "ZN", "(32,16)">, !layout.tensor<f16, "l0b", "ZN", "(32,16)">) -> ()
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(16,32)">, !layout.tensor<f16, "l0b", "ZN", "(32,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    %g = "layout.view"(%o) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    "layout.store"(%c, %g) : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}
