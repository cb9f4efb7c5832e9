//! `layout-opt`: an `mlir-opt`-style driver for the layout dialect.
//!
//! Thin by design: argument parsing and wiring; the dialect lives in `dialects/layout`, the
//! passes in `passes/`. See README.md for usage and measurements.

mod cli;
mod diagnostics;
mod emit;
mod error;
mod pipeline;
mod prove;
mod upstream;

use cli_common::CliError;
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

// Rust-side allocations (layout algebra, e-graphs, diagnostics) are many and small: mimalloc
// serves them in a fraction of glibc malloc's instructions (scripts/bench-pipeline). MLIR's C++
// allocations stay on the system allocator; no memory is freed across the two.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SPLIT_MARKER: &str = "// -----";

/// Set (to anything but `0`) for the behaviour of `--verify-each`: the lit suite sets it, so
/// every test also checks the IR after each pass.
const VERIFY_EACH_ENV: &str = "LAYOUT_OPT_VERIFY_EACH";

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

/// `diag`, named after its input, with a "did you mean" note when it is about a misspelled op.
fn with_op_suggestion(diag: Diag, display: &str) -> Diag {
    diag.name_input(display).with_op_suggestion()
}

/// Writes `bytes` to stdout and exits: success, or an error (not a panic) when stdout is closed.
fn print_out(bytes: &[u8]) -> ExitCode {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => fail_with(OptError::WriteStdout(error)),
    }
}

fn fail(message: &str) -> ExitCode {
    cli_common::fail("layout-opt", message)
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
    let options = match cli::parse(std::env::args().skip(1).collect()) {
        Ok(options) => options,
        Err(OptError::Cli(CliError::Display(text))) => return print_out(text.as_bytes()),
        Err(error) => return fail_with(error),
    };
    if options.print_default_pipeline {
        return print_out(format!("{}\n", pipeline::default_pipeline()).as_bytes());
    }
    if options.list_passes {
        let list: String = cli::pass_names().map(|(name, description)| format!("{name:<32} {description}\n")).collect();
        return print_out(list.as_bytes());
    }
    if let Some(shell) = options.completions {
        return print_out(&cli_common::completions(shell, &mut cli::command(), "layout-opt"));
    }
    let emit_kind = match options.emit.as_deref().map(emit::Emit::parse).transpose() {
        Ok(kind) => kind.unwrap_or_default(),
        Err(error) => return fail_with(error),
    };

    // Pipeline: explicit text, the default one, or the pass flags in order.
    let text = options.pass_pipeline.clone().or_else(|| options.default_pipeline.then(pipeline::default_pipeline));
    let elements = match &text {
        Some(text) => match pipeline::parse(text) {
            Ok(elements) => elements,
            Err(error) => return fail_with(error),
        },
        None => options.pass_flags.clone(),
    };

    // Inputs.
    let mut inputs = Vec::new();
    let mut sources = Sources::mlir_opt();
    let names = if options.inputs.is_empty() { vec!["-".to_string()] } else { options.inputs.clone() };
    for input in names {
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
        sources.add(&display, &text);
        inputs.push((input, display, text));
    }

    // Context, diagnostics, passes.
    upstream::register();
    let context = match layout_dialect::create_context() {
        Ok(context) => context,
        Err(error) => return fail_with(error.into()),
    };
    // LLVM dialect and translations for --emit=llvm.
    layout_runtime::prepare_context(&context);
    let captured = Capture::new(&context, layout_runtime::diagnostics::UNNAMED_INPUT);
    let manager = PassManager::new(&context);
    // MLIR's verifier after every pass costs about a tenth of the default pipeline; by default
    // the IR is verified once, after the last pass (as mlir-opt's `--verify-each=false` plus a
    // final check), so no invalid module is printed or emitted either way.
    let verify_each =
        options.verify_each.unwrap_or_else(|| std::env::var_os(VERIFY_EACH_ENV).is_some_and(|v| v != "0"));
    manager.enable_verifier(verify_each);
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
    let lowers_to_ascendc = elements.iter().any(|e| e.names_pass(pipeline::LOWER_TO_ASCENDC));
    // Whole files are parsed from disk so locations carry the path; chunks and stdin are
    // parsed from text padded with newlines so line numbers stay those of the file.
    let chunks = inputs.iter().flat_map(|(input, display, text)| {
        let from_file = input != "-" && !options.split_input_file;
        split(text, options.split_input_file).into_iter().map(move |chunk| (input, display, from_file, chunk))
    });
    for (input, display, from_file, chunk) in chunks {
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
            layout_dialect::parse_file(&context, input)
        } else {
            let padded = "\n".repeat(chunk.first_line - 1) + &chunk.text;
            layout_dialect::parse_source(&context, &padded)
        };
        let mut ok = false;
        let mut printed = None;
        if let Some(mut module) = module {
            if options.layout_prove_addresses {
                all_ok &= prove::run(&module, &options, lowers_to_ascendc, (display, chunk.first_line), &mut report);
            }
            ok = manager.run(&mut module).is_ok();
            if ok && !verify_each && !elements.is_empty() {
                ok = module.as_operation().verify();
            }
            let emitted = match emit_kind {
                _ if !ok => None,
                emit::Emit::Llvm => Some(emit::llvm_ir(&mut module)),
                emit::Emit::AscendC | emit::Emit::AscendCLlvm => {
                    Some(emit::ascendc(&module, emit_kind, lowers_to_ascendc))
                }
                emit::Emit::Mlir => None,
            };
            if let Some(emitted) = emitted {
                match emitted {
                    Ok(text) => printed = Some(text),
                    Err(diags) => {
                        for diag in diags {
                            sources.render(&emit::locate(diag, display, chunk.first_line), &mut report);
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
                match emit::mlir(&module, flags) {
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
        let diags: Vec<Diag> = captured.take().into_iter().map(|diag| diag.name_input(display)).collect();
        if options.verify_diagnostics {
            let failures = diagnostics::verify(&diags, &chunk.text, chunk.first_line, display, &mut sources);
            ok = failures.is_empty();
            report.push_str(&failures);
        } else {
            for diag in &diags {
                sources.render(&with_op_suggestion(diag.clone(), display), &mut report);
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

    fn args(list: &[&str]) -> Result<cli::Options, OptError> {
        cli::parse(list.iter().map(|s| s.to_string()).collect())
    }

    #[test]
    fn split_keeps_line_numbers() {
        let chunks = split("a\n// -----\nb\nc\n  // -----  \nd", true);
        let starts: Vec<_> = chunks.iter().map(|c| (c.first_line, c.text.as_str())).collect();
        assert_eq!(starts, vec![(1, "a\n"), (3, "b\nc\n"), (6, "d")]);
    }

    /// The op names for "did you mean" come from both dialects' IRDL definitions.
    #[test]
    fn misspelled_ops_get_the_dialects_op() {
        let note = |message: &str| with_op_suggestion(Diag::error(None, message.to_string()), "x.mlir").notes;
        let generic =
            "unregistered operation 'layout.lod' found in dialect ('layout') that does not allow unknown operations";
        assert_eq!(note(generic)[0].message, "did you mean 'layout.load'?");
        assert_eq!(note("custom op 'ascendc.mmd' is unknown")[0].message, "did you mean 'ascendc.mmad'?");
        assert!(note("custom op 'zzz.qqq' is unknown").is_empty());
    }

    #[test]
    fn argument_parsing() {
        let o =
            args(&["-split-input-file", "--layout-verify", "x.mlir", "--cse", "-o", "out", "y.mlir"]).expect("parse");
        assert!(o.split_input_file);
        let names: Vec<String> = o.pass_flags.iter().map(|e| pipeline::render(std::slice::from_ref(e))).collect();
        assert_eq!(names, vec!["builtin.module(layout-verify)", "builtin.module(cse)"]);
        assert_eq!(o.output.as_deref(), Some("out"));
        assert_eq!(o.inputs, vec!["x.mlir", "y.mlir"]);
        let o = args(&["-ofile", "--layout-simplify-offsets=prove=true"]).expect("parse");
        assert_eq!(o.output.as_deref(), Some("file"));
        assert_eq!(pipeline::render(&o.pass_flags), "builtin.module(layout-simplify-offsets{prove=true})");
        let Err(OptError::Cli(CliError::UnknownOption { option, suggestion })) = args(&["-layout-verfy"]) else {
            panic!("misspelled")
        };
        assert_eq!((option.as_str(), suggestion.as_deref()), ("--layout-verfy", Some("--layout-verify")));
        assert!(matches!(args(&["--bogus"]), Err(OptError::Cli(CliError::UnknownOption { suggestion: None, .. }))));
        assert!(args(&["--cse", "--pass-pipeline=builtin.module(cse)"]).is_err());
        assert!(matches!(args(&["--help"]), Err(OptError::Cli(CliError::Display(_)))));
        assert!(matches!(args(&["--version"]), Err(OptError::Cli(CliError::Display(_)))));
    }
}
