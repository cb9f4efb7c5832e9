// Golden test of the Fixpipe epilogues (docs/ascendc-derivation.md §12): `layout.store` with
// `relu = true, scale = 0.25 : f32` from an i32 L0C tile is DEQF16 with reluEn and
// deqScalar = bits(0.25f) = 0x3E800000 = 1048576000; f32 -> bf16 with `relu = true` is F322BF16
// with reluEn. m = 40, n = 24 are tails of the 16x16 L0C fractals (srcStride = align(40,16) = 48).
// The old lowering dropped both attributes (reluEn = false, and i32 -> f16 was unsupported).
// RUN: layout-opt --split-input-file --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s --check-prefix=CPP
// RUN: layout-opt --split-input-file --layout-lower-to-ascendc --emit=ascendc-llvm %s | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt --split-input-file --layout-lower-to-ascendc %s | FileCheck %s --check-prefix=IR

// CPP-LABEL: gemm_deq(
// CPP: AscendC::FixpipeParamsV220 p5;
// CPP-NEXT: p5.nSize = 24;
// CPP-NEXT: p5.mSize = 40;
// CPP-NEXT: p5.srcStride = 48;
// CPP-NEXT: p5.dstStride = 24;
// CPP-NEXT: p5.reluEn = true;  // ReLU (layout.store relu = true): results below zero become +0
// CPP-NEXT: p5.quantPre = AscendC::QuantMode_t::DEQF16;
// CPP-NEXT: p5.deqScalar = 1048576000;  // DEQF16 scale: its f32 bits (layout.store scale)
// CPP-NEXT: p5.ndNum = 1;
// CPP: AscendC::Fixpipe<half, int32_t, AscendC::CFG_ROW_MAJOR>(arg2Gm[0], co1[0], p5);
// CPP-LABEL: gemm_bf16_relu(
// CPP: p5.reluEn = true;
// CPP-NEXT: p5.quantPre = AscendC::QuantMode_t::F322BF16;
// CPP-NEXT: p5.deqScalar = 0;
// CPP: AscendC::Fixpipe<bfloat16_t, float, AscendC::CFG_ROW_MAJOR>(arg2Gm[0], co1[0], p5);

// The ABI struct: reluEn (i8 at byte 12) = 1, quantPre (i32 at 16) = 3 (ASCENDC_MODEL_QUANT_DEQF16),
// deqScalar (i64 at 24) = 1048576000; dtypes f16 (1) from i32 (5).
// LLVM-LABEL: define void @gemm_deq(
// LLVM: [[RELU:%[0-9]+]] = getelementptr inbounds nuw i8, ptr [[P:%[0-9]+]], i64 12
// LLVM-NEXT: store i8 1, ptr [[RELU]]
// LLVM-NEXT: [[Q:%[0-9]+]] = getelementptr inbounds nuw i8, ptr [[P]], i64 16
// LLVM-NEXT: store i32 3, ptr [[Q]]
// LLVM-NEXT: [[D:%[0-9]+]] = getelementptr inbounds nuw i8, ptr [[P]], i64 24
// LLVM-NEXT: store i64 1048576000, ptr [[D]]
// LLVM: call i32 @ascendc_model_fixpipe_nz2nd(ptr %{{[0-9]+}}, ptr nonnull @ascendc_l0c, i32 1, i32 5, ptr nonnull [[P]], i32 2201)
// LLVM-LABEL: define void @gemm_bf16_relu(
// LLVM: [[RELU2:%[0-9]+]] = getelementptr inbounds nuw i8, ptr [[P2:%[0-9]+]], i64 12
// LLVM-NEXT: store i8 1, ptr [[RELU2]]
// LLVM-NEXT: [[Q2:%[0-9]+]] = getelementptr inbounds nuw i8, ptr [[P2]], i64 16
// LLVM-NEXT: store i32 2, ptr [[Q2]]
// LLVM: call i32 @ascendc_model_fixpipe_nz2nd(ptr %{{[0-9]+}}, ptr nonnull @ascendc_l0c, i32 2, i32 3, ptr nonnull [[P2]], i32 2201)

// IR-LABEL: func.func @gemm_deq
// IR: "ascendc.fixpipe"
// IR-SAME: deqScalar = 1048576000 : i64
// IR-SAME: quantPre = "DEQF16", reluEn = true
// IR-LABEL: func.func @gemm_bf16_relu
// IR: "ascendc.fixpipe"
// IR-SAME: deqScalar = 0 : i64
// IR-SAME: quantPre = "F322BF16", reluEn = true

module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_deq(%A: memref<2560xi8>, %B: memref<1536xi8>, %C: memref<960xf16>) attributes {llvm.emit_c_interface} {
    %ga = "layout.view"(%A) : (memref<2560xi8>) -> !layout.tensor<i8, "gm", "ND", "(40,64)">
    %gb = "layout.view"(%B) : (memref<1536xi8>) -> !layout.tensor<i8, "gm", "DN", "(64,24)">
    %gc = "layout.view"(%C) : (memref<960xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,24)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(40,64)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "ZN", "(64,24)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0a", "ZZ", "(40,64)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0b", "ZN", "(64,24)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(40,24)">
    "layout.load"(%ga, %a1) : (!layout.tensor<i8, "gm", "ND", "(40,64)">, !layout.tensor<i8, "l1", "NZ", "(40,64)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<i8, "gm", "DN", "(64,24)">, !layout.tensor<i8, "l1", "ZN", "(64,24)">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<i8, "l1", "NZ", "(40,64)">, !layout.tensor<i8, "l0a", "ZZ", "(40,64)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<i8, "l1", "ZN", "(64,24)">, !layout.tensor<i8, "l0b", "ZN", "(64,24)">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<i8, "l0a", "ZZ", "(40,64)">, !layout.tensor<i8, "l0b", "ZN", "(64,24)">, !layout.tensor<i32, "l0c", "NZ", "(40,24)">) -> ()
    "layout.store"(%c0, %gc) {relu = true, scale = 2.500000e-01 : f32} : (!layout.tensor<i32, "l0c", "NZ", "(40,24)">, !layout.tensor<f16, "gm", "ND", "(40,24)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_bf16_relu(%A: memref<2560xf16>, %B: memref<1536xf16>, %C: memref<960xbf16>) attributes {llvm.emit_c_interface} {
    %ga = "layout.view"(%A) : (memref<2560xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,64)">
    %gb = "layout.view"(%B) : (memref<1536xf16>) -> !layout.tensor<f16, "gm", "DN", "(64,24)">
    %gc = "layout.view"(%C) : (memref<960xbf16>) -> !layout.tensor<bf16, "gm", "ND", "(40,24)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(40,64)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "ZN", "(64,24)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(40,64)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,24)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(40,24)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(40,64)">, !layout.tensor<f16, "l1", "NZ", "(40,64)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f16, "gm", "DN", "(64,24)">, !layout.tensor<f16, "l1", "ZN", "(64,24)">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<f16, "l1", "NZ", "(40,64)">, !layout.tensor<f16, "l0a", "ZZ", "(40,64)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<f16, "l1", "ZN", "(64,24)">, !layout.tensor<f16, "l0b", "ZN", "(64,24)">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(40,64)">, !layout.tensor<f16, "l0b", "ZN", "(64,24)">, !layout.tensor<f32, "l0c", "NZ", "(40,24)">) -> ()
    "layout.store"(%c0, %gc) {relu = true} : (!layout.tensor<f32, "l0c", "NZ", "(40,24)">, !layout.tensor<bf16, "gm", "ND", "(40,24)">) -> ()
    return
  }
}
