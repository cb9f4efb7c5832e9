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
