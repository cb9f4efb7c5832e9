//! `layout-opt`: an `mlir-opt`-style driver for the layout dialect.
//!
//! Thin by design: argument parsing and wiring; the dialect lives in `dialects/layout`, the
//! passes in `passes/`. See README.md for usage and measurements.

mod diagnostics;
mod emit;
mod error;
mod pipeline;
mod upstream;

use error::OptError;
use layout_dialect::types::StringLiterals;
use layout_runtime::{Capture, Diag, Sources};
use melior::{
    ir::operation::{OperationLike, OperationPrintingFlags},
    pass::{PassIrPrintingOptions, PassManager},
};
use std::{
    io::{Read, Write},
    path::PathBuf,
    process::ExitCode,
};

const SPLIT_MARKER: &str = "// -----";

#[derive(Default)]
struct Options {
    input: Option<String>,
    output: Option<String>,
    split_input_file: bool,
    verify_diagnostics: bool,
    print_generic: bool,
    print_debuginfo: bool,
    print_ir_after_all: bool,
    /// `--mlir-timing`: MLIR's per-pass wall-time report (stderr, when the pass manager ends).
    timing: bool,
    pipeline: Option<String>,
    /// `--default-pipeline`: run [`pipeline::default_pipeline`].
    default_pipeline: bool,
    /// Pass flags in command-line order.
    pass_flags: Vec<String>,
    /// `--emit=KIND` (see `emit.rs`).
    emit: emit::Emit,
}

enum Parsed {
    Run(Options),
    Help,
    PrintDefaultPipeline,
}

fn usage() -> String {
    let mut text = String::from(
        "OVERVIEW: layout-opt: parse, verify and transform layout-dialect MLIR (mlir-opt conventions)

USAGE: layout-opt [options] [<input file> | -]

OPTIONS:
  -o <file>                     Output file ('-' = stdout, default); written atomically, and
                                not at all when an error occurs
  --split-input-file            Split the input on '// -----' and process each chunk
                                separately (diagnostics keep the original line numbers)
  --verify-diagnostics          Check diagnostics against 'expected-error@+1 {{...}}' comments
                                (error|warning|note|remark; @+N, @-N, @above, @below, @unknown)
  --pass-pipeline=<pipeline>    e.g. 'builtin.module(layout-verify,canonicalize,func.func(cse))'
  --default-pipeline            Run the default pipeline (verify, fold, lower to loops,
                                simplify offsets, clean up; printed by --print-default-pipeline)
  --print-default-pipeline      Print the default pipeline's text and exit
  --emit=<kind>                 What to print after the passes:
{EMIT_KINDS}  --mlir-print-op-generic       Print operations in generic form
  --mlir-print-debuginfo        Print locations
  --mlir-print-ir-after-all     Print the IR after each pass (to stderr)
  --mlir-timing                 Print each pass's wall time (to stderr, like mlir-opt)
  --help                        This text

PASSES (each also a flag, e.g. --layout-verify; flags run in command-line order):
",
    )
    .replace("{EMIT_KINDS}", &emit::Emit::help());
    for info in layout_passes::PASSES {
        text.push_str(&format!("  --{:<28} {}\n", info.argument, info.description));
    }
    for (name, description, _) in upstream::PASSES {
        text.push_str(&format!("  --{name:<28} {description}\n"));
    }
    text
}

fn parse_args(args: Vec<String>) -> Result<Parsed, OptError> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    let mut positional_only = false;
    while let Some(arg) = args.next() {
        if positional_only || arg == "-" || !arg.starts_with('-') {
            if options.input.replace(arg.clone()).is_some() {
                return Err(OptError::SecondInput(arg));
            }
            continue;
        }
        if arg == "--" {
            positional_only = true;
            continue;
        }
        if arg == "-o" {
            options.output = Some(args.next().ok_or_else(|| OptError::Usage("'-o' needs a file name".into()))?);
            continue;
        }
        if let Some(file) = arg.strip_prefix("-o").filter(|f| !f.starts_with('-') && !f.is_empty()) {
            options.output = Some(file.trim_start_matches('=').to_string());
            continue;
        }
        // mlir-opt accepts long options with one or two dashes.
        let long = arg.trim_start_matches('-');
        let (name, value) = match long.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (long, None),
        };
        let flag = |value: &Option<String>| -> Result<(), OptError> {
            match value {
                None => Ok(()),
                Some(v) => Err(OptError::TakesNoValue { option: name.to_string(), value: v.clone() }),
            }
        };
        match name {
            "help" | "h" => return Ok(Parsed::Help),
            "split-input-file" => {
                flag(&value)?;
                options.split_input_file = true
            }
            "verify-diagnostics" => {
                flag(&value)?;
                options.verify_diagnostics = true
            }
            "mlir-print-op-generic" => {
                flag(&value)?;
                options.print_generic = true
            }
            "mlir-print-debuginfo" => {
                flag(&value)?;
                options.print_debuginfo = true
            }
            "mlir-print-ir-after-all" => {
                flag(&value)?;
                options.print_ir_after_all = true
            }
            "mlir-timing" => {
                flag(&value)?;
                options.timing = true
            }
            "pass-pipeline" => {
                let text = match value {
                    Some(v) => v,
                    None => args.next().ok_or_else(|| OptError::Usage("'--pass-pipeline' needs a pipeline".into()))?,
                };
                if options.pipeline.replace(text).is_some() {
                    return Err(OptError::Usage("'--pass-pipeline' given twice".into()));
                }
            }
            "default-pipeline" => {
                flag(&value)?;
                options.default_pipeline = true
            }
            "print-default-pipeline" => {
                flag(&value)?;
                return Ok(Parsed::PrintDefaultPipeline);
            }
            "emit" => {
                let kind =
                    value.as_deref().ok_or_else(|| OptError::Usage("'--emit' needs a kind: --emit=KIND".into()))?;
                options.emit = emit::Emit::parse(kind)?;
            }
            "allow-unregistered-dialect" => {
                return Err(OptError::Usage("'--allow-unregistered-dialect' is not supported: every op must be registered, so a misspelled op name is an error".into()))
            }
            _ if layout_passes::find(name).is_some() || upstream::is_upstream(name) => {
                flag(&value)?;
                options.pass_flags.push(name.to_string());
            }
            _ => return Err(OptError::UnknownOption(arg)),
        }
    }
    if options.pipeline.is_some() && !options.pass_flags.is_empty() {
        return Err(OptError::Usage("'--pass-pipeline' cannot be combined with pass flags".into()));
    }
    if options.default_pipeline && (options.pipeline.is_some() || !options.pass_flags.is_empty()) {
        return Err(OptError::Usage(
            "'--default-pipeline' cannot be combined with '--pass-pipeline' or pass flags".into(),
        ));
    }
    if options.default_pipeline {
        options.pipeline = Some(pipeline::default_pipeline());
    }
    Ok(Parsed::Run(options))
}

/// A piece of the input: its text and the line (1-based) where it starts in the file.
struct Chunk {
    first_line: usize,
    text: String,
}

fn split(text: &str, enabled: bool) -> Vec<Chunk> {
    if !enabled {
        return vec![Chunk { first_line: 1, text: text.to_string() }];
    }
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut first_line = 1;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_end().trim_start() == SPLIT_MARKER {
            chunks.push(Chunk { first_line, text: std::mem::take(&mut current) });
            first_line = i + 2;
        } else {
            current.push_str(line);
        }
    }
    chunks.push(Chunk { first_line, text: current });
    chunks
}

/// Deepest bracket nesting accepted. MLIR's parser, verifier and printer recurse per level and
/// would overflow the stack (a crash, in `mlir-opt` too) on absurd inputs; real kernels nest a
/// few dozen levels.
const MAX_NESTING: usize = 1000;

/// The 1-based (line, column) where bracket nesting first exceeds [`MAX_NESTING`], ignoring
/// string literals and `//` comments.
fn too_deep(text: &str) -> Option<(usize, usize)> {
    let mut depth = 0usize;
    for (index, line) in text.lines().enumerate() {
        let mut strings = StringLiterals::default();
        let mut previous = ' ';
        for (column, c) in line.char_indices() {
            if strings.inside(c) {
                continue;
            }
            match c {
                '/' if previous == '/' => break,
                '{' | '(' | '[' | '<' => {
                    depth += 1;
                    if depth > MAX_NESTING {
                        return Some((index + 1, column + 1));
                    }
                }
                '>' if previous == '-' => {}
                '}' | ')' | ']' | '>' => depth = depth.saturating_sub(1),
                _ => {}
            }
            previous = c;
        }
    }
    None
}

fn fail(message: &str) -> ExitCode {
    eprintln!("layout-opt: error: {message}");
    ExitCode::FAILURE
}

fn fail_with(error: OptError) -> ExitCode {
    fail(&error.to_string())
}

fn main() -> ExitCode {
    layout_dialect::driver::run_on_driver_thread(
        run,
        "internal error (this is a bug in layout-opt; please report the input)",
        fail,
    )
}

fn run() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1).collect()) {
        Ok(Parsed::Run(options)) => options,
        Ok(Parsed::Help) => {
            print!("{}", usage());
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::PrintDefaultPipeline) => {
            println!("{}", pipeline::default_pipeline());
            return ExitCode::SUCCESS;
        }
        Err(error) => return fail_with(error),
    };

    // Pipeline: explicit text, or the pass flags in order.
    let elements = match &options.pipeline {
        Some(text) => match pipeline::parse(text) {
            Ok(elements) => elements,
            Err(error) => return fail_with(error),
        },
        None => options
            .pass_flags
            .iter()
            .map(|name| pipeline::Element::Pass { name: name.clone(), options: None })
            .collect(),
    };

    // Input.
    let input = options.input.clone().unwrap_or_else(|| "-".into());
    let (display, bytes) = if input == "-" {
        let mut bytes = Vec::new();
        if let Err(error) = std::io::stdin().read_to_end(&mut bytes) {
            return fail_with(OptError::ReadStdin(error));
        }
        ("<stdin>".to_string(), bytes)
    } else {
        match std::fs::read(&input) {
            Ok(bytes) => (input.clone(), bytes),
            Err(source) => return fail_with(OptError::OpenInput { path: input.clone(), source }),
        }
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let mut sources = Sources::mlir_opt();
    sources.add(&display, &text);

    // Context, diagnostics, passes.
    upstream::register();
    let context = match layout_dialect::create_context() {
        Ok(context) => context,
        Err(error) => return fail_with(error.into()),
    };
    // LLVM dialect and translations for --emit=llvm.
    layout_runtime::prepare_context(&context);
    let captured = Capture::new(&context, &display);
    let manager = PassManager::new(&context);
    if let Err(error) = pipeline::add_to(manager.as_operation_pass_manager().to_raw(), &elements) {
        return fail_with(error);
    }
    if options.print_ir_after_all {
        manager.enable_ir_printing(&PassIrPrintingOptions {
            before_all: false,
            after_all: true,
            module_scope: false,
            on_change: false,
            on_failure: false,
            flags: OperationPrintingFlags::new(),
            tree_printing_path: PathBuf::new(),
        });
    }

    if options.timing {
        // Safety: a live pass manager; MLIR prints the report when it is destroyed.
        unsafe { mlir_sys::mlirPassManagerEnableTiming(manager.to_raw()) };
    }

    let mut outputs = Vec::new();
    let mut all_ok = true;
    let mut report = String::new();
    // Whole files are parsed from disk so locations carry the path; chunks and stdin are
    // parsed from text padded with newlines so line numbers stay those of the file.
    let from_file = input != "-" && !options.split_input_file;
    for chunk in split(&text, options.split_input_file) {
        captured.take();
        if let Some((line, column)) = too_deep(&chunk.text) {
            report.push_str(&format!(
                "{display}:{}:{column}: error: nesting deeper than {MAX_NESTING} levels is not supported\n",
                chunk.first_line + line - 1
            ));
            all_ok = false;
            continue;
        }
        let module = if from_file {
            layout_dialect::parse_file(&context, &input)
        } else {
            let padded = "\n".repeat(chunk.first_line - 1) + &chunk.text;
            layout_dialect::parse_source(&context, &padded)
        };
        let mut ok = false;
        let mut printed = None;
        if let Some(mut module) = module {
            ok = manager.run(&mut module).is_ok();
            let emitted = match options.emit {
                _ if !ok => None,
                emit::Emit::Llvm => Some(emit::llvm_ir(&mut module)),
                emit::Emit::AscendC | emit::Emit::AscendCLlvm => Some(emit::ascendc(&module, options.emit)),
                emit::Emit::Mlir => None,
            };
            if let Some(emitted) = emitted {
                match emitted {
                    Ok(text) => printed = Some(text),
                    Err(diags) => {
                        for diag in diags {
                            sources.render(&emit::locate(diag, &display, chunk.first_line), &mut report);
                        }
                        ok = false;
                    }
                }
            } else if ok {
                let mut flags = OperationPrintingFlags::new();
                if options.print_generic {
                    flags = flags.print_generic_operation_form();
                }
                if options.print_debuginfo {
                    flags = flags.enable_debug_info(true, false);
                }
                match module.as_operation().to_string_with_flags(flags) {
                    Ok(text) => printed = Some(text),
                    Err(error) => {
                        report.push_str(&format!(
                            "{display}:{}:1: error: cannot print the result: {error}\n",
                            chunk.first_line
                        ));
                        ok = false;
                    }
                }
            } else if !captured.has_error() {
                report.push_str(&format!(
                    "{display}:{}:1: error: a pass failed without a diagnostic\n",
                    chunk.first_line
                ));
            }
        }
        let diags = captured.take();
        if options.verify_diagnostics {
            let failures = diagnostics::verify(&diags, &chunk.text, chunk.first_line, &display, &mut sources);
            ok = failures.is_empty();
            report.push_str(&failures);
        } else {
            for diag in &diags {
                sources.render(diag, &mut report);
            }
            ok &= !diags.iter().any(Diag::is_error);
        }
        all_ok &= ok;
        if let Some(text) = printed {
            outputs.push(text);
        }
    }
    eprint!("{report}");

    let mut output = outputs.join("\n// -----\n");
    if !output.is_empty() && !output.ends_with('\n') {
        output.push('\n');
    }
    match options.output.as_deref() {
        Some(path) if path != "-" => {
            if all_ok {
                // A regular file is replaced atomically (symlinks followed, mode kept); a
                // device, FIFO or socket is written through.
                if let Err(source) = output_file::write(path, output.as_bytes()) {
                    return fail_with(OptError::WriteOutput { path: path.to_string(), source });
                }
            }
        }
        _ => {
            let mut stdout = std::io::stdout().lock();
            if let Err(error) = stdout.write_all(output.as_bytes()).and_then(|()| stdout.flush()) {
                return fail_with(OptError::WriteStdout(error));
            }
        }
    }
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Result<Parsed, OptError> {
        parse_args(list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn split_keeps_line_numbers() {
        let chunks = split("a\n// -----\nb\nc\n  // -----  \nd", true);
        let starts: Vec<_> = chunks.iter().map(|c| (c.first_line, c.text.as_str())).collect();
        assert_eq!(starts, vec![(1, "a\n"), (3, "b\nc\n"), (6, "d")]);
    }

    #[test]
    fn argument_parsing() {
        let Ok(Parsed::Run(o)) = args(&["-split-input-file", "--layout-verify", "x.mlir", "--cse", "-o", "out"]) else {
            panic!("parse")
        };
        assert!(o.split_input_file);
        assert_eq!(o.pass_flags, vec!["layout-verify", "cse"]);
        assert_eq!(o.output.as_deref(), Some("out"));
        assert!(args(&["--bogus"]).is_err());
        assert!(args(&["a", "b"]).is_err());
        assert!(args(&["--cse", "--pass-pipeline=builtin.module(cse)"]).is_err());
        assert!(matches!(args(&["--help"]), Ok(Parsed::Help)));
    }
}
