// layout-multi-buffer checks the buffer budget of the target before rewriting: every on-chip
// buffer a K loop uses is live through it, the streamed ones twice.
// RUN: layout-opt --split-input-file --verify-diagnostics --layout-multi-buffer %s

// 2 x 40 KiB of L0A (128 x 160 f16) exceed the 64 KiB of a2.
!gm = !layout.tensor<f16, "gm", "ND", "(?,?)">
!t = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!l1 = !layout.tensor<f16, "l1", "NZ", "(128,160)">
!l1v = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0 = !layout.tensor<f16, "l0a", "ZZ", "(128,160)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @l0a_overflow(%A: memref<?x?xf16>, %K: index) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c160 = arith.constant 160 : index
    %g = "layout.view"(%A, %c128, %K) : (memref<?x?xf16>, index, index) -> !gm
    %l1 = "layout.alloc"() : () -> !l1
    %l0 = "layout.alloc"() : () -> !l0
    // expected-error@+1 {{layout-multi-buffer: the double buffers of this loop do not fit: L0A overflow: the second buffer of !layout.tensor<f16, "l0a", "ZZ", "(128,160)"> (alloc at 18:11) needs 40960 B at offset 40960 but L0A on a2 holds 65536 B; live at the same time: !layout.tensor<f16, "l0a", "ZZ", "(128,160)"> (alloc at 18:11) 40960 B at [0, 40960)}}
    scf.for %k = %c0 to %K step %c160 {
      %t = "layout.tile"(%g, %c0, %k) {shape = array<i64: 128, 160>} : (!gm, index, index) -> !t
      %w = "layout.load"(%t, %l1) : (!t, !l1) -> !l1v
      "layout.load"(%w, %l0) : (!l1v, !l0) -> ()
    }
    return
  }
}

// -----

// L1 on a2 holds 512 KiB: a 256 KiB A panel (128 x 1024 f16) fits once beside a 64 KiB B
// panel) but not twice; the error lists what is already placed.
!gm = !layout.tensor<f16, "gm", "ND", "(?,?)">
!t = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!l1a = !layout.tensor<f16, "l1", "NZ", "(128,1024)">
!l1b = !layout.tensor<f16, "l1", "NZ", "(256,128)">
!l1v = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @l1_overflow(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %K: index) {
    %c0 = arith.constant 0 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %c1024 = arith.constant 1024 : index
    %ga = "layout.view"(%A, %c128, %K) : (memref<?x?xf16>, index, index) -> !gm
    %gb = "layout.view"(%B, %c256, %c128) : (memref<?x?xf16>, index, index) -> !gm
    %a1 = "layout.alloc"() : () -> !l1a
    %b1 = "layout.alloc"() : () -> !l1b
    %tb = "layout.tile"(%gb, %c0, %c0) {shape = array<i64: 256, 128>} : (!gm, index, index) -> !t
    %wb = "layout.load"(%tb, %b1) : (!t, !l1b) -> !l1v
    // expected-error@+1 {{L1 overflow: the second buffer of !layout.tensor<f16, "l1", "NZ", "(128,1024)"> (alloc at 46:11) needs 262144 B at offset 327680 but L1 on a2 holds 524288 B; live at the same time: !layout.tensor<f16, "l1", "NZ", "(128,1024)"> (alloc at 46:11) 262144 B at [0, 262144), !layout.tensor<f16, "l1", "NZ", "(256,128)"> (alloc at 47:11) 65536 B at [262144, 327680)}}
    scf.for %k = %c0 to %K step %c1024 {
      %ta = "layout.tile"(%ga, %c0, %k) {shape = array<i64: 128, 1024>} : (!gm, index, index) -> !t
      %wa = "layout.load"(%ta, %a1) : (!t, !l1a) -> !l1v
      %wb2 = "layout.load"(%tb, %b1) : (!t, !l1b) -> !l1v
    }
    return
  }
}
