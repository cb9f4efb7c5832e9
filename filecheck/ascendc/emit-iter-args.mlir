// Index iter_args in the AscendC path (issue 11 item 5): a loop with a dynamic bound carries
// the tile corner (r, c) and swaps it every iteration (`scf.yield %c, %r`). The C++ declares
// the carried variables before the loop and assigns them at the end of the body through
// temporaries (sequential assignment would set both to 32); the LLVM form carries them as
// two phis that swap. The sync pass gives the loop its back-edge pair: the next iteration's
// GM -> L1 copy (MTE2) overwrites what this iteration's store (MTE3) reads.
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc-llvm %s | FileCheck %s --check-prefix=LLVM

// CHECK: AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
// CHECK-NEXT: int64_t v0 = 0;
// CHECK-NEXT: int64_t v1 = 32;
// CHECK-NEXT: for (int64_t i0 = 0; i0 < arg2; i0 += 1) {
// CHECK: const int64_t v8 = v0 * 64;
// CHECK-NEXT: const int64_t v9 = v8 + v1;
// CHECK-NEXT: AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
// CHECK: AscendC::DataCopy(a1[0], arg0Gm[v9], p0);
// CHECK-NEXT: AscendC::SetFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
// CHECK: AscendC::WaitFlag<AscendC::HardEvent::MTE2_MTE3>(EVENT_ID0);
// CHECK: AscendC::DataCopy(arg1Gm[0], a1[0], p1);
// CHECK-NEXT: AscendC::SetFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
// CHECK-NEXT: const int64_t v0_next = v1;
// CHECK-NEXT: const int64_t v1_next = v0;
// CHECK-NEXT: v0 = v0_next;
// CHECK-NEXT: v1 = v1_next;
// CHECK-NEXT: }
// CHECK-NEXT: const int64_t {{v[0-9]+}} = v0;
// CHECK-NEXT: const int64_t {{v[0-9]+}} = v1;
// CHECK-NEXT: AscendC::WaitFlag<AscendC::HardEvent::MTE3_MTE2>(EVENT_ID0);
// CHECK-NEXT: AscendC::PipeBarrier<PIPE_ALL>();

// Pipes: MTE2 = 4, MTE3 = 5.
// LLVM: call void @ascendc_model_set_flag(i32 5, i32 4, i32 0)
// LLVM: %[[C:[0-9]+]] = phi i64 [ 32, %{{.*}} ], [ %[[R:[0-9]+]], %{{.*}} ]
// LLVM-NEXT: %[[R]] = phi i64 [ 0, %{{.*}} ], [ %[[C]], %{{.*}} ]
// LLVM: call void @ascendc_model_wait_flag(i32 5, i32 4, i32 0)
// LLVM: call i32 @ascendc_model_data_copy_nd2nz(
// LLVM-NEXT: call void @ascendc_model_set_flag(i32 4, i32 5, i32 0)
// LLVM-NEXT: call void @ascendc_model_wait_flag(i32 4, i32 5, i32 0)
// LLVM: call i32 @ascendc_model_data_copy(
// LLVM-NEXT: call void @ascendc_model_set_flag(i32 5, i32 4, i32 0)
// LLVM: call void @ascendc_model_wait_flag(i32 5, i32 4, i32 0)
// LLVM-NEXT: call void @ascendc_model_pipe_barrier(i32 6)

module attributes {layout.target = #layout.target<"a2">} {
  func.func @swap_copy(%A: memref<4096xf16>, %O: memref<1024xf16>, %n: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %ga = "layout.view"(%A) : (memref<4096xf16>) -> !layout.tensor<f16, "gm", "ND", "(64,64)">
    %go = "layout.view"(%O) : (memref<1024xf16>) -> !layout.tensor<f16, "gm", "NZ", "(32,32)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(32,32)">
    %rc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%r = %c0, %c = %c32) -> (index, index) {
      %t = "layout.tile"(%ga, %r, %c) {shape = array<i64: 32, 32>} : (!layout.tensor<f16, "gm", "ND", "(64,64)">, index, index) -> !layout.tensor<f16, "gm", "(32,32):(64,1)", "(?,?)">
      %w = "layout.load"(%t, %a1) : (!layout.tensor<f16, "gm", "(32,32):(64,1)", "(?,?)">, !layout.tensor<f16, "l1", "NZ", "(32,32)">) -> !layout.tensor<f16, "l1", "((16,2),(16,2)):((16,256),(1,512))", "(?,?)">
      "layout.store"(%w, %go) : (!layout.tensor<f16, "l1", "((16,2),(16,2)):((16,256),(1,512))", "(?,?)">, !layout.tensor<f16, "gm", "NZ", "(32,32)">) -> ()
      scf.yield %c, %r : index, index
    }
    return
  }
}