// layout-lower-to-loops for the convolution and MX scale copies of docs/layout-spec.md §D.2 (GM -> L1).
// RUN: layout-opt %s --split-input-file --layout-verify --layout-lower-to-loops | FileCheck %s

// GM NCHW (2,20,3,5) f16 -> L1 NC1HWC0 (2,2,3,5,16): a loop nest over logical (n,c,h,w);
// source offset n*300 + c*15 + h*5 + w, destination (algebra conv_coordinate)
// (n, c floordiv 16, h, w, c mod 16) -> n*480 + (c/16)*240 + h*80 + w*16 + c%16.
// Then the channel tail [20, 32) of every pixel is zero-filled. The loop variables are proven
// non-negative, so `floordiv`/`mod` by powers of two are written as `shrui`/`andi`.
// CHECK-LABEL: func.func @nchw2nc1hwc0
// CHECK: %[[L1:.*]] = memref.alloca() : memref<960xf16>
// CHECK: scf.for %[[N:.*]] = %{{.*}} to %c2
// CHECK-NEXT: scf.for %[[C:.*]] = %{{.*}} to %c20
// CHECK-NEXT: scf.for %[[H:.*]] = %{{.*}} to %c3
// CHECK-NEXT: scf.for %[[W:.*]] = %{{.*}} to %c5
// CHECK: arith.muli %[[C]], %c15
// CHECK: %[[C1:.*]] = arith.shrui %[[C]], %c4
// CHECK-NEXT: %c240 = arith.constant 240 : index
// CHECK-NEXT: arith.muli %[[C1]], %c240
// CHECK: arith.muli %[[H]], %c80
// CHECK: arith.muli %[[W]], %c16
// CHECK: arith.andi %[[C]], %c15
// CHECK: %[[V:.*]] = memref.load %arg0[%{{.*}}] : memref<600xf16>
// CHECK-NEXT: memref.store %[[V]], %[[L1]][%{{.*}}] : memref<960xf16>
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f16
// CHECK-DAG: %[[C20:.*]] = arith.constant 20 : index
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : index
// CHECK: scf.for %{{.*}} = %[[C20]] to %[[C32]]
// CHECK: memref.store %[[ZERO]], %[[L1]]
// CHECK-NOT: "layout.
!gm = !layout.tensor<f16, "gm", "NCHW", "(2,20,3,5)">
!l1 = !layout.tensor<f16, "l1", "NC1HWC0", "(2,2,3,5)">
module attributes {layout.target = #layout.target<"a5">} {
  func.func @nchw2nc1hwc0(%s: memref<600xf16>) {
    %a = "layout.view"(%s) : (memref<600xf16>) -> !gm
    %b = "layout.alloc"() : () -> !l1
    "layout.load"(%a, %b) : (!gm, !l1) -> ()
    return
  }
}

// -----

// MX scale A: GM ScaleADN (33,6) -> L1 ZZ with C0 = 2, element type f8E8M0FNU kept in the IR
// (the LLVM conversion stores it as i8). L1 is poisoned with 0xFF (E8M0 NaN); ScaleADN (m,g)
// at 2m + g%2 + (g/2)*66; ZZ at (m%16)*2 + (m/16)*96 + g%2 + (g/2)*32. No zero-fill.
// CHECK-LABEL: func.func @scale_adn2zz
// CHECK: %[[L1:.*]] = memref.alloca() : memref<288xf8E8M0FNU>
// CHECK-NEXT: %[[POISON:.*]] = arith.constant 0xFF : f8E8M0FNU
// CHECK: scf.for %[[M:.*]] = %{{.*}} to %c33
// CHECK-NEXT: scf.for %[[G:.*]] = %{{.*}} to %c6
// CHECK: %[[GD:.*]] = arith.shrui %[[G]], %c1{{.*}}
// CHECK-NEXT: %c66 = arith.constant 66 : index
// CHECK-NEXT: arith.muli %[[GD]], %c66
// CHECK: %c96 = arith.constant 96 : index
// CHECK: %c32 = arith.constant 32 : index
// CHECK-NEXT: arith.muli %[[GD]], %c32
// CHECK: %[[V:.*]] = memref.load %arg0[%{{.*}}] : memref<198xf8E8M0FNU>
// CHECK-NEXT: memref.store %[[V]], %[[L1]][%{{.*}}] : memref<288xf8E8M0FNU>
// CHECK-NEXT: }
// CHECK-NEXT: }
// CHECK-NEXT: return
!gs = !layout.tensor<f8E8M0FNU, "gm", "ScaleADN", "(33,6)">
!zz = !layout.tensor<f8E8M0FNU, "l1", "ZZ", "(33,6)">
module attributes {layout.target = #layout.target<"a5">} {
  func.func @scale_adn2zz(%s: memref<198xf8E8M0FNU>) {
    %a = "layout.view"(%s) : (memref<198xf8E8M0FNU>) -> !gs
    %b = "layout.alloc"() : () -> !zz
    "layout.load"(%a, %b) : (!gs, !zz) -> ()
    return
  }
}
