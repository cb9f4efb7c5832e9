// Errors of the Rust pass layout-verify (skeleton rules: target, memory spaces).
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
