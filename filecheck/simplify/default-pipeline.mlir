// The default pipeline end to end (verify -> fold -> lower -> simplify offsets -> clean up) on
// the two example kernels, and what a dynamic copy keeps.
// RUN: layout-opt --default-pipeline %S/../../examples/tiled_gemm.mlir | FileCheck %s --check-prefix=GEMM
// RUN: layout-opt --default-pipeline %S/../../examples/gemm_tile.mlir | FileCheck %s --check-prefix=TILE
// The dynamic copy writes a view of L1, which layout-verify rejects: the default pipeline minus
// layout-verify, lowering with host-copies=true (every other verifier rule is still checked).
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-fold,layout-lower-to-loops{host-copies=true},canonicalize,layout-simplify-offsets,canonicalize,cse,loop-invariant-code-motion)' | FileCheck %s --check-prefix=DYN

// examples/tiled_gemm.mlir: the GM ND -> L1 NZ copy of the A panel (static NZ 128x256). Its
// innermost loop runs over the 256 columns j: the NZ address j mod 16 + 16·i + (j floordiv 16)·2048
// is 16·i + j + (j floordiv 16)·(2048 − 16) (rule R3): one shift, no mask, no division.
// GEMM-LABEL: func.func @tiled_gemm
// GEMM: scf.for %[[J:.*]] = %c0 to %c256 step %c1 {
// GEMM-NOT: arith.divsi
// GEMM-NOT: arith.remsi
// GEMM: arith.addi %{{.*}}, %[[J]] : index
// GEMM: %[[Q:.*]] = arith.shrui %[[J]], %c4 : index
// GEMM-NEXT: arith.muli %[[Q]], %c2032 : index
// GEMM-NOT: arith.divsi
// GEMM-NOT: arith.remsi
// GEMM-NOT: arith.andi
// GEMM: memref.store
// GEMM-NEXT: }
// Nor anywhere else in the kernel (every coordinate is a loop variable or a clipped extent).
// GEMM-NOT: arith.divsi
// GEMM-NOT: arith.remsi
// GEMM-NOT: "layout.
// GEMM: return

// examples/gemm_tile.mlir lowers completely; no div/rem either.
// TILE-LABEL: func.func @gemm_tile
// TILE-NOT: "layout.
// TILE-NOT: arith.divsi
// TILE-NOT: arith.remsi
// TILE: return

// GM ND (R x C) -> L1 NZ with R, C function arguments. The lowering clamps both sizes
// (`maxsi(%v, 0)`, sizes are non-negative by contract), so they are known to be >= 0.
// DYN-LABEL: func.func @k
// DYN-DAG: %[[NC:.*]] = arith.maxsi %arg3, %c0 : index
// DYN-DAG: %[[NR:.*]] = arith.maxsi %arg2, %c0 : index
// The NZ column-block stride ceil(R/16) * 256 is a shift now, computed once before the loops.
// DYN: %[[Q:.*]] = arith.shrui %{{.*}}, %c4 : index
// DYN-NEXT: %[[STRIDE:.*]] = arith.muli %[[Q]], %c256 : index
// DYN: scf.for %[[I:.*]] = %c0 to %[[NR]] step %c1 {
// DYN: scf.for %[[J:.*]] = %c0 to %[[NC]] step %c1 {
// The copy body: j >= 0 from its loop, so shift and mask; no div/rem.
// DYN-NOT: arith.divsi
// DYN-NOT: arith.remsi
// DYN: arith.shrui %[[J]], %c4 : index
// DYN-NEXT: arith.muli %[[STRIDE]], %{{.*}} : index
// DYN-NOT: arith.divsi
// DYN-NOT: arith.remsi
// DYN: arith.andi %[[J]], %c15 : index
// DYN-NOT: arith.divsi
// DYN-NOT: arith.remsi
// DYN: memref.store
// The zero-fill loop over columns [C, align(C, 16)) starts at the clamped C >= 0: its
// divsi/remsi are floor operations, a shift and a mask; no div/rem is left in the kernel.
// DYN: scf.for %[[F:.*]] = %[[NC]] to %{{.*}} step %c1 {
// DYN-NOT: arith.divsi
// DYN-NOT: arith.remsi
// DYN: arith.shrui %[[F]], %c4 : index
// DYN-NOT: arith.divsi
// DYN-NOT: arith.remsi
// DYN: arith.andi %[[F]], %c15 : index
// DYN-NOT: arith.divsi
// DYN-NOT: arith.remsi
// DYN: memref.store
// DYN-NOT: arith.divsi
// DYN-NOT: arith.remsi
// DYN: return
module attributes {layout.target = #layout.target<"a2">} {
  func.func @k(%s: memref<?xf16>, %d: memref<?xf16>, %R: index, %C: index) {
    %g = "layout.view"(%s, %R, %C) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "gm", "ND", "(?,?)">
    %b = "layout.view"(%d, %R, %C) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "l1", "NZ", "(?,?)">
    "layout.load"(%g, %b) : (!layout.tensor<f16, "gm", "ND", "(?,?)">, !layout.tensor<f16, "l1", "NZ", "(?,?)">) -> ()
    return
  }
}
