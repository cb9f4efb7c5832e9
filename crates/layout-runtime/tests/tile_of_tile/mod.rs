//! A tile of a tile (a dynamic and a static coordinate) with clipped (tail) tiles, run three
//! ways on the same input: the loop lowering (`lower_layout_ops`, the CPU reference semantics),
//! the AscendC C++ form (g++ against the CPU model) and its LLVM form (JIT with the model's C
//! ABI symbols). `crates/ascendc-emit/tests/run.rs` runs whole tiles only.
//!
//! Tails: a clipped tile loads only its valid rows and columns into L1, and the rest of the L1
//! buffer is never written. The loop lowering fills on-chip buffers with NaN, the CPU model
//! starts them at zero, so the loops are compared with the model on the valid region only; the
//! C++ and LLVM forms (both on the model) must agree on the whole output buffer, bit for bit.

use std::path::{Path, PathBuf};
use std::process::Command;

use layout_npy::{random::Rng, Array, Data, ElemType};
use layout_runtime::{create_context, lower_layout_ops, Arg, Jit};
use melior::{ir::Module, pass::PassManager};

const MODEL_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ascendc-params/model");

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

/// The C++ form, compiled with g++ against the model with a generated `main`; returns `%O`.
fn run_cpp(name: &str, cpp: &str, inputs: &[Array], i: i64) -> Array {
    let dir: PathBuf = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tile_of_tile").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("kernel.cpp"), cpp).unwrap();
    std::fs::write(dir.join("a.bin"), inputs[0].data().to_le_bytes()).unwrap();
    let main = format!(
        r#"#include "kernel.cpp"
#include <cstdio>
#include <vector>
int main() {{
  std::vector<uint8_t> a(4096 * 2), o(512 * 2, 0);
  FILE* f = std::fopen("a.bin", "rb");
  if (!f || std::fread(a.data(), 1, a.size(), f) != a.size()) return 3;
  std::fclose(f);
  tile_of_tile(a.data(), o.data(), (int64_t){i});
  if (AscendC::model::ErrorCount()) {{ std::fprintf(stderr, "model error: %s\n", AscendC::model::LastError()); return 2; }}
  f = std::fopen("o.bin", "wb");
  std::fwrite(o.data(), 1, o.size(), f);
  std::fclose(f);
  return 0;
}}
"#
    );
    std::fs::write(dir.join("main.cpp"), main).unwrap();
    let out = Command::new("g++")
        .args(["-std=c++17", "-O1", "-DASCENDC_MODEL_ARCH=2201"])
        .arg(format!("-I{}", ascendc_emit::HOST_INCLUDE_DIR))
        .arg(format!("-I{MODEL_DIR}"))
        .args(["main.cpp", "-o", "kernel"])
        .current_dir(&dir)
        .output()
        .expect("g++");
    assert!(out.status.success(), "g++ failed:\n{}\n{cpp}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(dir.join("kernel")).current_dir(&dir).output().unwrap();
    assert!(run.status.success(), "kernel failed: {}", String::from_utf8_lossy(&run.stderr));
    let bytes = std::fs::read(dir.join("o.bin")).unwrap();
    Array::new(vec![512], Data::from_bytes(ElemType::F16, &bytes, false)).unwrap()
}

/// `%O` after the loop lowering, the C++ form and the LLVM form.
fn three_ways(name: &str, source: &str, inputs: &[Array], i: i64) -> [Array; 3] {
    let context = create_context().unwrap();
    let mut loops = Module::parse(&context, source).expect("parse");
    lower_layout_ops(&mut loops).unwrap_or_else(|e| panic!("loop lowering: {e}"));
    let via_loops = call(&Jit::new(&loops).unwrap_or_else(|e| panic!("jit: {e}")), inputs, i);

    let mut ascendc = Module::parse(&context, source).expect("parse");
    let pm = PassManager::new(&context);
    pm.add_pass(layout_passes::verify::create());
    pm.add_pass(layout_passes::lower_to_ascendc::create());
    pm.run(&mut ascendc).expect("layout-lower-to-ascendc");
    let cpp = ascendc_emit::emit_cpp(&ascendc).unwrap_or_else(|e| panic!("C++ form: {e}"));
    let via_cpp = run_cpp(name, &cpp, inputs, i);
    let text = ascendc_emit::emit_llvm_mlir(&ascendc).unwrap_or_else(|e| panic!("LLVM form: {e}"));
    let llvm = Module::parse(&context, &text).unwrap_or_else(|| panic!("LLVM form does not parse:\n{text}"));
    let jit = Jit::new(&llvm).unwrap_or_else(|e| panic!("jit (LLVM form): {e}"));
    // Safety: the model's C ABI functions have exactly the declared signatures.
    unsafe { jit.register_symbols(&ascendc_params::ffi::c_abi_symbols()) };
    let via_llvm = call(&jit, inputs, i);
    [via_loops[1].clone(), via_cpp, via_llvm[1].clone()]
}

/// Offset of (r, c) in the 32x16 f16 NZ output.
fn nz(r: usize, c: usize) -> usize {
    (r % 16) * 16 + (r / 16) * 256 + c
}

/// Runs one case: the valid region (`rows` x `cols`) of every form holds A's elements at the
/// tile's corner (`row0`, `col0`) in the tensor; the C++ and LLVM forms agree everywhere and are
/// zero outside it (the model zeroes L1).
fn check(name: &str, source: &str, i: usize, (row0, col0): (usize, usize), (rows, cols): (usize, usize)) {
    let a = Rng::new(90 + i as u64).array(ElemType::F16, &[64 * 64]);
    let inputs = [a.clone(), Array::zeros(ElemType::F16, &[512])];
    let [loops, cpp, llvm] = three_ways(name, source, &inputs, i as i64);
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
