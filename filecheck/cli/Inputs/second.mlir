module attributes {layout.target = #layout.target<"a2">} {
  func.func @second() {
    %bad = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "ND", "(16,16)">
    return
  }
}
