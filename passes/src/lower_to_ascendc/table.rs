//! The side table of the AscendC lowering, for the address proof (docs/index-simplification.md
//! §14): for each `layout.load`/`layout.store`/`layout.matmul`, the `ascendc.*` ops it became and the operands
//! the derivation read — each operand's layout, the corner of its tile, its base in the
//! buffer — and the index value of every symbol in them. With an intrinsic's element mapping
//! (`ascendc_params::element_map`) and the ops' field operands, a prover compares the address
//! each call touches with the algebra's `crd_to_offset`.

use ascendc_params::{Assumption, Target};
use layout_algebra::{Layout, SymExpr};
use mlir_sys::{MlirOperation, MlirValue};

/// One operand of a copy as the derivation saw it.
#[derive(Clone, Debug)]
pub struct OperandSpec {
    /// The tile layout (applies to the coordinates of the whole tensor) and its origin.
    pub layout: Layout<SymExpr>,
    /// The tile's corner in the whole tensor.
    pub coord: [SymExpr; 2],
    /// Element offset of the layout's offset 0 in the buffer (a batch form's matrix offset).
    pub base: SymExpr,
    pub elem_bytes: i64,
}

/// One lowered copy (or matmul).
#[derive(Clone, Debug)]
pub struct CopySpec {
    /// `layout.load` / `layout.store` / `layout.matmul`.
    pub op: String,
    /// `file:line:col` of the layout op.
    pub location: String,
    /// The `ascendc.*` ops emitted for it, in order.
    pub calls: Vec<MlirOperation>,
    pub dst: OperandSpec,
    /// The sources in the intrinsic's argument order: one for a copy, A and B for a matmul.
    pub srcs: Vec<OperandSpec>,
    /// GM DN → L1 ZN: ND2NZ runs on the transposed views (its rows are the columns).
    pub transposed: bool,
    /// Every symbol of the layouts and corners, with the index value it stands for.
    pub symbols: Vec<(String, MlirValue)>,
    /// The conditions the derivation could not decide (in its symbols): the running kernel
    /// checks those the loops do not prove before the call (`notes`' `assumes`).
    pub assumptions: Vec<Assumption<SymExpr>>,
    /// The module's target (the element mappings of Fixpipe NZ2NZ and Mmad depend on it).
    pub target: Target,
}
