//! The rewrite on the canonical dynamic-K GEMM (its output is examples/gemm_double_buffer.mlir,
//! byte for byte as printed), the loops it must leave alone, and the budget error.

use melior::ir::{operation::OperationLike, Module};

use super::{multi_buffer, MultiBufferError};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");

fn example(name: &str) -> String {
    std::fs::read_to_string(format!("{EXAMPLES}/{name}")).unwrap()
}

fn context() -> melior::Context {
    let context = layout_dialect::create_context().expect("context");
    context.get_or_load_dialect("arith");
    context.get_or_load_dialect("scf");
    context
}

/// Runs the pass; the number of rewritten loops, or the error texts with their positions.
fn run(module: &Module) -> Result<usize, Vec<(String, MultiBufferError)>> {
    multi_buffer(module.as_operation())
        .map_err(|e| e.into_iter().map(|(l, e)| (crate::lower_to_loops::guard::position(l), e)).collect())
}

#[test]
fn the_pass_produces_the_explicit_example() {
    let context = context();
    let module = layout_dialect::parse_source(&context, &example("gemm_dynamic_k.mlir")).expect("parse");
    assert_eq!(run(&module), Ok(1), "only the K loop streams");
    assert!(module.as_operation().verify());
    assert!(crate::verify::verify(module.as_operation()), "the rewritten kernel passes layout-verify (R1)");
    let explicit = layout_dialect::parse_source(&context, &example("gemm_double_buffer.mlir")).expect("parse");
    let got = module.as_operation().to_string().replace("@gemm_dynamic_k", "@gemm_double_buffer");
    assert_eq!(got, explicit.as_operation().to_string());
}

const TYPES: &str = r#"!gm = !layout.tensor<f16, "gm", "ND", "(?,?)">
!t = !layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">
!l1 = !layout.tensor<f16, "l1", "NZ", "(128,160)">
!l1v = !layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">
!l0 = !layout.tensor<f16, "l0a", "ZZ", "(128,160)">
"#;

/// A K loop `GM -> L1 -> L0A` of 128 x 160 f16 slices (40 KiB each); `extra` goes into the
/// body after the copies, `step` is the step operand.
fn stream(step: &str, extra: &str) -> String {
    format!(
        r#"{TYPES}module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @f(%A: memref<?x?xf16>, %K: index, %s: index) {{
    %c0 = arith.constant 0 : index
    %c160 = arith.constant 160 : index
    %c128 = arith.constant 128 : index
    %g = "layout.view"(%A, %c128, %K) : (memref<?x?xf16>, index, index) -> !gm
    %l1 = "layout.alloc"() : () -> !l1
    %l0 = "layout.alloc"() : () -> !l0
    scf.for %k = %c0 to %K step {step} {{
      %t = "layout.tile"(%g, %c0, %k) {{shape = array<i64: 128, 160>}} : (!gm, index, index) -> !t
      %w = "layout.load"(%t, %l1) : (!t, !l1) -> !l1v
      {extra}
    }}
    return
  }}
}}
"#
    )
}

/// Two 40 KiB L0A buffers do not fit the 64 KiB of a2: a located error at the loop names the
/// buffer, its copy and the bytes, and nothing is rewritten. (L1 holds four such panels.)
#[test]
fn doubled_buffers_beyond_the_budget_are_a_located_error() {
    let context = context();
    let source = stream("%c160", r#""layout.load"(%w, %l0) : (!l1v, !l0) -> ()"#);
    let module = layout_dialect::parse_source(&context, &source).expect("parse");
    let before = module.as_operation().to_string();
    let errors = run(&module).unwrap_err();
    let [(at, e)] = errors.as_slice() else { panic!("{errors:?}") };
    assert!(at.ends_with(":14:5"), "{at}");
    assert_eq!(
        e.to_string(),
        "the double buffers of this loop do not fit: L0A overflow: the second buffer of \
         !layout.tensor<f16, \"l0a\", \"ZZ\", \"(128,160)\"> (alloc at 13:11) needs 40960 B at offset 40960 \
         but L0A on a2 holds 65536 B; live at the same time: \
         !layout.tensor<f16, \"l0a\", \"ZZ\", \"(128,160)\"> (alloc at 13:11) 40960 B at [0, 40960)"
    );
    assert_eq!(module.as_operation().to_string(), before);
}

/// Loops the pass leaves alone: a dynamic step, and a buffer that is read directly (not only
/// through the views its loads return), whose data may cross iterations.
#[test]
fn loops_that_do_not_stream_are_left_alone() {
    let context = context();
    for (step, extra) in [("%s", ""), ("%c160", r#""layout.store"(%l1, %t) : (!l1, !t) -> ()"#)] {
        let module = layout_dialect::parse_source(&context, &stream(step, extra)).expect("parse");
        let before = module.as_operation().to_string();
        assert_eq!(run(&module), Ok(0), "step {step}, {extra}");
        assert_eq!(module.as_operation().to_string(), before);
    }
    // With the L0A copy through the view, the L1 buffer streams (one 40 KiB L1 copy fits).
    let source = stream("%c160", "");
    let module = layout_dialect::parse_source(&context, &source).expect("parse");
    assert_eq!(run(&module), Ok(1));
    let text = module.as_operation().to_string();
    assert_eq!(text.matches("\"layout.alloc\"").count(), 3, "{text}");
    assert!(text.contains("scf.if") && text.contains("arith.constant 320 : index"), "{text}");
}

/// A GEMM of the generator (crates/gemm-gen), M, N, K dynamic, f16 → f32.
pub(crate) fn generated(target: layout_algebra::ascend::Target, tiles: gemm_gen::Tiles) -> String {
    use gemm_gen::{Dim, Epilogue, GemmSpec, GmLayout, TileOrder};
    use layout_algebra::ascend::ElementType;
    let spec = GemmSpec {
        name: "g".into(),
        m: Dim::Dynamic,
        n: Dim::Dynamic,
        k: Dim::Dynamic,
        input: ElementType::F16,
        output: ElementType::F32,
        a: GmLayout::Nd,
        b: GmLayout::Nd,
        epilogue: Epilogue::default(),
        target,
        tiles,
        order: TileOrder::Linear,
        split_k: 1,
    };
    gemm_gen::generate(&spec).unwrap()
}

/// The allocs of the printed module per memory space, in the order l1, l0a, l0b, l0c.
fn allocs(text: &str) -> [usize; 4] {
    ["\"l1\"", "\"l0a\"", "\"l0b\"", "\"l0c\""]
        .map(|space| text.lines().filter(|l| l.contains("\"layout.alloc\"") && l.contains(space)).count())
}

/// Two-level K (L1 slices of 128, L0 of 64) with 64 × 64 C tiles: the L0 loops double L0A/L0B,
/// the outer K loop (which contains them) the L1 panels, and the loop over the block's C tiles
/// (stepped by `layout.block_num`) the L0C accumulator, which two of fit (2 × 16 KiB).
#[test]
fn two_level_k_doubles_l1_and_the_tile_loop_doubles_l0c() {
    let context = context();
    let t = gemm_gen::Tiles { m1: 64, n1: 64, k1: 128, k0: 64, stages: 2 };
    let module = layout_dialect::parse_source(&context, &generated(layout_algebra::ascend::Target::A2, t)).unwrap();
    assert_eq!(allocs(&module.as_operation().to_string()), [2, 1, 1, 1]);
    // The L0 loop of the peeled first L1 slice, the L0 loop and the K loop, the tile loop.
    assert_eq!(run(&module), Ok(4));
    assert!(module.as_operation().verify());
    assert!(crate::verify::verify(module.as_operation()), "the rewritten kernel passes layout-verify (R1)");
    let text = module.as_operation().to_string();
    assert_eq!(allocs(&text), [4, 2, 2, 2], "{text}");
    // The tile loop steps by twice the block count, its second tile under scf.if.
    let bnum = text.lines().find(|l| l.contains("layout.block_num")).unwrap();
    let bnum = bnum.trim().split(' ').next().unwrap();
    assert!(text.contains(&format!("arith.addi {bnum}, {bnum} : index")), "{text}");
    // Lowered, the two accumulators are two L0C buffers: the placement and the sync insertion take them.
    crate::lower_to_ascendc::lower(module.as_operation()).expect("lowered");
}

/// A 128 × 256 f32 C tile fills the 128 KiB of L0C on a2: the tile loop keeps one accumulator
/// (not an error), the L1 panels and L0 slices are still doubled; on a5 (256 KiB) two fit.
#[test]
fn the_accumulator_is_doubled_only_where_two_fit() {
    use layout_algebra::ascend::Target;
    let context = context();
    let t = gemm_gen::Tiles { m1: 128, n1: 256, k1: 256, k0: 64, stages: 2 };
    for (target, rewritten, l0c) in [(Target::A2, 3, 1), (Target::A5, 4, 2)] {
        let module = layout_dialect::parse_source(&context, &generated(target, t)).unwrap();
        assert_eq!(run(&module), Ok(rewritten), "{target:?}");
        assert_eq!(allocs(&module.as_operation().to_string()), [4, 2, 2, l0c], "{target:?}");
        assert!(crate::verify::verify(module.as_operation()));
    }
}

/// L1 slices of 512: one A and one B panel (128 KiB + 256 KiB) fit the 512 KiB of L1 on a2,
/// two do not: a located error at the outer K loop, and that loop is left as it was (the L0
/// loops inside it, rewritten first, are not the error).
#[test]
fn two_level_l1_panels_beyond_the_budget_are_a_located_error() {
    let context = context();
    let t = gemm_gen::Tiles { m1: 128, n1: 256, k1: 512, k0: 64, stages: 1 };
    let source = generated(layout_algebra::ascend::Target::A2, t);
    let module = layout_dialect::parse_source(&context, &source).unwrap();
    let errors = run(&module).unwrap_err();
    let [(at, e)] = errors.as_slice() else { panic!("{errors:?}") };
    let line = source.lines().position(|l| l.trim_start().starts_with("scf.for %k =")).unwrap() + 1;
    assert!(at.contains(&format!(":{line}:")), "{at} (the K loop is on line {line})");
    let e = e.to_string();
    assert!(e.starts_with("the double buffers of this loop do not fit: L1 overflow: the second buffer of"), "{e}");
    assert!(e.contains("but L1 on a2 holds 524288 B"), "{e}");
}
