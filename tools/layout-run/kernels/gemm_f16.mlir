// C = A * B for f16 A (MxK) and B (KxN) with dynamic shapes, accumulated in f32 (arith.extf),
// plus %scale * C rounded to f16 in H. Shapes come from the .npy inputs.
//   layout-run gemm_f16.mlir --entry gemm_f16 --input a.npy --input b.npy --input c.npy \
//     --input h.npy --arg 4=0.5
func.func @gemm_f16(%a: memref<?x?xf16>, %b: memref<?x?xf16>, %c: memref<?x?xf32>, %h: memref<?x?xf16>, %scale: f32) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = memref.dim %a, %c0 : memref<?x?xf16>
  %k = memref.dim %a, %c1 : memref<?x?xf16>
  %n = memref.dim %b, %c1 : memref<?x?xf16>
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %m step %c1 {
    scf.for %j = %c0 to %n step %c1 {
      %sum = scf.for %p = %c0 to %k step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %a[%i, %p] : memref<?x?xf16>
        %y = memref.load %b[%p, %j] : memref<?x?xf16>
        %xw = arith.extf %x : f16 to f32
        %yw = arith.extf %y : f16 to f32
        %prod = arith.mulf %xw, %yw : f32
        %s = arith.addf %acc, %prod : f32
        scf.yield %s : f32
      }
      memref.store %sum, %c[%i, %j] : memref<?x?xf32>
      %scaled = arith.mulf %sum, %scale : f32
      %r = arith.truncf %scaled : f32 to f16
      memref.store %r, %h[%i, %j] : memref<?x?xf16>
    }
  }
  return
}
