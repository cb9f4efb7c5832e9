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
//! - [`placement`]: on-chip byte offsets (alignment, per-target capacity table);
//! - [`sync`]: the petgraph dependency graph and the minimal `SetFlag`/`WaitFlag` pairs;
//!   [`apply_sync`] inserts them; `--layout-print-sync-graph` prints the graph (DOT) to stderr.
//!
//! Intrinsic choice:
//!
//! | layout op | (src → dst) | intrinsic | ascendc-params |
//! |---|---|---|---|
//! | load | gm ND → l1 NZ, gm DN → l1 ZN | `DataCopy` + `Nd2NzParams` | `gm_nd_to_l1_nz` |
//! | load | gm NZ → l1 NZ | `DataCopy` + `DataCopyParams` | `copy_nz_to_nz` |
//! | load | l1 NZ/ZN → l0a (ZZ on a2, NZ on a5) | `LoadData` + `LoadData2DParams` (a2) / `V2` (a5) | `l1_to_l0a` |
//! | load | l1 NZ/ZN → l0b ZN | same; a2 8-bit NZ → ZN: `LoadDataWithTranspose` + `LoadData2dTransposeParams` | `l1_to_l0b` |
//! | matmul | l0a × l0b → l0c | `Mmad` + `MmadParams` | `mmad` |
//! | store | l0c NZ → gm ND | `Fixpipe<CFG_ROW_MAJOR>` + `FixpipeParamsV220` | `l0c_to_gm_nd` |
//! | store | l0c NZ → gm NZ | `Fixpipe<CFG_NZ>` + `FixpipeParamsV220` (f32: `isChannelSplit`) | `l0c_to_gm_nz` |
//! | store | l1 NZ → gm NZ | `DataCopy` + `DataCopyParams` (MTE3) | `copy_nz_to_nz` |
//!
//! A parameter that does not fit its field, or a misaligned address, is an error at the op
//! (`ParamError` text: instruction, field, value, range); where the hardware allows,
//! `ascendc-params` splits instead (more than 255 fractals per `LoadData`, GM row strides above
//! 65535 on a2). `layout.tile` ops disappear (their layouts become offsets and extents);
//! `layout.offset` becomes index arithmetic.

pub mod build;
pub mod facts;
pub mod placement;
pub mod sync;

#[cfg(test)]
mod chain_tests;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use ascendc_params::{Buffer, Operand, ParamError, Target};
use layout_algebra::{ascend::ElementType, Layout, SymExpr};
use layout_dialect::{tensor_layout::layout_strings, types::target_of, MemorySpace};
use melior::{
    dialect::DialectHandle,
    ir::{
        attribute::StringAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        Attribute, Identifier, OperationRef, RegionLike, Type, Value, ValueLike,
    },
    pass::{ExternalPass, Pass},
    Context,
};

use crate::{
    emit_error,
    external::{self, PassId},
    ir::{constant_int, defining_op, op_name, tensor_of},
};
use layout_dialect::{
    ascendc_ops::{AscendcOp, Intrinsic},
    ops::LayoutOp,
};

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
    pub fn operand(&self) -> Operand<'_, SymExpr> {
        Operand { layout: &self.layout, coord: self.coord.clone(), base_bytes: SymExpr::Const(self.base_bytes) }
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
            _ => return Some(key(v)),
        }
    }
}

/// The error of [`lower`]: the failure has already been reported as located MLIR diagnostics
/// (there is nothing more to say; the pass only signals failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Diagnosed;

/// Lowers every layout op under `root` after running every `layout-verify` check on it (the
/// AscendC back end accepts nothing the verifier rejects); errors are emitted as located
/// diagnostics.
pub fn lower(root: OperationRef) -> Result<(), Diagnosed> {
    if !crate::verify::verify(root) {
        return Err(Diagnosed);
    }
    // `to_ref` reinterprets the `ContextRef` itself, so it must live in a local, not a temporary.
    let context_ref = root.context();
    // Safety: the context outlives the pass run and `context_ref` outlives `context`.
    let context: &Context = unsafe { context_ref.to_ref() };
    let mut ops: Vec<OperationRef> = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if LayoutOp::decode(op).is_some() {
            // Safety: the op outlives this function (nothing is erased during the walk).
            ops.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    if ops.is_empty() {
        return Ok(());
    }
    let target = match target_of(root) {
        Ok(t) => t,
        Err((location, e)) => {
            emit_error(location, &format!("{ARGUMENT}: {e}"));
            return Err(Diagnosed);
        }
    };
    // L1 buffers read by loads into L0B are B1, the others A1.
    let mut b1: HashSet<usize> = HashSet::new();
    for op in &ops {
        if let Some(Ok(LayoutOp::Load { src, dst, .. })) = LayoutOp::decode(*op) {
            if tensor_of(dst).is_some_and(|t| t.space == MemorySpace::L0b.name()) {
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
        placement: placement::Placement::new(target),
        b1,
        counter: 0,
        coord_symbols: HashMap::new(),
        ok: true,
    };
    for op in &ops {
        if let Err(message) = lowering.op(*op) {
            // An op whose operand already failed to lower reports nothing more.
            if lowering.ok || message != NOT_LOWERED {
                emit_error(op.location(), &format!("{ARGUMENT}: {message}"));
            }
            lowering.ok = false;
        }
    }
    if !lowering.ok {
        return Err(Diagnosed);
    }
    // Erase the layout ops, users first.
    for op in ops.iter().rev() {
        // Safety: every layout op is erased once; its results have no users left (their users
        // are later layout ops, erased before it; `layout.offset` results were replaced).
        unsafe { mlir_sys::mlirOperationDestroy(op.to_raw()) };
    }
    // Synchronization and the final barrier.
    for func in functions(root) {
        if let Err(message) = apply_sync(context, func) {
            emit_error(func.location(), &format!("{ARGUMENT}: {message}"));
            return Err(Diagnosed);
        }
    }
    Ok(())
}

struct Lowering<'c> {
    context: &'c Context,
    target: Target,
    tensors: HashMap<usize, Tensor<'c, 'c>>,
    placement: placement::Placement,
    b1: HashSet<usize>,
    counter: usize,
    /// The symbol of each dynamic tile coordinate value (keyed by the value).
    coord_symbols: HashMap<usize, String>,
    ok: bool,
}

const NOT_LOWERED: &str = "operand is not a lowered layout tensor (view, alloc or tile)";

fn param_error(e: ParamError) -> String {
    e.to_string()
}

impl<'c> Lowering<'c> {
    fn tensor(&self, v: Value) -> Result<Tensor<'c, 'c>, String> {
        self.tensors.get(&key(v)).cloned().ok_or_else(|| NOT_LOWERED.to_string())
    }

    fn fresh(&mut self, what: &str) -> String {
        self.counter += 1;
        format!("{what}{}_", self.counter)
    }

    fn op(&mut self, op: OperationRef<'c, 'c>) -> Result<(), String> {
        let decoded = LayoutOp::decode(op).ok_or("not a layout op")?.map_err(|e| e.to_string())?;
        let location = op.location();
        match decoded {
            LayoutOp::View { .. } | LayoutOp::Alloc { .. } => {
                let result: Value = op.result(0).map_err(|e| e.to_string())?.into();
                let ty = tensor_of(result).ok_or("result is not a !layout.tensor")?;
                let prefix = self.fresh("v");
                let resolved = ty.resolve_with_prefix(&prefix).map_err(|e| e.to_string())?;
                let (layout_text, origin_text) = layout_strings(&resolved.layout);
                let cute = format!("{layout_text} origin {origin_text}");
                let mut binds = Vec::new();
                let (buffer, base) = if matches!(decoded, LayoutOp::View { .. }) {
                    for (i, s) in resolved.symbols.iter().enumerate() {
                        binds.push((s.clone(), op.operand(i + 1).map_err(|e| e.to_string())?));
                    }
                    let memref = op.operand(0).map_err(|e| e.to_string())?;
                    let ty = Type::parse(self.context, &format!("!ascendc.global<{}>", ty.elem))
                        .ok_or("bad element type")?;
                    let new = OperationBuilder::new("ascendc.global_tensor", location)
                        .add_operands(&[memref])
                        .add_attributes(&[(
                            Identifier::new(self.context, "layout"),
                            StringAttribute::new(self.context, &cute).into(),
                        )])
                        .add_results(&[ty])
                        .build()
                        .map_err(|e| e.to_string())?;
                    let block = op.block().ok_or("op outside a block")?;
                    let new = block.insert_operation_before(op, new);
                    (new.result(0).map_err(|e| e.to_string())?.into(), 0)
                } else {
                    if resolved.num_dynamic() > 0 {
                        return Err(format!(
                            "on-chip buffers must be static for placement: {} has dynamic leaves",
                            result.r#type()
                        ));
                    }
                    let buffer = Buffer::of_space(resolved.space).filter(|b| *b != Buffer::Gm).ok_or_else(|| {
                        format!("memory space \"{}\" has no AscendC lowering (l1, l0a, l0b, l0c)", ty.space)
                    })?;
                    let stat = resolved.static_layout().ok_or("layout is not static")?;
                    let bits = i64::from(resolved.elem.bits());
                    if bits % 8 != 0 {
                        return Err(format!("{} elements are not byte sized", resolved.elem));
                    }
                    let elements = stat.cosize().map_err(|e| e.to_string())?;
                    let placed = self
                        .placement
                        .place(buffer, &ty.to_string(), elements, resolved.elem)
                        .map_err(|e| e.to_string())?;
                    let position = match buffer {
                        Buffer::L1 if self.b1.contains(&key(result)) => "B1",
                        Buffer::L1 => "A1",
                        Buffer::L0A => "A2",
                        Buffer::L0B => "B2",
                        _ => "CO1",
                    };
                    let lty = Type::parse(self.context, &format!("!ascendc.local<{}, \"{position}\">", ty.elem))
                        .ok_or("bad element type")?;
                    let int = |v: i64| Attribute::parse(self.context, &format!("{v} : i64")).ok_or("attribute");
                    let new = OperationBuilder::new("ascendc.alloc", location)
                        .add_attributes(&[
                            (Identifier::new(self.context, "offset"), int(placed.offset)?),
                            (Identifier::new(self.context, "size"), int(placed.size)?),
                            (Identifier::new(self.context, "layout"), StringAttribute::new(self.context, &cute).into()),
                        ])
                        .add_results(&[lty])
                        .build()
                        .map_err(|e| e.to_string())?;
                    let block = op.block().ok_or("op outside a block")?;
                    let new = block.insert_operation_before(op, new);
                    (new.result(0).map_err(|e| e.to_string())?.into(), placed.offset)
                };
                let zero = SymExpr::Const(0);
                self.tensors.insert(
                    key(result),
                    Tensor {
                        layout: resolved.layout,
                        coord: [zero.clone(), zero],
                        elem: resolved.elem,
                        space: resolved.space,
                        buffer,
                        base_bytes: base,
                        binds: Rc::new(Binds { own: binds, parent: None }),
                    },
                );
                Ok(())
            }
            LayoutOp::Tile { source, coord: coord_values, shape, .. } => {
                let parent = self.tensor(source)?;
                if shape.len() != 2 || coord_values.len() != 2 {
                    return Err("only rank-2 tiles are lowered to AscendC".into());
                }
                let prefix = self.fresh("t");
                let mut binds = Vec::new();
                let mut coord = Vec::new();
                for (i, v) in coord_values.into_iter().enumerate() {
                    coord.push(match constant_int(v) {
                        Some(c) => SymExpr::Const(c),
                        None => {
                            // One symbol per value: a chain of tiles at `%k` sums `%k` into one
                            // term of its corner (`tile::tile_of`), not one term per tile.
                            let s = self.coord_symbols.entry(key(v)).or_insert_with(|| format!("{prefix}{i}")).clone();
                            binds.push((s.clone(), v));
                            SymExpr::sym(&s)
                        }
                    });
                }
                // The corner in the whole tensor: the parent's plus the local one.
                let placed = crate::tile::tile_of(&parent.layout, &parent.coord, &shape, &coord)?;
                let [row, col]: [SymExpr; 2] = placed.corner.try_into().map_err(|_| "rank-2 tile corner")?;
                let result: Value = op.result(0).map_err(|e| e.to_string())?.into();
                self.tensors.insert(
                    key(result),
                    Tensor {
                        layout: placed.layout,
                        coord: [row, col],
                        binds: Rc::new(Binds { own: binds, parent: Some(parent.binds.clone()) }),
                        ..parent
                    },
                );
                Ok(())
            }
            LayoutOp::Offset { .. } => {
                let t = self.tensor(op.operand(0).map_err(|e| e.to_string())?)?;
                let prefix = self.fresh("o");
                let mut binds: Vec<(String, Value)> = t.binds.iter().cloned().collect();
                let mut coord = Vec::new();
                for i in 1..op.operand_count() {
                    let v = op.operand(i).map_err(|e| e.to_string())?;
                    coord.push(match constant_int(v) {
                        Some(c) => SymExpr::Const(c),
                        None => {
                            let s = format!("{prefix}{i}");
                            binds.push((s.clone(), v));
                            SymExpr::sym(&s)
                        }
                    });
                }
                let offset =
                    t.layout.crd_to_offset(&crate::tile::coord_tuple(&t.layout, &coord)).map_err(|e| e.to_string())?;
                let symbol_facts = facts::SymbolFacts::of(binds.iter().cloned());
                let offset = symbol_facts.simplify(&offset);
                let block = op.block().ok_or("op outside a block")?;
                let mut emitter =
                    crate::index_arith::IndexEmitter::new(self.context, location, symbol_facts.assumed, |new| {
                        block.insert_operation_before(op, new)
                    });
                for (s, v) in &binds {
                    emitter.bind(s, *v);
                }
                let value = emitter.emit(&offset).map_err(|e| e.to_string())?;
                let old: Value = op.result(0).map_err(|e| e.to_string())?.into();
                // Safety: both values are valid and of type index.
                unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), value.to_raw()) };
                Ok(())
            }
            LayoutOp::Load { .. } | LayoutOp::Store { .. } => {
                let src = self.tensor(op.operand(0).map_err(|e| e.to_string())?)?;
                let dst = self.tensor(op.operand(1).map_err(|e| e.to_string())?)?;
                let derived = self.derive_copy(&src, &dst)?;
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
                    vec![("transposed", "GM DN -> L1 ZN, issued as ND -> NZ of the transposed views (DN(K,N) = ND(N,K), ZN(K,N) = NZ(N,K)): nValue counts columns, dValue rows".to_string())]
                } else {
                    vec![]
                };
                build::emit(self.context, op, &derived, &dst, &[&src], self.target, &extra)
            }
            LayoutOp::Matmul { accumulate, .. } => {
                let a = self.tensor(op.operand(0).map_err(|e| e.to_string())?)?;
                let b = self.tensor(op.operand(1).map_err(|e| e.to_string())?)?;
                let c = self.tensor(op.operand(2).map_err(|e| e.to_string())?)?;
                let derived = ascendc_params::mmad(
                    &c.operand(),
                    &a.operand(),
                    &b.operand(),
                    a.elem,
                    c.elem,
                    self.target,
                    accumulate,
                )
                .map_err(param_error)?;
                build::emit(self.context, op, &derived, &c, &[&a, &b], self.target, &[])
            }
        }
    }

    fn derive_copy(&self, src: &Tensor, dst: &Tensor) -> Result<ascendc_params::Derived<SymExpr>, String> {
        use MemorySpace as S;
        let t = self.target;
        let r = match (src.space, dst.space) {
            (S::Gm, S::L1) => {
                // Flat (ND/DN) GM source → ND2NZ; a fractal GM source → plain NZ copy.
                if src.layout.shape().leaves().len() == 2 {
                    ascendc_params::gm_nd_to_l1_nz(&src.operand(), &dst.operand(), src.elem, t)
                } else {
                    ascendc_params::copy_nz_to_nz(&src.operand(), &dst.operand(), Buffer::Gm, Buffer::L1, src.elem)
                }
            }
            (S::L1, S::L0a) => ascendc_params::l1_to_l0a(&src.operand(), &dst.operand(), src.elem, t),
            (S::L1, S::L0b) => ascendc_params::l1_to_l0b(&src.operand(), &dst.operand(), src.elem, t),
            (S::L0c, S::Gm) => {
                // Flat (ND) GM destination → NZ2ND (CFG_ROW_MAJOR); a fractal one → NZ2NZ (CFG_NZ).
                if dst.layout.shape().leaves().len() == 2 {
                    ascendc_params::l0c_to_gm_nd(&src.operand(), &dst.operand(), src.elem, dst.elem, t)
                } else {
                    ascendc_params::l0c_to_gm_nz(&src.operand(), &dst.operand(), src.elem, dst.elem, t)
                }
            }
            (S::L1, S::Gm) => {
                ascendc_params::copy_nz_to_nz(&src.operand(), &dst.operand(), Buffer::L1, Buffer::Gm, src.elem)
            }
            (a, b) => return Err(format!("no AscendC intrinsic moves {} → {} here", a.name(), b.name())),
        };
        r.map_err(param_error)
    }
}

/// The `func.func` ops under `root` (or `root` itself).
fn functions<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
    let mut out = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        if op_name(&op) == "func.func" {
            // Safety: the op outlives the caller's use.
            out.push(unsafe { OperationRef::from_raw(op.to_raw()) });
        }
        WalkResult::Advance
    });
    out
}

/// The program tree of a block: items for [`sync::synchronize`] and the ops they stand for.
struct Tree {
    items: Vec<sync::Item>,
    ops: Vec<(mlir_sys::MlirOperation, Option<Tree>)>,
}

/// Pipe and accesses of an intrinsic call (resources: ids of buffer values).
fn access(intrinsic: Intrinsic, buffers: &[Value], params: Attribute, ids: &mut HashMap<usize, u32>) -> sync::Access {
    let mut id = |v: Value| -> u32 {
        let n = ids.len() as u32;
        *ids.entry(key(v)).or_insert(n)
    };
    let ids: Vec<u32> = buffers.iter().map(|v| id(*v)).collect();
    let (dst, src) = (ids[0], ids[1]);
    let short = intrinsic.name().trim_start_matches("ascendc.").to_string();
    use Intrinsic as I;
    let (pipe, reads, writes) = match intrinsic {
        I::DataCopyNd2Nz => (sync::Pipe::Mte2, vec![src], vec![dst]),
        I::DataCopy => {
            let to_gm = buffers[0].r#type().to_string().starts_with("!ascendc.global");
            (if to_gm { sync::Pipe::Mte3 } else { sync::Pipe::Mte2 }, vec![src], vec![dst])
        }
        I::LoadData2D | I::LoadData2DV2 | I::LoadDataWithTranspose => (sync::Pipe::Mte1, vec![src], vec![dst]),
        I::Mmad => {
            let accumulate = params.to_string().contains("cmatrixInitVal = false");
            let mut reads = vec![src, ids[2]];
            if accumulate {
                reads.push(dst);
            }
            (sync::Pipe::M, reads, vec![dst])
        }
        I::Fixpipe | I::FixpipeNz => (sync::Pipe::Fix, vec![src], vec![dst]),
    };
    sync::Access { pipe, reads, writes, label: short }
}

fn tree(block: melior::ir::BlockRef, ids: &mut HashMap<usize, u32>) -> Tree {
    let mut t = Tree { items: Vec::new(), ops: Vec::new() };
    let mut next = block.first_operation();
    while let Some(op) = next {
        if let Some(Ok(AscendcOp::Call { intrinsic, buffers, params, .. })) = AscendcOp::decode(op) {
            t.items.push(sync::Item::Op(access(intrinsic, &buffers, params, ids)));
            t.ops.push((op.to_raw(), None));
        } else if op_name(&op) == "scf.for" {
            if let Some(body) = op.region(0).ok().and_then(|r| r.first_block()) {
                let inner = tree(body, ids);
                if !inner.items.is_empty() {
                    t.items.push(sync::Item::Loop(inner.items.clone()));
                    t.ops.push((op.to_raw(), Some(inner)));
                }
            }
        }
        next = op.next_in_block();
    }
    t
}

fn func_tree<'c, 'a>(func: OperationRef<'c, 'a>) -> Option<(Tree, melior::ir::BlockRef<'c, 'a>)> {
    let body = func.region(0).ok()?.first_block()?;
    let mut ids = HashMap::new();
    Some((tree(body, &mut ids), body))
}

/// DOT of the sync graph of every function with ascendc ops.
pub fn sync_graphs(root: OperationRef) -> Vec<String> {
    let mut out = Vec::new();
    for func in functions(root) {
        if let Some((t, _)) = func_tree(func) {
            if t.items.is_empty() {
                continue;
            }
            if let Ok(s) = sync::synchronize(&t.items) {
                let name = func.attribute("sym_name").map(|a| a.to_string()).unwrap_or_default();
                out.push(s.dot.replacen("digraph sync", &format!("// sync graph of {name}\ndigraph sync"), 1));
            }
        }
    }
    out
}

fn op_at(t: &Tree, path: &[usize]) -> Option<mlir_sys::MlirOperation> {
    let (first, rest) = path.split_first()?;
    let (op, inner) = t.ops.get(*first)?;
    if rest.is_empty() {
        Some(*op)
    } else {
        op_at(inner.as_ref()?, rest)
    }
}

/// Inserts the flags of [`sync::synchronize`] into `func` and a `PipeBarrier<PIPE_ALL>` before
/// its return.
pub fn apply_sync(context: &Context, func: OperationRef) -> Result<(), String> {
    let Some((t, body)) = func_tree(func) else { return Ok(()) };
    if t.items.is_empty() {
        return Ok(());
    }
    let s = sync::synchronize(&t.items)?;
    let location = func.location();
    let make = |name: &str, attrs: &[(&str, String)]| -> Result<melior::ir::Operation, String> {
        let mut list = Vec::new();
        for (k, v) in attrs {
            list.push((Identifier::new(context, k), Attribute::parse(context, v).ok_or("attribute")?));
        }
        OperationBuilder::new(name, location).add_attributes(&list).build().map_err(|e| e.to_string())
    };
    let flag_op = |f: &sync::Flag| {
        make(
            if f.set { "ascendc.set_flag" } else { "ascendc.wait_flag" },
            &[("event", format!("\"{}\"", f.event())), ("id", format!("{} : i64", f.id))],
        )
    };
    // Before: insert in order; After: in reverse so the listed order is kept.
    for f in s.flags.iter().filter(|f| matches!(f.at, sync::At::Before(_))) {
        let sync::At::Before(path) = &f.at else { continue };
        let raw = op_at(&t, path).ok_or("sync: bad path")?;
        // Safety: the op is alive and in a block.
        let anchor = unsafe { OperationRef::from_raw(raw) };
        let block = anchor.block().ok_or("sync: op outside a block")?;
        block.insert_operation_before(anchor, flag_op(f)?);
    }
    for f in s.flags.iter().rev().filter(|f| matches!(f.at, sync::At::After(_))) {
        let sync::At::After(path) = &f.at else { continue };
        let raw = op_at(&t, path).ok_or("sync: bad path")?;
        // Safety: as above.
        let anchor = unsafe { OperationRef::from_raw(raw) };
        let block = anchor.block().ok_or("sync: op outside a block")?;
        block.insert_operation_after(anchor, flag_op(f)?);
    }
    if let Some(ret) = body.terminator() {
        body.insert_operation_before(ret, make("ascendc.pipe_barrier", &[("pipe", "\"PIPE_ALL\"".into())])?);
    }
    Ok(())
}
