// ascendc_model_abi.cpp — the extern "C" entry points of the CPU model (see ascendc_model_abi.h).
// Thin wrappers over ascendc_model_impl.h, the same functions the C++ API calls. Built into the
// static library `ascendc_model` by crates/ascendc-params/build.rs; an emitted C++ kernel may
// also compile it alongside (g++ kernel.cpp ascendc_model_abi.cpp).
#include "ascendc_model_impl.h"

namespace {
int32_t null_params(const char* what) { return ascendc_model::fail(ASCENDC_MODEL_E_INVALID, what); }
}  // namespace

extern "C" {

int32_t ascendc_model_data_copy_nd2nz(void* dst, const void* src, uint32_t elem_bits, const ascendc_model_nd2nz_params* p,
                                      uint32_t target) {
    if (!p) return null_params("DataCopy(Nd2NzParams): null params");
    return ascendc_model::data_copy_nd2nz(dst, src, elem_bits, *p, target);
}

int32_t ascendc_model_data_copy(void* dst, const void* src, const ascendc_model_data_copy_params* p, uint32_t target) {
    if (!p) return null_params("DataCopy(DataCopyParams): null params");
    return ascendc_model::data_copy(dst, src, *p, target);
}

int32_t ascendc_model_load_data_2d(void* dst, const void* src, uint32_t elem_bits, const ascendc_model_load_data_2d_params* p,
                                   uint32_t target) {
    if (!p) return null_params("LoadData(LoadData2DParams): null params");
    return ascendc_model::load_data_2d(dst, src, elem_bits, *p, target);
}

int32_t ascendc_model_load_data_2d_v2(void* dst, const void* src, uint32_t elem_bits, const ascendc_model_load_data_2d_params_v2* p,
                                      uint32_t target) {
    if (!p) return null_params("LoadData(LoadData2DParamsV2): null params");
    return ascendc_model::load_data_2d_v2(dst, src, elem_bits, *p, target);
}

int32_t ascendc_model_load_data_with_transpose(void* dst, const void* src, uint32_t elem_bits,
                                               const ascendc_model_load_data_2d_transpose_params* p, uint32_t target) {
    if (!p) return null_params("LoadDataWithTranspose: null params");
    return ascendc_model::load_data_with_transpose(dst, src, elem_bits, *p, target);
}

int32_t ascendc_model_mmad(void* c, const void* a, const void* b, uint32_t ab_dtype, uint32_t c_dtype, const ascendc_model_mmad_params* p,
                           uint32_t target) {
    if (!p) return null_params("Mmad: null params");
    return ascendc_model::mmad(c, a, b, ab_dtype, c_dtype, *p, target);
}

int32_t ascendc_model_fixpipe_nz2nd(void* dst, const void* src, uint32_t dst_dtype, uint32_t src_dtype,
                                    const ascendc_model_fixpipe_params_v220* p, uint32_t target) {
    if (!p) return null_params("Fixpipe: null params");
    return ascendc_model::fixpipe_nz2nd(dst, src, dst_dtype, src_dtype, *p, target);
}

int32_t ascendc_model_fixpipe_nz2nz(void* dst, const void* src, uint32_t dst_dtype, uint32_t src_dtype,
                                    const ascendc_model_fixpipe_params_v220* p, uint32_t target) {
    if (!p) return null_params("Fixpipe: null params");
    return ascendc_model::fixpipe_nz2nz(dst, src, dst_dtype, src_dtype, *p, target);
}

void ascendc_model_set_flag(uint32_t src_pipe, uint32_t dst_pipe, uint32_t event_id) {
    ascendc_model::san::set_flag(src_pipe, dst_pipe, event_id);
}
void ascendc_model_wait_flag(uint32_t src_pipe, uint32_t dst_pipe, uint32_t event_id) {
    ascendc_model::san::wait_flag(src_pipe, dst_pipe, event_id);
}
void ascendc_model_pipe_barrier(uint32_t pipe) { ascendc_model::san::barrier(pipe); }

void ascendc_model_sanitize_begin(uint32_t checks) { ascendc_model::san::begin(checks); }
void ascendc_model_sanitize_region(const void* base, uint64_t bytes, uint32_t elem_bytes, const char* name, uint32_t on_chip) {
    ascendc_model::san::add_region(base, bytes, elem_bytes, name, on_chip != 0);
}
void ascendc_model_sanitize_site(int32_t site) { ascendc_model::san::site(site); }
const char* ascendc_model_sanitize_end(void) { return ascendc_model::san::end(); }
uint64_t ascendc_model_sanitize_violations(void) { return ascendc_model::san::state().violations; }
int32_t ascendc_model_sanitize_report_site(void) { return ascendc_model::san::state().report_site; }
int64_t ascendc_model_sanitize_report_element(int32_t* region) {
    if (region) *region = ascendc_model::san::state().report_region;
    return ascendc_model::san::state().report_elem;
}

void ascendc_model_set_block(uint32_t idx, uint32_t num) { ascendc_model::set_block(idx, num); }
int64_t ascendc_model_get_block_idx(void) { return ascendc_model::launch().block_idx; }
int64_t ascendc_model_get_block_num(void) { return ascendc_model::launch().block_num; }
void ascendc_model_set_atomic_add(uint32_t dtype) { ascendc_model::set_atomic_add(dtype); }
void ascendc_model_set_atomic_none(void) { ascendc_model::set_atomic_none(); }

const char* ascendc_model_last_error(void) { return ascendc_model::error_buffer(); }

}  // extern "C"
