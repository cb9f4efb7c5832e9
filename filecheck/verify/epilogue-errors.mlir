// Store epilogues and unknown attributes (rules A1 and L5 of passes/src/verify/mod.rs): a
// misspelled or misplaced attribute is an error, never dropped.
// RUN: layout-opt %s --split-input-file --verify-diagnostics --layout-verify

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf32>) {
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    // expected-error@+1 {{'layout.store' op unknown attribute 'relux'; known: relu, scale, atomic}}
    "layout.store"(%c, %g) {relux = true} : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{'layout.load' op unknown attribute 'relu'; known: none}}
    "layout.load"(%g, %a) {relu = true} : (!layout.tensor<f16, "gm", "ND", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{'layout.matmul' op unknown attribute 'acumulate'; known: accumulate}}
    "layout.matmul"(%a, %b, %c) {accumulate = false, acumulate = true} : (!layout.tensor<f16, "l0a", "ZZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf32>) {
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    // expected-error@+1 {{'layout.store' op attribute 'relu' must be true or false (Fixpipe ReLU, L0C stores only), got 1 : i32}}
    "layout.store"(%c, %g) {relu = 1 : i32} : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %c = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    // expected-error@+1 {{'layout.store' op attribute 'scale' must be an f32 float, e.g. 0.5 : f32 (Fixpipe DEQF16 scale, i32 -> f16 L0C stores only), got 5.000000e-01 : f64}}
    "layout.store"(%c, %g) {scale = 0.5} : (!layout.tensor<i32, "l0c", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "NZ", "(16,16)">
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{layout.store: `relu` and `scale` are Fixpipe epilogues of stores out of l0c; this store is l1 f16 -> gm f16}}
    "layout.store"(%a, %g) {relu = true} : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    // expected-error@+1 {{layout.store: `scale` is the DEQF16 dequantization of an i32 accumulator to f16; this store is l0c f32 -> gm f16 (f32 -> f16/bf16 conversions take no scale)}}
    "layout.store"(%c, %g) {scale = 2.0 : f32} : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %c = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    // expected-error@+1 {{layout.store: l0c i32 -> gm f16 is the DEQF16 dequantization f16(f32(x) · scale) and needs `scale = S : f32`}}
    "layout.store"(%c, %g) : (!layout.tensor<i32, "l0c", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xi32>) {
    %c = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xi32>) -> !layout.tensor<i32, "gm", "ND", "(16,16)">
    // expected-error@+1 {{layout.store: `scale` is the DEQF16 dequantization of an i32 accumulator to f16; this store is l0c i32 -> gm i32}}
    "layout.store"(%c, %g) {scale = 1.0 : f32} : (!layout.tensor<i32, "l0c", "NZ", "(16,16)">, !layout.tensor<i32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %c = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    // expected-error@+1 {{layout.store: the DEQF16 scale 1e-1 is not representable: the Fixpipe keeps 10 of its 23 mantissa bits, which gives 9.9975586e-2; write that value (or another with a 10-bit mantissa)}}
    "layout.store"(%c, %g) {scale = 0.1 : f32} : (!layout.tensor<i32, "l0c", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %c = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    // expected-error@+1 {{layout.store: the DEQF16 scale must be finite, got inf}}
    "layout.store"(%c, %g) {scale = 0x7F800000 : f32} : (!layout.tensor<i32, "l0c", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %c = "layout.alloc"() : () -> !layout.tensor<f16, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    // expected-error@+1 {{layout.store: Fixpipe reads the accumulator types f32 or i32 from l0c, got f16}}
    "layout.store"(%c, %g) : (!layout.tensor<f16, "l0c", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

// The accepted epilogues (no diagnostic); the accumulators are written by matmuls first (R1).
module attributes {layout.target = #layout.target<"a5">} {
  func.func @f(%m: memref<1024xf16>, %n: memref<256xf16>, %o: memref<256xf32>, %mi: memref<2048xi8>, %mh: memref<256xf16>) {
    %gi = "layout.view"(%mi) : (memref<2048xi8>) -> !layout.tensor<i8, "gm", "ND", "(32,64)">
    %gj = "layout.view"(%mi) : (memref<2048xi8>) -> !layout.tensor<i8, "gm", "DN", "(64,32)">
    %ai1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(32,64)">
    %bi1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "ZN", "(64,32)">
    %ai0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0a", "NZ", "(32,64)">
    %bi0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0b", "ZN", "(64,32)">
    "layout.load"(%gi, %ai1) : (!layout.tensor<i8, "gm", "ND", "(32,64)">, !layout.tensor<i8, "l1", "NZ", "(32,64)">) -> ()
    "layout.load"(%gj, %bi1) : (!layout.tensor<i8, "gm", "DN", "(64,32)">, !layout.tensor<i8, "l1", "ZN", "(64,32)">) -> ()
    "layout.load"(%ai1, %ai0) : (!layout.tensor<i8, "l1", "NZ", "(32,64)">, !layout.tensor<i8, "l0a", "NZ", "(32,64)">) -> ()
    "layout.load"(%bi1, %bi0) : (!layout.tensor<i8, "l1", "ZN", "(64,32)">, !layout.tensor<i8, "l0b", "ZN", "(64,32)">) -> ()
    %ci = "layout.alloc"() : () -> !layout.tensor<i32, "l0c", "NZ", "(32,32)">
    "layout.matmul"(%ai0, %bi0, %ci) {accumulate = false} : (!layout.tensor<i8, "l0a", "NZ", "(32,64)">, !layout.tensor<i8, "l0b", "ZN", "(64,32)">, !layout.tensor<i32, "l0c", "NZ", "(32,32)">) -> ()
    %gh = "layout.view"(%mh) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    %gk = "layout.view"(%mh) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "DN", "(16,16)">
    %ah1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    %bh1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "ZN", "(16,16)">
    %ah0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(16,16)">
    %bh0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    "layout.load"(%gh, %ah1) : (!layout.tensor<f16, "gm", "ND", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    "layout.load"(%gk, %bh1) : (!layout.tensor<f16, "gm", "DN", "(16,16)">, !layout.tensor<f16, "l1", "ZN", "(16,16)">) -> ()
    "layout.load"(%ah1, %ah0) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "l0a", "NZ", "(16,16)">) -> ()
    "layout.load"(%bh1, %bh0) : (!layout.tensor<f16, "l1", "ZN", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">) -> ()
    %cf = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    "layout.matmul"(%ah0, %bh0, %cf) {accumulate = false} : (!layout.tensor<f16, "l0a", "NZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    %g = "layout.view"(%m) : (memref<1024xf16>) -> !layout.tensor<f16, "gm", "ND", "(32,32)">
    %h = "layout.view"(%n) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    %k = "layout.view"(%o) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    "layout.store"(%ci, %g) {relu = true, scale = 0.25 : f32} : (!layout.tensor<i32, "l0c", "NZ", "(32,32)">, !layout.tensor<f16, "gm", "ND", "(32,32)">) -> ()
    "layout.store"(%cf, %h) {relu = true} : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "ND", "(16,16)">) -> ()
    "layout.store"(%cf, %k) {relu = false} : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

// `atomic = "add"` (rule L5): only on l0c -> gm stores, for SetAtomicAdd's types on the target.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "NZ", "(16,16)">
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{layout.store: `atomic = "add"` is the Fixpipe's atomic add into GM (SetAtomicAdd, l0c -> gm); this store is l1 f16 -> gm f16}}
    "layout.store"(%a, %g) {atomic = "add"} : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "NZ", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a5">} {
  func.func @f(%m: memref<256xf32>) {
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    // expected-error@+1 {{layout.store: SetAtomicAdd does not add f32 on target "a5" (element types: none documented)}}
    "layout.store"(%c, %g) {atomic = "add"} : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf32>) {
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    // expected-error@+1 {{'layout.store' op attribute 'atomic' must be "add" (the store adds into GM: SetAtomicAdd, L0C -> GM stores only), got "max"}}
    "layout.store"(%c, %g) {atomic = "max"} : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}
