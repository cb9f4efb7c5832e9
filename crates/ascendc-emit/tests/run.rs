//! End to end: layout kernels → `layout-lower-to-ascendc` → (1) the emitted AscendC C++,
//! compiled with g++ against the CPU model and run; (2) the LLVM form, JIT-compiled with the
//! model's C ABI symbols registered. Both are compared with plain-loop references computed
//! here on the same seeded inputs (exactly: small integer inputs make every product and sum
//! exact in f32/i32).

use layout_runtime::{Arg, Array, Data, ElemType, Jit};
use melior::ir::{operation::OperationLike, Module};
use melior::pass::PassManager;
use std::path::{Path, PathBuf};
use std::process::Command;

const MODEL_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../ascendc-params/model");

/// Small integers in [-3, 3] from a seeded LCG.
fn values(seed: u64, n: usize) -> Vec<i64> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 33) % 7) as i64 - 3
        })
        .collect()
}

#[derive(Clone)]
struct Input {
    elem: ElemType,
    values: Vec<i64>,
}

fn array(i: &Input) -> Array {
    let n = i.values.len();
    let data = match i.elem {
        ElemType::F16 => Data::F16(i.values.iter().map(|&v| layout_npy::F16::from_f32(v as f32)).collect()),
        ElemType::F32 => Data::F32(i.values.iter().map(|&v| v as f32).collect()),
        ElemType::I8 => Data::I8(i.values.iter().map(|&v| v as i8).collect()),
        ElemType::I32 => Data::I32(i.values.iter().map(|&v| v as i32).collect()),
        other => panic!("{other:?}"),
    };
    Array::new(vec![n], data).unwrap()
}

fn bytes(i: &Input) -> Vec<u8> {
    let mut out = Vec::new();
    for &v in &i.values {
        match i.elem {
            ElemType::F16 => out.extend(layout_npy::F16::from_f32(v as f32).0.to_le_bytes()),
            ElemType::F32 => out.extend((v as f32).to_le_bytes()),
            ElemType::I8 => out.push(v as i8 as u8),
            ElemType::I32 => out.extend((v as i32).to_le_bytes()),
            other => panic!("{other:?}"),
        }
    }
    out
}

fn read_back(elem: ElemType, b: &[u8]) -> Vec<f64> {
    match elem {
        ElemType::F32 => b.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64).collect(),
        ElemType::I32 => b.chunks(4).map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f64).collect(),
        ElemType::F16 => b.chunks(2).map(|c| layout_npy::half::f16_bits_to_f32(u16::from_le_bytes([c[0], c[1]])) as f64).collect(),
        ElemType::I8 => b.iter().map(|&x| x as i8 as f64).collect(),
        other => panic!("{other:?}"),
    }
}

/// Lowers a layout kernel to the ascendc dialect.
fn lower<'c>(context: &'c melior::Context, source: &str) -> Module<'c> {
    let mut module = Module::parse(context, source).expect("parse");
    let pm = PassManager::new(context);
    pm.add_pass(layout_passes::verify::create());
    pm.add_pass(layout_passes::lower_to_ascendc::create());
    pm.run(&mut module).expect("layout-lower-to-ascendc");
    assert!(module.as_operation().verify());
    module
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ascendc-emit").join(name);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compiles the emitted C++ with a generated main and runs it; returns every GM buffer after
/// the run.
fn run_cpp(name: &str, cpp: &str, target: &str, inputs: &[Input], scalars: &[i64]) -> Vec<Vec<f64>> {
    let dir = scratch(name);
    std::fs::write(dir.join("kernel.cpp"), cpp).unwrap();
    let mut main = String::from("#include \"kernel.cpp\"\n#include <cstdio>\n#include <cstdlib>\n#include <vector>\n");
    main.push_str("static std::vector<uint8_t> load(const char* p) { std::vector<uint8_t> v; FILE* f = std::fopen(p, \"rb\"); if (!f) std::exit(3); int c; while ((c = std::fgetc(f)) != EOF) v.push_back((uint8_t)c); std::fclose(f); return v; }\n");
    main.push_str("int main() {\n");
    for i in 0..inputs.len() {
        main.push_str(&format!("  auto b{i} = load(\"in{i}.bin\");\n"));
    }
    let mut args: Vec<String> = (0..inputs.len()).map(|i| format!("b{i}.data()")).collect();
    args.extend(scalars.iter().map(|s| format!("(int64_t){s}")));
    let kernel = cpp.split("__aicore__ void ").nth(1).and_then(|s| s.split('(').next()).unwrap();
    main.push_str(&format!("  {kernel}({});\n", args.join(", ")));
    main.push_str("  if (AscendC::model::ErrorCount()) { std::fprintf(stderr, \"model error: %s\\n\", AscendC::model::LastError()); return 2; }\n");
    for i in 0..inputs.len() {
        main.push_str(&format!("  {{ FILE* f = std::fopen(\"out{i}.bin\", \"wb\"); std::fwrite(b{i}.data(), 1, b{i}.size(), f); std::fclose(f); }}\n"));
    }
    main.push_str("  return 0;\n}\n");
    std::fs::write(dir.join("main.cpp"), main).unwrap();
    for (i, inp) in inputs.iter().enumerate() {
        std::fs::write(dir.join(format!("in{i}.bin")), bytes(inp)).unwrap();
    }
    let arch = if target == "a5" { "3510" } else { "2201" };
    let out = Command::new("g++")
        .args(["-std=c++17", "-O1", "-Wall", "-Wno-unused-variable", "-Wno-unused-but-set-variable"])
        .arg(format!("-DASCENDC_MODEL_ARCH={arch}"))
        .arg(format!("-I{}", ascendc_emit::HOST_INCLUDE_DIR))
        .arg(format!("-I{MODEL_DIR}"))
        .args(["main.cpp", "-o", "kernel"])
        .current_dir(&dir)
        .output()
        .expect("g++");
    assert!(out.status.success(), "g++ failed:\n{}\n{cpp}", String::from_utf8_lossy(&out.stderr));
    let run = Command::new(dir.join("kernel")).current_dir(&dir).output().unwrap();
    assert!(run.status.success(), "kernel failed: {}", String::from_utf8_lossy(&run.stderr));
    inputs.iter().enumerate().map(|(i, inp)| read_back(inp.elem, &std::fs::read(dir.join(format!("out{i}.bin"))).unwrap())).collect()
}

/// JIT-compiles the LLVM form with the model's symbols and runs it.
fn run_jit(context: &melior::Context, module: &Module, inputs: &[Input], scalars: &[i64]) -> Vec<Vec<f64>> {
    let text = ascendc_emit::emit_llvm_mlir(module).expect("llvm form");
    let llvm_module = Module::parse(context, &text).unwrap_or_else(|| panic!("LLVM form does not parse:\n{text}"));
    let jit = Jit::new(&llvm_module).unwrap_or_else(|e| panic!("jit: {e}\n{text}"));
    // Safety: the model's C ABI functions have exactly the declared signatures.
    unsafe { jit.register_symbols(&ascendc_params::ffi::c_abi_symbols()) };
    let mut arrays: Vec<Array> = inputs.iter().map(array).collect();
    let name = ascendc_emit::kernel::kernels(module).unwrap()[0].name.clone();
    {
        let mut args: Vec<Arg> = arrays.iter_mut().map(Arg::MemRef).collect();
        args.extend(scalars.iter().map(|&s| Arg::Index(s)));
        jit.call(&name, &mut args).unwrap_or_else(|e| panic!("call: {e}"));
    }
    arrays.iter().map(|a| (0..a.len()).map(|i| a.data().get_f64(i)).collect()).collect()
}

struct Gemm {
    m: usize,
    n: usize,
    k: usize,
    /// B stored column-major (DN) in GM.
    b_dn: bool,
}

impl Gemm {
    fn reference(&self, a: &[i64], b: &[i64]) -> Vec<f64> {
        let mut c = vec![0.0; self.m * self.n];
        for i in 0..self.m {
            for j in 0..self.n {
                let mut s = 0i64;
                for kk in 0..self.k {
                    let bv = if self.b_dn { b[j * self.k + kk] } else { b[kk * self.n + j] };
                    s += a[i * self.k + kk] * bv;
                }
                c[i * self.n + j] = s as f64;
            }
        }
        c
    }
}

/// A single-block GEMM kernel in the layout dialect.
fn gemm_kernel(name: &str, target: &str, g: &Gemm, ab: &str, acc: &str, out: &str) -> String {
    let (m, n, k) = (g.m, g.n, g.k);
    let l0a = if target == "a5" { "NZ" } else { "ZZ" };
    let (bgm, bl1) = if g.b_dn { ("DN", "ZN") } else { ("ND", "NZ") };
    format!(
        r#"module attributes {{layout.target = #layout.target<"{target}">}} {{
  func.func @{name}(%A: memref<{ma}x{ab}>, %B: memref<{mb}x{ab}>, %C: memref<{mc}x{out}>) {{
    %ga = "layout.view"(%A) : (memref<{ma}x{ab}>) -> !layout.tensor<{ab}, "gm", "ND", "({m},{k})">
    %gb = "layout.view"(%B) : (memref<{mb}x{ab}>) -> !layout.tensor<{ab}, "gm", "{bgm}", "({k},{n})">
    %gc = "layout.view"(%C) : (memref<{mc}x{out}>) -> !layout.tensor<{out}, "gm", "ND", "({m},{n})">
    %a1 = "layout.alloc"() : () -> !layout.tensor<{ab}, "l1", "NZ", "({m},{k})">
    %b1 = "layout.alloc"() : () -> !layout.tensor<{ab}, "l1", "{bl1}", "({k},{n})">
    %a0 = "layout.alloc"() : () -> !layout.tensor<{ab}, "l0a", "{l0a}", "({m},{k})">
    %b0 = "layout.alloc"() : () -> !layout.tensor<{ab}, "l0b", "ZN", "({k},{n})">
    %c0 = "layout.alloc"() : () -> !layout.tensor<{acc}, "l0c", "NZ", "({m},{n})">
    "layout.load"(%ga, %a1) : (!layout.tensor<{ab}, "gm", "ND", "({m},{k})">, !layout.tensor<{ab}, "l1", "NZ", "({m},{k})">) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<{ab}, "gm", "{bgm}", "({k},{n})">, !layout.tensor<{ab}, "l1", "{bl1}", "({k},{n})">) -> ()
    "layout.load"(%a1, %a0) : (!layout.tensor<{ab}, "l1", "NZ", "({m},{k})">, !layout.tensor<{ab}, "l0a", "{l0a}", "({m},{k})">) -> ()
    "layout.load"(%b1, %b0) : (!layout.tensor<{ab}, "l1", "{bl1}", "({k},{n})">, !layout.tensor<{ab}, "l0b", "ZN", "({k},{n})">) -> ()
    "layout.matmul"(%a0, %b0, %c0) {{accumulate = false}} : (!layout.tensor<{ab}, "l0a", "{l0a}", "({m},{k})">, !layout.tensor<{ab}, "l0b", "ZN", "({k},{n})">, !layout.tensor<{acc}, "l0c", "NZ", "({m},{n})">) -> ()
    "layout.store"(%c0, %gc) : (!layout.tensor<{acc}, "l0c", "NZ", "({m},{n})">, !layout.tensor<{out}, "gm", "ND", "({m},{n})">) -> ()
    return
  }}
}}"#,
        ma = m * k,
        mb = k * n,
        mc = m * n,
    )
}

fn elem(t: &str) -> ElemType {
    match t {
        "f16" => ElemType::F16,
        "f32" => ElemType::F32,
        "i8" => ElemType::I8,
        "i32" => ElemType::I32,
        _ => panic!("{t}"),
    }
}

fn check_gemm(name: &str, target: &str, g: Gemm, ab: &str, acc: &str, out: &str) {
    let context = layout_runtime::create_context().unwrap();
    let module = lower(&context, &gemm_kernel(name, target, &g, ab, acc, out));
    let cpp = ascendc_emit::emit_cpp(&module).unwrap();
    let a = values(1, g.m * g.k);
    let b = values(2, g.k * g.n);
    let inputs = vec![
        Input { elem: elem(ab), values: a.clone() },
        Input { elem: elem(ab), values: b.clone() },
        Input { elem: elem(out), values: vec![0; g.m * g.n] },
    ];
    let want = g.reference(&a, &b);
    let got_cpp = run_cpp(name, &cpp, target, &inputs, &[]);
    assert_eq!(got_cpp[2], want, "{name}: g++ result differs from the reference\n{cpp}");
    let got_jit = run_jit(&context, &module, &inputs, &[]);
    assert_eq!(got_jit[2], want, "{name}: JIT result differs from the reference");
}

#[test]
fn gemm_f16_a2_tails() {
    check_gemm("gemm_f16_a2", "a2", Gemm { m: 40, n: 24, k: 56, b_dn: false }, "f16", "f32", "f32");
}

#[test]
fn gemm_f16_a2_aligned() {
    check_gemm("gemm_f16_a2_aligned", "a2", Gemm { m: 32, n: 48, k: 64, b_dn: false }, "f16", "f32", "f32");
}

#[test]
fn gemm_f16_a5_tails() {
    // A5: no NZ → ZN transposing load to L0B in the model (LoadData2DParamsV2 without
    // ifTranspose), so B comes from GM as DN → L1 ZN → L0B ZN.
    check_gemm("gemm_f16_a5", "a5", Gemm { m: 40, n: 24, k: 56, b_dn: true }, "f16", "f32", "f32");
}

#[test]
fn gemm_f16_to_f16_a2() {
    check_gemm("gemm_f16_f16out_a2", "a2", Gemm { m: 17, n: 33, k: 16, b_dn: false }, "f16", "f32", "f16");
}

#[test]
fn gemm_i8_a2() {
    // i8: 8-bit transposing loads are not emitted, so B is DN in GM → ZN in L1.
    check_gemm("gemm_i8_a2", "a2", Gemm { m: 40, n: 24, k: 70, b_dn: true }, "i8", "i32", "i32");
}

#[test]
fn gemm_tile_example_with_loop_and_dynamic_tails() {
    // examples/gemm_tile.mlir: dynamic M, N, a K loop (scf.for) accumulating, clipped C tile.
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/gemm_tile.mlir")).unwrap();
    let context = layout_runtime::create_context().unwrap();
    let module = lower(&context, &source);
    let cpp = ascendc_emit::emit_cpp(&module).unwrap();
    let (m, n, k) = (100usize, 70usize, 256usize);
    let a = values(3, m * k);
    let b = values(4, k * n);
    let inputs = vec![
        Input { elem: ElemType::F16, values: a.clone() },
        Input { elem: ElemType::F16, values: b.clone() },
        Input { elem: ElemType::F32, values: vec![0; m * n] },
    ];
    let want = Gemm { m, n, k, b_dn: false }.reference(&a, &b);
    let scalars = [m as i64, n as i64, 0, 0];
    let got = run_cpp("gemm_tile", &cpp, "a2", &inputs, &scalars);
    assert_eq!(got[2], want, "g++:\n{cpp}");
    let got = run_jit(&context, &module, &inputs, &scalars);
    assert_eq!(got[2], want, "jit");
}

#[test]
fn copy_nd_to_nz_and_back_a2() {
    // GM ND (40x56) → L1 NZ (DataCopy + Nd2NzParams) → GM NZ (DataCopy + DataCopyParams, MTE3).
    let source = r#"module attributes {layout.target = #layout.target<"a2">} {
  func.func @copy(%A: memref<2240xf16>, %O: memref<3072xf16>) {
    %ga = "layout.view"(%A) : (memref<2240xf16>) -> !layout.tensor<f16, "gm", "ND", "(40,56)">
    %go = "layout.view"(%O) : (memref<3072xf16>) -> !layout.tensor<f16, "gm", "NZ", "(40,56)">
    %a1 = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(40,56)">
    "layout.load"(%ga, %a1) : (!layout.tensor<f16, "gm", "ND", "(40,56)">, !layout.tensor<f16, "l1", "NZ", "(40,56)">) -> ()
    "layout.store"(%a1, %go) : (!layout.tensor<f16, "l1", "NZ", "(40,56)">, !layout.tensor<f16, "gm", "NZ", "(40,56)">) -> ()
    return
  }
}"#;
    let context = layout_runtime::create_context().unwrap();
    let module = lower(&context, source);
    let cpp = ascendc_emit::emit_cpp(&module).unwrap();
    let a = values(5, 40 * 56);
    let inputs = vec![Input { elem: ElemType::F16, values: a.clone() }, Input { elem: ElemType::F16, values: vec![0; 3072] }];
    // NZ f16 40x56: ((16,3),(16,4)):((16,256),(1,768)).
    let nz = |r: usize, c: usize| (r % 16) * 16 + (r / 16) * 256 + (c % 16) + (c / 16) * 768;
    for got in [run_cpp("copy", &cpp, "a2", &inputs, &[]), run_jit(&context, &module, &inputs, &[])] {
        for r in 0..40 {
            for c in 0..56 {
                assert_eq!(got[1][nz(r, c)], a[r * 56 + c] as f64, "({r},{c})\n{cpp}");
            }
        }
    }
}
