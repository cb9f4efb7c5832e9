// layout-simplify-offsets on hand-written arith kernels (the shapes the lowerings emit).
// RUN: layout-opt %s --layout-simplify-offsets | FileCheck %s
// RUN: layout-opt %s --default-pipeline | FileCheck %s --check-prefix=PIPE
// RUN: layout-opt %s --layout-simplify-offsets --layout-simplify-offsets | FileCheck %s --check-prefix=IDEM

// The default pipeline cleans up (constants hoisted and shared) and keeps the results.
// PIPE-LABEL: func.func @nz_rows
// PIPE: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// PIPE-NEXT: %[[O:.*]] = arith.muli %[[I]], %c16 : index
// PIPE-LABEL: func.func @nz_tile
// PIPE-NOT: arith.divsi
// PIPE-NOT: arith.remsi
// PIPE-LABEL: func.func @unknown
// PIPE: arith.divsi
// PIPE: arith.floordivsi
// PIPE: arith.remsi
// PIPE-LABEL: func.func @maybe_negative
// PIPE: arith.divsi
// PIPE: arith.remsi

// A second run finds nothing cheaper: the output of the first is a fixed point.
// IDEM-LABEL: func.func @nz_rows
// IDEM-COUNT-1: arith.muli
// IDEM-NOT: arith.muli
// IDEM-LABEL: func.func @nz_tile

// NZ rows inside one fractal: i mod 16 * 16 + i floordiv 16 * 256 with i in [0, 15] is i * 16.
// CHECK-LABEL: func.func @nz_rows
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[O:.*]] = arith.muli %[[I]], %[[C16]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[O]]]
// CHECK-NOT: arith.divsi
// CHECK-NOT: arith.remsi
// CHECK: return
func.func @nz_rows(%m: memref<4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %r = arith.remsi %i, %c16 : index
    %a = arith.muli %r, %c16 : index
    %q = arith.divsi %i, %c16 : index
    %b = arith.muli %q, %c256 : index
    %o = arith.addi %a, %b : index
    %v = memref.load %m[%o] : memref<4096xf16>
    memref.store %v, %m[%i] : memref<4096xf16>
  }
  return
}

// NZ f16 112x112 element (t + i, j) with a tile-origin loop t = 0, 16, ..., 96: the fractal
// row is i, the fractal index t/16, so the offset is (t + i) * 16 + j. No div/rem left.
// CHECK-LABEL: func.func @nz_tile
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: %[[ROW:.*]] = arith.addi %[[T]], %[[I]] : index
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[ROW]], %[[C16]] : index
// CHECK-NEXT: %[[O:.*]] = arith.addi %[[J]], %[[M]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[O]]]
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[O]]]
// CHECK-NOT: arith.divsi
// CHECK-NOT: arith.remsi
// CHECK: return
func.func @nz_tile(%m: memref<12544xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c112 = arith.constant 112 : index
  %c256 = arith.constant 256 : index
  %c1792 = arith.constant 1792 : index
  scf.for %t = %c0 to %c112 step %c16 {
    scf.for %i = %c0 to %c16 step %c1 {
      scf.for %j = %c0 to %c16 step %c1 {
        %row = arith.addi %t, %i : index
        %r0 = arith.remsi %row, %c16 : index
        %r1 = arith.muli %r0, %c16 : index
        %r2 = arith.divsi %row, %c16 : index
        %r3 = arith.muli %r2, %c256 : index
        %c0r = arith.remsi %j, %c16 : index
        %c1r = arith.divsi %j, %c16 : index
        %c2r = arith.muli %c1r, %c1792 : index
        %s0 = arith.addi %r1, %r3 : index
        %s1 = arith.addi %s0, %c0r : index
        %o = arith.addi %s1, %c2r : index
        %v = memref.load %m[%o] : memref<12544xf16>
        memref.store %v, %m[%o] : memref<12544xf16>
      }
    }
  }
  return
}

// A function argument has an unknown range: divsi is not a floor division there (it
// truncates), so it is an atom; floordivsi is exact but x >> 4 needs x >= 0. Nothing changes.
// CHECK-LABEL: func.func @unknown
// CHECK-NEXT: %[[C16:.*]] = arith.constant 16 : index
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %arg0, %[[C16]] : index
// CHECK-NEXT: %[[F:.*]] = arith.floordivsi %arg0, %[[C16]] : index
// CHECK-NEXT: %[[R:.*]] = arith.remsi %arg0, %[[C16]] : index
// CHECK-NEXT: %[[A:.*]] = arith.muli %[[Q]], %[[C16]] : index
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[R]] : index
// CHECK-NEXT: %[[V:.*]] = memref.load %arg1[%[[S]]]
// CHECK-NEXT: memref.store %[[V]], %arg1[%arg0]
// CHECK-NEXT: return %[[Q]], %[[F]] : index, index
func.func @unknown(%x: index, %m: memref<?xf16>) -> (index, index) {
  %c16 = arith.constant 16 : index
  %q = arith.divsi %x, %c16 : index
  %f = arith.floordivsi %x, %c16 : index
  %r = arith.remsi %x, %c16 : index
  %a = arith.muli %q, %c16 : index
  %s = arith.addi %a, %r : index
  %v = memref.load %m[%s] : memref<?xf16>
  memref.store %v, %m[%x] : memref<?xf16>
  return %q, %f : index, index
}

// i - 8 ranges over [-8, 7]: divsi/remsi truncate there (-7 divsi 4 = -1, floor gives -2),
// so they must stay as they are.
// CHECK-LABEL: func.func @maybe_negative
// CHECK: scf.for
// CHECK-NEXT: %[[D:.*]] = arith.subi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[D]], %{{.*}} : index
// CHECK-NEXT: %[[R:.*]] = arith.remsi %[[D]], %{{.*}} : index
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[Q]], %[[R]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[S]]]
func.func @maybe_negative(%m: memref<64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.for %i = %c0 to %c16 step %c1 {
    %d = arith.subi %i, %c8 : index
    %q = arith.divsi %d, %c4 : index
    %r = arith.remsi %d, %c4 : index
    %s = arith.addi %q, %r : index
    %v = memref.load %m[%s] : memref<64xf16>
    memref.store %v, %m[%i] : memref<64xf16>
  }
  return
}

// Edge cases.
// CHECK-LABEL: func.func @edges
// i in [0, 16] (upper bound 17): i floordiv 16 is not 0 (i = 16), but i >= 0 makes it a shift.
// CHECK: scf.for %[[I0:.*]] = %c0 to %c17 step %c1 {
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[SH:.*]] = arith.shrui %[[I0]], %[[C4]] : index
// CHECK-NEXT: memref.load %{{.*}}[%[[SH]]]
// i = 3, 7, ..., 39 (lb 3, step 4): i mod 4 is 3, not 0.
// CHECK: scf.for %{{.*}} = %c3 to %c40 step %c4 {
// CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: memref.load %{{.*}}[%[[C3]]]
// An unsigned-compare loop to an unknown bound can reach negative (signed) values: untouched.
// CHECK: scf.for unsigned %[[U:.*]] = %c0 to %arg1 step %c1 {
// CHECK-NEXT: arith.divsi %[[U]], %c16 : index
// A dynamic step might be non-positive: no facts, untouched.
// CHECK: scf.for %[[S:.*]] = %c0 to %c16 step %arg2 {
// CHECK-NEXT: arith.remsi %[[S]], %c16 : index
// Tail tile: i < min(n - t, 16) <= 16 and t = 0 mod 16: (t + i) mod 16 = i, (t + i) / 16 = t >> 4.
// CHECK: scf.for %[[T:.*]] = %c0 to %arg1 step %c16 {
// CHECK: scf.for %[[TI:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK-NEXT: %[[C4B:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[TQ:.*]] = arith.shrui %[[T]], %[[C4B]] : index
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[TI]]]
// CHECK-NEXT: memref.store %[[V]], %{{.*}}[%[[TQ]]]
func.func @edges(%m: memref<64xf16>, %n: index, %s: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c17 = arith.constant 17 : index
  %c40 = arith.constant 40 : index
  scf.for %i = %c0 to %c17 step %c1 {
    %q = arith.divsi %i, %c16 : index
    %v = memref.load %m[%q] : memref<64xf16>
  }
  scf.for %i = %c3 to %c40 step %c4 {
    %r = arith.remsi %i, %c4 : index
    %v = memref.load %m[%r] : memref<64xf16>
  }
  scf.for unsigned %i = %c0 to %n step %c1 {
    %q = arith.divsi %i, %c16 : index
    %v = memref.load %m[%q] : memref<64xf16>
  }
  scf.for %i = %c0 to %c16 step %s {
    %q = arith.remsi %i, %c16 : index
    %v = memref.load %m[%q] : memref<64xf16>
  }
  scf.for %t = %c0 to %n step %c16 {
    %rest = arith.subi %n, %t : index
    %ub = arith.minsi %rest, %c16 : index
    scf.for %i = %c0 to %ub step %c1 {
      %row = arith.addi %t, %i : index
      %r = arith.remsi %row, %c16 : index
      %q = arith.divsi %row, %c16 : index
      %v = memref.load %m[%r] : memref<64xf16>
      memref.store %v, %m[%q] : memref<64xf16>
    }
  }
  return
}
