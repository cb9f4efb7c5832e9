// Inputs found by layout-fuzz (tools/layout-fuzz) that crashed layout-opt, now diagnosed.
// RUN: layout-opt %s --split-input-file --verify-diagnostics --layout-verify

// A multi-byte character (here `€`, written \E2\82\AC) right after a layout's stride made
// the layout parser's `origin` look-ahead slice inside the character: a panic inside the
// verifier's walk callback, which aborted the process.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    // expected-error@+1 {{invalid LAYOUT "(16,16):(1,16)orig€": parse error at column 15: unexpected trailing input, found `o`}}
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "(16,16):(1,16)orig\E2\82\AC", "(16,16)">
    return
  }
}
