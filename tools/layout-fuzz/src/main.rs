//! `layout-fuzz`: a seeded, deterministic mutation fuzzer for layout-opt (stable Rust, no
//! libFuzzer). Targets:
//!
//! * `parse`: the layout-expression parser (`crates/layout-algebra/src/parse.rs`), in-process;
//! * `npy`: the `.npy` decoder (`crates/npy/src/npy.rs`), in-process;
//! * `calc`: `layout-calc` (its expression evaluator over the whole algebra), line protocol;
//! * `types`: `!layout.tensor` parameters (element type, space, layout, origin) mutated in the
//!   lit inputs, run through `layout-opt` (type parser and accessors behind every pass);
//! * `opt`: the lit inputs mutated as MLIR text, through `layout-opt`'s pipelines.
//!
//! Same seed, same inputs: with the default input counts the run is reproducible; `--duration`
//! runs by time instead. A finding is a panic, a crash (signal or exit status other than 0/1),
//! a time-out, or a broken rule of the tool's interface (see `targets.rs`); each is minimized
//! and saved under `--out` with the command that replays it. Exit status 1 if anything is found.

mod corpus;
mod error;
mod findings;
mod inproc;
mod mutate;
mod run;
mod targets;

use error::{FuzzError, Result};
use findings::Findings;
use mutate::Mutator;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};
use targets::{Generator, Problem, Runner, Setup, Target};

const USAGE: &str = "usage: layout-fuzz [options]
  --targets LIST      comma-separated subset of parse,npy,calc,types,opt (default: all)
  --seed N            seed of the mutator (default 1)
  --inputs N          inputs per target (default: the smoke-run counts, or unlimited with --duration)
  --duration SECS     total time, shared by the targets in turn
  --time-cap SECS     stop early after SECS (the counts stay the cap otherwise)
  --max-len BYTES     largest input (default 4096)
  --timeout-ms MS     time limit of one input (default 3000)
  --minimize-secs S   time spent minimizing each new finding (default 10)
  --root DIR          repository root (corpus source; default .)
  --bin-dir DIR       where layout-calc and layout-opt are (default: next to layout-fuzz)
  --out DIR           findings directory (default ROOT/target/fuzz/findings)
  --dump DIR          also write every input to DIR (to inspect what the mutator makes)
  --replay TARGET F   run one in-process target (parse, npy) on file F and print the verdict";

/// Inputs per target of the default (smoke) run: about 25 s on two shared cores, debug build.
const SMOKE_INPUTS: &[(&str, usize)] =
    &[("parse", 200_000), ("npy", 200_000), ("calc", 40_000), ("types", 2500), ("opt", 3000)];

struct Options {
    targets: Vec<String>,
    seed: u64,
    inputs: Option<usize>,
    duration: Option<Duration>,
    time_cap: Option<Duration>,
    max_len: usize,
    timeout: Duration,
    minimize: Duration,
    root: PathBuf,
    bin_dir: Option<PathBuf>,
    out: Option<PathBuf>,
    dump: Option<PathBuf>,
}

fn parse_args(args: &[String]) -> Result<Options> {
    let mut o = Options {
        targets: SMOKE_INPUTS.iter().map(|(n, _)| n.to_string()).collect(),
        seed: 1,
        inputs: None,
        duration: None,
        time_cap: None,
        max_len: 4096,
        timeout: Duration::from_millis(3000),
        minimize: Duration::from_secs(10),
        root: PathBuf::from("."),
        bin_dir: None,
        out: None,
        dump: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or_else(|| FuzzError::MissingValue { flag: flag.clone() });
        let number = |v: String| v.parse::<u64>().map_err(|_| FuzzError::NotANumber { flag: flag.clone(), value: v });
        match flag.as_str() {
            "--targets" => o.targets = value()?.split(',').map(str::to_string).collect(),
            "--seed" => o.seed = number(value()?)?,
            "--inputs" => o.inputs = Some(number(value()?)? as usize),
            "--duration" => o.duration = Some(Duration::from_secs(number(value()?)?)),
            "--time-cap" => o.time_cap = Some(Duration::from_secs(number(value()?)?)),
            "--max-len" => o.max_len = number(value()?)? as usize,
            "--timeout-ms" => o.timeout = Duration::from_millis(number(value()?)?),
            "--minimize-secs" => o.minimize = Duration::from_secs(number(value()?)?),
            "--root" => o.root = PathBuf::from(value()?),
            "--bin-dir" => o.bin_dir = Some(PathBuf::from(value()?)),
            "--out" => o.out = Some(PathBuf::from(value()?)),
            "--dump" => o.dump = Some(PathBuf::from(value()?)),
            _ => return Err(FuzzError::UnknownOption { flag: flag.clone(), usage: USAGE }),
        }
    }
    if let Some(bad) = o.targets.iter().find(|t| !SMOKE_INPUTS.iter().any(|(n, _)| n == t)) {
        return Err(FuzzError::UnknownTarget(bad.clone()));
    }
    Ok(o)
}

/// The calculator's function names, from its `--help` (`  name(ARGS)  help` lines).
fn calc_functions(bin_dir: &Path) -> Vec<String> {
    let help = Command::new(bin_dir.join("layout-calc")).arg("--help").output().map(|o| o.stdout).unwrap_or_default();
    String::from_utf8_lossy(&help)
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_once('(').map(|(name, _)| name.trim().to_string()))
        .filter(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect()
}

/// FNV-1a of the target name: each target draws from its own stream, whatever the selection.
fn target_seed(seed: u64, name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325 ^ seed, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn build_target(name: &str, o: &Options, bin_dir: &Path) -> Target {
    let seed = target_seed(o.seed, name);
    let chunks = corpus::mlir_chunks(&o.root, o.max_len);
    let layouts = corpus::layout_texts(&chunks);
    let (seeds, tokens, generator, runner, batch_size, extension) = match name {
        "parse" => (layouts, corpus::layout_tokens(), Generator::Mutants, Runner::InProcess, 1000, "layout"),
        "npy" => (corpus::npy_files(&o.root), corpus::npy_tokens(), Generator::Mutants, Runner::InProcess, 1000, "npy"),
        "calc" => {
            let mut lines = corpus::calc_lines(&o.root);
            lines.extend(layouts);
            (lines, corpus::calc_tokens(&calc_functions(bin_dir)), Generator::Mutants, Runner::Calc, 250, "calc")
        }
        "types" => {
            let typed: Vec<Vec<u8>> =
                chunks.iter().filter(|c| !targets::tensor_type_params(c).is_empty()).cloned().collect();
            let generator = Generator::TensorTypes { layouts: layouts.clone() };
            (typed, corpus::layout_tokens(), generator, Runner::Opt, 20, "mlir")
        }
        _ => {
            let tokens = corpus::mlir_tokens(&chunks);
            (chunks, tokens, Generator::Mutants, Runner::Opt, 20, "mlir")
        }
    };
    let name = SMOKE_INPUTS.iter().find(|(n, _)| *n == name).expect("known target").0;
    Target { name, seeds, mutator: Mutator::new(seed, tokens, o.max_len), generator, runner, batch_size, extension }
}

/// What one target did.
struct Tally {
    inputs: usize,
    elapsed: Duration,
    capped: bool,
}

/// Records the problems of a batch; batch-level ones are traced to single inputs by replaying
/// the batch one input at a time. Replays and minimization stop at `until`, so a time-capped
/// run stays capped even when it finds hangs.
#[allow(clippy::too_many_arguments)]
fn triage(
    target: &Target,
    setup: &Setup,
    found: &mut Findings,
    problems: Vec<Problem>,
    inputs: &[Vec<u8>],
    variant: usize,
    o: &Options,
    dir: &Path,
    until: Instant,
) {
    let budget = || o.minimize.min(until.saturating_duration_since(Instant::now()));
    let mut batch_level = Vec::new();
    for problem in problems {
        match problem.index {
            Some(i) if i < inputs.len() => found.record(target, setup, problem, &inputs[i], variant, dir, budget()),
            _ if inputs.len() == 1 => found.record(target, setup, problem, &inputs[0], variant, dir, budget()),
            _ => batch_level.push(problem),
        }
    }
    if batch_level.is_empty() {
        return;
    }
    let mut traced = false;
    for input in inputs {
        if Instant::now() >= until {
            break;
        }
        for problem in target.run(setup, std::slice::from_ref(input), variant) {
            traced = true;
            found.record(target, setup, problem, input, variant, dir, budget());
        }
    }
    if !traced {
        // Not traced to one input (out of time, or only the batch fails): keep the batch.
        let joined = inputs.join(&b"\n// -----\n"[..]);
        for problem in batch_level {
            let kind = format!("{} (batch)", problem.kind);
            found.record(target, setup, Problem { kind, ..problem }, &joined, variant, dir, Duration::ZERO);
        }
    }
}

fn fuzz(
    target: &mut Target,
    setup: &Setup,
    found: &mut Findings,
    o: &Options,
    count: usize,
    until: Instant,
    dir: &Path,
) -> Tally {
    let start = Instant::now();
    let (mut executed, mut batch) = (0, 0);
    while executed < count && Instant::now() < until {
        let n = target.batch_size.min(count - executed);
        let inputs: Vec<Vec<u8>> = (0..n).map(|_| target.generate()).collect();
        let variant = batch % target.variants();
        if let Some(dump) = &o.dump {
            for (i, input) in inputs.iter().enumerate() {
                let _ =
                    std::fs::write(dump.join(format!("{}-{}.{}", target.name, executed + i, target.extension)), input);
            }
        }
        let problems = target.run(setup, &inputs, variant);
        triage(target, setup, found, problems, &inputs, variant, o, dir, until);
        executed += n;
        batch += 1;
    }
    Tally { inputs: executed, elapsed: start.elapsed(), capped: executed < count }
}

fn replay(target: &str, file: &str) -> Result<bool> {
    let check = inproc::find(target)?;
    let bytes = std::fs::read(file).map_err(FuzzError::io(file))?;
    match check(&bytes) {
        Ok(()) => println!("{target}: ok"),
        Err(property) => println!("{target}: property violated: {property}"),
    }
    Ok(true)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("--worker") if args.len() == 2 => inproc::worker(&args[1]).map(|()| true),
        // A panic propagates (the panic message and status 101 are the verdict).
        Some("--replay") if args.len() == 3 => replay(&args[1], &args[2]),
        _ => parse_args(&args).and_then(|o| main_run(&o)),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("layout-fuzz: {error}");
            ExitCode::from(2)
        }
    }
}

fn main_run(o: &Options) -> Result<bool> {
    let fuzzer = std::env::current_exe().map_err(FuzzError::io("the fuzzer's own path"))?;
    let bin_dir = o.bin_dir.clone().unwrap_or_else(|| fuzzer.parent().map(Path::to_path_buf).unwrap_or_default());
    for tool in ["layout-calc", "layout-opt"] {
        if !bin_dir.join(tool).exists() {
            return Err(FuzzError::ToolMissing(bin_dir.join(tool)));
        }
    }
    let dir = o.out.clone().unwrap_or_else(|| o.root.join("target/fuzz/findings"));
    let scratch = std::env::temp_dir().join(format!("layout-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).map_err(FuzzError::io(scratch.display().to_string()))?;
    let setup = Setup { fuzzer, bin_dir: bin_dir.clone(), scratch: scratch.clone(), limit: o.timeout };
    let start = Instant::now();
    let end = [o.duration, o.time_cap].into_iter().flatten().min().map(|d| start + d);
    let mut found = Findings::default();
    let mut total = 0;
    for (i, name) in o.targets.iter().enumerate() {
        let mut target = build_target(name, o, &bin_dir);
        if target.seeds.is_empty() {
            return Err(FuzzError::EmptyCorpus(name.clone()));
        }
        let smoke = SMOKE_INPUTS.iter().find(|(n, _)| n == name).map_or(0, |(_, c)| *c);
        let count = o.inputs.unwrap_or(if o.duration.is_some() { usize::MAX } else { smoke });
        // The remaining time is shared by the remaining targets.
        let until = end.map_or(start + Duration::from_secs(365 * 86400), |end| {
            let now = Instant::now();
            now + end.saturating_duration_since(now) / (o.targets.len() - i) as u32
        });
        let before = found.by_key.len();
        let tally = fuzz(&mut target, &setup, &mut found, o, count, until, &dir);
        total += tally.inputs;
        println!(
            "fuzz: {name}: {} inputs from {} seeds, {} findings ({:.1} s{})",
            tally.inputs,
            target.seeds.len(),
            found.by_key.len() - before,
            tally.elapsed.as_secs_f64(),
            if tally.capped && o.duration.is_none() { ", stopped at the time cap" } else { "" }
        );
    }
    let _ = std::fs::remove_dir_all(&scratch);
    for (key, finding) in &found.by_key {
        println!(
            "fuzz: FINDING {key}\n      reproducer {} ({} bytes, from {}; {} hits)",
            finding.reproducer.display(),
            finding.minimized_len,
            finding.original_len,
            finding.hits
        );
    }
    println!("fuzz: {total} inputs, {} findings (seed {})", found.by_key.len(), o.seed);
    Ok(found.by_key.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A stand-in `layout-calc` that echoes lines and crashes on any line containing `BOOM`.
    fn fake_calc(dir: &Path) {
        let script = "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in *BOOM*) kill -SEGV $$;; esac\n  echo \"$line\"\ndone\n";
        let path = dir.join("layout-calc");
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_batch_crash_is_traced_to_its_input_minimized_and_saved() {
        let dir = std::env::temp_dir().join(format!("layout-fuzz-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        fake_calc(&dir);
        let o = parse_args(&[]).unwrap();
        let setup = Setup { fuzzer: PathBuf::new(), bin_dir: dir.clone(), scratch: dir.clone(), limit: o.timeout };
        let target = Target {
            name: "calc",
            seeds: vec![b"1".to_vec()],
            mutator: Mutator::new(1, vec![], 4096),
            generator: Generator::Mutants,
            runner: Runner::Calc,
            batch_size: 3,
            extension: "calc",
        };
        let inputs = vec![b"size(4)".to_vec(), b"(1,2):BOOM(3,4)".to_vec(), b"5".to_vec()];
        let problems = target.run(&setup, &inputs, 0);
        assert_eq!(problems.len(), 1);
        assert_eq!((problems[0].index, problems[0].kind.as_str()), (None, "crash"));
        let mut found = Findings::default();
        let out = dir.join("findings");
        triage(&target, &setup, &mut found, problems, &inputs, 0, &o, &out, Instant::now() + Duration::from_secs(60));
        let keys: Vec<&String> = found.by_key.keys().collect();
        assert_eq!(keys, vec!["calc: crash: signal 11: "]);
        let finding = &found.by_key[keys[0]];
        assert_eq!(std::fs::read(&finding.reproducer).unwrap(), b"BOOM");
        assert_eq!((finding.original_len, finding.minimized_len), (15, 4));
        let note = std::fs::read_to_string(finding.reproducer.with_extension("note")).unwrap();
        assert!(note.contains("replay: layout-calc < ") && note.contains("minimized from 15 to 4 bytes"), "{note}");
        // The input without the crash passes; nothing else was recorded.
        assert!(target.run(&setup, &inputs[..1], 0).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
