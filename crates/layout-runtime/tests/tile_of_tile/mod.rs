//! A tile of a tile (a dynamic and a static coordinate) with clipped (tail) tiles, run three
//! ways on the same input: the loop lowering (`lower_layout_ops`, the CPU reference semantics),
//! the AscendC C++ form (g++ against the CPU model) and its LLVM form (JIT with the model's C
//! ABI symbols), both through `ascendc_emit::run` with the sanitizer on.
//! `crates/ascendc-emit/tests/run.rs` runs whole tiles only.
//!
//! Tails: a clipped tile loads only its valid rows and columns into L1; the store reads the
//! `written` view, so GM outside the valid region keeps its initial zeros on every back end.

use layout_npy::{random::Rng, Array, ElemType};
use layout_runtime::{create_context, lower_layout_ops, Arg, Jit};
use melior::ir::Module;

/// `%t1` = tile of a GM ND f16 64x64 tensor at the static corner (16, `col`), shape 48x32;
/// `%t2` = tile of `%t1` at (`%i`, 16), shape 32x16: its corner in the tensor is
/// (16 + i, col + 16). `t1_origin`/`t2_origin` are the declared (clipped) origins.
fn kernel(col: usize, t1_origin: &str, t2_origin: &str) -> String {
    let gm = r#"!layout.tensor<f16, "gm", "ND", "(64,64)">"#;
    let t1 = format!(r#"!layout.tensor<f16, "gm", "(48,32):(64,1)", "{t1_origin}">"#);
    let t2 = format!(r#"!layout.tensor<f16, "gm", "(32,16):(64,1)", "{t2_origin}">"#);
    let l1 = r#"!layout.tensor<f16, "l1", "NZ", "(32,16)">"#;
    let out = r#"!layout.tensor<f16, "gm", "NZ", "(32,16)">"#;
    // What the load wrote (layout-verify R1: the store reads only that).
    let written = format!(r#"!layout.tensor<f16, "l1", "((16,2),(16,1)):((16,256),(1,512))", "{t2_origin}">"#);
    format!(
        r#"module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @tile_of_tile(%A: memref<4096xf16>, %O: memref<512xf16>, %i: index) attributes {{llvm.emit_c_interface}} {{
    %c16 = arith.constant 16 : index
    %ccol = arith.constant {col} : index
    %ga = "layout.view"(%A) : (memref<4096xf16>) -> {gm}
    %go = "layout.view"(%O) : (memref<512xf16>) -> {out}
    %t1 = "layout.tile"(%ga, %c16, %ccol) {{shape = array<i64: 48, 32>}} : ({gm}, index, index) -> {t1}
    %t2 = "layout.tile"(%t1, %i, %c16) {{shape = array<i64: 32, 16>}} : ({t1}, index, index) -> {t2}
    %a1 = "layout.alloc"() : () -> {l1}
    %w = "layout.load"(%t2, %a1) : ({t2}, {l1}) -> {written}
    "layout.store"(%w, %go) : ({written}, {out}) -> ()
    return
  }}
}}"#
    )
}

fn call(jit: &Jit, inputs: &[Array], i: i64) -> Vec<Array> {
    let mut arrays = inputs.to_vec();
    {
        let mut args: Vec<Arg> = arrays.iter_mut().map(Arg::MemRef).collect();
        args.push(Arg::Index(i));
        jit.call("tile_of_tile", &mut args).unwrap_or_else(|e| panic!("call: {e}"));
    }
    arrays
}

/// `%O` after the loop lowering, the C++ form and the LLVM form (both through the shared
/// driver `ascendc_emit::run`, with every sanitizer check on).
fn three_ways(source: &str, inputs: &[Array], i: i64) -> [Array; 3] {
    use ascendc_emit::run::{self, checks, CppKernel, LlvmKernel};
    let context = create_context().unwrap();
    let mut loops = Module::parse(&context, source).expect("parse");
    lower_layout_ops(&mut loops).unwrap_or_else(|e| panic!("loop lowering: {e}"));
    let via_loops = call(&Jit::new(&loops).unwrap_or_else(|e| panic!("jit: {e}")), inputs, i);

    let mut ascendc = Module::parse(&context, source).expect("parse");
    run::lower_to_ascendc(&mut ascendc).unwrap_or_else(|e| panic!("layout-lower-to-ascendc: {e}"));
    let on_model = |out: &mut Vec<Array>, call: &dyn Fn(&mut [Arg]) -> Result<(), layout_runtime::Diag>| {
        let mut args: Vec<Arg> = out.iter_mut().map(Arg::MemRef).collect();
        args.push(Arg::Index(i));
        call(&mut args).unwrap_or_else(|e| panic!("{e}"));
    };
    let cpp = CppKernel::build(&ascendc, "tile_of_tile", None, checks::ALL).unwrap_or_else(|e| panic!("C++: {e}"));
    let mut via_cpp = inputs.to_vec();
    on_model(&mut via_cpp, &|args| cpp.call(args));
    let llvm = LlvmKernel::build(&context, &ascendc, "tile_of_tile").unwrap_or_else(|e| panic!("LLVM: {e}"));
    let mut via_llvm = inputs.to_vec();
    on_model(&mut via_llvm, &|args| llvm.call(args, checks::ALL));
    [via_loops[1].clone(), via_cpp[1].clone(), via_llvm[1].clone()]
}

/// Offset of (r, c) in the 32x16 f16 NZ output.
fn nz(r: usize, c: usize) -> usize {
    (r % 16) * 16 + (r / 16) * 256 + c
}

/// Runs one case: the valid region (`rows` x `cols`) of every form holds A's elements at the
/// tile's corner (`row0`, `col0`) in the tensor; the C++ and LLVM forms agree everywhere and are
/// zero outside it (the store writes only what the load wrote).
fn check(name: &str, source: &str, i: usize, (row0, col0): (usize, usize), (rows, cols): (usize, usize)) {
    let a = Rng::new(90 + i as u64).array(ElemType::F16, &[64 * 64]);
    let inputs = [a.clone(), Array::zeros(ElemType::F16, &[512])];
    let [loops, cpp, llvm] = three_ways(source, &inputs, i as i64);
    assert_eq!(cpp.data().to_le_bytes(), llvm.data().to_le_bytes(), "{name}: C++ and LLVM forms differ");
    for r in 0..32 {
        for c in 0..16 {
            let at = nz(r, c);
            if r < rows && c < cols {
                let want = a.get_f64((row0 + r) * 64 + col0 + c);
                for (way, got) in [("loops", &loops), ("C++", &cpp), ("LLVM", &llvm)] {
                    assert_eq!(got.get_f64(at), want, "{name}: {way} at ({r},{c})");
                }
            } else {
                assert_eq!(cpp.get_f64(at), 0.0, "{name}: C++ outside the valid region at ({r},{c})");
            }
        }
    }
}

/// `%t2` clipped in its rows by the dynamic coordinate: min(32, 48 - i) valid rows.
#[test]
fn tile_of_a_tile_dynamic_row_tail() {
    let source = kernel(32, "(48,32)", "(?,16)");
    for i in [24usize, 40] {
        check(&format!("rows_{i}"), &source, i, (16 + i, 48), (48 - i, 16));
    }
}

/// `%t1` clipped statically (columns 40..64 of 64: origin (48,24)), so `%t2`'s columns 16..32
/// of it keep 8 valid ones; the rows are clipped by the dynamic coordinate as well.
#[test]
fn tile_of_a_tile_static_column_tail_and_dynamic_row_tail() {
    let source = kernel(40, "(48,24)", "(?,8)");
    for i in [8usize, 36] {
        check(&format!("cols_{i}"), &source, i, (16 + i, 56), ((48 - i).min(32), 8));
    }
}
