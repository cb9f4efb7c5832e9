// C += A * B on static 256x256 f32 matrices (naive i-j-k loops): layout-run's timing kernel.
//   layout-run tools/layout-run/kernels/gemm_f32_256.mlir --entry gemm --zero 2 --time
func.func @gemm(%a: memref<256x256xf32>, %b: memref<256x256xf32>, %c: memref<256x256xf32>) attributes {llvm.emit_c_interface} {
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 256 {
      %init = affine.load %c[%i, %j] : memref<256x256xf32>
      %sum = affine.for %p = 0 to 256 iter_args(%acc = %init) -> (f32) {
        %x = affine.load %a[%i, %p] : memref<256x256xf32>
        %y = affine.load %b[%p, %j] : memref<256x256xf32>
        %prod = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %prod : f32
        affine.yield %s : f32
      }
      affine.store %sum, %c[%i, %j] : memref<256x256xf32>
    }
  }
  return
}
