// acl/acl.h — host shim of the few AscendCL runtime calls the generated main.cpp makes
// (`ascendc_emit::project`), so that the launcher compiles and runs against the CPU model.
//
// On a CANN machine, `acl/acl.h` is CANN's header and these are device calls. Here "device"
// memory is host memory (aclrtMalloc = malloc, aclrtMemcpy = memcpy) and a stream is a dummy:
// the launcher runs a blockDim launch as one call per block (see LAYOUT_OPT_HOST_MODEL).
#ifndef LAYOUT_OPT_HOST_ACL_H
#define LAYOUT_OPT_HOST_ACL_H

#include <cstdint>
#include <cstdlib>
#include <cstring>

#define LAYOUT_OPT_HOST_MODEL 1

typedef int aclError;
typedef void* aclrtStream;
enum { ACL_SUCCESS = 0, ACL_ERROR_BAD_ALLOC = 1 };
enum aclrtMemMallocPolicy { ACL_MEM_MALLOC_HUGE_FIRST = 0 };
enum aclrtMemcpyKind { ACL_MEMCPY_HOST_TO_DEVICE = 1, ACL_MEMCPY_DEVICE_TO_HOST = 2 };

inline aclError aclInit(const char*) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }
inline aclError aclrtSetDevice(int) { return ACL_SUCCESS; }
inline aclError aclrtResetDevice(int) { return ACL_SUCCESS; }
inline aclError aclrtCreateStream(aclrtStream* s) { *s = nullptr; return ACL_SUCCESS; }
inline aclError aclrtDestroyStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtSynchronizeStream(aclrtStream) { return ACL_SUCCESS; }
inline aclError aclrtMalloc(void** p, size_t size, aclrtMemMallocPolicy) {
    *p = std::malloc(size ? size : 1);
    return *p ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFree(void* p) { std::free(p); return ACL_SUCCESS; }
// CANN's signature: (dst, destMax, src, count, kind); count > destMax is an error there too.
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind) {
    if (count > destMax) return ACL_ERROR_BAD_ALLOC;
    std::memcpy(dst, src, count);
    return ACL_SUCCESS;
}
// CANN's signature: (devPtr, maxCount, value, count), both sizes in bytes; count > maxCount is
// an error (hicann/runtime docs/api_docs/aclrtMemset.md).
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (count > maxCount) return ACL_ERROR_BAD_ALLOC;
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}

#endif
