// scripts/bench-pipeline: one 128 x 256 panel of a dynamic-M f16 ND matrix, GM -> L1 NZ
// (the CATLASS DSL's `copy_nd_nz` in catlass_dsl_kernels.py).
!gmA = !layout.tensor<f16, "gm", "ND", "(?,256)">
!gmT = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(128,256)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @copy_nd_nz(%A: memref<?x256xf16>, %M: index, %m0: index) {
    %c0 = arith.constant 0 : index
    %ga = "layout.view"(%A, %M) : (memref<?x256xf16>, index) -> !gmA
    %ta = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 128, 256>} : (!gmA, index, index) -> !gmT
    %a1 = "layout.alloc"() : () -> !l1A
    %a1v = "layout.load"(%ta, %a1) : (!gmT, !l1A) -> !l1T
    return
  }
}
