//! `layout-run`: JIT-compile a kernel and run it on the CPU.
//!
//! ```text
//! layout-run KERNEL.mlir --entry NAME [--input [K=]FILE.npy ...] [--zero K ...] [--arg K=VALUE ...]
//!            [--seed N] [--block-dim N] [--out-dir DIR] [--emit=llvm|llvm-dialect] [--time] [--self-check]
//!            [--backend loops|ascendc-cpp|ascendc-llvm] [--sanitize[=memcheck,initcheck,synccheck,racecheck]]
//! layout-run KERNEL.mlir --entry NAME --arg K=VALUE ... --cost [--block-dim N] [--mnk M,N,K] [--trace OUT.json]
//! layout-run --compare A.npy B.npy [--tolerance T]
//! layout-run pack|unpack|bench-pack ...   (host-side packing, src/pack_cmd.rs)
//! ```
//! Thin: argument parsing and wiring; the work is in `crates/layout-runtime` (loops) and
//! `ascendc_emit::run` (the AscendC back ends and the model's sanitizer).

mod error;
mod pack_cmd;

use error::{Result, RunError};

use ascendc_emit::run::{self as ascendc_run, Backend};
use layout_npy::{random::Rng, Array, ElemType};
use layout_runtime::{Arg, Diag, Error, Jit, ParamType, Scalar, Signature, Sources};
use std::{cell::RefCell, path::PathBuf, process::ExitCode, rc::Rc, time::Instant};

const USAGE: &str = "OVERVIEW: layout-run: lower a kernel to LLVM, JIT it, run it on .npy or seeded inputs

USAGE: layout-run KERNEL.mlir --entry NAME [options]

The entry function must have the `llvm.emit_c_interface` attribute. Its memref arguments are
read from .npy files or generated from the seed (static shapes only); after the call every
memref argument K is written to OUT_DIR/argK.npy and summarized on stdout.

OPTIONS:
  --entry NAME           Function to call (required unless --emit is given)
  --input [K=]FILE       .npy file for memref argument K; without K=, inputs fill the memref
                         arguments in order (repeatable)
  --zero K               Start memref argument K as zeros instead of random values
  --arg K=VALUE          Value of scalar argument K (index, i8-i64, f32, f64)
  --seed N               Seed of the input generator and of the block order (default 0)
  --block-dim N          Launch N blocks (AscendC blockDim, default 1): the kernel runs once
                         per block over the same GM buffers, in a shuffled order drawn from
                         --seed; layout.block_idx / GetBlockIdx() tell the block (all back ends)
  --out-dir DIR          Where argK.npy files go (default: the current directory)
  --emit=llvm            Print the O2-optimized LLVM IR instead of running
  --emit=llvm-dialect    Print the module lowered to the LLVM dialect instead of running
  --time                 Print the time of each stage to stderr
  --backend B            Where the kernel runs: loops (default: layout-lower-to-loops + JIT),
                         ascendc-cpp (layout-lower-to-ascendc, the emitted AscendC C++
                         compiled with g++ against the CPU model of the intrinsics),
                         ascendc-llvm (the AscendC LLVM form, JIT, same model); same inputs,
                         outputs and --compare for all three
  --sanitize             Run under the sanitizer: memcheck (every access inside its GM
                         argument or on-chip buffer), initcheck (no read of an on-chip
                         element nothing wrote), synccheck (AscendC back ends: cross-pipe
                         accesses ordered by SetFlag -> WaitFlag, no WaitFlag without a
                         SetFlag, no flag left set), racecheck (no two blocks of a
                         --block-dim launch write the same GM bytes); the first violation is
                         an error at the op (docs/sanitizer.md). On loops: initcheck and
                         racecheck in the lowering, memcheck is its view and tile checks
  --sanitize=CHECKS      Only the listed checks, e.g. --sanitize=memcheck,synccheck
  --self-check           Before running, check every address the layout lowering computes
                         against the layout algebra (every coordinate of every tensor;
                         index arguments of the entry from --arg); prints a summary
  --cost                 Do not run: lower with layout-lower-to-ascendc and print the pipe-level
                         cost model of the kernel (a model, not a measurement; docs/cost-model.md)
                         for the index arguments given with --arg (no inputs needed): predicted
                         time, per-pipe busy time, critical path, cube utilization
  --block-dim N          --cost: blocks launched (default 1)
  --mnk M,N,K            --cost: the cube bound is 2*M*N*K FLOPs (default: the MACs the Mmads issue)
  --trace FILE           --cost: also write a Chrome-trace JSON timeline (Perfetto) to FILE
  --compare A.npy B.npy  Compare two arrays (no kernel): print the element count and the
                         max |A - B|; fail when it exceeds --tolerance (default 0)
  --tolerance T          Tolerance of --compare
  --repeat N             Call the function N times (timing; outputs are those after the
                         last call, so kernels that accumulate into an argument accumulate)
  --help                 This text

HOST PACKING (ND .npy <-> NZ/ZN/ZZ/NN/DN/ND buffers; see `layout-run pack --help`):
  layout-run pack --layout NZ [--dtype T] IN.npy OUT.npy
  layout-run unpack --layout NZ --rows R --cols C [--batch B] IN.npy OUT.npy
  layout-run bench-pack [--sizes 256x256,1000x1000] [--dtypes f16,f32]

ELEMENT TYPES: f16, bf16, f32, f64, i8, i16, i32, i64. A bf16 argument reads a '<u2' file
(bfloat16 bits; see crates/npy/src/npy.rs for the marker convention); i8/i16 accept u1/u2 files.
";

#[derive(Default, Debug)]
struct Options {
    kernel: Option<String>,
    entry: Option<String>,
    /// (argument index or None for "next memref", path)
    inputs: Vec<(Option<usize>, String)>,
    zeros: Vec<usize>,
    args: Vec<(usize, String)>,
    seed: u64,
    out_dir: Option<String>,
    emit: Option<String>,
    time: bool,
    repeat: usize,
    self_check: bool,
    compare: Option<(String, String)>,
    tolerance: f64,
    backend: Option<Backend>,
    /// The model's checks (`ascendc_emit::run::checks`); 0: no sanitizer.
    sanitize: u32,
    /// `--block-dim`: blocks launched, or modelled with `--cost` (None: 1).
    block_dim: Option<u32>,
    /// `--cost`: the cost model instead of a run.
    cost: bool,
    mnk: Option<[i64; 3]>,
    trace: Option<String>,
}

impl Options {
    /// The launch of `--block-dim` and `--seed`.
    fn launch(&self) -> ascendc_run::Launch {
        ascendc_run::Launch { block_dim: self.block_dim.unwrap_or(1), seed: self.seed }
    }
}

/// `text` as the argument number of `--option`.
fn parse_index(text: &str, option: &str) -> Result<usize> {
    let bad = || RunError::BadValue { option: option.into(), value: text.into(), expected: "an argument number" };
    text.parse().map_err(|_| bad())
}

fn parse_args(args: Vec<String>) -> Result<Option<Options>> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if !arg.starts_with('-') || arg == "-" {
            if options.kernel.replace(arg.clone()).is_some() {
                return Err(RunError::Usage(format!("more than one kernel file given ('{arg}')")));
            }
            continue;
        }
        let long = arg.trim_start_matches('-');
        let (name, inline) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (long, None),
        };
        let mut value = |inline: Option<String>| -> Result<String> {
            inline.or_else(|| args.next()).ok_or_else(|| RunError::MissingValue(name.into()))
        };
        match name {
            "help" | "h" => return Ok(None),
            "entry" => options.entry = Some(value(inline)?),
            "input" => {
                let v = value(inline)?;
                match v.split_once('=') {
                    Some((k, path)) if k.chars().all(|c| c.is_ascii_digit()) && !k.is_empty() => {
                        options.inputs.push((Some(parse_index(k, "input")?), path.into()))
                    }
                    _ => options.inputs.push((None, v)),
                }
            }
            "zero" => options.zeros.push(parse_index(&value(inline)?, "zero")?),
            "arg" => {
                let v = value(inline)?;
                let (k, x) =
                    v.split_once('=').ok_or_else(|| RunError::Usage(format!("--arg: expected K=VALUE, got '{v}'")))?;
                options.args.push((parse_index(k, "arg")?, x.to_string()));
            }
            "seed" => {
                let v = value(inline)?;
                let expected = "a non-negative integer";
                options.seed = v.parse().map_err(|_| RunError::BadValue { option: name.into(), value: v, expected })?;
            }
            "block-dim" => {
                let v = value(inline)?;
                let parsed = v.parse().ok().filter(|&n: &u32| n >= 1);
                let expected = "a positive integer";
                options.block_dim =
                    Some(parsed.ok_or(RunError::BadValue { option: name.into(), value: v, expected })?);
            }
            "out-dir" | "o" => options.out_dir = Some(value(inline)?),
            "emit" => {
                let v = value(inline)?;
                if v != "llvm" && v != "llvm-dialect" {
                    return Err(RunError::Usage(format!("--emit: unknown kind '{v}' (llvm, llvm-dialect)")));
                }
                options.emit = Some(v);
            }
            "time" => options.time = true,
            "backend" => {
                let v = value(inline)?;
                options.backend = Some(Backend::parse(&v).ok_or_else(|| {
                    RunError::Usage(format!("--backend: unknown back end '{v}' ({})", Backend::NAMES))
                })?);
            }
            "sanitize" => {
                options.sanitize = match inline {
                    None => ascendc_run::checks::ALL,
                    Some(list) => {
                        ascendc_run::checks::parse(&list).map_err(|e| RunError::Usage(format!("--sanitize: {e}")))?
                    }
                }
            }
            "self-check" => options.self_check = true,
            "cost" => options.cost = true,
            "mnk" => {
                let v = value(inline)?;
                let parts: Vec<Option<i64>> = v.split(',').map(|x| x.trim().parse().ok().filter(|n| *n >= 0)).collect();
                let expected = "M,N,K (three non-negative integers)";
                match parts[..] {
                    [Some(m), Some(n), Some(k)] => options.mnk = Some([m, n, k]),
                    _ => return Err(RunError::BadValue { option: name.into(), value: v, expected }),
                }
            }
            "trace" => options.trace = Some(value(inline)?),
            "compare" => {
                let a = value(inline)?;
                let b = args.next().ok_or_else(|| RunError::Usage("'--compare' needs two .npy files".into()))?;
                options.compare = Some((a, b));
            }
            "tolerance" => {
                let v = value(inline)?;
                let parsed = v.parse().ok().filter(|t: &f64| *t >= 0.0);
                let expected = "a non-negative number";
                options.tolerance = parsed.ok_or(RunError::BadValue { option: name.into(), value: v, expected })?;
            }
            "repeat" => {
                let v = value(inline)?;
                let parsed = v.parse().ok().filter(|&n| n >= 1);
                let expected = "a positive integer";
                options.repeat = parsed.ok_or(RunError::BadValue { option: name.into(), value: v, expected })?;
            }
            _ => return Err(RunError::Usage(format!("unknown option '{arg}' (see --help)"))),
        }
    }
    if options.compare.is_some() {
        return Ok(Some(options));
    }
    if options.kernel.is_none() {
        return Err(RunError::Usage("no kernel file given (see --help)".into()));
    }
    if options.entry.is_none() && options.emit.is_none() {
        return Err(RunError::Usage("--entry NAME is required".into()));
    }
    if options.cost {
        if options.emit.is_some() || options.self_check || options.backend.is_some() || options.sanitize != 0 {
            return Err(RunError::Usage(
                "--cost models the AscendC kernel instead of running it: no --emit, --self-check, --backend or --sanitize"
                    .into(),
            ));
        }
    } else if options.mnk.is_some() || options.trace.is_some() {
        return Err(RunError::Usage("--mnk and --trace apply to --cost".into()));
    }
    let backend = options.backend.unwrap_or(Backend::Loops);
    if backend != Backend::Loops && (options.emit.is_some() || options.self_check) {
        return Err(RunError::Usage(format!(
            "--emit and --self-check apply to --backend loops, not {}",
            backend.name()
        )));
    }
    if backend == Backend::Loops
        && options.sanitize & ascendc_run::checks::SYNC != 0
        && options.sanitize != ascendc_run::checks::ALL
    {
        return Err(RunError::Usage(
            "--sanitize=synccheck checks the AscendC pipes: use it with --backend ascendc-cpp or ascendc-llvm".into(),
        ));
    }
    Ok(Some(options))
}

fn fail(message: &str) -> ExitCode {
    eprintln!("layout-run: error: {message}");
    ExitCode::FAILURE
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

fn main() -> ExitCode {
    layout_dialect::driver::run_on_driver_thread(
        driver,
        "internal error (a bug in layout-run; please report the input)",
        fail,
    )
}

fn driver() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    // `pack`, `unpack`, `bench-pack`: host-side packing (src/pack_cmd.rs).
    if let Some(result) = pack_cmd::dispatch(&argv) {
        return match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => report(error),
        };
    }
    let options = match parse_args(argv) {
        Ok(Some(options)) => options,
        Ok(None) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => return report(error),
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => report(error),
    }
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
    let text = std::fs::read(path).map_err(|source| RunError::OpenKernel { path: path.into(), source })?;
    let text = String::from_utf8_lossy(&text).into_owned();
    let mut sources = Sources::default();
    sources.add(path, &text);
    let render = |sources: &mut Sources, diags: &[Diag]| {
        let fixed: Vec<Diag> = diags.iter().cloned().map(|d| d.name_input(path)).collect();
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
    timer.lap("JIT engine creation");
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
