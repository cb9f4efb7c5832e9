//! The one error type of the passes: what went wrong while lowering (or checking) a layout op.
//!
//! A pass reports a [`LoweringError`] as a diagnostic at the location of the op it was lowering
//! (`file:line:col: error: <Display text>`), so the text never repeats the location; the
//! variants say what kind of failure it is, for callers and tests that match on it.

use layout_algebra::AlgebraError;
use layout_dialect::LayoutTypeError;
use thiserror::Error;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LoweringError {
    /// A layout-algebra operation failed (overflow, incompatible shapes, ...).
    #[error(transparent)]
    Algebra(#[from] AlgebraError),

    /// A layout-algebra operation failed while computing `context` (e.g. `address of %t`).
    #[error("{context}: {source}")]
    AlgebraIn { context: String, source: AlgebraError },

    /// A `!layout.tensor` type does not resolve to a layout.
    #[error(transparent)]
    LayoutType(#[from] LayoutTypeError),

    /// Valid IR this lowering does not handle (yet): a conversion, an element type, a copy.
    #[error("{0}")]
    Unsupported(String),

    /// The program breaks a rule of the dialect's contract (bounds, capacities, types).
    #[error("{0}")]
    Contract(String),

    /// The IR does not have the expected shape: a missing operand or result, a non-tensor value.
    #[error("{0}")]
    IrShape(String),

    /// A bug of the lowering itself, not of its input (the text starts with `internal:`).
    #[error("internal: {0}")]
    Internal(String),

    /// Emitting an index expression failed.
    #[error(transparent)]
    IndexEmit(#[from] crate::index_arith::IndexEmitError),

    /// `error` while lowering `op` (the op's name, e.g. `layout.tile`).
    #[error("{op}: {error}")]
    InOp { op: &'static str, error: Box<LoweringError> },

    /// Emitting the self-check side functions failed.
    #[error("self-check: {0}")]
    SelfCheck(Box<LoweringError>),

    /// A pass was given pipeline options it does not know.
    #[error("{pass}: {message}")]
    PassOption { pass: &'static str, message: String },
}

impl LoweringError {
    /// Prefixes this error with the op it happened in (`layout.tile: ...`).
    pub fn in_op(self, op: &'static str) -> Self {
        LoweringError::InOp { op, error: Box::new(self) }
    }

    /// An algebra error while computing `context` (lazily formatted by the caller).
    pub fn algebra_in(context: impl Into<String>) -> impl FnOnce(AlgebraError) -> Self {
        let context = context.into();
        move |source| LoweringError::AlgebraIn { context, source }
    }
}

/// A [`LoweringError`] at the op it happened at: `location` is `file:line:col` (MLIR's location
/// text when the op has no file location). `Display` is the diagnostic line the pass emits.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{location}: error: {error}")]
pub struct LocatedError {
    pub location: String,
    #[source]
    pub error: LoweringError,
}

pub type Result<T, E = LoweringError> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_the_messages_users_see() {
        let overflow = AlgebraError::Overflow { op: "mul", sym: "*", lhs: "2".into(), rhs: "3".into() };
        let e = LoweringError::algebra_in("address of %t")(overflow.clone());
        assert_eq!(e.to_string(), "address of %t: integer overflow in mul: 2 * 3");
        assert_eq!(
            LoweringError::from(overflow).in_op("layout.tile").to_string(),
            "layout.tile: integer overflow in mul: 2 * 3"
        );
        assert_eq!(LoweringError::Internal("reassociation".into()).to_string(), "internal: reassociation");
        let located = LocatedError { location: "k.mlir:3:8".into(), error: LoweringError::Contract("bad".into()) };
        assert_eq!(located.to_string(), "k.mlir:3:8: error: bad");
    }
}
