//! The command line (clap): fixed flags in [`Options`], plus one flag per pass, added to the
//! command at run time so `--help`, completions and "did you mean" know them.
//!
//! mlir-opt conventions clap does not have are handled before clap sees the arguments: long
//! options with one dash (`-split-input-file`), and pass flags, which run in command-line order
//! and may carry options (`--layout-simplify-offsets=prove=true` is
//! `layout-simplify-offsets{prove=true}`), are taken out in order.

use crate::error::OptError;
use crate::{emit, pipeline::Element, upstream};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, CommandFactory, FromArgMatches, Parser};
use cli_common::{suggest, CliError};

#[derive(Parser, Debug, Default)]
#[command(
    name = "layout-opt",
    version,
    about = "layout-opt: parse, verify and transform layout-dialect MLIR (mlir-opt conventions)",
    help_template = "OVERVIEW: {about}\n\nUSAGE: {usage}\n\n{all-args}",
    disable_version_flag = true,
    // One line per flag, however long its help (mlir-opt's layout; lit tests match it).
    term_width = 10_000
)]
pub struct Options {
    /// Input files ('-' = stdin, the default). Several files are processed one after the
    /// other, as the chunks of --split-input-file are; their outputs are joined in order.
    #[arg(value_name = "INPUT")]
    pub inputs: Vec<String>,
    /// Output file ('-' = stdout, default); written atomically, and not at all on an error.
    #[arg(short = 'o', value_name = "FILE")]
    pub output: Option<String>,
    /// Split each input on '// -----' and process each chunk separately (diagnostics keep
    /// the original line numbers).
    #[arg(long)]
    pub split_input_file: bool,
    /// Check diagnostics against 'expected-error@+1 {{...}}' comments
    /// (error|warning|note|remark; @+N, @-N, @above, @below, @unknown).
    #[arg(long)]
    pub verify_diagnostics: bool,
    /// e.g. 'builtin.module(layout-verify,canonicalize,func.func(cse))'
    #[arg(long, value_name = "PIPELINE")]
    pub pass_pipeline: Option<String>,
    /// Run the default pipeline (verify, fold, lower to loops, simplify offsets, clean up;
    /// printed by --print-default-pipeline).
    #[arg(long)]
    pub default_pipeline: bool,
    /// Print the default pipeline's text and exit.
    #[arg(long)]
    pub print_default_pipeline: bool,
    /// What to print after the passes (the kinds: `emit::KINDS`).
    #[arg(long, value_name = "KIND", require_equals = true)]
    pub emit: Option<String>,
    /// Print operations in generic form.
    #[arg(long = "mlir-print-op-generic")]
    pub print_generic: bool,
    /// Print locations.
    #[arg(long = "mlir-print-debuginfo")]
    pub print_debuginfo: bool,
    /// Print the IR after each pass (to stderr).
    #[arg(long = "mlir-print-ir-after-all")]
    pub print_ir_after_all: bool,
    /// Run MLIR's verifier after every pass, not only once after the last one (mlir-opt's
    /// default; ours is off for speed, and the lit suite turns it on with
    /// LAYOUT_OPT_VERIFY_EACH=1).
    #[arg(long, value_name = "BOOL", num_args = 0..=1, require_equals = true, default_missing_value = "true")]
    pub verify_each: Option<bool>,
    /// Print each pass's wall time (to stderr, like mlir-opt).
    #[arg(long = "mlir-timing")]
    pub timing: bool,
    /// Prove, before the passes, that every load and store the loop lowering emits for the
    /// input (after the address simplification) equals the layout algebra's crd_to_offset,
    /// with no i64 overflow, for every size in [0, --layout-prove-size-limit): one line per
    /// access (proven / counterexample with the values / unknown); a counterexample is an error.
    /// With --layout-lower-to-ascendc in the pipeline: the same for every copy intrinsic
    /// (DataCopy, Fixpipe) the AscendC lowering emits, through its element mapping.
    #[arg(long)]
    pub layout_prove_addresses: bool,
    /// The sizes (index arguments) --layout-prove-addresses covers: [0, N).
    #[arg(long, value_name = "N", default_value_t = layout_runtime::address_proof::SIZE_LIMIT, value_parser = clap::value_parser!(i64).range(1..))]
    pub layout_prove_size_limit: i64,
    /// Seconds the solver may take per access (--layout-prove-addresses).
    #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub layout_prove_timeout: u64,
    /// --layout-prove-addresses verifies with the host-copy rules (on-chip buffers observed
    /// through views, as `layout-verify{host-copies=true}`).
    #[arg(long)]
    pub layout_prove_host_copies: bool,
    /// Tests only: a deliberately wrong simplification for --layout-prove-addresses (every
    /// `arith.andi %x, 15` replaced by `%x`), to show that it is caught.
    #[arg(long, hide = true)]
    pub layout_prove_inject_wrong_mask: bool,
    /// Tests only: OP:FIELD:DELTA adds DELTA to FIELD of the first OP (`ascendc.fixpipe`) of
    /// the AscendC lowering that --layout-prove-addresses proves, to show that it is caught.
    #[arg(long, hide = true, value_name = "OP:FIELD:DELTA")]
    pub layout_prove_inject_wrong_field: Option<String>,
    /// List the passes (name and description) and exit.
    #[arg(long)]
    pub list_passes: bool,
    /// Print a shell completion script and exit.
    #[arg(long, value_name = "SHELL")]
    pub completions: Option<clap_complete::Shell>,
    /// Print the version and exit.
    #[arg(long, short = 'V', action = ArgAction::Version)]
    pub version: (),
    /// Not supported (every op must be registered); accepted only to say so.
    #[arg(long, hide = true)]
    pub allow_unregistered_dialect: bool,
    /// The pass flags, in command-line order.
    #[arg(skip)]
    pub pass_flags: Vec<Element>,
}

/// The whole command: [`Options`] and one flag per pass.
pub fn command() -> clap::Command {
    // (Possible values with their own help would switch clap to the two-line long help.)
    let kinds: Vec<String> = emit::KINDS.iter().map(|(name, _, help)| format!("{name}: {help}")).collect();
    let help = format!("What to print after the passes; {}", kinds.join("; "));
    let names = PossibleValuesParser::new(emit::KINDS.iter().map(|kind| kind.0));
    let mut command = Options::command().mut_arg("emit", |arg| arg.value_parser(names).help(help));
    let heading = "Passes (each also a flag; flags run in command-line order)";
    for (name, description) in pass_names() {
        command =
            command.arg(Arg::new(name).long(name).help(description).action(ArgAction::SetTrue).help_heading(heading));
    }
    command
}

/// (name, description) of every pass: the Rust passes, then the upstream ones.
pub fn pass_names() -> impl Iterator<Item = (&'static str, &'static str)> {
    let rust = layout_passes::PASSES.iter().map(|info| (info.argument, info.description));
    rust.chain(upstream::PASSES.iter().map(|(name, description, _)| (*name, *description)))
}

fn is_pass(name: &str) -> bool {
    layout_passes::find(name).is_some() || upstream::is_upstream(name)
}

/// Parses the arguments (without the program name). `Err` of a clap error that is not a
/// mistake (`--help`, `--version`) carries its text in `OptError::Display`.
pub fn parse(args: Vec<String>) -> Result<Options, OptError> {
    let mut passes = Vec::new();
    let mut rest = vec!["layout-opt".to_string()];
    let mut positional_only = false;
    for arg in args {
        if positional_only || arg == "-" || !arg.starts_with('-') || arg.starts_with("-o") || arg.len() == 2 {
            positional_only |= arg == "--";
            rest.push(arg);
            continue;
        }
        // mlir-opt accepts long options with one or two dashes.
        let long = arg.trim_start_matches('-');
        let (name, value) = match long.split_once('=') {
            Some((name, value)) => (name, Some(value)),
            None => (long, None),
        };
        if is_pass(name) {
            let options = value.map(|v| format!("{{{v}}}"));
            passes.push(Element::Pass { name: name.to_string(), options });
        } else {
            rest.push(format!("--{long}"));
        }
    }
    let matches = command().try_get_matches_from(rest).map_err(clap_error)?;
    let mut options = Options::from_arg_matches(&matches).map_err(clap_error)?;
    options.pass_flags = passes;
    if options.allow_unregistered_dialect {
        return Err(OptError::Usage("'--allow-unregistered-dialect' is not supported: every op must be registered, so a misspelled op name is an error".into()));
    }
    if options.pass_pipeline.is_some() && !options.pass_flags.is_empty() {
        return Err(OptError::Usage("'--pass-pipeline' cannot be combined with pass flags".into()));
    }
    if options.default_pipeline && (options.pass_pipeline.is_some() || !options.pass_flags.is_empty()) {
        return Err(OptError::Usage(
            "'--default-pipeline' cannot be combined with '--pass-pipeline' or pass flags".into(),
        ));
    }
    Ok(options)
}

/// Our message for a clap error (`cli_common::from_clap`), with a pass name suggested when
/// clap had no suggestion: pass names are flags too, but a pass flag with a value
/// (`--layout-verfy=x`) gets none from clap.
fn clap_error(error: clap::Error) -> OptError {
    match cli_common::from_clap(error) {
        CliError::UnknownOption { option, suggestion: None } => {
            let name = option.trim_start_matches('-');
            let suggestion = suggest::closest(name, pass_names().map(|(n, _)| n)).map(|n| format!("--{n}"));
            CliError::UnknownOption { option, suggestion }.into()
        }
        other => other.into(),
    }
}
