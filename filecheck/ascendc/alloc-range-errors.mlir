// The emitters read the byte range of every ascendc.alloc; one whose end leaves i64 is an
// error (the C++ printer wrapped or panicked on `offset + size`).
// RUN: not layout-opt --emit=ascendc %s 2>&1 | FileCheck %s --implicit-check-not=__global__
// RUN: not layout-opt --emit=ascendc-llvm %s 2>&1 | FileCheck %s --implicit-check-not=ModuleID
// CHECK: alloc-range-errors.mlir:[[@LINE+3]]:{{[0-9]+}}: error: @k: ascendc.alloc: bytes [9223372036854775807, 9223372036854775807 + 512) are not a valid range
module attributes {layout.target = #layout.target<"a2">} {
  func.func @k() {
    %l1 = "ascendc.alloc"() {offset = 9223372036854775807 : i64, size = 512 : i64, layout = "NZ"} : () -> !ascendc.local<f16, "A1">
    return
  }
}
