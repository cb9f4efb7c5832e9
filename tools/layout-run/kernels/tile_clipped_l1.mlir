// A tile of a GM ND f16 64x64 tensor at row 16 + %i, column 48 (32x16, rows clipped to
// min(32, 48 - %i)), copied GM -> L1 NZ -> GM NZ. For %i > 16 the L1 rows past the clipped
// extent are never written, and the store copies them: `layout-verify` R1 rejects the kernel
// at the store on every back end (the fix: store the `written` view the load returns).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @tile_of_tile(%A: memref<4096xf16>, %O: memref<512xf16>, %i: index) attributes {llvm.emit_c_interface} {
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %ga = "layout.view"(%A) : (memref<4096xf16>) -> !layout.tensor<f16, "gm", "ND", "(64,64)">
    %go = "layout.view"(%O) : (memref<512xf16>) -> !layout.tensor<f16, "gm", "NZ", "(32,16)">
    %t1 = "layout.tile"(%ga, %c16, %c32) {shape = array<i64: 48, 32>} : (!layout.tensor<f16, "gm", "ND", "(64,64)">, index, index) -> !layout.tensor<f16, "gm", "(48,32):(64,1)", "(48,32)">
    %t2 = "layout.tile"(%t1, %i, %c16) {shape = array<i64: 32, 16>} : (!layout.tensor<f16, "gm", "(48,32):(64,1)", "(48,32)">, index, index) -> !layout.tensor<f16, "gm", "(32,16):(64,1)", "(?,16)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(32,16)">
    "layout.load"(%t2, %a1) : (!layout.tensor<f16, "gm", "(32,16):(64,1)", "(?,16)">, !layout.tensor<f16, "l1", "NZ", "(32,16)">) -> ()
    "layout.store"(%a1, %go) : (!layout.tensor<f16, "l1", "NZ", "(32,16)">, !layout.tensor<f16, "gm", "NZ", "(32,16)">) -> ()
    return
  }
}
