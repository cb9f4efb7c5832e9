//! The AscendC path's intrinsic calls, proven (`address_proof::intrinsics`): for every copy the
//! AscendC lowering emits (ND2NZ, the NZ block copy, Fixpipe NZ2ND), the address its element
//! mapping gives for each element of the valid region equals the algebra's `crd_to_offset`,
//! for all sizes in `[0, 2^31)`; an injected wrong field is refuted with a counterexample.

use std::time::{Duration, Instant};

use layout_runtime::address_proof::intrinsics::{prove_intrinsics, prove_intrinsics_with};
use layout_runtime::address_proof::{AddressProofOptions, AddressProofReport, AddressVerdict};
use layout_runtime::create_context;
use melior::ir::{operation::OperationLike, Attribute, Module};

use super::parse;

fn full_mode() -> bool {
    std::env::var_os("LAYOUT_PROVE_FULL").is_some()
}

/// gemm_multicore's calls sit under the user's swizzle (divisions by symbolic tile counts) and
/// a block-strided loop: 2 of 5 proven, 3 unknown after 10 s each; in the full mode only.
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
    assert!(kernels >= 6, "{kernels}");
    assert!(failures.is_empty(), "{failures:#?}");
}
