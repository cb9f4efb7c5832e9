//! Small IR-building helpers of the lowering: insertion points, `scf.for` nests, index
//! expressions through [`IndexEmitter`] (under the facts the IR proves of their symbols),
//! element constants. No layout formula lives here: the
//! expressions come from the layout algebra.

use std::collections::HashMap;

use index_simplify::{from_sym_exprs, Facts};
use layout_algebra::{sym::BinOp, IndexValue, Layout, SymExpr, Tuple};
use melior::{
    dialect::{arith, memref, scf},
    ir::{
        attribute::IntegerAttribute,
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        Attribute, Block, Location, Operation, OperationRef, Region, RegionLike, Type, Value, ValueLike,
    },
    Context,
};
use mlir_sys::{MlirBlock, MlirOperation, MlirValue};

use crate::error::LoweringError;
use crate::index_arith::IndexEmitter;
use crate::simplify_offsets::{facts::value_fact, reader::Reader};

/// Where new ops go: before `before` in `block`, or at the end of `block` when `before` is null.
#[derive(Clone, Copy)]
pub(crate) struct Point {
    block: MlirBlock,
    before: MlirOperation,
}

impl Point {
    /// Just before `op`.
    pub fn before(op: &OperationRef) -> Point {
        // Safety: a valid op in a block.
        let block = unsafe { mlir_sys::mlirOperationGetBlock(op.to_raw()) };
        Point { block, before: op.to_raw() }
    }

    /// Right after the definition of `value`: at the start of its block for a block argument,
    /// after its defining op otherwise (so what is inserted there dominates every use of it).
    pub fn after_definition(value: MlirValue) -> Result<Point, LoweringError> {
        // Safety: queries on a valid value, its owner block and defining op.
        unsafe {
            if mlir_sys::mlirValueIsABlockArgument(value) {
                let block = mlir_sys::mlirBlockArgumentGetOwner(value);
                let first = mlir_sys::mlirBlockGetFirstOperation(block);
                return Ok(Point { block, before: first });
            }
            let op = mlir_sys::mlirOpResultGetOwner(value);
            let block = mlir_sys::mlirOperationGetBlock(op);
            if op.ptr.is_null() || block.ptr.is_null() {
                return Err(LoweringError::Internal("a size value without a defining op in a block".into()));
            }
            Ok(Point { block, before: mlir_sys::mlirOperationGetNextInBlock(op) })
        }
    }

    /// The block ops are inserted into.
    pub fn block(&self) -> MlirBlock {
        self.block
    }

    /// At the end of `block`.
    pub fn end(block: MlirBlock) -> Point {
        Point { block, before: MlirOperation { ptr: std::ptr::null_mut() } }
    }

    /// Inserts `op` (ownership goes to the block) and returns it.
    pub fn insert<'c, 'a>(&self, op: Operation<'c>) -> OperationRef<'c, 'a> {
        let raw = op.into_raw();
        // Safety: valid block (and anchor op in it); the op is owned and not yet inserted.
        unsafe {
            if self.before.ptr.is_null() {
                mlir_sys::mlirBlockAppendOwnedOperation(self.block, raw);
            } else {
                mlir_sys::mlirBlockInsertOwnedOperationBefore(self.block, self.before, raw);
            }
            OperationRef::from_raw(raw)
        }
    }

    /// Inserts `op` and returns its first result.
    pub fn value<'c>(&self, op: Operation<'c>) -> Result<MlirValue, LoweringError> {
        let op = self.insert(op);
        op.result(0).map(|r| r.to_raw()).map_err(|e| LoweringError::IrShape(format!("emitted op has no result: {e}")))
    }
}

/// A value from its raw handle (values live as long as the module; lifetimes are not tracked
/// across the rewrite).
pub(crate) fn val<'c, 'a>(raw: MlirValue) -> Value<'c, 'a> {
    // Safety: every raw value handled here comes from the module being rewritten.
    unsafe { Value::from_raw(raw) }
}

/// Symbol → SSA value of an `index` (or block argument) it stands for.
pub(crate) type Env = HashMap<String, MlirValue>;

/// Emits `exprs` at `point` with one [`IndexEmitter`] (shared CSE), binding their symbols
/// from `env`. The emitter gets the facts the IR proves of the bound values (what
/// `layout-simplify-offsets` reads: loop ranges and steps, the `maxsi(size, 0)` clamps), so a
/// division of a coordinate the loops prove non-negative is a shift or an unsigned division
/// from the start, and one they do not is a floor division.
pub(crate) fn emit_exprs(
    context: &Context,
    location: Location,
    point: Point,
    env: &Env,
    exprs: &[SymExpr],
) -> Result<Vec<MlirValue>, LoweringError> {
    let mut reader = Reader::new();
    let mut facts = Facts::new();
    let mut binds = HashMap::new();
    for expr in exprs {
        for symbol in expr.symbols() {
            if binds.contains_key(&symbol) {
                continue;
            }
            let value = env
                .get(&symbol)
                .ok_or_else(|| LoweringError::Internal(format!("symbol `{symbol}` of {expr} is not bound")))?;
            if let Some(fact) = value_fact(&mut reader, val(*value)) {
                facts.set(&symbol, fact);
            }
            binds.insert(symbol, *value);
        }
    }
    let mut emitter = IndexEmitter::new(context, location, facts, move |op| point.insert(op));
    for (symbol, value) in binds {
        emitter.bind(&symbol, val(value));
    }
    from_sym_exprs(exprs).iter().map(|e| emitter.emit(e).map(|v| v.to_raw()).map_err(LoweringError::from)).collect()
}

/// A loop nest `for iv_k in [lo_k, hi_k)` (step 1); bounds are emitted at `point`, each
/// induction variable is bound in `env` to a fresh symbol `{prefix}{k}`.
pub(crate) struct Nest {
    /// Insertion point in the innermost body (before its `scf.yield`).
    pub body: Point,
    /// The induction variables as symbols.
    pub ivs: Vec<SymExpr>,
}

pub(crate) fn loop_nest(
    context: &Context,
    location: Location,
    point: Point,
    env: &mut Env,
    ranges: &[(SymExpr, SymExpr)],
    prefix: &str,
) -> Result<Nest, LoweringError> {
    let bounds: Vec<SymExpr> =
        ranges.iter().flat_map(|(lo, hi)| [lo.clone(), hi.clone()]).chain([SymExpr::Const(1)]).collect();
    let values = emit_exprs(context, location, point, env, &bounds)?;
    let step = values[values.len() - 1];
    let mut body = point;
    let mut ivs = Vec::new();
    for (k, _) in ranges.iter().enumerate() {
        let (block, iv) = for_op(context, location, body, values[2 * k], values[2 * k + 1], step, &[])?;
        // The body ends with an empty scf.yield; insert before it.
        let terminator = unsafe { mlir_sys::mlirBlockGetTerminator(block) };
        body = Point { block, before: terminator };
        let name = format!("{prefix}{k}");
        env.insert(name.clone(), iv);
        ivs.push(SymExpr::sym(&name));
    }
    Ok(Nest { body, ivs })
}

/// Inserts `scf.for %iv = lo to hi step step` at `point`. Without `iter` (init values) the body
/// gets an empty `scf.yield`; with them the body is left open (the caller appends the yield)
/// and the block arguments are (iv, iter...). Returns the body block and the iv.
pub(crate) fn for_op(
    context: &Context,
    location: Location,
    point: Point,
    lo: MlirValue,
    hi: MlirValue,
    step: MlirValue,
    iter: &[MlirValue],
) -> Result<(MlirBlock, MlirValue), LoweringError> {
    let index = Type::index(context);
    let mut args = vec![(index, location)];
    let iter_types: Vec<Type> = iter.iter().map(|v| val(*v).r#type()).collect();
    args.extend(iter_types.iter().map(|t| (*t, location)));
    let block = Block::new(&args);
    let raw_block = block.to_raw();
    let iv = block.argument(0).map_err(|e| LoweringError::IrShape(e.to_string()))?.to_raw();
    if iter.is_empty() {
        block.append_operation(scf::r#yield(&[], location));
    }
    let region = Region::new();
    region.append_block(block);
    let op = if iter.is_empty() {
        scf::r#for(val(lo), val(hi), val(step), region, location)
    } else {
        let operands: Vec<Value> = [lo, hi, step].iter().chain(iter).map(|v| val(*v)).collect();
        OperationBuilder::new("scf.for", location)
            .add_operands(&operands)
            .add_results(&iter_types)
            .add_regions([region])
            .build()
            .map_err(|e| LoweringError::IrShape(format!("cannot build scf.for: {e}")))?
    };
    point.insert(op);
    Ok((raw_block, iv))
}

/// Inserts `scf.if %condition { }` (no results, no else) at `point`; returns the point before
/// the `scf.yield` of its then-block.
pub(crate) fn if_then(location: Location, point: Point, condition: MlirValue) -> Point {
    let then = Block::new(&[]);
    let terminator = then.append_operation(scf::r#yield(&[], location)).to_raw();
    let block = then.to_raw();
    let region = Region::new();
    region.append_block(then);
    point.insert(scf::r#if(val(condition), &[], region, Region::new(), location));
    Point { block, before: terminator }
}

/// The `i`-th argument of a block.
pub(crate) fn block_arg(block: MlirBlock, i: usize) -> MlirValue {
    // Safety: callers ask for existing arguments.
    unsafe { mlir_sys::mlirBlockGetArgument(block, i as isize) }
}

/// The result of the op that owns `block` (an `scf.for` with iter_args).
pub(crate) fn parent_result(block: MlirBlock, i: usize) -> MlirValue {
    // Safety: the block belongs to an op with results.
    unsafe { mlir_sys::mlirOperationGetResult(mlir_sys::mlirBlockGetParentOperation(block), i as isize) }
}

/// `memref.load %buffer[%index]` at `point`.
pub(crate) fn load(
    point: Point,
    location: Location,
    buffer: MlirValue,
    index: MlirValue,
) -> Result<MlirValue, LoweringError> {
    point.value(memref::load(val(buffer), &[val(index)], location))
}

/// `memref.store %value, %buffer[%index]` at `point`.
pub(crate) fn store<'c, 'a>(
    point: Point,
    location: Location<'c>,
    value: MlirValue,
    buffer: MlirValue,
    index: &[MlirValue],
) -> OperationRef<'c, 'a> {
    let index: Vec<Value> = index.iter().map(|v| val(*v)).collect();
    point.insert(memref::store(val(value), val(buffer), &index, location))
}

/// The op that defines `value` (a result of a just-built op such as [`load`]).
pub(crate) fn defining_op<'c, 'a>(value: MlirValue) -> OperationRef<'c, 'a> {
    // Safety: `value` is an op result.
    unsafe { OperationRef::from_raw(mlir_sys::mlirOpResultGetOwner(value)) }
}

/// An `arith.constant` from attribute text (`0.0 : f16`, `-128 : i8`).
pub(crate) fn constant_text(
    context: &Context,
    location: Location,
    point: Point,
    text: &str,
) -> Result<MlirValue, LoweringError> {
    let attr =
        Attribute::parse(context, text).ok_or_else(|| LoweringError::Internal(format!("bad constant `{text}`")))?;
    point.value(arith::constant(context, attr, location))
}

/// An `index`-typed constant outside an emitter (rarely needed).
pub(crate) fn index_constant(
    context: &Context,
    location: Location,
    point: Point,
    v: i64,
) -> Result<MlirValue, LoweringError> {
    point.value(arith::constant(context, IntegerAttribute::new(Type::index(context), v).into(), location))
}

/// `e` with symbols replaced (constants fold through [`SymExpr::bin`]).
pub(crate) fn substitute(e: &SymExpr, map: &HashMap<String, SymExpr>) -> Result<SymExpr, LoweringError> {
    Ok(match e {
        SymExpr::Const(_) => e.clone(),
        SymExpr::Sym(name) => map.get(name.as_ref()).cloned().unwrap_or_else(|| e.clone()),
        SymExpr::Bin(op, a, b) => SymExpr::bin(*op, &substitute(a, map)?, &substitute(b, map)?)?,
    })
}

pub(crate) fn substitute_tuple(
    t: &Tuple<SymExpr>,
    map: &HashMap<String, SymExpr>,
) -> Result<Tuple<SymExpr>, LoweringError> {
    t.map(&mut |e: &SymExpr| substitute(e, map))
}

pub(crate) fn substitute_layout(
    l: &Layout<SymExpr>,
    map: &HashMap<String, SymExpr>,
) -> Result<Layout<SymExpr>, LoweringError> {
    Layout::with_origin(
        substitute_tuple(l.shape(), map)?,
        substitute_tuple(l.stride(), map)?,
        substitute_tuple(l.origin(), map)?,
    )
    .map_err(LoweringError::from)
}

/// `a min b` in the symbolic domain (constants fold).
pub(crate) fn min(a: &SymExpr, b: &SymExpr) -> Result<SymExpr, LoweringError> {
    Ok(a.min(b)?)
}

/// `a + b` in the symbolic domain.
pub(crate) fn add(a: &SymExpr, b: &SymExpr) -> Result<SymExpr, LoweringError> {
    Ok(SymExpr::bin(BinOp::Add, a, b)?)
}
