//! Typed views of the `ascendc` target dialect's ops (`dialects/ascendc/ascendc.irdl.mlir`),
//! decoded once by name like [`crate::ops::LayoutOp`]: the sync analysis and the emitters
//! `match` on [`AscendcOp`] and [`Intrinsic`] exhaustively.

use crate::ops::{op_name, DecodeError};
use melior::ir::{operation::OperationLike, Attribute, OperationRef, Value};

/// The intrinsic families (ops with `params`/`dyn_fields`/`notes`): the kinds of the one
/// declaration (`ascendc_params::decl`), whose op names, operands and fields it holds.
pub use ascendc_params::IntrinsicKind as Intrinsic;

/// The op kinds of the `ascendc` dialect that are not intrinsics.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AscendcOpKind {
    GlobalTensor,
    Alloc,
    Intrinsic(Intrinsic),
    SetFlag,
    WaitFlag,
    PipeBarrier,
    GetBlockIdx,
    GetBlockNum,
}

impl AscendcOpKind {
    /// Every kind, intrinsics included.
    pub fn all() -> Vec<AscendcOpKind> {
        let mut out = vec![Self::GlobalTensor, Self::Alloc];
        out.extend(Intrinsic::ALL.iter().copied().map(Self::Intrinsic));
        out.extend([Self::SetFlag, Self::WaitFlag, Self::PipeBarrier, Self::GetBlockIdx, Self::GetBlockNum]);
        out
    }

    /// The full op name.
    pub fn name(self) -> &'static str {
        match self {
            Self::GlobalTensor => "ascendc.global_tensor",
            Self::Alloc => "ascendc.alloc",
            Self::Intrinsic(i) => i.name(),
            Self::SetFlag => "ascendc.set_flag",
            Self::WaitFlag => "ascendc.wait_flag",
            Self::PipeBarrier => "ascendc.pipe_barrier",
            Self::GetBlockIdx => "ascendc.get_block_idx",
            Self::GetBlockNum => "ascendc.get_block_num",
        }
    }

    /// The kind of a full op name; `None` for names outside the dialect.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::all().into_iter().find(|k| k.name() == name)
    }
}

/// A decoded `ascendc` op (attributes stay MLIR attributes: the emitters read their contents).
#[derive(Clone, Debug)]
pub enum AscendcOp<'c, 'a> {
    /// `%g = ascendc.global_tensor(%memref) {layout}`.
    GlobalTensor { op: OperationRef<'c, 'a>, source: Value<'c, 'a>, result: Value<'c, 'a> },
    /// `%l = ascendc.alloc() {offset, size, layout}`.
    Alloc { op: OperationRef<'c, 'a>, result: Value<'c, 'a> },
    /// An intrinsic call: `buffers` are the destination then the sources (`mmad`: C, A, B),
    /// `dyn` the index operands named by `dyn_fields`.
    Call {
        op: OperationRef<'c, 'a>,
        intrinsic: Intrinsic,
        buffers: Vec<Value<'c, 'a>>,
        dyn_values: Vec<Value<'c, 'a>>,
        params: Attribute<'c>,
    },
    /// `ascendc.set_flag {event, id}` / `ascendc.wait_flag {event, id}`.
    Flag { op: OperationRef<'c, 'a>, set: bool },
    /// `ascendc.pipe_barrier {pipe}`.
    PipeBarrier { op: OperationRef<'c, 'a> },
    /// `%b = ascendc.get_block_idx()` (`num: false`) / `%n = ascendc.get_block_num()` (`num: true`).
    Block { op: OperationRef<'c, 'a>, num: bool, result: Value<'c, 'a> },
}

impl<'c, 'a> AscendcOp<'c, 'a> {
    /// Decodes `op`; `None` if it is not an `ascendc` op.
    pub fn decode(op: OperationRef<'c, 'a>) -> Option<Result<Self, DecodeError>> {
        let name = op_name(&op);
        let kind = AscendcOpKind::from_name(&name)?;
        let result = || -> Result<Value<'c, 'a>, DecodeError> {
            op.result(0).map(Into::into).map_err(|_| DecodeError(format!("{name}: needs a result")))
        };
        Some((|| {
            Ok(match kind {
                AscendcOpKind::GlobalTensor => AscendcOp::GlobalTensor {
                    op,
                    source: op.operand(0).map_err(|_| DecodeError(format!("{name}: needs a source")))?,
                    result: result()?,
                },
                AscendcOpKind::Alloc => AscendcOp::Alloc { op, result: result()? },
                AscendcOpKind::Intrinsic(intrinsic) => {
                    let operands: Vec<Value<'c, 'a>> = op.operands().collect();
                    let n = intrinsic.buffer_count();
                    if operands.len() < n {
                        return Err(DecodeError(format!("{name}: needs {n} buffer operands, got {}", operands.len())));
                    }
                    let params = op
                        .attribute("params")
                        .map_err(|_| DecodeError(format!("{name}: needs a `params` attribute")))?;
                    AscendcOp::Call {
                        op,
                        intrinsic,
                        buffers: operands[..n].to_vec(),
                        dyn_values: operands[n..].to_vec(),
                        params,
                    }
                }
                AscendcOpKind::SetFlag => AscendcOp::Flag { op, set: true },
                AscendcOpKind::WaitFlag => AscendcOp::Flag { op, set: false },
                AscendcOpKind::PipeBarrier => AscendcOp::PipeBarrier { op },
                AscendcOpKind::GetBlockIdx => AscendcOp::Block { op, num: false, result: result()? },
                AscendcOpKind::GetBlockNum => AscendcOp::Block { op, num: true, result: result()? },
            })
        })())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ops::irdl_op_names;

    /// Adding an op to the IRDL file without a kind (or removing one) fails here.
    #[test]
    fn every_irdl_op_has_a_kind() {
        let names = irdl_op_names(crate::ASCENDC_IRDL_SOURCE, "ascendc");
        assert_eq!(names.len(), 15, "{names:?}");
        let mut ours: Vec<&str> = AscendcOpKind::all().iter().map(|k| k.name()).collect();
        let mut theirs: Vec<&str> = names.iter().map(String::as_str).collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs);
        for name in &names {
            assert_eq!(AscendcOpKind::from_name(name).map(AscendcOpKind::name), Some(name.as_str()));
        }
    }
}
