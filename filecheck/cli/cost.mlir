// layout-run --cost: the pipe-level cost model of the AscendC lowering (docs/cost-model.md) of
// examples/gemm_dynamic_k.mlir for M = N = K = 256: two 128 x 256 tiles, four K slices each.
// The report says it is a model; the busy times follow from the table of docs/cost-model.md §3
// (M: 8 Mmads of 8 * 16 * 4 cube steps + 20 = 4256 cycles = 2.660 us at 1.6 GHz).
// RUN: rm -rf %t && mkdir -p %t
// RUN: layout-run %S/../../examples/gemm_dynamic_k.mlir --entry gemm_dynamic_k --arg 3=256 --arg 4=256 --arg 5=256 --cost --trace %t/trace.json | FileCheck %s
// RUN: FileCheck %s --check-prefix=TRACE --input-file=%t/trace.json
// RUN: layout-run %S/../../examples/gemm_dynamic_k.mlir --entry gemm_dynamic_k --arg 3=256 --arg 4=256 --arg 5=256 --cost --block-dim 24 --mnk 256,256,256 | FileCheck %s --check-prefix=CORES
// RUN: not layout-run %S/../../examples/gemm_dynamic_k.mlir --entry gemm_dynamic_k --arg 3=256 --arg 4=256 --cost 2>&1 | FileCheck %s --check-prefix=NOARG
// RUN: not layout-run %S/../../examples/gemm_dynamic_k.mlir --entry gemm_dynamic_k --cost --block-dim 0 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: not layout-run %S/../../examples/gemm_dynamic_k.mlir --entry gemm_dynamic_k --cost --backend ascendc-cpp 2>&1 | FileCheck %s --check-prefix=CONFLICT

// CHECK: cost model of @gemm_dynamic_k (a model, not a measurement; parameters and sources: docs/cost-model.md)
// CHECK-NEXT: target: a2 = Atlas A2 (Ascend 910B, 24 cube cores), 1.60 GHz
// CHECK-NEXT: blocks: 1 on 1 core(s), 1 block(s) on the slowest core; {{[0-9]+}} intrinsic calls per block
// CHECK-NEXT: predicted time: {{[0-9.]+}} us ({{[0-9]+}} cycles)
// CHECK-NEXT: pipe busy (slowest core):
// CHECK-NEXT:   MTE2 {{ *}}3.769 us
// CHECK-NEXT:   MTE1
// CHECK-NEXT:   M {{ *}}2.660 us
// CHECK-NEXT:   FIX {{ *}}1.405 us
// CHECK-NEXT: critical path (slowest core):
// CHECK-DAG:   Mmad(MmadParams) x8
// CHECK-DAG:   Fixpipe(FixpipeParamsV220) x2
// CHECK:   flags
// The second row tile reads the first one's B slices again: L2 hits (docs/cost-model.md §7.1).
// CHECK-NEXT: L2 (all blocks): 131072 of 393216 GM read bytes hit (33.3%), 262144 from HBM
// CHECK-NEXT: cube bound: 2 * MACs issued = 33554432 FLOP (f16) on 1 core(s): 2.560 us
// CHECK-NEXT: cube utilization: {{[0-9.]+}}%
// CHECK-NEXT: cube peak: 13.107 TFLOP/s per core (f16), 24 cube cores on the target
// CHECK-NEXT: trace: {{.*}}trace.json

// TRACE: {"otherData":{"note":"layout-opt cost model: a model, not a measurement"},"displayTimeUnit":"ns","traceEvents":[
// TRACE: "name":"thread_name","pid":0,"tid":2,"args":{"name":"M"}
// TRACE: {"ph":"X","name":"DataCopy(Nd2NzParams)","cat":"MTE2","pid":0,"tid":0,"ts":0.0125,"dur":0.1890,"args":{"block":0}}
// TRACE: "name":"Mmad(MmadParams)","cat":"M"
// TRACE: ]}

// Every block computes every tile today: 24 blocks issue 24 times the MACs, the bound is 2*M*N*K.
// CORES: blocks: 24 on 24 core(s), 1 block(s) on the slowest core
// CORES: cube bound: 2*M*N*K = 33554432 FLOP (f16) on 24 core(s): 0.107 us

// NOARG: gemm_dynamic_k.mlir:{{[0-9]+}}:{{[0-9]+}}: error: cost model: index argument #5 of @gemm_dynamic_k has no value (give --arg 5=VALUE)
// BLOCKS: layout-run: error: --block-dim: '0' is not a positive integer
// CONFLICT: layout-run: error: --cost models the AscendC kernel instead of running it
