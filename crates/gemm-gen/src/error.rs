//! The generator's errors: a spec that cannot become a kernel says why.

use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum GenError {
    #[error("{what}: {reason}")]
    Spec { what: &'static str, reason: String },
    #[error("tiles {tiles} do not fit on {target}: {buffer} needs {need} bytes, capacity {capacity}")]
    Budget { tiles: String, target: &'static str, buffer: &'static str, need: i64, capacity: i64 },
    #[error("no tile shape fits the buffers of {target} for {what}")]
    NoTiles { target: &'static str, what: String },
    #[error(transparent)]
    Algebra(#[from] layout_algebra::AlgebraError),
}

pub type Result<T> = std::result::Result<T, GenError>;

pub(crate) fn spec(what: &'static str, reason: impl Into<String>) -> GenError {
    GenError::Spec { what, reason: reason.into() }
}
