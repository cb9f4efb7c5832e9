//! `--layout-prove-addresses`: the proofs of `layout_runtime::address_proof::accesses` (every
//! load and store of the loop lowering equals the algebra's `crd_to_offset`, for all sizes in
//! a range) on each input module, before the passes — or, when the pipeline runs
//! `--layout-lower-to-ascendc`, those of `address_proof::intrinsics` (every copy intrinsic the
//! AscendC lowering emits) — rendered as located diagnostics: a remark per proven access or
//! call, an error with the values per counterexample, a warning per unknown.

use layout_runtime::address_proof::{accesses, inject, intrinsics, AddressProofOptions, AddressVerdict};
use melior::ir::Module;

use crate::cli::Options;

/// Proves `module`'s accesses (the intrinsic calls of its AscendC lowering when `ascendc`) and
/// appends the lines to `report`; false on a counterexample or when the proof could not run.
pub fn run(
    module: &Module,
    options: &Options,
    ascendc: bool,
    (display, first_line): (&str, usize),
    report: &mut String,
) -> bool {
    let opts = AddressProofOptions {
        timeout: std::time::Duration::from_secs(options.layout_prove_timeout),
        size_limit: options.layout_prove_size_limit,
    };
    let rules = layout_passes::verify::Rules { host_copies: options.layout_prove_host_copies, ..Default::default() };
    let result = if ascendc {
        match options.layout_prove_inject_wrong_field.as_deref().map(wrong_field).transpose() {
            Ok(wrong) => intrinsics::prove_intrinsics_with(
                module,
                &|m| {
                    if let Some((op, field, delta)) = &wrong {
                        inject::wrong_field(m, op, 0, field, *delta);
                    }
                },
                &opts,
            ),
            Err(why) => {
                report
                    .push_str(&format!("{display}:{first_line}:1: error: --layout-prove-inject-wrong-field: {why}\n"));
                return false;
            }
        }
    } else if options.layout_prove_inject_wrong_mask {
        accesses::prove_accesses_with(module, rules, &simplify_then_drop_masks, &opts)
    } else {
        accesses::prove_accesses_with(module, rules, &layout_runtime::layout_lowering::simplify_lowered, &opts)
    };
    let proofs = match result {
        Ok(proofs) => proofs,
        Err(error) => {
            report.push_str(&format!("{display}:{first_line}:1: error: address proof: {error}\n"));
            return false;
        }
    };
    for t in &proofs.tensors {
        let at = t.location.as_deref().map_or_else(|| format!("{display}:{first_line}:1"), |l| locate(l, display));
        match &t.verdict {
            AddressVerdict::Proven => report.push_str(&format!("{at}: remark: address proven: {}\n", t.tensor)),
            AddressVerdict::Counterexample(values) => {
                let shown: Vec<String> = values.iter().map(|(s, v)| format!("{s} = {v}")).collect();
                report.push_str(&format!("{at}: error: address counterexample: {}: {}\n", t.tensor, shown.join(", ")));
            }
            AddressVerdict::Unknown(why) => {
                report.push_str(&format!("{at}: warning: address proof unknown: {}: {why}\n", t.tensor))
            }
        }
    }
    for u in &proofs.unchecked {
        report.push_str(&format!("{display}:{first_line}:1: warning: address proof: not covered: {u}\n"));
    }
    let summary = proofs.to_string();
    let summary = summary.lines().next().unwrap_or_default();
    report.push_str(&format!("{display}: {summary}\n"));
    proofs.counterexamples() == 0
}

/// The input's name in place of the parser's (`-` for text parsed from memory).
fn locate(location: &str, display: &str) -> String {
    match location.strip_prefix("-:") {
        Some(rest) => format!("{display}:{rest}"),
        None => location.to_string(),
    }
}

/// `OP:FIELD:DELTA` of `--layout-prove-inject-wrong-field`.
fn wrong_field(text: &str) -> Result<(String, String, i64), String> {
    let parts: Vec<&str> = text.split(':').collect();
    match parts.as_slice() {
        [op, field, delta] => {
            let delta = delta.parse::<i64>().map_err(|e| format!("delta `{delta}`: {e}"))?;
            Ok((op.to_string(), field.to_string(), delta))
        }
        _ => Err(format!("`{text}` is not OP:FIELD:DELTA")),
    }
}

/// The real simplification, then the injected bug of `--layout-prove-inject-wrong-mask`.
fn simplify_then_drop_masks(module: &mut Module) -> layout_runtime::Result<()> {
    layout_runtime::layout_lowering::simplify_lowered(module)?;
    layout_runtime::address_proof::inject::drop_column_masks(module, |_| true);
    Ok(())
}
