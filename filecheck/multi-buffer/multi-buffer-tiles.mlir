// layout-multi-buffer on a GEMM of the generator (layout-gemm --tiles 64,64,128,64,1: 64 x 64 C
// tiles, K through L1 in slices of 128 and through L0 in slices of 64). Two-level K: the L0
// loops double L0A/L0B, the K loop around them the L1 panels. The loop over the block's C tiles
// (step layout.block_num) doubles the L0C accumulator (2 x 16 KiB fit): each tile starts with
// the overwriting Mmad, so tile t + blockNum takes the second accumulator while the Fixpipe
// stores tile t. The lowered kernel gives each accumulator its own FIX -> M event id.
// RUN: layout-opt --layout-multi-buffer %s | FileCheck %s
// RUN: layout-opt --layout-multi-buffer --layout-verify %s | FileCheck %s
// RUN: layout-opt --layout-multi-buffer --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s --check-prefix=CPP

// Every doubled alloc right after its original: the L1 panels (the K loop), the L0A/L0B slices
// (the L0 loops), the accumulator (the tile loop).
// CHECK-LABEL: func.func @tiles2
// CHECK:      "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,128)">
// CHECK-NEXT: "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,128)">
// CHECK-NEXT: "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
// CHECK-NEXT: "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
// CHECK-NEXT: "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(64,64)">
// CHECK-NEXT: "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(64,64)">
// CHECK-NEXT: "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,64)">
// CHECK-NEXT: "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,64)">
// CHECK-NEXT: %[[ACC:.*]] = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(64,64)">
// CHECK-NEXT: %[[ACC2:.*]] = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(64,64)">
// CHECK:      %[[BNUM:.*]] = "layout.block_num"() : () -> index
// The tile loop steps by two block counts; the first tile of an iteration on the second
// accumulator, the next (t + blockNum, if below the tile count) on the first.
// CHECK:      %[[STEP:.*]] = arith.addi %[[BNUM]], %[[BNUM]] : index
// CHECK-NEXT: scf.for %[[T:.*]] = %{{.*}} to %[[TILES:.*]] step %[[STEP]] {
// CHECK:        "layout.matmul"(%{{.*}}, %{{.*}}, %[[ACC2]]) {accumulate = false}
// The K loop: two L1 slices per iteration (step 256), the second under scf.if.
// CHECK:        scf.for %{{.*}} = %c128 to %{{.*}} step %c256 {
// CHECK:        "layout.store"(%[[ACC2]], %{{.*}})
// CHECK-NEXT:   %[[T1:.*]] = arith.addi %[[T]], %[[BNUM]] : index
// CHECK-NEXT:   %[[MORE:.*]] = arith.cmpi slt, %[[T1]], %[[TILES]] : index
// CHECK-NEXT:   scf.if %[[MORE]] {
// CHECK:          "layout.matmul"(%{{.*}}, %{{.*}}, %[[ACC]]) {accumulate = false}
// CHECK:          "layout.store"(%[[ACC]], %{{.*}})
// CHECK-NEXT:   }
// CHECK-NEXT: }

// Lowered: one FIX -> M event id per accumulator, both set before the tile loop. After the
// Fixpipe of the first tile the loop waits only for the other accumulator's id (set by the
// Fixpipe of the previous iteration's second tile), so the next tile's Mmads do not wait for
// this Fixpipe.
// CPP:      SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
// CPP:      SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID1);
// (Between them only the index arithmetic hoisted out of the tile loop.)
// CPP-NOT:  Flag
// CPP:      for (int64_t i0 = blockIdx; i0 < v{{[0-9]+}}; i0 += v{{[0-9]+}}) {
// CPP:        WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
// CPP:        Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>
// CPP-NEXT:   SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
// CPP-NOT:    WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
// CPP:        WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID1);
// CPP-NEXT:   WaitFlag
// CPP-NOT:    FIX_M
// CPP:        if (cond
// CPP:          Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>
// CPP:        SetFlag<AscendC::HardEvent::FIX_M>(EVENT_ID1);
// CPP:      WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID0);
// CPP:      WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID1);

!gmA = !layout.tensor<f16, "gm", "ND", "(?,?)">
!gmB = !layout.tensor<f16, "gm", "ND", "(?,?)">
!gmC = !layout.tensor<f32, "gm", "ND", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(64,128)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(128,64)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(64,64)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(64,64)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(64,64)">
!tA = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!tB = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!tC = !layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0aT = !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0bT = !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @tiles2(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>, %M: index, %N: index, %K: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
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
    %rows = arith.addi %M, %c64 : index
    %rows_1 = arith.subi %rows, %c1 : index
    %rows_2 = arith.divsi %rows_1, %c64 : index
    %cols = arith.addi %N, %c64 : index
    %cols_1 = arith.subi %cols, %c1 : index
    %cols_2 = arith.divsi %cols_1, %c64 : index
    %tiles = arith.muli %rows_2, %cols_2 : index
    scf.for %t = %bid to %tiles step %bnum {
      %m0 = arith.divsi %t, %cols_2 : index
      %m0_1 = arith.muli %m0, %c64 : index
      %n0 = arith.remsi %t, %cols_2 : index
      %n0_1 = arith.muli %n0, %c64 : index
      %ta = "layout.tile"(%ga, %m0_1, %c0) {shape = array<i64: 64, 128>} : (!gmA, index, index) -> !tA
      %tb = "layout.tile"(%gb, %c0, %n0_1) {shape = array<i64: 128, 64>} : (!gmB, index, index) -> !tB
      %a1v = "layout.load"(%ta, %a1) : (!tA, !l1A) -> !l1T
      %b1v = "layout.load"(%tb, %b1) : (!tB, !l1B) -> !l1T
      %a1s = "layout.tile"(%a1v, %c0, %c0) {shape = array<i64: 64, 64>} : (!l1T, index, index) -> !l1T
      %b1s = "layout.tile"(%b1v, %c0, %c0) {shape = array<i64: 64, 64>} : (!l1T, index, index) -> !l1T
      %a0v = "layout.load"(%a1s, %a0) : (!l1T, !l0A) -> !l0aT
      %b0v = "layout.load"(%b1s, %b0) : (!l1T, !l0B) -> !l0bT
      "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0aT, !l0bT, !l0C) -> ()
      %kv = arith.minsi %c128, %K : index
      scf.for %kk = %c64 to %kv step %c64 {
        %a1s_1 = "layout.tile"(%a1v, %c0, %kk) {shape = array<i64: 64, 64>} : (!l1T, index, index) -> !l1T
        %b1s_1 = "layout.tile"(%b1v, %kk, %c0) {shape = array<i64: 64, 64>} : (!l1T, index, index) -> !l1T
        %a0v_1 = "layout.load"(%a1s_1, %a0) : (!l1T, !l0A) -> !l0aT
        %b0v_1 = "layout.load"(%b1s_1, %b0) : (!l1T, !l0B) -> !l0bT
        "layout.matmul"(%a0v_1, %b0v_1, %acc) {accumulate = true} : (!l0aT, !l0bT, !l0C) -> ()
      }
      scf.for %k = %c128 to %K step %c128 {
        %ta_1 = "layout.tile"(%ga, %m0_1, %k) {shape = array<i64: 64, 128>} : (!gmA, index, index) -> !tA
        %tb_1 = "layout.tile"(%gb, %k, %n0_1) {shape = array<i64: 128, 64>} : (!gmB, index, index) -> !tB
        %a1v_1 = "layout.load"(%ta_1, %a1) : (!tA, !l1A) -> !l1T
        %b1v_1 = "layout.load"(%tb_1, %b1) : (!tB, !l1B) -> !l1T
        %kv_1 = arith.subi %K, %k : index
        %kv_2 = arith.minsi %c128, %kv_1 : index
        scf.for %kk_1 = %c0 to %kv_2 step %c64 {
          %a1s_2 = "layout.tile"(%a1v_1, %c0, %kk_1) {shape = array<i64: 64, 64>} : (!l1T, index, index) -> !l1T
          %b1s_2 = "layout.tile"(%b1v_1, %kk_1, %c0) {shape = array<i64: 64, 64>} : (!l1T, index, index) -> !l1T
          %a0v_2 = "layout.load"(%a1s_2, %a0) : (!l1T, !l0A) -> !l0aT
          %b0v_2 = "layout.load"(%b1s_2, %b0) : (!l1T, !l0B) -> !l0bT
          "layout.matmul"(%a0v_2, %b0v_2, %acc) {accumulate = true} : (!l0aT, !l0bT, !l0C) -> ()
        }
      }
      %tc = "layout.tile"(%gc, %m0_1, %n0_1) {shape = array<i64: 64, 64>} : (!gmC, index, index) -> !tC
      "layout.store"(%acc, %tc) : (!l0C, !tC) -> ()
    }
    return
  }
}
