// --emit=ascendc / --emit=ascendc-llvm errors are located at the op that cannot be emitted
// (the innermost one, inside loops), or at 1:1 of an input without kernels, and each cause
// gives exactly one error line.
// RUN: not layout-opt --emit=ascendc-llvm --split-input-file %s 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOP --implicit-check-not=error:
// RUN: not layout-opt --emit=ascendc --split-input-file %s 2>&1 | FileCheck %s --check-prefixes=CHECK,LOOP,CPP --implicit-check-not=error:
// RUN: not layout-opt --emit=ascendc --split-input-file - < %s 2>&1 | FileCheck %s --check-prefixes=STDIN,STDIN-LOOP --implicit-check-not=error:
// RUN: rm -rf %t && mkdir -p %t && printf '' > %t/empty.mlir
// RUN: not layout-opt --emit=ascendc %t/empty.mlir 2>&1 | FileCheck %s --check-prefix=EMPTY --implicit-check-not=error:
// RUN: printf '' | not layout-opt --emit=ascendc-llvm 2>&1 | FileCheck %s --check-prefix=EMPTY-STDIN --implicit-check-not=error:

// EMPTY: {{.*}}empty.mlir:1:1: error: no ascendc kernel in the module (run --layout-lower-to-ascendc first)
// EMPTY-STDIN: <stdin>:1:1: error: no ascendc kernel in the module (run --layout-lower-to-ascendc first)
module attributes {layout.target = #layout.target<"a2">} {
  func.func @copy(%A: memref<256xf16>) {
    // CHECK: emit-errors.mlir:[[@LINE+3]]:10: error: @copy: cannot emit `layout.view` (only ascendc ops, arith index arithmetic and comparisons, scf.for and scf.if)
    // CHECK-NEXT: {{^}}    %g = "layout.view"
    // STDIN: <stdin>:[[@LINE+1]]:10: error: @copy: cannot emit `layout.view`
    %g = "layout.view"(%A) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    %l = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    "layout.load"(%g, %l) : (!layout.tensor<f16, "gm", "ND", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----

// The error is at the constant inside the loop, not at the loop.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @loop(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      // LOOP: emit-errors.mlir:[[@LINE+2]]:12: error: @loop: arith.constant: only integer constants are emitted
      // STDIN-LOOP: <stdin>:[[@LINE+1]]:12: error: @loop: arith.constant
      %x = arith.constant 1.0 : f32
    }
    return
  }
}

// -----

// No default target (the one rule, `layout_dialect::types::target_of`): a kernel in a module
// without `layout.target` is an error, not C++ for a2.
// CHECK: emit-errors.mlir:[[@LINE+2]]:1: error: no enclosing op has a 'layout.target' attribute (add `attributes {layout.target = #layout.target<"a2">}` or "a5" to the module)
// STDIN: <stdin>:[[@LINE+1]]:1: error: no enclosing op has a 'layout.target' attribute
module {
  func.func @no_target() {
    %l1 = "ascendc.alloc"() {offset = 0 : i64, size = 512 : i64, layout = "((16,1),(16,1)):((16,256),(1,256))"} : () -> !ascendc.local<f16, "A1">
    return
  }
}

// -----

// Control flow: an op without a printer form inside a branch is located at that op (the
// innermost), not at the scf.if or the function.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @branch(%n: index) {
    %c0 = arith.constant 0 : index
    %p = arith.cmpi sgt, %n, %c0 : index
    scf.if %p {
      // CHECK: emit-errors.mlir:[[@LINE+2]]:12: error: @branch: cannot emit `arith.xori` (only ascendc ops, arith index arithmetic and comparisons, scf.for and scf.if)
      // STDIN: <stdin>:[[@LINE+1]]:12: error: @branch: cannot emit `arith.xori`
      %q = arith.xori %p, %p : i1
    }
    return
  }
}

// -----

// Index arithmetic is on index values only: an i1 `arith.andi` (a conjunction of conditions) is
// not read as index arithmetic.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @conjunction(%n: index, %m: index) {
    %c0 = arith.constant 0 : index
    %p = arith.cmpi sgt, %n, %c0 : index
    %q = arith.cmpi sgt, %m, %c0 : index
    // CHECK: emit-errors.mlir:[[@LINE+2]]:10: error: @conjunction: arith.andi on i1 is not emitted (only index values)
    // STDIN: <stdin>:[[@LINE+1]]:10: error: @conjunction: arith.andi on i1
    %b = arith.andi %p, %q : i1
    scf.if %b {
    }
    return
  }
}

// -----

// Loop-carried values and branch results are index values only.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @carried(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    // CHECK: emit-errors.mlir:[[@LINE+2]]:10: error: @carried: scf.for iter_args of type i32 is not emitted (only index values)
    // STDIN: <stdin>:[[@LINE+1]]:10: error: @carried: scf.for iter_args of type i32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%a = %z) -> (i32) {
      scf.yield %a : i32
    }
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @branch_result(%n: index) {
    %c0 = arith.constant 0 : index
    %p = arith.cmpi eq, %n, %c0 : index
    %one = arith.constant 1 : i32
    // CHECK: emit-errors.mlir:[[@LINE+2]]:10: error: @branch_result: scf.if result of type i32 is not emitted (only index values)
    // STDIN: <stdin>:[[@LINE+1]]:10: error: @branch_result: scf.if result of type i32
    %r = scf.if %p -> (i32) {
      scf.yield %one : i32
    } else {
      scf.yield %one : i32
    }
    return
  }
}

// -----

// A printer's own errors are located at the op they concern: the C++ printer has no type for
// i64 buffers (the error was at the module, 1:1). The LLVM form addresses them as bytes.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @wide(%A: memref<256xi64>) {
    // CPP: emit-errors.mlir:[[@LINE+2]]:10: error: element type i64 has no AscendC C++ type here
    // STDIN: <stdin>:[[@LINE+1]]:10: error: element type i64 has no AscendC C++ type here
    %g = "ascendc.global_tensor"(%A) {layout = "(16,16):(16,1) origin (16,16)"} : (memref<256xi64>) -> !ascendc.global<i64>
    %l = "ascendc.alloc"() {offset = 0 : i64, size = 2048 : i64, layout = "((16,1),(16,1)):((16,256),(1,256)) origin (16,16)"} : () -> !ascendc.local<i64, "A1">
    "ascendc.data_copy"(%l, %g) {params = {blockCount = 1 : i64, blockLen = 64 : i64, srcStride = 0 : i64, dstStride = 0 : i64, repeat = 1 : i64, off0 = 0 : i64, step0 = 0 : i64, off1 = 0 : i64, step1 = 0 : i64}, dyn_fields = [], notes = {}} : (!ascendc.local<i64, "A1">, !ascendc.global<i64>) -> ()
    return
  }
}

// -----

// An on-chip buffer past the end of its memory on the target (L0C: 128 KiB on a2) is an error
// at its alloc in both printers (the LLVM form indexes a global of that size).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @past_l0c() {
    // CHECK: emit-errors.mlir:[[@LINE+2]]:12: error: co1: bytes [131072, 131584) are outside L0C, which holds 131072 B on a2
    // STDIN: <stdin>:[[@LINE+1]]:12: error: co1: bytes [131072, 131584) are outside L0C
    %l0c = "ascendc.alloc"() {offset = 131072 : i64, size = 512 : i64, layout = "((16,1),(8,1)):((8,128),(1,128)) origin (16,8)"} : () -> !ascendc.local<f32, "CO1">
    return
  }
}

// -----

// An intrinsic's fields are the ones its declaration (ascendc_params::decl) has: a misspelled
// field is an error at the call in both printers, not a field silently left 0.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @misspelled(%A: memref<256xf16>) {
    %g = "ascendc.global_tensor"(%A) {layout = "(16,16):(16,1) origin (16,16)"} : (memref<256xf16>) -> !ascendc.global<f16>
    %l = "ascendc.alloc"() {offset = 0 : i64, size = 512 : i64, layout = "((16,1),(16,1)):((16,256),(1,256)) origin (16,16)"} : () -> !ascendc.local<f16, "A1">
    // CHECK: emit-errors.mlir:[[@LINE+2]]:5: error: @misspelled: ascendc.data_copy: DataCopyParams has no field `blockLength`
    // STDIN: <stdin>:[[@LINE+1]]:5: error: @misspelled: ascendc.data_copy: DataCopyParams has no field `blockLength`
    "ascendc.data_copy"(%l, %g) {params = {blockCount = 1 : i64, blockLength = 16 : i64, srcStride = 0 : i64, dstStride = 0 : i64, repeat = 1 : i64, off0 = 0 : i64, step0 = 0 : i64, off1 = 0 : i64, step1 = 0 : i64}, dyn_fields = [], notes = {}} : (!ascendc.local<f16, "A1">, !ascendc.global<f16>) -> ()
    return
  }
}

// -----

// A forgotten field (here `srcStride`, in neither `params` nor `dyn_fields`) is an error too.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @forgotten(%A: memref<256xf16>) {
    %g = "ascendc.global_tensor"(%A) {layout = "(16,16):(16,1) origin (16,16)"} : (memref<256xf16>) -> !ascendc.global<f16>
    %l = "ascendc.alloc"() {offset = 0 : i64, size = 512 : i64, layout = "((16,1),(16,1)):((16,256),(1,256)) origin (16,16)"} : () -> !ascendc.local<f16, "A1">
    // CHECK: emit-errors.mlir:[[@LINE+2]]:5: error: @forgotten: ascendc.data_copy: field `srcStride` is missing (in neither `params` nor `dyn_fields`)
    // STDIN: <stdin>:[[@LINE+1]]:5: error: @forgotten: ascendc.data_copy: field `srcStride` is missing
    "ascendc.data_copy"(%l, %g) {params = {blockCount = 1 : i64, blockLen = 16 : i64, dstStride = 0 : i64, repeat = 1 : i64, off0 = 0 : i64, step0 = 0 : i64, off1 = 0 : i64, step1 = 0 : i64}, dyn_fields = [], notes = {}} : (!ascendc.local<f16, "A1">, !ascendc.global<f16>) -> ()
    return
  }
}
