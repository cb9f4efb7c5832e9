// ascendc_model_impl.h — the one implementation of the CPU model of the AscendC intrinsics.
//
// Both consumers call these functions: the C++ API (ascendc_model.h) directly, the C ABI
// (ascendc_model_abi.cpp, built into a static library by build.rs) through thin wrappers.
// Header-only so that an emitted kernel compiles with a single `g++ -std=c++17 kernel.cpp`.
//
// Semantics implemented (documented AscendC behaviour, see crates/ascendc-params docs):
// * ND2NZ DataCopy: for each of ndNum matrices, rows r < nValue, cols c < dValue:
//   dst[(c/C0)*dstNzC0Stride*C0 + r*dstNzNStride*C0 + c%C0] = src[r*srcDValue + c]; the tail
//   of the last incomplete C0 block of every written row (cols dValue..align(dValue,C0)) is
//   zero-filled; rows past nValue are not touched (docs/layout-spec.md §A.7).
// * DataCopy (DataCopyParams): blockCount blocks of blockLen*32 B; between blocks the source
//   skips srcStride*32 B and the destination dstStride*32 B.
// * LoadData2D: for r < repeatTimes, the 512-B fractal at src index startIndex + r*srcStride
//   goes to dst index r*(dstGap+1); with ifTranspose each 16x16 16-bit fractal is transposed
//   (8-bit and 32-bit transposes are LoadDataWithTranspose on hardware: below).
// * LoadData2DParamsV2 (3510): for kk < kStep, mm < mStep: fractal
//   (kStartPosition+kk)*srcStride + mStartPosition+mm -> kk*dstStride + mm (no transpose).
//   With ifTranspose (16-bit types only here): the same source fractal, transposed as a 16x16
//   matrix, goes to mm*dstStride + kk, i.e. the grid of fractals is transposed too.
//   Source: catlass hicann/catlass include/catlass/gemm/tile/ascend950/copy_l1_to_l0b.hpp
//   (zN -> nZ, not B8): mStartPosition = row/16, kStartPosition = col/C0, mStep = K fractals,
//   kStep = N fractals, srcStride = zN column-block stride / fractal, dstStride = nZ **row**-block
//   stride / fractal, ifTranspose = true. The destination index mm*dstStride + kk is our
//   interpretation: it is the only one under which those parameters produce an nZ tile (the
//   AscendC docs describe the fields but not the transposed addressing).
// * LoadDataWithTranspose + LoadData2dTransposeParams (2201), 8-bit: iteration i < repeatTimes
//   reads the 1024-B "square" (two consecutive 16x32 fractals = one 32x32 row-major matrix S)
//   at square index startIndex + i*srcStride, transposes it (T[r][c] = S[c][r]) and writes
//   T's rows 0..15 as fractal f = i*(dstGap+1) and rows 16..31 as fractal f + 1 + dstFracGap
//   (512-B units). 16-bit: one 16x16 fractal per iteration (as LoadData2D transpose), dstFracGap
//   unused. Source: AscendC docs "LoadDataWithTranspose" (cannmirror/asc-devkit
//   docs/api/context/c_api/cube_datamove/asc_copy_l12l0b_trans.md; hiascend
//   atlasascendc_api_07_0239): "2 consecutive 16x32 fractals are merged into one 32x32 square,
//   transposed, split into 2 16x32 fractals"; srcStride in units of the square; dstGap = gap from
//   the end of one iteration's first fractal to the next iteration's first fractal; dstFracGap =
//   gap between the two fractals of one iteration (both in 512 B). Which half of T is the "first"
//   fractal (rows 0..15) is our interpretation. 32-bit: the square S (16x16) is the two
//   consecutive 16x8 row-major source fractals side by side (the first gives columns 0..7, the
//   second 8..15), T = S^T, and T's columns 0..7 / 8..15 are the first / second destination
//   fractal (row-major 16x8). Source: the same page, "float: 2 consecutive 16*8 fractals merged
//   into one 16*16 square, transposed, split into 2 16*8 fractals", and its float example
//   (B 16x32 NZ -> L0B: repeatTimes = n/16, srcStride = 1, dstGap = 0, dstFracGap = n/16 - 1),
//   which yields ZN only under this reading.
// * Mmad: C[i][j] (=|+=) sum_{kk<k} A[i][kk]*B[kk][j] for i<m, j<n (real sizes), A read in
//   ZZ (2201) or NZ (3510) with K1 = ceil(k/C0), M1 = ceil(m/16); B in ZN with N1 = ceil(n/16);
//   C in L0C NZ (16x16 fractals, M1 row fractals per column block). f16/bf16/f32 -> f32
//   accumulated in float (products of f16/bf16 are exact in float), i8 -> i32 exact. Only the
//   valid m x n elements of C are written; padding in A/B is never read.
// * Fixpipe NZ2ND: dst[j*dstStride + c] = quant(src[(c/16)*srcStride*16 + j*16 + c%16]) for
//   j < mSize, c < nSize. quantPre (docs/ascendc-derivation.md §12): NoQuant; F322F16 /
//   F322BF16 round to nearest even in INF_NAN (non-saturating) mode: overflow gives +-inf,
//   NaN stays NaN (bfloat16: 0x7FFF, the documented pattern; half: the quiet NaN with the
//   input's sign and top payload bits); DEQF16: half(float(x) * S) for an i32 x, float(x) and the product rounded
//   to nearest even in f32, S = the f32 in the low 32 bits of deqScalar with its low 13
//   mantissa bits cleared (the processor's 10-bit-mantissa scale format), the half saturated
//   to +-65504 (DEQF16 has no INF_NAN mode). ReLU (reluEn), on the converted value: a result
//   that is not > 0 and not NaN becomes +0 (so -0 -> +0); applying it to the value before the
//   (sign- and order-preserving) conversion gives the same bits, which is what we do.
// * Fixpipe NZ2NZ (CFG_NZ): with W = 16 destination columns per block, or W = 8 with
//   isChannelSplit (f32 -> f32 only), for block b < nSize/W, row j < mSize, c < W, column
//   col = b*W + c: the element goes to byte b*dstStride*U + (j*W + c)*sizeof(dst) of dst, from
//   src[(col/16)*srcStride*16 + j*16 + col%16]; nSize must be a multiple of W. U = 32 B on 2201
//   (FixpipeParamsV220: "单位为datablock（32字节）"), U = sizeof(dst) on 3510
//   (FixpipeParamsArch3510: "dstStride的单位为element"; asc-devkit Fixpipe API page).
//   Sources: the CCE intrinsic doc of the L0C -> OUT copy (hiascend cceintrinsicapi
//   "cceapi_0100": plain copy "dst_block_addr = dst_temp_n_addr + k*dst_stride*32", row j at
//   "j*16*sizeof(DST_element)", and "f32 通道切分": each 16x16 fractal split into two 16x8
//   fractals, n a multiple of 8); catlass hicann/catlass
//   include/catlass/gemm/tile/atlasa2/copy_l0c_to_gm.hpp (zN destination: dstStride =
//   stride(3) / (32 / sizeof(Dst)), isChannelSplit for float -> float, CFG_NZ).
//   Our interpretation: with channel split the two 8-column halves of an L0C block are
//   destination blocks 2k and 2k+1 (each dstStride*32 B further), rows 8 elements (32 B) apart;
//   i.e. dstStride is always the distance between 32-B-wide destination column blocks, so a GM
//   NZ destination with C0 = 32 B / sizeof(dst) (f16/bf16 C0 = 16, f32 C0 = 8 split) has
//   dstStride = stride(c_out) / C0. Without split a 32-bit output has 64-B rows (16 x 4 B).
#ifndef ASCENDC_MODEL_IMPL_H
#define ASCENDC_MODEL_IMPL_H

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "ascendc_model_abi.h"
#include "ascendc_model_sanitizer.h"

namespace ascendc_model {

// ---- IEEE half / bfloat16 conversions (round to nearest even) --------------------------------
inline uint16_t f32_to_f16_bits(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t mant = x & 0x7fffffu;
    if (exp == 0xffu) return (uint16_t)(sign | 0x7c00u | (mant ? (0x200u | (mant >> 13)) : 0u));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 31) return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10) return (uint16_t)sign;
        mant |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t h = mant >> shift;
        uint32_t rem = mant & ((1u << shift) - 1u);
        uint32_t halfway = 1u << (shift - 1u);
        if (rem > halfway || (rem == halfway && (h & 1u))) h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (mant >> 13);
    uint32_t rem = mant & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) h++;  // a carry into the exponent is correct
    return (uint16_t)(sign | h);
}

inline float f16_bits_to_f32(uint16_t h) {
    uint32_t sign = ((uint32_t)h & 0x8000u) << 16;
    uint32_t exp = ((uint32_t)h >> 10) & 0x1fu;
    uint32_t mant = (uint32_t)h & 0x3ffu;
    uint32_t x;
    if (exp == 0) {
        if (mant == 0) {
            x = sign;
        } else {  // subnormal: normalize
            int32_t e = -1;
            do { mant <<= 1; e++; } while ((mant & 0x400u) == 0);
            mant &= 0x3ffu;
            x = sign | ((uint32_t)(127 - 15 - e) << 23) | (mant << 13);
        }
    } else if (exp == 31) {  // infinity, or a NaN made quiet (IEEE 754; x86's vcvtph2ps too)
        x = sign | 0x7f800000u | (mant << 13) | (mant ? 0x400000u : 0u);
    } else {
        x = sign | ((exp + 112u) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

inline uint16_t f32_to_bf16_bits(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    // NaN: 0x7FFF, the bfloat16 NaN of the Fixpipe's non-saturating mode (docs/ascendc-derivation.md §12).
    if ((x & 0x7f800000u) == 0x7f800000u && (x & 0x7fffffu)) return (uint16_t)0x7fffu;
    uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)((x + rounding) >> 16);
}

inline float bf16_bits_to_f32(uint16_t b) {
    // The upper half of an f32, NaNs included (signaling ones stay signaling): the loops back
    // end's bf16 extf (arith-expand) is this same shift.
    uint32_t x = (uint32_t)b << 16;
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

// ---- errors -----------------------------------------------------------------------------------
inline char* error_buffer() {
    static char buf[256] = {0};
    return buf;
}

inline int32_t fail(int32_t code, const char* what) {
    std::snprintf(error_buffer(), 256, "%s", what);
    return code;
}

// ---- the launch ---------------------------------------------------------------------------------
// Which block (AI core) runs and how many were launched: GetBlockIdx() / GetBlockNum(). The CPU
// drivers run a blockDim-block launch as blockDim calls of the kernel, calling set_block()
// before each (per thread, like the sanitizer: test threads run their own launches).
// `atomic_add` is the core's SetAtomicAdd<T>() state: 0 after SetAtomicNone() (and at the start
// of each block), else the dtype code of T; the Fixpipe then adds into GM.
struct Launch {
    int64_t block_idx = 0;
    int64_t block_num = 1;
    uint32_t atomic_add = 0;
};
inline Launch& launch() {
    static thread_local Launch l;
    return l;
}
inline void set_block(uint32_t idx, uint32_t num) {
    launch() = Launch{idx, num, 0};
    san::begin_block(static_cast<int32_t>(idx));
}

// SetAtomicAdd<T>(): the later Fixpipes add into GM, in T (asc-devkit SetAtomicAdd: A2/A3, for
// int8/int16/half/bfloat16/int32/float; the model's Fixpipe writes f32, f16, bf16 or i32).
inline void set_atomic_add(uint32_t dtype) { launch().atomic_add = dtype; }
inline void set_atomic_none() { launch().atomic_add = 0; }

inline bool valid_target(uint32_t t) { return t == ASCENDC_MODEL_ARCH_A2 || t == ASCENDC_MODEL_ARCH_A5; }

inline bool valid_bits(uint32_t b) { return b == 8 || b == 16 || b == 32; }

constexpr uint64_t C0_BYTES = 32;
constexpr uint64_t FRACTAL_BYTES = 512;

// ---- DataCopy ---------------------------------------------------------------------------------
inline int32_t data_copy_nd2nz(void* dst, const void* src, uint32_t elem_bits, const ascendc_model_nd2nz_params& p,
                               uint32_t target) {
    san::Call call("DataCopy(Nd2NzParams)", san::PIPE_MTE2);
    if (!valid_target(target)) return fail(ASCENDC_MODEL_E_INVALID, "DataCopy(Nd2NzParams): unknown target");
    if (!valid_bits(elem_bits)) return fail(ASCENDC_MODEL_E_UNSUPPORTED, "DataCopy(Nd2NzParams): element size must be 8, 16 or 32 bits");
    const uint64_t eb = elem_bits / 8, c0 = C0_BYTES / eb;
    uint8_t* d = static_cast<uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    const uint64_t dpad = (p.dValue + c0 - 1) / c0 * c0;
    for (uint64_t nd = 0; nd < p.ndNum; ++nd) {
        const uint8_t* sm = s + nd * p.srcNdMatrixStride * eb;
        uint8_t* dm = d + nd * (uint64_t)p.dstNzMatrixStride * eb;
        for (uint64_t r = 0; r < p.nValue; ++r) {
            for (uint64_t c = 0; c < dpad; ++c) {
                uint8_t* to = dm + ((c / c0) * p.dstNzC0Stride * c0 + r * p.dstNzNStride * c0 + c % c0) * eb;
                if (c < p.dValue)
                    san::copy(to, sm + (r * p.srcDValue + c) * eb, eb);
                else
                    san::zero(to, eb);
            }
        }
    }
    return ASCENDC_MODEL_OK;
}

inline int32_t data_copy(void* dst, const void* src, const ascendc_model_data_copy_params& p, uint32_t target) {
    san::Call call("DataCopy(DataCopyParams)", san::is_gm(dst) ? san::PIPE_MTE3 : san::PIPE_MTE2);
    if (!valid_target(target)) return fail(ASCENDC_MODEL_E_INVALID, "DataCopy(DataCopyParams): unknown target");
    uint8_t* d = static_cast<uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    const uint64_t len = (uint64_t)p.blockLen * C0_BYTES;
    for (uint64_t b = 0; b < p.blockCount; ++b) {
        san::copy(d + b * ((uint64_t)p.blockLen + p.dstStride) * C0_BYTES,
                  s + b * ((uint64_t)p.blockLen + p.srcStride) * C0_BYTES, len);
    }
    return ASCENDC_MODEL_OK;
}

// ---- LoadData ---------------------------------------------------------------------------------
inline void copy_fractal(uint8_t* d, const uint8_t* s, uint32_t elem_bits, bool transpose) {
    if (!transpose) {
        san::copy(d, s, FRACTAL_BYTES);
        return;
    }
    // 16-bit: a 16x16 fractal, element (i, j) -> (j, i).
    (void)elem_bits;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) san::copy(d + (j * 16 + i) * 2, s + (i * 16 + j) * 2, 2);
}

inline int32_t load_data_2d(void* dst, const void* src, uint32_t elem_bits, const ascendc_model_load_data_2d_params& p,
                            uint32_t target) {
    san::Call call("LoadData(LoadData2DParams)", san::PIPE_MTE1);
    if (!valid_target(target)) return fail(ASCENDC_MODEL_E_INVALID, "LoadData(LoadData2DParams): unknown target");
    if (!valid_bits(elem_bits)) return fail(ASCENDC_MODEL_E_UNSUPPORTED, "LoadData(LoadData2DParams): element size must be 8, 16 or 32 bits");
    if (p.ifTranspose && elem_bits != 16)
        return fail(ASCENDC_MODEL_E_UNSUPPORTED,
                    "LoadData(LoadData2DParams): ifTranspose is modelled for 16-bit types only (8/32-bit use LoadDataWithTranspose)");
    if (p.addrMode != 0) return fail(ASCENDC_MODEL_E_UNSUPPORTED, "LoadData(LoadData2DParams): only addrMode 0 (increasing) is modelled");
    uint8_t* d = static_cast<uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        const uint64_t sf = (uint64_t)p.startIndex + r * p.srcStride;
        const uint64_t df = r * ((uint64_t)p.dstGap + 1);
        copy_fractal(d + df * FRACTAL_BYTES, s + sf * FRACTAL_BYTES, elem_bits, p.ifTranspose);
    }
    return ASCENDC_MODEL_OK;
}

inline int32_t load_data_2d_v2(void* dst, const void* src, uint32_t elem_bits, const ascendc_model_load_data_2d_params_v2& p,
                               uint32_t target) {
    san::Call call("LoadData(LoadData2DParamsV2)", san::PIPE_MTE1);
    if (target != ASCENDC_MODEL_ARCH_A5) return fail(ASCENDC_MODEL_E_INVALID, "LoadData(LoadData2DParamsV2) exists on arch 3510 only");
    if (!valid_bits(elem_bits)) return fail(ASCENDC_MODEL_E_UNSUPPORTED, "LoadData(LoadData2DParamsV2): element size must be 8, 16 or 32 bits");
    if (p.ifTranspose && elem_bits != 16)
        return fail(ASCENDC_MODEL_E_UNSUPPORTED, "LoadData(LoadData2DParamsV2): ifTranspose is modelled for 16-bit types only");
    if (p.srcStride < 0) return fail(ASCENDC_MODEL_E_INVALID, "LoadData(LoadData2DParamsV2): negative srcStride");
    uint8_t* d = static_cast<uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    for (uint64_t kk = 0; kk < p.kStep; ++kk)
        for (uint64_t mm = 0; mm < p.mStep; ++mm) {
            const uint64_t sf = ((uint64_t)p.kStartPosition + kk) * (uint64_t)p.srcStride + p.mStartPosition + mm;
            const uint64_t df = p.ifTranspose ? mm * (uint64_t)p.dstStride + kk : kk * (uint64_t)p.dstStride + mm;
            copy_fractal(d + df * FRACTAL_BYTES, s + sf * FRACTAL_BYTES, elem_bits, p.ifTranspose);
        }
    return ASCENDC_MODEL_OK;
}

inline int32_t load_data_with_transpose(void* dst, const void* src, uint32_t elem_bits, const ascendc_model_load_data_2d_transpose_params& p,
                                        uint32_t target) {
    san::Call call("LoadDataWithTranspose", san::PIPE_MTE1);
    if (!valid_target(target)) return fail(ASCENDC_MODEL_E_INVALID, "LoadDataWithTranspose: unknown target");
    if (elem_bits != 8 && elem_bits != 16 && elem_bits != 32)
        return fail(ASCENDC_MODEL_E_UNSUPPORTED, "LoadDataWithTranspose: modelled for 8-, 16- and 32-bit types only");
    if (p.addrMode != 0) return fail(ASCENDC_MODEL_E_UNSUPPORTED, "LoadDataWithTranspose: only addrMode 0 is modelled");
    uint8_t* d = static_cast<uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    const uint64_t square = elem_bits == 16 ? FRACTAL_BYTES : 2 * FRACTAL_BYTES;
    for (uint64_t i = 0; i < p.repeatTimes; ++i) {
        const uint8_t* sq = s + ((uint64_t)p.startIndex + i * p.srcStride) * square;
        uint8_t* first = d + i * ((uint64_t)p.dstGap + 1) * FRACTAL_BYTES;
        if (elem_bits == 16) {
            copy_fractal(first, sq, 16, true);
            continue;
        }
        uint8_t* second = first + (1 + (uint64_t)p.dstFracGap) * FRACTAL_BYTES;
        if (elem_bits == 32) {
            // S[r][c] (16x16): c < 8 from the first source fractal (row-major 16x8), c >= 8 from
            // the second. T = S^T; T[i][j] goes to the first fractal for j < 8, else the second
            // (both row-major 16x8): T[i][j] = S[j][i].
            for (uint64_t i = 0; i < 16; ++i)
                for (uint64_t j = 0; j < 16; ++j) {
                    const uint8_t* from = sq + (i < 8 ? 0 : FRACTAL_BYTES) + (j * 8 + i % 8) * 4;
                    san::copy((j < 8 ? first : second) + (i * 8 + j % 8) * 4, from, 4);
                }
            continue;
        }
        for (uint64_t r = 0; r < 32; ++r)  // row r of T = column r of S
            for (uint64_t c = 0; c < 32; ++c) san::copy((r < 16 ? first + r * 32 : second + (r - 16) * 32) + c, sq + c * 32 + r, 1);
    }
    return ASCENDC_MODEL_OK;
}

// ---- Mmad -------------------------------------------------------------------------------------
// unitFlag (asc-devkit UnitFlag): 0 off, 2 wait for the block flags, 3 wait and flip them. The
// model runs in program order, so the flags change no result; the sanitizer's synccheck keeps
// them per 512 B L0C block and checks the handshake (ascendc_model_sanitizer.h).
inline bool unit_flag_defined(uint32_t u) {
    return u == ASCENDC_MODEL_UNIT_FLAG_OFF || u == ASCENDC_MODEL_UNIT_FLAG_KEEP || u == ASCENDC_MODEL_UNIT_FLAG_RELEASE;
}

inline uint32_t dtype_bytes(uint32_t t) {
    switch (t) {
        case ASCENDC_MODEL_F16: case ASCENDC_MODEL_BF16: return 2;
        case ASCENDC_MODEL_F32: case ASCENDC_MODEL_I32: return 4;
        case ASCENDC_MODEL_I8: return 1;
        default: return 0;
    }
}

inline float load_float(const uint8_t* p, uint32_t t) {
    if (t == ASCENDC_MODEL_F16) { uint16_t h; std::memcpy(&h, p, 2); return f16_bits_to_f32(h); }
    if (t == ASCENDC_MODEL_BF16) { uint16_t h; std::memcpy(&h, p, 2); return bf16_bits_to_f32(h); }
    float f; std::memcpy(&f, p, 4); return f;
}

inline int32_t mmad(void* c, const void* a, const void* b, uint32_t ab_dtype, uint32_t c_dtype, const ascendc_model_mmad_params& p,
                    uint32_t target) {
    san::Call call("Mmad", san::PIPE_M);
    if (!valid_target(target)) return fail(ASCENDC_MODEL_E_INVALID, "Mmad: unknown target");
    const bool is_int = ab_dtype == ASCENDC_MODEL_I8;
    if (is_int ? c_dtype != ASCENDC_MODEL_I32
               : (c_dtype != ASCENDC_MODEL_F32 || (ab_dtype != ASCENDC_MODEL_F16 && ab_dtype != ASCENDC_MODEL_BF16 && ab_dtype != ASCENDC_MODEL_F32)))
        return fail(ASCENDC_MODEL_E_UNSUPPORTED, "Mmad: supported (A/B -> C): f16/bf16/f32 -> f32, i8 -> i32");
    if (p.isBias || p.cmatrixSource || p.enSsparse || p.enWinogradA || p.enWinogradB || p.fmOffset != 0)
        return fail(ASCENDC_MODEL_E_UNSUPPORTED, "Mmad: bias, sparse, winograd and fmOffset are not modelled");
    if (!unit_flag_defined(p.unitFlag)) return fail(ASCENDC_MODEL_E_INVALID, "Mmad: unitFlag must be 0, 2 or 3 (asc-devkit UnitFlag)");
    san::unit_flag(p.unitFlag);
    const uint64_t eb = dtype_bytes(ab_dtype), c0 = C0_BYTES / eb, frac = 16 * c0;
    // Arch 3510: m = 1 with disableGemv false is GEMV mode, A read as K contiguous elements
    // (AscendC "Mmad" / GEMV pages; docs/ascendc-derivation.md §7).
    const bool gemv = target != ASCENDC_MODEL_ARCH_A2 && p.m == 1 && !p.disableGemv;
    const uint64_t m1 = (p.m + 15u) / 16u, k1 = (p.k + c0 - 1) / c0, n1 = (p.n + 15u) / 16u;
    const uint8_t* A = static_cast<const uint8_t*>(a);
    const uint8_t* B = static_cast<const uint8_t*>(b);
    const uint64_t cb = dtype_bytes(c_dtype);
    san::reads(A, m1 * k1 * frac * eb);  // the operands' fractal footprints (synccheck)
    san::reads(B, k1 * n1 * frac * eb);
    if (!p.cmatrixInitVal) san::reads(c, m1 * n1 * 256 * cb);
    san::writes(c, m1 * n1 * 256 * cb);
    for (uint64_t i = 0; i < p.m; ++i)
        for (uint64_t j = 0; j < p.n; ++j) {
            const uint64_t coff = (j / 16) * m1 * 256 + (i / 16) * 256 + (i % 16) * 16 + j % 16;
            float facc = 0.0f;
            int32_t iacc = 0;
            bool defined = true;
            for (uint64_t kk = 0; kk < p.k; ++kk) {
                const uint64_t in_a = (i % 16) * c0 + kk % c0;
                const uint64_t aoff = gemv ? kk  // GEMV: the 1 x K row is contiguous
                                      : target == ASCENDC_MODEL_ARCH_A2 ? (i / 16) * k1 * frac + (kk / c0) * frac + in_a   // ZZ
                                                                        : (kk / c0) * m1 * frac + (i / 16) * frac + in_a;  // NZ
                const uint64_t boff = (kk / c0) * n1 * frac + (j / 16) * frac + (j % 16) * c0 + kk % c0;  // ZN
                if (!san::operand_elem(A + aoff * eb, eb, defined) || !san::operand_elem(B + boff * eb, eb, defined)) continue;
                if (is_int) {
                    iacc += (int32_t)(int8_t)A[aoff] * (int32_t)(int8_t)B[boff];
                } else {
                    facc += load_float(A + aoff * eb, ab_dtype) * load_float(B + boff * eb, ab_dtype);
                }
            }
            uint8_t* to = static_cast<uint8_t*>(c) + coff * cb;
            if (!p.cmatrixInitVal && !san::operand_elem(to, cb, defined)) continue;
            if (!san::result_elem(to, cb, defined)) continue;
            if (is_int) {
                int32_t* C = static_cast<int32_t*>(c);
                C[coff] = p.cmatrixInitVal ? iacc : (int32_t)((uint32_t)C[coff] + (uint32_t)iacc);
            } else {
                float* C = static_cast<float*>(c);
                C[coff] = p.cmatrixInitVal ? facc : C[coff] + facc;
            }
        }
    return ASCENDC_MODEL_OK;
}

// ---- Fixpipe ----------------------------------------------------------------------------------
// Checks of both Fixpipe forms (target, ndNum, the supported quantPre / type pairs).
inline int32_t fixpipe_check(uint32_t dst_dtype, uint32_t src_dtype, const ascendc_model_fixpipe_params_v220& p, uint32_t target) {
    if (!valid_target(target)) return fail(ASCENDC_MODEL_E_INVALID, "Fixpipe: unknown target");
    if (p.ndNum != 1) return fail(ASCENDC_MODEL_E_UNSUPPORTED, "Fixpipe: only ndNum = 1 is modelled");
    if (!unit_flag_defined(p.unitFlag)) return fail(ASCENDC_MODEL_E_INVALID, "Fixpipe: unitFlag must be 0, 2 or 3 (asc-devkit UnitFlag)");
    san::unit_flag(p.unitFlag);
    const bool ok = (p.quantPre == ASCENDC_MODEL_QUANT_NOQUANT && dst_dtype == src_dtype && (src_dtype == ASCENDC_MODEL_F32 || src_dtype == ASCENDC_MODEL_I32)) ||
                    (p.quantPre == ASCENDC_MODEL_QUANT_F322F16 && src_dtype == ASCENDC_MODEL_F32 && dst_dtype == ASCENDC_MODEL_F16) ||
                    (p.quantPre == ASCENDC_MODEL_QUANT_F322BF16 && src_dtype == ASCENDC_MODEL_F32 && dst_dtype == ASCENDC_MODEL_BF16) ||
                    (p.quantPre == ASCENDC_MODEL_QUANT_DEQF16 && src_dtype == ASCENDC_MODEL_I32 && dst_dtype == ASCENDC_MODEL_F16);
    if (!ok) return fail(ASCENDC_MODEL_E_UNSUPPORTED, "Fixpipe: supported quantPre: NoQuant f32->f32 / i32->i32, F322F16, F322BF16, DEQF16 i32->f16");
    const uint32_t atomic = launch().atomic_add;
    if (atomic != 0 && target != ASCENDC_MODEL_ARCH_A2)
        return fail(ASCENDC_MODEL_E_UNSUPPORTED, "Fixpipe: SetAtomicAdd is modelled on arch 2201 (A2/A3) only");
    if (atomic != 0 && atomic != dst_dtype)
        return fail(ASCENDC_MODEL_E_INVALID, "Fixpipe: the SetAtomicAdd<T> type differs from the destination type");
    return ASCENDC_MODEL_OK;
}

// The DEQF16 scale: the f32 in the low 32 bits of deqScalar, low 13 mantissa bits cleared.
inline float deq_scale(uint64_t deq_scalar) {
    uint32_t bits = (uint32_t)(deq_scalar & 0xffffffffu) & ~0x1fffu;
    float s;
    std::memcpy(&s, &bits, 4);
    return s;
}

// One element: L0C element `so` (in accumulator elements), quantPre, ReLU, stored at `to`.
// Under SetAtomicAdd the converted value is added to the GM element: IEEE addition in the
// destination type, round to nearest even (computed in f32 and rounded once: exact for f16 and
// bf16, whose sums f32 holds to 2p + 2 bits), wrapping for i32.
inline void fixpipe_element(uint8_t* to, const uint8_t* s, uint64_t so, uint32_t dst_dtype, uint32_t src_dtype,
                            const ascendc_model_fixpipe_params_v220& p) {
    const bool atomic = launch().atomic_add != 0;
    if (!san::use(s + so * 4, 4)) return;
    if (!(atomic ? san::def_atomic(to, dtype_bytes(dst_dtype)) : san::def(to, dtype_bytes(dst_dtype)))) return;
    if (src_dtype == ASCENDC_MODEL_I32 && dst_dtype == ASCENDC_MODEL_I32) {
        int32_t v; std::memcpy(&v, s + so * 4, 4);
        if (p.reluEn && v < 0) v = 0;
        if (atomic) {
            int32_t old; std::memcpy(&old, to, 4);
            v = (int32_t)((uint32_t)old + (uint32_t)v);
        }
        std::memcpy(to, &v, 4);
        return;
    }
    float v;
    if (src_dtype == ASCENDC_MODEL_I32) {  // DEQF16 (checked)
        int32_t x; std::memcpy(&x, s + so * 4, 4);
        v = (float)x * deq_scale(p.deqScalar);
    } else {
        std::memcpy(&v, s + so * 4, 4);
    }
    if (p.reluEn && !(v > 0.0f) && v == v) v = 0.0f;
    if (p.quantPre == ASCENDC_MODEL_QUANT_DEQF16) v = v > 65504.0f ? 65504.0f : (v < -65504.0f ? -65504.0f : v);
    if (dst_dtype == ASCENDC_MODEL_F32) {
        if (atomic) {
            float old; std::memcpy(&old, to, 4);
            v = old + v;
        }
        std::memcpy(to, &v, 4);
    } else {
        const bool f16 = dst_dtype == ASCENDC_MODEL_F16;
        uint16_t h = f16 ? f32_to_f16_bits(v) : f32_to_bf16_bits(v);
        if (atomic) {
            uint16_t old; std::memcpy(&old, to, 2);
            const float sum = (f16 ? f16_bits_to_f32(old) : bf16_bits_to_f32(old)) + (f16 ? f16_bits_to_f32(h) : bf16_bits_to_f32(h));
            h = f16 ? f32_to_f16_bits(sum) : f32_to_bf16_bits(sum);
        }
        std::memcpy(to, &h, 2);
    }
}

inline int32_t fixpipe_nz2nd(void* dst, const void* src, uint32_t dst_dtype, uint32_t src_dtype, const ascendc_model_fixpipe_params_v220& p,
                             uint32_t target) {
    san::Call call("Fixpipe", san::PIPE_FIX);
    if (int32_t st = fixpipe_check(dst_dtype, src_dtype, p, target)) return st;
    if (p.isChannelSplit) return fail(ASCENDC_MODEL_E_UNSUPPORTED, "Fixpipe: isChannelSplit applies to NZ output (CFG_NZ) only");
    uint8_t* d = static_cast<uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    const uint32_t db = dtype_bytes(dst_dtype);
    for (uint64_t j = 0; j < p.mSize; ++j)
        for (uint64_t c = 0; c < p.nSize; ++c) {
            const uint64_t so = (c / 16) * (uint64_t)p.srcStride * 16 + j * 16 + c % 16;
            fixpipe_element(d + (j * (uint64_t)p.dstStride + c) * db, s, so, dst_dtype, src_dtype, p);
        }
    return ASCENDC_MODEL_OK;
}

// NZ2NZ (CFG_NZ); semantics and sources at the top of this file.
inline int32_t fixpipe_nz2nz(void* dst, const void* src, uint32_t dst_dtype, uint32_t src_dtype, const ascendc_model_fixpipe_params_v220& p,
                             uint32_t target) {
    san::Call call("Fixpipe", san::PIPE_FIX);
    if (int32_t st = fixpipe_check(dst_dtype, src_dtype, p, target)) return st;
    if (p.isChannelSplit && !(src_dtype == ASCENDC_MODEL_F32 && dst_dtype == ASCENDC_MODEL_F32))
        return fail(ASCENDC_MODEL_E_INVALID, "Fixpipe: isChannelSplit needs f32 -> f32");
    const uint64_t w = p.isChannelSplit ? 8 : 16;  // destination columns per block
    if (p.nSize % w != 0) return fail(ASCENDC_MODEL_E_INVALID, "Fixpipe CFG_NZ: nSize must be a multiple of 16 (of 8 with isChannelSplit)");
    uint8_t* d = static_cast<uint8_t*>(dst);
    const uint8_t* s = static_cast<const uint8_t*>(src);
    const uint32_t db = dtype_bytes(dst_dtype);
    // dstStride between destination column blocks: 32 B units on 2201, elements on 3510.
    const uint64_t block = (uint64_t)p.dstStride * (target == ASCENDC_MODEL_ARCH_A2 ? 32 : db);
    for (uint64_t b = 0; b < p.nSize / w; ++b)
        for (uint64_t j = 0; j < p.mSize; ++j)
            for (uint64_t c = 0; c < w; ++c) {
                const uint64_t col = b * w + c;
                const uint64_t so = (col / 16) * (uint64_t)p.srcStride * 16 + j * 16 + col % 16;
                fixpipe_element(d + b * block + (j * w + c) * db, s, so, dst_dtype, src_dtype, p);
            }
    return ASCENDC_MODEL_OK;
}

}  // namespace ascendc_model

#endif
