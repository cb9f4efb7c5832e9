// Structural errors found by MLIR itself from the IRDL definition (no Rust pass involved);
// stock mlir-opt reports the same (see irdl-interop.mlir).
// RUN: layout-opt %s --split-input-file --verify-diagnostics

func.func @elem_type() {
  // expected-error@+1 {{'index' does not satisfy the constraint}}
  %0 = "layout.alloc"() : () -> !layout.tensor<index, "l1", "NZ", "(16,16)">
  return
}

// -----

func.func @param_count() {
  // expected-error@+1 {{expected 4 type arguments, but had 3}}
  %0 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ">
  return
}

// -----

func.func @space_not_a_string() {
  // expected-error@+1 {{expected base attribute 'builtin.string' but got 'builtin.integer'}}
  %0 = "layout.alloc"() : () -> !layout.tensor<f16, 16, "NZ", "(16,16)">
  return
}

// -----

func.func @view_of_non_memref(%p: index) {
  // expected-error@+1 {{expected base type 'builtin.memref' but got 'builtin.index'}}
  %0 = "layout.view"(%p) : (index) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
  return
}

// -----

func.func @view_result_not_tensor(%m: memref<256xf16>) {
  // expected-error@+1 {{expected base type 'layout.tensor' but got 'builtin.memref'}}
  %0 = "layout.view"(%m) : (memref<256xf16>) -> memref<256xf16>
  return
}

// -----

func.func @view_dynamic_leaf_not_index(%m: memref<?xf16>, %n: i32) {
  // expected-error@+1 {{expected 'index' but got 'i32'}}
  %0 = "layout.view"(%m, %n) : (memref<?xf16>, i32) -> !layout.tensor<f16, "gm", "ND", "(?,16)">
  return
}

// -----

func.func @tile_without_shape(%i: index) {
  %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">
  // expected-error@+1 {{attribute "shape" is expected but not provided}}
  %t = "layout.tile"(%a, %i, %i) : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index, index) -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
  return
}

// -----

func.func @tile_shape_not_array(%i: index) {
  %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">
  // expected-error@+1 {{expected base attribute 'builtin.dense_array' but got 'builtin.array'}}
  %t = "layout.tile"(%a, %i, %i) {shape = [16, 16]} : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index, index) -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
  return
}

// -----

func.func @load_arity() {
  %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
  // expected-error@+1 {{op expects exactly 2 operands, but got 1}}
  "layout.load"(%a) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
  return
}

// -----

func.func @store_result() {
  %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
  // expected-error@+1 {{op expects exactly 0 results, but got 1}}
  %r = "layout.store"(%a, %a) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> index
  return
}

// -----

func.func @matmul_arity() {
  %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(16,16)">
  // expected-error@+1 {{op expects at least 3 operands, but got 2}}
  "layout.matmul"(%a, %a) {accumulate = false} : (!layout.tensor<f16, "l0a", "NZ", "(16,16)">, !layout.tensor<f16, "l0a", "NZ", "(16,16)">) -> ()
  return
}

// -----

func.func @matmul_accumulate_not_bool() {
  %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "NZ", "(16,16)">
  // expected-error@+1 {{'1 : i64' does not satisfy the constraint}}
  "layout.matmul"(%a, %a, %a) {accumulate = 1} : (!layout.tensor<f16, "l0a", "NZ", "(16,16)">, !layout.tensor<f16, "l0a", "NZ", "(16,16)">, !layout.tensor<f16, "l0a", "NZ", "(16,16)">) -> ()
  return
}

// -----

func.func @offset_result_not_index(%i: index) {
  %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
  // expected-error@+1 {{expected 'index' but got 'i64'}}
  %o = "layout.offset"(%a, %i, %i) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, index, index) -> i64
  return
}

// -----

// expected-error@+1 {{expected 1 type arguments, but had 2}}
module attributes {layout.target = #layout.target<"a2", "a5">} {
}
