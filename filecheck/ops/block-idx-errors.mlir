// The block queries take no operands and give one index (IRDL structure).
// RUN: layout-opt %s --split-input-file --verify-diagnostics

func.func @operand(%i: index) {
  // expected-error@+1 {{op expects exactly 0 operands, but got 1}}
  %0 = "layout.block_idx"(%i) : (index) -> index
  return
}

// -----

func.func @result_type() {
  // expected-error@+1 {{expected 'index' but got 'i32'}}
  %0 = "layout.block_num"() : () -> i32
  return
}

// -----

func.func @no_result() {
  // expected-error@+1 {{op expects exactly 1 results, but got 0}}
  "layout.block_idx"() : () -> ()
  return
}
