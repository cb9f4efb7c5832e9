// Golden test of the atomic-add store (`layout.store {atomic = "add"}`, split-K's store;
// docs/ascendc-derivation.md §14): the Fixpipe is bracketed by SetAtomicAdd<T>() of the GM
// destination's type and SetAtomicNone(); the LLVM form calls the model's C ABI with the dtype
// code (f32 = 3, f16 = 1). The Fixpipe's parameters are those of a plain store.
// RUN: layout-opt --split-input-file --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s --check-prefix=CPP
// RUN: layout-opt --split-input-file --layout-lower-to-ascendc --emit=ascendc-llvm %s | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt --split-input-file --layout-lower-to-ascendc %s | FileCheck %s --check-prefix=IR

// CPP-LABEL: gemm_add_f32(
// CPP: AscendC::SetAtomicAdd<float>();  // the next Fixpipe adds into GM
// CPP-NEXT: // FixpipeParamsV220
// CPP: p5.quantPre = AscendC::QuantMode_t::NoQuant;
// CPP: AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(arg2Gm[0], co1[0], p5);
// CPP-NEXT: AscendC::SetAtomicNone();
// CPP-LABEL: gemm_add_f16(
// CPP: AscendC::SetAtomicAdd<half>();
// CPP: p5.quantPre = AscendC::QuantMode_t::F322F16;
// CPP: AscendC::Fixpipe<half, float, AscendC::CFG_ROW_MAJOR>(arg2Gm[0], co1[0], p5);
// CPP-NEXT: AscendC::SetAtomicNone();

// LLVM-LABEL: define void @gemm_add_f32(
// LLVM: call void @ascendc_model_set_atomic_add(i32 3)
// LLVM: call i32 @ascendc_model_fixpipe_nz2nd(ptr %{{[0-9]+}}, ptr nonnull @ascendc_l0c, i32 3, i32 3,
// LLVM: call void @ascendc_model_set_atomic_none()
// LLVM-LABEL: define void @gemm_add_f16(
// LLVM: call void @ascendc_model_set_atomic_add(i32 1)
// LLVM: call i32 @ascendc_model_fixpipe_nz2nd(ptr %{{[0-9]+}}, ptr nonnull @ascendc_l0c, i32 1, i32 3,
// LLVM: call void @ascendc_model_set_atomic_none()

// IR-LABEL: func.func @gemm_add_f32
// IR: "ascendc.fixpipe"
// IR-SAME: atomic = "add"
// IR-LABEL: func.func @gemm_add_f16
// IR: "ascendc.fixpipe"
// IR-SAME: atomic = "add"

module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_add_f32(%A: memref<2560xf16>, %B: memref<1536xf16>, %C: memref<960xf32>) attributes {llvm.emit_c_interface} {
    %ga = "layout.view"(%A) : (memref<2560xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,64)">
    %gb = "layout.view"(%B) : (memref<1536xf16>) -> !layout.tensor<f16, "gm", "DN", "(64,24)">
    %gc = "layout.view"(%C) : (memref<960xf32>) -> !layout.tensor<f32, "gm", "ND", "(40,24)">
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
    "layout.store"(%c0, %gc) {atomic = "add"} : (!layout.tensor<f32, "l0c", "NZ", "(40,24)">, !layout.tensor<f32, "gm", "ND", "(40,24)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_add_f16(%A: memref<2560xf16>, %B: memref<1536xf16>, %C: memref<960xf16>) attributes {llvm.emit_c_interface} {
    %ga = "layout.view"(%A) : (memref<2560xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,64)">
    %gb = "layout.view"(%B) : (memref<1536xf16>) -> !layout.tensor<f16, "gm", "DN", "(64,24)">
    %gc = "layout.view"(%C) : (memref<960xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,24)">
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
    "layout.store"(%c0, %gc) {atomic = "add"} : (!layout.tensor<f32, "l0c", "NZ", "(40,24)">, !layout.tensor<f16, "gm", "ND", "(40,24)">) -> ()
    return
  }
}
