// Run-time checks of a dynamic layout.alloc (passes/src/lower_to_loops/guard.rs): before its
// alloca, outside any loop, the size operand R >= 0, R within the bound where the footprint in
// bytes fits in i64, and the footprint (align(R, 16) * 256 f16 elements, 2 bytes each) at most
// the 512 KiB of L1 on a2. A failed check gives the alloca 1 element; the poison fill and the
// rest of the function run only under the checks' flag.
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-lower-to-loops,cse)' | FileCheck %s

// CHECK-LABEL: func.func private @__layout_guard_failed(index, index, index, index)
// CHECK-LABEL: func.func @dynamic_rows(
// CHECK-SAME: %{{.*}}: memref<32x256xf16>, %[[R:[a-z0-9]+]]: index)
// CHECK: %[[N:[0-9]+]] = arith.maxsi %[[R]], %c0
// CHECK-NOT: scf.for
// CHECK-NOT: memref.alloca
// CHECK: arith.cmpi slt, %[[R]], %c0
// CHECK: func.call @__layout_guard_failed(
// CHECK: arith.cmpi sgt, %[[N]], %c9007199254740991
// CHECK: func.call @__layout_guard_failed(
// CHECK: %[[BYTES:[0-9]+]] = arith.muli %{{[0-9]+}}, %c2 :
// CHECK: arith.cmpi sgt, %[[BYTES]], %c524288 :
// CHECK: func.call @__layout_guard_failed(%{{.*}}, %{{.*}}, %[[BYTES]], %c524288)
// CHECK: %[[COUNT:[0-9]+]] = arith.select %[[OK:[0-9]+]], %{{.*}}, %c1
// CHECK-NEXT: %[[BUFFER:[a-z0-9_]+]] = memref.alloca(%[[COUNT]]) : memref<?xf16>
// The poison fill runs under the flag.
// CHECK-NEXT: scf.if %[[OK]] {
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BUFFER]]
// The rest of the function (the copy into the buffer) too.
// CHECK: scf.if %[[OK]] {
// CHECK-NOT: func.call
// CHECK: memref.load
// CHECK: memref.store %{{.*}}, %[[BUFFER]]
// CHECK: return

// A static alloc gets no check: plain static alloca, no call.
// CHECK-LABEL: func.func @static_rows(
// CHECK-NOT: func.call
// CHECK: memref.alloca() : memref<8192xf16>
// CHECK-NOT: func.call
// CHECK: return

!gmA = !layout.tensor<f16, "gm", "ND", "(32,256)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(?,256)">
!l1S = !layout.tensor<f16, "l1", "NZ", "(32,256)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @dynamic_rows(%A: memref<32x256xf16>, %R: index) {
    %ga = "layout.view"(%A) : (memref<32x256xf16>) -> !gmA
    %a1 = "layout.alloc"(%R) : (index) -> !l1A
    "layout.load"(%ga, %a1) : (!gmA, !l1A) -> ()
    return
  }
  func.func @static_rows(%A: memref<32x256xf16>) {
    %ga = "layout.view"(%A) : (memref<32x256xf16>) -> !gmA
    %a1 = "layout.alloc"() : () -> !l1S
    "layout.load"(%ga, %a1) : (!gmA, !l1S) -> ()
    return
  }
}
