// One block of C = A x B on Atlas A2/A3 (target "a2"), written with the layout dialect.
//
//   A: M x 256 f16, row-major (ND) in GM, M dynamic
//   B: 256 x N f16, row-major (ND) in GM, N dynamic
//   C: M x N f32, row-major (ND) in GM
//
// The block at element coordinates (%m0, %n0) is 128 x 128. A 128x256 panel of A and a
// 256x128 panel of B go GM -> L1 (ND -> NZ, catlass zN); each 64-wide K slice goes
// L1 -> L0A (NZ -> ZZ, the A2 left-operand order) and L1 -> L0B (NZ -> ZN, transposed per
// fractal); the cube accumulates in L0C (NZ with 16x16 fractals); Fixpipe stores NZ -> ND.
//
// Tile types are written with `?` everywhere: `layout-opt --layout-verify --layout-fold`
// fills in what the layout algebra proves (run `make demo`).
//
// Tile coordinates are element coordinates of the tile's top-left corner in the parent
// (catlass GetTileLayout), one index per mode.

!gmA = !layout.tensor<f16, "gm", "ND", "(?,256)">
!gmB = !layout.tensor<f16, "gm", "ND", "(256,?)">
!gmC = !layout.tensor<f32, "gm", "ND", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(128,256)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(256,128)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(64,128)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(128,128)">
// A tile whose layout is left entirely to the algebra.
!gmAt = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!gmBt = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!gmCt = !layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">
!l1At = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l1Bt = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
// What a load wrote (its `written` result): the destination with the written extent as origin.
!l0AW = !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0BW = !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_tile(%A: memref<?xf16>, %B: memref<?xf16>, %C: memref<?xf32>,
                       %M: index, %N: index, %m0: index, %n0: index) -> (index, index) {
    %c0 = arith.constant 0 : index
    %c17 = arith.constant 17 : index
    %c33 = arith.constant 33 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index

    // Global memory: views with dynamic M and N (one index operand per `?`).
    %ga = "layout.view"(%A, %M) : (memref<?xf16>, index) -> !gmA
    %gb = "layout.view"(%B, %N) : (memref<?xf16>, index) -> !gmB
    %gc = "layout.view"(%C, %M, %N) : (memref<?xf32>, index, index) -> !gmC

    // GM -> L1: the panels of this block (dynamic coordinates: rows of A, cols of B).
    %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 128, 256>} : (!gmA, index, index) -> !gmAt
    %tb = "layout.tile"(%gb, %c0, %n0) {shape = array<i64: 256, 128>} : (!gmB, index, index) -> !gmBt
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a1v = "layout.load"(%ta, %a1) : (!gmAt, !l1A) -> !l1At
    %b1v = "layout.load"(%tb, %b1) : (!gmBt, !l1B) -> !l1Bt

    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C

    // K slice 0 at constant coordinates: overwrite the accumulator.
    %a1k = "layout.tile"(%a1v, %c0, %c0) {shape = array<i64: 128, 64>} : (!l1At, index, index) -> !l1At
    %b1k = "layout.tile"(%b1v, %c0, %c0) {shape = array<i64: 64, 128>} : (!l1Bt, index, index) -> !l1Bt
    %a0v = "layout.load"(%a1k, %a0) : (!l1At, !l0A) -> !l0AW
    %b0v = "layout.load"(%b1k, %b0) : (!l1Bt, !l0B) -> !l0BW
    "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0AW, !l0BW, !l0C) -> ()

    // K slices 1..3 at a dynamic coordinate: accumulate.
    scf.for %k = %c64 to %c256 step %c64 {
      %a1d = "layout.tile"(%a1v, %c0, %k) {shape = array<i64: 128, 64>} : (!l1At, index, index) -> !l1At
      %b1d = "layout.tile"(%b1v, %k, %c0) {shape = array<i64: 64, 128>} : (!l1Bt, index, index) -> !l1Bt
      %a0d = "layout.load"(%a1d, %a0) : (!l1At, !l0A) -> !l0AW
      %b0d = "layout.load"(%b1d, %b0) : (!l1Bt, !l0B) -> !l0BW
      "layout.matmul"(%a0d, %b0d, %acc) {accumulate = true} : (!l0AW, !l0BW, !l0C) -> ()
    }

    // L0C -> GM (Fixpipe NZ -> ND); the C tile's origin clips the M/N tails at run time.
    %tc = "layout.tile"(%gc, %m0, %n0) {shape = array<i64: 128, 128>} : (!gmC, index, index) -> !gmCt
    "layout.store"(%acc, %tc) : (!l0C, !gmCt) -> ()

    // Element offsets: constant in L1 (folded), dynamic in GM (kept for the lowering).
    %o1 = "layout.offset"(%a1, %c17, %c33) : (!l1A, index, index) -> index
    %o2 = "layout.offset"(%gc, %m0, %n0) : (!gmC, index, index) -> index
    return %o1, %o2 : index, index
  }
}
