//! The command line (clap): fixed flags in [`Options`], plus one flag per pass, added to the
//! command at run time so `--help`, completions and "did you mean" know them.
//!
//! mlir-opt conventions clap does not have are handled before clap sees the arguments: long
//! options with one dash (`-split-input-file`), and pass flags, which run in command-line order
//! and may carry options (`--layout-simplify-offsets=prove=true` is
//! `layout-simplify-offsets{prove=true}`), are taken out in order.

use crate::error::OptError;
use crate::{emit, pipeline::Element, suggest, upstream};
use clap::builder::PossibleValuesParser;
use clap::{error::ContextKind, error::ErrorKind, Arg, ArgAction, CommandFactory, FromArgMatches, Parser};

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

/// Our message for a clap error: unknown options in the tool's own words with clap's
/// suggestion; `--help`/`--version` as [`OptError::Display`].
fn clap_error(error: clap::Error) -> OptError {
    let context = |kind| error.get(kind).map(|value| value.to_string());
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => OptError::Display(error.to_string()),
        ErrorKind::UnknownArgument => {
            let option = context(ContextKind::InvalidArg).unwrap_or_default();
            let name = option.trim_start_matches('-');
            // clap suggests among flags; pass names are flags too, but check them as well so
            // a pass flag with a value (`--layout-verfy=x`) gets one.
            let suggestion = context(ContextKind::SuggestedArg)
                .or_else(|| suggest::closest(name, pass_names().map(|(n, _)| n)).map(|n| format!("--{n}")));
            OptError::UnknownOption { option, suggestion }
        }
        _ => {
            // clap's text without its usage and "For more information" lines, on one line.
            let text = error.render().to_string();
            let lines: Vec<&str> = text
                .lines()
                .map(str::trim)
                .take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more information"))
                .filter(|line| !line.is_empty())
                .collect();
            OptError::Usage(lines.join(" ").trim_start_matches("error: ").to_string())
        }
    }
}
