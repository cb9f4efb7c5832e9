// Golden test of Fixpipe NZ2NZ (CFG_NZ): a GEMM tile storing C (f32) from L0C to GM NZ with
// C0 = 8, so every 16x16 L0C fractal is split into two 16x8 GM fractals (isChannelSplit).
// GM NZ f32 40x20: ((16,3),(8,3)):((8,128),(1,384)); dstStride = 384 / C0 = 48 (32 B units);
// nSize = 20 rounded up to C0 = 24; srcStride = align(40,16) = 48.
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s --check-prefix=CPP
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc-llvm %s | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt --layout-lower-to-ascendc %s | FileCheck %s --check-prefix=IR

// CPP: // FixpipeParamsV220 L0C NZ -> GM NZ (FIX)
// CPP-NEXT: //   dst: ((16,3),(8,3)):((8,128),(1,384)) origin (40,20)
// CPP-NEXT: //   src: ((16,3),(16,2)):((16,256),(1,768)) origin (40,20)
// CPP-NEXT: AscendC::FixpipeParamsV220 p5;
// CPP-NEXT: p5.nSize = 24;  // columns to store: valid extent of the destination rounded up to its C0 (whole 32 B blocks)
// CPP-NEXT: p5.mSize = 40;
// CPP-NEXT: p5.srcStride = 48;
// CPP-NEXT: p5.dstStride = 48;  // stride(dst, c_out) / C0: distance between destination column blocks, in 32 B
// CPP-NEXT: p5.reluEn = false;
// CPP-NEXT: p5.quantPre = AscendC::QuantMode_t::NoQuant;
// CPP-NEXT: p5.deqScalar = 0;
// CPP-NEXT: p5.ndNum = 1;
// CPP-NEXT: p5.srcNdStride = 0;
// CPP-NEXT: p5.dstNdStride = 0;
// CPP-NEXT: p5.unitFlag = 0;
// CPP-NEXT: p5.isChannelSplit = true;  // f32: split each 16x16 L0C fractal into two 16x8 (C0 = 8) GM fractals
// CPP-NEXT: AscendC::Fixpipe<float, float, AscendC::CFG_NZ>(arg2Gm[0], co1[0], p5);
// CPP-NEXT: AscendC::PipeBarrier<PIPE_ALL>();

// LLVM: declare i32 @ascendc_model_fixpipe_nz2nz(ptr, ptr, i32, i32, ptr, i32)
// LLVM: call i32 @ascendc_model_fixpipe_nz2nz(ptr %{{[0-9]+}}, ptr nonnull @ascendc_l0c, i32 3, i32 3, ptr nonnull %{{[0-9]+}}, i32 2201)

// IR: "ascendc.fixpipe_nz"
// IR-SAME: dstStride = 48 : i64, isChannelSplit = true, mSize = 40 : i64, nSize = 24 : i64
// IR-SAME: quantPre = "NoQuant"
// IR-SAME: srcStride = 48 : i64

module attributes {layout.target = #layout.target<"a2">} {
  func.func @gemm_nz(%A: memref<2240xf16>, %B: memref<1120xf16>, %C: memref<1152xf32>) attributes {llvm.emit_c_interface} {
    %ga = "layout.view"(%A) : (memref<2240xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,56)">
    %gb = "layout.view"(%B) : (memref<1120xf16>) -> !layout.tensor<f16, "gm", "ND", "(56,20)">
    %gc = "layout.view"(%C) : (memref<1152xf32>) -> !layout.tensor<f32, "gm", "NZ", "(40,20)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(40,56)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(56,20)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(40,56)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(56,20)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(40,20)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(40,56)">, !layout.tensor<f16, "l1", "NZ", "(40,56)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f16, "gm", "ND", "(56,20)">, !layout.tensor<f16, "l1", "NZ", "(56,20)">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<f16, "l1", "NZ", "(40,56)">, !layout.tensor<f16, "l0a", "ZZ", "(40,56)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<f16, "l1", "NZ", "(56,20)">, !layout.tensor<f16, "l0b", "ZN", "(56,20)">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(40,56)">, !layout.tensor<f16, "l0b", "ZN", "(56,20)">, !layout.tensor<f32, "l0c", "NZ", "(40,20)">) -> ()
    "layout.store"(%c0, %gc) : (!layout.tensor<f32, "l0c", "NZ", "(40,20)">, !layout.tensor<f32, "gm", "NZ", "(40,20)">) -> ()
    return
  }
}
