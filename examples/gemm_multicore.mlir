// The dynamic-K GEMM of examples/gemm_dynamic_k.mlir distributed over the AI cores, on Atlas
// A2 (target "a2"):
//
//   C (M x N, f32, row-major) = A (M x K, f16, row-major) x B (K x N, f16, row-major)
//
// The C tile grid (128 x 256 tiles, ceil(M/128) x ceil(N/256) of them) is a list of tasks;
// block b of blockDim computes tasks b, b + blockDim, ... (`scf.for %t = %bid to %tiles step
// %bnum`), so no two blocks write the same C bytes (the sanitizer's racecheck checks it) and
// blocks past the task count do nothing. Task t becomes a tile (m, n) by the schedule the last
// two arguments choose, catlass `DynamicGemmIdentityBlockSwizzle` (offset, direction):
//   direction 0 (Zn) / 1 (Nz): bands of `offset` tile rows / columns, walked across first, every
//                              other band backwards (the formula: layout_algebra::ascend::swizzle,
//                              TileOrder::Swizzle; written here as index arithmetic)
//   any other direction:       linear, row-major over the grid (TileOrder::Linear)
// Each tile is the dynamic-K tile loop of gemm_dynamic_k.mlir: K in 64-wide slices, slice 0
// overwrites the accumulator, tails in M, N and K clipped by the layout algebra, every copy read
// through the view of what it wrote.
//
// Run: layout-run examples/gemm_multicore.mlir --entry gemm_multicore --block-dim 24
//        --input 0=A.npy --input 1=B.npy --input 2=C.npy --arg 3=M --arg 4=N --arg 5=K
//        --arg 6=OFFSET --arg 7=DIRECTION

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
  func.func @gemm_multicore(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf32>,
                            %M: index, %N: index, %K: index, %offset: index, %direction: index)
                            attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
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
    // The tile grid and this block's share of it.
    %tm = arith.ceildivsi %M, %c128 : index
    %tn = arith.ceildivsi %N, %c256 : index
    %tiles = arith.muli %tm, %tn : index
    %bid = "layout.block_idx"() : () -> index
    %bnum = "layout.block_num"() : () -> index
    scf.for %t = %bid to %tiles step %bnum {
      // Linear: row-major over the grid.
      %lm = arith.divsi %t, %tn : index
      %ln = arith.remsi %t, %tn : index
      // Zn: bands of %offset tile rows, m fastest inside a band, odd bands backwards in n.
      %zspan = arith.muli %offset, %tn : index
      %zband = arith.divsi %t, %zspan : index
      %zin = arith.remsi %t, %zspan : index
      %zfirst = arith.muli %zband, %offset : index
      %zleft = arith.subi %tm, %zfirst : index
      %zwidth = arith.minsi %offset, %zleft : index
      %zshort = arith.remsi %zin, %zwidth : index
      %zm = arith.addi %zfirst, %zshort : index
      %zlong = arith.divsi %zin, %zwidth : index
      %zpar = arith.remsi %zband, %c2 : index
      %zodd = arith.cmpi eq, %zpar, %c1 : index
      %zlast = arith.subi %tn, %c1 : index
      %zback = arith.subi %zlast, %zlong : index
      %zn = arith.select %zodd, %zback, %zlong : index
      // Nz: the same with the roles of m and n exchanged.
      %nspan = arith.muli %offset, %tm : index
      %nband = arith.divsi %t, %nspan : index
      %nin = arith.remsi %t, %nspan : index
      %nfirst = arith.muli %nband, %offset : index
      %nleft = arith.subi %tn, %nfirst : index
      %nwidth = arith.minsi %offset, %nleft : index
      %nshort = arith.remsi %nin, %nwidth : index
      %nn = arith.addi %nfirst, %nshort : index
      %nlong = arith.divsi %nin, %nwidth : index
      %npar = arith.remsi %nband, %c2 : index
      %nodd = arith.cmpi eq, %npar, %c1 : index
      %nlast = arith.subi %tm, %c1 : index
      %nback = arith.subi %nlast, %nlong : index
      %nm = arith.select %nodd, %nback, %nlong : index
      // The schedule of %direction.
      %is_zn = arith.cmpi eq, %direction, %c0 : index
      %is_nz = arith.cmpi eq, %direction, %c1 : index
      %snm = arith.select %is_nz, %nm, %lm : index
      %snn = arith.select %is_nz, %nn, %ln : index
      %mi = arith.select %is_zn, %zm, %snm : index
      %ni = arith.select %is_zn, %zn, %snn : index
      %m0 = arith.muli %mi, %c128 : index
      %n0 = arith.muli %ni, %c256 : index
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
    return
  }
}
