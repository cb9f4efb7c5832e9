// A 32 x 256 tile of an M-row f16 matrix at a dynamic row m0, copied GM ND -> L1 NZ (the
// A panel load of examples/tiled_gemm.mlir). The contract: 0 <= m0 <= M (a tail tile past row
// M is clipped). Out of it (m0 < 0), the tile would address memory before A: layout-run must
// report the tile and touch nothing (tools/layout-run/tests/cli.rs).

!gmA = !layout.tensor<f16, "gm", "ND", "(?,256)">
!gmT = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(32,256)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @tile_at_row(%A: memref<?x256xf16>, %M: index, %m0: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %ga = "layout.view"(%A, %M) : (memref<?x256xf16>, index) -> !gmA
    %a1 = "layout.alloc"() : () -> !l1A
    %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 32, 256>} : (!gmA, index, index) -> !gmT
    "layout.load"(%ta, %a1) : (!gmT, !l1A) -> ()
    return
  }
}
