// The range facts of an enclosing `scf.for` reach the AscendC lowering through any index
// arithmetic on the loop variable, and only facts the loop proves count:
// - @shifted: the column `k + 16` with `k ∈ {0, 64, 128}` is ≡ 16 (mod 64): the L1 offset is
//   `(k + 16) * 128` (no division) and "multiple of 16" is proven from the loop;
// - @step8: with step 8 the column may be 8, 24, ...: the split into fractal column and row
//   stays and the alignment is still a run-time assumption; the loop proves the column
//   non-negative, so the split is a shift, not a division (the one index emitter,
//   `passes/src/index_arith.rs`, chooses ops with the facts), and the column-in-fractal mask
//   is gone: `k mod 16 + (k floordiv 16)·2048 = k + (k floordiv 16)·2032` (rule R3), also in
//   the C++ form.
// (The L1 panel is loaded whole first: the slices read what it wrote, layout-verify R1.)
// RUN: layout-opt --layout-lower-to-ascendc %s | FileCheck %s
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s --check-prefix=CPP

// CHECK-LABEL: func.func @shifted
// CHECK: scf.for %[[K:.*]] = %c0 to %c192 step %c64 {
// CHECK-NEXT: %[[COL:.*]] = arith.addi %[[K]], %c16 : index
// CHECK-NEXT: %[[C128:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[OFF:.*]] = arith.muli %[[COL]], %[[C128]] : index
// CHECK-NEXT: "ascendc.load_data_2d"(%{{.*}}, %{{.*}}, %[[OFF]], %[[COL]]) {dyn_fields = [{{.*}}], notes = {dst = {{.*}}"proven from the loop" = "LoadData(LoadData2DParams).src col coordinate = {{.*}} multiple of 16;
// CHECK-LABEL: func.func @step8
// CHECK: scf.for %[[K8:.*]] = %c0 to %c192 step %c8 {
// CHECK-NOT: arith.divsi
// CHECK: %[[Q8:.*]] = arith.shrui %[[K8]]
// CHECK-NOT: arith.remsi
// CHECK: %[[S8:.*]] = arith.constant 2032 : index
// CHECK-NEXT: %[[QS8:.*]] = arith.muli %[[Q8]], %[[S8]] : index
// CHECK-NEXT: arith.addi %[[K8]], %[[QS8]] : index
// CHECK: "ascendc.load_data_2d"({{.*}}assumes = "LoadData(LoadData2DParams).src col coordinate = {{.*}} multiple of 16;

// CPP: for (int64_t i0 = 0; i0 < 192; i0 += 64) {
// CPP-NEXT: const int64_t v0 = i0 + 16;
// CPP-NEXT: const int64_t v1 = v0 * 128;
// CPP-NOT: assumes
// CPP: //   proven from the loop: LoadData(LoadData2DParams).src col coordinate = v0 multiple of 16
// CPP: for (int64_t i0 = 0; i0 < 192; i0 += 8) {
// CPP-NEXT: const int64_t v0 = int64_t(uint64_t(i0) >> 4);
// CPP-NEXT: const int64_t v1 = v0 * 2032;
// CPP-NEXT: const int64_t v2 = i0 + v1;
// CPP: //   assumes: LoadData(LoadData2DParams).src col coordinate = i0 multiple of 16

!gmA = !layout.tensor<f16, "gm", "ND", "(128,256)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(128,256)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @shifted(%A: memref<32768xf16>) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c192 = arith.constant 192 : index
    %ga = "layout.view"(%A) : (memref<32768xf16>) -> !gmA
    %a1 = "layout.alloc"() : () -> !l1A
    %a1v = "layout.load"(%ga, %a1) : (!gmA, !l1A) -> !l1T
    %a0 = "layout.alloc"() : () -> !l0A
    scf.for %k = %c0 to %c192 step %c64 {
      %col = arith.addi %k, %c16 : index
      %t = "layout.tile"(%a1v, %c0, %col) {shape = array<i64: 128, 64>} : (!l1T, index, index) -> !l1T
      "layout.load"(%t, %a0) : (!l1T, !l0A) -> ()
    }
    return
  }
  func.func @step8(%A: memref<32768xf16>) {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %c192 = arith.constant 192 : index
    %ga = "layout.view"(%A) : (memref<32768xf16>) -> !gmA
    %a1 = "layout.alloc"() : () -> !l1A
    %a1v = "layout.load"(%ga, %a1) : (!gmA, !l1A) -> !l1T
    %a0 = "layout.alloc"() : () -> !l0A
    scf.for %k = %c0 to %c192 step %c8 {
      %t = "layout.tile"(%a1v, %c0, %k) {shape = array<i64: 128, 64>} : (!l1T, index, index) -> !l1T
      "layout.load"(%t, %a0) : (!l1T, !l0A) -> ()
    }
    return
  }
}
