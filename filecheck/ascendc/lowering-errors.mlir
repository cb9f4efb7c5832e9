// Every back end rejects what layout-verify rejects, and buffer sizes never wrap: the lowerings
// run the verifier's checks on their input, and byte counts are checked arithmetic.
// RUN: not layout-opt --split-input-file --layout-lower-to-ascendc --emit=ascendc %s 2>&1 | FileCheck %s --check-prefixes=CHECK,ASCENDC --implicit-check-not=__global__
// RUN: not layout-opt --split-input-file --layout-lower-to-ascendc --emit=ascendc-llvm %s 2>&1 | FileCheck %s --check-prefixes=CHECK,ASCENDC --implicit-check-not=ModuleID
// RUN: not layout-opt --split-input-file --emit=llvm %s 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS --implicit-check-not=ModuleID
// RUN: not layout-opt --split-input-file --layout-lower-to-loops %s 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS --implicit-check-not=func.func
// RUN: not layout-opt --split-input-file --default-pipeline %s 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS --implicit-check-not=func.func
// host-copies relaxes only the view-space and data-path rules: the memref size (V4) still holds.
// RUN: not layout-opt --split-input-file --pass-pipeline='builtin.module(layout-lower-to-loops{host-copies=true})' %s 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOPS --implicit-check-not=func.func

// examples/ascendc/gemm_f16.mlir with %B shrunk to memref<1xf16>: its view needs 1344 elements.
// The verifier's error (rule V4), once, at the view.
// CHECK: lowering-errors.mlir:[[@LINE+5]]:11: error: the layout (56,24):(24,1) spans 1344 elements but the memref has only 1
// CHECK-NOT: spans 1344 elements
module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_f16(%A: memref<2240xf16>, %B: memref<1xf16>, %C: memref<960xf32>) {
    %ga = "layout.view"(%A) : (memref<2240xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,56)">
    %gb = "layout.view"(%B) : (memref<1xf16>) -> !layout.tensor<f16, "gm", "ND", "(56,24)">
    %gc = "layout.view"(%C) : (memref<960xf32>) -> !layout.tensor<f32, "gm", "ND", "(40,24)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(40,56)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(56,24)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(40,56)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(56,24)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(40,24)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(40,56)">, !layout.tensor<f16, "l1", "NZ", "(40,56)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f16, "gm", "ND", "(56,24)">, !layout.tensor<f16, "l1", "NZ", "(56,24)">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<f16, "l1", "NZ", "(40,56)">, !layout.tensor<f16, "l0a", "ZZ", "(40,56)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<f16, "l1", "NZ", "(56,24)">, !layout.tensor<f16, "l0b", "ZN", "(56,24)">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(40,56)">, !layout.tensor<f16, "l0b", "ZN", "(56,24)">, !layout.tensor<f32, "l0c", "NZ", "(40,24)">) -> ()
    "layout.store"(%c0, %gc) : (!layout.tensor<f32, "l0c", "NZ", "(40,24)">, !layout.tensor<f32, "gm", "ND", "(40,24)">) -> ()
    return
  }
}

// -----

// An L1 NZ f16 buffer of 2^62 elements: 2^63 bytes leave i64 (the old code placed it as
// `L1 bytes [0, 0)` and allocated one element).
// ASCENDC: lowering-errors.mlir:[[@LINE+4]]:11: error: layout-lower-to-ascendc: L1 overflow: !layout.tensor<f16, "l1", "NZ", "(2147483648,2147483648)"> needs 4611686018427387904 elements of f16, more than 9223372036854775807 B, at offset 0 but L1 on a2 holds 524288 B
// LOOPS: lowering-errors.mlir:[[@LINE+3]]:11: error: !layout.tensor<f16, "l1", "NZ", "(2147483648,2147483648)"> needs 4611686018427387904 elements of f16, more bytes than i64 holds
module attributes {layout.target = #layout.target<"a2">} {
  func.func @huge() {
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(2147483648,2147483648)">
    return
  }
}

// -----

// Padded to (3037000512, 1518500256): 4611686054944131072 elements, whose bytes wrapped to a
// small count before.
// ASCENDC: lowering-errors.mlir:[[@LINE+4]]:11: error: layout-lower-to-ascendc: L1 overflow: !layout.tensor<f16, "l1", "NZ", "(3037000499,1518500249)"> needs 4611686054944131072 elements of f16, more than 9223372036854775807 B, at offset 0 but L1 on a2 holds 524288 B
// LOOPS: lowering-errors.mlir:[[@LINE+3]]:11: error: !layout.tensor<f16, "l1", "NZ", "(3037000499,1518500249)"> needs 4611686054944131072 elements of f16, more bytes than i64 holds
module attributes {layout.target = #layout.target<"a2">} {
  func.func @wraps() {
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(3037000499,1518500249)">
    return
  }
}
