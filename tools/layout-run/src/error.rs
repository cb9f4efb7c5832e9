//! The one error type of `layout-run`: argument mistakes, files, the runtime and the packer.
//! [`RunError::Diagnostics`] is already rendered (`file:line:col: error: ...` with the source
//! line) and printed as is; every other error prints as `layout-run: error: <Display>`.

use layout_npy::{NpyError, ShapeMismatch};
use layout_runtime::pack::PackError;
use std::io;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum RunError {
    /// A command-line mistake with no more structure than its text (a missing file argument,
    /// conflicting options, a malformed value).
    #[error("{0}")]
    Usage(String),

    /// What clap said (an unknown option with its suggestion, a bad value), or text for stdout
    /// before exiting successfully (`CliError::Display`: `--help`, `--version`).
    #[error(transparent)]
    Cli(#[from] cli_common::CliError),

    /// `--option`: `value` does not parse (`expected`: what it should be).
    #[error("--{option}: '{value}' is not {expected}")]
    BadValue { option: String, value: String, expected: &'static str },

    /// A `.npy` file cannot be read, or holds the wrong data (`path` names it; the
    /// [`NpyError::Io`] text names it again).
    #[error("{path}: {source}")]
    Npy { path: String, source: NpyError },

    /// A `.npy` output cannot be written (its text names the file).
    #[error("cannot write output: {0}")]
    WriteOutput(#[source] NpyError),

    /// `hint`: "; did you mean the subcommand ...?" when `path` is missing and close to one.
    #[error("cannot open kernel file '{path}': {source}{hint}")]
    OpenKernel { path: String, source: io::Error, hint: String },

    #[error("cannot create output directory '{path}': {source}")]
    OutputDir { path: String, source: io::Error },

    /// Packing the array in file `path` failed.
    #[error("{path}: {source}")]
    PackFile { path: String, source: PackError },

    /// Packing failed before any file was involved (the spec, the kernel).
    #[error(transparent)]
    Pack(#[from] PackError),

    #[error(transparent)]
    Runtime(#[from] layout_runtime::Error),

    #[error(transparent)]
    Shape(#[from] ShapeMismatch),

    /// Located diagnostics, rendered with their source lines (ends with a newline).
    #[error("{0}")]
    Diagnostics(String),

    /// A result that must hold does not (`--compare` beyond the tolerance, a pack round trip).
    #[error("{0}")]
    Check(String),
}

impl RunError {
    /// An [`RunError::Npy`] error of file `path` (lazily applied by `map_err`).
    pub fn npy(path: impl Into<String>) -> impl FnOnce(NpyError) -> RunError {
        let path = path.into();
        move |source| RunError::Npy { path, source }
    }

    /// A [`RunError::PackFile`] error of file `path` (lazily applied by `map_err`).
    pub fn pack_file(path: impl Into<String>) -> impl FnOnce(PackError) -> RunError {
        let path = path.into();
        move |source| RunError::PackFile { path, source }
    }
}

pub type Result<T, E = RunError> = std::result::Result<T, E>;
