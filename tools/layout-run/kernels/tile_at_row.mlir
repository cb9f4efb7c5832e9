// C (32 x 16, f32) = the first 64 columns of a 32 x 256 tile of an M-row f16 matrix A at a
// dynamic row m0, times B (64 x 16, f16): the A panel load of examples/tiled_gemm.mlir, made
// observable through the cube. The contract: 0 <= m0 <= M (a tail tile past row M is clipped,
// its rows of C are left as they were). Out of it (m0 < 0) the tile would address memory before
// A: layout-run must name the tile and touch nothing (tools/layout-run/tests/cli.rs).

!gmA = !layout.tensor<f16, "gm", "ND", "(?,256)">
!gmT = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!gmB = !layout.tensor<f16, "gm", "ND", "(64,16)">
!gmC = !layout.tensor<f32, "gm", "ND", "(32,16)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(32,256)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(64,16)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(32,64)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(64,16)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(32,16)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @tile_at_row(%A: memref<?x256xf16>, %B: memref<64x16xf16>, %C: memref<32x16xf32>, %M: index,
                         %m0: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %ga = "layout.view"(%A, %M) : (memref<?x256xf16>, index) -> !gmA
    %gb = "layout.view"(%B) : (memref<64x16xf16>) -> !gmB
    %gc = "layout.view"(%C) : (memref<32x16xf32>) -> !gmC
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 32, 256>} : (!gmA, index, index) -> !gmT
    %a1v = "layout.load"(%ta, %a1) : (!gmT, !l1A) -> !l1T
    "layout.load"(%gb, %b1) : (!gmB, !l1B) -> ()
    %a1k = "layout.tile"(%a1v, %c0, %c0) {shape = array<i64: 32, 64>} : (!l1T, index, index) -> !l1T
    %a0v = "layout.load"(%a1k, %a0) : (!l1T, !l0A) -> !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%b1, %b0) : (!l1B, !l0B) -> ()
    %cv = "layout.matmul"(%a0v, %b0, %acc) {accumulate = false} : (!layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !l0B, !l0C) -> !layout.tensor<f32, "l0c", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.store"(%cv, %gc) : (!layout.tensor<f32, "l0c", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !gmC) -> ()
    return
  }
}
