//! The errors of the printers: what cannot be emitted ([`EmitError`]) and where ([`Located`]:
//! the op it concerns, the module otherwise).

use layout_dialect::ops::DecodeError;
use layout_runtime::{Diag, Position};

/// Why a kernel cannot be emitted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EmitError {
    /// An op the printers have no form for.
    #[error("cannot emit `{0}` (only ascendc ops, arith index arithmetic and comparisons, scf.for and scf.if)")]
    UnsupportedOp(String),
    /// A supported op used in a way the printers do not handle (a float constant, a non-index
    /// `iter_args`, ...).
    #[error("{0}")]
    Unsupported(String),
    /// An op without what its dialect declares (an attribute, an operand, a body).
    #[error("{0}")]
    Malformed(String),
    /// An `ascendc` op that does not decode.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// An element type without an AscendC C++ type.
    #[error("element type {0} has no AscendC C++ type here")]
    CppType(String),
    /// An element type whose size the printers do not know.
    #[error("element type {0} is not supported")]
    ElemBytes(String),
    /// An element type without a dtype code of the model's C ABI.
    #[error("{0} has no dtype code in the model's C ABI")]
    DtypeCode(String),
    /// A Fixpipe quant mode the model's C ABI does not have.
    #[error("quant mode {0} is not in the model's C ABI")]
    QuantCode(String),
    /// A buffer whose bytes leave its memory on the target.
    #[error("{buffer}: bytes [{offset}, {end}) are outside {memory}, which holds {capacity} B on {target}")]
    Capacity { buffer: String, offset: i64, end: i64, memory: &'static str, capacity: i64, target: &'static str },
    /// Cost model: an input it needs is missing or invalid (an index argument, the block count).
    #[error("cost model: {0}")]
    CostArgument(String),
    /// Cost model: a value of the kernel cannot be computed for these inputs.
    #[error("cost model: {0}")]
    CostEval(String),
    /// Cost model: a pipe name it does not know (in an intrinsic's declaration, an event, a barrier).
    #[error("cost model: unknown pipe in `{0}`")]
    CostPipe(String),
    /// Cost model: the pipes wait for each other forever.
    #[error("cost model: deadlock: {0}")]
    CostDeadlock(String),
    /// Cost model: a block's program is longer than the model runs.
    #[error("cost model: more than {0} instructions in one block")]
    CostLimit(usize),
}

impl EmitError {
    /// The error at `at` (the op it concerns).
    pub fn at(self, at: Option<Position>) -> Located {
        Located { at, error: self }
    }
}

/// An [`EmitError`] at the op it concerns (`None`: at the module).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{error}")]
pub struct Located {
    pub at: Option<Position>,
    #[source]
    pub error: EmitError,
}

impl Located {
    /// The diagnostic: at the op, else at `fallback` (the module).
    pub fn into_diag(self, fallback: Option<Position>) -> Diag {
        Diag::error(self.at.or(fallback), self.error.to_string())
    }
}
