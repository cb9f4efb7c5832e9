//! End to end, three ways on the same seeded inputs (`layout_npy::random::Rng`):
//! 1. layout kernel → `layout-lower-to-ascendc` → the emitted AscendC C++, compiled with g++
//!    against the CPU model and run;
//! 2. the same lowered module → its LLVM form, JIT-compiled with the model's C ABI symbols;
//! 3. the original layout kernel → the loop lowering (`layout_runtime::lower_layout_ops`, the
//!    CPU reference semantics of docs/layout-spec.md §D) → JIT.
//!
//! The three outputs must be bit-identical (byte comparison of the whole output buffer), and
//! equal to a plain-loop reference computed here. The generator's floats are multiples of 1/8 in
//! [-1, 1], so every f32 (or f16-rounded) GEMM sum is exact whatever the summation order; i8
//! values are in [-4, 4].

use ascendc_emit::run;
mod batched;
mod cost;
mod dynamic_k;
mod gemm_gen;
mod multicore;
mod project;

use layout_npy::random::Rng;
use layout_runtime::{Arg, Array, Data, Diag, ElemType, Jit};
use melior::ir::{operation::OperationLike, Module};
use std::path::{Path, PathBuf};

#[path = "run/cube_edges.rs"]
mod cube_edges;
#[path = "run/epilogue.rs"]
mod epilogue;
#[path = "run/legal_pairs.rs"]
mod legal_pairs;
mod sanitizer;
#[path = "run/tile_of_tile.rs"]
mod tile_of_tile;

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");

/// Lowers a layout kernel to the ascendc dialect (the driver's lowering, `ascendc_emit::run`).
fn lower<'c>(context: &'c melior::Context, source: &str) -> Module<'c> {
    let mut module = Module::parse(context, source).expect("parse");
    run::lower_to_ascendc(&mut module).unwrap_or_else(|e| panic!("layout-lower-to-ascendc: {e}"));
    assert!(module.as_operation().verify());
    module
}

/// `text` with every `(from, to)` replaced; each `from` must occur (else the example named
/// `example` changed shape and the test's template is stale).
fn substituted(text: &str, example: &str, pairs: &[(&str, &str)]) -> String {
    let mut out = text.to_string();
    for (from, to) in pairs {
        assert!(out.contains(from), "{example} changed shape ({from}): update the template");
        out = out.replace(from, to);
    }
    out
}

/// 64 × 64 C blocks and A/B slices instead of 128 × 256 / 128 × 64 / 64 × 256 in the text of
/// the dynamic-K examples: the same program, 8 times fewer padded MACs in the model.
const SMALL_BLOCKS: [(&str, &str); 6] = [
    ("128, 64", "64, 64"),
    ("64, 256", "64, 64"),
    ("128, 256", "64, 64"),
    ("(128,64)", "(64,64)"),
    ("(64,256)", "(64,64)"),
    ("(128,256)", "(64,64)"),
];

fn scratch(name: &str) -> PathBuf {
    // One directory per call: two tests building the same kernel name at the same time would
    // otherwise run an executable the other is still writing (ETXTBSY) or each other's outputs.
    static CLAIMED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut claimed = CLAIMED.lock().unwrap_or_else(|e| e.into_inner());
    let uses = claimed.iter().filter(|n| *n == name).count();
    claimed.push(name.to_string());
    let leaf = if uses == 0 { name.to_string() } else { format!("{name}.{uses}") };
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ascendc-emit").join(leaf);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The arguments of a call: the GM buffers, then the index scalars.
fn args<'a>(arrays: &'a mut [Array], scalars: &[i64]) -> Vec<Arg<'a>> {
    let mut args: Vec<Arg> = arrays.iter_mut().map(Arg::MemRef).collect();
    args.extend(scalars.iter().map(|&s| Arg::Index(s)));
    args
}

/// The emitted C++ compiled with g++ against the model and run (`run::CppKernel`), under the
/// sanitizer when `sanitize`; every GM buffer after the run, or the located error.
fn try_cpp(module: &Module, case: &Case, sanitize: u32) -> Result<Vec<Array>, Diag> {
    let kernel = run::CppKernel::build(module, case.func, Some(&scratch(case.name)), sanitize)?;
    let mut arrays = case.inputs.to_vec();
    kernel.call(&mut args(&mut arrays, &case.scalars))?;
    Ok(arrays)
}

/// The LLVM form JIT-compiled with the model's symbols (`run::LlvmKernel`).
fn try_llvm(context: &melior::Context, module: &Module, case: &Case, sanitize: u32) -> Result<Vec<Array>, Diag> {
    let kernel = run::LlvmKernel::build(context, module, case.func)?;
    let mut arrays = case.inputs.to_vec();
    kernel.call(&mut args(&mut arrays, &case.scalars), sanitize)?;
    Ok(arrays)
}

/// Calls `name` in `jit` on copies of `inputs`; returns the arrays after the call.
fn call(jit: &Jit, name: &str, inputs: &[Array], scalars: &[i64]) -> Vec<Array> {
    let mut arrays = inputs.to_vec();
    jit.call(name, &mut args(&mut arrays, scalars)).unwrap_or_else(|e| panic!("call @{name}: {e}"));
    arrays
}

/// The loop lowering (the CPU reference semantics) of the original layout kernel, JIT-run.
fn run_loops(
    context: &melior::Context,
    source: &str,
    name: &str,
    inputs: &[Array],
    scalars: &[i64],
    initcheck: bool,
) -> Vec<Array> {
    let mut module = Module::parse(context, source).expect("parse");
    // With the lowering's initcheck when the model paths run with it too.
    layout_runtime::lower_layout_ops_with(&mut module, initcheck).unwrap_or_else(|e| panic!("loop lowering: {e}"));
    let jit = Jit::new(&module).unwrap_or_else(|e| panic!("jit (loops): {e}"));
    call(&jit, name, inputs, scalars)
}

/// One kernel run three ways; `outputs` are the argument positions compared.
struct Case<'s> {
    /// Scratch directory name (unique per run).
    name: &'s str,
    /// The function to call.
    func: &'s str,
    source: String,
    target: &'s str,
    inputs: Vec<Array>,
    scalars: Vec<i64>,
    outputs: Vec<usize>,
    /// The sanitizer checks both model paths run under (`run::checks`).
    sanitize: u32,
}

/// Runs `case` through g++/model, JIT/model and the loop lowering; asserts the three agree
/// bit for bit on every output; returns the agreed outputs.
fn three_ways(case: &Case) -> Vec<Array> {
    let context = layout_runtime::create_context().unwrap();
    let module = lower(&context, &case.source);
    assert_eq!(ascendc_emit::target_of(&module).unwrap().name(), case.target, "{}: target", case.name);
    let cpp = ascendc_emit::emit_cpp(&module).unwrap();
    let via_cpp =
        try_cpp(&module, case, case.sanitize).unwrap_or_else(|e| panic!("{}: C++ + model: {e}\n{cpp}", case.name));
    let via_llvm = try_llvm(&context, &module, case, case.sanitize)
        .unwrap_or_else(|e| panic!("{}: LLVM form + model: {e}", case.name));
    let initcheck = case.sanitize & run::checks::INIT != 0;
    let via_loops = run_loops(&context, &case.source, case.func, &case.inputs, &case.scalars, initcheck);
    let mut agreed = Vec::new();
    for &o in &case.outputs {
        let loops = via_loops[o].data().to_le_bytes();
        for (way, got) in [("g++ on the emitted C++", &via_cpp[o]), ("JIT on the emitted LLVM IR", &via_llvm[o])] {
            let bytes = got.data().to_le_bytes();
            if bytes != loops {
                let first = (0..got.len())
                    .find(|&i| got.get_f64(i).to_bits() != via_loops[o].get_f64(i).to_bits())
                    .unwrap_or(0);
                panic!(
                    "{}: output #{o}: {way} differs from the loop lowering; first at element {first}: {} vs {} (loops)\n{cpp}",
                    case.name,
                    got.get_f64(first),
                    via_loops[o].get_f64(first)
                );
            }
        }
        agreed.push(via_loops[o].clone());
    }
    agreed
}

/// The checks of kernels that store to GM NZ with n not a multiple of 16: Fixpipe CFG_NZ copies
/// whole 16-column L0C blocks, so the padding columns it stores were computed from L0B padding
/// that nothing wrote (harmless: GM NZ padding is unspecified), which initcheck reports.
const KNOWN_UNWRITTEN_READS: u32 = run::checks::MEM | run::checks::SYNC;

fn values(a: &Array) -> Vec<f64> {
    (0..a.len()).map(|i| a.get_f64(i)).collect()
}

struct Gemm {
    m: usize,
    n: usize,
    k: usize,
    /// B stored column-major (DN) in GM.
    b_dn: bool,
}

impl Gemm {
    /// C = A x B on logical indices, summed in f64 (exact for the generator's inputs).
    fn reference(&self, a: &Array, b: &Array) -> Vec<f64> {
        let mut c = vec![0.0; self.m * self.n];
        for i in 0..self.m {
            for j in 0..self.n {
                let mut s = 0.0;
                for kk in 0..self.k {
                    let bv = if self.b_dn { b.get_f64(j * self.k + kk) } else { b.get_f64(kk * self.n + j) };
                    s += a.get_f64(i * self.k + kk) * bv;
                }
                c[i * self.n + j] = s;
            }
        }
        c
    }
}

/// A single-block GEMM kernel in the layout dialect.
fn gemm_kernel(name: &str, target: &str, g: &Gemm, ab: &str, acc: &str, out: &str) -> String {
    gemm_kernel_to(name, target, g, ab, acc, out, ("ND", g.m * g.n))
}

/// [`gemm_kernel`] storing C to GM as `c_gm = (cgm, mc)`: in layout `cgm` (`ND` or `NZ`), of
/// `mc` elements.
fn gemm_kernel_to(name: &str, target: &str, g: &Gemm, ab: &str, acc: &str, out: &str, c_gm: (&str, usize)) -> String {
    let (cgm, mc) = c_gm;
    let (m, n, k) = (g.m, g.n, g.k);
    let l0a = if target == "a5" { "NZ" } else { "ZZ" };
    let (bgm, bl1) = if g.b_dn { ("DN", "ZN") } else { ("ND", "NZ") };
    let ta1 = format!(r#"!layout.tensor<{ab}, "l1", "NZ", "({m},{k})">"#);
    let ta0 = format!(r#"!layout.tensor<{ab}, "l0a", "{l0a}", "({m},{k})">"#);
    let (tb1, tb0, tc0) = if target == "a2" && ab == "i8" && !g.b_dn {
        // LoadDataWithTranspose reads whole 32x32 squares (catlass): the L1 tile's rows and the
        // L0B / L0C columns are padded to 32 (explicit layouts, origin = the real extent).
        let (k1, kc, n1, m1) = (k.div_ceil(32) * 2, k.div_ceil(32), n.div_ceil(32) * 2, m.div_ceil(16));
        let nc = n.div_ceil(32);
        (
            format!(r#"!layout.tensor<i8, "l1", "((16,{k1}),(32,{nc})):((32,512),(1,{}))", "({k},{n})">"#, k1 * 512),
            format!(r#"!layout.tensor<i8, "l0b", "((32,{kc}),(16,{n1})):((1,{}),(32,512))", "({k},{n})">"#, n1 * 512),
            format!(
                r#"!layout.tensor<{acc}, "l0c", "((16,{m1}),(16,{n1})):((16,256),(1,{}))", "({m},{n})">"#,
                m1 * 256
            ),
        )
    } else {
        (
            format!(r#"!layout.tensor<{ab}, "l1", "{bl1}", "({k},{n})">"#),
            format!(r#"!layout.tensor<{ab}, "l0b", "ZN", "({k},{n})">"#),
            format!(r#"!layout.tensor<{acc}, "l0c", "NZ", "({m},{n})">"#),
        )
    };
    format!(
        r#"module attributes {{layout.target = #layout.target<"{target}">}} {{
  func.func @{name}(%A: memref<{ma}x{ab}>, %B: memref<{mb}x{ab}>, %C: memref<{mc}x{out}>) attributes {{llvm.emit_c_interface}} {{
    %ga = "layout.view"(%A) : (memref<{ma}x{ab}>) -> !layout.tensor<{ab}, "gm", "ND", "({m},{k})">
    %gb = "layout.view"(%B) : (memref<{mb}x{ab}>) -> !layout.tensor<{ab}, "gm", "{bgm}", "({k},{n})">
    %gc = "layout.view"(%C) : (memref<{mc}x{out}>) -> !layout.tensor<{out}, "gm", "{cgm}", "({m},{n})">
    %a1 = "layout.alloc"() : () -> {ta1}
    %b1 = "layout.alloc"() : () -> {tb1}
    %a0 = "layout.alloc"() : () -> {ta0}
    %b0 = "layout.alloc"() : () -> {tb0}
    %c0 = "layout.alloc"() : () -> {tc0}
    "layout.load"(%ga, %a1) : (!layout.tensor<{ab}, "gm", "ND", "({m},{k})">, {ta1}) -> ()
    "layout.load"(%gb, %b1) : (!layout.tensor<{ab}, "gm", "{bgm}", "({k},{n})">, {tb1}) -> ()
    "layout.load"(%a1, %a0) : ({ta1}, {ta0}) -> ()
    "layout.load"(%b1, %b0) : ({tb1}, {tb0}) -> ()
    "layout.matmul"(%a0, %b0, %c0) {{accumulate = false}} : ({ta0}, {tb0}, {tc0}) -> ()
    "layout.store"(%c0, %gc) : ({tc0}, !layout.tensor<{out}, "gm", "{cgm}", "({m},{n})">) -> ()
    return
  }}
}}"#,
        ma = m * k,
        mb = k * n,
    )
}

fn elem(t: &str) -> ElemType {
    ElemType::from_name(t).unwrap_or_else(|| panic!("element type {t}"))
}

fn check_gemm(name: &str, target: &str, g: Gemm, ab: &str, acc: &str, out: &str) {
    let mut rng = Rng::new(name.len() as u64 * 7919 + g.m as u64);
    let a = rng.array(elem(ab), &[g.m * g.k]);
    let b = rng.array(elem(ab), &[g.k * g.n]);
    let c = Array::zeros(elem(out), &[g.m * g.n]);
    let want = g.reference(&a, &b);
    let case = Case {
        name,
        func: name,
        source: gemm_kernel(name, target, &g, ab, acc, out),
        target,
        inputs: vec![a, b, c],
        scalars: vec![],
        sanitize: run::checks::ALL,
        outputs: vec![2],
    };
    let got = three_ways(&case);
    assert_eq!(values(&got[0]), want, "{name}: result differs from the reference");
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
    // A5 with B column-major (DN) in GM → L1 ZN → L0B ZN (plain LoadData2DParamsV2).
    check_gemm("gemm_f16_a5", "a5", Gemm { m: 40, n: 24, k: 56, b_dn: true }, "f16", "f32", "f32");
}

#[test]
fn gemm_f16_a5_nd_b_transposing_load() {
    // A5: B row-major (ND) in GM → L1 NZ → L0B ZN with LoadData2DParamsV2 { ifTranspose = true }.
    check_gemm("gemm_f16_a5_nd_b", "a5", Gemm { m: 40, n: 24, k: 56, b_dn: false }, "f16", "f32", "f32");
    check_gemm("gemm_f16_a5_nd_b_aligned", "a5", Gemm { m: 32, n: 48, k: 64, b_dn: false }, "f16", "f32", "f32");
}

#[test]
fn gemm_i8_a2_nd_b_load_data_with_transpose() {
    // A2 i8: B ND in GM → L1 NZ (16x32 fractals) → L0B ZN (32x16) with LoadDataWithTranspose
    // (32x32 squares); the L1 rows and the L0B/L0C columns are padded to 32 (gemm_kernel_to).
    check_gemm("gemm_i8_a2_nd_b", "a2", Gemm { m: 40, n: 24, k: 60, b_dn: false }, "i8", "i32", "i32");
    check_gemm("gemm_i8_a2_nd_b_aligned", "a2", Gemm { m: 32, n: 64, k: 64, b_dn: false }, "i8", "i32", "i32");
}

#[test]
fn gemm_i8_a2_nd_b_odd_fractal_counts() {
    // k = 40: 3 16-row L1 fractals; n = 40: 3 16-column L0B fractals. L1 B is allocated with
    // 64 rows, L0B and L0C with 64 columns; Mmad runs with n = 64, Fixpipe stores the real 40.
    check_gemm("gemm_i8_a2_nd_b_odd", "a2", Gemm { m: 40, n: 40, k: 40, b_dn: false }, "i8", "i32", "i32");
    check_gemm("gemm_i8_a2_nd_b_odd_small", "a2", Gemm { m: 17, n: 5, k: 17, b_dn: false }, "i8", "i32", "i32");
}

#[test]
fn gemm_f16_to_f16_a2() {
    // Fixpipe F322F16; the sums (|s| <= 16, multiples of 1/64) are exact in f16.
    check_gemm("gemm_f16_f16out_a2", "a2", Gemm { m: 17, n: 33, k: 16, b_dn: false }, "f16", "f32", "f16");
}

#[test]
fn gemm_i8_a5() {
    // a5 i8 with B DN in GM → L1 ZN → L0B ZN (plain LoadData2DParamsV2); L0A is NZ on a5.
    // (B ND would need the 8-bit transposing V2 load, which is not emitted.)
    check_gemm("gemm_i8_a5", "a5", Gemm { m: 40, n: 24, k: 70, b_dn: true }, "i8", "i32", "i32");
}

#[test]
fn gemm_i8_a2() {
    // i8 with B DN in GM → ZN in L1 (no transpose; the ND case is below).
    check_gemm("gemm_i8_a2", "a2", Gemm { m: 40, n: 24, k: 70, b_dn: true }, "i8", "i32", "i32");
}

/// GEMM storing C from L0C to GM NZ (Fixpipe CFG_NZ; f32 output: C0 = 8 with channel split,
/// f16: C0 = 16). Checks every valid element at its NZ offset bit for bit on the three ways and
/// against the reference, and the padding rows (>= m, never written) against their initial zero.
/// The padding *columns* of the valid rows (n up to C0) are unspecified: Fixpipe copies whole
/// 32 B blocks, so they receive L0C's padding columns, which Mmad fills from L0B padding (zero
/// after ND2NZ, garbage — poison in the model — after DN2ZN); the loop lowering leaves them.
fn check_gemm_nz(name: &str, target: &str, g: Gemm, out: &str) {
    let c0 = if out == "f32" { 8 } else { 16 };
    let (m1, n1) = (g.m.div_ceil(16), g.n.div_ceil(c0));
    let len = m1 * 16 * n1 * c0;
    let nz = |i: usize, j: usize| (i % 16) * c0 + (i / 16) * 16 * c0 + (j % c0) + (j / c0) * m1 * 16 * c0;
    let mut rng = Rng::new(name.len() as u64 * 7919 + g.m as u64);
    let a = rng.array(elem("f16"), &[g.m * g.k]);
    let b = rng.array(elem("f16"), &[g.k * g.n]);
    let want = g.reference(&a, &b);
    let source = gemm_kernel_to(name, target, &g, "f16", "f32", out, ("NZ", len));
    let case = Case {
        name,
        func: name,
        source,
        target,
        inputs: vec![a, b, Array::zeros(elem(out), &[len])],
        scalars: vec![],
        sanitize: KNOWN_UNWRITTEN_READS,
        outputs: vec![2],
    };
    // Not `three_ways`: the padding columns of the valid rows hold L0C padding (poison in
    // every back end, differently spelled), so each way is checked on what is specified.
    let context = layout_runtime::create_context().unwrap();
    let module = lower(&context, &case.source);
    let cpp = ascendc_emit::emit_cpp(&module).unwrap();
    let via_cpp = try_cpp(&module, &case, case.sanitize).unwrap_or_else(|e| panic!("{name}: C++ + model: {e}"));
    let via_llvm = try_llvm(&context, &module, &case, case.sanitize).unwrap_or_else(|e| panic!("{name}: LLVM: {e}"));
    let via_loops = run_loops(&context, &case.source, name, &case.inputs, &[], false);
    let ways = [
        ("g++ on the emitted C++", &via_cpp[2]),
        ("JIT on the emitted LLVM IR", &via_llvm[2]),
        ("the loop lowering", &via_loops[2]),
    ];
    for (way, got) in &ways {
        for i in 0..g.m.div_ceil(16) * 16 {
            for j in 0..n1 * c0 {
                let (o, v) = (nz(i, j), got.get_f64(nz(i, j)));
                if i < g.m && j < g.n {
                    assert_eq!(v, want[i * g.n + j], "{name}: {way}: ({i},{j})");
                } else if i >= g.m {
                    assert_eq!(v, 0.0, "{name}: {way}: padding row element {o}");
                }
            }
        }
    }
    assert!(cpp.contains("AscendC::CFG_NZ>"), "{name}: no CFG_NZ Fixpipe\n{cpp}");
    // The parameter struct of the target (asc-devkit kernel_struct_fixpipe.h): 2201
    // FixpipeParamsV220 with dstStride in 32 B blocks, 3510 FixpipeParamsArch3510<CO2Layout::NZ>
    // with dstStride in elements and no ND fields.
    let (decl, dst_stride) = match target {
        "a5" => ("AscendC::FixpipeParamsArch3510<AscendC::CO2Layout::NZ> p", m1 * 16 * c0),
        _ => ("AscendC::FixpipeParamsV220 p", m1 * 16),
    };
    let fixpipe = &cpp[cpp.find(decl).unwrap_or_else(|| panic!("{name}: no {decl}\n{cpp}"))..];
    let fixpipe = &fixpipe[..fixpipe.find("AscendC::Fixpipe<").unwrap()];
    assert!(fixpipe.contains(&format!(".dstStride = {dst_stride};")), "{name}: dstStride\n{fixpipe}");
    assert_eq!(fixpipe.contains("ndNum"), target == "a2", "{name}: ND fields\n{fixpipe}");
    assert_eq!(cpp.contains(".isChannelSplit = true;"), out == "f32", "{name}: isChannelSplit\n{cpp}");
}

#[test]
fn gemm_store_nz_f32_channel_split_a2_a5() {
    // f32 GM NZ (C0 = 8): each 16x16 L0C fractal is split into two 16x8 GM fractals; m and n tails.
    check_gemm_nz("gemm_nz_f32_a2", "a2", Gemm { m: 40, n: 20, k: 56, b_dn: false }, "f32");
    check_gemm_nz("gemm_nz_f32_a5", "a5", Gemm { m: 40, n: 20, k: 56, b_dn: true }, "f32");
}

#[test]
fn gemm_store_nz_f16_a2_a5() {
    // F322F16 to GM NZ (C0 = 16); the sums are exact in f16 (k = 16).
    check_gemm_nz("gemm_nz_f16_a2", "a2", Gemm { m: 17, n: 40, k: 16, b_dn: false }, "f16");
    check_gemm_nz("gemm_nz_f16_a5", "a5", Gemm { m: 33, n: 24, k: 16, b_dn: true }, "f16");
}

/// Reads an example; fails if it is missing.
fn example(path: &str) -> String {
    std::fs::read_to_string(format!("{EXAMPLES}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn gemm_tile_example_with_loop_and_dynamic_tails() {
    // examples/gemm_tile.mlir: dynamic M, N, a K loop (scf.for) accumulating, clipped C tile.
    // It also returns two `layout.offset` results, which the runtime's `Jit::call` cannot
    // return (at most one scalar result): the loop-lowered run uses the same kernel without
    // them (the AscendC kernel is `void` and drops them anyway).
    let source = example("gemm_tile.mlir");
    let stripped = source
        .replace(") -> (index, index) {", ") attributes {llvm.emit_c_interface} {")
        .replace("return %o1, %o2 : index, index", "return");
    assert_ne!(stripped, source, "examples/gemm_tile.mlir changed shape: update the test");
    let stripped: String =
        stripped.lines().filter(|l| !l.contains("\"layout.offset\"")).map(|l| format!("{l}\n")).collect();
    // (M, N, m0, n0): one whole clipped block at the origin, then the tail block of a 2x2 grid.
    for (run, (m, n, m0, n0)) in [(100usize, 70usize, 0usize, 0usize), (200, 150, 128, 128)].into_iter().enumerate() {
        let k = 256;
        let mut rng = Rng::new(40 + run as u64);
        let a = rng.array(ElemType::F16, &[m * k]);
        let b = rng.array(ElemType::F16, &[k * n]);
        let c = Array::zeros(ElemType::F32, &[m * n]);
        let full = Gemm { m, n, k, b_dn: false }.reference(&a, &b);
        let want: Vec<f64> = (0..m * n)
            .map(|i| if (m0..m0 + 128).contains(&(i / n)) && (n0..n0 + 128).contains(&(i % n)) { full[i] } else { 0.0 })
            .collect();
        let name = format!("gemm_tile_{run}");
        let case = Case {
            name: &name,
            func: "gemm_tile",
            source: stripped.clone(),
            target: "a2",
            inputs: vec![a, b, c],
            scalars: vec![m as i64, n as i64, m0 as i64, n0 as i64],
            sanitize: run::checks::ALL,
            outputs: vec![2],
        };
        let got = three_ways(&case);
        assert_eq!(values(&got[0]), want, "{name}: result differs from the reference");
    }
}

#[test]
fn tiled_gemm_example_k_loop_dynamic_tails() {
    // examples/tiled_gemm.mlir (`make demo`): a grid of 128x128 blocks over dynamic M, N with
    // tail tiles in both, and the K loop; 2-D memrefs.
    let source = example("tiled_gemm.mlir");
    for (run, (m, n)) in [(200usize, 150usize), (128, 128), (40, 300)].into_iter().enumerate() {
        let k = 256;
        let mut rng = Rng::new(50 + run as u64);
        let a = rng.array(ElemType::F16, &[m, k]);
        let b = rng.array(ElemType::F16, &[k, n]);
        let c = Array::zeros(ElemType::F32, &[m, n]);
        let want = Gemm { m, n, k, b_dn: false }.reference(&a, &b);
        let name = format!("tiled_gemm_{run}");
        let case = Case {
            name: &name,
            func: "tiled_gemm",
            source: source.clone(),
            target: "a2",
            inputs: vec![a, b, c],
            scalars: vec![m as i64, n as i64],
            sanitize: run::checks::ALL,
            outputs: vec![2],
        };
        let got = three_ways(&case);
        assert_eq!(values(&got[0]), want, "{name}: result differs from the reference");
    }
}

/// A GM → L1 → GM copy kernel: `gm_src` (flat, logical shape (r, c)) → L1 `l1` → GM `gm_dst`
/// (the L1 layout's frame, so the output buffer holds exactly the L1 footprint).
fn copy_kernel(
    target: &str,
    elem: &str,
    (r, c): (usize, usize),
    gm_src: &str,
    l1: &str,
    src_len: usize,
    dst_len: usize,
) -> String {
    format!(
        r#"module attributes {{layout.target = #layout.target<"{target}">}} {{
  func.func @copy(%A: memref<{src_len}x{elem}>, %O: memref<{dst_len}x{elem}>) attributes {{llvm.emit_c_interface}} {{
    %ga = "layout.view"(%A) : (memref<{src_len}x{elem}>) -> !layout.tensor<{elem}, "gm", "{gm_src}", "({r},{c})">
    %go = "layout.view"(%O) : (memref<{dst_len}x{elem}>) -> !layout.tensor<{elem}, "gm", "{l1}", "({r},{c})">
    %a1 = "layout.alloc"() : () -> !layout.tensor<{elem}, "l1", "{l1}", "({r},{c})">
    "layout.load"(%ga, %a1) : (!layout.tensor<{elem}, "gm", "{gm_src}", "({r},{c})">, !layout.tensor<{elem}, "l1", "{l1}", "({r},{c})">) -> ()
    "layout.store"(%a1, %go) : (!layout.tensor<{elem}, "l1", "{l1}", "({r},{c})">, !layout.tensor<{elem}, "gm", "{l1}", "({r},{c})">) -> ()
    return
  }}
}}"#
    )
}

/// Checks a copy kernel three ways and against the expected placement of every valid element:
/// `offset(row, col)` is the element offset of the fractal layout; the zero-filled C0 tails and
/// the other padding must agree between the three runs too (byte comparison of the buffer).
/// `layouts` is `(GM source layout, L1 layout)`, e.g. `("ND", "NZ")`.
fn check_copy(
    name: &str,
    target: &str,
    elem_name: &str,
    shape: (usize, usize),
    layouts: (&str, &str),
    dst_len: usize,
    offset: impl Fn(usize, usize) -> usize,
) {
    let (r, c) = shape;
    let (gm_src, l1) = layouts;
    let a = Rng::new(60 + name.len() as u64).array(elem(elem_name), &[r * c]);
    let out = Array::zeros(elem(elem_name), &[dst_len]);
    let case = Case {
        name,
        func: "copy",
        source: copy_kernel(target, elem_name, shape, gm_src, l1, r * c, dst_len),
        target,
        inputs: vec![a.clone(), out],
        scalars: vec![],
        sanitize: run::checks::ALL,
        outputs: vec![1],
    };
    let got = three_ways(&case);
    let col_major = gm_src == "DN";
    for i in 0..r {
        for j in 0..c {
            let src = if col_major { j * r + i } else { i * c + j };
            assert_eq!(got[0].get_f64(offset(i, j)), a.get_f64(src), "{name}: ({i},{j})");
        }
    }
}

#[test]
fn copy_nd_to_nz_and_back_a2() {
    // GM ND (40x56) → L1 NZ (DataCopy + Nd2NzParams) → GM NZ (DataCopy + DataCopyParams, MTE3).
    // NZ f16 40x56: ((16,3),(16,4)):((16,256),(1,768)).
    let nz = |r: usize, c: usize| (r % 16) * 16 + (r / 16) * 256 + (c % 16) + (c / 16) * 768;
    check_copy("copy_nd_nz_f16_a2", "a2", "f16", (40, 56), ("ND", "NZ"), 3072, nz);
}

#[test]
fn copy_nd_to_nz_i8_a5() {
    // i8 (C0 = 32) 40x70 on a5: NZ ((16,3),(32,3)):((32,512),(1,1536)).
    let nz = |r: usize, c: usize| (r % 16) * 32 + (r / 16) * 512 + (c % 32) + (c / 32) * 1536;
    check_copy("copy_nd_nz_i8_a5", "a5", "i8", (40, 70), ("ND", "NZ"), 4608, nz);
}

#[test]
fn copy_dn_to_zn_f32_a2() {
    // f32 (C0 = 8) 20x24, GM column-major (DN) → L1 ZN via ND2NZ on the transposed views, then
    // L1 ZN → GM ZN (DataCopyParams on the transposed views). ZN f32 20x24:
    // ((8,3),(16,2)):((1,256),(8,128)).
    let zn = |r: usize, c: usize| (r % 8) + (r / 8) * 256 + (c % 16) * 8 + (c / 16) * 128;
    check_copy("copy_dn_zn_f32_a2", "a2", "f32", (20, 24), ("DN", "ZN"), 768, zn);
}

#[test]
fn copy_nz_to_nz_a2() {
    // GM NZ → L1 NZ → GM NZ (both DataCopyParams): f16 33x40, ((16,3),(16,3)):((16,256),(1,768)).
    let nz = |r: usize, c: usize| (r % 16) * 16 + (r / 16) * 256 + (c % 16) + (c / 16) * 768;
    let (r, c) = (33usize, 40usize);
    let len = 48 * 48;
    // A packed NZ buffer (docs/layout-spec.md §A.5: the host packs with zero-filled padding).
    let random = Rng::new(70).array(ElemType::F16, &[len]);
    let mut packed = vec![layout_npy::F16::from_f32(0.0); len];
    for i in 0..r {
        for j in 0..c {
            packed[nz(i, j)] = layout_npy::F16::from_f32(random.get_f64(nz(i, j)) as f32);
        }
    }
    let frame = Array::new(vec![len], Data::F16(packed)).unwrap();
    let source = copy_kernel("a2", "f16", (r, c), "NZ", "NZ", len, len);
    let case = Case {
        name: "copy_nz_nz_f16_a2",
        func: "copy",
        source,
        target: "a2",
        inputs: vec![frame.clone(), Array::zeros(ElemType::F16, &[len])],
        scalars: vec![],
        sanitize: run::checks::ALL,
        outputs: vec![1],
    };
    let got = three_ways(&case);
    for i in 0..r {
        for j in 0..c {
            assert_eq!(got[0].get_f64(nz(i, j)), frame.get_f64(nz(i, j)), "({i},{j})");
        }
    }
}

/// A tile of a tile of a GM ND tensor (f16 64x64): `%t1` at the static corner (16, 32), shape
/// 48x32; `%t2` of `%t1` at (`%i`, 16) — a dynamic and a static coordinate — shape 32x16, so its
/// corner in the tensor is (16 + i, 48) and its row origin min(32, 48 - i). Copied GM → L1 NZ →
/// GM NZ. The AscendC lowering used to place `%t2` at its local corner (i, 16) only (the loop
/// lowering added the parent's corner): the C++/LLVM runs read other elements than the loops.
fn tile_of_tile_kernel() -> String {
    let gm = r#"!layout.tensor<f16, "gm", "ND", "(64,64)">"#;
    let t1 = r#"!layout.tensor<f16, "gm", "(48,32):(64,1)", "(48,32)">"#;
    let t2 = r#"!layout.tensor<f16, "gm", "(32,16):(64,1)", "(?,16)">"#;
    let l1 = r#"!layout.tensor<f16, "l1", "NZ", "(32,16)">"#;
    let out = r#"!layout.tensor<f16, "gm", "NZ", "(32,16)">"#;
    let written = r#"!layout.tensor<f16, "l1", "((16,2),(16,1)):((16,256),(1,512))", "(?,16)">"#;
    format!(
        r#"module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @tile_of_tile(%A: memref<4096xf16>, %O: memref<512xf16>, %i: index) attributes {{llvm.emit_c_interface}} {{
    %c16 = arith.constant 16 : index
    %c32 = arith.constant 32 : index
    %ga = "layout.view"(%A) : (memref<4096xf16>) -> {gm}
    %go = "layout.view"(%O) : (memref<512xf16>) -> {out}
    %t1 = "layout.tile"(%ga, %c16, %c32) {{shape = array<i64: 48, 32>}} : ({gm}, index, index) -> {t1}
    %t2 = "layout.tile"(%t1, %i, %c16) {{shape = array<i64: 32, 16>}} : ({t1}, index, index) -> {t2}
    %a1 = "layout.alloc"() : () -> {l1}
    %w = "layout.load"(%t2, %a1) : ({t2}, {l1}) -> {written}
    "layout.store"(%w, %go) : ({written}, {out}) -> ()
    return
  }}
}}"#
    )
}

#[test]
fn tile_of_a_tile_dynamic_and_static_coordinates() {
    let nz = |r: usize, c: usize| (r % 16) * 16 + (r / 16) * 256 + c;
    // Whole 32x16 tiles (i <= 16): a clipped one would leave L1 rows unwritten that the store
    // then copies (the loop lowering poisons unwritten buffers with NaN, the model zeroes them).
    for (run, i) in [8usize, 16].into_iter().enumerate() {
        let a = Rng::new(80 + run as u64).array(ElemType::F16, &[64 * 64]);
        let name = format!("tile_of_tile_{run}");
        let case = Case {
            name: &name,
            func: "tile_of_tile",
            source: tile_of_tile_kernel(),
            target: "a2",
            inputs: vec![a.clone(), Array::zeros(ElemType::F16, &[512])],
            scalars: vec![i as i64],
            sanitize: run::checks::ALL,
            outputs: vec![1],
        };
        let got = three_ways(&case);
        for r in 0..32 {
            for c in 0..16 {
                let want = a.get_f64((16 + i + r) * 64 + 48 + c);
                assert_eq!(got[0].get_f64(nz(r, c)), want, "{name}: ({r},{c})");
            }
        }
    }
}

/// A tiled GEMM written with control flow (issue 11 item 5), checked three ways: the grid loops
/// have dynamic bounds (M, N), the A panel is loaded in the outer loop and read in the inner one
/// (the next A load must wait for the last L1 read: a back-edge sync two loops out), the K
/// offset is an index `iter_args` value, and `scf.if` on `arith.cmpi eq, k, 0` chooses between
/// the overwriting and the accumulating Mmad.
fn control_flow_gemm_kernel() -> String {
    let gm_a = r#"!layout.tensor<f16, "gm", "ND", "(?,256)">"#;
    let gm_b = r#"!layout.tensor<f16, "gm", "ND", "(256,?)">"#;
    let gm_c = r#"!layout.tensor<f32, "gm", "ND", "(?,?)">"#;
    let l1a = r#"!layout.tensor<f16, "l1", "NZ", "(128,256)">"#;
    let l1b = r#"!layout.tensor<f16, "l1", "NZ", "(256,128)">"#;
    let l0a = r#"!layout.tensor<f16, "l0a", "ZZ", "(128,64)">"#;
    let l0b = r#"!layout.tensor<f16, "l0b", "ZN", "(64,128)">"#;
    let l0c = r#"!layout.tensor<f32, "l0c", "NZ", "(128,128)">"#;
    let t16 = r#"!layout.tensor<f16, "gm", "(?,?):(?,?)", "(?,?)">"#;
    let t32 = r#"!layout.tensor<f32, "gm", "(?,?):(?,?)", "(?,?)">"#;
    let l1t = r#"!layout.tensor<f16, "l1", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">"#;
    // The written views of the L1 -> L0 loads (R1: the matmul reads what they wrote).
    let l0at = r#"!layout.tensor<f16, "l0a", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">"#;
    let l0bt = r#"!layout.tensor<f16, "l0b", "((?,?),(?,?)):((?,?),(?,?))", "(?,?)">"#;
    format!(
        r#"module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @gemm_ctrl(%A: memref<?x256xf16>, %B: memref<256x?xf16>, %C: memref<?x?xf32>, %M: index, %N: index) attributes {{llvm.emit_c_interface}} {{
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    %c128 = arith.constant 128 : index
    %c256 = arith.constant 256 : index
    %ga = "layout.view"(%A, %M) : (memref<?x256xf16>, index) -> {gm_a}
    %gb = "layout.view"(%B, %N) : (memref<256x?xf16>, index) -> {gm_b}
    %gc = "layout.view"(%C, %M, %N) : (memref<?x?xf32>, index, index) -> {gm_c}
    %a1 = "layout.alloc"() : () -> {l1a}
    %b1 = "layout.alloc"() : () -> {l1b}
    %a0 = "layout.alloc"() : () -> {l0a}
    %b0 = "layout.alloc"() : () -> {l0b}
    %acc = "layout.alloc"() : () -> {l0c}
    scf.for %m0 = %c0 to %M step %c128 {{
      %ta = "layout.tile"(%ga, %m0, %c0) {{shape = array<i64: 128, 256>}} : ({gm_a}, index, index) -> {t16}
      %a1v = "layout.load"(%ta, %a1) : ({t16}, {l1a}) -> {l1t}
      scf.for %n0 = %c0 to %N step %c128 {{
        %tb = "layout.tile"(%gb, %c0, %n0) {{shape = array<i64: 256, 128>}} : ({gm_b}, index, index) -> {t16}
        %b1v = "layout.load"(%tb, %b1) : ({t16}, {l1b}) -> {l1t}
        %kend = scf.for %k = %c0 to %c256 step %c64 iter_args(%kk = %c0) -> (index) {{
          %a1k = "layout.tile"(%a1v, %c0, %kk) {{shape = array<i64: 128, 64>}} : ({l1t}, index, index) -> {l1t}
          %b1k = "layout.tile"(%b1v, %kk, %c0) {{shape = array<i64: 64, 128>}} : ({l1t}, index, index) -> {l1t}
          %a0v = "layout.load"(%a1k, %a0) : ({l1t}, {l0a}) -> {l0at}
          %b0v = "layout.load"(%b1k, %b0) : ({l1t}, {l0b}) -> {l0bt}
          %first = arith.cmpi eq, %k, %c0 : index
          scf.if %first {{
            "layout.matmul"(%a0v, %b0v, %acc) {{accumulate = false}} : ({l0at}, {l0bt}, {l0c}) -> ()
          }} else {{
            "layout.matmul"(%a0v, %b0v, %acc) {{accumulate = true}} : ({l0at}, {l0bt}, {l0c}) -> ()
          }}
          %next = arith.addi %kk, %c64 : index
          scf.yield %next : index
        }}
        %tc = "layout.tile"(%gc, %m0, %n0) {{shape = array<i64: 128, 128>}} : ({gm_c}, index, index) -> {t32}
        "layout.store"(%acc, %tc) : ({l0c}, {t32}) -> ()
      }}
    }}
    return
  }}
}}"#
    )
}

#[test]
fn control_flow_gemm_if_iter_args_nested_dynamic_loops() {
    let source = control_flow_gemm_kernel();
    for (run, (m, n)) in [(200usize, 150usize), (128, 300)].into_iter().enumerate() {
        let k = 256;
        let mut rng = Rng::new(90 + run as u64);
        let a = rng.array(ElemType::F16, &[m, k]);
        let b = rng.array(ElemType::F16, &[k, n]);
        let c = Array::zeros(ElemType::F32, &[m, n]);
        let want = Gemm { m, n, k, b_dn: false }.reference(&a, &b);
        let name = format!("gemm_ctrl_{run}");
        let case = Case {
            sanitize: run::checks::ALL,
            name: &name,
            func: "gemm_ctrl",
            source: source.clone(),
            target: "a2",
            inputs: vec![a, b, c],
            scalars: vec![m as i64, n as i64],
            outputs: vec![2],
        };
        let got = three_ways(&case);
        assert_eq!(values(&got[0]), want, "{name}: result differs from the reference");
    }
    // The emitted forms carry the control flow itself (not a pre-evaluated trace).
    let context = layout_runtime::create_context().unwrap();
    let module = lower(&context, &source);
    let cpp = ascendc_emit::emit_cpp(&module).unwrap();
    for want in
        ["const bool cond = i2 == 0;", "if (cond) {", "} else {", "int64_t v", "for (int64_t i1 = 0; i1 < arg4;"]
    {
        assert!(cpp.contains(want), "missing `{want}` in\n{cpp}");
    }
    let llvm = ascendc_emit::emit_llvm_mlir(&module).unwrap();
    for want in ["arith.cmpi eq", "scf.if %cond", "iter_args("] {
        assert!(llvm.contains(want), "missing `{want}` in\n{llvm}");
    }
}

/// A copy whose GM → L1 load happens in one branch or the other: the MTE2 → MTE3 flag of the
/// store is set after the `scf.if`, so it is set on both paths. The branch is chosen by an
/// `scf.if` index result compared again (and an `arith.select` picks the else corner), so a
/// wrong yield or select reads another corner. (Each load reads a constant corner through a
/// whole tile: a load at a run-time corner could be clipped, and `layout-verify` R1 could not
/// prove that the store reads only what it wrote.)
fn branch_copy_kernel() -> String {
    let gm = r#"!layout.tensor<f16, "gm", "ND", "(64,64)">"#;
    let whole = r#"!layout.tensor<f16, "gm", "(32,32):(64,1)", "(32,32)">"#;
    let l1 = r#"!layout.tensor<f16, "l1", "NZ", "(32,32)">"#;
    let out = r#"!layout.tensor<f16, "gm", "NZ", "(32,32)">"#;
    format!(
        r#"module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @branch_copy(%A: memref<4096xf16>, %O: memref<1024xf16>, %flip: index) attributes {{llvm.emit_c_interface}} {{
    %c0 = arith.constant 0 : index
    %c32 = arith.constant 32 : index
    %ga = "layout.view"(%A) : (memref<4096xf16>) -> {gm}
    %go = "layout.view"(%O) : (memref<1024xf16>) -> {out}
    %a1 = "layout.alloc"() : () -> {l1}
    %p = arith.cmpi ne, %flip, %c0 : index
    %row = scf.if %p -> (index) {{
      scf.yield %c32 : index
    }} else {{
      scf.yield %c0 : index
    }}
    %col = arith.select %p, %c0, %c32 : index
    %q = arith.cmpi ult, %col, %row : index
    scf.if %q {{
      %t = "layout.tile"(%ga, %c32, %c0) {{shape = array<i64: 32, 32>}} : ({gm}, index, index) -> {whole}
      "layout.load"(%t, %a1) : ({whole}, {l1}) -> ()
    }} else {{
      %u = "layout.tile"(%ga, %c32, %c32) {{shape = array<i64: 32, 32>}} : ({gm}, index, index) -> {whole}
      "layout.load"(%u, %a1) : ({whole}, {l1}) -> ()
    }}
    "layout.store"(%a1, %go) : ({l1}, {out}) -> ()
    return
  }}
}}"#
    )
}

#[test]
fn branch_results_select_and_a_load_in_each_branch() {
    let nz = |r: usize, c: usize| (r % 16) * 16 + (r / 16) * 256 + (c % 16) + (c / 16) * 512;
    let a = Rng::new(95).array(ElemType::F16, &[64 * 64]);
    // flip ≠ 0: row = 32, col = 0, so col < row and the then branch loads (32, 0); flip = 0:
    // row = 0, col = 32 and the else branch loads (32, 32). A wrong branch, a swapped select or
    // a wrong yield each read another corner.
    for (flip, corner) in [(1i64, (32usize, 0usize)), (0, (32, 32)), (7, (32, 0))] {
        let name = format!("branch_copy_{flip}");
        let case = Case {
            sanitize: run::checks::ALL,
            name: &name,
            func: "branch_copy",
            source: branch_copy_kernel(),
            target: "a2",
            inputs: vec![a.clone(), Array::zeros(ElemType::F16, &[1024])],
            scalars: vec![flip],
            outputs: vec![1],
        };
        let got = three_ways(&case);
        for r in 0..32 {
            for c in 0..32 {
                let want = a.get_f64((corner.0 + r) * 64 + corner.1 + c);
                assert_eq!(got[0].get_f64(nz(r, c)), want, "{name}: ({r},{c})");
            }
        }
    }
}

/// Two index `iter_args` swapped every iteration (`scf.yield %c, %r`) as the corner of the
/// copied tile, over a loop with a dynamic bound: after `n` iterations the output holds the tile
/// at (32, 0) for even `n` and (0, 32) for odd `n`. Assigning the carried variables one after
/// the other (`r = c; c = r;`) would leave both at 32.
fn swap_copy_kernel() -> String {
    let gm = r#"!layout.tensor<f16, "gm", "ND", "(64,64)">"#;
    let tile = r#"!layout.tensor<f16, "gm", "(32,32):(64,1)", "(?,?)">"#;
    let l1 = r#"!layout.tensor<f16, "l1", "NZ", "(32,32)">"#;
    // The written view of the load (the tile at a carried corner may be clipped).
    let l1w = r#"!layout.tensor<f16, "l1", "((16,2),(16,2)):((16,256),(1,512))", "(?,?)">"#;
    let out = r#"!layout.tensor<f16, "gm", "NZ", "(32,32)">"#;
    format!(
        r#"module attributes {{layout.target = #layout.target<"a2">}} {{
  func.func @swap_copy(%A: memref<4096xf16>, %O: memref<1024xf16>, %n: index) attributes {{llvm.emit_c_interface}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c32 = arith.constant 32 : index
    %ga = "layout.view"(%A) : (memref<4096xf16>) -> {gm}
    %go = "layout.view"(%O) : (memref<1024xf16>) -> {out}
    %a1 = "layout.alloc"() : () -> {l1}
    %rc:2 = scf.for %i = %c0 to %n step %c1 iter_args(%r = %c0, %c = %c32) -> (index, index) {{
      %t = "layout.tile"(%ga, %r, %c) {{shape = array<i64: 32, 32>}} : ({gm}, index, index) -> {tile}
      %w = "layout.load"(%t, %a1) : ({tile}, {l1}) -> {l1w}
      "layout.store"(%w, %go) : ({l1w}, {out}) -> ()
      scf.yield %c, %r : index, index
    }}
    return
  }}
}}"#
    )
}

#[test]
fn swapped_iter_args_over_a_dynamic_loop() {
    let nz = |r: usize, c: usize| (r % 16) * 16 + (r / 16) * 256 + (c % 16) + (c / 16) * 512;
    let a = Rng::new(97).array(ElemType::F16, &[64 * 64]);
    for n in [1usize, 2, 3] {
        let corner = if n % 2 == 1 { (0, 32) } else { (32, 0) };
        let name = format!("swap_copy_{n}");
        let case = Case {
            sanitize: run::checks::ALL,
            name: &name,
            func: "swap_copy",
            source: swap_copy_kernel(),
            target: "a2",
            inputs: vec![a.clone(), Array::zeros(ElemType::F16, &[1024])],
            scalars: vec![n as i64],
            outputs: vec![1],
        };
        let got = three_ways(&case);
        for r in 0..32 {
            for c in 0..32 {
                let want = a.get_f64((corner.0 + r) * 64 + corner.1 + c);
                assert_eq!(got[0].get_f64(nz(r, c)), want, "{name}: ({r},{c})");
            }
        }
    }
}

/// The ops of one f16 GEMM (a2, B row-major) on the memrefs `%A{s}`, `%B{s}`, `%C{s}`, with its own
/// buffers: C (m x n, f32) = A (m x k) x B (k x n).
fn gemm_ops(s: &str, m: usize, n: usize, k: usize) -> String {
    let ta1 = format!(r#"!layout.tensor<f16, "l1", "NZ", "({m},{k})">"#);
    let tb1 = format!(r#"!layout.tensor<f16, "l1", "NZ", "({k},{n})">"#);
    let ta0 = format!(r#"!layout.tensor<f16, "l0a", "ZZ", "({m},{k})">"#);
    let tb0 = format!(r#"!layout.tensor<f16, "l0b", "ZN", "({k},{n})">"#);
    let tc0 = format!(r#"!layout.tensor<f32, "l0c", "NZ", "({m},{n})">"#);
    let (ga, gb, gc) = (
        format!(r#"!layout.tensor<f16, "gm", "ND", "({m},{k})">"#),
        format!(r#"!layout.tensor<f16, "gm", "ND", "({k},{n})">"#),
        format!(r#"!layout.tensor<f32, "gm", "ND", "({m},{n})">"#),
    );
    let (ma, mb, mc) = (m * k, k * n, m * n);
    format!(
        r#"    %ga{s} = "layout.view"(%A{s}) : (memref<{ma}xf16>) -> {ga}
    %gb{s} = "layout.view"(%B{s}) : (memref<{mb}xf16>) -> {gb}
    %gc{s} = "layout.view"(%C{s}) : (memref<{mc}xf32>) -> {gc}
    %a1{s} = "layout.alloc"() : () -> {ta1}
    %b1{s} = "layout.alloc"() : () -> {tb1}
    %a0{s} = "layout.alloc"() : () -> {ta0}
    %b0{s} = "layout.alloc"() : () -> {tb0}
    %c0{s} = "layout.alloc"() : () -> {tc0}
    "layout.load"(%ga{s}, %a1{s}) : ({ga}, {ta1}) -> ()
    "layout.load"(%gb{s}, %b1{s}) : ({gb}, {tb1}) -> ()
    "layout.load"(%a1{s}, %a0{s}) : ({ta1}, {ta0}) -> ()
    "layout.load"(%b1{s}, %b0{s}) : ({tb1}, {tb0}) -> ()
    "layout.matmul"(%a0{s}, %b0{s}, %c0{s}) {{accumulate = false}} : ({ta0}, {tb0}, {tc0}) -> ()
    "layout.store"(%c0{s}, %gc{s}) : ({tc0}, {gc}) -> ()
"#
    )
}

/// Two GEMMs in sequence in one function (issue 11 item 6): the second one's buffers are live
/// only after the first one's are dead, so placement gives them the same addresses (the C++
/// allocates them with a fresh allocator from 0), and the sync pass orders the second one's
/// writes after the first one's reads of the shared bytes. Both products are checked three
/// ways and against the reference.
#[test]
fn two_sequential_gemms_share_their_buffers() {
    let (g1, g2) = (Gemm { m: 40, n: 24, k: 56, b_dn: false }, Gemm { m: 32, n: 48, k: 64, b_dn: false });
    let memref = |e: &str, len: usize| format!("memref<{len}x{e}>");
    let args: Vec<String> = [("1", &g1), ("2", &g2)]
        .iter()
        .flat_map(|(s, g)| {
            [
                format!("%A{s}: {}", memref("f16", g.m * g.k)),
                format!("%B{s}: {}", memref("f16", g.k * g.n)),
                format!("%C{s}: {}", memref("f32", g.m * g.n)),
            ]
        })
        .collect();
    let source = format!(
        "module attributes {{layout.target = #layout.target<\"a2\">}} {{\n  func.func @two_gemms({}) attributes {{llvm.emit_c_interface}} {{\n{}{}    return\n  }}\n}}\n",
        args.join(", "),
        gemm_ops("1", g1.m, g1.n, g1.k),
        gemm_ops("2", g2.m, g2.n, g2.k)
    );
    let mut rng = Rng::new(99);
    let mut inputs = Vec::new();
    let mut wants = Vec::new();
    for g in [&g1, &g2] {
        let a = rng.array(ElemType::F16, &[g.m * g.k]);
        let b = rng.array(ElemType::F16, &[g.k * g.n]);
        wants.push(g.reference(&a, &b));
        inputs.extend([a, b, Array::zeros(ElemType::F32, &[g.m * g.n])]);
    }
    let case = Case {
        // initcheck off: the model keeps "written" bits per buffer, and these buffers share bytes
        // (the point of the test), so a read through one sees the bits of the other.
        sanitize: KNOWN_UNWRITTEN_READS,
        name: "two_gemms",
        func: "two_gemms",
        source: source.clone(),
        target: "a2",
        inputs,
        scalars: vec![],
        outputs: vec![2, 5],
    };
    let got = three_ways(&case);
    assert_eq!(values(&got[0]), wants[0], "first GEMM");
    assert_eq!(values(&got[1]), wants[1], "second GEMM");
    // The addresses: the second GEMM's buffers start at byte 0 of each memory again, where the
    // first one's (dead by then) were; bump allocation would have put its A1 at 6144 + 3072 * 2.
    let context = layout_runtime::create_context().unwrap();
    let kernel = ascendc_emit::kernel::kernels(&lower(&context, &source)).unwrap().remove(0);
    let offsets: Vec<(String, i64)> =
        kernel.bufs.iter().filter_map(|b| b.local.as_ref().map(|(p, o, _)| (p.clone(), *o))).collect();
    let bytes: Vec<i64> = offsets.iter().map(|(_, o)| *o).collect();
    // A1 40x56 f16 is NZ 48x64: 6144 B; A1 32x64: 4096 B.
    assert_eq!(bytes, [0, 6144, 0, 0, 0, 0, 4096, 0, 0, 0], "{offsets:?}");
}
