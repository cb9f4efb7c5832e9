// The model's own f16/bf16 conversions (ascendc_model_impl.h), which C++ kernels compiled with
// g++ use through `half` / `bfloat16_t`. Built and run by crates/ascendc-params/tests/cpp_model.rs,
// which checks what this prints against the `half` crate:
//   stdin: f32 bit patterns, one hex number a line.
//   stdout: for each, "F16BITS BF16BITS" of f32_to_f16_bits / f32_to_bf16_bits; then for every
//   16-bit pattern p, "F32BITS F32BITS" of f16_bits_to_f32(p) / bf16_bits_to_f32(p).
#include <cstdio>
#include <cstring>

#include "ascendc_model_impl.h"

static unsigned bits_of(float f) {
    unsigned x;
    std::memcpy(&x, &f, 4);
    return x;
}

int main() {
    unsigned x;
    while (std::scanf("%x", &x) == 1) {
        float f;
        std::memcpy(&f, &x, 4);
        std::printf("%04x %04x\n", ascendc_model::f32_to_f16_bits(f), ascendc_model::f32_to_bf16_bits(f));
    }
    for (unsigned p = 0; p < 65536; ++p) {
        std::printf("%08x %08x\n", bits_of(ascendc_model::f16_bits_to_f32((uint16_t)p)),
                    bits_of(ascendc_model::bf16_bits_to_f32((uint16_t)p)));
    }
    return 0;
}
