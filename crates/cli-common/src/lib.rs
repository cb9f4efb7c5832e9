//! What the command lines of `layout-opt`, `layout-run` and `layout-calc` share, so the three
//! say the same thing the same way: a clap error becomes one `TOOL: error: ...` line and exit
//! status 1 ([`CliError`], [`from_clap`], [`fail`]); "did you mean" uses one similarity
//! ([`suggest`]); mlir-opt's one-dash long options ([`long_with_one_dash`]); completion scripts
//! ([`completions`]). Nothing here links MLIR (layout-calc depends on it).

pub mod suggest;

use clap::error::{ContextKind, ErrorKind};
use std::process::ExitCode;
use thiserror::Error;

/// A command-line outcome that is not a parsed command: a mistake, or text to print.
#[derive(Debug, Error)]
pub enum CliError {
    /// A mistake with no more structure than its text (a bad value, conflicting flags).
    #[error("{0}")]
    Usage(String),

    /// An option nobody knows; `suggestion`: the closest known one, when one is close.
    #[error("unknown option '{option}'{}", match .suggestion {
        Some(s) => format!("; did you mean '{s}'?"),
        None => " (see --help)".to_string(),
    })]
    UnknownOption { option: String, suggestion: Option<String> },

    /// Not an error: text for stdout before exiting successfully (`--help`, `--version`).
    #[error("{0}")]
    Display(String),
}

/// Our form of a clap error: an unknown option with clap's suggestion; `--help`/`--version` as
/// [`CliError::Display`]; anything else as clap's message on one line ([`flatten`]).
pub fn from_clap(error: clap::Error) -> CliError {
    let context = |kind| error.get(kind).map(|value| value.to_string());
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => CliError::Display(error.to_string()),
        ErrorKind::UnknownArgument if context(ContextKind::InvalidArg).is_some_and(|a| a.starts_with('-')) => {
            let option = context(ContextKind::InvalidArg).unwrap_or_default();
            CliError::UnknownOption { option, suggestion: context(ContextKind::SuggestedArg) }
        }
        _ => CliError::Usage(flatten(&error)),
    }
}

/// clap's message on one line, without its `error: ` prefix, usage and "For more information"
/// lines (the tools print `TOOL: error: ` themselves, one line per error); clap's "tip: a
/// similar value exists: 'X'" reads "; did you mean 'X'?", as the tools' own suggestions.
pub fn flatten(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let mut flat = String::new();
    let lines = text.lines().map(str::trim);
    for line in lines.take_while(|line| !line.starts_with("Usage:") && !line.starts_with("For more information")) {
        let similar = ["tip: a similar value exists: ", "tip: a similar argument exists: "];
        match similar.iter().find_map(|tip| line.strip_prefix(tip)) {
            Some(suggestion) => flat.push_str(&format!("; did you mean {suggestion}?")),
            None if line.is_empty() => {}
            None => {
                if !flat.is_empty() {
                    flat.push(' ');
                }
                flat.push_str(line);
            }
        }
    }
    flat.trim_start_matches("error: ").to_string()
}

/// `-name` or `-name=value` as `--name...` (mlir-opt accepts long options with one dash);
/// `None` for anything else (`-o`, `-V`, `-`, `--x`, `-3`, values).
pub fn long_with_one_dash(arg: &str) -> Option<String> {
    let rest = arg.strip_prefix('-')?;
    let long = rest.len() > 1 && !rest.starts_with('-') && rest.starts_with(|c: char| c.is_ascii_alphabetic());
    long.then(|| format!("-{arg}"))
}

/// The completion script of `command` for `shell`.
pub fn completions(shell: clap_complete::Shell, command: &mut clap::Command, name: &str) -> Vec<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, command, name, &mut script);
    script
}

/// Prints `TOOL: error: MESSAGE` on stderr; exit status 1.
pub fn fail(tool: &str, message: &str) -> ExitCode {
    eprintln!("{tool}: error: {message}");
    ExitCode::FAILURE
}

#[cfg(test)]
mod tests;
