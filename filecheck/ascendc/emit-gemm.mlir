// Golden test of the emitted AscendC C++ for a small GEMM tile on a2 (a5: emit-gemm-a5.mlir), the LLVM form,
// and the sync graph. Parameters are the docs/layout-spec.md §D.4 example (m = 40, k = 56 fp16).
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %S/../../examples/ascendc/gemm_f16.mlir | FileCheck %s --check-prefix=A2
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc-llvm %S/../../examples/ascendc/gemm_f16.mlir | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt --layout-lower-to-ascendc --layout-print-sync-graph %S/../../examples/ascendc/gemm_f16.mlir 2>&1 >/dev/null | FileCheck %s --check-prefix=DOT

// A2: #include "kernel_operator.h"
// A2: extern "C" __global__ __aicore__ void gemm_f16(GM_ADDR arg0, GM_ADDR arg1, GM_ADDR arg2)
// A2: AscendC::GlobalTensor<half> arg0Gm;  // (40,56):(56,1) origin (40,56)
// A2: // L1 bytes [0, 6144): ((16,3),(16,4)):((16,256),(1,768)) origin (40,56)
// A2-NEXT: AscendC::LocalTensor<half> a1 = l1Allocator.Alloc<AscendC::TPosition::A1, half>(3072);
// A2: AscendC::LocalTensor<half> b1 = l1Allocator.Alloc<AscendC::TPosition::B1, half>(2048);
// A2: AscendC::Nd2NzParams p0;
// A2-NEXT: p0.ndNum = 1;
// A2-NEXT: p0.nValue = 40;
// A2-NEXT: p0.dValue = 56;
// A2-NEXT: p0.srcNdMatrixStride = 0;
// A2-NEXT: p0.srcDValue = 56;
// A2-NEXT: p0.dstNzC0Stride = 48;  // stride(dst, c_out) / C0: distance between C0 column blocks, in 32 B
// A2-NEXT: p0.dstNzNStride = 1;
// A2-NEXT: p0.dstNzMatrixStride = 0;
// A2-NEXT: AscendC::DataCopy(a1[0], arg0Gm[0], p0);
// A2-NEXT: AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
// A2: AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE1>(EVENT_ID0);
// A2: AscendC::LoadData2DParams p2;
// A2: p2.repeatTimes = 4;
// A2: p2.srcStride = 3;
// A2: p2.ifTranspose = false;  // no transpose
// A2: AscendC::LoadData(a2[r * 1024], a1[r * 256], p2);
// A2: p3.ifTranspose = true;  // transpose each 16x16 fractal
// A2: AscendC::SetFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
// A2-NEXT: AscendC::WaitFlag<AscendC::HardEvent::MTE1_M>(EVENT_ID0);
// A2: AscendC::MmadParams p4;
// A2-NEXT: p4.m = 48;
// A2-NEXT: p4.n = 32;
// A2-NEXT: p4.k = 56;
// The 2201 MmadParams has no disableGemv (arch 3510 only).
// A2-NOT: disableGemv
// A2: AscendC::Mmad(co1[0], a2[0], b2[0], p4);
// A2-NEXT: AscendC::SetFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
// A2-NEXT: AscendC::WaitFlag<AscendC::HardEvent::M_FIX>(EVENT_ID0);
// A2: AscendC::FixpipeParamsV220 p5;
// A2: p5.srcStride = 48;
// A2: p5.quantPre = AscendC::QuantMode_t::NoQuant;
// A2: p5.ndNum = 1;
// A2: AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(arg2Gm[0], co1[0], p5);
// A2-NEXT: AscendC::PipeBarrier<PIPE_ALL>();

// LLVM: declare i32 @ascendc_model_data_copy_nd2nz(ptr, ptr, i32, ptr, i32)
// LLVM: define void @gemm_f16(
// LLVM: call i32 @ascendc_model_load_data_2d(
// LLVM: call i32 @ascendc_model_mmad(
// LLVM: call i32 @ascendc_model_fixpipe_nz2nd(

// DOT: digraph sync
// DOT: [label="RAW MTE2_MTE1"
// DOT: [label="RAW implied", style=dashed
// DOT: [label="RAW M_FIX"
