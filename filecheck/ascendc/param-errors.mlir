// Every parameter that cannot fit its field, every misaligned operand and every buffer that
// does not fit its memory is a located compile-time error naming the value and the field.
// RUN: layout-opt --split-input-file --verify-diagnostics --layout-lower-to-ascendc %s

// Fixpipe nSize is uint16_t with documented range [1, 4095]. A store of 4096 columns can no
// longer be written as a valid program: it must read an L0C region a single matmul wrote
// (layout-verify R1), and B would need 4096 columns in L0B (over its 64 KiB). The field check
// is covered by crates/ascendc-params/tests/errors.rs (nSize > 4095).

// -----

// Fixpipe dstStride (GM row stride, elements) is uint32_t.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @fixpipe_dst_stride(%C: memref<?xf32>, %A: memref<256xf16>) {
    // C is written (a 16 x 16 x 16 matmul) before the store reads it (layout-verify R1).
    %ga = "layout.view"(%A) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(16,16)">
    %b0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0b", "ZN", "(16,16)">
    "layout.load"(%a1, %a0) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "l0a", "ZZ", "(16,16)">) -> ()
    "layout.load"(%a1, %b0) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">) -> ()
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,16)">
    "layout.matmul"(%a0, %b0, %c) {accumulate = false} : (!layout.tensor<f16, "l0a", "ZZ", "(16,16)">, !layout.tensor<f16, "l0b", "ZN", "(16,16)">, !layout.tensor<f32, "l0c", "NZ", "(16,16)">) -> ()
    %g = "layout.view"(%C) : (memref<?xf32>) -> !layout.tensor<f32, "gm", "(16,16):(5000000000,1)", "(16,16)">
    // expected-error@+1 {{Fixpipe(FixpipeParamsV220).dstStride = 5000000000 does not fit: the field is uint32_t}}
    "layout.store"(%c, %g) : (!layout.tensor<f32, "l0c", "NZ", "(16,16)">, !layout.tensor<f32, "gm", "(16,16):(5000000000,1)", "(16,16)">) -> ()
    return
  }
}

// -----

// DataCopy srcStride (gap between 32 B block runs) is uint16_t: a 16x32 tile of a GM NZ tensor
// with 1048576 rows has a gap of 1048576 - 16 = 1048560 blocks.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @data_copy_src_stride(%A: memref<?xf16>) {
    %c0 = arith.constant 0 : index
    %g = "layout.view"(%A) : (memref<?xf16>) -> !layout.tensor<f16, "gm", "NZ", "(1048576,32)">
    %t = "layout.tile"(%g, %c0, %c0) {shape = array<i64: 16, 32>} : (!layout.tensor<f16, "gm", "NZ", "(1048576,32)">, index, index) -> !layout.tensor<f16, "gm", "((16,1),(16,2)):((16,256),(1,16777216))", "(16,32)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,32)">
    // expected-error@+1 {{DataCopy(DataCopyParams).srcStride = 1048560 does not fit: the field is uint16_t}}
    "layout.load"(%t, %a1) : (!layout.tensor<f16, "gm", "((16,1),(16,2)):((16,256),(1,16777216))", "(16,32)">, !layout.tensor<f16, "l1", "NZ", "(16,32)">) -> ()
    return
  }
}

// -----

// LoadData reads whole 512 B fractals: an L1 tile starting at row 8 is not fractal aligned.
// The lowering runs layout-verify's checks first, so rule G3 rejects the tile itself (the
// LoadData field check behind it: crates/ascendc-params/tests/errors.rs, misaligned_addresses).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @load_data_misaligned() {
    %c0 = arith.constant 0 : index
    %c8 = arith.constant 8 : index
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(64,64)">
    %a0 = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(16,16)">
    // expected-error@+1 {{layout.tile: coordinate 0 = 8 is not a multiple of the 16×16 inner block of NZ}}
    %t = "layout.tile"(%a1, %c8, %c0) {shape = array<i64: 16, 16>} : (!layout.tensor<f16, "l1", "NZ", "(64,64)">, index, index) -> !layout.tensor<f16, "l1", "((16,1),(16,1)):((16,256),(1,1024))", "(16,16)">
    "layout.load"(%t, %a0) : (!layout.tensor<f16, "l1", "((16,1),(16,1)):((16,256),(1,1024))", "(16,16)">, !layout.tensor<f16, "l0a", "ZZ", "(16,16)">) -> ()
    return
  }
}

// -----

// Buffer placement: L0A holds 64 KiB on a2; the second buffer would start at 65536.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @l0a_capacity() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,256)">
    // expected-error@+1 {{L0A overflow: !layout.tensor<f16, "l0a", "ZZ", "(16,16)"> needs 512 B at offset 65536 but L0A on a2 holds 65536 B}}
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(16,16)">
    return
  }
}

// -----

// L0C holds 128 KiB on a2 (256 KiB on a5).
module attributes {layout.target = #layout.target<"a2">} {
  func.func @l0c_capacity() {
    // expected-error@+1 {{L0C overflow: !layout.tensor<f32, "l0c", "NZ", "(16,4096)"> needs 262144 B at offset 0 but L0C on a2 holds 131072 B}}
    %c = "layout.alloc"() : () -> !layout.tensor<f32, "l0c", "NZ", "(16,4096)">
    return
  }
}

// -----

// 8-bit NZ → ZN on a2 is LoadDataWithTranspose on 32×32 squares: an odd number of 16-row L1
// fractals (K = 40) leaves half a square.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @i8_transpose_odd_k(%B: memref<1280xi8>) {
    %gb = "layout.view"(%B) : (memref<1280xi8>) -> !layout.tensor<i8, "gm", "ND", "(40,32)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(40,32)">
    "layout.load"(%gb, %b1) : (!layout.tensor<i8, "gm", "ND", "(40,32)">, !layout.tensor<i8, "l1", "NZ", "(40,32)">) -> ()
    %b0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0b", "ZN", "(40,32)">
    // expected-error@+1 {{the 32×32 squares need an even number of 16-element L1 fractals along rows}}
    "layout.load"(%b1, %b0) : (!layout.tensor<i8, "l1", "NZ", "(40,32)">, !layout.tensor<i8, "l0b", "ZN", "(40,32)">) -> ()
    return
  }
}

// -----

// 8-bit NZ → ZN on a5 (LoadData2DParamsV2 B8 transpose) is not emitted.
module attributes {layout.target = #layout.target<"a5">} {
  func.func @i8_transpose_a5(%B: memref<1024xi8>) {
    %gb = "layout.view"(%B) : (memref<1024xi8>) -> !layout.tensor<i8, "gm", "ND", "(32,32)">
    %b1 = "layout.alloc"() : () -> !layout.tensor<i8, "l1", "NZ", "(32,32)">
    "layout.load"(%gb, %b1) : (!layout.tensor<i8, "gm", "ND", "(32,32)">, !layout.tensor<i8, "l1", "NZ", "(32,32)">) -> ()
    %b0 = "layout.alloc"() : () -> !layout.tensor<i8, "l0b", "ZN", "(32,32)">
    // expected-error@+1 {{unsupported: NZ → ZN for i8 needs LoadData2DParamsV2 with ifTranspose on 8-bit squares (B8 mode), not emitted}}
    "layout.load"(%b1, %b0) : (!layout.tensor<i8, "l1", "NZ", "(32,32)">, !layout.tensor<i8, "l0b", "ZN", "(32,32)">) -> ()
    return
  }
}

// -----

// The AscendC lowering needs a target (the verifier's rule M1, checked by the lowering first).
// expected-error@+1 {{the layout dialect is used but no enclosing op has a 'layout.target' attribute}}
module {
  func.func @no_target() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(16,16)">
    return
  }
}

// -----

// A capacity error lists the buffers live at the same time, with where they are allocated and
// their byte ranges: %x and %y are both read after %z is written. (A buffer
// live with only one of them would be placed beside it.)
module attributes {layout.target = #layout.target<"a2">} {
  func.func @live_together(%X: memref<131072xf16>, %Y: memref<131072xf16>, %Z: memref<256xf16>) {
    %gx = "layout.view"(%X) : (memref<131072xf16>) -> !layout.tensor<f16, "gm", "ND", "(256,512)">
    %gy = "layout.view"(%Y) : (memref<131072xf16>) -> !layout.tensor<f16, "gm", "ND", "(256,512)">
    %gz = "layout.view"(%Z) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    %ox = "layout.view"(%X) : (memref<131072xf16>) -> !layout.tensor<f16, "gm", "NZ", "(256,512)">
    %x = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(256,512)">
    %y = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(256,512)">
    // expected-error@+1 {{L1 overflow: !layout.tensor<f16, "l1", "NZ", "(16,16)"> needs 512 B at offset 524288 but L1 on a2 holds 524288 B; live at the same time: !layout.tensor<f16, "l1", "NZ", "(256,512)"> (alloc at 142:10) 262144 B at [0, 262144), !layout.tensor<f16, "l1", "NZ", "(256,512)"> (alloc at 143:10) 262144 B at [262144, 524288)}}
    %z = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    "layout.load"(%gx, %x) : (!layout.tensor<f16, "gm", "ND", "(256,512)">, !layout.tensor<f16, "l1", "NZ", "(256,512)">) -> ()
    "layout.load"(%gy, %y) : (!layout.tensor<f16, "gm", "ND", "(256,512)">, !layout.tensor<f16, "l1", "NZ", "(256,512)">) -> ()
    "layout.load"(%gz, %z) : (!layout.tensor<f16, "gm", "ND", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
    "layout.store"(%x, %ox) : (!layout.tensor<f16, "l1", "NZ", "(256,512)">, !layout.tensor<f16, "gm", "NZ", "(256,512)">) -> ()
    "layout.store"(%y, %ox) : (!layout.tensor<f16, "l1", "NZ", "(256,512)">, !layout.tensor<f16, "gm", "NZ", "(256,512)">) -> ()
    return
  }
}

// -----

// Intrinsics inside a region op other than scf.for / scf.if cannot be synchronised on every
// path: an error at that op, not a kernel with missing flags.
module attributes {layout.target = #layout.target<"a2">} {
  func.func @in_while(%A: memref<256xf16>, %n: index) {
    %c0 = arith.constant 0 : index
    %g = "layout.view"(%A) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "ND", "(16,16)">
    %o = "layout.view"(%A) : (memref<256xf16>) -> !layout.tensor<f16, "gm", "NZ", "(16,16)">
    %l = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(16,16)">
    // expected-error@+1 {{ascendc intrinsics inside `scf.while` are not synchronised (only scf.for and scf.if)}}
    %r = scf.while (%i = %c0) : (index) -> index {
      %p = arith.cmpi slt, %i, %n : index
      scf.condition(%p) %i : index
    } do {
    ^bb0(%j: index):
      "layout.load"(%g, %l) : (!layout.tensor<f16, "gm", "ND", "(16,16)">, !layout.tensor<f16, "l1", "NZ", "(16,16)">) -> ()
      "layout.store"(%l, %o) : (!layout.tensor<f16, "l1", "NZ", "(16,16)">, !layout.tensor<f16, "gm", "NZ", "(16,16)">) -> ()
      %c1 = arith.constant 1 : index
      %k = arith.addi %j, %c1 : index
      scf.yield %k : index
    }
    return
  }
}
