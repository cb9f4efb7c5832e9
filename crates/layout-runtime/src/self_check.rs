//! The self-check ("verified lowering", issue 4 part 2): every address the lowering computes
//! is compared with the layout algebra.
//!
//! [`self_check`] lowers a copy of the kernel with `lower_to_loops::Options::self_check`, which
//! adds one side function per tensor value (view, alloc, tile): it writes the *lowered*
//! address of every coordinate of the tensor's padded domain (the same address code the ops
//! use) into an `i64` memref. The lowered copy then goes through the same address
//! simplification as the JIT hook ([`crate::layout_lowering::simplify_lowered`]:
//! `layout-simplify-offsets` and its clean-up), so the side functions hold *simplified* address
//! code and a wrong rewrite shows up as a wrong address. The side functions are JIT-compiled
//! and called; each entry is
//! compared with `crd_to_offset` of the algebra on `i64`, on the concrete layout. Any
//! difference is an error naming the tensor, the coordinate and the parameter values.
//!
//! Values of the symbols a layout depends on:
//! - a function argument of the entry function: the value given by the caller (`--arg`);
//! - the induction variable of an `scf.for` with constant bounds: every value it takes;
//! - another tile coordinate: every multiple of the tile extent below the parent's extent.
//!
//! Tensors that depend on anything else (or on an argument without a value) are reported as
//! not checked, with the reason.

use std::collections::HashMap;

use crate::{Arg, Capture, Error, Jit, Result};
use layout_algebra::{crd_to_offset, AlgebraError, IntTuple, Layout, SymExpr, Tuple};
use layout_npy::{Array, Data, ElemType};
use layout_passes::lower_to_loops::{self, CheckSpec, SymOrigin};
use layout_passes::verify::Rules;
use melior::ir::Module;

/// Most parameter combinations tried per tensor.
pub const MAX_INSTANCES: usize = 4096;

/// What the self-check covered.
#[derive(Clone, Debug, Default)]
pub struct SelfCheckReport {
    /// Tensor values whose addresses were compared (at least one instance).
    pub tensors: usize,
    /// (tensor, parameter values) combinations.
    pub instances: usize,
    /// Coordinates compared in total.
    pub coordinates: u64,
    /// Tensors not checked, with the reason.
    pub unchecked: Vec<String>,
}

impl std::fmt::Display for SelfCheckReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "self-check: {} tensors, {} instances, {} coordinates: every lowered address equals the algebra's crd_to_offset; {} tensors not checked",
            self.tensors,
            self.instances,
            self.coordinates,
            self.unchecked.len()
        )?;
        for u in &self.unchecked {
            write!(f, "\n  not checked: {u}")?;
        }
        Ok(())
    }
}

/// A copy of `module` lowered to loops with one side function per tensor value (the self-check
/// form), then `after_lowering`: what [`self_check_with`] runs and what
/// [`crate::address_proof`] translates. `what` names the caller in the error.
pub(crate) fn lower_for_checks<'c>(
    module: &Module<'c>,
    rules: Rules,
    after_lowering: &dyn Fn(&mut Module) -> Result<()>,
    what: &str,
) -> Result<(Module<'c>, lower_to_loops::Lowered)> {
    let options = lower_to_loops::Options { self_check: true, rules, ..Default::default() };
    lower_with(module, &options, after_lowering, what)
}

/// A copy of `module` lowered to loops with `options`, then `after_lowering`.
pub(crate) fn lower_with<'c>(
    module: &Module<'c>,
    options: &lower_to_loops::Options,
    after_lowering: &dyn Fn(&mut Module) -> Result<()>,
    what: &str,
) -> Result<(Module<'c>, lower_to_loops::Lowered)> {
    let mut copy = crate::lower::clone_module(module);
    let context_ref = module.context();
    // Safety: the context outlives this function; `to_ref` borrows `context_ref`, which lives
    // to the end of the function.
    let context = unsafe { context_ref.to_ref() };
    for dialect in ["arith", "scf", "memref", "func"] {
        context.get_or_load_dialect(dialect);
    }
    // The lowering runs layout-verify's checks on the copy first.
    let capture = Capture::for_module(&copy, "<input>");
    let lowered = lower_to_loops::lower(copy.as_operation(), options).ok();
    let diagnostics = capture.take();
    let Some(lowered) = lowered else {
        return Err(Error::mlir(format!("{what}: lowering the layout ops failed"), diagnostics));
    };
    crate::layout_lowering::post_condition(&copy)?;
    after_lowering(&mut copy)?;
    Ok((copy, lowered))
}

/// Runs the self-check on a copy of `module` (which may contain layout ops; the lowering
/// verifies it with every `layout-verify` rule). `entry` names the
/// function whose `index` arguments have values in `args` (argument number → value).
pub fn self_check(module: &Module, entry: Option<&str>, args: &HashMap<usize, i64>) -> Result<SelfCheckReport> {
    self_check_with(module, entry, args, Rules::default(), &crate::layout_lowering::simplify_lowered)
}

/// [`self_check`] verifying with `rules` (tests observe on-chip buffers through views:
/// `Rules::host_copies`) and with `after_lowering` in place of the address simplification that
/// runs between the lowering and the JIT ([`crate::layout_lowering::simplify_lowered`] in
/// [`self_check`]). Tests pass a simplification with a deliberately wrong rewrite to show that
/// the check covers the simplified code.
pub fn self_check_with(
    module: &Module,
    entry: Option<&str>,
    args: &HashMap<usize, i64>,
    rules: Rules,
    after_lowering: &dyn Fn(&mut Module) -> Result<()>,
) -> Result<SelfCheckReport> {
    let (copy, lowered) = lower_for_checks(module, rules, after_lowering, "self-check")?;
    let jit = Jit::new(&copy)?;
    let mut report = SelfCheckReport { unchecked: lowered.unchecked, ..Default::default() };
    for spec in &lowered.checks {
        let instances = match instances(spec, entry, args) {
            Ok(list) => list,
            Err(reason) => {
                report.unchecked.push(format!("{}: {reason}", spec.tensor));
                continue;
            }
        };
        for env in &instances {
            report.coordinates += check_instance(&jit, spec, env)?;
            report.instances += 1;
        }
        if !instances.is_empty() {
            report.tensors += 1;
        }
    }
    Ok(report)
}

/// Why a tensor's instances cannot be enumerated: an entry of [`SelfCheckReport::unchecked`]
/// (not an error: the report says what it did not cover).
enum NotCheckable<'s> {
    /// A layout symbol is argument `index` of `function`, and no value was given for it.
    ArgumentValue {
        function: &'s str,
        index: usize,
    },
    /// The parent extent around tile coordinate `symbol` is not known.
    TileExtent {
        extent: &'s SymExpr,
        symbol: &'s str,
    },
    /// A symbol whose values are not known (not an argument, loop variable or tile coordinate).
    Unknown(&'s str),
    TooMany,
}

impl std::fmt::Display for NotCheckable<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotCheckable::ArgumentValue { function, index } => write!(
                f,
                "depends on argument #{index} of @{function}; give its value (layout-run --arg {index}=N with --entry {function})"
            ),
            NotCheckable::TileExtent { extent, symbol } => {
                write!(f, "the extent {extent} around tile coordinate {symbol} is not known")
            }
            NotCheckable::Unknown(symbol) => write!(f, "depends on {symbol}, whose values are unknown"),
            NotCheckable::TooMany => write!(f, "more than {MAX_INSTANCES} parameter combinations"),
        }
    }
}

/// The parameter values to try, as symbol environments.
fn instances<'s>(
    spec: &'s CheckSpec,
    entry: Option<&str>,
    args: &HashMap<usize, i64>,
) -> std::result::Result<Vec<HashMap<String, i64>>, NotCheckable<'s>> {
    let mut envs = vec![HashMap::new()];
    for (symbol, origin) in &spec.params {
        let mut next = Vec::new();
        for env in &envs {
            let values: Vec<i64> = match origin {
                SymOrigin::Arg { function, index } => match (entry, args.get(index)) {
                    (Some(e), Some(v)) if e == function => vec![*v],
                    _ => return Err(NotCheckable::ArgumentValue { function, index: *index }),
                },
                SymOrigin::Loop { lo, hi, step } => (*lo..*hi).step_by(*step as usize).collect(),
                SymOrigin::TileCoord { extent, parent_extent } => {
                    let end = parent_extent
                        .eval(env)
                        .map_err(|_| NotCheckable::TileExtent { extent: parent_extent, symbol })?;
                    (0..end.max(0)).step_by((*extent).max(1) as usize).collect()
                }
                SymOrigin::Other => return Err(NotCheckable::Unknown(symbol)),
            };
            for v in values {
                let mut e = env.clone();
                e.insert(symbol.clone(), v);
                next.push(e);
            }
            if next.len() > MAX_INSTANCES {
                return Err(NotCheckable::TooMany);
            }
        }
        envs = next;
    }
    Ok(envs)
}

fn eval_tuple(t: &Tuple<SymExpr>, env: &HashMap<String, i64>) -> std::result::Result<IntTuple, AlgebraError> {
    t.map(&mut |e: &SymExpr| e.eval(env))
}

/// Calls the side function of `spec` for one instance (`env`: a value per parameter) and
/// compares every coordinate with the algebra; returns how many. (Public for tests that
/// tamper with a spec to show that a wrong address is caught.)
pub fn check_instance(jit: &Jit, spec: &CheckSpec, env: &HashMap<String, i64>) -> Result<u64> {
    let fail = |message: String| Error::SelfCheck { tensor: spec.tensor.clone(), message };
    let algebra = |e: AlgebraError| fail(e.to_string());
    let shown: Vec<String> = spec.params.iter().map(|(s, o)| format!("{}={}", describe(s, o), env[s])).collect();
    let shown = if shown.is_empty() { String::new() } else { format!(" [{}]", shown.join(", ")) };
    let shape = eval_tuple(spec.layout.shape(), env).map_err(algebra)?;
    if shape.leaves().iter().any(|&v| v <= 0) {
        // An empty tensor (a size of 0) has no address to check; a negative size is out of
        // contract and is reported, located, by the kernel's own run-time check of the view
        // (passes/src/lower_to_loops/guard.rs).
        return Ok(0);
    }
    let layout = Layout::with_origin(
        shape,
        eval_tuple(spec.layout.stride(), env).map_err(algebra)?,
        eval_tuple(spec.layout.origin(), env).map_err(algebra)?,
    )
    .map_err(algebra)?;
    let coord: Vec<i64> =
        spec.coord.iter().map(|c| c.eval(env)).collect::<std::result::Result<_, _>>().map_err(algebra)?;
    let extents: Vec<usize> = spec
        .extents
        .iter()
        .map(|e| e.eval(env).map(|v| v.max(0) as usize))
        .collect::<std::result::Result<_, _>>()
        .map_err(algebra)?;
    if layout_npy::element_count(&extents).is_none() {
        return Err(fail(format!("the padded domain {extents:?} is too large to enumerate")));
    }
    let mut out = Array::zeros(ElemType::I64, &extents);
    let mut call_args = vec![Arg::MemRef(&mut out)];
    call_args.extend(spec.params.iter().map(|(s, _)| Arg::Index(env[s])));
    jit.call(&spec.side_function, &mut call_args)?;
    let Data::I64(got) = out.data() else { return Err(fail("internal: output is not i64".into())) };
    let count = got.len();
    let mut local = vec![0usize; extents.len()];
    for (n, lowered) in got.iter().enumerate() {
        // Row-major enumeration of the local coordinate.
        let mut rest = n;
        for k in (0..extents.len()).rev() {
            local[k] = rest % extents[k];
            rest /= extents[k];
        }
        // Checked: coordinate + local index (both from the kernel's values) must stay in i64.
        let global = coord
            .iter()
            .zip(&local)
            .map(|(c, l)| i64::try_from(*l).ok().and_then(|l| c.checked_add(l)))
            .collect::<Option<Vec<i64>>>()
            .ok_or_else(|| fail(format!("coordinate {coord:?} + local {local:?} leaves i64")))?;
        let crd = layout.origin().unflatten(&global).map_err(algebra)?;
        let expected =
            crd_to_offset(&crd, layout.shape(), layout.stride()).map_err(|e| fail(format!("algebra at {crd}: {e}")))?;
        if *lowered != expected {
            return Err(Error::AddressMismatch(Box::new(crate::AddressMismatch {
                tensor: spec.tensor.clone(),
                coordinate: crd.to_string(),
                local: local.clone(),
                params: shown,
                lowered: *lowered,
                expected,
                layout: layout.to_string(),
            })));
        }
    }
    Ok(count as u64)
}

fn describe(symbol: &str, origin: &SymOrigin) -> String {
    match origin {
        SymOrigin::Arg { function, index } => format!("@{function} arg #{index}"),
        SymOrigin::Loop { .. } => format!("loop variable {symbol}"),
        SymOrigin::TileCoord { .. } => format!("tile coordinate {symbol}"),
        SymOrigin::Other => symbol.to_string(),
    }
}
