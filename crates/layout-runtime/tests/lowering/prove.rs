//! The address proofs (issue 15 item 3, `layout_runtime::address_proof`): every lowered address
//! equals the algebra's `crd_to_offset` for all sizes in `[0, 2^31)`, with no `i64` overflow.
//! `LAYOUT_PROVE_FULL=1` (the full mode) gives the solver 120 s per tensor instead of 10 s and
//! proves every kernel of the lit suite, not only those of filecheck/{ops,lower,simplify}.

use std::time::Instant;

use index_simplify::smt::encode::Theory;
use layout_runtime::address_proof::accesses::{self, prove_accesses, prove_accesses_with};
use layout_runtime::address_proof::{
    prove_addresses, prove_addresses_with, AddressProofOptions, AddressProofReport, AddressVerdict, ALGEBRA, LOWERED,
};
use layout_runtime::create_context;

use super::{
    parse, simplify_then_drop_kernel_nz_column_masks, simplify_then_drop_nz_column_masks, OBSERVE_ON_CHIP,
    TILED_NZ_COPY,
};

fn full_mode() -> bool {
    std::env::var_os("LAYOUT_PROVE_FULL").is_some()
}

fn options() -> AddressProofOptions {
    if full_mode() {
        AddressProofOptions::full()
    } else {
        AddressProofOptions::fast()
    }
}

fn prove_file(path: &std::path::Path) -> AddressProofReport {
    prove_file_with(path, &options())
}

fn prove_file_with(path: &std::path::Path, opts: &AddressProofOptions) -> AddressProofReport {
    let text = std::fs::read_to_string(path).unwrap();
    let context = create_context().unwrap();
    let module = parse(&context, &text);
    prove_addresses(&module, opts).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The sizes of a batch form multiply into one address (`b · M · K`): at `[0, 2^31)` each it
/// leaves `i64`, so `examples/batched_gemm.mlir` is proven for sizes in `[0, 2^20)`.
const BATCH_SIZE_LIMIT: i64 = 1 << 20;

/// At the default range the batched GEMM's addresses are not proven (they overflow), at
/// [`BATCH_SIZE_LIMIT`] every one is: the prover sees the overflow, not only wrong formulas.
#[test]
fn the_batched_gemm_overflows_at_2_31_and_is_proven_below_2_20() {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/batched_gemm.mlir"));
    let wide = prove_file(path);
    assert!(wide.proven() < wide.tensors.len(), "{wide}");
    let narrow = prove_file_with(path, &AddressProofOptions { size_limit: BATCH_SIZE_LIMIT, ..options() });
    assert!(!narrow.tensors.is_empty() && narrow.proven() == narrow.tensors.len(), "{narrow}");
}

/// Every kernel of examples/*.mlir with layout ops (the two `gemm_reference*` are plain
/// loops): every tensor proven; the figures of docs/index-simplification.md §14 are printed.
#[test]
fn the_example_kernels_addresses_are_proven() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    assert!(files.len() >= 7, "{files:?}");
    let (mut tensors, mut proven, mut kernels) = (0, 0, 0);
    let (mut solver, mut lowering) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    let mut failures = Vec::new();
    for path in &files {
        let start = Instant::now();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let report = if name == "batched_gemm.mlir" {
            prove_file_with(path, &AddressProofOptions { size_limit: BATCH_SIZE_LIMIT, ..options() })
        } else {
            prove_file(path)
        };
        eprintln!("{name}: {report} (total {:.0} ms)", start.elapsed().as_secs_f64() * 1e3);
        if text_has_no_layout_ops(path) {
            assert!(report.tensors.is_empty(), "{name}: {report}");
            continue;
        }
        tensors += report.tensors.len();
        proven += report.proven();
        solver += report.solver_time();
        lowering += report.lowering_time;
        if report.proven() == report.tensors.len() && !report.tensors.is_empty() {
            kernels += 1;
        } else {
            failures.push(format!("{name}: {report}"));
        }
    }
    eprintln!(
        "examples: {kernels} kernels proven, {proven} of {tensors} tensors; solver {:.0} ms, lowering and simplification {:.0} ms",
        solver.as_secs_f64() * 1e3,
        lowering.as_secs_f64() * 1e3
    );
    assert!(kernels >= 5, "{kernels}");
    assert!(failures.is_empty(), "{failures:#?}");
}

fn text_has_no_layout_ops(path: &std::path::Path) -> bool {
    !std::fs::read_to_string(path).unwrap().contains("\"layout.")
}

/// A tile coordinate that is a loop variable (step 32) and an NZ tile with a clipped origin.
#[test]
fn the_tiled_nz_copy_is_proven() {
    let context = create_context().unwrap();
    let module = parse(&context, TILED_NZ_COPY);
    let report =
        prove_addresses_with(&module, OBSERVE_ON_CHIP, &layout_runtime::layout_lowering::simplify_lowered, &options())
            .unwrap();
    assert_eq!(report.tensors.len(), 4, "{report}");
    assert_eq!(report.proven(), 4, "{report}");
}

type Prove = fn(
    &melior::ir::Module,
    layout_passes::verify::Rules,
    &dyn Fn(&mut melior::ir::Module) -> layout_runtime::Result<()>,
    &AddressProofOptions,
) -> layout_runtime::Result<AddressProofReport>;
type Corrupt = fn(&mut melior::ir::Module, &std::cell::Cell<usize>) -> layout_runtime::Result<()>;

/// `prove` on the tiled NZ copy simplified then corrupted by `corrupt`, after checking that
/// something was corrupted and that the proof found at least one counterexample.
fn refuted(prove: Prove, corrupt: Corrupt) -> AddressProofReport {
    let context = create_context().unwrap();
    let module = parse(&context, TILED_NZ_COPY);
    let corrupted = std::cell::Cell::new(0);
    let report = prove(&module, OBSERVE_ON_CHIP, &|m| corrupt(m, &corrupted), &options()).unwrap();
    assert!(corrupted.get() > 0, "no mask to corrupt");
    assert!(report.counterexamples() > 0, "{report}");
    report
}

/// The value of `name` in a counterexample.
fn value(values: &[(String, index_simplify::smt::ModelValue)], name: &str) -> Option<index_simplify::smt::ModelValue> {
    values.iter().find(|(s, _)| s == name).map(|(_, v)| v.clone())
}

/// An injected bug in the lowered code (every `arith.andi %x, 15` of the side functions, the
/// NZ column-in-fractal `x mod 16`, replaced by `%x`) is caught with a counterexample: values
/// at which the lowered address differs from the algebra's.
#[test]
fn a_wrong_lowering_has_a_counterexample() {
    let report = refuted(prove_addresses_with, simplify_then_drop_nz_column_masks);
    for t in &report.tensors {
        if let AddressVerdict::Counterexample(values) = &t.verdict {
            let get = |n: &str| value(values, n);
            assert_ne!(get(LOWERED).unwrap(), get(ALGEBRA).unwrap(), "{report}");
            // The column in the fractal is what the bug drops: the witness has one ≥ 16.
            let column = get("local#1").expect("a local coordinate");
            assert!(column.as_i64().is_some_and(|c| c >= 16), "{report}");
        }
    }
    assert!(report.to_string().contains("counterexample: layout."), "{report}");
}

/// The `.mlir` files under `dir`, recursively, sorted (also read by `prove_ascendc`).
pub(super) fn mlir_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()) {
        let path = entry.path();
        if path.is_dir() {
            mlir_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "mlir") {
            out.push(path);
        }
    }
    out.sort();
}

/// Every kernel of the lit suite (each part of filecheck/**/*.mlir with layout ops, in files
/// without an expected error)
/// that the loop lowering accepts (with the on-chip views of the host-copy rules when the
/// default rules refuse it): every tensor proven.
#[test]
fn the_lit_kernels_addresses_are_proven() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../filecheck"));
    let mut files = Vec::new();
    mlir_files(dir, &mut files);
    let (mut kernels, mut tensors, mut proven, mut not_lowered) = (0, 0, 0, Vec::new());
    let mut failures = Vec::new();
    let start = Instant::now();
    for path in &files {
        let whole = std::fs::read_to_string(path).unwrap();
        if !whole.contains("\"layout.") || whole.contains("expected-error") {
            continue;
        }
        // The fast mode: the op and lowering tests (~10 s); the full mode: every file (~80 s).
        let fast_subset =
            ["ops/", "lower/", "simplify/"].iter().any(|d| path.strip_prefix(dir).unwrap().starts_with(d));
        if !full_mode() && !fast_subset {
            continue;
        }
        // `--split-input-file`: each part is a kernel of its own.
        for (part, text) in whole.split("\n// -----\n").enumerate() {
            let name = format!("{}#{part}", path.strip_prefix(dir).unwrap().display());
            if !text.contains("\"layout.") {
                continue;
            }
            let context = create_context().unwrap();
            let Some(module) = layout_dialect::parse_source(&context, text) else {
                not_lowered.push(name);
                continue;
            };
            let simplify = &layout_runtime::layout_lowering::simplify_lowered;
            let report = prove_addresses(&module, &options())
                .or_else(|_| prove_addresses_with(&module, OBSERVE_ON_CHIP, simplify, &options()));
            let Ok(report) = report else {
                not_lowered.push(name);
                continue;
            };
            eprintln!("{name}: {report}");
            if report.tensors.is_empty() {
                continue;
            }
            kernels += 1;
            tensors += report.tensors.len();
            proven += report.proven();
            if report.proven() != report.tensors.len() {
                failures.push(format!("{name}: {report}"));
            }
        }
    }
    eprintln!(
        "lit kernels: {kernels} kernels, {proven} of {tensors} tensors proven; {} files not lowered by the loop lowering: {not_lowered:?} ({:.1} s)",
        not_lowered.len(),
        start.elapsed().as_secs_f64()
    );
    assert!(kernels >= if full_mode() { 40 } else { 15 }, "{kernels}");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Examples whose access proofs take the solver long, in the full mode only: batched_gemm
/// (13–50 s, proven) and gemm_double_buffer (4–14 s, proven).
const SLOW_ACCESS_PROOFS: [&str; 2] = ["batched_gemm.mlir", "gemm_double_buffer.mlir"];

/// The kernel's own loads and stores (`address_proof::accesses`) of every example kernel with
/// layout ops: every access proven, none left uncovered (gemm_multicore too: its accesses sit
/// under the user's tile swizzle, and are proven under the weakened facts); the figures are
/// printed.
#[test]
fn the_example_kernels_accesses_are_proven() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir") && !text_has_no_layout_ops(p))
        .collect();
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let (mut kernels, mut accesses, mut proven, mut solver) = (0, 0, 0, std::time::Duration::ZERO);
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !full_mode() && SLOW_ACCESS_PROOFS.contains(&name.as_str()) {
            continue;
        }
        let opts = match name.as_str() {
            "batched_gemm.mlir" => AddressProofOptions { size_limit: BATCH_SIZE_LIMIT, ..options() },
            _ => options(),
        };
        let context = create_context().unwrap();
        let module = parse(&context, &std::fs::read_to_string(path).unwrap());
        let report = prove_accesses(&module, &opts).unwrap_or_else(|e| panic!("{name}: {e}"));
        eprintln!("{name}: accesses: {report}");
        kernels += 1;
        accesses += report.tensors.len();
        proven += report.proven();
        solver += report.solver_time();
        if report.tensors.is_empty() || report.proven() != report.tensors.len() || !report.unchecked.is_empty() {
            failures.push(format!("{name}: {report} {:?}", report.unchecked));
        }
    }
    eprintln!(
        "examples: {kernels} kernels, {proven} of {accesses} accesses proven; solver {:.0} ms",
        solver.as_secs_f64() * 1e3
    );
    assert!(kernels >= 4, "{kernels}");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The tiled NZ copy's accesses: the load of the GM tile, the store into the NZ tile and the
/// zero-fill of columns 40..48 (the tile is 48 wide, the origin 40).
#[test]
fn the_tiled_nz_copy_accesses_are_proven() {
    let context = create_context().unwrap();
    let module = parse(&context, TILED_NZ_COPY);
    let simplify = &layout_runtime::layout_lowering::simplify_lowered;
    let report = prove_accesses_with(&module, OBSERVE_ON_CHIP, simplify, &options()).unwrap();
    assert_eq!(report.tensors.len(), 3, "{report}");
    assert_eq!(report.proven(), 3, "{report}");
}

/// The injected `x mod 16 -> x` in the kernel's own code (not a side function) is caught
/// with a counterexample at the access, located at the copy.
#[test]
fn a_wrong_kernel_access_has_a_counterexample() {
    let report = refuted(prove_accesses_with, simplify_then_drop_kernel_nz_column_masks);
    for t in &report.tensors {
        if let AddressVerdict::Counterexample(values) = &t.verdict {
            let get = |n: &str| value(values, n);
            assert_ne!(get(LOWERED).unwrap(), get(ALGEBRA).unwrap(), "{report}");
            assert!(t.tensor.contains("store"), "only the NZ side has the mask: {report}");
            assert!(t.location.as_deref().is_some_and(|l| l.contains(':')), "{report}");
        }
    }
    // The GM side has no mask: its load stays proven.
    assert!(report.tensors.iter().any(|t| t.tensor.starts_with("load") && t.verdict == AddressVerdict::Proven));
}

/// A tile corner carried by `scf.for` iter_args and swapped every iteration
/// (filecheck/ascendc/emit-iter-args.mlir): the GM tile's load and the stores whose guards read
/// the corner are proven — the carried values, which the translation does not read, are free
/// constants, as a user's computed corner is.
#[test]
fn accesses_at_a_corner_carried_by_iter_args_are_proven() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../filecheck/ascendc/emit-iter-args.mlir");
    let context = create_context().unwrap();
    let module = parse(&context, &std::fs::read_to_string(path).unwrap());
    let report = prove_accesses(&module, &options()).unwrap();
    assert_eq!(report.tensors.len(), 5, "{report}");
    assert_eq!(report.proven(), 5, "{report}");
}

/// Whether `op` (a store) writes GM: its memref is not an on-chip buffer (`memref.alloca`)
/// but the collapsed view of an argument.
fn stores_into_gm(op: &melior::ir::OperationRef) -> bool {
    use melior::ir::operation::OperationLike;
    let memref = op.operand(1).ok().and_then(layout_passes::ir::defining_op);
    memref.is_some_and(|m| layout_passes::ir::op_name(&m) == "memref.collapse_shape")
}

/// One store of gemm_multicore redirected (the C tile's store by `layout.store` into GM, one
/// element further): exactly that access has a counterexample, found under the weakened facts
/// and asked again without them (so it is a model of the exact obligation: the two addresses
/// differ by the injected 1), and every other access stays proven.
#[test]
fn a_wrong_multicore_access_has_a_counterexample() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/gemm_multicore.mlir");
    let context = create_context().unwrap();
    let module = parse(&context, &std::fs::read_to_string(path).unwrap());
    let redirected = std::cell::Cell::new(0);
    let simplify_then_redirect = |m: &mut melior::ir::Module| {
        layout_runtime::layout_lowering::simplify_lowered(m)?;
        redirected.set(layout_runtime::address_proof::inject::redirect_stores(m, stores_into_gm, 1));
        Ok(())
    };
    let rules = layout_passes::verify::Rules::default();
    let report = prove_accesses_with(&module, rules, &simplify_then_redirect, &options()).unwrap();
    eprintln!("{report}");
    assert_eq!(redirected.get(), 1, "one GM store");
    assert_eq!(report.counterexamples(), 1, "{report}");
    for t in &report.tensors {
        match &t.verdict {
            AddressVerdict::Counterexample(values) => {
                assert!(t.tensor.starts_with("store by layout.store"), "{report}");
                let (lowered, algebra) = (value(values, LOWERED).unwrap(), value(values, ALGEBRA).unwrap());
                assert_eq!(lowered.as_i64().unwrap() - algebra.as_i64().unwrap(), 1, "{report}");
            }
            verdict => assert_eq!(*verdict, AddressVerdict::Proven, "{}: {report}", t.tensor),
        }
    }
}

/// `(negated, reachable)` over one argument `x` (`ir.arg0`): `facts ∧ ¬claim` and `facts`.
fn one_argument_obligation(facts: &str, claim: &str) -> accesses::Obligation {
    let q = |a: String| index_simplify::smt::Query::new(Theory::Int, vec!["ir.arg0".to_string()], a);
    Ok((q(format!("(and {facts} (not {claim}))")), q(facts.to_string())))
}

/// The weakened facts (`x > 5`) admit `x = 12`, where the claim `x < 10` fails; the exact
/// facts (`5 < x < 8`) do not: proven, not a counterexample. When the exact facts admit one
/// too, the reported model is the exact query's, not the weakened one.
#[test]
fn a_weakened_counterexample_is_asked_again_exactly() {
    let opts = options();
    let (weak, claim) = ("(> |ir.arg0| 5)", "(< |ir.arg0| 10)");
    let weak = || one_argument_obligation(weak, claim);
    let exact = || one_argument_obligation("(and (> |ir.arg0| 5) (< |ir.arg0| 8))", claim);
    assert_eq!(accesses::decide_weakened(weak(), exact, &opts), AddressVerdict::Proven);
    let exact = || one_argument_obligation("(and (> |ir.arg0| 5) (> |ir.arg0| 20))", claim);
    let x = |verdict: AddressVerdict| match verdict {
        AddressVerdict::Counterexample(values) => value(&values, "ir.arg0").and_then(|v| v.as_i64()),
        other => panic!("the exact facts have a counterexample: {other:?}"),
    };
    assert!(x(accesses::decide_weakened(weak(), exact, &opts)).is_some_and(|x| x > 20));
    // A weakened model the exact facts exclude (x = 12 against x > 20) is not reused: the exact
    // query is then asked without the inputs fixed.
    let weak_model = vec![("ir.arg0".to_string(), index_simplify::smt::ModelValue::from(12))];
    assert!(x(accesses::decide_exactly(exact(), &weak_model, &opts)).is_some_and(|x| x > 20));
}
