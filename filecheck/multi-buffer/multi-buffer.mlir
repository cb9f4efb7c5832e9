// layout-multi-buffer (issue 12 item 2): a K loop streaming GM -> L1 -> L0A is unrolled by two;
// the first slice of each iteration uses second buffers allocated right after the originals,
// the second one (at k + 64, if k + 64 < K: an odd slice count ends in the first half) the
// originals. The lowered kernel gives each L1 buffer its own MTE1 -> MTE2 event id.
// RUN: layout-opt --layout-multi-buffer %s | FileCheck %s
// RUN: layout-opt --layout-multi-buffer --layout-verify %s | FileCheck %s
// RUN: layout-opt --layout-multi-buffer --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s --check-prefix=CPP

!gm = !layout.tensor<f16, "gm", "ND", "(?,?)">
!t = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!l1 = !layout.tensor<f16, "l1", "NZ", "(128,64)">
!l1v = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0 = !layout.tensor<f16, "l0a", "ZZ", "(128,64)">

// CHECK-LABEL: func.func @stream
// CHECK:      %[[L1:.*]] = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
// CHECK-NEXT: %[[L1P:.*]] = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
// CHECK-NEXT: %[[L0:.*]] = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
// CHECK-NEXT: %[[L0P:.*]] = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
// CHECK:      %[[S2:.*]] = arith.constant 128 : index
// CHECK-NEXT: scf.for %[[K:.*]] = %{{.*}} to %[[KMAX:.*]] step %[[S2]] {
// CHECK-NEXT:   %[[T:.*]] = "layout.tile"(%{{.*}}, %{{.*}}, %[[K]])
// CHECK-NEXT:   %[[W:.*]] = "layout.load"(%[[T]], %[[L1P]])
// CHECK-NEXT:   "layout.load"(%[[W]], %[[L0P]])
// CHECK-NEXT:   %[[K1:.*]] = arith.addi %[[K]], %{{.*}} : index
// CHECK-NEXT:   %[[MORE:.*]] = arith.cmpi slt, %[[K1]], %[[KMAX]] : index
// CHECK-NEXT:   scf.if %[[MORE]] {
// CHECK-NEXT:     %[[T1:.*]] = "layout.tile"(%{{.*}}, %{{.*}}, %[[K1]])
// CHECK-NEXT:     %[[W1:.*]] = "layout.load"(%[[T1]], %[[L1]])
// CHECK-NEXT:     "layout.load"(%[[W1]], %[[L0]])
// CHECK-NEXT:   }
// CHECK-NEXT: }

// One carried LoadData -> DataCopy pair per L1 buffer, each with its own id, set before the loop
// (the first iteration waits for nothing) and consumed after it.
// CPP:      SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
// CPP-NEXT: SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID1);
// CPP-NEXT: for (int64_t
// CPP:        WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
// CPP:        DataCopy(a11[0]
// CPP:        LoadData(a21[
// CPP:        SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
// CPP:        WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID1);
// CPP-NEXT:   if (cond) {
// CPP:          DataCopy(a1[0]
// CPP:          LoadData(a2[
// CPP:        SetFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID1);
// CPP:      WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID0);
// CPP-NEXT: WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID1);
module attributes {layout.target = #layout.target<"a2">} {
  func.func @stream(%A: memref<?x?xf16>, %K: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %g = "layout.view"(%A, %c128, %K) : (memref<?x?xf16>, index, index) -> !gm
    %l1 = "layout.alloc"() : () -> !l1
    %l0 = "layout.alloc"() : () -> !l0
    scf.for %k = %c0 to %K step %c64 {
      %t = "layout.tile"(%g, %c0, %k) {shape = array<i64: 128, 64>} : (!gm, index, index) -> !t
      %w = "layout.load"(%t, %l1) : (!t, !l1) -> !l1v
      "layout.load"(%w, %l0) : (!l1v, !l0) -> ()
    }
    return
  }
}
