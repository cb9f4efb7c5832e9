// A second kernel for run-multiple-kernels.mlir: @scale adds instead of multiplying.
func.func @scale(%x: memref<8xf32>, %s: index) attributes {llvm.emit_c_interface} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %si = arith.index_cast %s : index to i64
  %sf = arith.sitofp %si : i64 to f32
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xf32>
    %w = arith.addf %v, %sf : f32
    memref.store %w, %x[%i] : memref<8xf32>
  }
  return
}
