// layout-strength-reduce: addresses affine in the induction variable of an innermost loop
// become iter_args advanced by one add (start: the address tree cloned with iv -> lb;
// increment: coefficient x step). The increments are checked by value, so a wrong stride
// constant fails; the last RUN lines execute the kernel with and without the pass and compare.
// RUN: layout-opt %s --layout-strength-reduce | FileCheck %s
// RUN: layout-opt %s --layout-strength-reduce | layout-opt | FileCheck %s
// RUN: layout-opt %s --layout-strength-reduce -o %t.sr.mlir
// RUN: layout-run %s --entry copy --seed 7 --zero 1 -o %t.ref
// RUN: layout-run %t.sr.mlir --entry copy --seed 7 --zero 1 -o %t.sr
// RUN: layout-run --compare %t.ref/arg1.npy %t.sr/arg1.npy | FileCheck %s --check-prefix=SAME
// SAME: compare: 1700 elements (f16 vs f16), max |a - b| = 0 (tolerance 0)

// Rows r of a 16 x 100 source; column c steps by 2. Source address r*100 + c (coefficient 1,
// increment 2), destination (r*16 + 3) + c*7 - 3 (coefficient 7, increment 14); c >> 4 is not affine
// and stays; the iv used directly stays.
// CHECK-LABEL: func.func @copy(
// CHECK: %[[C7:.*]] = arith.constant 7 : index
// CHECK: scf.for %[[R:[a-z0-9]+]] =
// CHECK: %[[BASE:.*]] = arith.muli %[[R]], %{{.*}} : index
// CHECK: %[[ROW:.*]] = arith.addi
// CHECK: %[[A0:.*]] = arith.addi %[[BASE]], %[[LB:[a-z0-9]+]] : index
// CHECK: %[[INC1:.*]] = arith.constant 2 : index
// CHECK: %[[M0:.*]] = arith.muli %[[LB]], %[[C7]] : index
// CHECK: %[[B0:.*]] = arith.addi %[[ROW]], %[[M0]] : index
// CHECK: %[[B1:.*]] = arith.subi %[[B0]], %{{.*}} : index
// CHECK: %[[INC7:.*]] = arith.constant 14 : index
// CHECK: scf.for %[[C:[a-z0-9]+]] = %[[LB]] to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[A0]], %[[B:.*]] = %[[B1]]) -> (index, index) {
// CHECK-NOT: arith.muli
// CHECK: %[[Q:.*]] = arith.shrui %[[C]]
// CHECK: %[[X:.*]] = memref.load %{{.*}}[%[[A]]]
// CHECK: memref.store %[[X]], %{{.*}}[%[[B]]]
// CHECK: memref.store %[[X]], %{{.*}}[%[[Q]]]
// CHECK: memref.store %[[X]], %{{.*}}[%[[C]]]
// CHECK: %[[NA:.*]] = arith.addi %[[A]], %[[INC1]] : index
// CHECK: %[[NB:.*]] = arith.addi %[[B]], %[[INC7]] : index
// CHECK: scf.yield %[[NA]], %[[NB]] : index, index
func.func @copy(%s: memref<1600xf16>, %d: memref<1700xf16>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c100 = arith.constant 100 : index
  scf.for %r = %c0 to %c16 step %c1 {
    %base = arith.muli %r, %c100 : index
    %row0 = arith.muli %r, %c16 : index
    %row = arith.addi %row0, %c3 : index
    scf.for %c = %c0 to %c100 step %c2 {
      %a = arith.addi %base, %c : index
      %m = arith.muli %c, %c7 : index
      %b0 = arith.addi %row, %m : index
      %b = arith.subi %b0, %c3 : index
      %q = arith.shrui %c, %c4 : index
      %x = memref.load %s[%a] : memref<1600xf16>
      memref.store %x, %d[%b] : memref<1700xf16>
      memref.store %x, %d[%q] : memref<1700xf16>
      memref.store %x, %d[%c] : memref<1700xf16>
    }
  }
  return
}

// A loop with its own iter_args and result keeps them first; a dynamic step gives the
// increment step * 4 computed before the loop; a product of two loop values is not affine.
// CHECK-LABEL: func.func @carried(
// CHECK-SAME: %[[N:[a-z0-9]+]]: index, %[[ST:[a-z0-9]+]]: index
// CHECK: %[[INC:.*]] = arith.muli %[[ST]], %[[C4:.*]] : index
// CHECK: %[[RES:.*]]:2 = scf.for %[[I:[a-z0-9]+]] = %{{.*}} to %[[N]] step %[[ST]] iter_args(%[[ACC:.*]] = %{{.*}}, %[[P:.*]] = %{{.*}}) -> (f32, index) {
// CHECK: arith.muli %[[I]], %[[I]]
// CHECK: memref.load %{{.*}}[%[[P]]]
// CHECK: %[[NP:.*]] = arith.addi %[[P]], %[[INC]] : index
// CHECK: scf.yield %{{.*}}, %[[NP]] : f32, index
// CHECK: memref.store %[[RES]]#0
func.func @carried(%m: memref<?xf32>, %n: index, %st: index) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %st iter_args(%acc = %zero) -> (f32) {
    %p = arith.muli %i, %c4 : index
    %sq = arith.muli %i, %i : index
    %x = memref.load %m[%p] : memref<?xf32>
    %y = memref.load %m[%sq] : memref<?xf32>
    %s1 = arith.addf %acc, %x : f32
    %s2 = arith.addf %s1, %y : f32
    scf.yield %s2 : f32
  }
  memref.store %sum, %m[%c0] : memref<?xf32>
  return
}

// A ZZ-like destination (row + c) + inv − (c >> 4)·240 + 7: the affine part row + inv + c + 7
// is carried (start at c = 0, the term as 0), the term is subtracted in the loop: 1 sub and
// the increment instead of 4 adds. With one term on a 2-op spine nothing would be saved.
// CHECK-LABEL: func.func @zz(
// CHECK-SAME: %[[ROW:[a-z0-9]+]]: index, %[[INV:[a-z0-9]+]]: index
// CHECK: arith.constant 1.000000e+00 : f32
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK: %[[S0:.*]] = arith.addi %[[ROW]], %[[LB:[a-z0-9]+]] : index
// CHECK: %[[S1:.*]] = arith.addi %[[S0]], %[[INV]] : index
// CHECK: %[[S2:.*]] = arith.subi %[[S1]], %[[Z]] : index
// CHECK: %[[S3:.*]] = arith.addi %[[S2]], %{{.*}} : index
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: scf.for %[[C:[a-z0-9]+]] = %[[LB]] to %{{.*}} iter_args(%[[A:.*]] = %[[S3]]) -> (index) {
// CHECK-NEXT: %[[Q:.*]] = arith.shrui %[[C]], %{{.*}} : index
// CHECK-NEXT: %[[T:.*]] = arith.muli %[[Q]], %{{.*}} : index
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[A]], %[[T]] : index
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[D]]]
// CHECK-NEXT: %[[NA:.*]] = arith.addi %[[A]], %[[ONE]] : index
// CHECK-NEXT: scf.yield %[[NA]] : index
// CHECK-LABEL: func.func @short(
// CHECK: scf.for
// CHECK-NOT: iter_args
// CHECK: return
func.func @zz(%m: memref<?xf32>, %row: index, %inv: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c7 = arith.constant 7 : index
  %c240 = arith.constant 240 : index
  %x = arith.constant 1.0 : f32
  scf.for %c = %c0 to %n step %c1 {
    %a0 = arith.addi %row, %c : index
    %a1 = arith.addi %a0, %inv : index
    %q = arith.shrui %c, %c4 : index
    %t = arith.muli %q, %c240 : index
    %a2 = arith.subi %a1, %t : index
    %a3 = arith.addi %a2, %c7 : index
    memref.store %x, %m[%a3] : memref<?xf32>
  }
  return
}
func.func @short(%m: memref<?xf32>, %row: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = arith.constant 1.0 : f32
  scf.for %c = %c0 to %n step %c1 {
    %a0 = arith.addi %row, %c : index
    %q = arith.shrui %c, %c4 : index
    %a1 = arith.addi %a0, %q : index
    memref.store %x, %m[%a1] : memref<?xf32>
  }
  return
}

// Nothing to carry (the address is the induction variable itself): the loop is unchanged.
// CHECK-LABEL: func.func @plain(
// CHECK: scf.for %[[J:[a-z0-9]+]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT: memref.load %{{.*}}[%[[J]]]
func.func @plain(%m: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %j = %c0 to %n step %c1 {
    %x = memref.load %m[%j] : memref<?xf32>
    memref.store %x, %m[%j] : memref<?xf32>
  }
  return
}
