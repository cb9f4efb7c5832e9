// Batched GEMM on Atlas A2 (target "a2"), every size dynamic (issue 11 item 8):
//
//   C[b] (M x N, f32) = A[b] (M x K, f16) x B[b] (K x N, f16)   for b in [0, NB)
//
// A, B and C are batch forms (docs/layout-spec.md §A.4): "ND" "(NB,M,K)" is NB row-major M x K
// matrices, one after the other. `layout.tile` of a batch form takes (batch, rows, cols)
// coordinates and extents; a batch extent of 1 selects the matrix `b` (its offset is the
// algebra's crd_to_offset of the batch coordinate, and the tile is empty past the last matrix).
// Per matrix the kernel is examples/gemm_dynamic_k.mlir: 128 x 256 blocks of C, K streamed in
// 64-wide slices through L1, tails in M, N and K, every copy read through the view of what it
// wrote.
//
// Run: layout-run examples/batched_gemm.mlir --entry batched_gemm --input 0=A.npy
//        --input 1=B.npy --input 2=C.npy --arg 3=NB --arg 4=M --arg 5=N --arg 6=K
//      (A.npy of shape (NB, M, K), B.npy (NB, K, N), C.npy (NB, M, N)).

!gmA = !layout.tensor<f16, "gm", "ND", "(?,?,?)">
!gmB = !layout.tensor<f16, "gm", "ND", "(?,?,?)">
!gmC = !layout.tensor<f32, "gm", "ND", "(?,?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(128,64)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(64,256)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(64,256)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(128,256)">
// One matrix of a batch (batch extent 1), its tiles and the written views: every leaf is left
// to the layout algebra.
!gm16 = !layout.tensor<f16, "gm", "(?,(?,?)):(?,(?,?))", "(?,(?,?))">
!gm32 = !layout.tensor<f32, "gm", "(?,(?,?)):(?,(?,?))", "(?,(?,?))">
!l1 = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0a = !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0b = !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @batched_gemm(%A: memref<?x?x?xf16>, %B: memref<?x?x?xf16>, %C: memref<?x?x?xf32>,
                          %NB: index, %M: index, %N: index, %K: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %ga = "layout.view"(%A, %NB, %M, %K) : (memref<?x?x?xf16>, index, index, index) -> !gmA
    %gb = "layout.view"(%B, %NB, %K, %N) : (memref<?x?x?xf16>, index, index, index) -> !gmB
    %gc = "layout.view"(%C, %NB, %M, %N) : (memref<?x?x?xf32>, index, index, index) -> !gmC
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    scf.for %b = %c0 to %NB step %c1 {
      scf.for %m0 = %c0 to %M step %c128 {
        scf.for %n0 = %c0 to %N step %c256 {
          // K slice 0 overwrites the accumulator.
          %ta = "layout.tile"(%ga, %b, %m0, %c0) {shape = array<i64: 1, 128, 64>} : (!gmA, index, index, index) -> !gm16
          %tb = "layout.tile"(%gb, %b, %c0, %n0) {shape = array<i64: 1, 64, 256>} : (!gmB, index, index, index) -> !gm16
          %a1v = "layout.load"(%ta, %a1) : (!gm16, !l1A) -> !l1
          %b1v = "layout.load"(%tb, %b1) : (!gm16, !l1B) -> !l1
          %a0v = "layout.load"(%a1v, %a0) : (!l1, !l0A) -> !l0a
          %b0v = "layout.load"(%b1v, %b0) : (!l1, !l0B) -> !l0b
          "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0a, !l0b, !l0C) -> ()
          // The other slices accumulate; the last one is clipped at K.
          scf.for %k = %c64 to %K step %c64 {
            %tak = "layout.tile"(%ga, %b, %m0, %k) {shape = array<i64: 1, 128, 64>} : (!gmA, index, index, index) -> !gm16
            %tbk = "layout.tile"(%gb, %b, %k, %n0) {shape = array<i64: 1, 64, 256>} : (!gmB, index, index, index) -> !gm16
            %a1k = "layout.load"(%tak, %a1) : (!gm16, !l1A) -> !l1
            %b1k = "layout.load"(%tbk, %b1) : (!gm16, !l1B) -> !l1
            %a0k = "layout.load"(%a1k, %a0) : (!l1, !l0A) -> !l0a
            %b0k = "layout.load"(%b1k, %b0) : (!l1, !l0B) -> !l0b
            "layout.matmul"(%a0k, %b0k, %acc) {accumulate = true} : (!l0a, !l0b, !l0C) -> ()
          }
          %tc = "layout.tile"(%gc, %b, %m0, %n0) {shape = array<i64: 1, 128, 256>} : (!gmC, index, index, index) -> !gm32
          "layout.store"(%acc, %tc) : (!l0C, !gm32) -> ()
        }
      }
    }
    return
  }
}
