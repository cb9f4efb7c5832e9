// scf.if in the AscendC path (issue 11 item 5): a K loop chooses the overwriting or the
// accumulating Mmad with `scf.if` on `arith.cmpi eq, k, 0`. The sync pass treats the scf.if as
// one item from outside: the MTE1 -> M wait goes before it, the back-edge M -> MTE1 set (the
// next iteration's L1 -> L0 loads overwrite what this Mmad reads) and the M -> FIX pair after
// it, so every flag is set and waited on both paths. Both printers keep the branch.
// RUN: layout-opt --layout-lower-to-ascendc %s | FileCheck %s --check-prefix=IR
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc-llvm %s | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt --layout-lower-to-ascendc --layout-print-sync-graph %s 2>&1 >/dev/null | FileCheck %s --check-prefix=DOT

// The graph of the loop body: the scf.if is one node per pipe, its regions are blocks of their own.
// DOT: label="block [2]";
// DOT: "b2_n2" [label="2 if [M]"];
// DOT: "b2_n1" -> "b2_n2" [label="RAW MTE1_M", color=red];
// DOT-NEXT: "b2_n2" -> "b2_n3" [label="WAR carried M_MTE1", color=red];
// DOT: label="block [2, 2, 0]";
// DOT-NEXT: "b2_2_0_n0" [label="0 mmad [M]"];
// DOT: label="block [2, 2, 1]";
// DOT-NEXT: "b2_2_1_n0" [label="0 mmad [M]"];

// IR-LABEL: func.func @gemm_if
// IR: "ascendc.set_flag"() {event = "M_MTE1", id = 0 : i64}
// IR-NEXT: scf.for
// IR: "ascendc.wait_flag"() {event = "M_MTE1", id = 0 : i64}
// IR: "ascendc.set_flag"() {event = "MTE1_M", id = 0 : i64}
// IR: arith.cmpi eq
// IR-NEXT: "ascendc.wait_flag"() {event = "MTE1_M", id = 0 : i64}
// IR-NEXT: scf.if
// IR-NEXT: "ascendc.mmad"({{.*}}cmatrixInitVal = true
// IR-NEXT: } else {
// IR-NEXT: "ascendc.mmad"({{.*}}cmatrixInitVal = false
// IR-NEXT: {{^ +}}}{{$}}
// IR-NEXT: "ascendc.set_flag"() {event = "M_MTE1", id = 0 : i64}
// IR-NEXT: {{^ +}}}{{$}}
// IR-NEXT: "ascendc.wait_flag"() {event = "M_MTE1", id = 0 : i64}
// IR-NEXT: "ascendc.set_flag"() {event = "M_FIX", id = 0 : i64}
// IR-NEXT: "ascendc.wait_flag"() {event = "M_FIX", id = 0 : i64}
// IR-NEXT: "ascendc.fixpipe"

// CHECK: AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
// CHECK-NEXT: for (int64_t i0 = 0; i0 < 128; i0 += 32) {
// CHECK-NEXT: const int64_t v0 = i0 * 32;
// CHECK-NEXT: AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
// CHECK: AscendC::LoadData(a2[r * 512], a1[v0 + r * 256], p2);
// CHECK: const int64_t v1 = i0 * 16;
// CHECK: AscendC::LoadData(b2[r * 512], b1[v1 + r * 256], p3);
// CHECK: AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
// CHECK-NEXT: const bool cond = i0 == 0;
// CHECK-NEXT: AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
// CHECK-NEXT: if (cond) {
// CHECK: p4.k = 32;
// CHECK: p4.cmatrixInitVal = true;
// CHECK-NEXT: AscendC::Mmad(co1[0], a2[0], b2[0], p4);
// CHECK-NEXT: } else {
// CHECK: p5.k = 32;
// CHECK: p5.cmatrixInitVal = false;
// CHECK-NEXT: AscendC::Mmad(co1[0], a2[0], b2[0], p5);
// CHECK-NEXT: }
// CHECK-NEXT: AscendC::SetFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
// CHECK-NEXT: }
// CHECK-NEXT: AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID0);
// CHECK-NEXT: AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
// CHECK-NEXT: AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);

// The LLVM form (pipes: M = 2, MTE1 = 3, FIX = 7): the flags around the Mmad in the loop and
// the comparison on the loop variable.
// LLVM: call void @ascendc_model_set_flag(i32 2, i32 3, i32 0)
// LLVM: call void @ascendc_model_wait_flag(i32 2, i32 3, i32 0)
// LLVM: call void @ascendc_model_set_flag(i32 3, i32 2, i32 0)
// LLVM-NEXT: icmp eq i64 %{{[0-9]+}}, 0
// LLVM-NEXT: call void @ascendc_model_wait_flag(i32 3, i32 2, i32 0)
// LLVM: call i32 @ascendc_model_mmad(
// LLVM-NEXT: call void @ascendc_model_set_flag(i32 2, i32 3, i32 0)
// LLVM: call void @ascendc_model_wait_flag(i32 2, i32 3, i32 0)
// LLVM-NEXT: call void @ascendc_model_set_flag(i32 2, i32 7, i32 0)
// LLVM-NEXT: call void @ascendc_model_wait_flag(i32 2, i32 7, i32 0)

!gmA = !layout.tensor<f16, "gm", "ND", "(32,128)">
!gmB = !layout.tensor<f16, "gm", "ND", "(128,32)">
!gmC = !layout.tensor<f32, "gm", "ND", "(32,32)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(32,128)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(128,32)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(32,32)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(32,32)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(32,32)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
// The `written` views of the L1 -> L0 loads (the buffer's layout, the extent written).
!l0Aw = !layout.tensor<f16, "l0a", "((16,2),(16,2)):((16,512),(1,256))", "(?,?)">
!l0Bw = !layout.tensor<f16, "l0b", "((16,2),(16,2)):((1,512),(16,256))", "(?,?)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_if(%A: memref<4096xf16>, %B: memref<4096xf16>, %C: memref<1024xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    %ga = "layout.view"(%A) : (memref<4096xf16>) -> !gmA
    %gb = "layout.view"(%B) : (memref<4096xf16>) -> !gmB
    %gc = "layout.view"(%C) : (memref<1024xf32>) -> !gmC
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    %a1w = "layout.load"(%ga, %a1) : (!gmA, !l1A) -> !l1A
    %b1w = "layout.load"(%gb, %b1) : (!gmB, !l1B) -> !l1B
    scf.for %k = %c0 to %c128 step %c32 {
      %a1k = "layout.tile"(%a1w, %c0, %k) {shape = array<i64: 32, 32>} : (!l1A, index, index) -> !l1T
      %b1k = "layout.tile"(%b1w, %k, %c0) {shape = array<i64: 32, 32>} : (!l1B, index, index) -> !l1T
      %a0w = "layout.load"(%a1k, %a0) : (!l1T, !l0A) -> !l0Aw
      %b0w = "layout.load"(%b1k, %b0) : (!l1T, !l0B) -> !l0Bw
      %first = arith.cmpi eq, %k, %c0 : index
      scf.if %first {
        "layout.matmul"(%a0w, %b0w, %acc) {accumulate = false} : (!l0Aw, !l0Bw, !l0C) -> ()
      } else {
        "layout.matmul"(%a0w, %b0w, %acc) {accumulate = true} : (!l0Aw, !l0Bw, !l0C) -> ()
      }
    }
    "layout.store"(%acc, %gc) : (!l0C, !gmC) -> ()
    return
  }
}
