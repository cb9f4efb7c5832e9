// examples/gemm_tile.mlir on a2: dynamic M/N, clipped tiles and the K loop. Conditions the
// lowering could not decide statically are written with the kernel's own names (no internal
// layout symbols), constants are inlined and unused index arithmetic is dropped. A condition
// that holds for every value (nValue = min(128, max(...)) ≤ 16384) is dropped; one the K loop
// proves (`i0` runs over 64, 128, 192: a multiple of 16) is written as proven, not assumed.
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %S/../../examples/gemm_tile.mlir | FileCheck %s
// CHECK-NOT: {{\b[tvo][0-9]+_[0-9]+\b}}
// CHECK: extern "C" __global__ __aicore__ void gemm_tile(GM_ADDR arg0, GM_ADDR arg1, GM_ADDR arg2, int64_t arg3, int64_t arg4, int64_t arg5, int64_t arg6)
// CHECK: const int64_t v0 = arg3 - arg5;
// CHECK-NEXT: const int64_t v1 = (v0 > 0 ? v0 : 0);
// CHECK-NEXT: const int64_t v2 = (128 < v1 ? 128 : v1);
// CHECK-NEXT: const int64_t v3 = arg5 * 256;
// CHECK-NEXT: // Nd2NzParams GM ND -> L1 NZ (MTE2)
// CHECK-NOT: assumes
// CHECK: p0.nValue = v2;
// CHECK: AscendC::DataCopy(a1[0], arg0Gm[v3], p0);
// CHECK: for (int64_t i0 = 64; i0 < 256; i0 += 64) {
// CHECK-NOT: assumes
// CHECK: //   proven from the loop: LoadData(LoadData2DParams).src col coordinate = i0 multiple of 16
// CHECK-NOT: assumes
// CHECK: //   proven from the loop: LoadData(LoadData2DParams).src row coordinate = i0 multiple of 16
// CHECK-NOT: assumes
// CHECK: p7.cmatrixInitVal = false;  // C += A x B (accumulate into L0C)
// CHECK: //   assumes: Fixpipe(FixpipeParamsV220).nSize = min(128, max(arg4 - arg6, 0)) in [1, 4095]
// CHECK: AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(arg2Gm[{{v[0-9]+}}], co1[0], p8);
// CHECK-NEXT: AscendC::PipeBarrier<PIPE_ALL>();
