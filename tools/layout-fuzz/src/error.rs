//! The one error type of `layout-fuzz`: a run that cannot start or continue (arguments, files,
//! missing tools), and a property an input violates (a finding, reported by the worker).
//! `Display` is the text after `layout-fuzz: ` (a violation: the finding's detail).

use std::{io, path::PathBuf};
use thiserror::Error;

#[derive(Debug, Error)]
pub enum FuzzError {
    #[error("{flag} needs a value")]
    MissingValue { flag: String },

    #[error("{flag}: not a number: {value}")]
    NotANumber { flag: String, value: String },

    /// `usage`: the `--help` text printed after the message.
    #[error("unknown option {flag}\n{usage}")]
    UnknownOption { flag: String, usage: &'static str },

    #[error("unknown target {0}")]
    UnknownTarget(String),

    /// `--worker` / `--replay` name a target that does not run in process.
    #[error("no in-process target {0}")]
    NotInProcess(String),

    #[error("{} not found (build the workspace first)", .0.display())]
    ToolMissing(PathBuf),

    #[error("{0}: empty corpus (is --root the repository?)")]
    EmptyCorpus(String),

    /// An I/O failure of the fuzzer itself: `what` is the file, or the step.
    #[error("{what}: {source}")]
    Io { what: String, source: io::Error },

    /// An input breaks a property of its target (a parse that does not print back, ...).
    #[error("{0}")]
    Property(String),
}

impl FuzzError {
    /// An [`FuzzError::Io`] of `what` (lazily applied by `map_err`).
    pub fn io(what: impl Into<String>) -> impl FnOnce(io::Error) -> FuzzError {
        let what = what.into();
        move |source| FuzzError::Io { what, source }
    }
}

pub type Result<T, E = FuzzError> = std::result::Result<T, E>;
