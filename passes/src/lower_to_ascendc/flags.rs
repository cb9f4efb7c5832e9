//! The flags of a lowered function in the IR: its program tree (intrinsic calls, `scf.for`,
//! `scf.if`) read into [`sync::Item`]s, with every on-chip buffer standing for the byte ranges it
//! covers, and the `SetFlag`/`WaitFlag` pairs of [`sync::synchronize`] inserted at their paths.

use std::collections::HashMap;

use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationBuilder, OperationLike, WalkOrder, WalkResult},
        Attribute, Identifier, OperationRef, RegionLike, Value, ValueLike,
    },
    Context,
};

use layout_dialect::ascendc_ops::{AscendcOp, Intrinsic};

use super::{block_of, key, sync, AscendcError};
use crate::ir::op_name;

/// The `func.func` ops under `root` (or `root` itself).
pub(super) fn functions<'c, 'a>(root: OperationRef<'c, 'a>) -> Vec<OperationRef<'c, 'a>> {
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
    ops: Vec<(mlir_sys::MlirOperation, Nested)>,
}

/// The blocks under an op of a [`Tree`]: a loop's body, or the regions of an `scf.if`.
enum Nested {
    None,
    Loop(Tree),
    If(Vec<Tree>),
}

/// The resources of the buffers of one function, for [`sync::Access`]: each on-chip
/// `ascendc.alloc` stands for the *address ranges* it covers (buffers that share bytes after
/// placement conflict like one buffer), each GM tensor for itself.
struct Resources {
    /// On-chip buffers (keyed by value): their ids, one per elementary byte range.
    on_chip: HashMap<usize, Vec<u32>>,
    /// Other buffer values, numbered after the byte ranges.
    other: HashMap<usize, u32>,
    next: u32,
}

impl Resources {
    /// The byte ranges of every `ascendc.alloc` under `func`: per memory, the cuts at every
    /// buffer's start and end; a buffer covers the ranges between its own cuts.
    fn of(func: OperationRef) -> Self {
        let mut allocs: Vec<(usize, &'static str, i64, i64)> = Vec::new();
        func.walk(WalkOrder::PreOrder, |op| {
            if let Some(Ok(AscendcOp::Alloc { .. })) = AscendcOp::decode(op) {
                let int = |name: &str| {
                    op.attribute(name).ok().and_then(|a| melior::ir::attribute::IntegerAttribute::try_from(a).ok())
                };
                if let (Ok(r), Some(offset), Some(size)) = (op.result(0), int("offset"), int("size")) {
                    let v: Value = r.into();
                    allocs.push((key(v), memory_of(&v.r#type().to_string()), offset.value(), size.value()));
                }
            }
            WalkResult::Advance
        });
        let mut cuts: HashMap<&'static str, Vec<i64>> = HashMap::new();
        for &(_, memory, offset, size) in &allocs {
            let c = cuts.entry(memory).or_default();
            c.push(offset);
            c.push(offset.saturating_add(size));
        }
        let mut first: HashMap<&'static str, u32> = HashMap::new();
        let mut next = 0u32;
        for (memory, c) in cuts.iter_mut() {
            c.sort_unstable();
            c.dedup();
            first.insert(memory, next);
            next += c.len() as u32;
        }
        let mut on_chip = HashMap::new();
        for (k, memory, offset, size) in allocs {
            let c = &cuts[memory];
            let base = first[memory];
            let ids = (0..c.len().saturating_sub(1))
                .filter(|&i| c[i] >= offset && c[i + 1] <= offset.saturating_add(size))
                .map(|i| base + i as u32)
                .collect();
            on_chip.insert(k, ids);
        }
        Resources { on_chip, other: HashMap::new(), next }
    }

    fn ids(&mut self, v: Value) -> Vec<u32> {
        if let Some(ids) = self.on_chip.get(&key(v)) {
            return ids.clone();
        }
        let next = &mut self.next;
        vec![*self.other.entry(key(v)).or_insert_with(|| {
            *next += 1;
            *next - 1
        })]
    }
}

/// The memory of an `!ascendc.local<T, "POSITION">` type (GM for `!ascendc.global`).
fn memory_of(ty: &str) -> &'static str {
    match ty.rsplit('"').nth(1) {
        Some("A1" | "B1") => "L1",
        Some("A2") => "L0A",
        Some("B2") => "L0B",
        Some(_) => "L0C",
        None => "GM",
    }
}

/// Pipe and accesses of an intrinsic call.
fn access(
    intrinsic: Intrinsic,
    buffers: &[Value],
    params: Attribute,
    dyn_fields: Option<Attribute>,
    resources: &mut Resources,
) -> sync::Access {
    let ids: Vec<Vec<u32>> = buffers.iter().map(|v| resources.ids(*v)).collect();
    let (dst, src) = (ids[0].clone(), ids[1].clone());
    let short = intrinsic.name().trim_start_matches("ascendc.").to_string();
    use Intrinsic as I;
    let (pipe, reads, writes) = match intrinsic {
        I::DataCopyNd2Nz => (sync::Pipe::Mte2, src, dst),
        I::DataCopy => {
            let to_gm = buffers[0].r#type().to_string().starts_with("!ascendc.global");
            (if to_gm { sync::Pipe::Mte3 } else { sync::Pipe::Mte2 }, src, dst)
        }
        I::LoadData2D | I::LoadData2DV2 | I::LoadDataWithTranspose => (sync::Pipe::Mte1, src, dst),
        I::Mmad => {
            let accumulate = params.to_string().contains("cmatrixInitVal = false");
            let mut reads = [src, ids[2].clone()].concat();
            if accumulate {
                reads.extend(&dst);
            }
            (sync::Pipe::M, reads, dst)
        }
        I::FixpipeNz2Nd | I::FixpipeNz2Nz => (sync::Pipe::Fix, src, dst),
    };
    // The unitFlag handshake: a static unitFlag other than 0 (`UnitFlag::Off`), or a dynamic
    // one (the lowering computes it as 2 or 3, layout.matmul's operand).
    let unit_flag = matches!(intrinsic, I::Mmad | I::FixpipeNz2Nd | I::FixpipeNz2Nz)
        && (dyn_fields.is_some_and(|d| d.to_string().contains("\"unitFlag\""))
            || params.to_string().split(", ").any(|f| {
                f.trim_start_matches('{').trim().strip_prefix("unitFlag = ").is_some_and(|v| {
                    v.split([' ', '}']).next().and_then(|v| v.parse::<i64>().ok())
                        != Some(ascendc_params::decl::UnitFlag::Off.value())
                })
            }));
    sync::Access { pipe, reads, writes, label: short, unit_flag }
}

/// The program tree of `block`. An op with regions other than `scf.for` / `scf.if` that holds
/// intrinsic calls is an error at that op: the flags could not be placed on its paths.
fn tree<'c, 'a>(
    block: melior::ir::BlockRef<'c, 'a>,
    resources: &mut Resources,
) -> Result<Tree, (melior::ir::Location<'c>, AscendcError)> {
    let mut t = Tree { items: Vec::new(), ops: Vec::new() };
    let mut next = block.first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if let Some(Ok(AscendcOp::Call { intrinsic, buffers, params, .. })) = AscendcOp::decode(op) {
            let dyn_fields = op.attribute("dyn_fields").ok();
            t.items.push(sync::Item::Op(access(intrinsic, &buffers, params, dyn_fields, resources)));
            t.ops.push((op.to_raw(), Nested::None));
            continue;
        }
        let regions: Vec<Tree> = (0..op.region_count())
            .map(|r| match op.region(r).ok().and_then(|region| region.first_block()) {
                Some(body) => tree(body, resources),
                None => Ok(Tree { items: Vec::new(), ops: Vec::new() }),
            })
            .collect::<Result<_, _>>()?;
        if regions.iter().all(|r| r.items.is_empty()) {
            continue;
        }
        match op_name(&op).as_str() {
            "scf.for" => {
                let body = regions.into_iter().next().expect("a loop with items has a body");
                t.items.push(sync::Item::Loop(body.items.clone()));
                t.ops.push((op.to_raw(), Nested::Loop(body)));
            }
            "scf.if" => {
                t.items.push(sync::Item::If(regions.iter().map(|r| r.items.clone()).collect()));
                t.ops.push((op.to_raw(), Nested::If(regions)));
            }
            other => {
                return Err((
                    op.location(),
                    AscendcError::Unsupported(format!(
                        "ascendc intrinsics inside `{other}` are not synchronised (only scf.for and scf.if)"
                    )),
                ))
            }
        }
    }
    Ok(t)
}

type TreeOf<'c, 'a> = Option<(Tree, melior::ir::BlockRef<'c, 'a>)>;

fn func_tree<'c, 'a>(func: OperationRef<'c, 'a>) -> Result<TreeOf<'c, 'a>, (melior::ir::Location<'c>, AscendcError)> {
    let Some(body) = func.region(0).ok().and_then(|r| r.first_block()) else { return Ok(None) };
    let mut resources = Resources::of(func);
    Ok(Some((tree(body, &mut resources)?, body)))
}

/// The program tree [`sync::synchronize`] sees for `func` (its flags, if already inserted, are
/// not items): for tests that replay the schedule.
#[cfg(test)]
pub(super) fn program(func: OperationRef) -> Vec<sync::Item> {
    func_tree(func).ok().flatten().map(|(t, _)| t.items).unwrap_or_default()
}

/// DOT of the sync graph of every function with ascendc ops.
pub fn sync_graphs(root: OperationRef) -> Vec<String> {
    let mut out = Vec::new();
    for func in functions(root) {
        if let Ok(Some((t, _))) = func_tree(func) {
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
    let (op, nested) = t.ops.get(*first)?;
    match (rest, nested) {
        ([], _) => Some(*op),
        (_, Nested::Loop(body)) => op_at(body, rest),
        ([region, rest @ ..], Nested::If(regions)) => op_at(regions.get(*region)?, rest),
        _ => None,
    }
}

/// Inserts the flags of [`sync::synchronize`] into `func` and a `PipeBarrier<PIPE_ALL>` before
/// its return. Errors are at the op they concern (the function for the event ids).
pub fn apply_sync<'c>(
    context: &Context,
    func: OperationRef<'c, '_>,
) -> Result<(), (melior::ir::Location<'c>, AscendcError)> {
    let Some((t, body)) = func_tree(func)? else { return Ok(()) };
    if t.items.is_empty() {
        return Ok(());
    }
    let location = func.location();
    let at_func = |e: AscendcError| (location, e);
    let s = sync::synchronize(&t.items).map_err(|e| at_func(e.into()))?;
    let make = |name: &str, attrs: &[(&str, String)]| -> Result<melior::ir::Operation, AscendcError> {
        let mut list = Vec::new();
        for (k, v) in attrs {
            let attr = Attribute::parse(context, v).ok_or_else(|| AscendcError::internal(format!("attribute {v}")))?;
            list.push((Identifier::new(context, k), attr));
        }
        OperationBuilder::new(name, location).add_attributes(&list).build().map_err(AscendcError::internal)
    };
    let flag_op = |f: &sync::Flag| {
        make(
            if f.set { "ascendc.set_flag" } else { "ascendc.wait_flag" },
            &[("event", format!("\"{}\"", f.event())), ("id", format!("{} : i64", f.id))],
        )
    };
    let anchor = |path: &[usize]| -> Result<OperationRef, AscendcError> {
        let raw = op_at(&t, path).ok_or_else(|| AscendcError::internal(format!("sync: bad path {path:?}")))?;
        // Safety: the op is alive.
        Ok(unsafe { OperationRef::from_raw(raw) })
    };
    // Before: insert in order; After: in reverse so the listed order is kept.
    for f in s.flags.iter().filter(|f| matches!(f.at, sync::At::Before(_))) {
        let sync::At::Before(path) = &f.at else { continue };
        let op = anchor(path).map_err(at_func)?;
        block_of(op).map_err(at_func)?.insert_operation_before(op, flag_op(f).map_err(at_func)?);
    }
    for f in s.flags.iter().rev().filter(|f| matches!(f.at, sync::At::After(_))) {
        let sync::At::After(path) = &f.at else { continue };
        let op = anchor(path).map_err(at_func)?;
        block_of(op).map_err(at_func)?.insert_operation_after(op, flag_op(f).map_err(at_func)?);
    }
    if let Some(ret) = body.terminator() {
        let barrier = make("ascendc.pipe_barrier", &[("pipe", "\"PIPE_ALL\"".into())]).map_err(at_func)?;
        body.insert_operation_before(ret, barrier);
    }
    Ok(())
}
