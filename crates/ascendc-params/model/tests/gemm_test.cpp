// End-to-end GEMM through the CPU model: GM ND -> L1 NZ -> L0A/L0B -> Mmad -> L0C -> Fixpipe ->
// GM ND, f16 and i8, aligned and with tails, arch 2201 and 3510, through the C++ API and through
// the C ABI, compared with a plain reference loop and with each other (bit for bit).
// Built and run by crates/ascendc-params/tests/cpp_model.rs:
//   g++ -std=c++17 -Wall -Wextra -Werror -I model model/tests/gemm_test.cpp model/ascendc_model_abi.cpp
// Parameters are written the way an emitted kernel writes them (catlass formulas); the proof
// that our compiler *derives* them from layouts is in the Rust tests.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "ascendc_model.h"

using namespace AscendC;

static int failures = 0;
#define EXPECT(cond, ...)                        \
    do {                                         \
        if (!(cond)) {                           \
            std::printf("FAIL %s:%d: ", __FILE__, __LINE__); \
            std::printf(__VA_ARGS__);            \
            std::printf("\n");                   \
            ++failures;                          \
        }                                        \
    } while (0)

static uint32_t al(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

struct Case {
    uint32_t target;
    uint32_t M, K, N;
    bool bDN;         // B stored as DN (N x K row-major = B^T): L1 ZN, L0B load without transpose
    bool halfOut;     // f16 only: Fixpipe F322F16 to a half output instead of NoQuant f32
    bool accumulate;  // run Mmad twice, the second time with cmatrixInitVal = false (C = 2AB)
};

// Buffers of one run, so the C++ API run and the C ABI run can be compared byte for byte.
struct Buffers {
    std::vector<uint8_t> l1a, l1b, l0a, l0b, l0c, out;
};

template <class T, class Acc, class Out>
static void kernel_cpp(const Case& c, const std::vector<T>& a, const std::vector<T>& b, Buffers& buf) {
    model::SetTarget(c.target);
    const uint32_t C0 = 32 / sizeof(T), F = 16 * C0;
    const uint32_t M16 = al(c.M, 16), M1 = M16 / 16, K1 = al(c.K, C0) / C0, N16 = al(c.N, 16), N1 = N16 / 16;
    const uint32_t KB16 = al(c.K, 16);  // rows of B in L1 when B is ND (NZ(K,N))
    GlobalTensor<T> aGM, bGM;
    GlobalTensor<Out> cGM;
    aGM.SetGlobalBuffer(const_cast<T*>(a.data()));
    bGM.SetGlobalBuffer(const_cast<T*>(b.data()));
    std::vector<Out> out(size_t(c.M) * c.N);
    cGM.SetGlobalBuffer(out.data());

    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0A> l0a;
    LocalMemAllocator<Hardware::L0B> l0b;
    LocalMemAllocator<Hardware::L0C> l0c;
    const uint32_t aL1 = M16 * K1 * C0, bL1 = c.bDN ? N16 * K1 * C0 : KB16 * al(c.N, C0);
    auto a1 = l1.Alloc<TPosition::A1, T>(aL1);
    auto b1 = l1.Alloc<TPosition::B1, T>(bL1);
    auto a2 = l0a.Alloc<TPosition::A2, T>(M16 * K1 * C0);
    auto b2 = l0b.Alloc<TPosition::B2, T>(K1 * C0 * N16);
    auto c1 = l0c.Alloc<TPosition::CO1, Acc>(M16 * N16);
    std::memset(a1.GetPhyAddr(), 0x7f, aL1 * sizeof(T));
    std::memset(b1.GetPhyAddr(), 0x7f, bL1 * sizeof(T));
    std::memset(a2.GetPhyAddr(), 0x7f, M16 * K1 * C0 * sizeof(T));
    std::memset(b2.GetPhyAddr(), 0x7f, K1 * C0 * N16 * sizeof(T));
    std::memset(c1.GetPhyAddr(), 0x7f, M16 * N16 * sizeof(Acc));

    DataCopy(a1, aGM, Nd2NzParams(1, c.M, c.K, 0, c.K, M16, 1, 0));
    if (c.bDN)
        DataCopy(b1, bGM, Nd2NzParams(1, c.N, c.K, 0, c.K, N16, 1, 0));
    else
        DataCopy(b1, bGM, Nd2NzParams(1, c.K, c.N, 0, c.N, KB16, 1, 0));
    SetFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE1>(EVENT_ID0);
    if (c.target == 2201) {
        for (uint32_t i = 0; i < M1; ++i) LoadData(a2[i * K1 * F], a1[i * F], LoadData2DParams(0, K1, M1, 0, 0, false, 0));
        if (c.bDN) {
            for (uint32_t k = 0; k < K1; ++k) LoadData(b2[k * N1 * F], b1[k * N16 * C0], LoadData2DParams(0, N1, 1, 0, 0, false, 0));
        } else {
            for (uint32_t k = 0; k < KB16 / 16; ++k)
                LoadData(b2[k * N1 * F], b1[k * F], LoadData2DParams(0, N1, KB16 / 16, 0, 0, true, 0));
        }
    } else {
        LoadData(a2, a1, LoadData2DParamsV2(0, 0, M1, K1, M1, M1, false, 0));
        LoadData(b2, b1, LoadData2DParamsV2(0, 0, N1, K1, N1, N1, false, 0));
    }
    SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
    WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
    Mmad(c1, a2, b2, MmadParams(c.M, c.N, c.K, 0, false, true));
    if (c.accumulate) Mmad(c1, a2, b2, MmadParams(c.M, c.N, c.K, 0, false, false));
    SetFlag<HardEvent::M_FIX>(EVENT_ID0);
    WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
    const QuantMode_t q = std::is_same<Out, half>::value ? QuantMode_t::F322F16 : QuantMode_t::NoQuant;
    Fixpipe<Out, Acc, CFG_ROW_MAJOR>(cGM, c1, FixpipeParamsV220(c.N, c.M, M16, c.N, false, q, 0, 1, 0, 0, 0));
    PipeBarrier<PIPE_ALL>();

    auto grab = [](std::vector<uint8_t>& v, const void* p, size_t n) { v.assign((const uint8_t*)p, (const uint8_t*)p + n); };
    grab(buf.l1a, a1.GetPhyAddr(), aL1 * sizeof(T));
    grab(buf.l1b, b1.GetPhyAddr(), bL1 * sizeof(T));
    grab(buf.l0a, a2.GetPhyAddr(), M16 * K1 * C0 * sizeof(T));
    grab(buf.l0b, b2.GetPhyAddr(), K1 * C0 * N16 * sizeof(T));
    grab(buf.l0c, c1.GetPhyAddr(), M16 * N16 * sizeof(Acc));
    grab(buf.out, out.data(), out.size() * sizeof(Out));
}

// The same kernel through the C ABI, on heap buffers.
template <class T, class Acc, class Out>
static void kernel_c_abi(const Case& c, const std::vector<T>& a, const std::vector<T>& b, Buffers& buf) {
    const uint32_t C0 = 32 / sizeof(T), F = 16 * C0, bits = 8 * sizeof(T);
    const uint32_t M16 = al(c.M, 16), M1 = M16 / 16, K1 = al(c.K, C0) / C0, N16 = al(c.N, 16), N1 = N16 / 16;
    const uint32_t KB16 = al(c.K, 16);
    const uint32_t aL1 = M16 * K1 * C0, bL1 = c.bDN ? N16 * K1 * C0 : KB16 * al(c.N, C0);
    std::vector<T> a1(aL1), b1(bL1), a2(M16 * K1 * C0), b2(K1 * C0 * N16);
    std::vector<Acc> c1(M16 * N16);
    std::vector<Out> out(size_t(c.M) * c.N);
    std::memset(a1.data(), 0x7f, a1.size() * sizeof(T));
    std::memset(b1.data(), 0x7f, b1.size() * sizeof(T));
    std::memset(a2.data(), 0x7f, a2.size() * sizeof(T));
    std::memset(b2.data(), 0x7f, b2.size() * sizeof(T));
    std::memset(c1.data(), 0x7f, c1.size() * sizeof(Acc));
    int st = 0;
    ascendc_model_nd2nz_params nd{1, (uint16_t)c.M, c.K, 0, c.K, (uint16_t)M16, 1, 0};
    st |= ascendc_model_data_copy_nd2nz(a1.data(), a.data(), bits, &nd, c.target);
    ascendc_model_nd2nz_params ndb = c.bDN ? ascendc_model_nd2nz_params{1, (uint16_t)c.N, c.K, 0, c.K, (uint16_t)N16, 1, 0}
                                          : ascendc_model_nd2nz_params{1, (uint16_t)c.K, c.N, 0, c.N, (uint16_t)KB16, 1, 0};
    st |= ascendc_model_data_copy_nd2nz(b1.data(), b.data(), bits, &ndb, c.target);
    ascendc_model_set_flag(4, 3, 0);
    ascendc_model_wait_flag(4, 3, 0);
    if (c.target == 2201) {
        ascendc_model_load_data_2d_params pa{0, (uint8_t)K1, (uint16_t)M1, 0, 0, false, 0};
        for (uint32_t i = 0; i < M1; ++i) st |= ascendc_model_load_data_2d(&a2[i * K1 * F], &a1[i * F], bits, &pa, c.target);
        if (c.bDN) {
            ascendc_model_load_data_2d_params pb{0, (uint8_t)N1, 1, 0, 0, false, 0};
            for (uint32_t k = 0; k < K1; ++k) st |= ascendc_model_load_data_2d(&b2[k * N1 * F], &b1[k * N16 * C0], bits, &pb, c.target);
        } else {
            ascendc_model_load_data_2d_params pb{0, (uint8_t)N1, (uint16_t)(KB16 / 16), 0, 0, true, 0};
            for (uint32_t k = 0; k < KB16 / 16; ++k) st |= ascendc_model_load_data_2d(&b2[k * N1 * F], &b1[k * F], bits, &pb, c.target);
        }
    } else {
        ascendc_model_load_data_2d_params_v2 pa{0, 0, (uint16_t)M1, (uint16_t)K1, (int32_t)M1, (uint16_t)M1, false, 0};
        st |= ascendc_model_load_data_2d_v2(a2.data(), a1.data(), bits, &pa, c.target);
        ascendc_model_load_data_2d_params_v2 pb{0, 0, (uint16_t)N1, (uint16_t)K1, (int32_t)N1, (uint16_t)N1, false, 0};
        st |= ascendc_model_load_data_2d_v2(b2.data(), b1.data(), bits, &pb, c.target);
    }
    ascendc_model_mmad_params mp{};
    mp.m = c.M; mp.n = c.N; mp.k = c.K; mp.cmatrixInitVal = true;
    st |= ascendc_model_mmad(c1.data(), a2.data(), b2.data(), model::DType<T>::code, model::DType<Acc>::code, &mp, c.target);
    if (c.accumulate) {
        mp.cmatrixInitVal = false;
        st |= ascendc_model_mmad(c1.data(), a2.data(), b2.data(), model::DType<T>::code, model::DType<Acc>::code, &mp, c.target);
    }
    ascendc_model_fixpipe_params_v220 fp{};
    fp.nSize = c.N; fp.mSize = c.M; fp.srcStride = M16; fp.dstStride = c.N; fp.ndNum = 1;
    fp.quantPre = std::is_same<Out, half>::value ? ASCENDC_MODEL_QUANT_F322F16 : ASCENDC_MODEL_QUANT_NOQUANT;
    st |= ascendc_model_fixpipe_nz2nd(out.data(), c1.data(), model::DType<Out>::code, model::DType<Acc>::code, &fp, c.target);
    ascendc_model_pipe_barrier(6);
    EXPECT(st == 0, "C ABI status %d: %s", st, ascendc_model_last_error());
    auto grab = [](std::vector<uint8_t>& v, const void* p, size_t n) { v.assign((const uint8_t*)p, (const uint8_t*)p + n); };
    grab(buf.l1a, a1.data(), a1.size() * sizeof(T));
    grab(buf.l1b, b1.data(), b1.size() * sizeof(T));
    grab(buf.l0a, a2.data(), a2.size() * sizeof(T));
    grab(buf.l0b, b2.data(), b2.size() * sizeof(T));
    grab(buf.l0c, c1.data(), c1.size() * sizeof(Acc));
    grab(buf.out, out.data(), out.size() * sizeof(Out));
}

static double worst_f32 = 0, worst_f16 = 0;

template <class T, class Acc, class Out> static void run(const Case& c, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<T> a(size_t(c.M) * c.K), b(size_t(c.K) * c.N);
    std::vector<double> af(a.size()), bf(b.size());  // logical B[k][n] values
    for (size_t i = 0; i < a.size(); ++i) {
        if (std::is_same<T, int8_t>::value) a[i] = T(int(rng() % 256) - 128);
        else a[i] = T(float(int(rng() % 2001) - 1000) / 1000.0f);
        af[i] = double(float(a[i]));
    }
    for (uint32_t k = 0; k < c.K; ++k)
        for (uint32_t n = 0; n < c.N; ++n) {
            T v = std::is_same<T, int8_t>::value ? T(int(rng() % 256) - 128) : T(float(int(rng() % 2001) - 1000) / 1000.0f);
            b[c.bDN ? size_t(n) * c.K + k : size_t(k) * c.N + n] = v;
            bf[size_t(k) * c.N + n] = double(float(v));
        }
    Buffers x, y;
    const uint64_t errors_before = model::ErrorCount();
    kernel_cpp<T, Acc, Out>(c, a, b, x);
    EXPECT(model::ErrorCount() == errors_before, "C++ API reported an error: %s", model::LastError());
    kernel_c_abi<T, Acc, Out>(c, a, b, y);
    const char* names[] = {"L1 A", "L1 B", "L0A", "L0B", "L0C", "GM C"};
    std::vector<uint8_t>* xs[] = {&x.l1a, &x.l1b, &x.l0a, &x.l0b, &x.l0c, &x.out};
    std::vector<uint8_t>* ys[] = {&y.l1a, &y.l1b, &y.l0a, &y.l0b, &y.l0c, &y.out};
    for (int i = 0; i < 6; ++i) EXPECT(*xs[i] == *ys[i], "arch %u %ux%ux%u: C++ API and C ABI differ in %s", c.target, c.M, c.K, c.N, names[i]);

    const double scale = c.accumulate ? 2.0 : 1.0;
    const Out* got = reinterpret_cast<const Out*>(x.out.data());
    for (uint32_t i = 0; i < c.M; ++i)
        for (uint32_t j = 0; j < c.N; ++j) {
            double ref = 0, mag = 0;
            long long iref = 0;
            for (uint32_t k = 0; k < c.K; ++k) {
                ref += af[size_t(i) * c.K + k] * bf[size_t(k) * c.N + j];
                mag += std::fabs(af[size_t(i) * c.K + k] * bf[size_t(k) * c.N + j]);
                iref += (long long)af[size_t(i) * c.K + k] * (long long)bf[size_t(k) * c.N + j];
            }
            const Out g = got[size_t(i) * c.N + j];
            if (std::is_same<T, int8_t>::value) {
                const long long want = (long long)(int32_t)(uint32_t)(iref * (long long)scale);
                EXPECT((long long)g == want, "arch %u i8 %ux%ux%u C[%u][%u] = %lld, want %lld", c.target, c.M, c.K, c.N, i, j, (long long)g, want);
                continue;
            }
            ref *= scale;
            mag *= scale;
            const double err = std::fabs(double(float(g)) - ref);
            if (std::is_same<Out, half>::value) {
                // one rounding to half plus float accumulation: 2^-11 |ref| + 1e-5 sum|ab| + smallest normal
                const double tol = std::ldexp(std::fabs(ref), -11) + 1e-5 * mag + 6.2e-5;
                worst_f16 = std::fmax(worst_f16, err / (std::fabs(ref) + 1e-3));
                EXPECT(err <= tol, "arch %u f16->f16 %ux%ux%u C[%u][%u] = %g, want %g", c.target, c.M, c.K, c.N, i, j, double(float(g)), ref);
            } else {
                const double tol = 1e-5 * mag + 1e-12;
                worst_f32 = std::fmax(worst_f32, err / (mag + 1e-30));
                EXPECT(err <= tol, "arch %u f16->f32 %ux%ux%u C[%u][%u] = %g, want %g", c.target, c.M, c.K, c.N, i, j, double(float(g)), ref);
            }
        }
    std::printf("ok arch %u %-4s M=%u K=%u N=%u B=%s%s%s\n", c.target, std::is_same<T, int8_t>::value ? "i8" : "f16", c.M, c.K, c.N,
                c.bDN ? "DN" : "ND", c.halfOut ? " out=f16" : "", c.accumulate ? " accumulate" : "");
}

static void scalar_types() {
    // half: exact values, rounding to nearest even, subnormals, overflow, NaN.
    EXPECT(half(1.0f).bits == 0x3c00, "half(1)");
    EXPECT(half(65504.0f).bits == 0x7bff, "half max");
    EXPECT(half(65520.0f).bits == 0x7c00, "half overflow rounds to inf");
    EXPECT(half(1.0f + 1.0f / 2048).bits == 0x3c00, "tie rounds to even (down)");
    EXPECT(half(1.0f + 3.0f / 2048).bits == 0x3c02, "tie rounds to even (up)");
    EXPECT(half(5.960464477539063e-08f).bits == 0x0001, "smallest subnormal");
    EXPECT(half(2.98023223876953125e-08f).bits == 0x0000, "half of smallest subnormal ties to 0");
    EXPECT(float(half::FromBits(0x0001)) == 5.960464477539063e-08f, "subnormal to float");
    EXPECT(float(half::FromBits(0x03ff)) == 6.097555160522461e-05f, "largest subnormal to float");
    EXPECT(std::isnan(float(half(std::nanf("")))), "NaN stays NaN");
    EXPECT(half(-2.5f).bits == 0xc100, "half(-2.5)");
    for (uint32_t h = 0; h < 0x10000; ++h) {
        half x = half::FromBits((uint16_t)h);
        float f = float(x);
        if (!std::isnan(f)) EXPECT(half(f).bits == h, "half round trip %04x", h);
    }
    EXPECT(bfloat16_t(1.0f).bits == 0x3f80, "bf16(1)");
    EXPECT(bfloat16_t(1.0f + 1.0f / 256).bits == 0x3f80, "bf16 tie to even (down)");
    EXPECT(bfloat16_t(1.0f + 3.0f / 256).bits == 0x3f82, "bf16 tie to even (up)");
    EXPECT(std::isnan(float(bfloat16_t(std::nanf("")))), "bf16 NaN");
    for (uint32_t h = 0; h < 0x10000; ++h) {
        float f = float(bfloat16_t::FromBits((uint16_t)h));
        if (!std::isnan(f)) EXPECT(bfloat16_t(f).bits == h, "bf16 round trip %04x", h);
    }
}

static void unsupported_is_reported() {
    const uint64_t before = model::ErrorCount();
    LocalMemAllocator<Hardware::L1> l1;
    LocalMemAllocator<Hardware::L0A> l0a;
    auto s = l1.Alloc<TPosition::A1, int8_t>(1024);
    auto d = l0a.Alloc<TPosition::A2, int8_t>(1024);
    LoadData(d, s, LoadData2DParams(0, 1, 1, 0, 0, true, 0));  // int8 transpose: LoadDataWithTranspose on hardware
    EXPECT(model::ErrorCount() == before + 1, "int8 transpose must be reported");
    ascendc_model_load_data_2d_params p{0, 1, 1, 0, 0, false, 0};
    EXPECT(ascendc_model_load_data_2d(d.GetPhyAddr(), s.GetPhyAddr(), 8, &p, 1234) == ASCENDC_MODEL_E_INVALID, "unknown target");
    EXPECT(ascendc_model_load_data_2d(d.GetPhyAddr(), s.GetPhyAddr(), 8, nullptr, 2201) == ASCENDC_MODEL_E_INVALID, "null params");
}

int main() {
    scalar_types();
    unsupported_is_reported();
    uint32_t seed = 1;
    for (uint32_t target : {2201u, 3510u}) {
        // f16: aligned, tails in every dimension, the spec example m=40, k=56
        for (auto mkn : {std::vector<uint32_t>{64, 64, 48}, {40, 56, 24}, {17, 33, 5}, {1, 1, 1}, {128, 96, 80}}) {
            for (bool bDN : {false, true}) {
                if (target == 3510 && !bDN) continue;  // 3510: NZ->ZN transposed L0B loads are not modelled
                run<half, float, float>({target, mkn[0], mkn[1], mkn[2], bDN, false, false}, seed++);
                run<half, float, half>({target, mkn[0], mkn[1], mkn[2], bDN, true, false}, seed++);
            }
        }
        run<half, float, float>({target, 40, 56, 24, true, false, true}, seed++);
        // i8 (B as DN: int8 NZ->ZN needs LoadDataWithTranspose)
        for (auto mkn : {std::vector<uint32_t>{64, 64, 64}, {40, 56, 24}, {17, 40, 33}, {1, 1, 1}, {96, 160, 48}}) {
            run<int8_t, int32_t, int32_t>({target, mkn[0], mkn[1], mkn[2], true, false, false}, seed++);
        }
        run<int8_t, int32_t, int32_t>({target, 33, 70, 20, true, false, true}, seed++);
    }
    std::printf("max rel error f16->f32 (|err| / sum|a*b|): %.3g\n", worst_f32);
    std::printf("max rel error f16->f16 (|err| / |ref|): %.3g\n", worst_f16);
    std::printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
