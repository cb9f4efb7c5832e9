// The `layout` dialect: tensors whose memory layout is part of the type.
//
// Structure only: IRDL checks op names, operand/result counts and kinds, and the *kind* of each
// type/attribute parameter. The vocabularies (memory space names, targets, pattern names, CuTe
// syntax) and every semantic rule are checked by the Rust pass `layout-verify`, which can give a
// precise, located message; `mlir-opt --irdl-file=` on this file therefore accepts a superset.
//
// IRDL ops print in generic form ("layout.view"(...) : (...) -> ...); types and attributes print
// with their parameters:
//
//   !layout.tensor<ELEM, "SPACE", "LAYOUT", "ORIGIN">
//     ELEM    an MLIR builtin integer or float type (f16, bf16, f32, i8, i32, f8E4M3FN, ...)
//     SPACE   memory space: "gm" "l1" "l0a" "l0b" "l0c" "ub" "l0a_scale" "l0b_scale"
//     LAYOUT  a frame pattern name, AscendC/PyPTO spelling ("NZ" "ZN" "ZZ" "NN" "ND" "DN") or
//             catlass spelling ("zN" "nZ" "zZ" "nN"), expanded by the layout algebra for ORIGIN;
//             or an explicit CuTe layout "((16,?),(16,?)):((16,256),(1,?))" where `?` is a
//             dynamic leaf (bound by index operands of the op that creates the value)
//     ORIGIN  the valid (logical) extent, CuTe int-tuple syntax: "(100,100)", "(?,64)"
//             (catlass originShape; a pattern name is expanded for these dims, e.g. "NZ" with
//             "(100,100)" covers 112x112 elements of which 100x100 are data). On "l0c", "NZ" is
//             the accumulator layout with 16x16 fractals whatever ELEM (catlass L0C).
//
//   `?` leaves and their binding order (defined in dialects/layout/src/tensor_layout.rs):
//   ORIGIN leaves left to right, then (explicit LAYOUT only) shape leaves, then stride leaves.
//   The `dyn` operands of view/alloc bind them in this order; in a `tile` result type `?`
//   leaves are derived values (computed from the parent and the coordinates), not operands.
//
//   #layout.target<"a2">   (module attribute `layout.target`; "a2" = Atlas A2/A3, arch 2201,
//                           "a5" = Ascend 950, arch 3510)
//
// Example:
//   module attributes {layout.target = #layout.target<"a2">} {
//     func.func @f(%m: memref<?xf16>, %k: index) {
//       %a = "layout.view"(%m, %k) : (memref<?xf16>, index) -> !layout.tensor<f16, "gm", "ND", "(128,?)">
//       ...
irdl.dialect @layout {
  // ---------------------------------------------------------------- types and attributes
  irdl.type @tensor {
    %i = irdl.base "!builtin.integer"
    %f16 = irdl.base "!builtin.f16"
    %bf16 = irdl.base "!builtin.bf16"
    %f32 = irdl.base "!builtin.f32"
    %f64 = irdl.base "!builtin.f64"
    %e4m3 = irdl.base "!builtin.f8E4M3FN"
    %e5m2 = irdl.base "!builtin.f8E5M2"
    %e8m0 = irdl.base "!builtin.f8E8M0FNU"
    %e2m1 = irdl.base "!builtin.f4E2M1FN"
    %elem = irdl.any_of(%i, %f16, %bf16, %f32, %f64, %e4m3, %e5m2, %e8m0, %e2m1)
    %space = irdl.base "#builtin.string"
    %layout = irdl.base "#builtin.string"
    %origin = irdl.base "#builtin.string"
    irdl.parameters(elem: %elem, space: %space, layout: %layout, origin: %origin)
  }

  irdl.attribute @target {
    %name = irdl.base "#builtin.string"
    irdl.parameters(name: %name)
  }

  // ---------------------------------------------------------------- ops
  // Bind a buffer (a memref; see README for why not `!llvm.ptr`) to a layout. `dyn` binds the `?` leaves of the result
  // type's layout and origin, in textual order (origin leaves first, then layout leaves).
  irdl.operation @view {
    %source = irdl.base "!builtin.memref"
    %index = irdl.is index
    %result = irdl.base @layout::@tensor
    irdl.operands(source: %source, dyn: variadic %index)
    irdl.results(result: %result)
  }

  // An on-chip buffer with a frame layout; `dyn` binds dynamic origin leaves.
  irdl.operation @alloc {
    %index = irdl.is index
    %result = irdl.base @layout::@tensor
    irdl.operands(dyn: variadic %index)
    irdl.results(result: %result)
  }

  // catlass GetTileLayout: the tile of static shape `shape` (elements, one extent per mode)
  // whose top-left corner is at `coord`: ELEMENT coordinates in the parent's logical space
  // (not a tile index), one index per mode; for a tile of a tile they count from the parent
  // tile's corner (the tile sits at the sum of the corners). The result keeps the parent's
  // strides; its shape is rebuilt from the parent's inner blocks and its origin is clipped at
  // the tails, min(shape, max(parent origin - coord, 0)). Its layout applies to the whole
  // tensor's (global) coordinates. Tiles of fractal layouts must be fractal-aligned (layout-verify, spec B.7).
  irdl.operation @tile {
    %source = irdl.base @layout::@tensor
    %index = irdl.is index
    %shape = irdl.base "#builtin.dense_array"
    %result = irdl.base @layout::@tensor
    irdl.operands(source: %source, coord: variadic %index)
    irdl.attributes { "shape" = %shape }
    irdl.results(result: %result)
  }

  // Data movement towards the cube (gm -> l1 -> l0a/l0b, ...), with layout conversion.
  // The optional result `written` is the destination viewed with the extent the copy wrote as
  // its origin (min(src origin, dst origin) leaf by leaf, dynamic where either is): reads
  // after the copy go through it (or tiles of it), so they never see stale or unwritten data.
  irdl.operation @load {
    %src = irdl.base @layout::@tensor
    %dst = irdl.base @layout::@tensor
    %written = irdl.base @layout::@tensor
    irdl.operands(src: %src, dst: %dst)
    irdl.results(written: optional %written)
  }

  // Data movement out of the cube (l0c -> gm/l1/ub, ub -> gm, ...), with layout conversion.
  // Optional attributes (the Fixpipe epilogue of an l0c store; IRDL has no optional attributes,
  // so they are declared in LayoutOpKind::attributes, dialects/layout/src/ops.rs, and checked by
  // layout-verify rules A1 and L5): `relu = true|false`, `scale = S : f32` (i32 -> f16 DEQF16),
  // `unit_flag = true|false` (the Fixpipe takes the Mmad/Fixpipe unitFlag handshake, unitFlag 3).
  // Every other attribute on a layout op is an error.
  irdl.operation @store {
    %src = irdl.base @layout::@tensor
    %dst = irdl.base @layout::@tensor
    irdl.operands(src: %src, dst: %dst)
  }

  // C (l0c) = A (l0a) * B (l0b), accumulating into C when `accumulate` is true, over the m, n, k
  // of the operands' origins. The optional result `written` is C viewed with the m x n written.
  // The optional index operand `unit_flag` is the Mmad's unitFlag (asc-devkit UnitFlag.md):
  // 2 while more matmuls of the accumulation follow, 3 on the last (a value computed in a loop
  // when the last one is in it); the store of C then has `unit_flag = true`. The Rust verifier
  // (layout-verify rule X5) rejects a constant other than 2 or 3.
  irdl.operation @matmul {
    %a = irdl.base @layout::@tensor
    %b = irdl.base @layout::@tensor
    %c = irdl.base @layout::@tensor
    %written = irdl.base @layout::@tensor
    %index = irdl.is index
    %true = irdl.is true
    %false = irdl.is false
    %acc = irdl.any_of(%true, %false)
    irdl.operands(a: %a, b: %b, c: %c, unit_flag: optional %index)
    irdl.attributes { "accumulate" = %acc }
    irdl.results(written: optional %written)
  }

  // crd2offset: the element offset of coordinate `coord` (one index per mode) under the
  // operand's layout (for a tile: the parent's coordinates give the parent's offset).
  irdl.operation @offset {
    %source = irdl.base @layout::@tensor
    %index = irdl.is index
    %result = irdl.is index
    irdl.operands(source: %source, coord: variadic %index)
    irdl.results(offset: %result)
  }

  // The index of the AI core (block) running this instance of the kernel, in [0, block_num):
  // AscendC GetBlockIdx(). Launched with blockDim = N, the kernel body runs N times, once per
  // block, over the same global memory; block-private (on-chip) buffers are not shared.
  irdl.operation @block_idx {
    %result = irdl.is index
    irdl.results(result: %result)
  }

  // The number of blocks the kernel was launched with (blockDim): AscendC GetBlockNum().
  irdl.operation @block_num {
    %result = irdl.is index
    irdl.results(result: %result)
  }
}
