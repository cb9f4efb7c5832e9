//! The canonical dynamic-K GEMM (examples/gemm_dynamic_k.mlir, issue 11): M, N, K all dynamic,
//! K streamed through L1 in 64-wide slices, tails in all three, every copy read through the view
//! of what it wrote. One template generates every variant (target × input type × A layout × B
//! layout); each runs for every K of [`KS`] on the three back ends — g++ on the emitted C++ with
//! the CPU model, the JIT on the emitted LLVM form, the loop lowering's JIT — with on-chip
//! memory poisoned in all three (0xFF bytes in the model, NaN / INT_MIN in the loop lowering),
//! and must equal the plain-loop reference exactly.
//!
//! Each variant is compiled once (one g++ binary, under the model's sanitizer, runs every K;
//! one JIT per form is called per K).

use super::{call, elem, scratch};
use ascendc_emit::run;
use layout_npy::random::Rng;
use layout_runtime::{Arg, Array, Jit};
use melior::ir::Module;

/// The K values of issue 11: below, at and above one C0 block and one 64-wide slice, and many
/// slices with a tail.
const KS: [usize; 9] = [1, 15, 16, 17, 63, 64, 65, 200, 1000];
/// Small M, N with tails (not multiples of 16; one 64 x 64 block of [`Variant::small_kernel`]).
const M: usize = 33;
const N: usize = 47;

#[derive(Clone, Copy, Debug)]
struct Variant {
    target: &'static str,
    ab: &'static str,
    /// A stored column-major (DN) in GM.
    a_dn: bool,
    /// B stored column-major (DN) in GM.
    b_dn: bool,
    /// The problem's M and N.
    m: usize,
    n: usize,
    /// Double-buffered by `layout-multi-buffer` before every back end.
    double: bool,
}

impl Variant {
    fn acc(&self) -> &'static str {
        if self.ab == "i8" {
            "i32"
        } else {
            "f32"
        }
    }

    fn name(&self) -> String {
        let l = |dn: bool| if dn { "dn" } else { "nd" };
        let db = if self.double { "_db" } else { "" };
        format!("gemm_dk_{}_{}_a{}_b{}_{}x{}{db}", self.target, self.ab, l(self.a_dn), l(self.b_dn), self.m, self.n)
    }

    /// The kernel: examples/gemm_dynamic_k.mlir with the element types, GM layouts and the
    /// target's L0A layout substituted.
    fn kernel(&self) -> String {
        let example = std::fs::read_to_string(format!("{}/gemm_dynamic_k.mlir", super::EXAMPLES)).unwrap();
        let (ga, la) = if self.a_dn { ("DN", l1_a_dn(self.target, self.ab)) } else { ("ND", "NZ") };
        let (gb, lb) = if self.b_dn { ("DN", "ZN") } else { ("ND", l1_b_nd(self.target, self.ab)) };
        let l0a = if self.target == "a5" { "NZ" } else { "ZZ" };
        let replaced = example
            .replace(
                r#"!layout.tensor<f16, "gm", "ND", "(?,?)">
!gmB = !layout.tensor<f16, "gm", "ND", "(?,?)">"#,
                &format!(
                    r#"!layout.tensor<f16, "gm", "{ga}", "(?,?)">
!gmB = !layout.tensor<f16, "gm", "{gb}", "(?,?)">"#
                ),
            )
            .replace(r#"!l1A = !layout.tensor<f16, "l1", "NZ""#, &format!(r#"!l1A = !layout.tensor<f16, "l1", "{la}""#))
            .replace(r#"!l1B = !layout.tensor<f16, "l1", "NZ""#, &format!(r#"!l1B = !layout.tensor<f16, "l1", "{lb}""#))
            .replace(r#""l0a", "ZZ""#, &format!(r#""l0a", "{l0a}""#))
            .replace("f32", self.acc())
            .replace("f16", self.ab)
            .replace(r#"#layout.target<"a2">"#, &format!(r#"#layout.target<"{}">"#, self.target))
            .replace("@gemm_dynamic_k", &format!("@{}", self.name()));
        assert_ne!(replaced, example, "examples/gemm_dynamic_k.mlir changed shape: update the template");
        replaced
    }

    /// [`Self::kernel`] with 64 × 64 blocks of C instead of 128 × 256 (M, N fit in one block,
    /// with tails): the same program, 8 times fewer padded MACs in the model.
    fn small_kernel(&self) -> String {
        let steps = [("step %c128", "step %c64"), ("step %c256", "step %c64")];
        let pairs: Vec<(&str, &str)> = super::SMALL_BLOCKS.iter().chain(&steps).copied().collect();
        super::substituted(&self.kernel(), "examples/gemm_dynamic_k.mlir", &pairs)
    }

    /// C = A × B on logical indices in f64 (exact for the generator's values).
    fn reference(&self, k: usize, a: &Array, b: &Array) -> Vec<f64> {
        let (m, n) = (self.m, self.n);
        let mut c = vec![0.0; m * n];
        for i in 0..m {
            for j in 0..n {
                let mut s = 0.0;
                for kk in 0..k {
                    let x = if self.a_dn { a.get_f64(kk * m + i) } else { a.get_f64(i * k + kk) };
                    let y = if self.b_dn { b.get_f64(j * k + kk) } else { b.get_f64(kk * n + j) };
                    s += x * y;
                }
                c[i * n + j] = s;
            }
        }
        c
    }
}

/// The L1 layout of a column-major (DN) A: ZN (the transposed ND2NZ), or NN for f32 on a2,
/// where the transposing 32-bit L1 -> L0A load pairs fractals that are neighbours along M
/// (docs/ascendc-derivation.md §6.1; the generator's choice too, `GemmSpec::l1_patterns`).
pub(crate) fn l1_a_dn(target: &str, ab: &str) -> &'static str {
    if (target, ab) == ("a2", "f32") {
        "NN"
    } else {
        "ZN"
    }
}

/// The L1 layout of a row-major (ND) B: NZ, or ZZ for f32 on a2 (see [`l1_a_dn`]).
pub(crate) fn l1_b_nd(target: &str, ab: &str) -> &'static str {
    if (target, ab) == ("a2", "f32") {
        "ZZ"
    } else {
        "NZ"
    }
}

/// Inputs, scalars and the reference of one K.
type Cases = Vec<(Vec<Array>, Vec<i64>, Vec<f64>)>;

/// Runs one variant for every K of `ks` on the three back ends; `Err` is the lowering's
/// located error (an unsupported combination).
fn run(v: Variant, ks: &[usize], full: bool) -> Result<(), String> {
    let source = if full { v.kernel() } else { v.small_kernel() };
    let name = v.name();
    let context = layout_runtime::create_context().unwrap();
    let mut module = Module::parse(&context, &source).expect("parse");
    let loops = if full && v.target == "a2" { 1 } else { 2 };
    if v.double {
        multi_buffered(&context, &mut module, loops);
    }
    lowered(&context, &mut module)?;
    let cases: Cases = ks
        .iter()
        .map(|&k| {
            let mut rng = Rng::new(1000 + k as u64);
            // Row-major arrays: A is M x K (ND) or K x M (DN, i.e. A column-major), B likewise.
            let a = rng.array(elem(v.ab), &if v.a_dn { [k, v.m] } else { [v.m, k] });
            let b = rng.array(elem(v.ab), &if v.b_dn { [v.n, k] } else { [k, v.n] });
            // C starts as garbage: the kernel must overwrite every element.
            let c = rng.array(elem(v.acc()), &[v.m, v.n]);
            let want = v.reference(k, &a, &b);
            (vec![a, b, c], vec![v.m as i64, v.n as i64, k as i64], want)
        })
        .collect();
    for ((_, scalars, want), got) in cases.iter().zip(run_cpp_cases(&name, &module, &cases)) {
        assert_exact(&name, (v.n, scalars[2] as usize), "g++ + model", &got, want);
    }

    let text = ascendc_emit::emit_llvm_mlir(&module).expect("llvm form");
    let llvm_module = Module::parse(&context, &text).unwrap();
    let llvm_jit = Jit::new(&llvm_module).unwrap_or_else(|e| panic!("{name}: jit: {e}"));
    // Safety: the model's C ABI functions have exactly the declared signatures.
    unsafe { llvm_jit.register_symbols(&ascendc_params::ffi::c_abi_symbols()) };
    let mut loops_module = Module::parse(&context, &source).unwrap();
    if v.double {
        multi_buffered(&context, &mut loops_module, loops);
    }
    layout_runtime::lower_layout_ops(&mut loops_module).unwrap_or_else(|e| panic!("{name}: loop lowering: {e}"));
    let loops_jit = Jit::new(&loops_module).unwrap_or_else(|e| panic!("{name}: jit (loops): {e}"));
    for (k, (inputs, scalars, want)) in ks.iter().zip(&cases) {
        let via_llvm = call(&llvm_jit, &name, inputs, scalars);
        let via_loops = call(&loops_jit, &name, inputs, scalars);
        for (way, got) in [("LLVM form + model", &via_llvm[2]), ("loop lowering", &via_loops[2])] {
            assert_exact(&name, (v.n, *k), way, got, want);
        }
    }
    Ok(())
}

fn assert_exact(name: &str, (n, k): (usize, usize), way: &str, got: &Array, want: &[f64]) {
    if let Some(i) = (0..want.len()).find(|&i| got.get_f64(i) != want[i]) {
        panic!("{name}, K = {k}: {way}: C[{}][{}] = {} but the reference is {}", i / n, i % n, got.get_f64(i), want[i]);
    }
}

/// Runs `variants` on all three back ends; returns one line per variant (exact, or the
/// located error of an unsupported one).
fn run_all(variants: &[Variant], ks: &[usize], full: bool) -> Vec<(Variant, Result<(), String>)> {
    variants.iter().map(|v| (*v, run(*v, ks, full))).collect()
}

/// `layout-multi-buffer` (issue 12 item 2): the K loop is rewritten, and the loop over the
/// columns of C blocks too where two accumulators fit L0C (`loops` = 2: the 64 × 64 blocks, or
/// 128 × 256 f32 on a5's 256 KiB; not on a2's 128 KiB).
fn multi_buffered(context: &melior::Context, module: &mut Module, loops: usize) {
    context.get_or_load_dialect("scf");
    let rewritten = layout_passes::multi_buffer::multi_buffer(module.as_operation());
    assert!(
        rewritten.as_ref().is_ok_and(|&n| n == loops),
        "layout-multi-buffer: {:?}",
        rewritten.map_err(|e| e.into_iter().map(|(_, e)| e).collect::<Vec<_>>())
    );
}

/// `layout-lower-to-ascendc`, with the diagnostics as the error.
pub(super) fn lowered(context: &melior::Context, module: &mut Module) -> Result<(), String> {
    let diagnostics = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
    let sink = diagnostics.clone();
    let id = context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(format!("{}: {}", d.location(), d));
        true
    });
    let pm = melior::pass::PassManager::new(context);
    pm.add_pass(layout_passes::lower_to_ascendc::create());
    let result = pm.run(module);
    context.detach_diagnostic_handler(id);
    result.map_err(|_| diagnostics.borrow().join("\n"))
}

/// The emitted C++ compiled once (`run::CppKernel`, with every sanitizer check) and run on
/// every case; returns C of each.
fn run_cpp_cases(name: &str, module: &Module, cases: &[(Vec<Array>, Vec<i64>, Vec<f64>)]) -> Vec<Array> {
    let kernel = run::CppKernel::build(module, name, Some(&scratch(name)), run::checks::ALL)
        .unwrap_or_else(|e| panic!("{name}: C++ + model: {e}"));
    cases
        .iter()
        .map(|(inputs, scalars, _)| {
            let mut arrays = inputs.clone();
            let mut args: Vec<Arg> = arrays.iter_mut().map(Arg::MemRef).collect();
            args.extend(scalars.iter().map(|&s| Arg::Index(s)));
            kernel.call(&mut args).unwrap_or_else(|e| panic!("{name}, K = {}: C++ + model: {e}", scalars[2]));
            arrays.swap_remove(2)
        })
        .collect()
}

fn variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for target in ["a2", "a5"] {
        for ab in ["f16", "bf16", "i8", "f32"] {
            for a_dn in [false, true] {
                for b_dn in [false, true] {
                    out.push(Variant { target, ab, a_dn, b_dn, m: M, n: N, double: false });
                }
            }
        }
    }
    out
}

/// The located error the AscendC back end gives for a variant it cannot lower, `None` when the
/// variant must be exact: the first failing op in program order, the L1 -> L0A load of slice 0
/// (`%a0v`) when A needs a transposing load, else the L1 -> L0B one (`%b0v`). The layout dialect
/// and the loop lowering accept all of them; the gaps are the transposing L1 -> L0 loads of
/// 32-bit and 8-bit operands on a5 (a2 f32 loads A DN into L1 NN and B ND into L1 ZZ, which the
/// 32-bit `LoadDataWithTranspose` reads: [`l1_a_dn`]).
fn unsupported(v: &Variant) -> Option<String> {
    let (load, what) = match (v.target, v.ab, v.a_dn, v.b_dn) {
        ("a5", "i8", true, _) => ("%a0v", "LoadData(LoadData2DParamsV2): unsupported: ZN → NZ for i8 needs LoadData2DParamsV2 with ifTranspose on 8-bit squares"),
        ("a5", "i8", false, false) => ("%b0v", "LoadData(LoadData2DParamsV2): unsupported: NZ → ZN for i8 needs LoadData2DParamsV2 with ifTranspose on 8-bit squares"),
        ("a5", "f32", true, _) => ("%a0v", "LoadData(LoadData2DParamsV2): unsupported: ZN → NZ for f32 needs a transposing load"),
        ("a5", "f32", false, false) => ("%b0v", "LoadData(LoadData2DParamsV2): unsupported: NZ → ZN for f32 needs a transposing load"),
        _ => return None,
    };
    let source = v.small_kernel();
    let line =
        source.lines().position(|l| l.trim_start().starts_with(&format!("{load} = \"layout.load\""))).unwrap() + 1;
    Some(format!(":{line}:16): layout-lower-to-ascendc: {what}"))
}

/// Issue 11 item 2: every supported variant exact for every K on all three back ends, every
/// other one rejected with its located error.
#[test]
fn dynamic_k_gemm_matrix() {
    let mut exact = 0;
    for (v, r) in run_all(&variants(), &KS, false) {
        match (r, unsupported(&v)) {
            (Ok(()), None) => exact += 1,
            (Ok(()), Some(e)) => panic!("{}: lowered, but the test expects the error {e}: update the matrix", v.name()),
            (Err(e), None) => panic!("{}: {e}", v.name()),
            (Err(e), Some(want)) => {
                assert!(e.contains(&want), "{}: expected an error containing {want}, got {e}", v.name())
            }
        }
    }
    assert_eq!(exact, 26, "variants exact on all three back ends");
}

/// The example itself (128 × 256 blocks of C): M, N with tails past one block, K with a tail
/// past several slices, on a2 f16 (the `make demo` variant) and a5.
#[test]
fn dynamic_k_gemm_example_blocks() {
    let vs = [
        Variant { target: "a2", ab: "f16", a_dn: false, b_dn: false, m: 150, n: 300, double: false },
        Variant { target: "a5", ab: "bf16", a_dn: true, b_dn: true, m: 150, n: 300, double: false },
    ];
    for (v, r) in run_all(&vs, &[200], true) {
        r.unwrap_or_else(|e| panic!("{}: {e}", v.name()));
    }
}

/// Issue 12 item 2: the double-buffered kernel (`layout-multi-buffer` on the example) exact on
/// all three back ends with the sanitizer on, for K with an even and an odd number of 64-wide
/// slices (1: only the peeled slice; 63, 64: one; 65: two, the loop's `scf.if` false; 200: four;
/// 1000: sixteen), M and N with tails, on a2 and a5; and the example's 128 × 256 blocks.
#[test]
fn double_buffered_gemm_exact_everywhere() {
    const DOUBLE_KS: [usize; 6] = [1, 63, 64, 65, 200, 1000];
    let small = [
        Variant { target: "a2", ab: "f16", a_dn: false, b_dn: false, m: M, n: N, double: true },
        Variant { target: "a5", ab: "bf16", a_dn: true, b_dn: false, m: M, n: N, double: true },
    ];
    for (v, r) in run_all(&small, &DOUBLE_KS, false) {
        r.unwrap_or_else(|e| panic!("{}: {e}", v.name()));
    }
    let full = [
        Variant { target: "a2", ab: "f16", a_dn: false, b_dn: false, m: 150, n: 300, double: true },
        Variant { target: "a5", ab: "f16", a_dn: false, b_dn: true, m: 150, n: 300, double: true },
    ];
    for (v, r) in run_all(&full, &[65, 200], true) {
        r.unwrap_or_else(|e| panic!("{}: {e}", v.name()));
    }
}

/// The SetFlag/WaitFlag count of the emitted C++, per HardEvent, double- vs single-buffered
/// (a2 f16, the example's blocks). Every SetFlag has its WaitFlag. The double-buffered K loop
/// adds exactly what its second slice (under `scf.if`) needs:
/// - inside the `scf.if`, its own slice's pairs: DataCopy → LoadData for A and B (2 ×
///   MTE2_MTE1) and LoadData → Mmad (1 × MTE1_M), as in the first slice;
/// - loop-carried (each a SetFlag in the body plus one before the loop, and their WaitFlags):
///   single-buffered the loop has 3 (LoadData A / B → the next DataCopy into the same L1
///   buffer, MTE1_MTE2 × 2; Mmad → the next LoadData into L0A/L0B, M_MTE1); double-buffered 5:
///   those 3 for the second buffers and, for the `scf.if` as one item, 1 MTE1_MTE2 (its
///   LoadData → its next DataCopy) and 1 M_MTE1 (its Mmad → its next LoadData): 2 SetFlags each.
///
/// Total: 33 SetFlags single-buffered, 40 double-buffered.
/// Nothing else changes: no flag orders slice k's Mmad before slice k + 1's DataCopy (no
/// M_MTE2 at all), and the loop's distinct carried pairs get distinct event ids.
#[test]
fn double_buffered_flag_count() {
    let count = |double: bool| {
        let v = Variant { target: "a2", ab: "f16", a_dn: false, b_dn: false, m: 150, n: 300, double };
        let context = layout_runtime::create_context().unwrap();
        let mut module = Module::parse(&context, &v.kernel()).expect("parse");
        if double {
            multi_buffered(&context, &mut module, 1);
        }
        lowered(&context, &mut module).unwrap();
        let cpp = ascendc_emit::emit_cpp(&module).unwrap();
        let mut per_event = std::collections::BTreeMap::<String, (usize, usize)>::new();
        for (set, call) in
            [(true, "AscendC::SetFlag<AscendC::HardEvent::"), (false, "AscendC::WaitFlag<AscendC::HardEvent::")]
        {
            for piece in cpp.split(call).skip(1) {
                let event = piece.split('>').next().unwrap().to_string();
                let e = per_event.entry(event).or_default();
                if set {
                    e.0 += 1
                } else {
                    e.1 += 1
                }
            }
        }
        assert!(per_event.values().all(|(s, w)| s == w), "{per_event:?}");
        (per_event.into_iter().map(|(e, (s, _))| (e, s)).collect::<std::collections::BTreeMap<_, _>>(), cpp)
    };
    let (single, _) = count(false);
    let (double, cpp) = count(true);
    let delta: Vec<(String, i64)> = double
        .iter()
        .map(|(e, &d)| (e.clone(), d as i64 - single.get(e).copied().unwrap_or(0) as i64))
        .filter(|(_, d)| *d != 0)
        .collect();
    // In-slice pairs of the scf.if: MTE2_MTE1 + 2, MTE1_M + 1; its two carried pairs: MTE1_MTE2
    // and M_MTE1 + 2 each (the SetFlag in the body and the one before the loop).
    let want: Vec<(String, i64)> = [("MTE1_M", 1), ("MTE1_MTE2", 2), ("MTE2_MTE1", 2), ("M_MTE1", 2)]
        .iter()
        .map(|(e, d)| (e.to_string(), *d))
        .collect();
    assert_eq!(delta, want, "single {single:?}, double {double:?}");
    assert_eq!(double.values().sum::<usize>(), 40, "{double:?}");
    assert!(!double.contains_key("M_MTE2"), "{cpp}");
    // The K loop's carried pairs: MTE1_MTE2 ids 3, 4 (second L1 buffers of A, B) and 5 (first
    // buffers, the scf.if), M_MTE1 ids 3 and 4: each buffer its own event id.
    let k_loop = &cpp[cpp.find("for (int64_t i2").unwrap()..];
    for id in [
        "MTE1_MTE2>(EVENT_ID3)",
        "MTE1_MTE2>(EVENT_ID4)",
        "MTE1_MTE2>(EVENT_ID5)",
        "M_MTE1>(EVENT_ID3)",
        "M_MTE1>(EVENT_ID4)",
    ] {
        assert!(k_loop.contains(&format!("WaitFlag<AscendC::HardEvent::{id}")), "{id} in {k_loop}");
    }
}
