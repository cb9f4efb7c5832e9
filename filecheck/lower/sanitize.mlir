// layout-lower-to-loops{sanitize=true} (docs/sanitizer.md): every on-chip alloc gets a shadow
// of "written" flags, zero at the alloc; a copy checks the source's flag before it reads and
// sets the destination's after it writes; an unset flag calls the guard hook with the op,
// the buffer and the coordinate. Without the option nothing of it is emitted.
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-lower-to-loops{sanitize=true})' | FileCheck %s
// RUN: layout-opt %s --layout-lower-to-loops | FileCheck %s --check-prefix=PLAIN

// CHECK: memref.global "private" constant @__layout_guard_message_{{[0-9]+}}
// PLAIN-NOT: xi8
module attributes {layout.target = #layout.target<"a2">} {
  func.func @copy(%A: memref<384xf16>, %O: memref<512xf16>) {
    %ga = "layout.view"(%A) : (memref<384xf16>) -> !layout.tensor<f16, "gm", "ND", "(24,16)">
    %go = "layout.view"(%O) : (memref<512xf16>) -> !layout.tensor<f16, "gm", "NZ", "(32,16)">
    // CHECK: %[[BUF:.*]] = memref.alloca() : memref<512xf16>
    // CHECK: %[[SHADOW:.*]] = memref.alloca(%{{.*}}) : memref<?xi8>
    // CHECK: memref.store %{{.*}}, %[[SHADOW]][%{{.*}}] : memref<?xi8>
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(32,16)">
    // The load writes L1: each stored element sets its flag.
    // CHECK: memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<512xf16>
    // CHECK: memref.store %{{.*}}, %[[SHADOW]][%{{.*}}] : memref<?xi8>
    %w = "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(24,16)">, !layout.tensor<f16, "l1", "NZ", "(32,16)">) -> !layout.tensor<f16, "l1", "NZ", "(24,16)">
    // The store reads L1 (the written view, as layout-verify's R1 requires): the flag first, the
    // hook when it is 0 (a backstop for what the static check cannot see).
    // CHECK: %[[FLAG:.*]] = memref.load %[[SHADOW]][%{{.*}}] : memref<?xi8>
    // CHECK: arith.cmpi eq, %[[FLAG]]
    // CHECK: func.call @__layout_guard_failed
    // CHECK: memref.load %[[BUF]]
    "layout.store"(%w, %go) : (!layout.tensor<f16, "l1", "NZ", "(24,16)">, !layout.tensor<f16, "gm", "NZ", "(32,16)">) -> ()
    return
  }
}
