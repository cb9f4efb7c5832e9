// The reference for examples/gemm_dynamic_k.mlir in `make demo`: the GEMM with plain loops on
// logical indices (no layouts), f16 inputs widened to f32 and summed in order p = 0..199.
// Static shapes M = 200, K = 200, N = 136 (tails in all three against the kernel's 128 x 256
// blocks and 64-wide K slices: K = 3 * 64 + 8) so that layout-run generates A, B from the seed;
// %Cinit (random, untouched) is the initial C given to the kernel, which must overwrite it.
func.func @gemm_reference_k200(%A: memref<200x200xf16>, %B: memref<200x136xf16>, %C: memref<200x136xf32>,
                               %Cinit: memref<200x136xf32>) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c136 = arith.constant 136 : index
  %c200 = arith.constant 200 : index
  %zero = arith.constant 0.0 : f32
  scf.for %i = %c0 to %c200 step %c1 {
    scf.for %j = %c0 to %c136 step %c1 {
      %sum = scf.for %p = %c0 to %c200 step %c1 iter_args(%acc = %zero) -> (f32) {
        %x = memref.load %A[%i, %p] : memref<200x200xf16>
        %y = memref.load %B[%p, %j] : memref<200x136xf16>
        %xw = arith.extf %x : f16 to f32
        %yw = arith.extf %y : f16 to f32
        %prod = arith.mulf %xw, %yw : f32
        %s = arith.addf %acc, %prod : f32
        scf.yield %s : f32
      }
      memref.store %sum, %C[%i, %j] : memref<200x136xf32>
    }
  }
  return
}
