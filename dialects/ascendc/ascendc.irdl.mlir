// The `ascendc` dialect: the AscendC intrinsics the layout compiler emits, one op per intrinsic
// family, with every parameter-struct field spelled as in AscendC. Produced by the pass
// `layout-lower-to-ascendc`, printed as AscendC C++ (`layout-opt --emit=ascendc`) or as LLVM IR
// calling the C ABI of the CPU model (`--emit=ascendc-llvm`).
//
// Loaded at start-up next to `layout` (dialects/layout/src/lib.rs, `create_context`).
//
// Types:
//   !ascendc.global<ELEM>              a GlobalTensor<ELEM> (GM)
//   !ascendc.local<ELEM, "POSITION">   a LocalTensor<ELEM> at TPosition A1, B1 (L1), A2 (L0A),
//                                      B2 (L0B) or CO1 (L0C)
//
// Intrinsic ops share one attribute scheme (static and dynamic values side by side):
//   params      dictionary: every *static* field, AscendC spelling (`ndNum = 1 : i64`,
//               `ifTranspose = true`, `quantPre = "F322F16"`), plus the call-site fields
//               `repeat` (loop trip count), `off<k>` / `step<k>` (element offset of operand k —
//               0 = destination, 1.. = sources in call order — and its per-iteration step):
//               `for (r = 0; r < repeat; ++r) F(op0[off0 + r*step0], op1[off1 + r*step1], ...)`
//   dyn_fields  array of field names, one per `dyn` index operand, in order: the *dynamic*
//               fields (index expressions computed before the op), then `sym:NAME` for each
//               symbol of the `assumes` and `proven from the loop` notes (its index value,
//               so printers can name it)
//   notes       dictionary of strings for the reader: CuTe layouts of the operands
//               (`dst`, `src`, `a`, `b`), conditions on dynamic fields (`assumes`: run-time;
//               `proven from the loop`: proven by the enclosing loops' ranges and steps)
// Every field appears exactly once, in `params` or in `dyn_fields`.
irdl.dialect @ascendc {
  irdl.type @global {
    %elem = irdl.any
    irdl.parameters(elem: %elem)
  }

  irdl.type @local {
    %elem = irdl.any
    %position = irdl.base "#builtin.string"
    irdl.parameters(elem: %elem, position: %position)
  }

  // GlobalTensor<T> over a kernel argument (GM_ADDR); `name` names it in the C++.
  irdl.operation @global_tensor {
    %source = irdl.base "!builtin.memref"
    %result = irdl.base @ascendc::@global
    %layout = irdl.base "#builtin.string"
    irdl.operands(source: %source)
    irdl.attributes { "layout" = %layout }
    irdl.results(result: %result)
  }

  // An on-chip buffer: `size` bytes at byte `offset` of its memory (placement by the lowering,
  // aligned: 32 B L1, 512 B L0A/L0B, 64 B L0C); `layout` is the CuTe layout it holds.
  irdl.operation @alloc {
    %offset = irdl.base "#builtin.integer"
    %size = irdl.base "#builtin.integer"
    %layout = irdl.base "#builtin.string"
    %result = irdl.base @ascendc::@local
    irdl.attributes { "offset" = %offset, "size" = %size, "layout" = %layout }
    irdl.results(result: %result)
  }

  // DataCopy(dst L1, src GM, Nd2NzParams)  -- pipe MTE2
  irdl.operation @data_copy_nd2nz {
    %dst = irdl.base @ascendc::@local
    %src = irdl.base @ascendc::@global
    %index = irdl.is index
    %params = irdl.base "#builtin.dictionary"
    %dyn_fields = irdl.base "#builtin.array"
    %notes = irdl.base "#builtin.dictionary"
    irdl.operands(dst: %dst, src: %src, dyn: variadic %index)
    irdl.attributes { "params" = %params, "dyn_fields" = %dyn_fields, "notes" = %notes }
  }

  // DataCopy(dst, src, DataCopyParams): GM -> L1 (MTE2) or L1 -> GM (MTE3), NZ -> NZ.
  irdl.operation @data_copy {
    %gm = irdl.base @ascendc::@global
    %local = irdl.base @ascendc::@local
    %dst = irdl.any_of(%gm, %local)
    %gm2 = irdl.base @ascendc::@global
    %local2 = irdl.base @ascendc::@local
    %src = irdl.any_of(%gm2, %local2)
    %index = irdl.is index
    %params = irdl.base "#builtin.dictionary"
    %dyn_fields = irdl.base "#builtin.array"
    %notes = irdl.base "#builtin.dictionary"
    irdl.operands(dst: %dst, src: %src, dyn: variadic %index)
    irdl.attributes { "params" = %params, "dyn_fields" = %dyn_fields, "notes" = %notes }
  }

  // LoadData(dst L0A/L0B, src L1, LoadData2DParams)  -- arch 2201, pipe MTE1
  irdl.operation @load_data_2d {
    %dst = irdl.base @ascendc::@local
    %src = irdl.base @ascendc::@local
    %index = irdl.is index
    %params = irdl.base "#builtin.dictionary"
    %dyn_fields = irdl.base "#builtin.array"
    %notes = irdl.base "#builtin.dictionary"
    irdl.operands(dst: %dst, src: %src, dyn: variadic %index)
    irdl.attributes { "params" = %params, "dyn_fields" = %dyn_fields, "notes" = %notes }
  }

  // LoadData(dst L0A/L0B, src L1, LoadData2DParamsV2)  -- arch 3510, pipe MTE1
  irdl.operation @load_data_2d_v2 {
    %dst = irdl.base @ascendc::@local
    %src = irdl.base @ascendc::@local
    %index = irdl.is index
    %params = irdl.base "#builtin.dictionary"
    %dyn_fields = irdl.base "#builtin.array"
    %notes = irdl.base "#builtin.dictionary"
    irdl.operands(dst: %dst, src: %src, dyn: variadic %index)
    irdl.attributes { "params" = %params, "dyn_fields" = %dyn_fields, "notes" = %notes }
  }

  // LoadDataWithTranspose(dst L0A/L0B, src L1, LoadData2dTransposeParams)  -- arch 2201, 8-bit, pipe MTE1
  irdl.operation @load_data_with_transpose {
    %dst = irdl.base @ascendc::@local
    %src = irdl.base @ascendc::@local
    %index = irdl.is index
    %params = irdl.base "#builtin.dictionary"
    %dyn_fields = irdl.base "#builtin.array"
    %notes = irdl.base "#builtin.dictionary"
    irdl.operands(dst: %dst, src: %src, dyn: variadic %index)
    irdl.attributes { "params" = %params, "dyn_fields" = %dyn_fields, "notes" = %notes }
  }

  // Mmad(c L0C, a L0A, b L0B, MmadParams)  -- pipe M
  irdl.operation @mmad {
    %c = irdl.base @ascendc::@local
    %a = irdl.base @ascendc::@local
    %b = irdl.base @ascendc::@local
    %index = irdl.is index
    %params = irdl.base "#builtin.dictionary"
    %dyn_fields = irdl.base "#builtin.array"
    %notes = irdl.base "#builtin.dictionary"
    irdl.operands(c: %c, a: %a, b: %b, dyn: variadic %index)
    irdl.attributes { "params" = %params, "dyn_fields" = %dyn_fields, "notes" = %notes }
  }

  // Fixpipe<Dst, Src, CFG_ROW_MAJOR>(dst GM, src L0C, FixpipeParamsV220), NZ2ND  -- pipe FIX
  irdl.operation @fixpipe {
    %dst = irdl.base @ascendc::@global
    %src = irdl.base @ascendc::@local
    %index = irdl.is index
    %params = irdl.base "#builtin.dictionary"
    %dyn_fields = irdl.base "#builtin.array"
    %notes = irdl.base "#builtin.dictionary"
    irdl.operands(dst: %dst, src: %src, dyn: variadic %index)
    irdl.attributes { "params" = %params, "dyn_fields" = %dyn_fields, "notes" = %notes }
  }

  // Fixpipe<Dst, Src, CFG_NZ>(dst GM, src L0C, FixpipeParamsV220), NZ2NZ  -- pipe FIX
  // (params as @fixpipe plus isChannelSplit; dstStride in 32 B between destination C0 blocks)
  irdl.operation @fixpipe_nz {
    %dst = irdl.base @ascendc::@global
    %src = irdl.base @ascendc::@local
    %index = irdl.is index
    %params = irdl.base "#builtin.dictionary"
    %dyn_fields = irdl.base "#builtin.array"
    %notes = irdl.base "#builtin.dictionary"
    irdl.operands(dst: %dst, src: %src, dyn: variadic %index)
    irdl.attributes { "params" = %params, "dyn_fields" = %dyn_fields, "notes" = %notes }
  }

  // SetFlag<HardEvent::EVENT>(id) / WaitFlag<HardEvent::EVENT>(id): EVENT is "SRC_DST" of the
  // pipes MTE2, MTE1, M, FIX, MTE3 (e.g. "MTE2_MTE1"); id is the event id (EVENT_ID<id>).
  irdl.operation @set_flag {
    %event = irdl.base "#builtin.string"
    %id = irdl.base "#builtin.integer"
    irdl.attributes { "event" = %event, "id" = %id }
  }

  irdl.operation @wait_flag {
    %event = irdl.base "#builtin.string"
    %id = irdl.base "#builtin.integer"
    irdl.attributes { "event" = %event, "id" = %id }
  }

  // PipeBarrier<PIPE>(): "PIPE_ALL" at the end of a kernel.
  irdl.operation @pipe_barrier {
    %pipe = irdl.base "#builtin.string"
    irdl.attributes { "pipe" = %pipe }
  }

  // GetBlockIdx() / GetBlockNum(): the index of the AI core running the kernel and the number of
  // cores it was launched on (blockDim), both int64_t in AscendC; index values here.
  irdl.operation @get_block_idx {
    %result = irdl.is index
    irdl.results(result: %result)
  }

  irdl.operation @get_block_num {
    %result = irdl.is index
    irdl.results(result: %result)
  }
}
