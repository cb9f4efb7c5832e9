// The Mmad/Fixpipe unitFlag handshake (asc-devkit UnitFlag.md; docs/dialect.md layout.matmul):
// the matmul's optional index operand is its unitFlag (2 before the accumulation's last matmul,
// 3 on it), the store's `unit_flag = true` the Fixpipe's (3). Round trip, verifier, and the
// AscendC lowering: the flags reach MmadParams / FixpipeParamsV220 and the M_FIX event is gone
// (the handshake orders the Fixpipe after the last Mmad).
// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-ascendc --emit=ascendc | FileCheck %s --check-prefix=CPP

!gm = !layout.tensor<f32, "gm", "ND", "(128,256)">
!l0c = !layout.tensor<f32, "l0c", "NZ", "(128,256)">
!a0 = !layout.tensor<f16, "l0a", "NZ", "(128,16)">
!b0 = !layout.tensor<f16, "l0b", "ZN", "(16,256)">

// CHECK-LABEL: func.func @unit_flag
// CHECK: "layout.matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %[[KEEP:.*]]) {accumulate = false} : ({{.*}}, index) -> ()
// CHECK: "layout.matmul"(%{{.*}}, %{{.*}}, %{{.*}}, %[[REL:.*]]) {accumulate = true} : ({{.*}}, index) -> ()
// CHECK: "layout.store"(%{{.*}}, %{{.*}}) {unit_flag = true}

// CPP-NOT: HardEvent::M_FIX
// CPP: unitFlag = 2;
// CPP-NOT: HardEvent::M_FIX
// CPP: AscendC::Mmad(
// CPP-NOT: HardEvent::M_FIX
// CPP: unitFlag = 3;
// CPP-NOT: HardEvent::M_FIX
// CPP: AscendC::Mmad(
// CPP-NOT: HardEvent::M_FIX
// CPP: unitFlag = 3;
// CPP-NOT: HardEvent::M_FIX
// CPP: AscendC::Fixpipe<
// CPP-NOT: HardEvent::M_FIX
module attributes {layout.target = #layout.target<"a5">} {
  func.func @unit_flag(%m: memref<32768xf32>, %ma: memref<2048xf16>, %mb: memref<4096xf16>) {
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %g = "layout.view"(%m) : (memref<32768xf32>) -> !gm
    %ga = "layout.view"(%ma) : (memref<2048xf16>) -> !layout.tensor<f16, "gm", "NZ", "(128,16)">
    %gb = "layout.view"(%mb) : (memref<4096xf16>) -> !layout.tensor<f16, "gm", "DN", "(16,256)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,16)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "ZN", "(16,256)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "NZ", "(128,16)">, !layout.tensor<f16, "l1", "NZ", "(128,16)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f16, "gm", "DN", "(16,256)">, !layout.tensor<f16, "l1", "ZN", "(16,256)">) -> ()
    %a = "layout.alloc"() : () -> !a0
    %b = "layout.alloc"() : () -> !b0
    "layout.load"(%a1, %a) : (!layout.tensor<f16, "l1", "NZ", "(128,16)">, !a0) -> ()
    "layout.load"(%b1, %b) : (!layout.tensor<f16, "l1", "ZN", "(16,256)">, !b0) -> ()
    %c = "layout.alloc"() : () -> !l0c
    "layout.matmul"(%a, %b, %c, %c2) {accumulate = false} : (!a0, !b0, !l0c, index) -> ()
    "layout.matmul"(%a, %b, %c, %c3) {accumulate = true} : (!a0, !b0, !l0c, index) -> ()
    "layout.store"(%c, %g) {unit_flag = true} : (!l0c, !gm) -> ()
    return
  }
}
