// scripts/bench-pipeline: one 128 x 128 block of examples/tiled_gemm.mlir at (%m0, %n0)
// (the CATLASS DSL's `gemm_tile` in catlass_dsl_kernels.py).
!gmA = !layout.tensor<f16, "gm", "ND", "(?,256)">
!gmB = !layout.tensor<f16, "gm", "ND", "(256,?)">
!gmC = !layout.tensor<f32, "gm", "ND", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(128,256)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(256,128)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(64,128)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(128,128)">
// Tile types: every leaf is left to the layout algebra.
!gmT16 = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!gmT32 = !layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
// What a load wrote (its `written` result): the destination with the written extent as origin.
!l0AW = !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0BW = !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_tile(%A: memref<?x256xf16>, %B: memref<256x?xf16>, %C: memref<?x?xf32>,
                       %M: index, %N: index, %m0: index, %n0: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c256 = arith.constant 256 : index

    %ga = "layout.view"(%A, %M) : (memref<?x256xf16>, index) -> !gmA
    %gb = "layout.view"(%B, %N) : (memref<256x?xf16>, index) -> !gmB
    %gc = "layout.view"(%C, %M, %N) : (memref<?x?xf32>, index, index) -> !gmC

    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C

    // GM -> L1: the A panel (rows m0..) and the B panel (cols n0..), clipped at the tails.
    %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 128, 256>} : (!gmA, index, index) -> !gmT16
    %tb = "layout.tile"(%gb, %c0, %n0) {shape = array<i64: 256, 128>} : (!gmB, index, index) -> !gmT16
    %a1v = "layout.load"(%ta, %a1) : (!gmT16, !l1A) -> !l1T
    %b1v = "layout.load"(%tb, %b1) : (!gmT16, !l1B) -> !l1T

    // K slice 0: overwrite the accumulator.
    %a1k = "layout.tile"(%a1v, %c0, %c0) {shape = array<i64: 128, 64>} : (!l1T, index, index) -> !l1T
    %b1k = "layout.tile"(%b1v, %c0, %c0) {shape = array<i64: 64, 128>} : (!l1T, index, index) -> !l1T
    %a0v = "layout.load"(%a1k, %a0) : (!l1T, !l0A) -> !l0AW
    %b0v = "layout.load"(%b1k, %b0) : (!l1T, !l0B) -> !l0BW
    "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0AW, !l0BW, !l0C) -> ()

    // K slices 1..3: accumulate.
    scf.for %k = %c64 to %c256 step %c64 {
      %a1d = "layout.tile"(%a1v, %c0, %k) {shape = array<i64: 128, 64>} : (!l1T, index, index) -> !l1T
      %b1d = "layout.tile"(%b1v, %k, %c0) {shape = array<i64: 64, 128>} : (!l1T, index, index) -> !l1T
      %a0d = "layout.load"(%a1d, %a0) : (!l1T, !l0A) -> !l0AW
      %b0d = "layout.load"(%b1d, %b0) : (!l1T, !l0B) -> !l0BW
      "layout.matmul"(%a0d, %b0d, %acc) {accumulate = true} : (!l0AW, !l0BW, !l0C) -> ()
    }

    // L0C -> GM (Fixpipe NZ -> ND); the tile's origin clips the M/N tails.
    %tc = "layout.tile"(%gc, %m0, %n0) {shape = array<i64: 128, 128>} : (!gmC, index, index) -> !gmT32
    "layout.store"(%acc, %tc) : (!l0C, !gmT32) -> ()
    return
  }
}
