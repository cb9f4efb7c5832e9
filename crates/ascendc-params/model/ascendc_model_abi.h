/* ascendc_model_abi.h — the stable C ABI of the CPU model of the AscendC intrinsics.
 *
 * One model, two consumers: the C++ API in ascendc_model.h (for emitted AscendC C++ compiled
 * with g++) and these extern "C" functions (for LLVM IR run in the JIT) call the same
 * implementation (ascendc_model_impl.h). Plain C: no C++ types cross this boundary.
 *
 * Parameter structs mirror the AscendC structs field by field, in AscendC constructor order.
 * They are declared once in crates/ascendc-params/src/decl.rs; a test of that crate parses this
 * header and fails if a struct, field, type or function here disagrees with the declaration.
 * Where the two architectures differ in width (Nd2NzParams: arch 2201 all uint16_t, arch 3510
 * dValue uint32_t, srcNdMatrixStride/srcDValue uint64_t, dstNzMatrixStride uint32_t), the ABI
 * struct has the wider (3510) width; the Rust derivation checks the target's narrower range
 * before a value ever reaches it.
 *
 * Every function returns 0 on success and a non-zero ASCENDC_MODEL_E_* code for input the
 * model does not support; ascendc_model_last_error() then describes it. Nothing aborts.
 */
#ifndef ASCENDC_MODEL_ABI_H
#define ASCENDC_MODEL_ABI_H

#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Target architectures (the NPU arch numbers). */
#define ASCENDC_MODEL_ARCH_A2 2201u /* Atlas A2/A3: L0A is ZZ */
#define ASCENDC_MODEL_ARCH_A5 3510u /* Ascend 950:  L0A is NZ */

/* Element type codes for Mmad and Fixpipe. */
#define ASCENDC_MODEL_F16 1u
#define ASCENDC_MODEL_BF16 2u
#define ASCENDC_MODEL_F32 3u
#define ASCENDC_MODEL_I8 4u
#define ASCENDC_MODEL_I32 5u

/* Fixpipe quantPre (AscendC QuantMode_t); the model's numeric codes. */
#define ASCENDC_MODEL_QUANT_NOQUANT 0u  /* f32 -> f32, i32 -> i32 */
#define ASCENDC_MODEL_QUANT_F322F16 1u  /* f32 -> half, round to nearest even */
#define ASCENDC_MODEL_QUANT_F322BF16 2u /* f32 -> bfloat16_t, round to nearest even */
#define ASCENDC_MODEL_QUANT_DEQF16 3u   /* i32 -> half: half(float(x) * scale), saturating; scale = f32 bits of deqScalar */

/* Mmad / Fixpipe unitFlag (asc-devkit UnitFlag; ascendc_params::decl::UnitFlag): one flag bit per
 * 512 B L0C block. OFF: not used. KEEP: Mmad writes a block once its bit is 0, Fixpipe reads it
 * once its bit is 1, the bit unchanged. RELEASE: the same, then Mmad sets the bit to 1, Fixpipe
 * clears it to 0. Other values are an error. */
#define ASCENDC_MODEL_UNIT_FLAG_OFF 0u
#define ASCENDC_MODEL_UNIT_FLAG_KEEP 2u
#define ASCENDC_MODEL_UNIT_FLAG_RELEASE 3u
#define ASCENDC_MODEL_UNIT_FLAG_BLOCK_BYTES 512u

/* Status codes. */
#define ASCENDC_MODEL_OK 0
#define ASCENDC_MODEL_E_UNSUPPORTED 1 /* a mode/type combination the model does not implement */
#define ASCENDC_MODEL_E_INVALID 2     /* a parameter the hardware rejects (e.g. unknown target) */

/* AscendC Nd2NzParams {ndNum, nValue, dValue, srcNdMatrixStride, srcDValue, dstNzC0Stride,
 * dstNzNStride, dstNzMatrixStride}. Units: srcNdMatrixStride, srcDValue, dstNzMatrixStride in
 * elements; dstNzC0Stride, dstNzNStride in 32-byte C0 blocks. */
typedef struct ascendc_model_nd2nz_params {
    uint16_t ndNum;
    uint16_t nValue;
    uint32_t dValue;
    uint64_t srcNdMatrixStride;
    uint64_t srcDValue;
    uint16_t dstNzC0Stride;
    uint16_t dstNzNStride;
    uint32_t dstNzMatrixStride;
} ascendc_model_nd2nz_params;

/* AscendC DataCopyParams {blockCount, blockLen, srcStride, dstStride}: blockLen and the gaps
 * (srcStride/dstStride = gap between the end of one block and the start of the next) in 32 B. */
typedef struct ascendc_model_data_copy_params {
    uint16_t blockCount;
    uint16_t blockLen;
    uint16_t srcStride;
    uint16_t dstStride;
} ascendc_model_data_copy_params;

/* AscendC LoadData2DParams {startIndex, repeatTimes, srcStride, sid, dstGap, ifTranspose,
 * addrMode}, units of 512-byte fractals. */
typedef struct ascendc_model_load_data_2d_params {
    uint16_t startIndex;
    uint8_t repeatTimes;
    uint16_t srcStride;
    uint8_t sid;
    uint16_t dstGap;
    bool ifTranspose;
    uint8_t addrMode;
} ascendc_model_load_data_2d_params;

/* AscendC LoadData2DParamsV2 (arch 3510) {mStartPosition, kStartPosition, mStep, kStep,
 * srcStride, dstStride, ifTranspose, sid}: positions and steps in fractals (16 rows / C0 cols),
 * strides in 512-byte fractals between column blocks. */
typedef struct ascendc_model_load_data_2d_params_v2 {
    uint32_t mStartPosition;
    uint32_t kStartPosition;
    uint16_t mStep;
    uint16_t kStep;
    int32_t srcStride;
    uint16_t dstStride;
    bool ifTranspose;
    uint8_t sid;
} ascendc_model_load_data_2d_params_v2;

/* AscendC LoadData2dTransposeParams (LoadDataWithTranspose, arch 2201) {startIndex, repeatTimes,
 * srcStride, dstGap, dstFracGap, addrMode}: startIndex/srcStride in squares (two 512-byte
 * fractals for 8-bit types), dstGap/dstFracGap in 512-byte fractals. */
typedef struct ascendc_model_load_data_2d_transpose_params {
    uint16_t startIndex;
    uint8_t repeatTimes;
    uint16_t srcStride;
    uint16_t dstGap;
    uint16_t dstFracGap;
    uint8_t addrMode;
} ascendc_model_load_data_2d_transpose_params;

/* AscendC MmadParams. cmatrixInitVal: true = C starts at 0 (overwrite), false = accumulate
 * into L0C (cmatrixSource false). disableGemv (arch 3510 only; ignored on 2201): false = an
 * m = 1 Mmad runs in GEMV mode and reads A as K contiguous elements. */
typedef struct ascendc_model_mmad_params {
    uint16_t m;
    uint16_t n;
    uint16_t k;
    bool isBias;
    int32_t fmOffset;
    bool enSsparse;
    bool enWinogradA;
    bool enWinogradB;
    uint8_t unitFlag;
    bool kDirectionAlign;
    bool cmatrixSource;
    bool cmatrixInitVal;
    bool disableGemv;
} ascendc_model_mmad_params;

/* AscendC FixpipeParamsV220 {nSize, mSize, srcStride, dstStride, reluEn, quantPre, deqScalar,
 * ndNum, srcNdStride, dstNdStride, unitFlag, isChannelSplit}. srcStride in units of 16 L0C
 * elements (C0_Size), dstStride in GM elements (NZ2ND) or in 32 B between destination column
 * blocks (NZ2NZ). isChannelSplit: NZ2NZ f32 -> f32 only. quantPre: ASCENDC_MODEL_QUANT_*. */
typedef struct ascendc_model_fixpipe_params_v220 {
    uint16_t nSize;
    uint16_t mSize;
    uint16_t srcStride;
    uint32_t dstStride;
    bool reluEn;
    uint32_t quantPre;
    uint64_t deqScalar;
    uint16_t ndNum;
    uint16_t srcNdStride;
    uint32_t dstNdStride;
    uint8_t unitFlag;
    bool isChannelSplit;
} ascendc_model_fixpipe_params_v220;

/* GM ND -> L1 NZ (DataCopy with Nd2NzParams). elem_bits: 8, 16 or 32. */
int32_t ascendc_model_data_copy_nd2nz(void* dst, const void* src, uint32_t elem_bits,
                                      const ascendc_model_nd2nz_params* p, uint32_t target);
/* Plain DataCopy with DataCopyParams (32-byte blocks). */
int32_t ascendc_model_data_copy(void* dst, const void* src, const ascendc_model_data_copy_params* p,
                                uint32_t target);
/* L1 -> L0A/L0B LoadData with LoadData2DParams. */
int32_t ascendc_model_load_data_2d(void* dst, const void* src, uint32_t elem_bits,
                                   const ascendc_model_load_data_2d_params* p, uint32_t target);
/* L1 -> L0A/L0B LoadData with LoadData2DParamsV2 (arch 3510). */
int32_t ascendc_model_load_data_2d_v2(void* dst, const void* src, uint32_t elem_bits,
                                      const ascendc_model_load_data_2d_params_v2* p, uint32_t target);
/* L1 -> L0A/L0B LoadDataWithTranspose with LoadData2dTransposeParams (8-bit: 32x32 squares, 32-bit: 16x16). */
int32_t ascendc_model_load_data_with_transpose(void* dst, const void* src, uint32_t elem_bits,
                                               const ascendc_model_load_data_2d_transpose_params* p, uint32_t target);
/* Mmad: c (L0C, NZ 16x16) = / += a (L0A: ZZ on 2201, NZ on 3510) x b (L0B, ZN).
 * ab_dtype: F16, BF16, F32 (c F32) or I8 (c I32). */
int32_t ascendc_model_mmad(void* c, const void* a, const void* b, uint32_t ab_dtype, uint32_t c_dtype,
                           const ascendc_model_mmad_params* p, uint32_t target);
/* Fixpipe L0C -> GM, NZ2ND (CFG_ROW_MAJOR). */
int32_t ascendc_model_fixpipe_nz2nd(void* dst, const void* src, uint32_t dst_dtype, uint32_t src_dtype,
                                    const ascendc_model_fixpipe_params_v220* p, uint32_t target);
/* Fixpipe L0C -> GM, NZ2NZ (CFG_NZ); optional f32 channel split. */
int32_t ascendc_model_fixpipe_nz2nz(void* dst, const void* src, uint32_t dst_dtype, uint32_t src_dtype,
                                    const ascendc_model_fixpipe_params_v220* p, uint32_t target);
/* Synchronization: the model runs in program order; with the sanitizer on, the flags order the
 * pipes' accesses (ascendc_model_sanitizer.h, docs/sanitizer.md). */
void ascendc_model_set_flag(uint32_t src_pipe, uint32_t dst_pipe, uint32_t event_id);
void ascendc_model_wait_flag(uint32_t src_pipe, uint32_t dst_pipe, uint32_t event_id);
void ascendc_model_pipe_barrier(uint32_t pipe);
/* The sanitizer: begin(checks: 1 memcheck | 2 initcheck | 4 synccheck | 8 racecheck), register every GM and
 * on-chip buffer, run, end() returns the first violation ("" if none) and turns it off.
 * site(n) names the static call site of the next intrinsic or flag (reported back by
 * report_site; -1 if unknown). */
void ascendc_model_sanitize_begin(uint32_t checks);
void ascendc_model_sanitize_region(const void* base, uint64_t bytes, uint32_t elem_bytes, const char* name, uint32_t on_chip);
void ascendc_model_sanitize_site(int32_t site);
const char* ascendc_model_sanitize_end(void);
uint64_t ascendc_model_sanitize_violations(void);
int32_t ascendc_model_sanitize_report_site(void);
/* initcheck: the element (and, in *region, the region in registration order) reported; -1 if none. */
int64_t ascendc_model_sanitize_report_element(int32_t* region);
/* The launch: the drivers run a blockDim-block launch as blockDim calls, set_block(idx, blockDim)
 * before each (it also starts the sanitizer's next block: fresh on-chip state, GM writers kept
 * for racecheck); get_block_idx / get_block_num are GetBlockIdx() / GetBlockNum(). */
void ascendc_model_set_block(uint32_t idx, uint32_t num);
int64_t ascendc_model_get_block_idx(void);
int64_t ascendc_model_get_block_num(void);
/* SetAtomicAdd<T>() with T's dtype code / SetAtomicNone(): the later Fixpipes of this block add
 * into GM (a2 only; the Fixpipe fails on another target or a T other than its destination's). */
void ascendc_model_set_atomic_add(uint32_t dtype);
void ascendc_model_set_atomic_none(void);
/* Message of the last non-zero status (static storage; "" if none). */
const char* ascendc_model_last_error(void);

#ifdef __cplusplus
}
#endif

#endif
