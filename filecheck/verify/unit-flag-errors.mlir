// The unitFlag handshake's errors (rule X5 of passes/src/verify/mod.rs, the store decoder): a
// constant matmul unit flag other than 2 or 3, a non-boolean store `unit_flag`, and a store
// with `unit_flag` that is no Fixpipe (not out of l0c).
// RUN: layout-opt %s --split-input-file --verify-diagnostics --layout-verify

module attributes {layout.target = #layout.target<"a5">} {
  func.func @f() {
    %c1 = arith.constant 1 : index
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(16,16)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    // expected-error@+1 {{layout.matmul: the unit flag must be 2 (more matmuls of the accumulation follow) or 3 (the last one), got 1}}
    "layout.matmul"(%a, %b, %c, %c1) {accumulate = false} : (!layout.tensor<f16, "l0a", "NZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">, index) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf32>) {
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf32>) -> !layout.tensor<f32, "gm", "ND", "(16,16)">
    // expected-error@+1 {{'layout.store' op attribute 'unit_flag' must be true or false}}
    "layout.store"(%c, %g) {unit_flag = 3 : i32} : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "ND", "(16,16)">) -> ()
    return
  }
}

// -----

module attributes {layout.target = #layout.target<"a2">} {
  func.func @f(%m: memref<256xf16>) {
    %l1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    %g = "layout.view"(%m) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "NZ", "(16,16)">
    // expected-error@+1 {{layout.store: `unit_flag` is the Fixpipe's side of the Mmad handshake, for stores out of l0c}}
    "layout.store"(%l1, %g) {unit_flag = true} : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "NZ", "(16,16)">) -> ()
    return
  }
}
