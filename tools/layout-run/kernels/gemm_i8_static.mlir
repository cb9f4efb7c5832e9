// C = A * B for i8 A (32x48) and B (48x16), accumulated in i32 (arith.extsi). Static shapes:
// layout-run generates the inputs from --seed.
func.func @gemm_i8(%a: memref<32x48xi8>, %b: memref<48x16xi8>, %c: memref<32x16xi32>) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 16 {
      %sum = affine.for %p = 0 to 48 iter_args(%acc = %zero) -> (i32) {
        %x = affine.load %a[%i, %p] : memref<32x48xi8>
        %y = affine.load %b[%p, %j] : memref<48x16xi8>
        %xw = arith.extsi %x : i8 to i32
        %yw = arith.extsi %y : i8 to i32
        %prod = arith.muli %xw, %yw : i32
        %s = arith.addi %acc, %prod : i32
        affine.yield %s : i32
      }
      affine.store %sum, %c[%i, %j] : memref<32x16xi32>
    }
  }
  return
}
