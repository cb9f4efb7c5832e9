// Multi-core (issue 12): layout.block_idx / layout.block_num become ascendc.get_block_idx /
// get_block_num, printed as AscendC::GetBlockIdx() / GetBlockNum() in C++ and as calls of the
// model's C ABI in the LLVM IR; the loop lowering calls the JIT's runtime functions. Block b
// stores the 16 x 16 tile b of C (tiles b, b + blockDim, ... below N).
// RUN: layout-opt --layout-lower-to-ascendc %s | FileCheck %s --check-prefix=IR
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc-llvm %s | FileCheck %s --check-prefix=LLVM
// RUN: layout-opt --layout-lower-to-loops %s | FileCheck %s --check-prefix=LOOPS

// IR: %[[B:.*]] = "ascendc.get_block_idx"() : () -> index
// IR: %[[N:.*]] = "ascendc.get_block_num"() : () -> index
// IR: scf.for %{{.*}} = %[[B]] to %{{.*}} step %[[N]]

// CHECK: const int64_t blockIdx = AscendC::GetBlockIdx();
// CHECK: const int64_t blockNum = AscendC::GetBlockNum();
// CHECK: for (int64_t [[I:i[0-9]*]] = blockIdx; [[I]] < {{.*}}; [[I]] += blockNum) {
// CHECK: AscendC::Fixpipe

// LLVM: declare i64 @ascendc_model_get_block_idx()
// LLVM: declare i64 @ascendc_model_get_block_num()
// LLVM: call i64 @ascendc_model_get_block_idx()
// LLVM: call i64 @ascendc_model_get_block_num()

// LOOPS-DAG: func.func private @__layout_block_idx() -> index
// LOOPS-DAG: func.func private @__layout_block_num() -> index
// LOOPS: call @__layout_block_idx() : () -> index
// LOOPS: call @__layout_block_num() : () -> index

!gmC = !layout.tensor<f32, "gm", "ND", "(16,?)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(16,16)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(16,16)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(16,16)">
!l1 = !layout.tensor<f16, "l1", "NZ", "(16,16)">
!gmA = !layout.tensor<f16, "gm", "ND", "(16,16)">
!tile = !layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">

module attributes {layout.target = #layout.target<"a2">} {
  func.func @blocks(%A: memref<256xf16>, %B: memref<256xf16>, %C: memref<?xf32>, %N: index) attributes {llvm.emit_c_interface} {
    %c16 = arith.constant 16 : index
    %c0 = arith.constant 0 : index
    %ga = "layout.view"(%A) : (memref<256xf16>) -> !gmA
    %gb = "layout.view"(%B) : (memref<256xf16>) -> !gmA
    %gc = "layout.view"(%C, %N) : (memref<?xf32>, index) -> !gmC
    %a1 = "layout.alloc"() : () -> !l1
    %b1 = "layout.alloc"() : () -> !l1
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    "layout.load"(%ga, %a1) : (!gmA, !l1) -> ()
    "layout.load"(%gb, %b1) : (!gmA, !l1) -> ()
    "layout.load"(%a1, %a0) : (!l1, !l0A) -> ()
    "layout.load"(%b1, %b0) : (!l1, !l0B) -> ()
    "layout.matmul"(%a0, %b0, %acc) {accumulate = false} : (!l0A, !l0B, !l0C) -> ()
    %tiles = arith.ceildivsi %N, %c16 : index
    %bid = "layout.block_idx"() : () -> index
    %bnum = "layout.block_num"() : () -> index
    scf.for %t = %bid to %tiles step %bnum {
      %n0 = arith.muli %t, %c16 : index
      %tc = "layout.tile"(%gc, %c0, %n0) {shape = array<i64: 16, 16>} : (!gmC, index, index) -> !tile
      "layout.store"(%acc, %tc) : (!l0C, !tile) -> ()
    }
    return
  }
}
