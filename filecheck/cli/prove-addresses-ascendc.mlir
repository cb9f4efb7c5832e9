// --layout-prove-addresses with --layout-lower-to-ascendc: every intrinsic call the AscendC
// lowering emits for examples/gemm_dynamic_k.mlir (four ND2NZ loads, four LoadData, the k
// tail's with dynamic fields, two Mmad, the Fixpipe store) moves (Mmad: reads and writes)
// each element of its valid region between the addresses the algebra's crd_to_offset gives,
// with its fields as the ascendc ops compute them, for every M, N, K in [0, 2^31). The
// hidden --layout-prove-inject-wrong-field adds 1 to the Fixpipe's GM row stride: a located
// counterexample, exit status 1.
// RUN: layout-opt --layout-prove-addresses --layout-lower-to-ascendc %S/../../examples/gemm_dynamic_k.mlir -o /dev/null 2>&1 | FileCheck %s
// RUN: not layout-opt --layout-prove-addresses --layout-lower-to-ascendc --layout-prove-inject-wrong-field=ascendc.fixpipe:dstStride:1 %S/../../examples/gemm_dynamic_k.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRONG
// RUN: not layout-opt --layout-prove-addresses --layout-lower-to-ascendc --layout-prove-inject-wrong-field=fixpipe %S/../../examples/gemm_dynamic_k.mlir -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPEC

// CHECK: gemm_dynamic_k.mlir:53:16: remark: address proven: Nd2NzParams of layout.load
// CHECK: gemm_dynamic_k.mlir:54:16: remark: address proven: Nd2NzParams of layout.load
// CHECK: gemm_dynamic_k.mlir:55:16: remark: address proven: LoadData2DParams of layout.load
// CHECK: gemm_dynamic_k.mlir:56:16: remark: address proven: LoadData2DParams of layout.load
// CHECK: gemm_dynamic_k.mlir:57:9: remark: address proven: MmadParams of layout.matmul
// CHECK: gemm_dynamic_k.mlir:62:18: remark: address proven: Nd2NzParams of layout.load
// CHECK: gemm_dynamic_k.mlir:63:18: remark: address proven: Nd2NzParams of layout.load
// CHECK: gemm_dynamic_k.mlir:64:18: remark: address proven: LoadData2DParams of layout.load
// CHECK: gemm_dynamic_k.mlir:65:18: remark: address proven: LoadData2DParams of layout.load
// CHECK: gemm_dynamic_k.mlir:66:11: remark: address proven: MmadParams of layout.matmul
// CHECK: gemm_dynamic_k.mlir:69:9: remark: address proven: FixpipeParamsV220 of layout.store
// CHECK-NOT: not covered:
// CHECK: address proofs: 11 intrinsic calls: 11 proven, 0 counterexamples, 0 unknown; 0 not covered
// WRONG: gemm_dynamic_k.mlir:53:16: remark: address proven: Nd2NzParams of layout.load
// WRONG: gemm_dynamic_k.mlir:69:9: error: address counterexample: FixpipeParamsV220 of layout.store: {{.*}} dst.lowered = {{[0-9]+}}, dst.algebra = {{[0-9]+}}, {{.*}} f.dstStride = {{[0-9]+}}
// WRONG: address proofs: 11 intrinsic calls: 10 proven, 1 counterexamples, 0 unknown
// SPEC: error: --layout-prove-inject-wrong-field: `fixpipe` is not OP:FIELD:DELTA
