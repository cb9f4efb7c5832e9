//! The errors of `layout-lower-to-ascendc`, each reported at the op it happened at.
//!
//! [`AscendcError`] says what went wrong; [`Located`] adds the op's `file:line:col` (the pass
//! emits it as an MLIR diagnostic there, so the text never repeats the location).

use ascendc_params::ParamError;
use layout_dialect::{ops::DecodeError, LayoutTypeError};
use thiserror::Error;

use super::placement::PlacementError;
use super::sync::SyncError;
use crate::error::LoweringError;

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum AscendcError {
    /// A derived parameter does not fit its field, or a layout has no intrinsic.
    #[error(transparent)]
    Param(#[from] ParamError),

    /// An on-chip buffer does not fit its memory (boxed: the capacity error lists the buffers).
    #[error(transparent)]
    Placement(Box<PlacementError>),

    /// The flags of a function could not be assigned.
    #[error(transparent)]
    Sync(#[from] SyncError),

    /// A tile or offset computation of the shared passes failed.
    #[error(transparent)]
    Lowering(#[from] LoweringError),

    /// A `!layout.tensor` type does not resolve to a layout.
    #[error(transparent)]
    LayoutType(#[from] LayoutTypeError),

    /// An op does not have the shape its dialect declares.
    #[error(transparent)]
    Decode(#[from] DecodeError),

    /// An operand whose defining op failed to lower (reported there, so not again).
    #[error("operand is not a lowered layout tensor (view, alloc or tile)")]
    NotLowered,

    /// Valid IR this back end does not handle: a memory space, a dynamic buffer, a region op.
    #[error("{0}")]
    Unsupported(String),

    /// The IR does not have the expected shape (a missing operand or result, ...).
    #[error("{0}")]
    IrShape(String),

    /// Building an op or attribute failed: a bug of the lowering, not of its input.
    #[error("internal: {0}")]
    Internal(String),
}

impl From<PlacementError> for AscendcError {
    fn from(e: PlacementError) -> Self {
        AscendcError::Placement(Box::new(e))
    }
}

impl AscendcError {
    /// An MLIR-side failure (operand/result access, op building) as an internal error.
    pub fn internal(e: impl std::fmt::Display) -> Self {
        AscendcError::Internal(e.to_string())
    }
}

/// An [`AscendcError`] at `location` (`file:line:col`, MLIR's location text otherwise).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{location}: error: {error}")]
pub struct Located {
    pub location: String,
    #[source]
    pub error: AscendcError,
}

/// Why `lower` failed; every error has also been emitted as a diagnostic at its op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LowerFailure {
    /// `layout-verify`'s checks rejected the input (their errors are diagnostics only).
    Unverified,
    /// The ops (or functions) that could not be lowered, in program order, one per cause.
    Errors(Vec<Located>),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `lower` returns what it reported: one typed error per failing op, at the op.
    #[test]
    fn lower_returns_typed_located_errors() {
        let context = layout_dialect::create_context().expect("context");
        let source = r#"module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %a = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(128,256)">
    %b = "layout.alloc"() : () -> !layout.tensor<f16, "l0a", "ZZ", "(16,16)">
    return
  }
}"#;
        let module = layout_dialect::parse_source(&context, source).expect("parse");
        let Err(LowerFailure::Errors(errors)) = super::super::lower(module.as_operation()) else {
            panic!("an over-capacity alloc was lowered")
        };
        let [located] = errors.as_slice() else { panic!("{errors:?}") };
        assert!(located.location.ends_with(":4:10"), "{}", located.location);
        let AscendcError::Placement(e) = &located.error else { panic!("{:?}", located.error) };
        let PlacementError::Capacity { offset, size, live, .. } = e.as_ref() else { panic!("{e:?}") };
        assert_eq!((*offset, *size), (65536, Some(512)));
        assert_eq!(live.iter().map(|h| (h.offset, h.size)).collect::<Vec<_>>(), [(0, 65536)]);
        assert!(live[0].buffer.ends_with("(alloc at 3:10)"), "{}", live[0].buffer);
    }
}
