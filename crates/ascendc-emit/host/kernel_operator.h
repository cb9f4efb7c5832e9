// kernel_operator.h — host shim for kernels emitted by `layout-opt --emit=ascendc`.
//
// On the NPU, `kernel_operator.h` is CANN's AscendC header. On the host, put this directory
// first on the include path together with the CPU model:
//   g++ -std=c++17 -I crates/ascendc-emit/host -I crates/ascendc-params/model kernel.cpp
// and the emitted kernel compiles unchanged against the model of the intrinsics.
#ifndef LAYOUT_OPT_HOST_KERNEL_OPERATOR_H
#define LAYOUT_OPT_HOST_KERNEL_OPERATOR_H

#include "ascendc_model.h"

#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif

// On the device, event ids and pipes are compiler builtins in the global namespace.
using AscendC::EVENT_ID0;
using AscendC::EVENT_ID1;
using AscendC::EVENT_ID2;
using AscendC::EVENT_ID3;
using AscendC::EVENT_ID4;
using AscendC::EVENT_ID5;
using AscendC::EVENT_ID6;
using AscendC::EVENT_ID7;
using AscendC::PIPE_ALL;

// The kernel-type declaration of a deployable kernel (`ascendc_emit::project`): on the device it
// tells the runtime which cores to start; the model has only the one core kind it runs.
#ifndef KERNEL_TASK_TYPE_DEFAULT
#define KERNEL_TASK_TYPE_DEFAULT(type) ((void)0)
#endif

#endif
