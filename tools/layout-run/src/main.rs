//! `layout-run`: JIT-compile a kernel and run it on the CPU.
//!
//! ```text
//! layout-run KERNEL.mlir --entry NAME [--input [K=]FILE.npy ...] [--zero K ...] [--arg K=VALUE ...]
//!            [--seed N] [--block-dim N] [--out-dir DIR] [--emit=llvm|llvm-dialect] [--time] [--self-check]
//!            [--backend loops|ascendc-cpp|ascendc-llvm] [--sanitize[=memcheck,initcheck,synccheck,racecheck]]
//! layout-run KERNEL.mlir --entry NAME --arg K=VALUE ... --cost [--block-dim N] [--mnk M,N,K] [--trace OUT.json]
//! layout-run --compare A.npy B.npy [--tolerance T]
//! layout-run KERNEL.mlir KERNEL2.mlir ... [flags]   (each on its own, outputs in order)
//! layout-run pack|unpack|bench-pack ...   (host-side packing, src/pack_cmd.rs)
//! ```
//! Thin: argument parsing and wiring; the work is in `crates/layout-runtime` (loops) and
//! `ascendc_emit::run` (the AscendC back ends and the model's sanitizer).

mod cli;
mod error;
mod pack_cmd;

use cli::{Options, Request};
use cli_common::CliError;
use error::{Result, RunError};

use ascendc_emit::run::{self as ascendc_run, Backend};
use layout_npy::{random::Rng, Array, ElemType};
use layout_runtime::{Arg, Diag, Error, Jit, ParamType, Scalar, Signature, Sources};
use std::{cell::RefCell, path::PathBuf, process::ExitCode, rc::Rc, time::Instant};

fn fail(message: &str) -> ExitCode {
    cli_common::fail("layout-run", message)
}

/// Prints `error` (diagnostics as rendered, anything else after `layout-run: error: `).
fn report(error: RunError) -> ExitCode {
    match error {
        RunError::Diagnostics(text) => {
            eprint!("{text}");
            ExitCode::FAILURE
        }
        other => fail(&other.to_string()),
    }
}

/// Writes `bytes` to stdout (a closed pipe is not an error worth a message).
fn print_out(bytes: &[u8]) -> ExitCode {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::FAILURE,
    }
}

fn main() -> ExitCode {
    layout_dialect::driver::run_on_driver_thread(
        driver,
        "internal error (a bug in layout-run; please report the input)",
        fail,
    )
}

fn driver() -> ExitCode {
    let options = match cli::parse(std::env::args().skip(1).collect()) {
        Ok(Request::Run(options)) => options,
        Ok(Request::Print(text)) => return print_out(&text),
        // `pack`, `unpack`, `bench-pack`: host-side packing (src/pack_cmd.rs).
        Ok(Request::Pack(command)) => {
            return match pack_cmd::run(command) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => report(error),
            }
        }
        Err(RunError::Cli(CliError::Display(text))) => return print_out(text.as_bytes()),
        Err(error) => return report(error),
    };
    if options.no_cache {
        layout_runtime::object_cache::set_default(None);
    }
    let before = layout_runtime::object_cache::stats();
    // Several kernels: each on its own, in order, outputs separated as layout-opt's are.
    let runs: Vec<Options> = match options.kernels.len() {
        0 | 1 => vec![(*options).clone()],
        _ => options.kernels.iter().map(|kernel| options.for_kernel(kernel)).collect(),
    };
    let mut status = ExitCode::SUCCESS;
    for (index, one) in runs.iter().enumerate() {
        if index > 0 {
            println!("// -----");
        }
        if let Err(error) = run(one) {
            status = report(error);
        }
    }
    if options.verbose {
        eprintln!("{}", cache_report(before));
    }
    status
}

/// `--verbose`: the compiled-kernel cache's hits and misses of this run, and its directory.
fn cache_report(before: layout_runtime::object_cache::CacheStats) -> String {
    let after = layout_runtime::object_cache::stats();
    let (hits, misses, uncached) =
        (after.hits - before.hits, after.misses - before.misses, after.disabled - before.disabled);
    let place = match layout_runtime::object_cache::default_cache() {
        Some(cache) => format!("in {}", cache.dir().display()),
        None => "disabled".to_string(),
    };
    format!("layout-run: jit cache: {hits} hits, {misses} misses, {uncached} uncached ({place})")
}

struct Timer {
    enabled: bool,
    last: Instant,
}

impl Timer {
    fn lap(&mut self, stage: &str) {
        let now = Instant::now();
        if self.enabled {
            eprintln!("layout-run: time: {stage}: {:.3} ms", (now - self.last).as_secs_f64() * 1e3);
        }
        self.last = now;
    }
}

/// The call's arguments in parameter order: each parameter got an array or a scalar
/// (`arguments` gives every one exactly one of them).
fn call_args<'a>(arrays: &'a mut [Option<Array>], scalars: Vec<Option<Arg<'static>>>) -> Vec<Arg<'a>> {
    arrays
        .iter_mut()
        .zip(scalars)
        .filter_map(|(array, scalar)| match array {
            Some(array) => Some(Arg::MemRef(array)),
            None => scalar,
        })
        .collect()
}

/// `--compare A B`: element count and max |A - B|; an error above the tolerance.
fn compare(a: &str, b: &str, tolerance: f64) -> Result<()> {
    let read = |p: &str| layout_npy::read_npy(p).map_err(RunError::npy(p));
    let (x, y) = (read(a)?, read(b)?);
    if x.shape() != y.shape() {
        return Err(RunError::Check(format!(
            "--compare: shapes differ: {a} is {:?}, {b} is {:?}",
            x.shape(),
            y.shape()
        )));
    }
    let mut max = 0.0f64;
    let mut worst = None;
    for i in 0..x.len() {
        let (u, v) = (x.get_f64(i), y.get_f64(i));
        let d = if u.is_nan() && v.is_nan() {
            0.0
        } else if u.is_nan() || v.is_nan() {
            f64::INFINITY
        } else {
            (u - v).abs()
        };
        if d > max || worst.is_none() {
            max = max.max(d);
            worst = Some(i);
        }
    }
    println!(
        "compare: {} elements ({} vs {}), max |a - b| = {max} (tolerance {tolerance})",
        x.len(),
        x.elem(),
        y.elem()
    );
    if max > tolerance {
        return Err(RunError::Check(format!(
            "--compare: max error {max} at flat index {} exceeds the tolerance {tolerance}",
            worst.unwrap_or(0)
        )));
    }
    Ok(())
}

fn run(options: &Options) -> Result<()> {
    if let Some((a, b)) = &options.compare {
        return compare(a, b, options.tolerance);
    }
    let mut timer = Timer { enabled: options.time, last: Instant::now() };
    let path = options.kernel.as_deref().unwrap_or_default();
    let text = std::fs::read(path).map_err(|source| {
        // `layout-run pakc ...`: a misspelled subcommand reads as a kernel file.
        let subcommands = ["pack", "unpack", "bench-pack"];
        let hint = match cli_common::suggest::closest(path, subcommands) {
            Some(name) if source.kind() == std::io::ErrorKind::NotFound => {
                format!("; did you mean the subcommand '{name}'?")
            }
            _ => String::new(),
        };
        RunError::OpenKernel { path: path.into(), source, hint }
    })?;
    let text = String::from_utf8_lossy(&text).into_owned();
    let mut sources = Sources::default();
    sources.add(path, &text);
    let render = |sources: &mut Sources, diags: &[Diag]| {
        let fixed: Vec<Diag> = diags.iter().cloned().map(|d| d.name_input(path).with_op_suggestion()).collect();
        RunError::Diagnostics(sources.render_all(&fixed))
    };

    let context = layout_runtime::create_context()?;
    timer.lap("context");
    // Parse errors come through this handler (located, with the file name as given).
    let parse_diags: Rc<RefCell<Vec<Diag>>> = Rc::default();
    {
        let sink = parse_diags.clone();
        let display = path.to_string();
        context.attach_diagnostic_handler(move |diagnostic| {
            sink.borrow_mut().push(Diag::from_mlir(&diagnostic, &display));
            true
        });
    }
    let Some(mut module) = layout_dialect::parse_file(&context, path) else {
        let diags = parse_diags.borrow().clone();
        if diags.is_empty() {
            return Err(RunError::Usage(format!("cannot parse '{path}'")));
        }
        return Err(render(&mut sources, &diags));
    };
    timer.lap("parse");
    let located = |sources: &mut Sources, error: Error| -> RunError {
        if error.diagnostics().is_empty() {
            RunError::Usage(error.to_string())
        } else {
            render(sources, error.diagnostics())
        }
    };

    if options.cost {
        return cost(options, &module, &mut sources, &render);
    }
    let backend = options.backend.unwrap_or(Backend::Loops);
    if backend != Backend::Loops {
        return run_ascendc(options, backend, &module, &mut sources, &render, &mut timer);
    }

    // THE HOOK: layout ops are lowered to upstream dialects here (layout-verify, then
    // layout-lower-to-loops; crates/layout-runtime/src/layout_lowering.rs).
    let unlowered = options.self_check.then(|| layout_runtime::lower::clone_module(&module));
    // --sanitize: initcheck in the lowering; memcheck is its view and tile checks (always on).
    // racecheck is part of the same sanitized lowering (`layout_passes::lower_to_loops::racecheck`).
    let initcheck = options.sanitize & (ascendc_run::checks::INIT | ascendc_run::checks::RACE) != 0;
    layout_runtime::lower_layout_ops_with(&mut module, initcheck).map_err(|e| located(&mut sources, e))?;
    timer.lap("layout lowering");
    if let Some(unlowered) = unlowered {
        // The hook has verified the kernel; now every lowered address against the algebra.
        let values: std::collections::HashMap<usize, i64> =
            options.args.iter().filter_map(|(k, v)| v.parse().ok().map(|v| (*k, v))).collect();
        let report = layout_runtime::self_check(&unlowered, options.entry.as_deref(), &values)
            .map_err(|e| located(&mut sources, e))?;
        timer.lap("self-check");
        println!("{report}");
    }

    match options.emit.as_deref() {
        Some("llvm") => {
            let ir = layout_runtime::compile_to_llvm_ir(&module).map_err(|e| located(&mut sources, e))?;
            timer.lap("lower + translate + O2");
            print!("{ir}");
            return Ok(());
        }
        Some(_) => {
            let mut copy = layout_runtime::lower::clone_module(&module);
            layout_runtime::lower_to_llvm_dialect(&mut copy).map_err(|e| located(&mut sources, e))?;
            timer.lap("lower");
            println!("{}", layout_runtime::lower::print_module(&copy));
            return Ok(());
        }
        None => {}
    }

    let entry = options.entry.as_deref().unwrap_or_default();
    let signatures = layout_runtime::jit::signatures(&module);
    let mut lowered = layout_runtime::lower::clone_module(&module);
    layout_runtime::lower_to_llvm_dialect(&mut lowered).map_err(|e| located(&mut sources, e))?;
    timer.lap("lower to LLVM dialect");
    let jit = Jit::from_llvm_dialect(&lowered, signatures).map_err(|e| located(&mut sources, e))?;
    timer.lap(match jit.cache_outcome() {
        layout_runtime::CacheOutcome::Hit => "JIT (object from the cache)",
        _ => "JIT compilation",
    });
    let signature = jit.callable(entry)?.clone();

    let (mut arrays, scalars) = arguments(options, &signature)?;
    timer.lap("inputs");
    let result = {
        let mut args = call_args(&mut arrays, scalars);
        let mut result = None;
        let launch = options.launch();
        for run in 0..options.repeat.max(1) {
            // Every block of the launch over the same arrays (`layout_runtime::blocks`).
            layout_runtime::blocks::run_blocks(launch.block_dim, launch.seed, |_| {
                result = jit.call(entry, &mut args)?;
                Ok(())
            })
            .map_err(|e| match e {
                // Already `file:line:col: error: ...`.
                Error::Contract(text) => RunError::Diagnostics(format!("{text}\n")),
                other => RunError::Usage(other.to_string()),
            })?;
            timer.lap(&format!("call @{entry} #{}", run + 1));
        }
        result
    };

    let mut lines = write_outputs(options, &arrays)?;
    if let Some(result) = result {
        lines.push(match result {
            Scalar::Index(v) | Scalar::Int(v) => format!("result: {} {v}", signature.results[0]),
            Scalar::Float(v) => format!("result: {} {v}", signature.results[0]),
        });
    }
    timer.lap("outputs");
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

/// The memref arrays (None for scalars) and scalar arguments (None for memrefs) of one call of
/// `signature`: `--input` files, zeros or seeded random arrays, `--arg` values.
#[allow(clippy::type_complexity)]
fn arguments(options: &Options, signature: &Signature) -> Result<(Vec<Option<Array>>, Vec<Option<Arg<'static>>>)> {
    let mut arrays: Vec<Option<Array>> = Vec::new();
    let mut scalars: Vec<Option<Arg<'static>>> = Vec::new();
    let memref_positions: Vec<usize> = signature
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| matches!(p, ParamType::MemRef { .. }))
        .map(|(i, _)| i)
        .collect();
    let mut assigned: Vec<Option<String>> = vec![None; signature.params.len()];
    let mut next_memref = memref_positions.iter();
    for (index, file) in &options.inputs {
        let k = match index {
            Some(k) => *k,
            None => *next_memref
                .next()
                .ok_or_else(|| RunError::Usage(format!("more --input files than memref arguments of {signature}")))?,
        };
        if !memref_positions.contains(&k) {
            return Err(RunError::Usage(format!("--input {k}={file}: argument #{k} of {signature} is not a memref")));
        }
        if assigned[k].replace(file.clone()).is_some() {
            return Err(RunError::Usage(format!("argument #{k} is given twice")));
        }
    }
    for k in &options.zeros {
        if !memref_positions.contains(k) {
            return Err(RunError::Usage(format!("--zero {k}: argument #{k} of {signature} is not a memref")));
        }
    }
    let mut given_scalars: Vec<Option<&str>> = vec![None; signature.params.len()];
    for (k, value) in &options.args {
        match signature.params.get(*k) {
            Some(ParamType::MemRef { .. }) | None => {
                return Err(RunError::Usage(format!("--arg {k}=...: argument #{k} of {signature} is not a scalar")))
            }
            Some(_) => given_scalars[*k] = Some(value),
        }
    }
    let mut rng = Rng::new(options.seed);
    for (k, param) in signature.params.iter().enumerate() {
        match param {
            ParamType::MemRef { elem, shape, text, .. } => {
                let array = if let Some(file) = &assigned[k] {
                    let array = layout_npy::read_npy(file)
                        .map_err(|e| RunError::Usage(format!("argument #{k}: {file}: {e}")))?;
                    coerce(array, *elem).map_err(|held| {
                        RunError::Usage(format!("argument #{k} ({text}): {file} holds {held} elements"))
                    })?
                } else {
                    let dims: Option<Vec<usize>> = shape.iter().copied().collect();
                    let dims = dims.ok_or_else(|| {
                        RunError::Usage(format!(
                            "argument #{k} ({text}) has a dynamic shape: give it with --input {k}=FILE.npy"
                        ))
                    })?;
                    // Checked: a shape whose element count leaves usize is an error, not a panic.
                    if layout_npy::element_count(&dims).is_none() {
                        return Err(RunError::Usage(format!("argument #{k} ({text}): shape {dims:?} is too large")));
                    }
                    if options.zeros.contains(&k) {
                        Array::zeros(*elem, &dims)
                    } else {
                        rng.array(*elem, &dims)
                    }
                };
                arrays.push(Some(array));
                scalars.push(None);
            }
            other => {
                let value = given_scalars[k]
                    .ok_or_else(|| RunError::Usage(format!("scalar argument #{k} ({other}) needs --arg {k}=VALUE")))?;
                let arg = match other {
                    ParamType::F32 | ParamType::F64 => Arg::Float(
                        value.parse().map_err(|_| RunError::Usage(format!("--arg {k}={value}: not a number")))?,
                    ),
                    ParamType::Index => Arg::Index(
                        value.parse().map_err(|_| RunError::Usage(format!("--arg {k}={value}: not an integer")))?,
                    ),
                    _ => Arg::Int(
                        value.parse().map_err(|_| RunError::Usage(format!("--arg {k}={value}: not an integer")))?,
                    ),
                };
                arrays.push(None);
                scalars.push(Some(arg));
            }
        }
    }
    Ok((arrays, scalars))
}

/// Writes every memref argument K to OUT_DIR/argK.npy (each atomically; on failure the files
/// this run wrote are removed); returns the summary lines.
fn write_outputs(options: &Options, arrays: &[Option<Array>]) -> Result<Vec<String>> {
    // Outputs: encode all, then write each atomically; on failure remove what this run wrote.
    let out_dir = PathBuf::from(options.out_dir.as_deref().unwrap_or("."));
    std::fs::create_dir_all(&out_dir)
        .map_err(|source| RunError::OutputDir { path: out_dir.display().to_string(), source })?;
    let mut written: Vec<PathBuf> = Vec::new();
    let mut lines = Vec::new();
    for (k, array) in arrays.iter().enumerate() {
        let Some(array) = array else { continue };
        let file = out_dir.join(format!("arg{k}.npy"));
        if let Err(error) = layout_npy::write_npy(&file, array) {
            // Only files this run created or replaced: a FIFO, device or symlink given as an
            // output was written through and must stay.
            for done in &written {
                if std::fs::symlink_metadata(done).is_ok_and(|m| m.file_type().is_file()) {
                    let _ = std::fs::remove_file(done);
                }
            }
            return Err(RunError::WriteOutput(error));
        }
        lines.push(format!("arg{k}: {} -> {}", array.summary(), file.display()));
        written.push(file);
    }
    Ok(lines)
}

/// `--backend ascendc-cpp|ascendc-llvm`: layout-lower-to-ascendc, then the C++ (g++ + model) or
/// the LLVM form (JIT + model) through `ascendc_emit::run`, on the arguments the loops back end
/// would get; outputs as there.
fn run_ascendc(
    options: &Options,
    backend: Backend,
    module: &melior::ir::Module,
    sources: &mut Sources,
    render: &dyn Fn(&mut Sources, &[Diag]) -> RunError,
    timer: &mut Timer,
) -> Result<()> {
    let entry = options.entry.as_deref().unwrap_or_default();
    let signatures = layout_runtime::jit::signatures(module);
    let signature = signatures.get(entry).cloned().ok_or_else(|| {
        let known: Vec<_> = signatures.keys().map(|k| format!("@{k}")).collect();
        RunError::Usage(format!(
            "no function @{entry} in the module (functions: {})",
            if known.is_empty() { "none".into() } else { known.join(", ") }
        ))
    })?;
    let mut lowered = layout_runtime::lower::clone_module(module);
    ascendc_run::lower_to_ascendc(&mut lowered).map_err(|e| {
        if e.diagnostics().is_empty() {
            RunError::Usage(e.to_string())
        } else {
            render(sources, e.diagnostics())
        }
    })?;
    timer.lap("layout-lower-to-ascendc");
    let checks = options.sanitize;
    let context = module.context();
    // Safety: the module's context outlives this function.
    let context = unsafe { context.to_ref() };
    enum Runner {
        Cpp(ascendc_run::CppKernel),
        Llvm(ascendc_run::LlvmKernel),
    }
    let runner = match backend {
        Backend::AscendcCpp => ascendc_run::CppKernel::build(&lowered, entry, None, checks).map(Runner::Cpp),
        _ => ascendc_run::LlvmKernel::build(context, &lowered, entry).map(Runner::Llvm),
    }
    .map_err(|d| render(sources, &[d]))?;
    timer.lap(if backend == Backend::AscendcCpp { "emit + g++" } else { "emit + JIT" });
    let (mut arrays, scalars) = arguments(options, &signature)?;
    check_shapes(&signature, &arrays)?;
    timer.lap("inputs");
    {
        let mut args = call_args(&mut arrays, scalars);
        for run in 0..options.repeat.max(1) {
            match &runner {
                Runner::Cpp(k) => k.call_launch(&mut args, options.launch()),
                Runner::Llvm(k) => k.call_launch(&mut args, checks, options.launch()),
            }
            .map_err(|d| render(sources, &[d]))?;
            timer.lap(&format!("call @{entry} #{} ({})", run + 1, backend.name()));
        }
    }
    let lines = write_outputs(options, &arrays)?;
    timer.lap("outputs");
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

/// `--cost`: layout-lower-to-ascendc, then the cost model of the entry for the `--arg` values;
/// prints the report (and writes the `--trace` timeline).
fn cost(
    options: &Options,
    module: &melior::ir::Module,
    sources: &mut Sources,
    render: &dyn Fn(&mut Sources, &[Diag]) -> RunError,
) -> Result<()> {
    let entry = options.entry.as_deref().unwrap_or_default();
    let mut args = std::collections::HashMap::new();
    for (k, v) in &options.args {
        let expected = "an integer (the value of an index argument)";
        let value = v.parse().map_err(|_| RunError::BadValue { option: "arg".into(), value: v.clone(), expected })?;
        args.insert(*k, value);
    }
    let mut lowered = layout_runtime::lower::clone_module(module);
    ascendc_run::lower_to_ascendc(&mut lowered).map_err(|e| {
        if e.diagnostics().is_empty() {
            RunError::Usage(e.to_string())
        } else {
            render(sources, e.diagnostics())
        }
    })?;
    let inputs =
        ascendc_emit::cost::Inputs { args, block_dim: i64::from(options.block_dim.unwrap_or(1)), mnk: options.mnk };
    let estimate = ascendc_emit::cost_of(&lowered, entry, &inputs).map_err(|d| render(sources, &[d]))?;
    print!("{}", estimate.report);
    if let Some(path) = &options.trace {
        std::fs::write(path, estimate.chrome_trace())
            .map_err(|e| RunError::Usage(format!("--trace: cannot write '{path}': {e}")))?;
        println!("trace: {path}");
    }
    Ok(())
}

/// Every array matches the static extents of its memref parameter (the JIT checks the same
/// before a call; the C++ harness reads whatever it is given).
fn check_shapes(signature: &Signature, arrays: &[Option<Array>]) -> Result<()> {
    for (k, (param, array)) in signature.params.iter().zip(arrays).enumerate() {
        let (ParamType::MemRef { shape, text, .. }, Some(array)) = (param, array) else { continue };
        let fits = shape.len() == array.shape().len()
            && shape.iter().zip(array.shape()).all(|(want, got)| want.is_none_or(|w| w == *got));
        if !fits {
            return Err(RunError::Usage(format!("argument #{k} ({text}): the array has shape {:?}", array.shape())));
        }
    }
    Ok(())
}

/// Accepts `array` for an argument of element type `elem`: same type, or the 16-bit raw-bits
/// reading (`<u2` file for bf16). Returns the held type on mismatch.
fn coerce(array: Array, elem: ElemType) -> Result<Array, ElemType> {
    let held = array.elem();
    if held == elem || matches!((elem, held), (ElemType::I8, ElemType::U8) | (ElemType::I16, ElemType::U16)) {
        return Ok(array);
    }
    if elem == ElemType::BF16 && held == ElemType::U16 {
        return array.reinterpret_16(ElemType::BF16).ok_or(held);
    }
    Err(held)
}
