// A kernel with a misspelled op (layout.lod): a located parse error with "did you mean".
module attributes {layout.target = #layout.target<"a2">} {
  func.func @scale(%x: memref<8xf32>, %s: index) attributes {llvm.emit_c_interface} {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    "layout.lod"(%a, %a) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    return
  }
}
