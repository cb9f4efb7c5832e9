//! The one error type of the layout algebra.

use thiserror::Error;

/// Everything that can go wrong while building or transforming a layout.
///
/// Each variant names the condition that failed, so a caller (the calculator, a verifier pass)
/// can show it to the user as is.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AlgebraError {
    /// Checked integer arithmetic left the `i64` range. Shapes never wrap.
    #[error("integer overflow in {op}: {lhs} {sym} {rhs}")]
    Overflow { op: &'static str, sym: &'static str, lhs: String, rhs: String },

    #[error("division by zero in {op}")]
    DivisionByZero { op: &'static str },

    /// Two tuples were required to have the same nesting structure and do not.
    #[error("{what}: {lhs} is not congruent with {rhs}")]
    NotCongruent { what: &'static str, lhs: String, rhs: String },

    /// A coordinate or tiler does not fit the shape it is applied to.
    #[error("{what}: {detail}")]
    Incompatible { what: &'static str, detail: String },

    /// A CuTe admissibility condition (divisibility, injectivity, ...) does not hold.
    #[error("{op} is not admissible: {condition}")]
    Inadmissible { op: &'static str, condition: String },

    #[error("{what} must be positive, got {value}")]
    NotPositive { what: &'static str, value: String },

    #[error("index {index} out of range for {what} of rank {rank}")]
    IndexOutOfRange { what: &'static str, index: usize, rank: usize },

    /// A value is dynamic (`?`) where a static integer is needed.
    #[error("{what} must be static, got {value}")]
    NotStatic { what: &'static str, value: String },

    #[error("parse error at column {column}: {message}")]
    Parse { column: usize, message: String },

    #[error("unknown {what} `{name}`{hint}")]
    Unknown { what: &'static str, name: String, hint: String },

    #[error("{0}")]
    Invalid(String),
}

pub type Result<T, E = AlgebraError> = std::result::Result<T, E>;
