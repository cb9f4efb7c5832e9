// --verify-each[=BOOL]: MLIR's verifier after every pass (mlir-opt's default), or, without it,
// once after the last pass (LAYOUT_OPT_VERIFY_EACH=1 turns it on too; the suite sets that, and
// an explicit flag wins). The output is the same either way.
// RUN: layout-opt %s --default-pipeline --verify-each -o %t.each
// RUN: layout-opt %s --default-pipeline --verify-each=false -o %t.once
// RUN: env LAYOUT_OPT_VERIFY_EACH=0 layout-opt %s --default-pipeline -o %t.env
// RUN: diff %t.each %t.once
// RUN: diff %t.each %t.env
// RUN: FileCheck %s < %t.once
// RUN: not layout-opt %s --verify-each=maybe 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @copy_nd_nz
// CHECK: return
// BAD: error: invalid value 'maybe' for '--verify-each[=<BOOL>]'
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
