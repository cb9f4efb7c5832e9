// Programs layout-verify accepts: legal layouts per space and target, legal copy pairs in
// both directions, the cube's element types, aligned tiles, bound dynamic leaves.
// RUN: layout-opt %s --split-input-file --layout-verify | FileCheck %s

// CHECK-LABEL: func.func @a2_pipeline
module attributes {layout.target = #layout.target<"a2">} {
  func.func @a2_pipeline(%ma: memref<?xf16>, %mb: memref<?xf16>, %mc: memref<?xf32>, %m: index, %n: index, %k: index, %i: index) {
    %ga = "layout.view"(%ma, %m, %k) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "gm", "ND", "(?,?)">
    %gb = "layout.view"(%mb, %k, %n) : (memref<?xf16>, index, index) -> !layout.tensor<f16, "gm", "DN", "(?,?)">
    %gc = "layout.view"(%mc, %m, %n) : (memref<?xf32>, index, index) -> !layout.tensor<f32, "gm", "ND", "(?,?)">
    %ta = "layout.tile"(%ga, %i, %i) {shape = array<i64: 128, 64>} : (!layout.tensor<f16, "gm", "ND", "(?,?)">, index, index) -> !layout.tensor<f16, "gm", "(128,64):(?,1)", "(?,?)">
    %tb = "layout.tile"(%gb, %i, %i) {shape = array<i64: 64, 256>} : (!layout.tensor<f16, "gm", "DN", "(?,?)">, index, index) -> !layout.tensor<f16, "gm", "(64,256):(1,?)", "(?,?)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "zN", "(128,64)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "nZ", "(64,256)">
    // The tiles may be tails: read what the loads wrote through their `written` views (R1).
    %a1v = "layout.load"(%ta, %a1) : (!layout.tensor<f16, "gm", "(128,64):(?,1)", "(?,?)">, !layout.tensor<f16, "l1", "zN", "(128,64)">) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %b1v = "layout.load"(%tb, %b1) : (!layout.tensor<f16, "gm", "(64,256):(1,?)", "(?,?)">, !layout.tensor<f16, "l1", "nZ", "(64,256)">) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,256)">
    %c0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,256)">
    %a0v = "layout.load"(%a1v, %a0) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,64)">) -> !layout.tensor<f16, "l0a", "((16,8),(16,4)):((16,1024),(1,256))", "(?,?)">
    %b0v = "layout.load"(%b1v, %b0) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(64,256)">) -> !layout.tensor<f16, "l0b", "((16,4),(16,16)):((1,4096),(16,256))", "(?,?)">
    %cv = "layout.matmul"(%a0v, %b0v, %c0) {accumulate = false} : (!layout.tensor<f16, "l0a", "((16,8),(16,4)):((16,1024),(1,256))", "(?,?)">, !layout.tensor<f16, "l0b", "((16,4),(16,16)):((1,4096),(16,256))", "(?,?)">, !layout.tensor<f32, "l0c", "NZ", "(128,256)">) -> !layout.tensor<f32, "l0c", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %tc = "layout.tile"(%gc, %i, %i) {shape = array<i64: 128, 256>} : (!layout.tensor<f32, "gm", "ND", "(?,?)">, index, index) -> !layout.tensor<f32, "gm", "(128,256):(?,1)", "(?,?)">
    "layout.store"(%cv, %tc) : (!layout.tensor<f32, "l0c", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f32, "gm", "(128,256):(?,1)", "(?,?)">) -> ()
    return
  }
}

// -----

// Ascend 950: L0A is NZ, DN -> NZ exists, int8 accumulates in int32, fp8 in f32, L0C -> UB,
// NZ2DN, MX scales in ZZ/NN.
// CHECK-LABEL: func.func @a5_paths
module attributes {layout.target = #layout.target<"a5">} {
  func.func @a5_paths(%mg: memref<4096xi8>, %mo: memref<1024xi32>, %ms: memref<64xf8E8M0FNU>, %m4: memref<512xf8E4M3FN>, %m5: memref<512xf8E5M2>) {
    %g = "layout.view"(%mg) : (memref<4096xi8>) -> !layout.tensor<i8, "gm", "DN", "(32,64)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(32,64)">
    "layout.load"(%g, %a1) : (!layout.tensor<i8, "gm", "DN", "(32,64)">, !layout.tensor<i8, "l1", "NZ", "(32,64)">) -> ()
    %a0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0a", "NZ", "(32,64)">
    "layout.load"(%a1, %a0) : (!layout.tensor<i8, "l1", "NZ", "(32,64)">, !layout.tensor<i8, "l0a", "NZ", "(32,64)">) -> ()
    %b0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0b", "ZN", "(64,32)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(64,32)">
    %gb = "layout.view"(%mg) : (memref<4096xi8>) -> !layout.tensor<i8, "gm", "ND", "(64,32)">
    "layout.load"(%gb, %b1) : (!layout.tensor<i8, "gm", "ND", "(64,32)">, !layout.tensor<i8, "l1", "NZ", "(64,32)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<i8, "l1", "NZ", "(64,32)">, !layout.tensor<i8, "l0b", "ZN", "(64,32)">) -> ()
    %c0 = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "zN", "(32,32)">
    "layout.matmul"(%a0, %b0, %c0) {accumulate = false} : (!layout.tensor<i8, "l0a", "NZ", "(32,64)">, !layout.tensor<i8, "l0b", "ZN", "(64,32)">, !layout.tensor<i32, "l0c", "zN", "(32,32)">) -> ()
    %o = "layout.view"(%mo) : (memref<1024xi32>) -> !layout.tensor<i32, "gm", "ND", "(32,32)">
    "layout.store"(%c0, %o) : (!layout.tensor<i32, "l0c", "zN", "(32,32)">, !layout.tensor<i32, "gm", "ND", "(32,32)">) -> ()
    %u = "layout.alloc"() : () -> !layout.tensor<f16, "ub", "ND", "(32,32)">
    "layout.store"(%c0, %u) {scale = 5.000000e-01 : f32} : (!layout.tensor<i32, "l0c", "zN", "(32,32)">, !layout.tensor<f16, "ub", "ND", "(32,32)">) -> ()
    %ge = "layout.view"(%m4) : (memref<512xf8E4M3FN>) -> !layout.tensor<f8E4M3FN, "gm", "ND", "(16,32)">
    %gf = "layout.view"(%m5) : (memref<512xf8E5M2>) -> !layout.tensor<f8E5M2, "gm", "DN", "(32,16)">
    %e1 = "layout.alloc"() : () -> !layout.tensor<f8E4M3FN, "l1", "NZ", "(16,32)">
    %f1 = "layout.alloc"() : () -> !layout.tensor<f8E5M2, "l1", "ZN", "(32,16)">
    "layout.load"(%ge, %e1) : (!layout.tensor<f8E4M3FN, "gm", "ND", "(16,32)">, !layout.tensor<f8E4M3FN, "l1", "NZ", "(16,32)">) -> ()
    "layout.load"(%gf, %f1) : (!layout.tensor<f8E5M2, "gm", "DN", "(32,16)">, !layout.tensor<f8E5M2, "l1", "ZN", "(32,16)">) -> ()
    %e = "layout.alloc"() : () -> !layout.tensor<f8E4M3FN, "l0a", "NZ", "(16,32)">
    %f = "layout.alloc"() : () -> !layout.tensor<f8E5M2, "l0b", "ZN", "(32,16)">
    "layout.load"(%e1, %e) : (!layout.tensor<f8E4M3FN, "l1", "NZ", "(16,32)">, !layout.tensor<f8E4M3FN, "l0a", "NZ", "(16,32)">) -> ()
    "layout.load"(%f1, %f) : (!layout.tensor<f8E5M2, "l1", "ZN", "(32,16)">, !layout.tensor<f8E5M2, "l0b", "ZN", "(32,16)">) -> ()
    %h = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    "layout.matmul"(%e, %f, %h) {accumulate = false} : (!layout.tensor<f8E4M3FN, "l0a", "NZ", "(16,32)">, !layout.tensor<f8E5M2, "l0b", "ZN", "(32,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    %sg = "layout.view"(%ms) : (memref<64xf8E8M0FNU>) -> !layout.tensor<f8E8M0FNU, "gm", "ScaleADN", "(16,4)">
    %s1 = "layout.alloc"() : () -> !layout.tensor<f8E8M0FNU, "l1", "ZZ", "(16,4)">
    "layout.load"(%sg, %s1) : (!layout.tensor<f8E8M0FNU, "gm", "ScaleADN", "(16,4)">, !layout.tensor<f8E8M0FNU, "l1", "ZZ", "(16,4)">) -> ()
    %s0 = "layout.alloc"() : () -> !layout.tensor<f8E8M0FNU, "l0a_scale", "ZZ", "(16,4)">
    "layout.load"(%s1, %s0) : (!layout.tensor<f8E8M0FNU, "l1", "ZZ", "(16,4)">, !layout.tensor<f8E8M0FNU, "l0a_scale", "ZZ", "(16,4)">) -> ()
    return
  }
}

// -----
// a2 f32: L1 holds NN / ZZ, the layouts the 32-bit LoadDataWithTranspose reads (GM DN -> NN,
// ND -> ZZ; NN -> L0A ZZ, ZZ -> L0B ZN).
// CHECK-LABEL: func.func @a2_f32_nn_zz
module attributes {layout.target = #layout.target<"a2">} {
  func.func @a2_f32_nn_zz(%ma: memref<1024xf32>, %mb: memref<1024xf32>) {
    %ga = "layout.view"(%ma) : (memref<1024xf32>) -> !layout.tensor<f32, "gm", "DN", "(32,32)">
    %gb = "layout.view"(%mb) : (memref<1024xf32>) -> !layout.tensor<f32, "gm", "ND", "(32,32)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f32, "l1", "NN", "(32,32)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f32, "l1", "ZZ", "(32,32)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f32, "gm", "DN", "(32,32)">, !layout.tensor<f32, "l1", "NN", "(32,32)">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<f32, "gm", "ND", "(32,32)">, !layout.tensor<f32, "l1", "ZZ", "(32,32)">) -> ()
    %a0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0a", "ZZ", "(32,32)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0b", "ZN", "(32,32)">
    "layout.load"(%a1, %a0) : (!layout.tensor<f32, "l1", "NN", "(32,32)">, !layout.tensor<f32, "l0a", "ZZ", "(32,32)">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<f32, "l1", "ZZ", "(32,32)">, !layout.tensor<f32, "l0b", "ZN", "(32,32)">) -> ()
    return
  }
}

// -----

// Explicit layouts equal to patterns, aligned constant tiles with the algebra's type, tails.
// CHECK-LABEL: func.func @explicit
module attributes {layout.target = #layout.target<"a2">} {
  func.func @explicit() -> index {
    %c96 = arith.constant 96 : index
    %c0 = arith.constant 0 : index
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "((16,7),(16,7)):((16,256),(1,1792))", "(100,100)">
    %t = "layout.tile"(%a, %c96, %c96) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "((16,7),(16,7)):((16,256),(1,1792))", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(4,4)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "((16,2),(16,2)):((16,256),(1,512))", "(32,32)">
    %o = "layout.offset"(%t, %c96, %c0) : (!layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(4,4)">, index, index) -> index
    return %o : index
  }
}

// -----

// Convolution loads NC1HWC0 <- NCHW / NHWC / NC1HWC0 (logical extents compared: c = 20 fits
// c1·c0 = 2·16) and the MX scale loads on a5.
// CHECK-LABEL: func.func @conv_and_scales
module attributes {layout.target = #layout.target<"a5">} {
  func.func @conv_and_scales(%m: memref<600xf16>, %n: memref<960xf16>, %s: memref<198xf8E8M0FNU>) {
    %nchw = "layout.view"(%m) : (memref<600xf16>) -> !layout.tensor<f16, "gm", "NCHW", "(2,20,3,5)">
    %nhwc = "layout.view"(%m) : (memref<600xf16>) -> !layout.tensor<f16, "gm", "NHWC", "(2,3,5,20)">
    %nc1 = "layout.view"(%n) : (memref<960xf16>) -> !layout.tensor<f16, "gm", "NC1HWC0", "(2,2,3,5,16)">
    %l1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NC1HWC0", "(2,2,3,5)">
    "layout.load"(%nchw, %l1) : (!layout.tensor<f16, "gm", "NCHW", "(2,20,3,5)">, !layout.tensor<f16, "l1", "NC1HWC0", "(2,2,3,5)">) -> ()
    "layout.load"(%nhwc, %l1) : (!layout.tensor<f16, "gm", "NHWC", "(2,3,5,20)">, !layout.tensor<f16, "l1", "NC1HWC0", "(2,2,3,5)">) -> ()
    "layout.load"(%nc1, %l1) : (!layout.tensor<f16, "gm", "NC1HWC0", "(2,2,3,5,16)">, !layout.tensor<f16, "l1", "NC1HWC0", "(2,2,3,5)">) -> ()
    %sa = "layout.view"(%s) : (memref<198xf8E8M0FNU>) -> !layout.tensor<f8E8M0FNU, "gm", "ScaleADN", "(33,6)">
    %zz = "layout.alloc"() : () -> !layout.tensor<f8E8M0FNU, "l1", "ZZ", "(33,6)">
    "layout.load"(%sa, %zz) : (!layout.tensor<f8E8M0FNU, "gm", "ScaleADN", "(33,6)">, !layout.tensor<f8E8M0FNU, "l1", "ZZ", "(33,6)">) -> ()
    %sb = "layout.view"(%s) : (memref<198xf8E8M0FNU>) -> !layout.tensor<f8E8M0FNU, "gm", "ScaleBDN", "(6,33)">
    %nn = "layout.alloc"() : () -> !layout.tensor<f8E8M0FNU, "l1", "NN", "(6,33)">
    "layout.load"(%sb, %nn) : (!layout.tensor<f8E8M0FNU, "gm", "ScaleBDN", "(6,33)">, !layout.tensor<f8E8M0FNU, "l1", "NN", "(6,33)">) -> ()
    return
  }
}

// -----
// A tile of a batch form: (batch, rows, cols) coordinates and extents; batch extent 1 selects
// one matrix, clipped at the tails (docs/dialect.md, layout.tile).
// CHECK-LABEL: func.func @batch_tile
module attributes {layout.target = #layout.target<"a2">} {
  func.func @batch_tile(%m: memref<10500xf16>, %b: index, %i: index, %j: index) {
    %g = "layout.view"(%m) : (memref<10500xf16>) -> !layout.tensor<f16, "gm", "ND", "(3,50,70)">
    // CHECK: "layout.tile"
    %t = "layout.tile"(%g, %b, %i, %j) {shape = array<i64: 1, 32, 32>} : (!layout.tensor<f16, "gm", "ND", "(3,50,70)">, index, index, index) -> !layout.tensor<f16, "gm", "(1,(32,32)):(3500,(70,1))", "(?,(?,?))">
    return
  }
}

// -----
// A load from one matrix of a batch form (L6) and its written view: the matrix extents.
// CHECK-LABEL: func.func @batch_load
module attributes {layout.target = #layout.target<"a2">} {
  func.func @batch_load(%m: memref<8400xf16>, %b: index) {
    %c0 = arith.constant 0 : index
    %g = "layout.view"(%m) : (memref<8400xf16>) -> !layout.tensor<f16, "gm", "ND", "(3,40,70)">
    %l1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(48,80)">
    %t = "layout.tile"(%g, %b, %c0, %c0) {shape = array<i64: 1, 48, 80>} : (!layout.tensor<f16, "gm", "ND", "(3,40,70)">, index, index, index) -> !layout.tensor<f16, "gm", "(?,(?,?)):(?,(?,?))", "(?,(?,?))">
    // CHECK: "layout.load"
    %w = "layout.load"(%t, %l1) : (!layout.tensor<f16, "gm", "(?,(?,?)):(?,(?,?))", "(?,(?,?))">, !layout.tensor<f16, "l1", "NZ", "(48,80)">) -> !layout.tensor<f16, "l1", "((16,3),(16,5)):((16,256),(1,768))", "(?,?)">
    return
  }
}
