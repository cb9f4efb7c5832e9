//! `layout-lower-to-ascendc`: layout loads, matmuls and stores become AscendC intrinsics
//! (`ascendc` dialect, `dialects/ascendc/ascendc.irdl.mlir`).
//!
//! The input is checked first with every `layout-verify` rule ([`crate::verify::verify`]):
//! a module the verifier rejects gets the verifier's located errors and no AscendC code.
//!
//! One file per concern:
//! - this file: the walk, resolving every `!layout.tensor` value to an algebra layout
//!   ([`Tensor`]), choosing the intrinsic per (source layout, destination layout, target) and
//!   calling `ascendc-params` for every parameter;
//! - [`build`]: derived instructions → `ascendc.*` ops (static fields as attributes, dynamic ones
//!   as index operands emitted with [`crate::index_arith::IndexEmitter`] after
//!   `index_simplify::simplify` with the range facts of the enclosing loops, [`facts`]);
//! - [`facts`]: what the IR proves about each symbol (the `scf.for` facts the offset simplifier
//!   reads), and which `ascendc-params` assumptions that discharges;
//! - [`placement`]: on-chip byte offsets per function, buffers with disjoint live ranges sharing
//!   addresses (alignment, per-target capacity table); [`error`]: the typed, located errors;
//! - `liveness`: the live range of every on-chip buffer (positions in pre-order);
//! - [`sync`]: the petgraph dependency graph over `scf.for` / `scf.if` and the minimal
//!   `SetFlag`/`WaitFlag` pairs; `flags` reads a function into it (resources are byte ranges)
//!   and [`apply_sync`] inserts the pairs; `--layout-print-sync-graph` prints the graph (DOT)
//!   to stderr.
//!
//! Which intrinsic each (layout op, source layout, destination layout, target) becomes:
//! docs/ascendc-derivation.md §1.1; parameter errors and splits, tiles and offsets: §1.

pub mod build;
pub mod error;
pub mod facts;
mod flags;
mod liveness;
pub mod placement;
pub mod sync;
pub mod table;

#[cfg(test)]
mod chain_tests;
#[cfg(test)]
mod overlap_tests;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use ascendc_params::{Buffer, Operand, Target};
use layout_algebra::{ascend::ElementType, Layout, SymExpr};
use layout_dialect::{tensor_layout::layout_strings, types::target_of, LayoutCache, MemorySpace};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::StringAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        Attribute, Identifier, OperationRef, Type, Value, ValueLike,
    },
    pass::{ExternalPass, Pass},
    Context,
};

pub use error::{AscendcError, Located, LowerFailure};
use flags::functions;
pub use flags::{apply_sync, sync_graphs};
use liveness::{function_of, live_ranges};

use crate::{
    emit_error,
    error::LoweringError,
    external::{self, PassId},
    ir::{constant_int, defining_op},
};
use layout_dialect::ops::LayoutOp;

pub const ARGUMENT: &str = "layout-lower-to-ascendc";
pub const DESCRIPTION: &str =
    "Lower layout load/matmul/store to AscendC intrinsics (ascendc dialect): parameters from ascendc-params, buffer placement, SetFlag/WaitFlag";
pub const SYNC_GRAPH_ARGUMENT: &str = "layout-print-sync-graph";
pub const SYNC_GRAPH_DESCRIPTION: &str =
    "Print the pipe dependency graph of the ascendc ops (DOT, to stderr): kept edges red, implied ones dashed";

static PASS_ID: PassId = PassId::new();
static GRAPH_PASS_ID: PassId = PassId::new();

pub fn create() -> Pass {
    external::create(&PASS_ID, run, "LayoutLowerToAscendc", ARGUMENT, DESCRIPTION, &[DialectHandle::arith()])
}

pub fn create_print_sync_graph() -> Pass {
    let print = |root: OperationRef, _pass: ExternalPass| {
        for dot in sync_graphs(root) {
            eprint!("{dot}");
        }
    };
    external::create(&GRAPH_PASS_ID, print, "LayoutPrintSyncGraph", SYNC_GRAPH_ARGUMENT, SYNC_GRAPH_DESCRIPTION, &[])
}

fn run(root: OperationRef, pass: ExternalPass) {
    if lower(root).is_err() {
        pass.signal_failure();
    }
}

/// A `!layout.tensor` value as the derivations see it.
#[derive(Clone)]
pub(crate) struct Tensor<'c, 'a> {
    /// The (tile) layout: applies to the coordinates of the whole tensor.
    pub layout: Layout<SymExpr>,
    /// Top-left coordinate of the tile in the whole tensor (`(0,0)` for the tensor itself).
    pub coord: [SymExpr; 2],
    pub elem: ElementType,
    pub space: MemorySpace,
    /// The `ascendc.global_tensor` / `ascendc.alloc` value holding the data.
    pub buffer: Value<'c, 'a>,
    /// Byte offset of the buffer in its memory (placement; 0 for GM).
    pub base_bytes: i64,
    /// The batch coordinate of the corner of a batch form (`(batch, rows, cols)` tiles, whose
    /// matrix corner is `coord`); None for a single matrix.
    pub batch: Option<SymExpr>,
    /// Element offset of the layout's offset 0 in the buffer: the batch offset of one matrix
    /// of a batch form ([`Tensor::matrix`]), 0 otherwise; added to the operand's offsets.
    pub base: SymExpr,
    /// Symbols in the layout/coordinates and the index values they stand for.
    pub binds: Rc<Binds<'c, 'a>>,
}

/// Symbol bindings of a tensor: its own, then those of the tensor it was tiled from, shared
/// (a tile of a tile of ... copies nothing: copying the list per tile made a chain of N tiles
/// at dynamic coordinates cost O(N²) memory).
#[derive(Clone, Debug, Default)]
pub(crate) struct Binds<'c, 'a> {
    pub own: Vec<(String, Value<'c, 'a>)>,
    pub parent: Option<Rc<Binds<'c, 'a>>>,
}

impl<'c, 'a> Binds<'c, 'a> {
    /// Every binding (own first, then the parent's, ...).
    pub fn iter(&self) -> impl Iterator<Item = &(String, Value<'c, 'a>)> {
        let mut next = Some(self);
        std::iter::from_fn(move || {
            let list = next?;
            next = list.parent.as_deref();
            Some(list.own.iter())
        })
        .flatten()
    }
}

impl<'c, 'a> Tensor<'c, 'a> {
    pub fn operand(&self) -> Result<Operand<'_, SymExpr>> {
        if self.batch.is_some() {
            return Err(AscendcError::internal("a batch form used as an intrinsic operand (not its matrix)"));
        }
        let eb = SymExpr::Const(i64::from(self.elem.bits() / 8));
        let base = layout_algebra::IndexValue::mul(&self.base, &eb)
            .and_then(|b| layout_algebra::IndexValue::add(&SymExpr::Const(self.base_bytes), &b))
            .map_err(LoweringError::from)?;
        Ok(Operand { layout: &self.layout, coord: self.coord.clone(), base_bytes: base, buffer_layout: None })
    }

    /// The operand as the side table records it ([`table::OperandSpec`]).
    fn spec(&self) -> table::OperandSpec {
        table::OperandSpec {
            layout: self.layout.clone(),
            coord: self.coord.clone(),
            base: self.base.clone(),
            elem_bytes: i64::from(self.elem.bits() / 8),
        }
    }

    /// The matrix a copy moves of this tensor ([`crate::tile::matrix_view`]): a batch form of
    /// batch extent 1 becomes its matrix at the batch offset; other tensors are unchanged.
    pub fn matrix(self) -> Result<Self> {
        let Some(batch) = self.batch.clone() else { return Ok(self) };
        let [row, col] = self.coord.clone();
        let view = crate::tile::matrix_view(&self.layout, &[batch, row, col])?;
        let [row, col]: [SymExpr; 2] =
            view.corner.try_into().map_err(|_| AscendcError::internal("rank-2 matrix corner"))?;
        let base = layout_algebra::IndexValue::add(&self.base, &view.offset).map_err(LoweringError::from)?;
        Ok(Tensor { layout: view.layout, coord: [row, col], batch: None, base, ..self })
    }
}

pub(crate) fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

/// The root `layout.alloc`/`layout.view` of a (tile) value.
fn root_of(v: Value) -> Option<usize> {
    let mut v = v;
    loop {
        match LayoutOp::decode(defining_op(v)?) {
            Some(Ok(LayoutOp::Tile { source, .. })) => v = source,
            Some(Ok(LayoutOp::Load { dst, .. })) => v = dst,
            Some(Ok(LayoutOp::Matmul { c, .. })) => v = c,
            _ => return Some(key(v)),
        }
    }
}

/// Lowers every layout op under `root` after running every `layout-verify` check on it (the
/// AscendC back end accepts nothing the verifier rejects); errors are emitted as located
/// diagnostics and returned, one per cause.
pub fn lower(root: OperationRef) -> Result<(), LowerFailure> {
    lower_with_table(root).map(drop)
}

/// [`lower`], returning the side table of the copies ([`table`]): what each emitted
/// `ascendc.*` copy implements, for the address proof.
pub fn lower_with_table(root: OperationRef) -> Result<Vec<table::CopySpec>, LowerFailure> {
    facts::forget_simplified();
    if !crate::verify::verify(root) {
        return Err(LowerFailure::Unverified);
    }
    // `to_ref` reinterprets the `ContextRef` itself, so it must live in a local, not a temporary.
    let context_ref = root.context();
    // Safety: the context outlives the pass run and `context_ref` outlives `context`.
    let context: &Context = unsafe { context_ref.to_ref() };
    let mut ops: Vec<OperationRef> = Vec::new();
    let mut position: HashMap<usize, usize> = HashMap::new();
    root.walk(WalkOrder::PreOrder, |op| {
        position.insert(op.to_raw().ptr as usize, position.len());
        if LayoutOp::decode(op).is_some() {
            // Safety: the op outlives this function (nothing is erased during the walk).
            ops.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    if ops.is_empty() {
        return Ok(Vec::new());
    }
    let report = |location: melior::ir::Location, error: AscendcError| {
        emit_error(location, &format!("{ARGUMENT}: {error}"));
        LowerFailure::Errors(vec![Located { location: position_text(location), error }])
    };
    let target = match target_of(root) {
        Ok(t) => t,
        Err((location, e)) => return Err(report(location, AscendcError::Unsupported(e.to_string()))),
    };
    // L1 buffers read by loads into L0B are B1, the others A1.
    let mut layouts = LayoutCache::new();
    let mut b1: HashSet<usize> = HashSet::new();
    for op in &ops {
        if let Some(Ok(LayoutOp::Load { src, dst, .. })) = LayoutOp::decode(*op) {
            if layouts.tensor_type(dst.r#type()).is_some_and(|t| t.space == MemorySpace::L0b.name()) {
                if let Some(r) = root_of(src) {
                    b1.insert(r);
                }
            }
        }
    }
    let mut lowering = Lowering {
        context,
        target,
        tensors: HashMap::new(),
        placements: HashMap::new(),
        live: live_ranges(&ops, &position),
        b1,
        counter: 0,
        coord_symbols: HashMap::new(),
        layouts,
        table: Vec::new(),
    };
    let mut errors = Vec::new();
    for op in &ops {
        if let Err(error) = lowering.op(*op) {
            // An op whose operand already failed to lower reports nothing more.
            if errors.is_empty() || error != AscendcError::NotLowered {
                emit_error(op.location(), &format!("{ARGUMENT}: {error}"));
                errors.push(Located { location: position_text(op.location()), error });
            }
        }
    }
    if !errors.is_empty() {
        return Err(LowerFailure::Errors(errors));
    }
    // Erase the layout ops, users first.
    for op in ops.iter().rev() {
        // Safety: every layout op is erased once; its results have no users left (their users
        // are later layout ops, erased before it; `layout.offset` results were replaced).
        unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
    }
    // Synchronization and the final barrier.
    for func in functions(root) {
        if let Err((location, error)) = apply_sync(context, func) {
            return Err(report(location, error));
        }
    }
    Ok(lowering.table)
}

/// `file:line:col` of a location (MLIR's text for other locations).
fn position_text(location: melior::ir::Location) -> String {
    crate::lower_to_loops::guard::position(location)
}

struct Lowering<'c> {
    context: &'c Context,
    target: Target,
    tensors: HashMap<usize, Tensor<'c, 'c>>,
    /// One placement per function (keyed by [`function_of`]).
    placements: HashMap<usize, placement::Placement>,
    /// Live ranges of the on-chip buffers ([`live_ranges`]).
    live: HashMap<usize, placement::Live>,
    b1: HashSet<usize>,
    counter: usize,
    /// The symbol of each dynamic tile coordinate value (keyed by the value).
    coord_symbols: HashMap<usize, String>,
    /// Each `!layout.tensor` type parsed and resolved once (renamed per value).
    layouts: LayoutCache,
    /// What each emitted copy implements ([`table`]).
    table: Vec<table::CopySpec>,
}

type Result<T, E = AscendcError> = std::result::Result<T, E>;

fn operand<'c, 'a>(op: OperationRef<'c, 'a>, i: usize) -> Result<Value<'c, 'a>> {
    op.operand(i).map_err(AscendcError::internal)
}

fn result<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<Value<'c, 'a>> {
    op.result(0).map(Into::into).map_err(AscendcError::internal)
}

fn block_of<'c, 'a>(op: OperationRef<'c, 'a>) -> Result<melior::ir::BlockRef<'c, 'a>> {
    op.block().ok_or_else(|| AscendcError::IrShape("op outside a block".into()))
}

impl<'c> Lowering<'c> {
    fn tensor(&self, v: Value) -> Result<Tensor<'c, 'c>> {
        self.tensors.get(&key(v)).cloned().ok_or(AscendcError::NotLowered)
    }

    fn fresh(&mut self, what: &str) -> String {
        self.counter += 1;
        format!("{what}{}_", self.counter)
    }

    fn op(&mut self, op: OperationRef<'c, 'c>) -> Result<()> {
        let decoded = LayoutOp::decode(op).ok_or_else(|| AscendcError::internal("not a layout op"))??;
        let location = op.location();
        match decoded {
            LayoutOp::View { .. } | LayoutOp::Alloc { .. } => {
                let result: Value = result(op)?;
                let not_tensor = || AscendcError::IrShape("result is not a !layout.tensor".into());
                let ty = self.layouts.tensor_type(result.r#type()).ok_or_else(not_tensor)?;
                let prefix = self.fresh("v");
                let resolved = self.layouts.resolve_with_prefix(result.r#type(), &prefix).ok_or_else(not_tensor)??;
                let (layout_text, origin_text) = layout_strings(&resolved.layout);
                let cute = format!("{layout_text} origin {origin_text}");
                let mut binds = Vec::new();
                let (buffer, base) = if matches!(decoded, LayoutOp::View { .. }) {
                    for (i, s) in resolved.symbols.iter().enumerate() {
                        binds.push((s.clone(), operand(op, i + 1)?));
                    }
                    let memref = operand(op, 0)?;
                    let ty = Type::parse(self.context, &format!("!ascendc.global<{}>", ty.elem)).ok_or_else(|| {
                        AscendcError::Unsupported(format!("element type {} has no ascendc type", ty.elem))
                    })?;
                    let new = OperationBuilder::new("ascendc.global_tensor", location)
                        .add_operands(&[memref])
                        .add_attributes(&[(
                            Identifier::new(self.context, "layout"),
                            StringAttribute::new(self.context, &cute).into(),
                        )])
                        .add_results(&[ty])
                        .build()
                        .map_err(AscendcError::internal)?;
                    let new = block_of(op)?.insert_operation_before(op, new);
                    (new.result(0).map_err(AscendcError::internal)?.into(), 0)
                } else {
                    if resolved.num_dynamic() > 0 {
                        return Err(AscendcError::Unsupported(format!(
                            "on-chip buffers must be static for placement: {} has dynamic leaves",
                            result.r#type()
                        )));
                    }
                    let buffer = Buffer::of_space(resolved.space).filter(|b| *b != Buffer::Gm).ok_or_else(|| {
                        AscendcError::Unsupported(format!(
                            "memory space \"{}\" has no AscendC lowering (l1, l0a, l0b, l0c)",
                            ty.space
                        ))
                    })?;
                    let stat =
                        resolved.static_layout().ok_or_else(|| AscendcError::internal("layout is not static"))?;
                    let bits = i64::from(resolved.elem.bits());
                    if bits % 8 != 0 {
                        return Err(AscendcError::Unsupported(format!(
                            "{} elements are not byte sized",
                            resolved.elem
                        )));
                    }
                    let elements = stat.cosize().map_err(LoweringError::from)?;
                    // A buffer nothing reads or writes is live with the other unused ones.
                    let live = self.live.get(&key(result)).copied().unwrap_or((0, 0));
                    // Errors name the buffer by its type and the line:col of its alloc.
                    let site = position_text(location);
                    let line_col: Vec<&str> = site.rsplitn(3, ':').take(2).collect();
                    let line_col = match line_col.as_slice() {
                        [col, line] => format!("{line}:{col}"),
                        _ => site.clone(),
                    };
                    let placed = self
                        .placements
                        .entry(function_of(op))
                        .or_insert_with(|| placement::Placement::new(self.target))
                        .place_live(buffer, (&ty.to_string(), &line_col), elements, resolved.elem, live)?;
                    let position = match buffer {
                        Buffer::L1 if self.b1.contains(&key(result)) => "B1",
                        Buffer::L1 => "A1",
                        Buffer::L0A => "A2",
                        Buffer::L0B => "B2",
                        _ => "CO1",
                    };
                    let lty = Type::parse(self.context, &format!("!ascendc.local<{}, \"{position}\">", ty.elem))
                        .ok_or_else(|| {
                            AscendcError::Unsupported(format!("element type {} has no ascendc type", ty.elem))
                        })?;
                    let int = |v: i64| {
                        Attribute::parse(self.context, &format!("{v} : i64"))
                            .ok_or_else(|| AscendcError::internal(format!("attribute {v} : i64")))
                    };
                    let new = OperationBuilder::new("ascendc.alloc", location)
                        .add_attributes(&[
                            (Identifier::new(self.context, "offset"), int(placed.offset)?),
                            (Identifier::new(self.context, "size"), int(placed.size)?),
                            (Identifier::new(self.context, "layout"), StringAttribute::new(self.context, &cute).into()),
                        ])
                        .add_results(&[lty])
                        .build()
                        .map_err(AscendcError::internal)?;
                    let new = block_of(op)?.insert_operation_before(op, new);
                    (new.result(0).map_err(AscendcError::internal)?.into(), placed.offset)
                };
                let zero = SymExpr::Const(0);
                let batch = crate::tile::is_batch_form(&resolved.layout).then_some(SymExpr::Const(0));
                self.tensors.insert(
                    key(result),
                    Tensor {
                        layout: resolved.layout,
                        coord: [zero.clone(), zero],
                        elem: resolved.elem,
                        space: resolved.space,
                        buffer,
                        base_bytes: base,
                        batch,
                        base: SymExpr::Const(0),
                        binds: Rc::new(Binds { own: binds, parent: None }),
                    },
                );
                Ok(())
            }
            LayoutOp::Tile { source, coord: coord_values, shape, .. } => {
                let parent = self.tensor(source)?;
                // (rows, cols), or (batch, rows, cols) for a batch form (as the verifier's G1).
                let rank = 2 + usize::from(parent.batch.is_some());
                if shape.len() != rank || coord_values.len() != rank {
                    return Err(AscendcError::Unsupported(format!(
                        "layout.tile of this parent takes {rank} coordinates and extents, got {}",
                        shape.len()
                    )));
                }
                let prefix = self.fresh("t");
                let mut binds = Vec::new();
                let coord_symbols = &mut self.coord_symbols;
                // The corner in the whole tensor: the parent's batch coordinate (if any) and
                // its matrix corner.
                let corner: Vec<SymExpr> = parent.batch.iter().chain(&parent.coord).cloned().collect();
                // One symbol per value: a chain of tiles at `%k` sums `%k` into one term of its
                // corner (`tile::tile_of`), not one term per tile. No declared-type check here:
                // the verifier made it (G2), and the views of L0 operands carry the layout Mmad
                // infers (`cube_operand`), not the declared one.
                let (placed, _) = crate::tile::lower_tile(
                    &parent.layout,
                    &corner,
                    &shape,
                    coord_values,
                    |i, v| {
                        let s = coord_symbols.entry(key(v)).or_insert_with(|| format!("{prefix}{i}")).clone();
                        binds.push((s.clone(), v));
                        SymExpr::sym(&s)
                    },
                    None,
                )?;
                let mut corner = placed.corner;
                let batch = parent.batch.is_some().then(|| corner.remove(0));
                let [row, col]: [SymExpr; 2] =
                    corner.try_into().map_err(|_| AscendcError::internal("rank-2 tile corner"))?;
                let result: Value = result(op)?;
                self.tensors.insert(
                    key(result),
                    Tensor {
                        layout: placed.layout,
                        coord: [row, col],
                        batch,
                        binds: Rc::new(Binds { own: binds, parent: Some(parent.binds.clone()) }),
                        ..parent
                    },
                );
                Ok(())
            }
            LayoutOp::Block { query, result: old, .. } => {
                // GetBlockIdx() / GetBlockNum(): the ascendc op replaces the layout op's value.
                let name = match query {
                    layout_dialect::ops::BlockQuery::Idx => "ascendc.get_block_idx",
                    layout_dialect::ops::BlockQuery::Num => "ascendc.get_block_num",
                };
                let new = OperationBuilder::new(name, location)
                    .add_results(&[Type::index(self.context)])
                    .build()
                    .map_err(AscendcError::internal)?;
                let new = block_of(op)?.insert_operation_before(op, new);
                let value: Value = new.result(0).map_err(AscendcError::internal)?.into();
                // Safety: both values are valid and of type index.
                unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), value.to_raw()) };
                Ok(())
            }
            LayoutOp::Offset { .. } => {
                let t = self.tensor(operand(op, 0)?)?;
                let prefix = self.fresh("o");
                let mut binds: Vec<(String, Value)> = t.binds.iter().cloned().collect();
                let mut coord = Vec::new();
                for i in 1..op.operand_count() {
                    let v = operand(op, i)?;
                    coord.push(match constant_int(v) {
                        Some(c) => SymExpr::Const(c),
                        None => {
                            let s = format!("{prefix}{i}");
                            binds.push((s.clone(), v));
                            SymExpr::sym(&s)
                        }
                    });
                }
                let offset = t
                    .layout
                    .crd_to_offset(&crate::tile::coord_tuple(&t.layout, &coord))
                    .map_err(LoweringError::from)?;
                let symbol_facts = facts::SymbolFacts::of(binds.iter().cloned());
                let offset = symbol_facts.simplify(&offset);
                let block = block_of(op)?;
                let mut emitter =
                    crate::index_arith::IndexEmitter::new(self.context, location, symbol_facts.assumed, |new| {
                        block.insert_operation_before(op, new)
                    });
                for (s, v) in &binds {
                    emitter.bind(s, *v);
                }
                let value = emitter.emit(&offset).map_err(LoweringError::IndexEmit)?;
                let old: Value = result(op)?;
                // Safety: both values are valid and of type index.
                unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), value.to_raw()) };
                Ok(())
            }
            LayoutOp::Load { .. } | LayoutOp::Store { .. } => {
                // One matrix of a batch form is copied as that matrix at its batch offset.
                let src = self.tensor(operand(op, 0)?)?.matrix()?;
                let dst = self.tensor(operand(op, 1)?)?.matrix()?;
                let (epilogue, atomic_add) = match decoded {
                    LayoutOp::Store { epilogue, .. } => {
                        (ascendc_params::Epilogue { relu: epilogue.relu, scale: epilogue.scale }, epilogue.atomic_add)
                    }
                    _ => (ascendc_params::Epilogue::NONE, false),
                };
                // L0A/L0B hold what Mmad reads: the layout it infers from m, n and the valid k,
                // written from the start of the buffer (whose layout says what lies past it).
                let (dst, buffer_layout) = match dst.space {
                    MemorySpace::L0a | MemorySpace::L0b => {
                        let at_start = dst.coord.iter().all(|c| layout_algebra::IndexValue::is_constant(c, 0));
                        let whole = at_start.then(|| dst.layout.clone());
                        (self.cube_operand(&src, &dst)?, whole)
                    }
                    _ => (dst, None),
                };
                let mut derived = self.derive_copy(&src, &dst, epilogue, buffer_layout.as_ref())?;
                if matches!(decoded, LayoutOp::Store { epilogue: e, .. } if e.unit_flag) {
                    // The Fixpipe side of the handshake (asc-devkit UnitFlag.md): always 3.
                    set_unit_flag(&mut derived, SymExpr::Const(ascendc_params::decl::UnitFlag::Release.value()))?;
                }
                // GM DN -> L1 ZN runs ND2NZ on the transposed views: say so next to the call.
                let column_major = src.space == MemorySpace::Gm
                    && dst.space == MemorySpace::L1
                    && src.layout.shape().leaves().len() == 2
                    && src
                        .layout
                        .stride()
                        .leaves()
                        .first()
                        .is_some_and(|s| layout_algebra::IndexValue::as_constant(s) == Some(1));
                let extra = if column_major {
                    vec![("transposed", "GM DN -> L1 ZN / NN, issued as ND -> NZ / ZZ of the transposed views (DN(K,N) = ND(N,K), ZN(K,N) = NZ(N,K), NN(K,N) = ZZ(N,K)): nValue counts columns, dValue rows".to_string())]
                } else {
                    vec![]
                };
                // SetAtomicAdd<T>() before the Fixpipe and SetAtomicNone() after (the emitters).
                let atomic: &[(&str, &str)] = if atomic_add { &[("atomic", "\"add\"")] } else { &[] };
                let calls = build::emit(self.context, op, &derived, &dst, &[&src], self.target, (&extra, atomic))?;
                self.table.push(table::CopySpec {
                    op: op.name().as_string_ref().as_str().unwrap_or_default().to_string(),
                    location: position_text(location),
                    calls,
                    dst: dst.spec(),
                    srcs: vec![src.spec()],
                    transposed: column_major,
                    symbols: src.binds.iter().chain(dst.binds.iter()).map(|(s, v)| (s.clone(), v.to_raw())).collect(),
                    assumptions: derived.assumptions.clone(),
                    target: self.target,
                });
                if let Some(Ok(LayoutOp::Load { written: Some(written), .. })) = LayoutOp::decode(op) {
                    let view = match dst.space {
                        MemorySpace::L0a | MemorySpace::L0b => dst,
                        _ => self.written(&src, &dst)?,
                    };
                    self.tensors.insert(key(written), view);
                }
                Ok(())
            }
            LayoutOp::Matmul { accumulate, unit_flag, .. } => {
                let a = self.tensor(operand(op, 0)?)?;
                let b = self.tensor(operand(op, 1)?)?;
                let mut c = self.tensor(operand(op, 2)?)?;
                let mut derived = ascendc_params::mmad(
                    &c.operand()?,
                    &a.operand()?,
                    &b.operand()?,
                    a.elem,
                    c.elem,
                    self.target,
                    accumulate,
                )?;
                if let Some(flag) = unit_flag {
                    // The Mmad's unitFlag: the constant, or the operand's value under a symbol
                    // bound with C's (the emitted `dyn` field computes it in the loop).
                    let value = match crate::ir::constant_int(flag) {
                        Some(v) => SymExpr::Const(v),
                        None => {
                            let name = "unit_flag";
                            c.binds =
                                Rc::new(Binds { own: vec![(name.to_string(), flag)], parent: Some(c.binds.clone()) });
                            SymExpr::sym(name)
                        }
                    };
                    set_unit_flag(&mut derived, value)?;
                }
                let calls = build::emit(self.context, op, &derived, &c, &[&a, &b], self.target, (&[], &[]))?;
                self.table.push(table::CopySpec {
                    op: op.name().as_string_ref().as_str().unwrap_or_default().to_string(),
                    location: position_text(location),
                    calls,
                    dst: c.spec(),
                    srcs: vec![a.spec(), b.spec()],
                    transposed: false,
                    symbols: [&a, &b, &c]
                        .iter()
                        .flat_map(|t| t.binds.iter())
                        .map(|(s, v)| (s.clone(), v.to_raw()))
                        .collect(),
                    assumptions: derived.assumptions.clone(),
                    target: self.target,
                });
                if let Some(Ok(LayoutOp::Matmul { written: Some(written), .. })) = LayoutOp::decode(op) {
                    // C viewed with the logical m x n (the padded rows and columns Mmad also
                    // computes are C's padding).
                    let (ae, be, ce) =
                        (a.layout.origin().leaves(), b.layout.origin().leaves(), c.layout.origin().leaves());
                    let min =
                        |x: &SymExpr, y: &SymExpr| layout_algebra::IndexValue::min(x, y).map_err(LoweringError::from);
                    let (m, n) = (min(&ae[0], &ce[0])?, min(&be[1], &ce[1])?);
                    let layout = crate::tile::written_view(&c.layout, &[m, n])?;
                    let binds = Rc::new(Binds {
                        own: a.binds.iter().chain(b.binds.iter()).cloned().collect(),
                        parent: Some(c.binds.clone()),
                    });
                    self.tensors.insert(key(written), Tensor { layout, binds, ..c });
                }
                Ok(())
            }
        }
    }

    /// The `written` view of a load from `src` into `dst` ([`crate::tile::written_view`]): the
    /// destination's buffer and layout with the written extent as origin; the symbols of both.
    fn written(&self, src: &Tensor<'c, 'c>, dst: &Tensor<'c, 'c>) -> Result<Tensor<'c, 'c>> {
        let layout = crate::tile::written_view(&dst.layout, &src.layout.origin().leaves())?;
        let binds = Rc::new(Binds { own: src.binds.iter().cloned().collect(), parent: Some(dst.binds.clone()) });
        Ok(Tensor { layout, binds, ..dst.clone() })
    }

    /// The layout an L0A/L0B destination gets from a load of `src`: the cube infers the layout
    /// of A and B from m, n, k (`ascendc_params::mmad`), with m, n the static fractal grid of
    /// the buffer and k the valid reduction extent. When k is a tail (dynamic or smaller than
    /// the buffer), the ZZ row blocks of A on a2 are `ceil(k/C0)` fractals apart, not the
    /// buffer's count, so the copy writes that layout and the matmul reads it (the CPU loop
    /// lowering keeps the buffer's layout: L0 contents are only observable through Mmad).
    /// Tiles of L0 buffers keep their layout.
    fn cube_operand(&self, src: &Tensor<'c, 'c>, dst: &Tensor<'c, 'c>) -> Result<Tensor<'c, 'c>> {
        use layout_algebra::{ascend::frame_c0, IndexValue};
        let written = self.written(src, dst)?;
        if !dst.coord.iter().all(|c| c.as_constant() == Some(0)) {
            return Ok(written);
        }
        let (pattern, k_mode) = match dst.space {
            MemorySpace::L0a => (self.target.l0a_pattern(), 1),
            _ => (layout_algebra::ascend::FramePattern::ZN, 0),
        };
        let extents = written.layout.origin().leaves();
        let grid = |mode: usize| -> Result<SymExpr> {
            let size = dst.layout.shape().get_path(&[mode]).and_then(|t| t.size()).map_err(LoweringError::from)?;
            Ok(size)
        };
        if extents.len() != 2 {
            return Ok(written);
        }
        let dims = if k_mode == 1 { [grid(0)?, extents[1].clone()] } else { [extents[0].clone(), grid(1)?] };
        let c0 = frame_c0(pattern, dst.elem).map_err(LoweringError::from)?;
        let frame = layout_algebra::ascend::frame_layout(pattern, c0, &dims).map_err(LoweringError::from)?;
        let layout = frame.with_new_origin(written.layout.origin().clone()).map_err(LoweringError::from)?;
        Ok(Tensor { layout, ..written })
    }

    fn derive_copy(
        &self,
        src: &Tensor,
        dst: &Tensor,
        epilogue: ascendc_params::Epilogue,
        buffer_layout: Option<&Layout<SymExpr>>,
    ) -> Result<ascendc_params::Derived<SymExpr>> {
        use MemorySpace as S;
        let t = self.target;
        let r = match (src.space, dst.space) {
            (S::Gm, S::L1) => {
                // Flat (ND/DN) GM source → ND2NZ; a fractal GM source → plain NZ copy.
                if src.layout.shape().leaves().len() == 2 {
                    ascendc_params::gm_nd_to_l1_nz(&src.operand()?, &dst.operand()?, src.elem, t)
                } else {
                    ascendc_params::copy_nz_to_nz(&src.operand()?, &dst.operand()?, Buffer::Gm, Buffer::L1, src.elem)
                }
            }
            (S::L1, S::L0a | S::L0b) => {
                let d = dst.operand()?;
                let d = match buffer_layout {
                    Some(whole) => d.in_buffer(whole),
                    None => d,
                };
                match dst.space {
                    S::L0a => ascendc_params::l1_to_l0a(&src.operand()?, &d, src.elem, t),
                    _ => ascendc_params::l1_to_l0b(&src.operand()?, &d, src.elem, t),
                }
            }
            (S::L0c, S::Gm) => {
                // Flat (ND) GM destination → NZ2ND (CFG_ROW_MAJOR); a fractal one → NZ2NZ (CFG_NZ).
                let types = (src.elem, dst.elem);
                if dst.layout.shape().leaves().len() == 2 {
                    ascendc_params::l0c_to_gm_nd_with(&src.operand()?, &dst.operand()?, types, t, epilogue)
                } else {
                    ascendc_params::l0c_to_gm_nz_with(&src.operand()?, &dst.operand()?, types, t, epilogue)
                }
            }
            (S::L1, S::Gm) => {
                ascendc_params::copy_nz_to_nz(&src.operand()?, &dst.operand()?, Buffer::L1, Buffer::Gm, src.elem)
            }
            (a, b) => {
                return Err(AscendcError::Unsupported(format!(
                    "no AscendC intrinsic moves {} → {} here",
                    a.name(),
                    b.name()
                )))
            }
        };
        Ok(r?)
    }
}

/// Sets the `unitFlag` of the one `Mmad` or `Fixpipe` of `derived` (the unitFlag handshake,
/// asc-devkit UnitFlag.md); any other intrinsic has no such field.
fn set_unit_flag(derived: &mut ascendc_params::Derived<SymExpr>, value: SymExpr) -> Result<()> {
    use ascendc_params::Intrinsic as I;
    let [instr] = derived.instrs.as_mut_slice() else {
        return Err(AscendcError::Unsupported(format!(
            "the unit flag needs one Mmad or Fixpipe call, this op lowers to {}",
            derived.instrs.len()
        )));
    };
    match &mut instr.intrinsic {
        I::Mmad(p) => p.unit_flag = value,
        I::FixpipeNz2Nd(p) | I::FixpipeNz2Nz(p) => p.unit_flag = value,
        other => {
            return Err(AscendcError::Unsupported(format!(
                "{} has no unitFlag (only Mmad and Fixpipe take the handshake)",
                other.kind().name()
            )))
        }
    }
    Ok(())
}
