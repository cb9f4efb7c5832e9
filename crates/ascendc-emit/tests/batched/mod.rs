//! Batched GEMM (examples/batched_gemm.mlir, issue 11 item 8): C[b] = A[b] × B[b] over a loop
//! on the batch coordinate, each matrix tiled from a GM batch form with a batch extent of 1.
//! Every variant (target × input type × A layout × B layout) runs on the three back ends — g++
//! on the emitted C++ with the CPU model, the emitted LLVM form on the model, the loop
//! lowering's JIT — with on-chip memory poisoned and every sanitizer check (memcheck,
//! initcheck, synccheck), and must equal the plain-loop reference below exactly (C starts as
//! garbage: every element must be written). Tails in M, N and K: 32 × 32 blocks of C and
//! 32-wide K slices for M = 40, N = 33, K = 70, NB = 3.

use super::{elem, run_loops, try_cpp, try_llvm, Case};
use ascendc_emit::run;
use layout_npy::random::Rng;
use layout_runtime::Array;

const NB: usize = 3;
const M: usize = 40;
const N: usize = 33;
const K: usize = 70;

#[derive(Clone, Copy, Debug)]
struct Variant {
    target: &'static str,
    ab: &'static str,
    /// Each matrix of A stored column-major (batch form DN) in GM; likewise B.
    a_dn: bool,
    b_dn: bool,
}

impl Variant {
    fn name(&self) -> String {
        let l = |dn: bool| if dn { "dn" } else { "nd" };
        format!("bgemm_{}_{}_a{}_b{}", self.target, self.ab, l(self.a_dn), l(self.b_dn))
    }

    /// examples/batched_gemm.mlir with the types, GM and L1 layouts, the target's L0A layout
    /// and 32 × 32 blocks / 32-wide K slices substituted.
    fn kernel(&self) -> String {
        let example = std::fs::read_to_string(format!("{}/batched_gemm.mlir", super::EXAMPLES)).unwrap();
        let (ga, la) = if self.a_dn { ("DN", super::dynamic_k::l1_a_dn(self.target, self.ab)) } else { ("ND", "NZ") };
        let (gb, lb) = if self.b_dn { ("DN", "ZN") } else { ("ND", super::dynamic_k::l1_b_nd(self.target, self.ab)) };
        let l0a = if self.target == "a5" { "NZ" } else { "ZZ" };
        let name = self.name();
        let pairs = [
            (r#"!gmA = !layout.tensor<f16, "gm", "ND""#, format!(r#"!gmA = !layout.tensor<f16, "gm", "{ga}""#)),
            (r#"!gmB = !layout.tensor<f16, "gm", "ND""#, format!(r#"!gmB = !layout.tensor<f16, "gm", "{gb}""#)),
            (r#"!l1A = !layout.tensor<f16, "l1", "NZ""#, format!(r#"!l1A = !layout.tensor<f16, "l1", "{la}""#)),
            (r#"!l1B = !layout.tensor<f16, "l1", "NZ""#, format!(r#"!l1B = !layout.tensor<f16, "l1", "{lb}""#)),
            (r#""l0a", "ZZ""#, format!(r#""l0a", "{l0a}""#)),
            (r#"#layout.target<"a2">"#, format!(r#"#layout.target<"{}">"#, self.target)),
            ("@batched_gemm", format!("@{name}")),
            ("1, 128, 64", "1, 32, 32".into()),
            ("1, 64, 256", "1, 32, 32".into()),
            ("1, 128, 256", "1, 32, 32".into()),
            ("(128,64)", "(32,32)".into()),
            ("(64,256)", "(32,32)".into()),
            ("(128,256)", "(32,32)".into()),
            ("arith.constant 64 :", "arith.constant 32 :".into()),
            ("arith.constant 128 :", "arith.constant 32 :".into()),
            ("arith.constant 256 :", "arith.constant 32 :".into()),
        ];
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(a, b)| (*a, b.as_str())).collect();
        // The input type last: it also renames the f16 of the template's other types.
        super::substituted(&example, "examples/batched_gemm.mlir", &pairs).replace("f16", self.ab)
    }

    /// C[b] = A[b] × B[b] on logical indices, summed in f64 (exact for the generator's values):
    /// the batch forms' addresses written out here, independently of the layout algebra.
    fn reference(&self, a: &Array, b: &Array) -> Vec<f64> {
        let mut c = vec![0.0; NB * M * N];
        for p in 0..NB {
            for i in 0..M {
                for j in 0..N {
                    let mut s = 0.0;
                    for k in 0..K {
                        let x =
                            if self.a_dn { a.get_f64(p * M * K + k * M + i) } else { a.get_f64(p * M * K + i * K + k) };
                        let y =
                            if self.b_dn { b.get_f64(p * K * N + j * K + k) } else { b.get_f64(p * K * N + k * N + j) };
                        s += x * y;
                    }
                    c[p * M * N + i * N + j] = s;
                }
            }
        }
        c
    }

    /// The AscendC back end's located error for the variants it cannot lower (the transposing
    /// L1 -> L0 loads of 32-bit operands on a5: docs/ascendc-derivation.md §5), `None` when
    /// exact. On a2 f32 A DN lands in L1 NN and B ND in L1 ZZ, which the 32-bit
    /// `LoadDataWithTranspose` reads (§6.1).
    fn unsupported(&self) -> Option<(&'static str, &'static str)> {
        match (self.target, self.ab, self.a_dn, self.b_dn) {
            ("a5", "f32", true, _) => Some(("%a0v", "ZN → NZ for f32 needs a transposing load")),
            ("a5", "f32", false, false) => Some(("%b0v", "NZ → ZN for f32 needs a transposing load")),
            _ => None,
        }
    }
}

/// Runs one variant: `Err` is the AscendC lowering's diagnostics for an unsupported one.
fn run_variant(v: Variant) -> Result<(), String> {
    let (name, source) = (v.name(), v.kernel());
    let context = layout_runtime::create_context().unwrap();
    let mut module = melior::ir::Module::parse(&context, &source).expect("parse");
    super::dynamic_k::lowered(&context, &mut module)?;
    let mut rng = Rng::new(11);
    let ty = elem(v.ab);
    let a = rng.array(ty, &if v.a_dn { [NB, K, M] } else { [NB, M, K] });
    let b = rng.array(ty, &if v.b_dn { [NB, N, K] } else { [NB, K, N] });
    let c = rng.array(elem("f32"), &[NB, M, N]);
    let want = v.reference(&a, &b);
    let case = Case {
        name: &name,
        func: &name,
        source: source.clone(),
        target: v.target,
        inputs: vec![a, b, c],
        scalars: vec![NB as i64, M as i64, N as i64, K as i64],
        outputs: vec![2],
        sanitize: run::checks::ALL,
    };
    let via_cpp = try_cpp(&module, &case, case.sanitize).unwrap_or_else(|e| panic!("{name}: C++ + model: {e}"));
    let via_llvm =
        try_llvm(&context, &module, &case, case.sanitize).unwrap_or_else(|e| panic!("{name}: LLVM form + model: {e}"));
    let via_loops = run_loops(&context, &source, &name, &case.inputs, &case.scalars, true);
    for (way, got) in
        [("g++ + model", &via_cpp[2]), ("LLVM form + model", &via_llvm[2]), ("loop lowering", &via_loops[2])]
    {
        if let Some(e) = (0..want.len()).find(|&e| got.get_f64(e) != want[e]) {
            let (p, i, j) = (e / (M * N), e / N % M, e % N);
            panic!("{name}: {way}: C[{p}][{i}][{j}] = {} but the reference is {}", got.get_f64(e), want[e]);
        }
    }
    Ok(())
}

/// Every variant: exact on all three back ends, or the located error of the table above at the
/// load it names (on every back end that rejects it: the loop lowering accepts all of them).
#[test]
fn batched_gemm_is_exact_on_every_back_end() {
    let mut exact = Vec::new();
    for target in ["a2", "a5"] {
        for ab in ["f16", "f32"] {
            for (a_dn, b_dn) in [(false, false), (false, true), (true, false), (true, true)] {
                let v = Variant { target, ab, a_dn, b_dn };
                let got = run_variant(v);
                match (v.unsupported(), got) {
                    (None, Ok(())) => exact.push(v.name()),
                    (None, Err(e)) => panic!("{}: not lowered: {e}", v.name()),
                    (Some((load, what)), Err(e)) => {
                        let source = v.kernel();
                        let at = format!("{load} = \"layout.load\"");
                        let line = source.lines().position(|l| l.trim_start().starts_with(&at)).unwrap() + 1;
                        assert!(e.contains(&format!(":{line}:")) && e.contains(what), "{}: {e}", v.name());
                    }
                    (Some(_), Ok(())) => panic!("{}: lowered, but the table says it is unsupported", v.name()),
                }
            }
        }
    }
    // f16: all 4 layout pairs on both targets; f32: all 4 on a2 (L1 NN / ZZ for the
    // transposing 32-bit loads), A ND, B DN on a5 (no transposing 32-bit load emitted there).
    assert_eq!(exact.len(), 13, "{exact:?}");
}

/// A batch count past the buffers (NB = 4 with 3 matrices in each GM buffer): matrix 3 lies
/// outside them. No back end reads or writes there silently: the loop lowering's view check
/// rejects the call, and the model's memcheck reports the first copy that leaves argument #0.
#[test]
fn a_batch_past_the_buffers_is_reported_on_every_back_end() {
    let v = Variant { target: "a2", ab: "f16", a_dn: false, b_dn: false };
    let (name, source) = (v.name(), v.kernel());
    let context = layout_runtime::create_context().unwrap();
    let mut module = melior::ir::Module::parse(&context, &source).expect("parse");
    super::dynamic_k::lowered(&context, &mut module).unwrap();
    let mut rng = Rng::new(12);
    let inputs = vec![
        rng.array(elem("f16"), &[NB, M, K]),
        rng.array(elem("f16"), &[NB, K, N]),
        rng.array(elem("f32"), &[NB, M, N]),
    ];
    let case = Case {
        name: &name,
        func: &name,
        source: source.clone(),
        target: v.target,
        inputs,
        scalars: vec![NB as i64 + 1, M as i64, N as i64, K as i64],
        outputs: vec![2],
        sanitize: run::checks::MEM,
    };
    let load = source.lines().position(|l| l.trim_start().starts_with("%a1v = \"layout.load\"")).unwrap() + 1;
    let cpp = try_cpp(&module, &case, case.sanitize).expect_err("C++ + model: no memcheck report").to_string();
    let llvm = try_llvm(&context, &module, &case, case.sanitize)
        .expect_err("LLVM form + model: no memcheck report")
        .to_string();
    for (way, e) in [("C++ + model", &cpp), ("LLVM form + model", &llvm)] {
        assert!(e.contains(&format!(":{load}:")), "{way}: not at the first load of A: {e}");
        assert!(
            e.contains("memcheck: DataCopy(Nd2NzParams)") && e.contains("past the end of GM argument #0"),
            "{way}: {e}"
        );
    }
    let mut loops = melior::ir::Module::parse(&context, &source).unwrap();
    layout_runtime::lower_layout_ops(&mut loops).unwrap();
    let jit = layout_runtime::Jit::new(&loops).unwrap();
    let mut arrays = case.inputs.clone();
    let e =
        jit.call(&name, &mut super::args(&mut arrays, &case.scalars)).expect_err("loops: no view check").to_string();
    assert!(e.contains("error: layout.view of argument #0"), "loop lowering: {e}");
}
