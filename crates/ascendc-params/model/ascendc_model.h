// ascendc_model.h — a CPU model of the subset of the AscendC C++ API our compiler emits.
//
// Include this instead of "kernel_operator.h" and compile an emitted kernel with
// `g++ -std=c++17 -I crates/ascendc-params/model kernel.cpp`. Every intrinsic forwards to the
// implementation in ascendc_model_impl.h, the same code the C ABI (ascendc_model_abi.h) wraps
// for the JIT: one model, two consumers.
//
// Provided: `half`, `bfloat16_t` (IEEE binary16 / bfloat16 storage, float conversions rounding
// to nearest even); AscendC::GlobalTensor / LocalTensor (pointer + element offset, operator[]
// shifts); LocalMemAllocator<Hardware::L1|L0A|L0B|L0C> (bump allocation in static arenas with
// the hardware alignment: 32 B, 512 B, 512 B, 64 B); the parameter structs Nd2NzParams,
// DataCopyParams, LoadData2DParams, LoadData2DParamsV2, LoadData2dTransposeParams, MmadParams, FixpipeParamsV220,
// FixpipeParamsArch3510<CO2Layout> (arch 3510) (field
// order of the AscendC constructors); DataCopy, LoadData, Mmad, Fixpipe (CFG_ROW_MAJOR = NZ2ND);
// SetFlag / WaitFlag / PipeBarrier (checked by the sanitizer, ascendc_model_sanitizer.h; each call
// records its source line as the sanitizer's site); InitSocState, GetBlockIdx (0).
//
// Target: AscendC::model::SetTarget(2201 | 3510); the default is ASCENDC_MODEL_ARCH (2201 when
// undefined). The target decides the L0A layout Mmad reads (ZZ on 2201, NZ on 3510).
// Errors (unsupported modes): the intrinsic does nothing, AscendC::model::ErrorCount() grows and
// AscendC::model::LastError() describes it.
#ifndef ASCENDC_MODEL_H
#define ASCENDC_MODEL_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc_model_impl.h"

#ifndef __aicore__
#define __aicore__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __gm__
#define __gm__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef ASCENDC_MODEL_ARCH
#define ASCENDC_MODEL_ARCH 2201
#endif

// ---- scalar types -----------------------------------------------------------------------------
struct half {
    uint16_t bits;  // trivial type: storage may be memset/memcpy-ed like the hardware does
    half() = default;
    half(float f) : bits(ascendc_model::f32_to_f16_bits(f)) {}
    half(double d) : half(static_cast<float>(d)) {}
    half(int i) : half(static_cast<float>(i)) {}
    operator float() const { return ascendc_model::f16_bits_to_f32(bits); }
    static half FromBits(uint16_t b) { half h; h.bits = b; return h; }
};

struct bfloat16_t {
    uint16_t bits;  // trivial type: storage may be memset/memcpy-ed like the hardware does
    bfloat16_t() = default;
    bfloat16_t(float f) : bits(ascendc_model::f32_to_bf16_bits(f)) {}
    bfloat16_t(double d) : bfloat16_t(static_cast<float>(d)) {}
    bfloat16_t(int i) : bfloat16_t(static_cast<float>(i)) {}
    operator float() const { return ascendc_model::bf16_bits_to_f32(bits); }
    static bfloat16_t FromBits(uint16_t b) { bfloat16_t h; h.bits = b; return h; }
};
static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "16-bit storage");

namespace AscendC {

namespace model {
inline uint32_t& TargetRef() { static uint32_t t = ASCENDC_MODEL_ARCH; return t; }
inline void SetTarget(uint32_t arch) { TargetRef() = arch; }
inline uint32_t Target() { return TargetRef(); }
inline uint64_t& ErrorCountRef() { static uint64_t n = 0; return n; }
inline uint64_t ErrorCount() { return ErrorCountRef(); }
inline const char* LastError() { return ascendc_model::error_buffer(); }
inline void Check(int32_t status) { if (status != ASCENDC_MODEL_OK) ++ErrorCountRef(); }

template <class T> struct DType;
template <> struct DType<half> { static constexpr uint32_t code = ASCENDC_MODEL_F16; };
template <> struct DType<bfloat16_t> { static constexpr uint32_t code = ASCENDC_MODEL_BF16; };
template <> struct DType<float> { static constexpr uint32_t code = ASCENDC_MODEL_F32; };
template <> struct DType<int8_t> { static constexpr uint32_t code = ASCENDC_MODEL_I8; };
template <> struct DType<int32_t> { static constexpr uint32_t code = ASCENDC_MODEL_I32; };
template <class T> constexpr uint32_t Bits() { return static_cast<uint32_t>(sizeof(T) * 8); }
}  // namespace model

enum class TPosition { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC };
enum class Hardware { GM, L1, L0A, L0B, L0C, UB };

template <class T> class GlobalTensor {
public:
    using PrimType = T;
    __aicore__ void SetGlobalBuffer(__gm__ T* buffer, uint64_t size = 0) { ptr_ = buffer; size_ = size; }
    __aicore__ GlobalTensor operator[](uint64_t offset) const { GlobalTensor t = *this; t.ptr_ += offset; return t; }
    __aicore__ T* GetPhyAddr() const { return ptr_; }
    __aicore__ T GetValue(uint64_t i) const { return ptr_[i]; }
    __aicore__ void SetValue(uint64_t i, T v) { ptr_[i] = v; }
    __aicore__ uint64_t GetSize() const { return size_; }
private:
    T* ptr_ = nullptr;
    uint64_t size_ = 0;
};

template <class T> class LocalTensor {
public:
    using PrimType = T;
    LocalTensor() = default;
    LocalTensor(T* p, uint32_t size, TPosition pos) : ptr_(p), size_(size), pos_(pos) {}
    __aicore__ LocalTensor operator[](uint32_t offset) const { LocalTensor t = *this; t.ptr_ += offset; return t; }
    __aicore__ T* GetPhyAddr() const { return ptr_; }
    __aicore__ T GetValue(uint32_t i) const { return ptr_[i]; }
    __aicore__ void SetValue(uint32_t i, T v) { ptr_[i] = v; }
    __aicore__ uint32_t GetSize() const { return size_; }
    __aicore__ TPosition GetPosition() const { return pos_; }
private:
    T* ptr_ = nullptr;
    uint32_t size_ = 0;
    TPosition pos_ = TPosition::GM;
};

namespace model {
// Static arenas standing in for the on-chip buffers (sizes generous for both targets).
template <Hardware H> struct Arena;
template <> struct Arena<Hardware::L1> { static constexpr size_t bytes = 1u << 20, align = 32; };
template <> struct Arena<Hardware::L0A> { static constexpr size_t bytes = 64u << 10, align = 512; };
template <> struct Arena<Hardware::L0B> { static constexpr size_t bytes = 64u << 10, align = 512; };
template <> struct Arena<Hardware::L0C> { static constexpr size_t bytes = 256u << 10, align = 64; };
template <> struct Arena<Hardware::UB> { static constexpr size_t bytes = 256u << 10, align = 32; };
template <Hardware H> inline uint8_t* ArenaBase() {
    alignas(4096) static uint8_t storage[Arena<H>::bytes];
    return storage;
}
}  // namespace model

// Bump allocator over one on-chip buffer; every allocator starts at the buffer's address 0.
// Constructing one (a kernel does, once per memory, at its start) poisons the whole buffer with
// 0xFF bytes (f16/bf16/f32 NaN, i8 -1): on hardware it holds whatever was there, so a kernel that
// reads what it did not write fails here, on every run, as in the loop lowering's JIT.
template <Hardware H> class LocalMemAllocator {
public:
    LocalMemAllocator() { std::memset(model::ArenaBase<H>(), 0xFF, model::Arena<H>::bytes); }
    template <TPosition P, class T> LocalTensor<T> Alloc(uint32_t count) {
        const size_t a = model::Arena<H>::align;
        used_ = (used_ + a - 1) / a * a;
        const size_t bytes = static_cast<size_t>(count) * sizeof(T);
        if (used_ + bytes > model::Arena<H>::bytes) {
            model::Check(ascendc_model::fail(ASCENDC_MODEL_E_INVALID, "LocalMemAllocator: buffer exhausted"));
            return LocalTensor<T>();
        }
        T* p = reinterpret_cast<T*>(model::ArenaBase<H>() + used_);
        used_ += bytes;
        return LocalTensor<T>(p, count, P);
    }
private:
    size_t used_ = 0;
};

// ---- parameter structs (AscendC field order; ABI widths, see ascendc_model_abi.h) ------------
struct Nd2NzParams : ascendc_model_nd2nz_params {
    Nd2NzParams() : ascendc_model_nd2nz_params{} {}
    template <class A, class B, class C, class D, class E, class F, class G, class H>
    Nd2NzParams(A ndNum_, B nValue_, C dValue_, D srcNdMatrixStride_, E srcDValue_, F dstNzC0Stride_, G dstNzNStride_, H dstNzMatrixStride_)
        : ascendc_model_nd2nz_params{} {
        ndNum = ndNum_; nValue = nValue_; dValue = dValue_; srcNdMatrixStride = srcNdMatrixStride_; srcDValue = srcDValue_;
        dstNzC0Stride = dstNzC0Stride_; dstNzNStride = dstNzNStride_; dstNzMatrixStride = dstNzMatrixStride_;
    }
};

struct DataCopyParams : ascendc_model_data_copy_params {
    DataCopyParams() : ascendc_model_data_copy_params{1, 0, 0, 0} {}
    template <class A, class B, class C, class D>
    DataCopyParams(A blockCount_, B blockLen_, C srcStride_, D dstStride_) : ascendc_model_data_copy_params{} {
        blockCount = blockCount_; blockLen = blockLen_; srcStride = srcStride_; dstStride = dstStride_;
    }
};

struct LoadData2DParams : ascendc_model_load_data_2d_params {
    LoadData2DParams() : ascendc_model_load_data_2d_params{} {}
    template <class A, class B, class C, class D, class E, class F, class G>
    LoadData2DParams(A startIndex_, B repeatTimes_, C srcStride_, D sid_, E dstGap_, F ifTranspose_, G addrMode_)
        : ascendc_model_load_data_2d_params{} {
        startIndex = startIndex_; repeatTimes = repeatTimes_; srcStride = srcStride_; sid = sid_; dstGap = dstGap_;
        ifTranspose = ifTranspose_; addrMode = addrMode_;
    }
};

struct LoadData2DParamsV2 : ascendc_model_load_data_2d_params_v2 {
    LoadData2DParamsV2() : ascendc_model_load_data_2d_params_v2{} {}
    template <class A, class B, class C, class D, class E, class F, class G, class H>
    LoadData2DParamsV2(A mStartPosition_, B kStartPosition_, C mStep_, D kStep_, E srcStride_, F dstStride_, G ifTranspose_, H sid_)
        : ascendc_model_load_data_2d_params_v2{} {
        mStartPosition = mStartPosition_; kStartPosition = kStartPosition_; mStep = mStep_; kStep = kStep_;
        srcStride = srcStride_; dstStride = dstStride_; ifTranspose = ifTranspose_; sid = sid_;
    }
};

struct LoadData2dTransposeParams : ascendc_model_load_data_2d_transpose_params {
    LoadData2dTransposeParams() : ascendc_model_load_data_2d_transpose_params{} {}
    template <class A, class B, class C, class D, class E, class F>
    LoadData2dTransposeParams(A startIndex_, B repeatTimes_, C srcStride_, D dstGap_, E dstFracGap_, F addrMode_)
        : ascendc_model_load_data_2d_transpose_params{} {
        startIndex = startIndex_; repeatTimes = repeatTimes_; srcStride = srcStride_; dstGap = dstGap_;
        dstFracGap = dstFracGap_; addrMode = addrMode_;
    }
};

struct MmadParams : ascendc_model_mmad_params {
    MmadParams() : ascendc_model_mmad_params{} { cmatrixInitVal = true; }
    template <class A, class B, class C>
    MmadParams(A m_, B n_, C k_) : MmadParams() { m = m_; n = n_; k = k_; }
    template <class A, class B, class C, class D, class E, class F>
    MmadParams(A m_, B n_, C k_, D unitFlag_, E cmatrixSource_, F cmatrixInitVal_) : MmadParams() {
        m = m_; n = n_; k = k_; unitFlag = unitFlag_; cmatrixSource = cmatrixSource_; cmatrixInitVal = cmatrixInitVal_;
    }
};

enum QuantMode_t : uint32_t {
    NoQuant = ASCENDC_MODEL_QUANT_NOQUANT,
    F322F16 = ASCENDC_MODEL_QUANT_F322F16,
    F322BF16 = ASCENDC_MODEL_QUANT_F322BF16,
    DEQF16 = ASCENDC_MODEL_QUANT_DEQF16,
};

struct FixpipeParamsV220 : ascendc_model_fixpipe_params_v220 {
    FixpipeParamsV220() : ascendc_model_fixpipe_params_v220{} { ndNum = 1; }
    template <class A, class B, class C, class D, class E, class F, class G, class H, class I, class J, class K>
    FixpipeParamsV220(A nSize_, B mSize_, C srcStride_, D dstStride_, E reluEn_, F quantPre_, G deqScalar_, H ndNum_, I srcNdStride_,
                      J dstNdStride_, K unitFlag_)
        : FixpipeParamsV220() {
        nSize = nSize_; mSize = mSize_; srcStride = srcStride_; dstStride = dstStride_; reluEn = reluEn_;
        quantPre = static_cast<uint32_t>(quantPre_); deqScalar = deqScalar_; ndNum = ndNum_; srcNdStride = srcNdStride_;
        dstNdStride = dstNdStride_; unitFlag = unitFlag_;
    }
    template <class A, class B, class C, class D, class E, class F, class G, class H, class I, class J, class K, class L>
    FixpipeParamsV220(A nSize_, B mSize_, C srcStride_, D dstStride_, E reluEn_, F quantPre_, G deqScalar_, H ndNum_, I srcNdStride_,
                      J dstNdStride_, K unitFlag_, L isChannelSplit_)
        : FixpipeParamsV220(nSize_, mSize_, srcStride_, dstStride_, reluEn_, quantPre_, deqScalar_, ndNum_, srcNdStride_, dstNdStride_, unitFlag_) {
        isChannelSplit = isChannelSplit_;
    }
};

enum class CO2Layout { NZ, ROW_MAJOR, COLUMN_MAJOR };

// Arch 3510: FixpipeParamsArch3510<format> (asc-devkit kernel_struct_fixpipe.h); the NZ2ND
// matrix count and strides are members of `params` (Nz2NdParams), NZ2NZ has a uint8_t there,
// and NZ2NZ dstStride counts elements. Converted to the C ABI struct, which holds every field.
struct Nz2NdParams { uint16_t ndNum = 1; uint16_t srcNdStride = 0; uint32_t dstNdStride = 0; };
template <CO2Layout F> struct TransformParams { using PARAMS = uint8_t; };
template <> struct TransformParams<CO2Layout::ROW_MAJOR> { using PARAMS = Nz2NdParams; };
template <CO2Layout F = CO2Layout::ROW_MAJOR>
struct FixpipeParamsArch3510 {
    uint16_t nSize = 0;
    uint16_t mSize = 0;
    uint16_t srcStride = 0;
    uint32_t dstStride = 0;
    QuantMode_t quantPre = NoQuant;
    uint64_t deqScalar = 0;
    bool reluEn = false;
    uint8_t unitFlag = 0;
    uint8_t dualDstCtl = 0;
    bool subBlockId = false;
    typename TransformParams<F>::PARAMS params{};
    bool isChannelSplit = false;
    ascendc_model_fixpipe_params_v220 Abi() const {
        ascendc_model_fixpipe_params_v220 a{};
        a.nSize = nSize; a.mSize = mSize; a.srcStride = srcStride; a.dstStride = dstStride; a.reluEn = reluEn;
        a.quantPre = static_cast<uint32_t>(quantPre); a.deqScalar = deqScalar; a.unitFlag = unitFlag;
        a.isChannelSplit = isChannelSplit; a.ndNum = 1;
        if constexpr (F == CO2Layout::ROW_MAJOR) {
            a.ndNum = params.ndNum; a.srcNdStride = params.srcNdStride; a.dstNdStride = params.dstNdStride;
        }
        return a;
    }
};
struct FixpipeConfig { CO2Layout format; };
inline constexpr FixpipeConfig CFG_NZ{CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR{CO2Layout::ROW_MAJOR};
inline constexpr FixpipeConfig CFG_COLUMN_MAJOR{CO2Layout::COLUMN_MAJOR};

// ---- synchronization: the model runs in program order; the sanitizer checks the flags ----------
enum class HardEvent { MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, M_FIX, FIX_M, FIX_MTE2, MTE2_FIX, MTE2_V, V_MTE3, MTE3_MTE2, MTE2_MTE3 };
enum event_t { EVENT_ID0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
enum pipe_t { PIPE_S, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_FIX };
namespace model {
// (source pipe, destination pipe) of an event, pipe_t numbering.
constexpr uint32_t EventPipes(HardEvent e, bool dst) {
    const pipe_t pair[][2] = {{PIPE_MTE2, PIPE_MTE1}, {PIPE_MTE1, PIPE_MTE2}, {PIPE_MTE1, PIPE_M}, {PIPE_M, PIPE_MTE1},
                              {PIPE_M, PIPE_FIX},     {PIPE_FIX, PIPE_M},     {PIPE_FIX, PIPE_MTE2}, {PIPE_MTE2, PIPE_FIX},
                              {PIPE_MTE2, PIPE_V},    {PIPE_V, PIPE_MTE3},    {PIPE_MTE3, PIPE_MTE2}, {PIPE_MTE2, PIPE_MTE3}};
    return pair[static_cast<int>(e)][dst ? 1 : 0];
}
}  // namespace model
template <HardEvent E> __aicore__ inline void SetFlag(int32_t id, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    ascendc_model::san::set_flag(model::EventPipes(E, false), model::EventPipes(E, true), static_cast<uint32_t>(id));
}
template <HardEvent E> __aicore__ inline void WaitFlag(int32_t id, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    ascendc_model::san::wait_flag(model::EventPipes(E, false), model::EventPipes(E, true), static_cast<uint32_t>(id));
}
template <pipe_t P> __aicore__ inline void PipeBarrier() { ascendc_model::san::barrier(P); }
__aicore__ inline void InitSocState() {}
__aicore__ inline int64_t GetBlockIdx() { return ascendc_model::launch().block_idx; }
__aicore__ inline int64_t GetBlockNum() { return ascendc_model::launch().block_num; }
template <class T> __aicore__ inline void SetAtomicAdd() { ascendc_model::set_atomic_add(model::DType<T>::code); }
__aicore__ inline void SetAtomicNone() { ascendc_model::set_atomic_none(); }

// ---- intrinsics -------------------------------------------------------------------------------
template <class T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const Nd2NzParams& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    model::Check(ascendc_model::data_copy_nd2nz(dst.GetPhyAddr(), src.GetPhyAddr(), model::Bits<T>(), p, model::Target()));
}
template <class T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    model::Check(ascendc_model::data_copy(dst.GetPhyAddr(), src.GetPhyAddr(), p, model::Target()));
}
template <class T> __aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    model::Check(ascendc_model::data_copy(dst.GetPhyAddr(), src.GetPhyAddr(), p, model::Target()));
}
template <class T> __aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    model::Check(ascendc_model::data_copy(dst.GetPhyAddr(), src.GetPhyAddr(), p, model::Target()));
}
template <class T> __aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParams& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    model::Check(ascendc_model::load_data_2d(dst.GetPhyAddr(), src.GetPhyAddr(), model::Bits<T>(), p, model::Target()));
}
template <class T> __aicore__ inline void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2DParamsV2& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    model::Check(ascendc_model::load_data_2d_v2(dst.GetPhyAddr(), src.GetPhyAddr(), model::Bits<T>(), p, model::Target()));
}
template <class T>
__aicore__ inline void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LoadData2dTransposeParams& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    model::Check(ascendc_model::load_data_with_transpose(dst.GetPhyAddr(), src.GetPhyAddr(), model::Bits<T>(), p, model::Target()));
}
template <class T, class U, class S>
__aicore__ inline void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter, const MmadParams& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    static_assert(std::is_same<U, S>::value, "the model supports A and B of one type");
    model::Check(ascendc_model::mmad(dst.GetPhyAddr(), fm.GetPhyAddr(), filter.GetPhyAddr(), model::DType<U>::code, model::DType<T>::code, p,
                                     model::Target()));
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsV220& p, uint32_t line = __builtin_LINE()) {
    ascendc_model::san::site(static_cast<int32_t>(line));
    if (config.format == CO2Layout::NZ) {
        model::Check(ascendc_model::fixpipe_nz2nz(dst.GetPhyAddr(), src.GetPhyAddr(), model::DType<T>::code, model::DType<U>::code, p, model::Target()));
        return;
    }
    if (config.format != CO2Layout::ROW_MAJOR) {
        model::Check(ascendc_model::fail(ASCENDC_MODEL_E_UNSUPPORTED, "Fixpipe: CFG_COLUMN_MAJOR (NZ2DN) is not modelled"));
        return;
    }
    model::Check(ascendc_model::fixpipe_nz2nd(dst.GetPhyAddr(), src.GetPhyAddr(), model::DType<T>::code, model::DType<U>::code, p, model::Target()));
}
template <class T, class U, const FixpipeConfig& config = CFG_ROW_MAJOR, CO2Layout F>
__aicore__ inline void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const FixpipeParamsArch3510<F>& p, uint32_t line = __builtin_LINE()) {
    static_assert(F == config.format, "FixpipeParamsArch3510<format> must match the CFG_* format");
    if (model::Target() != ASCENDC_MODEL_ARCH_A5) {
        model::Check(ascendc_model::fail(ASCENDC_MODEL_E_INVALID, "Fixpipe: FixpipeParamsArch3510 is the arch-3510 struct"));
        return;
    }
    FixpipeParamsV220 q;
    static_cast<ascendc_model_fixpipe_params_v220&>(q) = p.Abi();
    Fixpipe<T, U, config>(dst, src, q, line);
}

}  // namespace AscendC

#endif
