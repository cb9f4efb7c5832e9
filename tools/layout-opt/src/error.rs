//! The one error type of the `layout-opt` driver: what went wrong before or around the passes
//! (arguments, pipeline text, files). Errors in the input itself are located diagnostics, not
//! these. `Display` is the text after `layout-opt: error: `.

use std::io;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum OptError {
    /// A command-line mistake with no more structure than its text (conflicting flags, ...).
    #[error("{0}")]
    Usage(String),

    /// What clap said (an unknown option with its suggestion, a bad value), or text to print
    /// on stdout before exiting successfully (`CliError::Display`: `--help`, `--version`).
    #[error(transparent)]
    Cli(#[from] cli_common::CliError),

    /// `--emit=KIND` with a kind not in `emit::KINDS` (`known`: their names, comma-separated).
    #[error("--emit: unknown kind '{kind}' (expected one of: {known})")]
    UnknownEmit { kind: String, known: String },

    /// The `--pass-pipeline` text does not parse at byte `position`.
    #[error("invalid pass pipeline at column {}: {message}\n  {text}\n  {}^", .position + 1, " ".repeat(*.position))]
    PipelineSyntax { text: String, position: usize, message: &'static str },

    #[error("empty pass pipeline; expected 'builtin.module(...)'")]
    EmptyPipeline,

    #[error("the pass pipeline must be anchored on the top-level op: 'builtin.module(...)'")]
    UnanchoredPipeline,

    /// MLIR rejected a run of upstream passes (`message`: the first line of its error, when it
    /// gave one).
    #[error("{}", match .message {
        Some(m) => format!("in pass pipeline: {m}{} (see --help for the passes layout-opt knows)", did_you_mean(.suggestion)),
        None => format!("invalid pass pipeline '{}'", .pipeline),
    })]
    UpstreamPipeline { pipeline: String, message: Option<String>, suggestion: Option<String> },

    #[error("pass '{0}' takes no options")]
    TakesNoOptions(String),

    /// A Rust pass rejected its `{...}` options.
    #[error(transparent)]
    PassOptions(#[from] layout_passes::error::LoweringError),

    #[error(transparent)]
    Context(#[from] layout_dialect::DialectLoadError),

    #[error("cannot read standard input: {0}")]
    ReadStdin(#[source] io::Error),

    #[error("cannot open input file '{path}': {source}")]
    OpenInput { path: String, source: io::Error },

    #[error("cannot write '{path}': {source}")]
    WriteOutput { path: String, source: io::Error },

    #[error("cannot write to standard output")]
    WriteStdout(#[source] io::Error),
}

fn did_you_mean(suggestion: &Option<String>) -> String {
    suggestion.as_ref().map_or_else(String::new, |s| format!("; did you mean '{s}'?"))
}

pub type Result<T, E = OptError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_the_messages_users_see() {
        let syntax = OptError::PipelineSyntax { text: "builtin.module(".into(), position: 15, message: "expected ')'" };
        assert_eq!(
            syntax.to_string(),
            "invalid pass pipeline at column 16: expected ')'\n  builtin.module(\n                 ^"
        );
        let upstream = |message: Option<&str>| OptError::UpstreamPipeline {
            pipeline: "bogus".into(),
            message: message.map(String::from),
            suggestion: None,
        };
        assert_eq!(upstream(None).to_string(), "invalid pass pipeline 'bogus'");
        assert_eq!(
            upstream(Some("'bogus' does not refer to a registered pass")).to_string(),
            "in pass pipeline: 'bogus' does not refer to a registered pass (see --help for the passes layout-opt knows)"
        );
    }
}
