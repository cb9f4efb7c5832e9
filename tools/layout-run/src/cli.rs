//! The command line of `layout-run KERNEL.mlir... ` and of its packing subcommands (clap, with
//! layout-opt's conventions through `cli_common`: `--version`, `--completions SHELL`, "did you
//! mean" for misspelled flags, long options with one dash too). Values keep their own checks
//! and messages ([`Options::from_cli`]); `pack`, `unpack`, `bench-pack` are [`PackCommand`]s.

use crate::error::{Result, RunError};
use crate::pack_cmd::PackCommand;
use ascendc_emit::run::{self as ascendc_run, Backend};
use clap::{ArgAction, CommandFactory, FromArgMatches, Parser};

const AFTER_HELP: &str = "HOST PACKING (ND .npy <-> NZ/ZN/ZZ/NN/DN/ND buffers; see `layout-run pack --help`):
  layout-run pack --layout NZ [--dtype T] IN.npy OUT.npy
  layout-run unpack --layout NZ --rows R --cols C [--batch B] IN.npy OUT.npy
  layout-run bench-pack [--sizes 256x256,1000x1000] [--dtypes f16,f32]

SEVERAL KERNELS: each is processed on its own with the same flags, in order (outputs separated
by '// -----'); the arrays of kernel DIR/NAME.mlir go to OUT_DIR/NAME/argK.npy. The exit status
is 1 if any failed.

ELEMENT TYPES: f16, bf16, f32, f64, i8, i16, i32, i64. A bf16 argument reads a '<u2' file
(bfloat16 bits; see crates/npy/src/npy.rs for the marker convention); i8/i16 accept u1/u2 files.

COMPILED-KERNEL CACHE: objects are kept in $XDG_CACHE_HOME/layout-opt/jit (or
~/.cache/layout-opt/jit, or $LAYOUT_OPT_CACHE_DIR), at most $LAYOUT_OPT_CACHE_MAX_MB (256) MB;
LAYOUT_OPT_CACHE=off or --no-cache compiles every time (docs/jit-cache.md).
";

/// The flags as clap reads them; values are strings checked by [`Options::from_cli`].
#[derive(Parser, Debug, Default)]
#[command(
    name = "layout-run",
    version,
    about = "layout-run: lower a kernel to LLVM, JIT it, run it on .npy or seeded inputs",
    long_about = None,
    help_template = "OVERVIEW: {about}\n\nUSAGE: {usage}\n\nThe entry function must have the `llvm.emit_c_interface` attribute. Its memref arguments are\nread from .npy files or generated from the seed (static shapes only); after the call every\nmemref argument K is written to OUT_DIR/argK.npy and summarized on stdout.\n\n{all-args}\n\n{after-help}",
    after_help = AFTER_HELP,
    disable_version_flag = true,
    args_conflicts_with_subcommands = true,
    // `help` stays a file name, as before the subcommands were clap's (`--help` is the flag).
    disable_help_subcommand = true,
    term_width = 10_000
)]
pub struct Cli {
    /// The kernels (.mlir), each run on its own with the same flags
    #[arg(value_name = "KERNEL.mlir")]
    pub kernels: Vec<String>,
    #[command(subcommand)]
    pub pack: Option<PackCommand>,
    /// Function to call (required unless --emit is given)
    #[arg(long, value_name = "NAME")]
    pub entry: Option<String>,
    /// .npy file for memref argument K; without K=, inputs fill the memref arguments in order (repeatable)
    #[arg(long = "input", value_name = "[K=]FILE")]
    pub inputs: Vec<String>,
    /// Start memref argument K as zeros instead of random values
    #[arg(long = "zero", value_name = "K")]
    pub zeros: Vec<String>,
    /// Value of scalar argument K (index, i8-i64, f32, f64)
    #[arg(long = "arg", value_name = "K=VALUE")]
    pub args: Vec<String>,
    /// Seed of the input generator and of the block order (default 0)
    #[arg(long, value_name = "N")]
    pub seed: Option<String>,
    /// Launch N blocks (AscendC blockDim, default 1): the kernel runs once per block over the same GM buffers, in a shuffled order drawn from --seed; layout.block_idx / GetBlockIdx() tell the block (all back ends). With --cost: the blocks modelled
    #[arg(long = "block-dim", value_name = "N")]
    pub block_dim: Option<String>,
    /// Where argK.npy files go (default: the current directory)
    #[arg(long = "out-dir", short = 'o', value_name = "DIR")]
    pub out_dir: Option<String>,
    /// Print instead of running: llvm (the O2-optimized LLVM IR) or llvm-dialect (the module lowered to the LLVM dialect)
    #[arg(long, value_name = "KIND", value_parser = ["llvm", "llvm-dialect"])]
    pub emit: Option<String>,
    /// Print the time of each stage to stderr
    #[arg(long)]
    pub time: bool,
    /// Where the kernel runs: loops (default: layout-lower-to-loops + JIT), ascendc-cpp (layout-lower-to-ascendc, the emitted AscendC C++ compiled with g++ against the CPU model of the intrinsics), ascendc-llvm (the AscendC LLVM form, JIT, same model); same inputs, outputs and --compare for all three
    #[arg(long, value_name = "B")]
    pub backend: Option<String>,
    /// Run under the sanitizer, all checks or the listed ones (--sanitize=memcheck,synccheck): memcheck (every access inside its GM argument or on-chip buffer), initcheck (no read of an on-chip element nothing wrote), synccheck (AscendC back ends: cross-pipe accesses ordered by SetFlag -> WaitFlag, no WaitFlag without a SetFlag, no flag left set), racecheck (no two blocks of a --block-dim launch write the same GM bytes); the first violation is an error at the op (docs/sanitizer.md). On loops: initcheck and racecheck in the lowering, memcheck is its view and tile checks
    #[arg(long, value_name = "CHECKS", num_args = 0..=1, require_equals = true)]
    pub sanitize: Option<Option<String>>,
    /// Before running, check every address the layout lowering computes against the layout algebra (every coordinate of every tensor; index arguments of the entry from --arg); prints a summary
    #[arg(long = "self-check")]
    pub self_check: bool,
    /// Do not run: lower with layout-lower-to-ascendc and print the pipe-level cost model of the kernel (a model, not a measurement; docs/cost-model.md) for the index arguments given with --arg (no inputs needed): predicted time, per-pipe busy time, critical path, cube utilization
    #[arg(long)]
    pub cost: bool,
    /// --cost: the cube bound is 2*M*N*K FLOPs (default: the MACs the Mmads issue)
    #[arg(long, value_name = "M,N,K")]
    pub mnk: Option<String>,
    /// --cost: also write a Chrome-trace JSON timeline (Perfetto) to FILE
    #[arg(long, value_name = "FILE")]
    pub trace: Option<String>,
    /// Compare two arrays (no kernel): print the element count and the max |A - B|; fail when it exceeds --tolerance (default 0)
    #[arg(long, num_args = 2, value_names = ["A.npy", "B.npy"])]
    pub compare: Option<Vec<String>>,
    /// Tolerance of --compare
    #[arg(long, value_name = "T")]
    pub tolerance: Option<String>,
    /// Call the function N times (timing; outputs are those after the last call, so kernels that accumulate into an argument accumulate)
    #[arg(long, value_name = "N")]
    pub repeat: Option<String>,
    /// Compile the kernel even if the compiled-kernel cache has it, and do not store it (also LAYOUT_OPT_CACHE=off)
    #[arg(long = "no-cache")]
    pub no_cache: bool,
    /// Say on stderr whether the compiled code came from the cache (and where it is)
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Print a shell completion script and exit
    #[arg(long, value_name = "SHELL")]
    pub completions: Option<clap_complete::Shell>,
    /// Print the version and exit
    #[arg(long, short = 'V', action = ArgAction::Version)]
    pub version: (),
}

/// The run `layout-run KERNEL ...` asks for, checked.
#[derive(Default, Debug, Clone)]
pub struct Options {
    /// The kernel this run is of (one of `kernels`).
    pub kernel: Option<String>,
    /// Every kernel of the command line, in order.
    pub kernels: Vec<String>,
    pub entry: Option<String>,
    /// (argument index or None for "next memref", path)
    pub inputs: Vec<(Option<usize>, String)>,
    pub zeros: Vec<usize>,
    pub args: Vec<(usize, String)>,
    pub seed: u64,
    pub out_dir: Option<String>,
    pub emit: Option<String>,
    pub time: bool,
    pub repeat: usize,
    pub self_check: bool,
    pub compare: Option<(String, String)>,
    pub tolerance: f64,
    pub backend: Option<Backend>,
    /// The model's checks (`ascendc_emit::run::checks`); 0: no sanitizer.
    pub sanitize: u32,
    /// `--block-dim`: blocks launched, or modelled with `--cost` (None: 1).
    pub block_dim: Option<u32>,
    /// `--cost`: the cost model instead of a run.
    pub cost: bool,
    pub mnk: Option<[i64; 3]>,
    pub trace: Option<String>,
    /// `--no-cache`: compile every kernel.
    pub no_cache: bool,
    /// `--verbose`: report the cache's hits and misses.
    pub verbose: bool,
}

impl Options {
    /// The launch of `--block-dim` and `--seed`.
    pub fn launch(&self) -> ascendc_run::Launch {
        ascendc_run::Launch { block_dim: self.block_dim.unwrap_or(1), seed: self.seed }
    }
}

/// What the command line asks for.
pub enum Request {
    Run(Box<Options>),
    /// `pack`, `unpack`, `bench-pack`.
    Pack(PackCommand),
    /// Text for stdout (`--help`, `--version`, `--completions`).
    Print(Vec<u8>),
}

/// The command (for completions).
pub fn command() -> clap::Command {
    Cli::command()
}

/// Parses the arguments (without the program name).
pub fn parse(args: Vec<String>) -> Result<Request> {
    let mut rest = vec!["layout-run".to_string()];
    let mut positional_only = false;
    for arg in args {
        // Long options with one dash, as before clap (`-entry f`).
        match cli_common::long_with_one_dash(&arg) {
            Some(long) if !positional_only => rest.push(long),
            _ => {
                positional_only |= arg == "--";
                rest.push(arg);
            }
        }
    }
    let parsed = command().try_get_matches_from(rest).and_then(|matches| Cli::from_arg_matches(&matches));
    let mut cli = parsed.map_err(cli_common::from_clap)?;
    if let Some(shell) = cli.completions {
        return Ok(Request::Print(cli_common::completions(shell, &mut command(), "layout-run")));
    }
    if let Some(pack) = cli.pack.take() {
        return Ok(Request::Pack(pack));
    }
    Ok(Request::Run(Box::new(Options::from_cli(cli)?)))
}

/// The file name of `kernel` without its directory and extension (`a/b/gemm.mlir`: `gemm`).
fn kernel_name(kernel: &str) -> String {
    let path = std::path::Path::new(kernel);
    path.file_stem().map_or_else(|| kernel.to_string(), |stem| stem.to_string_lossy().into_owned())
}

/// `text` as the argument number of `--option`.
fn parse_index(text: &str, option: &str) -> Result<usize> {
    let bad = || RunError::BadValue { option: option.into(), value: text.into(), expected: "an argument number" };
    text.parse().map_err(|_| bad())
}

/// `value` of `--option` parsed and accepted by `keep`, else the error saying it is not `expected`.
fn value<T: std::str::FromStr>(
    option: &str,
    value: &str,
    keep: impl Fn(&T) -> bool,
    expected: &'static str,
) -> Result<T> {
    value.parse().ok().filter(keep).ok_or_else(|| RunError::BadValue {
        option: option.into(),
        value: value.into(),
        expected,
    })
}

impl Options {
    /// Checks the values and their combinations.
    pub fn from_cli(cli: Cli) -> Result<Options> {
        let mut options = Options {
            kernel: cli.kernels.first().cloned(),
            kernels: cli.kernels,
            entry: cli.entry,
            out_dir: cli.out_dir,
            emit: cli.emit,
            time: cli.time,
            self_check: cli.self_check,
            cost: cli.cost,
            trace: cli.trace,
            no_cache: cli.no_cache,
            verbose: cli.verbose,
            ..Options::default()
        };
        for input in cli.inputs {
            match input.split_once('=') {
                Some((k, path)) if k.chars().all(|c| c.is_ascii_digit()) && !k.is_empty() => {
                    options.inputs.push((Some(parse_index(k, "input")?), path.into()))
                }
                _ => options.inputs.push((None, input)),
            }
        }
        for k in cli.zeros {
            options.zeros.push(parse_index(&k, "zero")?);
        }
        for arg in cli.args {
            let (k, x) =
                arg.split_once('=').ok_or_else(|| RunError::Usage(format!("--arg: expected K=VALUE, got '{arg}'")))?;
            options.args.push((parse_index(k, "arg")?, x.to_string()));
        }
        if let Some(seed) = cli.seed {
            options.seed = value("seed", &seed, |_| true, "a non-negative integer")?;
        }
        if let Some(blocks) = cli.block_dim {
            options.block_dim = Some(value("block-dim", &blocks, |&n: &u32| n >= 1, "a positive integer")?);
        }
        if let Some(backend) = cli.backend {
            options.backend = Some(Backend::parse(&backend).ok_or_else(|| {
                RunError::Usage(format!("--backend: unknown back end '{backend}' ({})", Backend::NAMES))
            })?);
        }
        options.sanitize = match cli.sanitize.as_ref().map(Option::as_deref) {
            None => 0,
            Some(None) => ascendc_run::checks::ALL,
            Some(Some(list)) => {
                ascendc_run::checks::parse(list).map_err(|e| RunError::Usage(format!("--sanitize: {e}")))?
            }
        };
        if let Some(mnk) = cli.mnk {
            let parts: Vec<Option<i64>> = mnk.split(',').map(|x| x.trim().parse().ok().filter(|n| *n >= 0)).collect();
            let expected = "M,N,K (three non-negative integers)";
            match parts[..] {
                [Some(m), Some(n), Some(k)] => options.mnk = Some([m, n, k]),
                _ => return Err(RunError::BadValue { option: "mnk".into(), value: mnk, expected }),
            }
        }
        if let Some(pair) = cli.compare {
            let mut pair = pair.into_iter();
            options.compare = pair.next().zip(pair.next());
        }
        if let Some(tolerance) = cli.tolerance {
            options.tolerance = value("tolerance", &tolerance, |t: &f64| *t >= 0.0, "a non-negative number")?;
        }
        if let Some(repeat) = cli.repeat {
            options.repeat = value("repeat", &repeat, |&n: &usize| n >= 1, "a positive integer")?;
        }
        options.check_combination()?;
        options.check_kernel_names()?;
        Ok(options)
    }

    /// Several kernels write their arrays to OUT_DIR/NAME/: no two may share a NAME.
    fn check_kernel_names(&self) -> Result<()> {
        let mut seen = std::collections::HashMap::new();
        for kernel in self.kernels.iter().filter(|_| self.kernels.len() > 1) {
            let name = kernel_name(kernel);
            if let Some(first) = seen.insert(name.clone(), kernel) {
                return Err(RunError::Usage(format!(
                    "kernels '{first}' and '{kernel}' would both write their arrays to OUT_DIR/{name}/: rename one"
                )));
            }
        }
        Ok(())
    }

    /// The run of `kernel` when the command line has several: its arrays go to OUT_DIR/NAME.
    pub fn for_kernel(&self, kernel: &str) -> Options {
        let out_dir = std::path::Path::new(self.out_dir.as_deref().unwrap_or(".")).join(kernel_name(kernel));
        Options { kernel: Some(kernel.to_string()), out_dir: Some(out_dir.display().to_string()), ..self.clone() }
    }

    fn check_combination(&self) -> Result<()> {
        if self.compare.is_some() {
            return Ok(());
        }
        if self.kernel.is_none() {
            return Err(RunError::Usage("no kernel file given (see --help)".into()));
        }
        if self.entry.is_none() && self.emit.is_none() {
            return Err(RunError::Usage("--entry NAME is required".into()));
        }
        if self.cost {
            if self.emit.is_some() || self.self_check || self.backend.is_some() || self.sanitize != 0 {
                return Err(RunError::Usage(
                    "--cost models the AscendC kernel instead of running it: no --emit, --self-check, --backend or --sanitize"
                        .into(),
                ));
            }
        } else if self.mnk.is_some() || self.trace.is_some() {
            return Err(RunError::Usage("--mnk and --trace apply to --cost".into()));
        }
        let backend = self.backend.unwrap_or(Backend::Loops);
        if backend != Backend::Loops && (self.emit.is_some() || self.self_check) {
            return Err(RunError::Usage(format!(
                "--emit and --self-check apply to --backend loops, not {}",
                backend.name()
            )));
        }
        if backend == Backend::Loops
            && self.sanitize & ascendc_run::checks::SYNC != 0
            && self.sanitize != ascendc_run::checks::ALL
        {
            return Err(RunError::Usage(
                "--sanitize=synccheck checks the AscendC pipes: use it with --backend ascendc-cpp or ascendc-llvm"
                    .into(),
            ));
        }
        Ok(())
    }
}
