// A tile of a tile, at a dynamic then a static coordinate (A, C) and at a static then a dynamic
// one (B), lowered to loops and to AscendC (IR, C++, LLVM form): each lowering places the inner
// tile at the sum of the corners (`tile::lower_tile`), so every address starts at the global
// corner: A row m0 + 16 (ND, 32 columns), B column 16 + n0, C element (m0 + 16, n0) (64 columns).
// The same kernel runs three ways against a reference in
// crates/ascendc-emit/tests/run/tile_of_tile.rs.
// RUN: layout-opt %s --pass-pipeline='builtin.module(layout-verify,layout-lower-to-loops,canonicalize,cse)' | FileCheck %s --check-prefix=LOOPS
// RUN: layout-opt --layout-lower-to-ascendc %s | FileCheck %s --check-prefix=IR
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc %s | FileCheck %s --check-prefix=CPP
// RUN: layout-opt --layout-lower-to-ascendc --emit=ascendc-llvm %s | FileCheck %s --check-prefix=LL

// LOOPS: scf.for %[[M0:.*]] = %c0 to %c64 step %c32 {
// LOOPS-NEXT: scf.for %[[N0:.*]] = %c0 to %c64 step %c32 {
// LOOPS: %[[AR:.*]] = arith.addi %[[M0]], %c16 : index
// LOOPS-NEXT: %[[AR2:.*]] = arith.addi %[[AR]], %{{.*}} : index
// LOOPS-NEXT: %[[AO:.*]] = arith.muli %[[AR2]], %c32 : index
// LOOPS-NEXT: %[[AOFF:.*]] = arith.addi %[[AO]], %{{.*}} : index
// LOOPS: memref.load %arg0[%[[AOFF]]] : memref<1792xf16>
// LOOPS: %[[BR:.*]] = arith.muli %{{.*}}, %c64 : index
// LOOPS-NEXT: %[[BC:.*]] = arith.addi %[[N0]], %c16 : index
// LOOPS-NEXT: %[[BC2:.*]] = arith.addi %[[BC]], %{{.*}} : index
// LOOPS-NEXT: %[[BOFF:.*]] = arith.addi %[[BR]], %[[BC2]] : index
// LOOPS: memref.load %arg1[%[[BOFF]]] : memref<2048xf16>
// LOOPS: %[[CR:.*]] = arith.addi %[[M0]], %c16 : index
// LOOPS-NEXT: %[[CR2:.*]] = arith.addi %[[CR]], %{{.*}} : index
// LOOPS-NEXT: %[[CO:.*]] = arith.muli %[[CR2]], %c64 : index
// LOOPS-NEXT: %[[CC:.*]] = arith.addi %[[N0]], %{{.*}} : index
// LOOPS-NEXT: %[[COFF:.*]] = arith.addi %[[CO]], %[[CC]] : index
// LOOPS: memref.store %{{.*}}, %arg2[%[[COFF]]] : memref<3584xf32>

// IR: scf.for %[[M0:.*]] = %c0 to %c64 step %c32 {
// IR: scf.for %[[N0:.*]] = %c0 to %c64 step %c32 {
// IR: %[[AROW:.*]] = arith.addi %[[M0]], %c16{{(_[0-9]+)?}} : index
// IR-NEXT: %[[AOFF:.*]] = arith.muli %[[AROW]], %c32{{(_[0-9]+)?}} : index
// IR: "ascendc.data_copy_nd2nz"(%{{.*}}, %{{.*}}, %{{.*}}, %[[AOFF]]) {dyn_fields = ["nValue", "off1"]
// IR: %[[BOFF:.*]] = arith.addi %[[N0]], %c16{{(_[0-9]+)?}} : index
// IR: "ascendc.data_copy_nd2nz"(%{{.*}}, %{{.*}}, %{{.*}}, %[[BOFF]]) {dyn_fields = ["dValue", "off1"]
// IR: %[[CROW:.*]] = arith.addi %[[M0]], %c16{{(_[0-9]+)?}} : index
// IR: %[[CR:.*]] = arith.muli %[[CROW]], %c64{{(_[0-9]+)?}} : index
// IR-NEXT: %[[COFF:.*]] = arith.addi %[[CR]], %[[N0]] : index
// IR: "ascendc.fixpipe"(%{{.*}}, %{{.*}}, %{{.*}}, %[[COFF]],

// In C++ the row offsets of A and C depend on M0 only: computed once per M0, before the N0
// loop, from one M0 + 16 (crates/ascendc-emit/src/hoist.rs).
// CPP: for (int64_t [[M0:i[0-9]+]] = 0; [[M0]] < 64; [[M0]] += 32) {
// CPP: const int64_t [[AROW:v[0-9]+]] = [[M0]] + 16;
// CPP-NEXT: const int64_t [[AOFF:v[0-9]+]] = [[AROW]] * 32;
// CPP-NEXT: const int64_t [[CR:v[0-9]+]] = [[AROW]] * 64;
// CPP-NEXT: for (int64_t [[N0:i[0-9]+]] = 0; [[N0]] < 64; [[N0]] += 32) {
// CPP-NOT: [[M0]] + 16
// CPP: AscendC::DataCopy(a1[0], arg0Gm{{\[}}[[AOFF]]{{\]}}, p0);
// CPP: const int64_t [[BOFF:v[0-9]+]] = [[N0]] + 16;
// CPP: AscendC::DataCopy(b1[0], arg1Gm{{\[}}[[BOFF]]{{\]}}, p1);
// CPP: const int64_t [[COFF:v[0-9]+]] = [[CR]] + [[N0]];
// CPP: AscendC::Fixpipe<float, float, AscendC::CFG_ROW_MAJOR>(arg2Gm{{\[}}[[COFF]]{{\]}}, co1[0], p5);

// LL-LABEL: define void @tile_of_tile(
// LL: %[[AROW:.*]] = or disjoint i64 %[[M0:.*]], 16
// LL: %[[ABYTES:.*]] = shl nuw nsw i64 %[[AROW]], 6
// LL-NEXT: %[[ASRC:.*]] = getelementptr i8, ptr %1, i64 %[[ABYTES]]
// LL-NEXT: %[[CBYTES:.*]] = shl nuw nsw i64 %[[AROW]], 8
// LL-NEXT: %[[CROW:.*]] = getelementptr i8, ptr %11, i64 %[[CBYTES]]
// LL: call i32 @ascendc_model_data_copy_nd2nz(ptr nonnull @ascendc_l1, ptr %[[ASRC]],
// LL: %[[BCOL:.*]] = getelementptr half, ptr %6, i64 %[[N0:.*]]
// LL-NEXT: %[[BSRC:.*]] = getelementptr i8, ptr %[[BCOL]], i64 32
// LL: call i32 @ascendc_model_data_copy_nd2nz({{.*}}, ptr %[[BSRC]],
// LL: %[[CDST:.*]] = getelementptr float, ptr %[[CROW]], i64 %[[N0]]
// LL: call i32 @ascendc_model_fixpipe_nz2nd(ptr %[[CDST]],

!gA = !layout.tensor<f16, "gm", "ND", "(56,32)">
!gB = !layout.tensor<f16, "gm", "ND", "(32,64)">
!gC = !layout.tensor<f32, "gm", "ND", "(56,64)">
!gT16 = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!gT32 = !layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">
!l1A = !layout.tensor<f16, "l1", "NZ", "(16,32)">
!l1B = !layout.tensor<f16, "l1", "NZ", "(32,16)">
!l0A = !layout.tensor<f16, "l0a", "ZZ", "(16,32)">
!l0B = !layout.tensor<f16, "l0b", "ZN", "(32,16)">
!l0C = !layout.tensor<f32, "l0c", "NZ", "(16,16)">
!l1T = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0AW = !layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0BW = !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0CW = !layout.tensor<f32, "l0c", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @tile_of_tile(%A: memref<1792xf16>, %B: memref<2048xf16>, %C: memref<3584xf32>) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %c64 = arith.constant 64 : index
    %ga = "layout.view"(%A) : (memref<1792xf16>) -> !gA
    %gb = "layout.view"(%B) : (memref<2048xf16>) -> !gB
    %gc = "layout.view"(%C) : (memref<3584xf32>) -> !gC
    %a1 = "layout.alloc"() : () -> !l1A
    %b1 = "layout.alloc"() : () -> !l1B
    %a0 = "layout.alloc"() : () -> !l0A
    %b0 = "layout.alloc"() : () -> !l0B
    %acc = "layout.alloc"() : () -> !l0C
    scf.for %m0 = %c0 to %c64 step %c32 {
      scf.for %n0 = %c0 to %c64 step %c32 {
        %pa = "layout.tile"(%ga, %m0, %c0) {shape = array<i64: 32, 32>} : (!gA, index, index) -> !gT16
        %ta = "layout.tile"(%pa, %c16, %c0) {shape = array<i64: 16, 32>} : (!gT16, index, index) -> !gT16
        %pb = "layout.tile"(%gb, %c0, %c16) {shape = array<i64: 32, 40>} : (!gB, index, index) -> !gT16
        %tb = "layout.tile"(%pb, %c0, %n0) {shape = array<i64: 32, 16>} : (!gT16, index, index) -> !gT16
        %a1v = "layout.load"(%ta, %a1) : (!gT16, !l1A) -> !l1T
        %b1v = "layout.load"(%tb, %b1) : (!gT16, !l1B) -> !l1T
        %a0v = "layout.load"(%a1v, %a0) : (!l1T, !l0A) -> !l0AW
        %b0v = "layout.load"(%b1v, %b0) : (!l1T, !l0B) -> !l0BW
        %w = "layout.matmul"(%a0v, %b0v, %acc) {accumulate = false} : (!l0AW, !l0BW, !l0C) -> !l0CW
        %pc = "layout.tile"(%gc, %m0, %c0) {shape = array<i64: 32, 64>} : (!gC, index, index) -> !gT32
        %tc = "layout.tile"(%pc, %c16, %n0) {shape = array<i64: 16, 16>} : (!gT32, index, index) -> !gT32
        "layout.store"(%w, %tc) : (!l0CW, !gT32) -> ()
      }
    }
    return
  }
}
