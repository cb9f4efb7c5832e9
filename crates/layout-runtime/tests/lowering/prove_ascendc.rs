//! The AscendC path's intrinsic calls, proven (`address_proof::intrinsics`): for every call the
//! AscendC lowering emits (ND2NZ, the NZ block copy, Fixpipe NZ2ND and NZ2NZ, LoadData 2D and
//! V2 static or dynamic, LoadDataWithTranspose, Mmad), the address its element mapping gives
//! for each element of the valid region equals the algebra's `crd_to_offset`, for all sizes in
//! `[0, 2^31)`; an injected wrong field is refuted with a counterexample.

use std::time::{Duration, Instant};

use index_simplify::smt::ModelValue;
use layout_runtime::address_proof::intrinsics::{prove_intrinsics, prove_intrinsics_edited, prove_intrinsics_with};
use layout_runtime::address_proof::{inject, AddressProofOptions, AddressProofReport, AddressVerdict};
use layout_runtime::create_context;
use melior::ir::Module;

use super::parse;
use super::prove::mlir_files;

fn full_mode() -> bool {
    std::env::var_os("LAYOUT_PROVE_FULL").is_some()
}

/// gemm_multicore's calls sit under the user's swizzle (divisions by symbolic tile counts) and
/// a block-strided loop: under the weakening most are proven, but the copies that multiply the
/// tile row `m0` by a size need its range lemma, which times out (docs §14); in the full mode
/// only, where its unknowns are printed.
const SLOW: &str = "gemm_multicore.mlir";

fn example(name: &str) -> String {
    std::fs::read_to_string(format!("{}/../../examples/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

fn prove_text(text: &str, after: &dyn Fn(&Module)) -> AddressProofReport {
    let context = create_context().unwrap();
    let module = parse(&context, text);
    prove_intrinsics_with(&module, after, &AddressProofOptions::fast()).unwrap()
}

/// Each example kernel that the AscendC lowering accepts: every mapped call proven, none
/// refuted; the figures of docs/index-simplification.md §14 are printed.
#[test]
fn the_example_kernels_intrinsic_calls_are_proven() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples"));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    files.sort();
    let (mut kernels, mut calls, mut proven, mut not_covered) = (0, 0, 0, 0);
    let mut solver = Duration::ZERO;
    let mut failures = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        if !text.contains("\"layout.") || (!full_mode() && name == SLOW) {
            continue;
        }
        let context = create_context().unwrap();
        let module = parse(&context, &text);
        let start = Instant::now();
        let report = match prove_intrinsics(&module, &AddressProofOptions::fast()) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{name}: not lowered to AscendC: {e}");
                continue;
            }
        };
        eprintln!("{name}: {report} (total {:.0} ms)", start.elapsed().as_secs_f64() * 1e3);
        for call in &report.unchecked {
            eprintln!("  not covered: {call}");
        }
        kernels += 1;
        calls += report.tensors.len();
        proven += report.proven();
        not_covered += report.unchecked.len();
        solver += report.solver_time();
        // Full mode: gemm_multicore's unknowns are printed; no call may be refuted.
        let unknown_allowed = name == SLOW;
        if report.counterexamples() > 0 || (!unknown_allowed && report.proven() != report.tensors.len()) {
            failures.push(format!("{name}: {report}"));
        }
    }
    eprintln!(
        "examples on the AscendC path: {kernels} kernels, {proven} of {calls} intrinsic calls proven, {not_covered} not covered; solver {:.1} s",
        solver.as_secs_f64()
    );
    assert!(kernels >= if full_mode() { 6 } else { 5 }, "{kernels}");
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(not_covered, 0, "every intrinsic has an element mapping");
}

/// The value of `name` in a counterexample.
fn value(values: &Values, name: &str) -> ModelValue {
    values.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no {name} in {values:?}")).1.clone()
}

/// A wrong field of one call (`delta` added to `field` of the `nth` `op`) is refuted: that call
/// has a counterexample, satisfying `witness`; every other call stays proven.
/// A counterexample's values.
type Values = [(String, ModelValue)];

fn refuted(kernel: &str, op: &str, nth: usize, field: &str, delta: i64, witness: &dyn Fn(&Values)) {
    refuted_in(kernel, &example(kernel), (op, nth, field, delta), witness)
}

/// A lit file's kernel (one without `--split-input-file` parts).
fn lit(path: &str) -> String {
    std::fs::read_to_string(format!("{}/../../filecheck/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// [`refuted`] on the kernel `text` (named `kernel` in messages).
fn refuted_in(kernel: &str, text: &str, (op, nth, field, delta): (&str, usize, &str, i64), witness: &dyn Fn(&Values)) {
    let found = std::cell::Cell::new(false);
    let report = prove_text(text, &|m| found.set(inject::wrong_field(m, op, nth, field, delta)));
    assert!(found.get(), "{kernel}: no {field} on {op} #{nth}");
    eprintln!("{kernel}, {op} #{nth} {field} {delta:+}: {report}");
    let refuted: Vec<_> =
        report.tensors.iter().filter(|t| matches!(t.verdict, AddressVerdict::Counterexample(_))).collect();
    assert_eq!(refuted.len(), 1, "{report}");
    assert_eq!(refuted[0].side_function, op, "{report}");
    assert_eq!(report.proven(), report.tensors.len() - 1, "{report}");
    let AddressVerdict::Counterexample(values) = &refuted[0].verdict else { unreachable!() };
    witness(values);
}

fn differ(values: &Values, who: &str) {
    let (lowered, algebra) = (value(values, &format!("{who}.lowered")), value(values, &format!("{who}.algebra")));
    assert_ne!(lowered, algebra, "{who}: {values:?}");
}

fn int(v: ModelValue) -> i128 {
    v.to_string().parse().unwrap()
}

/// Wrong strides and wrong counts of ND2NZ and Fixpipe, static (tiled_gemm) and dynamic
/// (gemm_dynamic_k's `srcDValue = K` is an index operand), are each refuted with the values.
#[test]
fn a_wrong_intrinsic_field_has_a_counterexample() {
    const ND2NZ: &str = "ascendc.data_copy_nd2nz";
    const FIXPIPE: &str = "ascendc.fixpipe";
    // The GM row stride (source side).
    refuted("tiled_gemm.mlir", ND2NZ, 0, "srcDValue", 1, &|v| differ(v, "src"));
    refuted("gemm_dynamic_k.mlir", ND2NZ, 0, "srcDValue", 1, &|v| differ(v, "src"));
    // The L1 column-block stride (destination side).
    refuted("tiled_gemm.mlir", ND2NZ, 1, "dstNzC0Stride", 1, &|v| differ(v, "dst"));
    // One row too few: the last valid row is not moved.
    refuted("tiled_gemm.mlir", ND2NZ, 0, "nValue", -1, &|v| {
        assert!(int(value(v, "x.row")) >= int(value(v, "f.nValue")), "{v:?}")
    });
    // Fixpipe: the GM row stride and the column count.
    refuted("tiled_gemm.mlir", FIXPIPE, 0, "dstStride", 1, &|v| differ(v, "dst"));
    refuted("gemm_dynamic_k.mlir", FIXPIPE, 0, "nSize", -1, &|v| {
        assert!(int(value(v, "x.col")) >= int(value(v, "f.nSize")), "{v:?}")
    });
    // The L0C column-block stride (source side).
    refuted("tiled_gemm.mlir", FIXPIPE, 0, "srcStride", 1, &|v| differ(v, "src"));
    // LoadData: the source fractal stride, the destination gap, one repeat too few.
    const LOAD: &str = "ascendc.load_data_2d";
    refuted("tiled_gemm.mlir", LOAD, 0, "srcStride", 1, &|v| differ(v, "src"));
    refuted("tiled_gemm.mlir", LOAD, 0, "dstGap", 1, &|v| differ(v, "dst"));
    refuted("tiled_gemm.mlir", LOAD, 0, "repeatTimes", -1, &|v| {
        assert!(int(value(v, "x.col")) >= 16 * int(value(v, "f.repeatTimes")), "{v:?}")
    });
    // LoadData with a dynamic k: repeatTimes = ceil(k/16) of the L0A load is an index operand.
    refuted("gemm_dynamic_k.mlir", LOAD, 0, "repeatTimes", -1, &|v| {
        assert!(int(value(v, "x.col")) >= 16 * int(value(v, "f.repeatTimes")), "{v:?}")
    });
}

/// Mmad: one reduction step too few (static in tiled_gemm, an index operand in
/// gemm_dynamic_k), a wrong m (C's column blocks are ⌈m/16⌉ fractals apart), a wrong A offset.
#[test]
fn a_wrong_mmad_field_has_a_counterexample() {
    const MMAD: &str = "ascendc.mmad";
    // One step too few: either a coordinate at or past the call's k is left out, or the smaller
    // k changes the layout Mmad infers for an operand (A's or B's fractal count along K: with a
    // dynamic k, z3 may give either witness), so some address differs.
    let past_k = |v: &Values| {
        let left_out = int(value(v, "x.k")) >= int(value(v, "f.k"));
        let moved =
            ["a", "b", "c"].iter().any(|w| value(v, &format!("{w}.lowered")) != value(v, &format!("{w}.algebra")));
        assert!(left_out || moved, "{v:?}");
    };
    refuted("tiled_gemm.mlir", MMAD, 0, "k", -1, &past_k);
    refuted("gemm_dynamic_k.mlir", MMAD, 0, "k", -1, &past_k);
    refuted("tiled_gemm.mlir", MMAD, 0, "m", 16, &|v| differ(v, "c"));
    refuted("tiled_gemm.mlir", MMAD, 0, "off1", 1, &|v| differ(v, "a"));
    refuted("tiled_gemm.mlir", MMAD, 0, "off2", 1, &|v| differ(v, "b"));
}

/// Fixpipe NZ2NZ (channel split), the 8-bit LoadDataWithTranspose and the arch-3510
/// LoadData2DParamsV2: a wrong destination
/// block stride, a column count too small, a wrong gap between the halves of a transposed
/// square, a wrong first source square, one square too few (the kernel's one square per call
/// reads neither srcStride nor dstGap).
#[test]
fn a_wrong_nz_store_or_transposing_load_has_a_counterexample() {
    let nz = lit("ascendc/emit-fixpipe-nz.mlir");
    refuted_in("emit-fixpipe-nz", &nz, ("ascendc.fixpipe_nz", 0, "dstStride", 1), &|v| differ(v, "dst"));
    refuted_in("emit-fixpipe-nz", &nz, ("ascendc.fixpipe_nz", 0, "nSize", -8), &|v| {
        assert!(int(value(v, "x.col")) >= int(value(v, "f.nSize")), "{v:?}")
    });
    let i8 = lit("ascendc/emit-load-data-with-transpose-i8.mlir");
    const TRANSPOSE: &str = "ascendc.load_data_with_transpose";
    refuted_in("transpose-i8", &i8, (TRANSPOSE, 0, "dstFracGap", 1), &|v| differ(v, "dst"));
    // (srcStride is not read there: one square per call.)
    refuted_in("transpose-i8", &i8, (TRANSPOSE, 0, "startIndex", 1), &|v| differ(v, "src"));
    refuted_in("transpose-i8", &i8, (TRANSPOSE, 0, "repeatTimes", -1), &|v| {
        assert!(int(value(v, "x.col")) >= 32 * int(value(v, "f.repeatTimes")), "{v:?}")
    });
    // Arch 3510, LoadData2DParamsV2 with ifTranspose (NZ -> ZN): the transposed grid's
    // destination stride, the first source fractal along m, one fractal too few along k.
    let v2 = lit("ascendc/emit-transposing-loads.mlir");
    const V2: &str = "ascendc.load_data_2d_v2";
    refuted_in("transposing-loads", &v2, (V2, 0, "dstStride", 1), &|v| differ(v, "dst"));
    refuted_in("transposing-loads", &v2, (V2, 0, "mStartPosition", 1), &|v| differ(v, "src"));
    refuted_in("transposing-loads", &v2, (V2, 0, "kStep", -1), &|v| {
        assert!(int(value(v, "x.col")) >= 16 * int(value(v, "f.kStep")), "{v:?}")
    });
}

/// Every kernel of the lit suite on the AscendC path (each `--split-input-file` part with
/// layout ops of a file that runs `--layout-lower-to-ascendc`, without an expected error)
/// that the lowering accepts: every mapped call proven; the figures are printed.
#[test]
fn the_lit_kernels_intrinsic_calls_are_proven() {
    let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../../filecheck"));
    let mut files = Vec::new();
    mlir_files(dir, &mut files);
    let (mut kernels, mut calls, mut proven, mut not_covered, mut not_lowered) = (0, 0, 0, 0, Vec::new());
    let mut solver = Duration::ZERO;
    let mut failures = Vec::new();
    let start = Instant::now();
    for path in &files {
        let whole = std::fs::read_to_string(path).unwrap();
        if !whole.contains("lower-to-ascendc") || !whole.contains("\"layout.") || whole.contains("expected-error") {
            continue;
        }
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
            let Ok(report) = prove_intrinsics(&module, &AddressProofOptions::fast()) else {
                not_lowered.push(name);
                continue;
            };
            eprintln!("{name}: {report}");
            for call in &report.unchecked {
                eprintln!("  not covered: {call}");
            }
            kernels += 1;
            calls += report.tensors.len();
            proven += report.proven();
            not_covered += report.unchecked.len();
            solver += report.solver_time();
            if report.proven() != report.tensors.len() {
                failures.push(format!("{name}: {report}"));
            }
        }
    }
    eprintln!(
        "lit kernels on the AscendC path: {kernels} kernels, {proven} of {calls} intrinsic calls proven, {not_covered} not covered; {} parts not lowered: {not_lowered:?}; solver {:.1} s, total {:.1} s",
        not_lowered.len(),
        solver.as_secs_f64(),
        start.elapsed().as_secs_f64()
    );
    assert!(kernels >= 15, "{kernels}");
    assert!(failures.is_empty(), "{failures:#?}");
    assert_eq!(not_covered, 0, "every intrinsic has an element mapping");
}

/// The ops named `name` of `module`, in order.
fn ops_named(module: &Module, name: &str) -> Vec<mlir_sys::MlirOperation> {
    use melior::ir::operation::{OperationLike, WalkOrder, WalkResult};
    let mut found = Vec::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        if layout_passes::ir::op_name(&op) == name {
            found.push(op.to_raw());
        }
        WalkResult::Advance
    });
    found
}

/// tiled_gemm's first LoadData (4 fractals per row, srcStride 8, dstGap 0, f16: 256 elements
/// per fractal) split into two calls of 2 as `load_data::repeat_chunks` splits a row of more
/// than 255 (which no buffer holds today): the second starts 2 fractals on in both buffers.
/// `second` edits the second call further (its fields, by `inject::wrong_field`).
fn split_first_load(second: &[(&str, i64)]) -> AddressProofReport {
    const LOAD: &str = "ascendc.load_data_2d";
    let context = create_context().unwrap();
    let module = parse(&context, &example("tiled_gemm.mlir"));
    let edit = |m: &Module, table: &mut Vec<layout_passes::lower_to_ascendc::table::CopySpec>| {
        let first = ops_named(m, LOAD)[0];
        // Safety: an op of the live module, cloned and inserted after itself in its block.
        let clone = unsafe {
            let clone = mlir_sys::mlirOperationClone(first);
            mlir_sys::mlirBlockInsertOwnedOperationAfter(mlir_sys::mlirOperationGetBlock(first), first, clone);
            clone
        };
        assert!(inject::wrong_field(m, LOAD, 0, "repeatTimes", -2));
        let edits = [("repeatTimes", -2), ("off0", 2 * 256), ("off1", 2 * 8 * 256)];
        for (field, delta) in edits.iter().chain(second) {
            assert!(inject::wrong_field(m, LOAD, 1, field, *delta), "{field}");
        }
        let spec = table.iter_mut().find(|s| s.calls.iter().any(|c| c.ptr == first.ptr)).unwrap();
        let at = spec.calls.iter().position(|c| c.ptr == first.ptr).unwrap();
        spec.calls.insert(at + 1, clone);
    };
    let report = prove_intrinsics_edited(&module, &edit, &AddressProofOptions::fast()).unwrap();
    eprintln!("split {second:?}: {report}");
    report
}

/// A copy split into several calls: each call is claimed for its own columns (the last up to
/// the valid region's end), so the split kernel is proven; a wrong start of the second call,
/// or a second call one fractal short, is refuted on that call.
#[test]
fn a_copy_split_into_calls_is_proven_per_call() {
    let report = split_first_load(&[]);
    assert_eq!(report.tensors.len(), 10, "{report}");
    assert_eq!(report.proven(), 10, "{report}");
    for (edit, witness) in [
        (("off1", 1), &(|v: &Values| differ(v, "src")) as &dyn Fn(&Values)),
        (("repeatTimes", -1), &|v: &Values| assert!(int(value(v, "x.col")) >= 48, "{v:?}")),
    ] {
        let report = split_first_load(&[edit]);
        let refuted: Vec<_> =
            report.tensors.iter().filter(|t| matches!(t.verdict, AddressVerdict::Counterexample(_))).collect();
        assert_eq!(refuted.len(), 1, "{report}");
        assert_eq!(report.proven(), 9, "{report}");
        let AddressVerdict::Counterexample(values) = &refuted[0].verdict else { unreachable!() };
        // The second call: its columns start at 2 fractals.
        assert!(int(value(values, "x.col")) >= 32, "{values:?}");
        witness(values);
    }
}

/// gemm_multicore's `nth` call named `op`, proven alone (the side table cut down to the copy
/// that emits it; the weakening then frees only that copy's user values), after `wrong` (a
/// field and a delta, `inject::wrong_field`) if given.
fn multicore_call(op: &str, nth: usize, wrong: Option<(&str, i64)>) -> AddressProofReport {
    let context = create_context().unwrap();
    let module = parse(&context, &example("gemm_multicore.mlir"));
    let edit = |m: &Module, table: &mut Vec<layout_passes::lower_to_ascendc::table::CopySpec>| {
        let call = ops_named(m, op)[nth];
        if let Some((field, delta)) = wrong {
            assert!(inject::wrong_field(m, op, nth, field, delta), "{field}");
        }
        table.retain(|s| s.calls.iter().any(|c| c.ptr == call.ptr));
        assert_eq!(table.len(), 1);
    };
    let report = prove_intrinsics_edited(&module, &edit, &AddressProofOptions::fast()).unwrap();
    eprintln!("gemm_multicore, {op} #{nth} {wrong:?}: {report}");
    report
}

/// gemm_multicore's B tile copy (ND2NZ from GM at the swizzled column `n0`, which the weakened
/// obligation reads as a free constant) with the GM row stride one too large: refuted, by the
/// exact obligation's model (the weakened one's inputs fixed), where the source addresses
/// differ. (Its proof without the injection is in the full mode of the example test: its time
/// depends on the machine's load.)
#[test]
fn a_wrong_multicore_intrinsic_field_has_a_counterexample() {
    const ND2NZ: &str = "ascendc.data_copy_nd2nz";
    let report = multicore_call(ND2NZ, 1, Some(("srcDValue", 1)));
    assert_eq!((report.tensors.len(), report.counterexamples()), (1, 1), "{report}");
    let AddressVerdict::Counterexample(values) = &report.tensors[0].verdict else { unreachable!() };
    differ(values, "src");
    // An exact model: the swizzle's inputs are there, the free constant of the weakening is not.
    assert!(values.iter().all(|(n, _)| !n.starts_with("user.")), "{values:?}");
    assert_eq!(int(value(values, "f.srcDValue")), int(value(values, "ir.arg4")) + 1, "{values:?}");
}
