// layout-lower-to-loops of the Fixpipe epilogues (docs/ascendc-derivation.md §12), the CPU
// reference semantics: DEQF16 is sitofp, mulf by the scale, ReLU (keep x > 0 or NaN, else +0),
// clamp to +-65504, truncf; F322BF16 is truncf with NaN written as 0x7FFF.
// The accumulator is a host view of L0C ({host-copies=true}): the epilogue reads it as written.
// RUN: layout-opt %s --split-input-file --pass-pipeline='builtin.module(layout-lower-to-loops{host-copies=true})' | FileCheck %s

// CHECK-LABEL: func.func @deq
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[SCALE:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-DAG: %[[MAX:.*]] = arith.constant 6.550400e+04 : f32
// CHECK-DAG: %[[MIN:.*]] = arith.constant -6.550400e+04 : f32
// CHECK: scf.for
// CHECK: %[[X:.*]] = memref.load %{{.*}} : memref<1536xi32>
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[X]] : i32 to f32
// CHECK-NEXT: %[[P:.*]] = arith.mulf %[[F]], %[[SCALE]] : f32
// CHECK-NEXT: %[[K:.*]] = arith.cmpf ugt, %[[P]], %[[ZERO]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[K]], %[[P]], %[[ZERO]] : f32
// CHECK-NEXT: %[[HI:.*]] = arith.minimumf %[[R]], %[[MAX]] : f32
// CHECK-NEXT: %[[LO:.*]] = arith.maxnumf %[[HI]], %[[MIN]] : f32
// CHECK-NEXT: %[[H:.*]] = arith.truncf %[[LO]] : f32 to f16
// CHECK-NEXT: memref.store %[[H]], %arg0[%{{.*}}] : memref<960xf16>
module attributes {layout.target = #layout.target<"a2">} {
  func.func @deq(%m: memref<960xf16>, %acc: memref<1536xi32>) {
    %c = "layout.view"(%acc) : (memref<1536xi32>) -> !layout.tensor<i32, "l0c", "NZ", "(40,24)">
    %g = "layout.view"(%m) : (memref<960xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,24)">
    "layout.store"(%c, %g) {relu = true, scale = 2.500000e-01 : f32} : (!layout.tensor<i32, "l0c", "NZ", "(40,24)">, !layout.tensor<f16, "gm", "ND", "(40,24)">) -> ()
    return
  }
}

// -----

// CHECK-LABEL: func.func @bf16_relu
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG: %[[NAN:.*]] = arith.constant 0x7FFF : bf16
// CHECK: %[[X:.*]] = memref.load %{{.*}} : memref<1536xf32>
// CHECK-NEXT: %[[K:.*]] = arith.cmpf ugt, %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[R:.*]] = arith.select %[[K]], %[[X]], %[[ZERO]] : f32
// CHECK-NEXT: %[[B:.*]] = arith.truncf %[[R]] : f32 to bf16
// CHECK-NEXT: %[[U:.*]] = arith.cmpf uno, %[[R]], %[[R]] : f32
// CHECK-NEXT: %[[V:.*]] = arith.select %[[U]], %[[NAN]], %[[B]] : bf16
// CHECK-NEXT: memref.store %[[V]], %arg0[%{{.*}}] : memref<960xbf16>
module attributes {layout.target = #layout.target<"a2">} {
  func.func @bf16_relu(%m: memref<960xbf16>, %acc: memref<1536xf32>) {
    %c = "layout.view"(%acc) : (memref<1536xf32>) -> !layout.tensor<f32, "l0c", "NZ", "(40,24)">
    %g = "layout.view"(%m) : (memref<960xbf16>) -> !layout.tensor<bf16, "gm", "ND", "(40,24)">
    "layout.store"(%c, %g) {relu = true} : (!layout.tensor<f32, "l0c", "NZ", "(40,24)">, !layout.tensor<bf16, "gm", "ND", "(40,24)">) -> ()
    return
  }
}
