// Interoperability with stock MLIR: mlir-opt-22 loads our IRDL file and parses every test
// input (the round trips, and the structural errors with the same diagnostics), and its output
// reads back into layout-opt.
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/tensor-type.mlir | layout-opt | FileCheck %S/ops/tensor-type.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/view.mlir | layout-opt | FileCheck %S/ops/view.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/alloc.mlir | layout-opt | FileCheck %S/ops/alloc.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/tile.mlir | layout-opt | FileCheck %S/ops/tile.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/load.mlir | layout-opt | FileCheck %S/ops/load.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/store.mlir | layout-opt | FileCheck %S/ops/store.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/matmul.mlir | layout-opt | FileCheck %S/ops/matmul.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/matmul-unit-flag.mlir | layout-opt | FileCheck %S/ops/matmul-unit-flag.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/offset.mlir | layout-opt | FileCheck %S/ops/offset.mlir
// RUN: mlir-opt --irdl-file=%layout_irdl %S/ops/structure-errors.mlir --split-input-file --verify-diagnostics
// RUN: mlir-opt --irdl-file=%layout_irdl %S/verify/verify-errors.mlir --split-input-file > /dev/null
// RUN: mlir-opt --irdl-file=%layout_irdl %S/verify/verify-ok.mlir --split-input-file > /dev/null
// RUN: mlir-opt --irdl-file=%layout_irdl %S/fold/fold.mlir --split-input-file > /dev/null
// RUN: mlir-opt --irdl-file=%layout_irdl %S/../examples/gemm_tile.mlir | layout-opt --layout-verify --layout-fold | FileCheck %S/examples/gemm-tile.mlir
// RUN: not mlir-opt --irdl-file=%layout_irdl %S/misspelled-op.mlir 2>&1 | FileCheck %S/misspelled-op.mlir --check-prefix=STOCK
// RUN: mlir-opt --irdl-file=%layout_irdl %s | FileCheck %s

// CHECK: "layout.alloc"
module attributes {layout.target = #layout.target<"a2">} {
  %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
}
