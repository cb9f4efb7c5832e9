//! The fuzz targets: how each makes an input from the corpus, runs a batch of inputs in a child
//! process, and judges the outcome.
//!
//! A batch whose child crashes (signal, exit status other than 0/1), times out or breaks the
//! output rules is replayed one input at a time by the driver to find the input responsible.

use crate::inproc::encode_batch;
use crate::mutate::Mutator;
use crate::run::{run, Status};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// Something wrong with a run. `index` is the input of the batch, or `None` when the whole
/// batch is to blame (a crash takes every later input with it).
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub index: Option<usize>,
    pub kind: String,
    pub detail: String,
}

impl Problem {
    fn batch(kind: &str, detail: impl Into<String>) -> Self {
        Problem { index: None, kind: kind.into(), detail: detail.into() }
    }
}

/// Where the binaries are and how long one input may run.
pub struct Setup {
    pub fuzzer: PathBuf,
    pub bin_dir: PathBuf,
    pub scratch: PathBuf,
    pub limit: Duration,
}

/// How a target makes its inputs.
pub enum Generator {
    /// Mutants of the seeds.
    Mutants,
    /// Mutants of one `!layout.tensor` parameter of an MLIR seed.
    TensorTypes { layouts: Vec<Vec<u8>> },
}

/// How a target runs a batch.
pub enum Runner {
    /// `layout-fuzz --worker NAME`.
    InProcess,
    /// `layout-calc` reading one expression per line.
    Calc,
    /// `layout-opt --split-input-file` with one of [`PIPELINES`].
    Opt,
}

pub struct Target {
    pub name: &'static str,
    pub seeds: Vec<Vec<u8>>,
    pub mutator: Mutator,
    pub generator: Generator,
    pub runner: Runner,
    pub batch_size: usize,
    /// File extension of saved reproducers.
    pub extension: &'static str,
}

/// The `layout-opt` pipelines exercised, one per batch in turn.
pub const PIPELINES: &[&[&str]] = &[
    &["--layout-verify"],
    &["--layout-fold"],
    &["--default-pipeline"],
    &["--layout-lower-to-ascendc", "--emit=ascendc"],
    &["--emit=llvm"],
];

impl Target {
    pub fn variants(&self) -> usize {
        match self.runner {
            Runner::Opt => PIPELINES.len(),
            _ => 1,
        }
    }

    /// One new input.
    pub fn generate(&mut self) -> Vec<u8> {
        let seed = self.mutator.pick(&self.seeds).clone();
        let input = match &self.generator {
            // Most MLIR mutants keep the syntax and change numbers, so they reach the passes.
            Generator::Mutants if matches!(self.runner, Runner::Opt) && self.mutator.chance(60) => {
                let mut input = seed;
                for _ in 0..1 + self.mutator.below(2) {
                    self.mutator.replace_integer(&mut input);
                }
                input
            }
            Generator::Mutants => self.mutator.mutant(&seed, &self.seeds),
            Generator::TensorTypes { layouts } => {
                let layouts = layouts.clone();
                mutate_tensor_type(&mut self.mutator, &seed, &layouts)
            }
        };
        match self.runner {
            Runner::Calc => calc_line(&input),
            _ => input,
        }
    }

    /// Runs `inputs` as one batch with pipeline `variant`.
    pub fn run(&self, setup: &Setup, inputs: &[Vec<u8>], variant: usize) -> Vec<Problem> {
        let result = match self.runner {
            Runner::InProcess => run_in_process(setup, self.name, inputs),
            Runner::Calc => run_calc(setup, inputs),
            Runner::Opt => run_opt(setup, inputs, variant),
        };
        result.unwrap_or_else(|error| vec![Problem::batch("harness error", error.to_string())])
    }

    /// The shell command that replays a saved reproducer.
    pub fn command(&self, path: &Path, variant: usize) -> String {
        let path = path.display();
        match self.runner {
            Runner::InProcess => format!("layout-fuzz --replay {} {path}", self.name),
            Runner::Calc => format!("layout-calc < {path}"),
            Runner::Opt => format!("layout-opt --split-input-file {} {path}", PIPELINES[variant].join(" ")),
        }
    }
}

fn run_in_process(setup: &Setup, name: &str, inputs: &[Vec<u8>]) -> std::io::Result<Vec<Problem>> {
    let out = run(
        Command::new(&setup.fuzzer).args(["--worker", name]),
        &encode_batch(inputs),
        batch_limit(setup, inputs, Duration::from_millis(20)),
    )?;
    if let Some(problem) = abnormal(out.status, &out.stderr_text(), setup.limit) {
        return Ok(vec![problem]);
    }
    Ok(out
        .stdout_text()
        .lines()
        .filter_map(|line| {
            let mut fields = line.splitn(3, '\t');
            let index = fields.next()?.parse().ok()?;
            Some(Problem {
                index: Some(index),
                kind: fields.next()?.into(),
                detail: fields.next().unwrap_or("").into(),
            })
        })
        .collect())
}

/// A batch may take the per-input limit plus `each` per input.
fn batch_limit(setup: &Setup, inputs: &[Vec<u8>], each: Duration) -> Duration {
    setup.limit + each * inputs.len() as u32
}

/// The `file:line` and message of a Rust panic reported on stderr
/// (`thread 'main' panicked at FILE:LINE:COL:` and the message on the next line).
fn panic_report(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines();
    let at = lines.find_map(|l| l.split_once("panicked at ").map(|(_, at)| at.trim_end_matches(':').to_string()))?;
    let location = at.rsplit_once(':').map_or(at.as_str(), |(file_line, _column)| file_line).to_string();
    Some(format!("{location}: {}", lines.next().unwrap_or("").chars().take(200).collect::<String>()))
}

/// A crash, a time-out or an exit status other than 0 (success) and 1 (reported error). A
/// Rust panic that escaped is reported as a panic with its location.
fn abnormal(status: Status, stderr: &str, limit: Duration) -> Option<Problem> {
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("").chars().take(200).collect::<String>();
    match status {
        Status::Exited(0 | 1) | Status::TimedOut => {}
        _ => {
            if let Some(report) = panic_report(stderr) {
                return Some(Problem::batch("panic", report));
            }
        }
    }
    match status {
        Status::Exited(0 | 1) => None,
        Status::Exited(code) => Some(Problem::batch("crash", format!("exit status {code}: {last}"))),
        Status::Signaled(signal) => Some(Problem::batch("crash", format!("signal {signal}: {last}"))),
        Status::TimedOut => Some(Problem::batch("timeout", format!("no result within {} ms", limit.as_millis()))),
    }
}

/// One calculator line: valid UTF-8 (lossy), no line breaks.
fn calc_line(input: &[u8]) -> Vec<u8> {
    String::from_utf8_lossy(input).replace(['\n', '\r'], " ").into_bytes()
}

/// Whether `layout-calc` prints a line for this input line (blank and `#` lines print nothing).
fn prints_a_line(line: &str) -> bool {
    let trimmed = line.trim();
    !trimmed.is_empty() && !trimmed.starts_with('#')
}

/// The rules of `layout-calc`'s line protocol: one output line per expression, `error: ...`
/// lines exactly when the exit status is 1, syntax error columns inside the line.
fn run_calc(setup: &Setup, inputs: &[Vec<u8>]) -> std::io::Result<Vec<Problem>> {
    let mut stdin = Vec::new();
    for input in inputs {
        stdin.extend(input);
        stdin.push(b'\n');
    }
    let out = run(
        &mut Command::new(setup.bin_dir.join("layout-calc")),
        &stdin,
        batch_limit(setup, inputs, Duration::from_millis(20)),
    )?;
    if let Some(problem) = abnormal(out.status, &out.stderr_text(), setup.limit) {
        return Ok(vec![problem]);
    }
    let stdout = out.stdout_text();
    let printed: Vec<&str> = stdout.lines().collect();
    let expressions: Vec<(usize, String)> = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| (i, String::from_utf8_lossy(input).into_owned()))
        .filter(|(_, line)| prints_a_line(line))
        .collect();
    if printed.len() != expressions.len() {
        let detail = format!("{} expressions printed {} lines", expressions.len(), printed.len());
        return Ok(vec![Problem::batch("output lines", detail)]);
    }
    let mut problems = Vec::new();
    let errors = printed.iter().filter(|l| l.starts_with("error: ")).count();
    if (errors > 0) != (out.status == Status::Exited(1)) {
        problems.push(Problem::batch("exit status", format!("{errors} error lines but {:?}", out.status)));
    }
    for ((index, line), output) in expressions.iter().zip(&printed) {
        let Some(column) = output.strip_prefix("error: column ").and_then(|r| r.split(':').next()) else { continue };
        let last = line.trim().chars().count() + 1;
        if column.parse::<usize>().map_or(true, |c| c == 0 || c > last) {
            let detail = format!("syntax error column {column} outside 1..={last}");
            problems.push(Problem { index: Some(*index), kind: "error column".into(), detail });
        }
    }
    Ok(problems)
}

/// The rules of `layout-opt`: exit 0 or 1; an error diagnostic exactly when the exit status
/// is 1; `-o FILE` written completely on success and not at all on failure; no panics.
fn run_opt(setup: &Setup, inputs: &[Vec<u8>], variant: usize) -> std::io::Result<Vec<Problem>> {
    let output = setup.scratch.join("out.mlir");
    let _ = std::fs::remove_file(&output);
    let mut stdin = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        if i > 0 {
            stdin.extend(b"\n// -----\n");
        }
        stdin.extend(input);
    }
    let mut command = Command::new(setup.bin_dir.join("layout-opt"));
    command.args(["--split-input-file", "-", "-o"]).arg(&output).args(PIPELINES[variant]);
    let out = run(&mut command, &stdin, batch_limit(setup, inputs, Duration::from_millis(300)))?;
    let stderr = out.stderr_text();
    if let Some(problem) = abnormal(out.status, &stderr, setup.limit) {
        return Ok(vec![problem]);
    }
    let mut problems = Vec::new();
    if stderr.contains("internal error") || stderr.contains("panicked") {
        problems.push(Problem::batch("internal error", first_line_with(&stderr, "error")));
    }
    let has_error = stderr.contains("error:");
    let failed = out.status == Status::Exited(1);
    if failed && !has_error {
        problems.push(Problem::batch("failure without a diagnostic", first_line_with(&stderr, "")));
    }
    if !failed && has_error {
        problems.push(Problem::batch("error but exit status 0", first_line_with(&stderr, "error:")));
    }
    if stderr.contains("a pass failed without a diagnostic") {
        problems.push(Problem::batch("pass failed without a diagnostic", PIPELINES[variant].join(" ")));
    }
    if output.exists() == failed {
        let detail =
            if failed { "output file written although the run failed" } else { "no output file after success" };
        problems.push(Problem::batch("half-written output", detail));
    }
    let leftovers = std::fs::read_dir(&setup.scratch)?.flatten().filter(|e| e.file_name() != "out.mlir").count();
    if leftovers > 0 {
        problems.push(Problem::batch("half-written output", format!("{leftovers} temporary files left behind")));
        for entry in std::fs::read_dir(&setup.scratch)?.flatten() {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    Ok(problems)
}

fn first_line_with(text: &str, needle: &str) -> String {
    text.lines().find(|l| l.contains(needle)).unwrap_or("").chars().take(200).collect()
}

/// The byte ranges of the four parameters of each `!layout.tensor<...>` in `text` (top-level
/// commas outside string literals), as `[start, end)` pairs.
pub fn tensor_type_params(text: &[u8]) -> Vec<Vec<(usize, usize)>> {
    const OPEN: &[u8] = b"!layout.tensor<";
    let mut types = Vec::new();
    let mut from = 0;
    while let Some(offset) = text[from..].windows(OPEN.len()).position(|w| w == OPEN) {
        let start = from + offset + OPEN.len();
        let (mut depth, mut quoted, mut escaped) = (0i32, false, false);
        let mut params = Vec::new();
        let mut param_start = start;
        for (i, &c) in text.iter().enumerate().skip(start) {
            if quoted {
                (escaped, quoted) = match (escaped, c) {
                    (true, _) => (false, true),
                    (false, b'\\') => (true, true),
                    (false, b'"') => (false, false),
                    _ => (false, true),
                };
                continue;
            }
            match c {
                b'"' => quoted = true,
                b'<' | b'(' | b'[' | b'{' => depth += 1,
                b',' if depth == 0 => {
                    params.push((param_start, i));
                    param_start = i + 1;
                }
                b'>' if depth == 0 => {
                    params.push((param_start, i));
                    break;
                }
                b'>' | b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
        }
        if params.len() == 4 {
            types.push(params);
        }
        from = start;
    }
    types
}

/// An MLIR string literal: `"`, `\` and bytes outside printable ASCII as `\XX`.
fn mlir_string(bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![b'"'];
    for &b in bytes {
        match b {
            b'"' | b'\\' | ..=0x1f | 0x7f.. => out.extend(format!("\\{b:02X}").into_bytes()),
            _ => out.push(b),
        }
    }
    out.push(b'"');
    out
}

const ELEMENT_TYPES: &[&str] = &[
    "f16",
    "bf16",
    "f32",
    "f64",
    "i1",
    "i8",
    "i32",
    "i64",
    "f8E4M3FN",
    "f8E8M0FNU",
    "f4E2M1FN",
    "index",
    "i3",
    "vector<4xf16>",
    "none",
    "ui8",
];
const SPACES: &[&str] = &["gm", "l1", "l0a", "l0b", "l0c", "ub", "l0a_scale", "l0b_scale", "", "L1", "l2"];

/// Replaces one parameter of one `!layout.tensor` type of `seed`, everywhere that type is
/// written (so values keep matching types and the change reaches the passes): the element type
/// or memory space by another name, the layout or origin by a mutant of a layout string.
pub fn mutate_tensor_type(m: &mut Mutator, seed: &[u8], layouts: &[Vec<u8>]) -> Vec<u8> {
    let types = tensor_type_params(seed);
    if types.is_empty() || layouts.is_empty() {
        return m.mutant(seed, &[]);
    }
    let params = m.pick(&types).clone();
    let which = m.below(4);
    let (start, end) = params[which];
    let replacement = match which {
        0 => m.pick(ELEMENT_TYPES).as_bytes().to_vec(),
        1 => mlir_string(m.pick(SPACES).as_bytes()),
        _ => {
            let current = seed[start..end].trim_ascii();
            let current = current.strip_prefix(b"\"").and_then(|c| c.strip_suffix(b"\"")).unwrap_or(current).to_vec();
            let mutant = match m.below(3) {
                // Small steps keep the text a layout: other integers.
                0 => {
                    let mut text = current;
                    m.replace_integer(&mut text);
                    text
                }
                1 => m.mutant(&current, layouts),
                _ => {
                    let other = m.pick(layouts).clone();
                    m.mutant(&other, layouts)
                }
            };
            mlir_string(&mutant)
        }
    };
    // The whole type as written, from `!layout.tensor<` to its `>`.
    let type_start = params[0].0 - b"!layout.tensor<".len();
    let type_end = params[3].1 + 1;
    let old = &seed[type_start..type_end];
    let mut new = seed[type_start..start].to_vec();
    new.push(b' ');
    new.extend(replacement);
    new.extend(&seed[end..type_end]);
    let mut out = replace_all(seed, old, &new);
    out.truncate(m.max_len);
    out
}

/// `haystack` with every occurrence of `old` replaced by `new`.
fn replace_all(haystack: &[u8], old: &[u8], new: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(haystack.len());
    let mut i = 0;
    while i < haystack.len() {
        if !old.is_empty() && haystack[i..].starts_with(old) {
            out.extend(new);
            i += old.len();
        } else {
            out.push(haystack[i]);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_panics_are_reported_with_their_location() {
        let stderr = "\nthread 'main' (30911) panicked at crates/x/src/parse.rs:81:17:\nbyte index 6 is not a char boundary\nnote: ...";
        let problem = abnormal(Status::Exited(101), stderr, Duration::from_secs(1)).unwrap();
        assert_eq!(
            (problem.kind.as_str(), problem.detail.as_str()),
            ("panic", "crates/x/src/parse.rs:81: byte index 6 is not a char boundary")
        );
        let problem =
            abnormal(Status::Signaled(6), "fatal runtime error: stack overflow", Duration::from_secs(1)).unwrap();
        assert_eq!(
            (problem.kind.as_str(), problem.detail.as_str()),
            ("crash", "signal 6: fatal runtime error: stack overflow")
        );
        assert_eq!(abnormal(Status::Exited(1), "error: x", Duration::from_secs(1)), None);
    }

    #[test]
    fn finds_the_four_parameters_of_each_tensor_type() {
        let text = br#"%a : !layout.tensor<f16, "l1", "(4,?):(1,\22)", "(4,?)"> -> !layout.tensor<vector<2xf16>, "gm", "ND", "(1,2)">"#;
        let types = tensor_type_params(text);
        let params: Vec<Vec<&str>> = types
            .iter()
            .map(|t| t.iter().map(|&(s, e)| std::str::from_utf8(&text[s..e]).unwrap().trim()).collect())
            .collect();
        assert_eq!(
            params,
            vec![
                vec!["f16", "\"l1\"", r#""(4,?):(1,\22)""#, "\"(4,?)\""],
                vec!["vector<2xf16>", "\"gm\"", "\"ND\"", "\"(1,2)\""]
            ]
        );
    }

    #[test]
    fn tensor_type_mutants_change_one_parameter_everywhere() {
        let ty = r#"!layout.tensor<f16, "l1", "NZ", "(100,100)">"#;
        let seed = format!("%a = \"layout.alloc\"() : () -> {ty}\n\"layout.store\"(%a) : ({ty}) -> ()");
        let mut m = Mutator::new(3, vec![], 4096);
        let mut changed = 0;
        for _ in 0..100 {
            let mutant = mutate_tensor_type(&mut m, seed.as_bytes(), &[b"(4,?):(1,4)".to_vec()]);
            let text = String::from_utf8(mutant).unwrap();
            let (alloc, store) = text.split_once('\n').unwrap();
            let new_ty = alloc.strip_prefix("%a = \"layout.alloc\"() : () -> ").expect("prefix kept");
            assert_eq!(store, format!("\"layout.store\"(%a) : ({new_ty}) -> ()"), "both uses change alike");
            assert!(new_ty.starts_with("!layout.tensor<") && new_ty.ends_with('>'), "{text}");
            changed += usize::from(new_ty.replace(' ', "") != ty.replace(' ', ""));
        }
        assert!(changed > 50, "{changed}");
        assert_eq!(mlir_string(b"a\"b\n"), br#""a\22b\0A""#.to_vec());
    }
}
