// Placement per function, with liveness (issue 11 item 6).
// RUN: layout-opt --split-input-file --layout-lower-to-ascendc %s | FileCheck %s
// RUN: layout-opt --split-input-file --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s --check-prefix=CPP

// Two GEMMs in sequence in one function: each holds 384 KiB of L1 (A 128x768 and B 768x128
// f16, 192 KiB each), 768 KiB together, more than the 512 KiB of a2. The second one's buffers
// are live only after the first one's last access, so they get the same addresses (bump
// allocation over the function overflowed L1 at its B panel). The shared bytes are ordered:
// the second GM -> L1 copy (MTE2) waits for the first L1 -> L0 loads (MTE1), the second
// L1 -> L0A load waits for the first Mmad (M), the second Mmad for the first Fixpipe (FIX).
// CHECK-LABEL: func.func @two_gemms
// CHECK: "ascendc.alloc"() {layout = "((16,8),(16,48)):((16,256),(1,2048)) origin (128,768)", offset = 0 : i64, size = 196608 : i64}
// CHECK-NEXT: "ascendc.alloc"() {layout = "((16,48),(16,8)):((16,256),(1,12288)) origin (768,128)", offset = 196608 : i64, size = 196608 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 16384 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 16384 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK: "ascendc.fixpipe"
// CHECK: "ascendc.alloc"() {layout = "((16,8),(16,48)):((16,256),(1,2048)) origin (128,768)", offset = 0 : i64, size = 196608 : i64}
// CHECK-NEXT: "ascendc.alloc"() {layout = "((16,48),(16,8)):((16,256),(1,12288)) origin (768,128)", offset = 196608 : i64, size = 196608 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 16384 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 16384 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}

// CPP-LABEL: void two_gemms(
// CPP: AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1Allocator;
// CPP: AscendC::LocalTensor<half> a1 = l1Allocator.Alloc<AscendC::TPosition::A1, half>(98304);
// CPP: AscendC::LocalTensor<half> b1 = l1Allocator.Alloc<AscendC::TPosition::B1, half>(98304);
// CPP: AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1Allocator1;
// CPP-NEXT: // L1 bytes [0, 196608)
// CPP-NEXT: AscendC::LocalTensor<half> a11 = l1Allocator1.Alloc<AscendC::TPosition::A1, half>(98304);
// CPP: AscendC::LocalTensor<half> b11 = l1Allocator1.Alloc<AscendC::TPosition::B1, half>(98304);
// CPP: AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(arg2Gm[0], co1[0], p5);
// CPP: AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID{{[0-9]}});
// CPP-NOT: AscendC::DataCopy(
// CPP: AscendC::DataCopy(a11[0], arg3Gm[0], p6);
// CPP: AscendC::WaitFlag<AscendC::HardEvent::MTE1_MTE2>(EVENT_ID{{[0-9]}});
// CPP-NOT: AscendC::DataCopy(
// CPP: AscendC::DataCopy(b11[0], arg4Gm[0], p7);
// CPP: AscendC::WaitFlag<AscendC::HardEvent::M_MTE1>(EVENT_ID{{[0-9]}});
// CPP: AscendC::LoadData(a21[{{.*}}], a11[{{.*}}], p8);
// CPP: AscendC::WaitFlag<AscendC::HardEvent::FIX_M>(EVENT_ID{{[0-9]}});
// CPP: AscendC::Mmad(co11[0], a21[0], b21[0], p10);
module attributes {layout.target = #layout.target<"a2">} {
  func.func @two_gemms(%A1: memref<98304xf16>, %B1: memref<98304xf16>, %C1: memref<16384xf32>, %A2: memref<98304xf16>, %B2: memref<98304xf16>, %C2: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<98304xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,768)">
    %gb1 = "layout.view"(%B1) : (memref<98304xf16>) -> !layout.tensor<f16, "gm", "ND", "(768,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,768)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(768,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,768)">, !layout.tensor<f16, "l1", "NZ", "(128,768)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(768,128)">, !layout.tensor<f16, "l1", "NZ", "(768,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 64>} : (!layout.tensor<f16, "l1", "NZ", "(128,768)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 64, 128>} : (!layout.tensor<f16, "l1", "NZ", "(768,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,64)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(64,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,64)">, !layout.tensor<f16, "l0b", "ZN", "(64,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    %ga2 = "layout.view"(%A2) : (memref<98304xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,768)">
    %gb2 = "layout.view"(%B2) : (memref<98304xf16>) -> !layout.tensor<f16, "gm", "ND", "(768,128)">
    %gc2 = "layout.view"(%C2) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a12 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,768)">
    %b12 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(768,128)">
    %a02 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
    %b02 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,128)">
    %c02 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga2, %a12) : (!layout.tensor<f16, "gm", "ND", "(128,768)">, !layout.tensor<f16, "l1", "NZ", "(128,768)">) -> ()
    "layout.load"(%gb2, %b12) : (!layout.tensor<f16, "gm", "ND", "(768,128)">, !layout.tensor<f16, "l1", "NZ", "(768,128)">) -> ()
    %a1k2 = "layout.tile"(%a12, %c0, %c0) {shape = array<i64: 128, 64>} : (!layout.tensor<f16, "l1", "NZ", "(128,768)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k2 = "layout.tile"(%b12, %c0, %c0) {shape = array<i64: 64, 128>} : (!layout.tensor<f16, "l1", "NZ", "(768,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k2, %a02) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,64)">) -> ()
    "layout.load"(%b1k2, %b02) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(64,128)">) -> ()
    "layout.matmul"(%a02, %b02, %c02) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,64)">, !layout.tensor<f16, "l0b", "ZN", "(64,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c02, %gc2) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
}

// -----

// Twelve kernels in one module, each with 64 KiB of L1 and 32 KiB of L0A (a module-wide
// placement overflowed L0A at the third kernel): every kernel places its buffers from 0.
// CHECK-LABEL: func.func @k0(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k1(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k2(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k3(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k4(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k5(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k6(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k7(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k8(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k9(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k10(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
// CHECK-LABEL: func.func @k11(
// CHECK: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 32768 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 32768 : i64}
// CHECK-NEXT: "ascendc.alloc"() {{.*}} offset = 0 : i64, size = 65536 : i64}
module attributes {layout.target = #layout.target<"a2">} {
  func.func @k0(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k1(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k2(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k3(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k4(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k5(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k6(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k7(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k8(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k9(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k10(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
  func.func @k11(%A1: memref<16384xf16>, %B1: memref<16384xf16>, %C1: memref<16384xf32>) {
    %c0 = arith.constant 0 : index
    %ga1 = "layout.view"(%A1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gb1 = "layout.view"(%B1) : (memref<16384xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,128)">
    %gc1 = "layout.view"(%C1) : (memref<16384xf32>) -> !layout.tensor<f32, "gm", "ND", "(128,128)">
    %a11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %b11 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,128)">
    %a01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,128)">
    %b01 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(128,128)">
    %c01 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    "layout.load"(%ga1, %a11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    "layout.load"(%gb1, %b11) : (!layout.tensor<f16, "gm", "ND", "(128,128)">, !layout.tensor<f16, "l1", "NZ", "(128,128)">) -> ()
    %a1k1 = "layout.tile"(%a11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1k1 = "layout.tile"(%b11, %c0, %c0) {shape = array<i64: 128, 128>} : (!layout.tensor<f16, "l1", "NZ", "(128,128)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%a1k1, %a01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,128)">) -> ()
    "layout.load"(%b1k1, %b01) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">) -> ()
    "layout.matmul"(%a01, %b01, %c01) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,128)">, !layout.tensor<f16, "l0b", "ZN", "(128,128)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    "layout.store"(%c01, %gc1) : (!layout.tensor<f32, "l0c", "NZ", "(128,128)">, !layout.tensor<f32, "gm", "ND", "(128,128)">) -> ()
    return
  }
}
