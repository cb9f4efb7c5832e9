// C (32 x 16, f32) = the first 64 columns of A (32 x 256, f16) times B (64 x 16, f16), through
// an L1 buffer of R rows, R a run-time argument: rows >= R never reach L1; the written views carry
// R to the matmul, which leaves those rows of C untouched. The contract: the L1 buffer fits L1 (512 KiB
// on a2: an NZ f16 buffer of R rows holds align(R, 16) * 256 elements, so R <= 1024) and
// R >= 0. Out of it, the alloca would be huge (a stack overflow) or wrapped: layout-run must
// name the alloc and run nothing (tools/layout-run/tests/cli.rs).

!gmA = !layout.tensor<f16, "gm", "ND", "(32,256)">
!gmB = !layout.tensor<f16, "gm", "ND", "(64,16)">
!gmC = !layout.tensor<f32, "gm", "ND", "(32,16)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(?,256)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(64,16)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(32,64)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(64,16)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(32,16)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @alloc_rows(%A: memref<32x256xf16>, %B: memref<64x16xf16>, %C: memref<32x16xf32>, %R: index)
      attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %ga = "layout.view"(%A) : (memref<32x256xf16>) -> !gmA
    %gb = "layout.view"(%B) : (memref<64x16xf16>) -> !gmB
    %gc = "layout.view"(%C) : (memref<32x16xf32>) -> !gmC
    %a1 = "layout.alloc"(%R) : (index) -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    %a1v = "layout.load"(%ga, %a1) : (!gmA, !l1A) -> !l1T
    "layout.load"(%gb, %b1) : (!gmB, !l1B) -> ()
    %a1k = "layout.tile"(%a1v, %c0, %c0) {shape = array<i64: 32, 64>} : (!l1T, index, index) -> !l1T
    %a0v = "layout.load"(%a1k, %a0) : (!l1T, !l0A) -> !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%b1, %b0) : (!l1B, !l0B) -> ()
    %cv = "layout.matmul"(%a0v, %b0, %acc) {accumulate = false} : (!layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !l0B, !l0C) -> !layout.tensor<f32, "l0c", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.store"(%cv, %gc) : (!layout.tensor<f32, "l0c", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !gmC) -> ()
    return
  }
}
