// RUN: layout-opt %s | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-verify | FileCheck %s

// CHECK-LABEL: func.func @blocks
// CHECK: %[[B:.*]] = "layout.block_idx"() : () -> index
// CHECK: %[[N:.*]] = "layout.block_num"() : () -> index
// CHECK: arith.addi %[[B]], %[[N]] : index
module attributes {layout.target = #layout.target<"a2">} {
  func.func @blocks() -> index {
    %b = "layout.block_idx"() : () -> index
    %n = "layout.block_num"() : () -> index
    %s = arith.addi %b, %n : index
    return %s : index
  }
}
