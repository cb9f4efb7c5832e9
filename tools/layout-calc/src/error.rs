//! The calculator's error type: everything becomes one `error: ...` line.

use layout_algebra::AlgebraError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum CalcError {
    #[error("column {column}: {message}")]
    Syntax { column: usize, message: String },
    #[error("{0}")]
    Algebra(#[from] AlgebraError),
    #[error("{0}")]
    Type(String),
    #[error("unknown function `{name}`{hint}")]
    UnknownFunction { name: String, hint: String },
    #[error("{function} takes {expected}, got {got} argument{plural}", plural = if *got == 1 { "" } else { "s" })]
    Arity { function: String, expected: &'static str, got: usize },
}
