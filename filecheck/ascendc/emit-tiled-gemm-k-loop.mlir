// examples/tiled_gemm.mlir on a2: the K loop `for k = 64 to 256 step 64` gives its variable the
// facts `k ∈ [64, 255]`, `k ≡ 0 (mod 64)` (read as `layout-simplify-offsets` reads them), and
// the AscendC lowering simplifies every dynamic field with them (and writes a proven condition
// with the value the loop makes of it: `src = k * 256`). The L1 offset of the A slice,
// `k floordiv 16 * 2048 + k mod 16` for a generic `k`, is `k * 128` here: no division or remainder
// is left in the loop of the lowered IR, the C++ kernel or the LLVM form, and the conditions the
// loop proves (`k` a multiple of 16) are written as proven, not as run-time assumptions.
// RUN: layout-opt --layout-lower-to-ascendc %S/../../examples/tiled_gemm.mlir | FileCheck %s --check-prefix=IR
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %S/../../examples/tiled_gemm.mlir | FileCheck %s --check-prefix=CPP
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc-llvm %S/../../examples/tiled_gemm.mlir | FileCheck %s --check-prefix=LL

// IR: scf.for %[[K:.*]] = %c64 to %c256 step %c64 {
// IR-NOT: arith.divsi
// IR-NOT: arith.remsi
// IR: %[[OFF:.*]] = arith.muli %[[K]], %{{.*}} : index
// IR-NOT: assumes
// IR: "ascendc.load_data_2d"(%{{.*}}, %{{.*}}, %[[OFF]], %[[K]]) {{.*}}"proven from the loop" = "LoadData(LoadData2DParams).src col coordinate = {{.*}} multiple of 16
// IR-NOT: arith.divsi
// IR-NOT: arith.remsi
// IR-NOT: assumes
// IR: "proven from the loop" = "LoadData(LoadData2DParams).src row coordinate = {{.*}} multiple of 16"
// IR-NOT: arith.divsi
// IR-NOT: arith.remsi
// IR: "ascendc.mmad"
// IR-NEXT: "ascendc.set_flag"
// IR-NEXT: {{^ *}}}

// CPP: for (int64_t i2 = 64; i2 < 256; i2 += 64) {
// CPP-NEXT: const int64_t [[OFF:v[0-9]+]] = i2 * 128;
// CPP-NOT: {{/ 16|% 16|assumes}}
// CPP: //   proven from the loop: LoadData(LoadData2DParams).src col coordinate = i2 multiple of 16; LoadData(LoadData2DParams).src = i2 * 256 multiple of 32
// CPP-NOT: {{/ 16|% 16|assumes}}
// CPP: AscendC::LoadData(a2[r * 1024], a1[[[OFF]] + r * 256], p5);
// CPP-NOT: {{/ 16|% 16|assumes}}
// CPP: //   proven from the loop: LoadData(LoadData2DParams).src row coordinate = i2 multiple of 16
// CPP-NOT: {{/ 16|% 16|assumes}}
// CPP: AscendC::Mmad(
// Run-time conditions stay assumptions: the GM row stride of C is the size argument N. The tail
// extents are at least 1 because the loops run `i1 < N` and `i0 < M` (the relational fact of
// the enclosing loops, passes/src/lower_to_ascendc/facts.rs): proven, no longer assumed.
// CPP: //   assumes: Fixpipe(FixpipeParamsV220).dstStride = arg4 in [0, 4294967295]
// CPP-NEXT: //   dst:
// CPP-NEXT: //   proven from the loop: Fixpipe(FixpipeParamsV220).nSize = min(128, max(arg4 - i1, 0)) in [1, 4095]; Fixpipe(FixpipeParamsV220).mSize = min(128, max(arg3 - i0, 0)) in [1, 65535]

// LL-NOT: {{sdiv|srem|udiv|urem}}
// LL: define void @tiled_gemm(
// LL-NOT: {{sdiv|srem|udiv|urem}}
