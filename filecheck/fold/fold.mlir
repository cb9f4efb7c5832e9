// layout-fold: constants and static types computed by the layout algebra.
// RUN: layout-opt %s --split-input-file --layout-verify --layout-fold --layout-verify | FileCheck %s
// RUN: layout-opt %s --split-input-file --pass-pipeline='builtin.module(layout-verify,layout-fold,canonicalize)' | FileCheck %s --check-prefix=CANON

// With canonicalize after layout-fold the folded offsets are plain constants.
// CANON-LABEL: func.func @offsets
// CANON-DAG: arith.constant 3857 : index
// CANON-DAG: arith.constant 2321 : index
// CANON-DAG: arith.constant 3721 : index
// CANON-NOT: "layout.offset"(%{{.*}}, %c{{[0-9]+}}, %c

// offset with constant coordinates -> arith.constant (crd2offset).
// NZ f16 100x100 (17,33): 16*1 + 256*1 + 1*1 + 1792*2 = 3857; ZZ f16: 16 + 1792 + 1 + 512 = 2321;
// NZ f32 (C0 = 8): 8 + 128 + 1 + 896*4 = 3721.
// CHECK-LABEL: func.func @offsets
// CHECK: %[[NZ:.*]] = arith.constant 3857 : index
// CHECK-NEXT: %[[ZZ:.*]] = arith.constant 2321 : index
// CHECK-NEXT: %[[F32:.*]] = arith.constant 3721 : index
// CHECK-NEXT: %[[ORIGIN:.*]] = arith.constant 0 : index
// A dynamic coordinate stays an offset op (the CPU lowering expands it).
// CHECK-NEXT: "layout.offset"(%{{.*}}, %arg0, %{{.*}})
// CHECK-NEXT: return %[[NZ]], %[[ZZ]], %[[F32]], %[[ORIGIN]], %{{.*}} : index, index, index, index, index
module attributes {layout.target = #layout.target<"a2">} {
  func.func @offsets(%i: index) -> (index, index, index, index, index) {
    %c0 = arith.constant 0 : index
    %c17 = arith.constant 17 : index
    %c33 = arith.constant 33 : index
    %nz = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(100,100)">
    %zz = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(100,100)">
    %f32 = "layout.alloc"() : () -> !layout.tensor<f32, "l1", "zN", "(100,100)">
    %0 = "layout.offset"(%nz, %c17, %c33) : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> index
    %1 = "layout.offset"(%zz, %c17, %c33) : (!layout.tensor<f16, "l0a", "ZZ", "(100,100)">, index, index) -> index
    %2 = "layout.offset"(%f32, %c17, %c33) : (!layout.tensor<f32, "l1", "zN", "(100,100)">, index, index) -> index
    %3 = "layout.offset"(%nz, %c0, %c0) : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> index
    %4 = "layout.offset"(%nz, %i, %c0) : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> index
    return %0, %1, %2, %3, %4 : index, index, index, index, index
  }
}

// -----

// tile with constant coordinates -> fully static type, origin clipped at the tails
// (GetTileLayout: O' = min(t, max(O - c, 0))); dynamic coordinates keep the static strides
// and inner shape, only the origin stays `?`.
// CHECK-LABEL: func.func @tiles
// CHECK: "layout.tile"(%{{.*}}, %{{.*}}, %{{.*}}) {shape = array<i64: 32, 48>} : ({{.*}}) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(4,4)">
// CHECK: "layout.tile"(%{{.*}}, %{{.*}}, %{{.*}}) {shape = array<i64: 32, 48>} : ({{.*}}) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(32,48)">
// CHECK: "layout.tile"(%{{.*}}, %{{.*}}, %{{.*}}) {shape = array<i64: 32, 48>} : ({{.*}}) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(4,48)">
// CHECK: "layout.tile"(%{{.*}}, %arg0, %arg1) {shape = array<i64: 32, 48>} : ({{.*}}) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,?)">
// CHECK: "layout.tile"(%{{.*}}, %arg0, %{{.*}}) {shape = array<i64: 32, 48>} : ({{.*}}) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,48)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @tiles(%i: index, %j: index) {
    %c0 = arith.constant 0 : index
    %c16 = arith.constant 16 : index
    %c48 = arith.constant 48 : index
    %c96 = arith.constant 96 : index
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(100,100)">
    %t0 = "layout.tile"(%a, %c96, %c96) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,?),(16,?)):((16,?),(1,?))", "(?,?)">
    %t1 = "layout.tile"(%a, %c16, %c48) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,?)">
    %t2 = "layout.tile"(%a, %c96, %c0) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,?)">
    %t3 = "layout.tile"(%a, %i, %j) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %t4 = "layout.tile"(%a, %i, %c48) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,?)">
    return
  }
}

// -----

// view/alloc with constant dynamic-leaf operands: the constants move into the type and the
// operands are dropped; the refined types flow into tiles and offsets.
// ND 100x128 tile 64x64 at (64,64): stride (128,1), origin (36,64); offset (70,65) = 70*128+65 = 9025.
// CHECK-LABEL: func.func @bindings
// CHECK: %[[V:.*]] = "layout.view"(%arg0, %arg1) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(100,?)">
// CHECK: %[[W:.*]] = "layout.view"(%arg0) : (memref<?xf16>) -> !layout.tensor<f16, "gm", "ND", "(100,128)">
// CHECK: "layout.alloc"(%arg1, %arg1) : (index, index) -> !layout.tensor<f16, "ub", "(16,?):(?,1)", "(16,64)">
// CHECK: "layout.tile"(%[[W]], %{{.*}}, %{{.*}}) {shape = array<i64: 64, 64>} : ({{.*}}) -> !layout.tensor<f16, "gm", "(64,64):(128,1)", "(36,64)">
// CHECK: "layout.tile"(%[[V]], %arg1, %{{.*}}) {shape = array<i64: 64, 64>} : ({{.*}}) -> !layout.tensor<f16, "gm", "(64,64):(?,1)", "(?,?)">
// CHECK: %[[O:.*]] = arith.constant 9025 : index
// CHECK: %[[P:.*]] = arith.constant 5 : index
// CHECK: return %[[O]], %[[P]]
module attributes {layout.target = #layout.target<"a2">} {
  func.func @bindings(%m: memref<?xf16>, %n: index) -> (index, index) {
    %c0 = arith.constant 0 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    %c65 = arith.constant 65 : index
    %c70 = arith.constant 70 : index
    %c100 = arith.constant 100 : index
    %c128 = arith.constant 128 : index
    %v = "layout.view"(%m, %c100, %n) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "gm", "ND", "(?,?)">
    %w = "layout.view"(%m, %c100, %c128) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "gm", "ND", "(?,?)">
    %u = "layout.alloc"(%c16, %c16, %n, %n) : (index, index, index, index) -> !layout.tensor<f16, "ub", "(?,?):(?,1)", "(?,64)">
    %t = "layout.tile"(%w, %c64, %c64) {shape = array<i64: 64, 64>} : (!layout.tensor<f16, "gm", "ND", "(?,?)">, index, index) -> !layout.tensor<f16, "gm", "(64,64):(?,1)", "(?,?)">
    %d = "layout.tile"(%v, %n, %c64) {shape = array<i64: 64, 64>} : (!layout.tensor<f16, "gm", "ND", "(?,?)">, index, index) -> !layout.tensor<f16, "gm", "(64,64):(?,1)", "(?,?)">
    %o = "layout.offset"(%t, %c70, %c65) : (!layout.tensor<f16, "gm", "(64,64):(?,1)", "(?,?)">, index, index) -> index
    // Row 0 of a row-major view does not depend on the dynamic row stride.
    %p = "layout.offset"(%v, %c0, %c5) : (!layout.tensor<f16, "gm", "ND", "(?,?)">, index, index) -> index
    return %o, %p : index, index
  }
}

// -----

// A value used outside the layout dialect keeps its declared type (func.return needs it).
// CHECK-LABEL: func.func @escaping
// CHECK: "layout.alloc"(%{{.*}}) : (index) -> !layout.tensor<f16, "l1", "NZ", "(?,64)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @escaping() -> !layout.tensor<f16, "l1", "NZ", "(?,64)"> {
    %c32 = arith.constant 32 : index
    %a = "layout.alloc"(%c32) : (index) -> !layout.tensor<f16, "l1", "NZ", "(?,64)">
    return %a : !layout.tensor<f16, "l1", "NZ", "(?,64)">
  }
}
