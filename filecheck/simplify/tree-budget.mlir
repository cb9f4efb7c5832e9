// The per-tree node budget of layout-simplify-offsets: 200 operators, with shared sub-trees
// counted at each use (a tree costs the simplifier what its expansion costs). Each addi below
// doubles the expanded tree: %x7 has 127 operators, %x8 would have 255, so the tree is split
// at %x8: %x8 is kept as computed, the tree of its operand %x7 is simplified on its own
// (a·128) and %x9's tree reads %x8 as an opaque value. Linear work on long chains: the unit
// test `budget_tests` runs a 20,000-link chain.
// RUN: layout-opt %s --layout-simplify-offsets | FileCheck %s
// RUN: layout-opt %s --layout-simplify-offsets-remarks | FileCheck %s
// RUN: layout-opt %s --layout-simplify-offsets-remarks -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: layout-opt %s --layout-simplify-offsets -o /dev/null 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET

// QUIET-NOT: remark

// CHECK-LABEL: func.func @doubling
// CHECK-NEXT: %[[C:.*]] = arith.constant 128 : index
// CHECK-NEXT: %[[M:.*]] = arith.muli %arg0, %[[C]] : index
// CHECK-NEXT: %[[X8:.*]] = arith.addi %[[M]], %[[M]] : index
// CHECK-NEXT: %[[X9:.*]] = arith.addi %[[X8]], %arg0 : index
// CHECK-NEXT: return %[[X9]] : index
func.func @doubling(%a: index) -> index {
  %x1 = arith.addi %a, %a : index
  %x2 = arith.addi %x1, %x1 : index
  %x3 = arith.addi %x2, %x2 : index
  %x4 = arith.addi %x3, %x3 : index
  %x5 = arith.addi %x4, %x4 : index
  %x6 = arith.addi %x5, %x5 : index
  %x7 = arith.addi %x6, %x6 : index
  // REMARK: {{.*}}tree-budget.mlir:[[@LINE+1]]:9: remark: layout-simplify-offsets: this index expression has 255 operations (shared sub-expressions counted at each use), more than the per-tree budget of 200; it is split here
  %x8 = arith.addi %x7, %x7 : index
  %x9 = arith.addi %x8, %a : index
  return %x9 : index
}
// REMARK-NOT: remark
