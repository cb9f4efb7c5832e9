// layout-run with several kernels: each run on its own with the same flags, in command-line
// order, outputs separated by '// -----', the arrays of NAME.mlir in OUT_DIR/NAME/; a kernel
// that fails (here a misspelled op, with "did you mean") does not stop the others, and the
// exit status is 1. Two kernels of one NAME would write the same files: an error.
// RUN: rm -rf %t && mkdir -p %t
// RUN: layout-run %s %S/Inputs/run-second.mlir --entry scale --arg 1=3 --out-dir %t | FileCheck %s
// RUN: not layout-run %S/Inputs/run-second.mlir %S/Inputs/run-misspelled.mlir %s --entry scale --arg 1=3 --out-dir %t/b > %t/out.txt 2> %t/err.txt
// RUN: FileCheck %s --check-prefix=GOOD < %t/out.txt
// RUN: FileCheck %s --check-prefix=BAD < %t/err.txt
// RUN: not layout-run %s %s --entry scale 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: layout-run %s %S/Inputs/run-second.mlir --emit=llvm | FileCheck %s --check-prefix=EMIT

// CHECK: arg0: f32[64] {{.*}} -> {{.*}}run-multiple-kernels/arg0.npy
// CHECK-NEXT: // -----
// CHECK-NEXT: arg0: f32[8] {{.*}} -> {{.*}}run-second/arg0.npy
// GOOD: arg0: f32[8] {{.*}} -> {{.*}}b/run-second/arg0.npy
// GOOD-NEXT: // -----
// GOOD-NEXT: // -----
// GOOD-NEXT: arg0: f32[64] {{.*}} -> {{.*}}b/run-multiple-kernels/arg0.npy
// BAD: run-misspelled.mlir:5:5: error: unregistered operation 'layout.lod' found in dialect ('layout') that does not allow unknown operations
// BAD: run-misspelled.mlir:5:5: note: did you mean 'layout.load'?
// SAME: layout-run: error: kernels '{{.*}}run-multiple-kernels.mlir' and '{{.*}}run-multiple-kernels.mlir' would both write their arrays to OUT_DIR/run-multiple-kernels/: rename one
// EMIT: define {{.*}}@scale(
// EMIT: fmul
// EMIT: // -----
// EMIT: define {{.*}}@scale(
// EMIT: fadd

func.func @scale(%x: memref<64xf32>, %s: index) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %si = arith.index_cast %s : index to i64
  %sf = arith.sitofp %si : i64 to f32
  scf.for %i = %c0 to %c64 step %c1 {
    %v = memref.load %x[%i] : memref<64xf32>
    %w = arith.mulf %v, %sf : f32
    memref.store %w, %x[%i] : memref<64xf32>
  }
  return
}
