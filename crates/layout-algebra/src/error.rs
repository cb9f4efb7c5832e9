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

    /// Ascend 950 removed this data path (GM → L0A/L0B); data goes through L1.
    #[error("Ascend 950 (target \"a5\") has no {src} -> {dst} path; load through l1")]
    PathRemovedOnA5 { src: &'static str, dst: &'static str },

    /// This data path (L0C → UB, L1 → UB) exists only on Ascend 950.
    #[error("{src} -> ub exists only on Ascend 950 (target \"a5\")")]
    PathOnlyOnA5 { src: &'static str },

    #[error("there is no data path {src} -> {dst}")]
    NoDataPath { src: &'static str, dst: &'static str },

    /// fp8/fp4 operands: the cube multiplies them only on Ascend 950.
    #[error("{a} x {b} matmul needs Ascend 950 (target \"a5\")")]
    MatmulNeedsA5 { a: &'static str, b: &'static str },

    #[error("the cube does not multiply {a} by {b}; A and B need the same element type (fp8 variants may mix on a5)")]
    MatmulMixedTypes { a: &'static str, b: &'static str },

    #[error("the cube does not multiply {elem} operands on target \"{target}\"")]
    MatmulUnsupported { elem: &'static str, target: &'static str },

    #[error("{0}")]
    Invalid(String),
}

pub type Result<T, E = AlgebraError> = std::result::Result<T, E>;
