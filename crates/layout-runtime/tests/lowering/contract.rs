//! Contract checks of the lowering (`passes/src/lower_to_loops/guard.rs`) through the library:
//! `Jit::call` returns `Error::Contract` naming the op, and no access through the failing view
//! or tile happens (the output keeps its initial values).

use layout_npy::{Array, Data, ElemType};
use layout_runtime::{create_context, lower_layout_ops, Arg, Error, Jit};

use super::parse;

/// Runs the tiled GEMM example with A m x 256, B 256 x n, C rows x cols (C starts at 7.0) and
/// the scalars `m_arg`, `n_arg`; returns the call's result and C.
fn tiled_gemm(m: usize, n: usize, c_shape: [usize; 2], m_arg: i64, n_arg: i64) -> (Result<(), Error>, Array) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/tiled_gemm.mlir")).unwrap();
    let context = create_context().unwrap();
    let mut module = parse(&context, &text);
    lower_layout_ops(&mut module).unwrap_or_else(|e| panic!("lowering: {e}"));
    let jit = Jit::new(&module).expect("jit");
    let mut a = Array::zeros(ElemType::F16, &[m, 256]);
    let mut b = Array::zeros(ElemType::F16, &[256, n]);
    let mut c = Array::new(c_shape.to_vec(), Data::F32(vec![7.0; c_shape[0] * c_shape[1]])).unwrap();
    let result = jit.call(
        "tiled_gemm",
        &mut [Arg::MemRef(&mut a), Arg::MemRef(&mut b), Arg::MemRef(&mut c), Arg::Index(m_arg), Arg::Index(n_arg)],
    );
    (result.map(|_| ()), c)
}

fn contract_message(result: Result<(), Error>) -> String {
    match result {
        Err(Error::Contract(message)) => message,
        other => panic!("expected a contract error, got {other:?}"),
    }
}

#[test]
fn views_larger_than_their_memrefs_are_reported_and_not_accessed() {
    // M = 9 rows of an 8-row A (the "double free or corruption" reproducer).
    let (result, c) = tiled_gemm(8, 8, [8, 8], 9, 8);
    let message = contract_message(result);
    // (The module is parsed from a string: its file name is "-".)
    assert!(message.contains(":39:11: error: layout.view of argument #0"), "{message}");
    assert!(message.ends_with("needs 2304 elements, the memref has 2048"), "{message}");
    assert!((0..c.len()).all(|i| c.get_f64(i) == 7.0), "C was written");
    // C of 8 x 4 for N = 8: the store view is the one that fails; C is untouched.
    let (result, c) = tiled_gemm(8, 8, [8, 4], 8, 8);
    let message = contract_message(result);
    assert!(
        message.contains("layout.view of argument #2") && message.ends_with("needs 64 elements, the memref has 32")
    );
    assert!((0..c.len()).all(|i| c.get_f64(i) == 7.0), "C was written");
    // The extent of M = 2^63 - 1 rows overflows i64: an error, not a wrapped extent.
    let message = contract_message(tiled_gemm(8, 8, [8, 8], i64::MAX, 8).0);
    assert!(message.contains(&format!("the dynamic size {} is outside [0, ", i64::MAX)), "{message}");
    // Within the contract: C = A * B = 0.
    let (result, c) = tiled_gemm(8, 8, [8, 8], 8, 8);
    result.unwrap();
    assert!((0..c.len()).all(|i| c.get_f64(i) == 0.0));
}

/// A view with a dynamic (possibly negative) row stride: `(R,16):(S,1)` over a 48-element
/// memref, copied to L1.
const STRIDED: &str = r#"
!src = !layout.tensor<f16, "gm", "(?,16):(?,1)", "(?,16)">
!l1 = !layout.tensor<f16, "l1", "NZ", "(16,16)">
module attributes {layout.target = #layout.target<"a2">} {
  func.func @strided(%s: memref<?xf16>, %R: index, %S: index) attributes {llvm.emit_c_interface} {
    %g = "layout.view"(%s, %R, %R, %S) : (memref<?xf16>, index, index, index) -> !src
    %b = "layout.alloc"() : () -> !l1
    "layout.load"(%g, %b) : (!src, !l1) -> ()
    return
  }
}
"#;

#[test]
fn dynamic_strides_are_checked_both_ways() {
    let context = create_context().unwrap();
    let mut module = parse(&context, STRIDED);
    lower_layout_ops(&mut module).unwrap_or_else(|e| panic!("lowering: {e}"));
    let jit = Jit::new(&module).expect("jit");
    let call = |rows: i64, stride: i64| {
        let mut s = Array::zeros(ElemType::F16, &[48]);
        jit.call("strided", &mut [Arg::MemRef(&mut s), Arg::Index(rows), Arg::Index(stride)]).map(|_| ())
    };
    call(3, 16).unwrap();
    call(0, -16).unwrap(); // no rows: nothing is reached
    let cases = [
        (3, -16, "reaches offset -32, before the start of the memref".to_string()),
        (4, 16, "needs 64 elements, the memref has 48".to_string()),
        (3, i64::MIN + 1, format!("the dynamic value {} is outside [-2147483647, 2147483647]", i64::MIN + 1)),
        (-2, 16, "dynamic size operand #1 is -2; sizes must be >= 0".to_string()),
    ];
    for (rows, stride, expected) in cases {
        let message = contract_message(call(rows, stride));
        assert!(message.contains(":6:10: error: layout.view of argument #0"), "{message}");
        assert!(message.contains(&expected), "R={rows} S={stride}: {message}");
    }
}
