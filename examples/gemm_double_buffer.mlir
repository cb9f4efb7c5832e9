// examples/gemm_dynamic_k.mlir double-buffered: what `layout-multi-buffer` makes of it, written
// out (a test checks that the pass prints exactly this module from the single-buffered one).
//
//   C (M x N, f32, row-major) = A (M x K, f16, row-major) x B (K x N, f16, row-major), on a2
//
// Every L1 and L0A/L0B buffer has a second one (%a1p, %b1p, %a0p, %b0p, allocated right after
// it), and the K loop takes two 64-wide slices per iteration: slice k in the second buffers,
// slice k + 64 in the first ones under `scf.if` (absent when K has an odd number of slices). K
// slice 0, peeled before the loop, uses the first buffers, so consecutive slices always use
// different buffers. The lowering gives each buffer its own byte range, so the sync pass sees
// no conflict between consecutive slices: the DataCopy of slice k + 1 waits only for the
// LoadData that read the same L1 buffer two slices earlier, not for the Mmad of slice k
// (docs/ascendc-derivation.md, "Double buffering"). Reads still go through the view each load
// returns (rule R1); the budget (four 16 KiB / 32 KiB L1 panels, 2 x 16 KiB of L0A, 2 x 32 KiB
// of L0B = all of it, 128 KiB of L0C) is checked by the pass and by the lowering's placement.
//
// Run: layout-run examples/gemm_double_buffer.mlir --entry gemm_double_buffer --input 0=A.npy
//        --input 1=B.npy --input 2=C.npy --arg 3=M --arg 4=N --arg 5=K [--backend ascendc-cpp --sanitize]

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
  func.func @gemm_double_buffer(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>,
                                %M: index, %N: index, %K: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %ga = "layout.view"(%A, %M, %K) : (memref<?x?xf16>, index, index) -> !gmA
    %gb = "layout.view"(%B, %K, %N) : (memref<?x?xf16>, index, index) -> !gmB
    %gc = "layout.view"(%C, %M, %N) : (memref<?x?xf32>, index, index) -> !gmC
    %a1 = "layout.alloc"() : () -> !l1A
    %a1p = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %b1p = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %a0p = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %b0p = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    scf.for %m0 = %c0 to %M step %c128 {
      scf.for %n0 = %c0 to %N step %c256 {
        // K slice 0 (first buffers) overwrites the accumulator.
        %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 128, 64>} : (!gmA, index, index) -> !gm16
        %tb = "layout.tile"(%gb, %c0, %n0) {shape = array<i64: 64, 256>} : (!gmB, index, index) -> !gm16
        %a1v = "layout.load"(%ta, %a1) : (!gm16, !l1A) -> !l1
        %b1v = "layout.load"(%tb, %b1) : (!gm16, !l1B) -> !l1
        %a0v = "layout.load"(%a1v, %a0) : (!l1, !l0A) -> !l0a
        %b0v = "layout.load"(%b1v, %b0) : (!l1, !l0B) -> !l0b
        "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0a, !l0b, !l0C) -> ()
        // Two slices per iteration; the last one is clipped at K.
        %c128_0 = arith.constant 128 : index
        scf.for %k = %c64 to %K step %c128_0 {
          // Slice k: second buffers.
          %tak = "layout.tile"(%ga, %m0, %k) {shape = array<i64: 128, 64>} : (!gmA, index, index) -> !gm16
          %tbk = "layout.tile"(%gb, %k, %n0) {shape = array<i64: 64, 256>} : (!gmB, index, index) -> !gm16
          %a1k = "layout.load"(%tak, %a1p) : (!gm16, !l1A) -> !l1
          %b1k = "layout.load"(%tbk, %b1p) : (!gm16, !l1B) -> !l1
          %a0k = "layout.load"(%a1k, %a0p) : (!l1, !l0A) -> !l0a
          %b0k = "layout.load"(%b1k, %b0p) : (!l1, !l0B) -> !l0b
          "layout.matmul"(%a0k, %b0k, %acc) {accumulate = true} : (!l0a, !l0b, !l0C) -> ()
          // Slice k + 64, if K has it: first buffers.
          %k1 = arith.addi %k, %c64 : index
          %more = arith.cmpi slt, %k1, %K : index
          scf.if %more {
            %tak1 = "layout.tile"(%ga, %m0, %k1) {shape = array<i64: 128, 64>} : (!gmA, index, index) -> !gm16
            %tbk1 = "layout.tile"(%gb, %k1, %n0) {shape = array<i64: 64, 256>} : (!gmB, index, index) -> !gm16
            %a1k1 = "layout.load"(%tak1, %a1) : (!gm16, !l1A) -> !l1
            %b1k1 = "layout.load"(%tbk1, %b1) : (!gm16, !l1B) -> !l1
            %a0k1 = "layout.load"(%a1k1, %a0) : (!l1, !l0A) -> !l0a
            %b0k1 = "layout.load"(%b1k1, %b0) : (!l1, !l0B) -> !l0b
            "layout.matmul"(%a0k1, %b0k1, %acc) {accumulate = true} : (!l0a, !l0b, !l0C) -> ()
          }
        }
        %tc = "layout.tile"(%gc, %m0, %n0) {shape = array<i64: 128, 256>} : (!gmC, index, index) -> !gm32
        "layout.store"(%acc, %tc) : (!l0C, !gm32) -> ()
      }
    }
    return
  }
}
