// --emit=ascendc on layout ops without the AscendC lowering: the error names the flag to add;
// with the lowering in the pipeline it does not.
// RUN: not layout-opt %S/../../examples/tiled_gemm.mlir --emit=ascendc 2>&1 | FileCheck %s
// RUN: not layout-opt %S/../../examples/tiled_gemm.mlir --layout-verify --emit=ascendc-llvm 2>&1 | FileCheck %s
// RUN: layout-opt %S/../../examples/tiled_gemm.mlir --layout-lower-to-ascendc --emit=ascendc 2>&1 | FileCheck %s --check-prefix=OK

// CHECK: tiled_gemm.mlir:{{[0-9]+}}:{{[0-9]+}}: error: @tiled_gemm: cannot emit `layout.view` {{.*}}; add --layout-lower-to-ascendc before --emit to lower the layout ops
// OK-NOT: error
// OK: __global__
