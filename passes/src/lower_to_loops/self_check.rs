//! The self-check side functions ("verified lowering"): for every tensor value, a function that
//! writes the *lowered* address of every coordinate of its padded domain into an `i64` memref,
//! using the same address code as the ops ([`super::Tensor::address`] + `IndexEmitter`).
//! `layout_runtime::self_check` JITs them and compares each entry with the algebra's `i64`
//! `crd_to_offset` on the concrete layout.

use std::collections::{BTreeSet, HashMap};

use layout_algebra::{Layout, SymExpr};
use melior::{
    dialect::{arith, func, scf},
    ir::{
        attribute::{StringAttribute, TypeAttribute},
        block::BlockLike,
        operation::OperationLike,
        r#type::{FunctionType, MemRefType},
        Attribute, Block, Identifier, OperationRef, Region, RegionLike, Type, Value,
    },
};
use mlir_sys::MlirValue;

use super::{build, Lowerer, Tensor};
use crate::error::LoweringError;
use crate::ir::{constant_int, op_name};

/// Prefix of the side functions' names.
pub const SIDE_FUNCTION_PREFIX: &str = "__layout_selfcheck_";

/// What a symbol of a layout stands for: decides which values the self-check tries.
#[derive(Clone, Debug, PartialEq)]
pub enum SymOrigin {
    /// Argument `index` of `@function` (the caller supplies the value, e.g. `--arg`).
    Arg { function: String, index: usize },
    /// The induction variable of an `scf.for` with constant bounds: every value it takes.
    Loop { lo: i64, hi: i64, step: i64 },
    /// Any other value used as a tile coordinate: the multiples of the tile extent below the
    /// parent's extent (when that is known).
    TileCoord { extent: i64, parent_extent: SymExpr },
    /// Something else: tensors that depend on it are not checked.
    Other,
}

/// One side function and what it must hold.
#[derive(Clone, Debug)]
pub struct CheckSpec {
    /// The tensor (`layout.tile !layout.tensor<...> at loc(...)`).
    pub tensor: String,
    /// The function it lives in.
    pub function: String,
    /// The side function (`@__layout_selfcheck_N`).
    pub side_function: String,
    /// Its `index` parameters after `%out`, in order, with what they stand for.
    pub params: Vec<(String, SymOrigin)>,
    /// The tensor's layout and global coordinate, in terms of the parameters.
    pub layout: Layout<SymExpr>,
    pub coord: Vec<SymExpr>,
    /// The domain: padded extent per origin leaf (= the dims of `%out`).
    pub extents: Vec<SymExpr>,
}

/// What an SSA value is, for [`SymOrigin`].
pub(crate) fn classify(value: MlirValue) -> SymOrigin {
    // Safety: queries on a valid value.
    unsafe {
        if !mlir_sys::mlirValueIsABlockArgument(value) {
            return SymOrigin::Other;
        }
        let block = mlir_sys::mlirBlockArgumentGetOwner(value);
        let index = mlir_sys::mlirBlockArgumentGetArgNumber(value) as usize;
        let parent = OperationRef::from_raw(mlir_sys::mlirBlockGetParentOperation(block));
        match op_name(&parent).as_str() {
            "func.func" => {
                let first = mlir_sys::mlirRegionGetFirstBlock(mlir_sys::mlirOperationGetRegion(parent.to_raw(), 0));
                if first.ptr != block.ptr {
                    return SymOrigin::Other;
                }
                let function = parent
                    .attribute("sym_name")
                    .ok()
                    .and_then(|a| StringAttribute::try_from(a).ok())
                    .map(|s| s.value().to_string())
                    .unwrap_or_default();
                SymOrigin::Arg { function, index }
            }
            "scf.for" if index == 0 => {
                let bound = |i: usize| parent.operand(i).ok().and_then(|v| constant_int(v));
                match (bound(0), bound(1), bound(2)) {
                    (Some(lo), Some(hi), Some(step)) if step > 0 => SymOrigin::Loop { lo, hi, step },
                    _ => SymOrigin::Other,
                }
            }
            _ => SymOrigin::Other,
        }
    }
}

impl Lowerer<'_> {
    /// Records that `symbol` is a tile coordinate (unless it is already known better).
    pub(crate) fn note_tile_coordinate(&mut self, symbol: &str, extent: i64, parent_extent: &SymExpr) {
        if let Some(origin @ SymOrigin::Other) = self.origins.get_mut(symbol) {
            *origin = SymOrigin::TileCoord { extent, parent_extent: parent_extent.clone() };
        }
    }
}

/// Appends one side function per checkable tensor to the module `root`.
pub(crate) fn emit_side_functions(l: &mut Lowerer, root: OperationRef) -> Result<(), LoweringError> {
    let region = root.region(0).map_err(|_| LoweringError::IrShape("the self-check needs a module".into()))?;
    let block =
        region.first_block().ok_or(LoweringError::IrShape("the self-check needs a module with a body".into()))?;
    let module_end = build::Point::end(block.to_raw());
    let candidates = std::mem::take(&mut l.candidates);
    for (tensor, function) in candidates {
        if let Some(spec) = side_function(l, &tensor, &function, module_end)? {
            l.checks.push(spec);
        }
    }
    Ok(())
}

/// Gives the address code the same range facts about parameter `symbol` as the kernel's code
/// has (so `layout-simplify-offsets` may rewrite it the same way and the check covers the
/// rewrite): a loop parameter becomes the induction variable of `scf.for %p = lo to hi step
/// step` and a tile coordinate that of `scf.for %p = 0 to parent_extent step extent`, with the
/// rest of the function under `scf.if %p == %arg` — it runs once, for the value the caller
/// gives (every value the self-check tries is one the loop takes). Returns the insertion point
/// inside the `scf.if`; `env` binds `symbol` to `%p`. Arguments are left as they are.
fn with_facts(
    context: &melior::Context,
    location: melior::ir::Location,
    point: build::Point,
    env: &mut build::Env,
    symbol: &str,
    origin: &SymOrigin,
    arg: MlirValue,
) -> Result<build::Point, LoweringError> {
    let (lo, hi, step) = match origin {
        SymOrigin::Loop { lo, hi, step } => (SymExpr::Const(*lo), SymExpr::Const(*hi), SymExpr::Const(*step)),
        SymOrigin::TileCoord { extent, parent_extent } => {
            (SymExpr::Const(0), parent_extent.clone(), SymExpr::Const(*extent))
        }
        SymOrigin::Arg { .. } | SymOrigin::Other => return Ok(point),
    };
    let bounds = build::emit_exprs(context, location, point, env, &[lo, hi, step])?;
    let (block, p) = build::for_op(context, location, point, bounds[0], bounds[1], bounds[2], &[])?;
    // Safety: `for_op` without iter values ends the body with its `scf.yield`.
    let inside = build::Point::before(&unsafe { OperationRef::from_raw(mlir_sys::mlirBlockGetTerminator(block)) });
    let equal =
        inside.value(arith::cmpi(context, arith::CmpiPredicate::Eq, build::val(p), build::val(arg), location))?;
    let then = Block::new(&[]);
    let yield_op = then.append_operation(scf::r#yield(&[], location));
    let then_region = Region::new();
    then_region.append_block(then);
    inside.insert(scf::r#if(build::val(equal), &[], then_region, Region::new(), location));
    env.insert(symbol.to_string(), p);
    Ok(build::Point::before(&yield_op))
}

fn side_function(
    l: &mut Lowerer,
    tensor: &Tensor,
    function: &str,
    at: build::Point,
) -> Result<Option<CheckSpec>, LoweringError> {
    let extents = tensor.padded_extents()?;
    let mut symbols = BTreeSet::new();
    let leaves =
        [tensor.layout.shape(), tensor.layout.stride(), tensor.layout.origin()].into_iter().flat_map(|t| t.leaves());
    for e in leaves.chain(tensor.coord.iter().cloned()).chain(extents.iter().cloned()) {
        symbols.extend(e.symbols());
    }
    let mut params = Vec::new();
    for s in symbols {
        let origin = l.origins.get(&s).cloned().unwrap_or(SymOrigin::Other);
        if origin == SymOrigin::Other {
            l.unchecked.push(format!("{}: depends on a value that is neither a function argument, a constant-bound loop variable nor a tile coordinate", tensor.name));
            return Ok(None);
        }
        params.push((s, origin));
    }
    // Tile coordinates last: their ranges may depend on the other parameters.
    params.sort_by_key(|(_, o)| matches!(o, SymOrigin::TileCoord { .. }));
    let context = l.context;
    let location = melior::ir::Location::unknown(context);
    let index = Type::index(context);
    let dynamic = unsafe { mlir_sys::mlirShapedTypeGetDynamicSize() };
    let out_type: Type = MemRefType::new(
        Type::from(melior::ir::r#type::IntegerType::new(context, 64)),
        &vec![dynamic; extents.len()],
        None,
        None,
    )
    .into();
    let mut arg_types = vec![out_type];
    arg_types.extend(params.iter().map(|_| index));
    let body = Block::new(&arg_types.iter().map(|t| (*t, location)).collect::<Vec<_>>());
    let raw_body = body.to_raw();
    let mut env: build::Env = HashMap::new();
    for (k, (s, _)) in params.iter().enumerate() {
        env.insert(s.clone(), build::block_arg(raw_body, k + 1));
    }
    let mut point = build::Point::end(raw_body);
    // Size parameters are clamped as in the kernel (same facts, same code).
    for (s, _) in &params {
        if l.clamped.contains(s) {
            let Some(&raw) = env.get(s) else { continue };
            let zero = build::index_constant(context, location, point, 0)?;
            let clamped = point.value(arith::maxsi(build::val(raw), build::val(zero), location))?;
            env.insert(s.clone(), clamped);
        }
    }
    for (k, (s, origin)) in params.iter().enumerate() {
        point = with_facts(context, location, point, &mut env, s, origin, build::block_arg(raw_body, k + 1))?;
    }
    let ranges: Vec<(SymExpr, SymExpr)> = extents.iter().map(|e| (SymExpr::Const(0), e.clone())).collect();
    let nest = build::loop_nest(context, location, point, &mut env, &ranges, "x")?;
    let address = tensor.address(&nest.ivs)?;
    let mut exprs = nest.ivs.clone();
    exprs.push(address);
    let values = build::emit_exprs(context, location, nest.body, &env, &exprs)?;
    let (ivs, address) = values.split_at(values.len() - 1);
    let i64_type: Type = melior::ir::r#type::IntegerType::new(context, 64).into();
    let wide = nest.body.value(arith::index_cast(build::val(address[0]), i64_type, location))?;
    build::store(nest.body, location, wide, build::block_arg(raw_body, 0), ivs);
    body.append_operation(func::r#return(&[] as &[Value], location));
    let region = Region::new();
    region.append_block(body);
    let name = format!("{SIDE_FUNCTION_PREFIX}{}", l.fresh());
    let op = func::func(
        context,
        StringAttribute::new(context, &name),
        TypeAttribute::new(FunctionType::new(context, &arg_types, &[]).into()),
        region,
        &[(Identifier::new(context, "llvm.emit_c_interface"), Attribute::unit(context))],
        location,
    );
    at.insert(op);
    Ok(Some(CheckSpec {
        tensor: tensor.name.clone(),
        function: function.to_string(),
        side_function: name,
        params,
        layout: tensor.layout.clone(),
        coord: tensor.coord.clone(),
        extents,
    }))
}
