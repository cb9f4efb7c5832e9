// A static layout.alloc over the capacity of its memory on the target is a located error of
// the loop lowering (the capacities: passes/src/lower_to_ascendc/placement.rs); exactly the
// capacity is accepted. A dynamic alloc in a memory without a capacity in that table cannot be
// checked and is an error too.
// RUN: not layout-opt --layout-lower-to-loops %s 2>&1 | FileCheck %s --implicit-check-not=error:

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%n: index) {
    // 1024 rows of NZ f16: 1024 * 256 * 2 = 524288 bytes, all of L1.
    %full = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(1024,256)">
    // 1025 rows take 1040 (the NZ blocks are 16 rows).
    // CHECK: alloc-capacity-errors.mlir:[[@LINE+1]]:13: error: layout.alloc of !layout.tensor<f16, "l1", "NZ", "(1025,256)">: needs 532480 bytes, L1 on a2 holds 524288 bytes
    %over = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(1025,256)">
    // L0C is 128 KiB on a2 (256 KiB on a5).
    // CHECK: alloc-capacity-errors.mlir:[[@LINE+1]]:12: error: layout.alloc of !layout.tensor<f32, "l0c", "NZ", "(256,256)">: needs 262144 bytes, L0C on a2 holds 131072 bytes
    %acc = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(256,256)">
    // CHECK: alloc-capacity-errors.mlir:[[@LINE+1]]:10: error: layout.alloc of !layout.tensor<f16, "ub", "ND", "(?,64)">: a dynamic size in ub cannot be checked: the target table has no capacity for it
    %u = "layout.alloc"(%n) : (index) -> !layout.tensor<f16, "ub", "ND", "(?,64)">
    return
  }
}
