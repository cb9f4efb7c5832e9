// Errors of the Rust pass layout-verify: one case per rule (rule ids as in passes/src/verify/mod.rs).
// RUN: layout-opt %s --split-input-file --verify-diagnostics --layout-verify

// expected-error@+1 {{unknown target "a3"; expected "a2" (Atlas A2/A3, arch 2201) or "a5" (Ascend 950, arch 3510) (Atlas A3 is target "a2")}}
module attributes {layout.target = #layout.target<"a3">} {
}

// -----

// expected-error@+1 {{'layout.target' must be #layout.target<"a2"> or #layout.target<"a5">, got "a5"}}
module attributes {layout.target = "a5"} {
}

// -----

// expected-error@+1 {{the layout dialect is used but no enclosing op has a 'layout.target' attribute}}
module {
  func.func @f() {
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{unknown memory space "L1" in !layout.tensor<f16, "L1", "NZ", "(16,16)">; expected one of gm, l1, l0a, l0b, l0c, ub, l0a_scale, l0b_scale}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "L1", "NZ", "(16,16)">
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  // expected-error@+1 {{unknown memory space "l2"}}
  func.func @f(%t: !layout.tensor<f16, "l2", "NZ", "(16,16)">) {
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{memory space "l0b_scale" does not exist on target "a2"}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f8E8M0FNU, "l0b_scale", "NN", "(2,16)">
    return
  }
}

// -----

// The same buffer is fine on a5, and a module without layout types needs no target.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    %0 = "layout.alloc"() : () -> !layout.tensor<f8E8M0FNU, "l0b_scale", "NN", "(2,16)">
    return
  }
}

// -----

module {
  func.func @g() {
    return
  }
}

// -----
// T2: element type unknown to the algebra.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{invalid type !layout.tensor<i3, "l1", "NZ", "(16,16)">: unsupported element type: unknown element type `i3`}}
    %0 = "layout.alloc"() : () -> !layout.tensor<i3, "l1", "NZ", "(16,16)">
    return
  }
}

// -----
// T3: pattern names are case-sensitive.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{invalid LAYOUT "Nz": unknown frame pattern `Nz`; pattern names are case-sensitive}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "Nz", "(16,16)">
    return
  }
}

// -----
// T3: CuTe syntax error, with the column inside the string.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{invalid LAYOUT "((16,2),(16,2):((16,256),(1,512))": parse error at column 15}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "((16,2),(16,2):((16,256),(1,512))", "(32,32)">
    return
  }
}

// -----
// T3: ORIGIN syntax.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{invalid ORIGIN "(16;16)"}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16;16)">
    return
  }
}

// -----
// T3: shape and stride not congruent.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<64xf16>) {
    // expected-error@+1 {{layout "(8,8):(8,1,1)" with ORIGIN "(8,8)": layout shape and stride: (8,8) is not congruent with (8,1,1)}}
    %0 = "layout.view"(%m) : (memref<64xf16>) -> !layout.tensor<f16, "gm", "(8,8):(8,1,1)", "(8,8)">
    return
  }
}

// -----
// T3: no fractal layouts for 64-bit types.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{layout NZ for i64: frame pattern: NZ does not support the 64-bit element type i64}}
    %0 = "layout.alloc"() : () -> !layout.tensor<i64, "l1", "NZ", "(16,16)">
    return
  }
}

// -----
// T3: shape arithmetic overflow is an error, not a panic.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{integer overflow}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(9223372036854775807,16)">
    return
  }
}

// -----
// T4: L0A is ZZ on Atlas A2/A3 ...
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{layout NZ is not legal for f16 in l0a on target "a2"; legal: ZZ}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(16,16)">
    return
  }
}

// -----
// T4: ... and NZ on Ascend 950 (catlass spelling zZ = ZZ).
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    // expected-error@+1 {{layout zZ (= ZZ) is not legal for f16 in l0a on target "a5"; legal: NZ}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "zZ", "(16,16)">
    return
  }
}

// -----
// T4: L0B is ZN.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    // expected-error@+1 {{layout NZ is not legal for f16 in l0b on target "a5"; legal: ZN}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "NZ", "(16,16)">
    return
  }
}

// -----
// T4: L0C holds NZ with 16x16 fractals only.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{layout ZN is not legal for f32 in l0c on target "a2"; legal: L0C}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "ZN", "(16,16)">
    return
  }
}

// -----
// T4: L1 ZZ/NN only for MX scales on a5.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    // expected-error@+1 {{layout ZZ is not legal for f16 in l1 on target "a5"; legal: NZ, ZN, NC1HWC0}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "ZZ", "(16,16)">
    return
  }
}

// -----
// T4: a2 L1 holds ZZ/NN for f32 only (the 32-bit transposing L1 -> L0 loads).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{layout NN is not legal for f16 in l1 on target "a2"; legal: NZ, ZN, NC1HWC0}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NN", "(16,16)">
    return
  }
}

// -----
// T4: GM holds ND/DN/NZ..., not the L0A order on a2.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    // expected-error@+1 {{layout ZZ is not legal for f16 in gm on target "a2"}}
    %0 = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ZZ", "(16,16)">
    return
  }
}

// -----
// T4: an explicit layout counts as the pattern it is recognized as.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{layout "((16,2),(16,2)):((16,256),(1,512))" (recognized as NZ) is not legal for f16 in l0a on target "a2"; legal: ZZ}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "((16,2),(16,2)):((16,256),(1,512))", "(32,32)">
    return
  }
}

// -----
// T4: unrecognized explicit layouts only in gm/ub.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{the layout "(16,16):(17,2)" is not a frame pattern; in l1 on target "a2" the layout must be one of NZ, ZN, NC1HWC0}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "(16,16):(17,2)", "(16,16)">
    return
  }
}

// -----
// T5: C0 must match the element type (f32: C0 = 8, not 16).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{the explicit layout is NZ with C0 = 16, but NZ of f32 in l1 on target "a2" has C0 = 8}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f32, "l1", "((16,2),(16,2)):((16,256),(1,512))", "(32,32)">
    return
  }
}

// -----
// T5: on l0c C0 is 16 whatever the element type.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{the explicit layout is L0C with C0 = 8, but L0C of f32 in l0c on target "a2" has C0 = 16}}
    %0 = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "((16,2),(8,4)):((8,128),(1,256))", "(32,32)">
    return
  }
}

// -----
// V1: views are in gm, allocs on chip.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    // expected-error@+1 {{layout.view binds a global-memory buffer, so its result must be in "gm", got "l1"}}
    %0 = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{layout.alloc allocates on-chip buffers}}
    %1 = "layout.alloc"() : () -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    return
  }
}

// -----
// V2: one dyn operand per `?` leaf.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<?xf16>, %n: index) {
    // expected-error@+1 {{layout.view needs 2 dynamic-leaf operand(s), one per `?` of !layout.tensor<f16, "gm", "ND", "(?,?)"> (origin leaves first, then layout leaves), got 1}}
    %0 = "layout.view"(%m, %n) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(?,?)">
    // expected-error@+1 {{layout.alloc needs 0 dynamic-leaf operand(s)}}
    %1 = "layout.alloc"(%n) : (index) -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    return
  }
}

// -----
// V3: constant dyn operands must give a valid type.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %c = arith.constant -16 : index
    // expected-error@+1 {{the constant dynamic-leaf operands give an invalid type}}
    %0 = "layout.alloc"(%c) : (index) -> !layout.tensor<f16, "l1", "NZ", "(?,16)">
    return
  }
}

// -----
// V4: memref element type and size.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf32>, %s: memref<200xf16>) {
    // expected-error@+1 {{the memref element type f32 differs from the tensor element type f16}}
    %0 = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    // expected-error@+1 {{the layout (16,16):(16,1) spans 256 elements but the memref has only 200}}
    %1 = "layout.view"(%s) : (memref<200xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    return
  }
}

// -----
// L1: load goes towards the cube, store takes results out.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf32>) {
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{layout.load moves data towards the cube; l0c -> gm goes the other way: use layout.store}}
    "layout.load"(%c, %g) : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----
// L1: store in the load direction.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{layout.store takes results out of the cube; gm -> l1 goes the other way: use layout.load}}
    "layout.store"(%g, %b) : (!layout.tensor<f16, "gm", "ND", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----
// L1: Ascend 950 has no GM -> L0 path.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f(%m: memref<256xf16>) {
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ZN", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    // expected-error@+1 {{layout.load: Ascend 950 (target "a5") has no gm -> l0b path; load through l1}}
    "layout.load"(%g, %b) : (!layout.tensor<f16, "gm", "ZN", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">) -> ()
    return
  }
}

// -----
// L1: no path between the two L0 buffers.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    // expected-error@+1 {{layout.load: there is no data path l0a -> l0b}}
    "layout.load"(%a, %b) : (!layout.tensor<f16, "l0a", "NZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">) -> ()
    return
  }
}

// -----
// L2: DN -> NZ (DN2NZ) exists only on Ascend 950.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "DN", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{layout.load: no gm DN -> l1 NZ copy on target "a2"; legal pairs: ND->NZ, NDExt->NZ, DN->ZN}}
    "layout.load"(%g, %b) : (!layout.tensor<f16, "gm", "DN", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----
// L2: L1 -> L0A must produce the target's L0A order (a5: NZ; ZN -> NZ is the transposed load).
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    %s = "layout.alloc"() : () -> !layout.tensor<f16, "ub", "ND", "(16,16)">
    // expected-error@+1 {{layout.store: no l1 NZ -> ub ND copy on target "a5"; legal pairs: ND->ND, DN->DN, NZ->NZ}}
    "layout.store"(%b, %s) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "ub", "ND", "(16,16)">) -> ()
    return
  }
}

// -----
// L2: NZ2DN out of L0C is Ascend 950 only.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf32>) {
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "DN", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{layout.store: no l0c L0C -> gm DN copy on target "a2"}}
    "layout.store"(%c, %g) : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "DN", "(16,16)">) -> ()
    return
  }
}

// -----
// L2: NZ2DN out of L0C exists on Ascend 950, but no back end of the AscendC path lowers it:
// the verifier rejects it there too (docs/layout-spec.md §D.2), so it never fails later.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f(%m: memref<256xf32>) {
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "DN", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{layout.store: no l0c L0C -> gm DN copy on target "a5"; legal pairs: L0C->ND, L0C->NDExt, L0C->NZ, L0C->NC1HWC0, L0C->NHWC, L0C->NCHW}}
    "layout.store"(%c, %g) : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "DN", "(16,16)">) -> ()
    return
  }
}

// -----
// L2: a general strided GM view is no frame pattern, so it cannot feed the cube.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<1024xf16>) {
    %g = "layout.view"(%m) : (memref<1024xf16>) -> !layout.tensor<f16, "gm", "(16,16):(2,32)", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{layout.load: gm "(16,16):(2,32)" -> l1 NZ: data movement needs layouts that are frame patterns}}
    "layout.load"(%g, %b) : (!layout.tensor<f16, "gm", "(16,16):(2,32)", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----
// L3: element types: equal, or a Fixpipe conversion out of L0C.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf32>) {
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{layout.load: cannot convert f32 to f16 on the way gm -> l1}}
    "layout.load"(%g, %b) : (!layout.tensor<f32, "gm", "ND", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----
// L4: the source must fit the destination.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<8192xf16>) {
    %g = "layout.view"(%m) : (memref<8192xf16>) -> !layout.tensor<f16, "gm", "ND", "(128,64)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">
    // expected-error@+1 {{layout.load: the source extent 128 of mode 0 does not fit the destination extent 64}}
    "layout.load"(%g, %b) : (!layout.tensor<f16, "gm", "ND", "(128,64)">, !layout.tensor<f16, "l1", "NZ", "(64,64)">) -> ()
    return
  }
}

// -----
// L4: a legal matrix -> convolution pair without an implementation (Fixpipe NZ2NCHW).
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f(%m: memref<1200xf32>) {
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(30,40)">
    %g = "layout.view"(%m) : (memref<1200xf32>) -> !layout.tensor<f32, "gm", "NCHW", "(1,40,5,6)">
    // expected-error@+1 {{layout.store: the copy l0c L0C -> gm NCHW is not supported by this compiler yet}}
    "layout.store"(%c, %g) : (!layout.tensor<f32, "l0c", "NZ", "(30,40)">, !layout.tensor<f32, "gm", "NCHW", "(1,40,5,6)">) -> ()
    return
  }
}

// -----
// L4: NCHW -> NC1HWC0 compares logical extents: 20 channels do not fit c1·c0 = 2·8.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<600xf32>) {
    %g = "layout.view"(%m) : (memref<600xf32>) -> !layout.tensor<f32, "gm", "NCHW", "(1,20,5,6)">
    %b = "layout.alloc"() : () -> !layout.tensor<f32, "l1", "NC1HWC0", "(1,2,5,6)">
    // expected-error@+1 {{layout.load: the source extent c = 20 does not fit the destination (c = 16 = c1·c0)}}
    "layout.load"(%g, %b) : (!layout.tensor<f32, "gm", "NCHW", "(1,20,5,6)">, !layout.tensor<f32, "l1", "NC1HWC0", "(1,2,5,6)">) -> ()
    return
  }
}

// -----
// X1: operand spaces.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{layout.matmul: operand A must be in l0a, got l1}}
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----
// X2: f16 x f16 accumulates in f32.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{layout.matmul: f16 x f16 accumulates in f32, but C is i32}}
    "layout.matmul"(%a, %b, %c) {accumulate = true} : (!layout.tensor<f16, "l0a", "NZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">, !layout.tensor<i32, "l0c", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----
// X2: fp8 needs Ascend 950.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f8E4M3FN, "l0a", "ZZ", "(16,32)">
    %b = "layout.alloc"() : () -> !layout.tensor<f8E4M3FN, "l0b", "ZN", "(32,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{layout.matmul: f8E4M3FN x f8E4M3FN matmul needs Ascend 950 (target "a5")}}
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!layout.tensor<f8E4M3FN, "l0a", "ZZ", "(16,32)">, !layout.tensor<f8E4M3FN, "l0b", "ZN", "(32,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----
// X2: A and B must have the same element type.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<bf16, "l0b", "ZN", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{layout.matmul: the cube does not multiply f16 by bf16}}
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(16,16)">, !layout.tensor<bf16, "l0b", "ZN", "(16,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----
// X3: A is M x K, B is K x N, C is M x N.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(32,256)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,256)">
    // expected-error@+1 {{layout.matmul: K (A cols vs B rows) differs: 64 vs 32}}
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,64)">, !layout.tensor<f16, "l0b", "ZN", "(32,256)">, !layout.tensor<f32, "l0c", "NZ", "(128,256)">) -> ()
    return
  }
}

// -----
// X3: M differs.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,256)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(64,256)">
    // expected-error@+1 {{layout.matmul: M (A rows vs C rows) differs: 128 vs 64}}
    "layout.matmul"(%a, %b, %c) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,64)">, !layout.tensor<f16, "l0b", "ZN", "(64,256)">, !layout.tensor<f32, "l0c", "NZ", "(64,256)">) -> ()
    return
  }
}

// -----
// G1: one coordinate and one extent per mode.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%i: index) {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">
    // expected-error@+1 {{layout.tile: the parent has 2 origin extent(s) (one per mode; batch, rows and cols for a batch form); give one coordinate and one `shape` extent per extent (got 1 coordinate(s), 2 extent(s))}}
    %t = "layout.tile"(%a, %i) {shape = array<i64: 16, 16>} : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index) -> !layout.tensor<f16, "l1", "((16,1),(16,1)):((16,256),(1,1024))", "(?,?)">
    return
  }
}

// -----
// G1: the shape attribute is an i64 array of positive extents.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%i: index) {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">
    // expected-error@+1 {{layout.tile: `shape` must be an array<i64: ...> of tile extents}}
    %t = "layout.tile"(%a, %i, %i) {shape = array<i32: 16, 16>} : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index, index) -> !layout.tensor<f16, "l1", "((16,1),(16,1)):((16,256),(1,1024))", "(?,?)">
    // expected-error@+1 {{layout.tile: tile extents must be positive, got 0}}
    %u = "layout.tile"(%a, %i, %i) {shape = array<i64: 0, 16>} : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index, index) -> !layout.tensor<f16, "l1", "((16,1),(16,1)):((16,256),(1,1024))", "(?,?)">
    return
  }
}

// -----
// G1: the tile keeps the parent's element type and space.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%i: index) {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">
    // expected-error@+1 {{layout.tile: the tile keeps the parent's element type and memory space (f16, "l1"), got (f16, "ub")}}
    %t = "layout.tile"(%a, %i, %i) {shape = array<i64: 16, 16>} : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index, index) -> !layout.tensor<f16, "ub", "((16,1),(16,1)):((16,256),(1,1024))", "(?,?)">
    return
  }
}

// -----
// G2: the result type must agree with GetTileLayout (here: the clipped origin is (4,4)).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %c96 = arith.constant 96 : index
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(100,100)">
    // expected-error@+1 {{layout.tile: the result type does not match the tile: origin leaf 0 is 32 but the tile's is 4; the tile is LAYOUT "((16,2),(16,3)):((16,256),(1,1792))" ORIGIN "(4,4)"}}
    %t = "layout.tile"(%a, %c96, %c96) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(32,48)">
    return
  }
}

// -----
// G2: a static claim about a value that depends on a dynamic coordinate.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%i: index) {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(100,100)">
    // expected-error@+1 {{origin leaf 0 is declared 32 but it is dynamic (min(32, max(100 - c0, 0))}}
    %t = "layout.tile"(%a, %i, %i) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(32,?)">
    return
  }
}

// -----
// G2: wrong strides (a tile inherits the parent's strides).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%i: index) {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(100,100)">
    // expected-error@+1 {{stride leaf 3 is 768 but the tile's is 1792}}
    %t = "layout.tile"(%a, %i, %i) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,768))", "(?,?)">
    return
  }
}

// -----
// G3: tiles of fractal layouts start on fractal boundaries (spec B.7) ...
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %c8 = arith.constant 8 : index
    %c0 = arith.constant 0 : index
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(100,100)">
    // expected-error@+1 {{layout.tile: coordinate 0 = 8 is not a multiple of the 16×16 inner block of NZ; cube data movement needs fractal-aligned tile origins}}
    %t = "layout.tile"(%a, %c8, %c0) {shape = array<i64: 32, 48>} : (!layout.tensor<f16, "l1", "NZ", "(100,100)">, index, index) -> !layout.tensor<f16, "l1", "((16,2),(16,3)):((16,256),(1,1792))", "(?,?)">
    return
  }
}

// -----
// G3: ... and cover whole fractals (f32 NZ: 16x8 inner block).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%i: index) {
    %a = "layout.alloc"() : () -> !layout.tensor<f32, "l1", "NZ", "(64,64)">
    // expected-error@+1 {{layout.tile: tile extent 1 = 12 is not a multiple of the 16×8 inner block of NZ}}
    %t = "layout.tile"(%a, %i, %i) {shape = array<i64: 16, 12>} : (!layout.tensor<f32, "l1", "NZ", "(64,64)">, index, index) -> !layout.tensor<f32, "l1", "((16,1),(8,2)):((8,128),(1,512))", "(?,?)">
    return
  }
}

// -----
// O1: one coordinate per mode, non-negative, offset within i64.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%i: index) {
    %neg = arith.constant -1 : index
    %big = arith.constant 9223372036854775807 : index
    %zero = arith.constant 0 : index
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">
    // expected-error@+1 {{layout.offset: the layout has 2 mode(s) but 1 coordinate(s) were given}}
    %o = "layout.offset"(%a, %i) : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index) -> index
    // expected-error@+1 {{layout.offset: coordinates must be non-negative, got -1}}
    %p = "layout.offset"(%a, %neg, %i) : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index, index) -> index
    // expected-error@+1 {{layout.offset: integer overflow}}
    %q = "layout.offset"(%a, %zero, %big) : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index, index) -> index
    return
  }
}

// -----
// W1: a load's `written` result is the destination with the written extent as origin.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<?xf16>, %rows: index) {
    %g = "layout.view"(%m, %rows) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(?,64)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
    // expected-error@+1 {{layout.load: the `written` result type does not match the written view: origin leaf 0 is declared 128 but it is dynamic}}
    %w = "layout.load"(%g, %a1) : (!layout.tensor<f16, "gm", "ND", "(?,64)">, !layout.tensor<f16, "l1", "NZ", "(128,64)">) -> !layout.tensor<f16, "l1", "((16,8),(16,4)):((16,256),(1,2048))", "(128,64)">
    return
  }
}

// -----
// R1 (issue 11): the K tail of a dynamic-K slice loop. The L1 buffer holds min(64, K - k) valid
// columns of this slice; reading the buffer itself (64 columns) would multiply the previous
// slice's stale columns: read the view the load returns instead.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<?xf16>, %K: index) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %g = "layout.view"(%m, %K) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(128,?)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
    scf.for %k = %c0 to %K step %c64 {
      %t = "layout.tile"(%g, %c0, %k) {shape = array<i64: 128, 64>} : (!layout.tensor<f16, "gm", "ND", "(128,?)">, index, index) -> !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
      "layout.load"(%t, %a1) : (!layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">, !layout.tensor<f16, "l1", "NZ", "(128,64)">) -> ()
      // expected-error@+1 {{wrote: cannot prove 64 <= min(min(64, max(max(arg1, 0) - iv2, 0)), 64) (mode 1 ends inside the written region)}}
      "layout.load"(%a1, %a0) : (!layout.tensor<f16, "l1", "NZ", "(128,64)">, !layout.tensor<f16, "l0a", "ZZ", "(128,64)">) -> ()
    }
    return
  }
}

// -----
// R1: the same slice read through its written view, but the matmul reads the L0A buffer itself
// (k = 64 from the static B, beyond the min(64, K) columns written).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<?xf16>, %mb: memref<8192xf16>, %K: index) {
    %c0 = arith.constant 0 : index
    %g = "layout.view"(%m, %K) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(128,?)">
    %b = "layout.view"(%mb) : (memref<8192xf16>) -> !layout.tensor<f16, "gm", "ND", "(64,128)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(128,64)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,128)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,64)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(64,128)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(128,128)">
    %t = "layout.tile"(%g, %c0, %c0) {shape = array<i64: 128, 64>} : (!layout.tensor<f16, "gm", "ND", "(128,?)">, index, index) -> !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
    %tb = "layout.tile"(%b, %c0, %c0) {shape = array<i64: 64, 128>} : (!layout.tensor<f16, "gm", "ND", "(64,128)">, index, index) -> !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
    %w = "layout.load"(%t, %a1) : (!layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">, !layout.tensor<f16, "l1", "NZ", "(128,64)">) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    %wb = "layout.load"(%tb, %b1) : (!layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">, !layout.tensor<f16, "l1", "NZ", "(64,128)">) -> !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    "layout.load"(%w, %a0) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0a", "ZZ", "(128,64)">) -> ()
    %w0 = "layout.load"(%wb, %b0) : (!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f16, "l0b", "ZN", "(64,128)">) -> !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
    // expected-error@+1 {{wrote: cannot prove 64 <= min(min(64, min(64, max(max(arg2, 0), 0))), 64) (mode 1 ends inside the written region)}}
    "layout.matmul"(%a0, %w0, %c) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(128,64)">, !layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">, !layout.tensor<f32, "l0c", "NZ", "(128,128)">) -> ()
    return
  }
}

// -----
// R1: an accumulating matmul in a loop reads C, which nothing wrote before the first iteration
// (the previous iteration's write is the only other candidate), and A and B, never written.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    scf.for %i = %c0 to %n step %c1 {
      // expected-error@+3 {{layout.matmul reads A from the l0a buffer `layout.alloc` at}}
      // expected-error@+2 {{layout.matmul reads B from the l0b buffer `layout.alloc` at}}
      // expected-error@+1 {{layout.matmul reads C from the l0c buffer `layout.alloc` at}}
      "layout.matmul"(%a, %b, %c) {accumulate = true} : (!layout.tensor<f16, "l0a", "NZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    }
    return
  }
}

// -----
// G1: a batch form takes (batch, rows, cols) coordinates, not (rows, cols).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<10500xf16>, %i: index) {
    %g = "layout.view"(%m) : (memref<10500xf16>) -> !layout.tensor<f16, "gm", "ND", "(3,50,70)">
    // expected-error@+1 {{layout.tile: the parent has 3 origin extent(s) (one per mode; batch, rows and cols for a batch form); give one coordinate and one `shape` extent per extent (got 2 coordinate(s), 2 extent(s))}}
    %t = "layout.tile"(%g, %i, %i) {shape = array<i64: 32, 32>} : (!layout.tensor<f16, "gm", "ND", "(3,50,70)">, index, index) -> !layout.tensor<f16, "gm", "(32,32):(70,1)", "(?,?)">
    return
  }
}

// -----
// G2: the tile of a batch form keeps the batch stride (one matrix, 3500 elements).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<10500xf16>, %i: index) {
    %g = "layout.view"(%m) : (memref<10500xf16>) -> !layout.tensor<f16, "gm", "ND", "(3,50,70)">
    // expected-error@+1 {{layout.tile: the result type does not match the tile}}
    %t = "layout.tile"(%g, %i, %i, %i) {shape = array<i64: 1, 32, 32>} : (!layout.tensor<f16, "gm", "ND", "(3,50,70)">, index, index, index) -> !layout.tensor<f16, "gm", "(1,(32,32)):(3000,(70,1))", "(?,(?,?))">
    return
  }
}

// -----
// G1: a tile of a batch form selects one matrix (both lowerings move one matrix per copy).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<10500xf16>, %i: index) {
    %g = "layout.view"(%m) : (memref<10500xf16>) -> !layout.tensor<f16, "gm", "ND", "(3,50,70)">
    // expected-error@+1 {{layout.tile: a tile of a batch form selects one matrix: the batch extent must be 1, got 2 (tile the batch in a loop over the batch coordinate)}}
    %t = "layout.tile"(%g, %i, %i, %i) {shape = array<i64: 2, 32, 32>} : (!layout.tensor<f16, "gm", "ND", "(3,50,70)">, index, index, index) -> !layout.tensor<f16, "gm", "(2,(32,32)):(3500,(70,1))", "(?,(?,?))">
    return
  }
}

// -----
// G1: batch forms are tiled in gm only.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%i: index) {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(2,32,32)">
    // expected-error@+1 {{layout.tile: batch forms are tiled in gm only (the on-chip buffers hold one matrix), got "l1"}}
    %t = "layout.tile"(%a, %i, %i, %i) {shape = array<i64: 1, 16, 16>} : (!layout.tensor<f16, "l1", "NZ", "(2,32,32)">, index, index, index) -> !layout.tensor<f16, "l1", "(1,((16,1),(16,1))):(1024,((16,256),(1,512)))", "(?,(?,?))">
    return
  }
}

// -----
// L6: a copy moves one matrix of a batch form, not the whole batch.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<10500xf16>) {
    %g = "layout.view"(%m) : (memref<10500xf16>) -> !layout.tensor<f16, "gm", "ND", "(3,50,70)">
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,80)">
    // expected-error@+1 {{layout.load: a batch form of 3 matrices is copied; a copy moves one matrix: tile it with a batch extent of 1 (layout.tile {shape = array<i64: 1, rows, cols>})}}
    "layout.load"(%g, %a) : (!layout.tensor<f16, "gm", "ND", "(3,50,70)">, !layout.tensor<f16, "l1", "NZ", "(64,80)">) -> ()
    return
  }
}

// -----
// L2: GM ND -> L1 ZN transposes the matrix; no GM -> L1 copy does (load ND -> NZ instead).
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f(%m: memref<1024xf16>) {
    %g = "layout.view"(%m) : (memref<1024xf16>) -> !layout.tensor<f16, "gm", "ND", "(32,32)">
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "ZN", "(32,32)">
    // expected-error@+1 {{layout.load: no gm ND -> l1 ZN copy on target "a5"}}
    "layout.load"(%g, %a) : (!layout.tensor<f16, "gm", "ND", "(32,32)">, !layout.tensor<f16, "l1", "ZN", "(32,32)">) -> ()
    return
  }
}
