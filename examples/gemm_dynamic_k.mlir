// The canonical GEMM with every size dynamic, on Atlas A2 (target "a2"), run by `make demo`:
//
//   C (M x N, f32, row-major) = A (M x K, f16, row-major) x B (K x N, f16, row-major)
//
// Per 128 x 256 block of C, K is streamed in 64-wide slices: GM ND -> L1 NZ (ND2NZ), L1 -> L0A
// ZZ / L0B ZN, and the cube accumulates into L0C (slice 0 overwrites, the others accumulate);
// Fixpipe stores NZ -> ND. M, N and K have tails: the last block and the last slice are clipped
// by the layout algebra (catlass GetTileLayout), and every copy returns the view of what it wrote
// (`%a1 = "layout.load"(...)`): its origin is the written extent, so the next copy and the matmul
// read only that (m, n, k come from the origins). Reading the buffers themselves would multiply
// stale data of the previous slice in the K tail: layout-verify rejects it (rule R1).
// `examples/gemm_reference_k200.mlir` computes the same product with plain loops (`make demo`:
// M = 200, N = 136, K = 200, tails in all three).
//
// Run: layout-run examples/gemm_dynamic_k.mlir --entry gemm_dynamic_k --input 0=A.npy
//        --input 1=B.npy --input 2=C.npy --arg 3=M --arg 4=N --arg 5=K

!gmA = !layout.tensor<f16, "gm", "ND", "(?,?)">
!gmB = !layout.tensor<f16, "gm", "ND", "(?,?)">
!gmC = !layout.tensor<f32, "gm", "ND", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(128,64)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(64,256)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(64,256)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(128,256)">
// Tiles and written views: every leaf is left to the layout algebra.
!gm16 = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!gm32 = !layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">
!l1 = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0a = !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0b = !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_dynamic_k(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>,
                            %M: index, %N: index, %K: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %ga = "layout.view"(%A, %M, %K) : (memref<?x?xf16>, index, index) -> !gmA
    %gb = "layout.view"(%B, %K, %N) : (memref<?x?xf16>, index, index) -> !gmB
    %gc = "layout.view"(%C, %M, %N) : (memref<?x?xf32>, index, index) -> !gmC
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    scf.for %m0 = %c0 to %M step %c128 {
      scf.for %n0 = %c0 to %N step %c256 {
        // K slice 0 overwrites the accumulator.
        %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 128, 64>} : (!gmA, index, index) -> !gm16
        %tb = "layout.tile"(%gb, %c0, %n0) {shape = array<i64: 64, 256>} : (!gmB, index, index) -> !gm16
        %a1v = "layout.load"(%ta, %a1) : (!gm16, !l1A) -> !l1
        %b1v = "layout.load"(%tb, %b1) : (!gm16, !l1B) -> !l1
        %a0v = "layout.load"(%a1v, %a0) : (!l1, !l0A) -> !l0a
        %b0v = "layout.load"(%b1v, %b0) : (!l1, !l0B) -> !l0b
        "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0a, !l0b, !l0C) -> ()
        // The other slices accumulate; the last one is clipped at K.
        scf.for %k = %c64 to %K step %c64 {
          %tak = "layout.tile"(%ga, %m0, %k) {shape = array<i64: 128, 64>} : (!gmA, index, index) -> !gm16
          %tbk = "layout.tile"(%gb, %k, %n0) {shape = array<i64: 64, 256>} : (!gmB, index, index) -> !gm16
          %a1k = "layout.load"(%tak, %a1) : (!gm16, !l1A) -> !l1
          %b1k = "layout.load"(%tbk, %b1) : (!gm16, !l1B) -> !l1
          %a0k = "layout.load"(%a1k, %a0) : (!l1, !l0A) -> !l0a
          %b0k = "layout.load"(%b1k, %b0) : (!l1, !l0B) -> !l0b
          "layout.matmul"(%a0k, %b0k, %acc) {accumulate = true} : (!l0a, !l0b, !l0C) -> ()
        }
        %tc = "layout.tile"(%gc, %m0, %n0) {shape = array<i64: 128, 256>} : (!gmC, index, index) -> !gm32
        "layout.store"(%acc, %tc) : (!l0C, !gm32) -> ()
      }
    }
    return
  }
}
