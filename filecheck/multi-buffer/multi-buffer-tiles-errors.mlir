// layout-multi-buffer on the L1 panels of a two-level K loop (layout-gemm --tiles
// 128,256,512,64,1): one 128 x 512 A panel and one 512 x 256 B panel (128 + 256 KiB) fit the
// 512 KiB of L1 on a2, their second buffers do not; the K loop is a located error.
// RUN: layout-opt --verify-diagnostics --layout-multi-buffer %s

!gmA = !layout.tensor<f16, "gm", "ND", "(?,?)">
!gmB = !layout.tensor<f16, "gm", "ND", "(?,?)">
!gmC = !layout.tensor<f32, "gm", "ND", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(128,512)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(512,256)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(64,256)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(128,256)">
!tA = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!tB = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!tC = !layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0aT = !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0bT = !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @l1_panels(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %M: index, %N: index, %K: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c512 = arith.constant 512 : index
    %ga = "layout.view"(%A, %M, %K) : (memref<?x?xf16>, index, index) -> !gmA
    %gb = "layout.view"(%B, %K, %N) : (memref<?x?xf16>, index, index) -> !gmB
    %gc = "layout.view"(%C, %M, %N) : (memref<?x?xf32>, index, index) -> !gmC
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    %bid = "layout.block_idx"() : () -> index
    %bnum = "layout.block_num"() : () -> index
    %rows = arith.addi %M, %c128 : index
    %rows_1 = arith.subi %rows, %c1 : index
    %rows_2 = arith.divsi %rows_1, %c128 : index
    %cols = arith.addi %N, %c256 : index
    %cols_1 = arith.subi %cols, %c1 : index
    %cols_2 = arith.divsi %cols_1, %c256 : index
    %tiles = arith.muli %rows_2, %cols_2 : index
    scf.for %t = %bid to %tiles step %bnum {
      %m0 = arith.divsi %t, %cols_2 : index
      %m0_1 = arith.muli %m0, %c128 : index
      %n0 = arith.remsi %t, %cols_2 : index
      %n0_1 = arith.muli %n0, %c256 : index
      %ta = "layout.tile"(%ga, %m0_1, %c0) {shape = array<i64: 128, 512>} : (!gmA, index, index) -> !tA
      %tb = "layout.tile"(%gb, %c0, %n0_1) {shape = array<i64: 512, 256>} : (!gmB, index, index) -> !tB
      %a1v = "layout.load"(%ta, %a1) : (!tA, !l1A) -> !l1T
      %b1v = "layout.load"(%tb, %b1) : (!tB, !l1B) -> !l1T
      %a1s = "layout.tile"(%a1v, %c0, %c0) {shape = array<i64: 128, 64>} : (!l1T, index, index) -> !l1T
      %b1s = "layout.tile"(%b1v, %c0, %c0) {shape = array<i64: 64, 256>} : (!l1T, index, index) -> !l1T
      %a0v = "layout.load"(%a1s, %a0) : (!l1T, !l0A) -> !l0aT
      %b0v = "layout.load"(%b1s, %b0) : (!l1T, !l0B) -> !l0bT
      "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0aT, !l0bT, !l0C) -> ()
      %kv = arith.minsi %c512, %K : index
      scf.for %kk = %c64 to %kv step %c64 {
        %a1s_1 = "layout.tile"(%a1v, %c0, %kk) {shape = array<i64: 128, 64>} : (!l1T, index, index) -> !l1T
        %b1s_1 = "layout.tile"(%b1v, %kk, %c0) {shape = array<i64: 64, 256>} : (!l1T, index, index) -> !l1T
        %a0v_1 = "layout.load"(%a1s_1, %a0) : (!l1T, !l0A) -> !l0aT
        %b0v_1 = "layout.load"(%b1s_1, %b0) : (!l1T, !l0B) -> !l0bT
        "layout.matmul"(%a0v_1, %b0v_1, %acc) {accumulate = true} : (!l0aT, !l0bT, !l0C) -> ()
      }
      // expected-error@+1 {{layout-multi-buffer: the double buffers of this loop do not fit: L1 overflow: the second buffer of !layout.tensor<f16, "l1", "NZ", "(512,256)"> (alloc at 33:11) needs 262144 B at offset 524288 but L1 on a2 holds 524288 B}}
      scf.for %k = %c512 to %K step %c512 {
        %ta_1 = "layout.tile"(%ga, %m0_1, %k) {shape = array<i64: 128, 512>} : (!gmA, index, index) -> !tA
        %tb_1 = "layout.tile"(%gb, %k, %n0_1) {shape = array<i64: 512, 256>} : (!gmB, index, index) -> !tB
        %a1v_1 = "layout.load"(%ta_1, %a1) : (!tA, !l1A) -> !l1T
        %b1v_1 = "layout.load"(%tb_1, %b1) : (!tB, !l1B) -> !l1T
        %kv_1 = arith.subi %K, %k : index
        %kv_2 = arith.minsi %c512, %kv_1 : index
        scf.for %kk_1 = %c0 to %kv_2 step %c64 {
          %a1s_2 = "layout.tile"(%a1v_1, %c0, %kk_1) {shape = array<i64: 128, 64>} : (!l1T, index, index) -> !l1T
          %b1s_2 = "layout.tile"(%b1v_1, %kk_1, %c0) {shape = array<i64: 64, 256>} : (!l1T, index, index) -> !l1T
          %a0v_2 = "layout.load"(%a1s_2, %a0) : (!l1T, !l0A) -> !l0aT
          %b0v_2 = "layout.load"(%b1s_2, %b0) : (!l1T, !l0B) -> !l0bT
          "layout.matmul"(%a0v_2, %b0v_2, %acc) {accumulate = true} : (!l0aT, !l0bT, !l0C) -> ()
        }
      }
      %tc = "layout.tile"(%gc, %m0_1, %n0_1) {shape = array<i64: 128, 256>} : (!gmC, index, index) -> !tC
      "layout.store"(%acc, %tc) : (!l0C, !tC) -> ()
    }
    return
  }
}
