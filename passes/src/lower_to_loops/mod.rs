//! `layout-lower-to-loops`: the CPU reference semantics of the layout ops, as upstream
//! `scf` / `memref` / `arith` (the full semantics: docs/layout-spec.md §D.5).
//!
//! Every `!layout.tensor` value becomes a 1-D buffer, its layout (`Layout<SymExpr>`) and the
//! global coordinate of its top-left corner (`buffers.rs`, `tile.rs`); on-chip allocs are filled
//! with poison (NaN, or the integer minimum). Copies and matmuls are loop nests over the valid
//! region (`copy.rs`, `matmul.rs`); every address is `crd_to_offset` evaluated by the algebra on
//! symbols and emitted by `crate::index_arith::IndexEmitter`: this module writes no address
//! formula of its own. Dynamic sizes are clamped to `>= 0` once (the fact the simplifier
//! reads), out-of-contract values are caught before they become addresses ([`guard`]), and the
//! input is verified with `layout-verify`'s rules first ([`Options::rules`];
//! `{host-copies=true}` relaxes two of them). [`Options::self_check`] adds one side function
//! per tensor for `layout_runtime::self_check` (`self_check.rs`). The block queries become
//! calls the JIT answers ([`block`]); `{sanitize=true}` adds initcheck and racecheck
//! ([`racecheck`]). After the pass no `layout` op or type remains.

pub mod block;
mod buffers;
mod build;
mod copy;
pub mod guard;
mod initcheck;
mod matmul;
mod offset;
pub mod racecheck;
pub mod self_check;
mod tile;
pub mod witness;

use std::collections::HashMap;

use layout_algebra::{
    ascend::{ElementType, FramePattern},
    Layout, SymExpr, Tuple,
};
use layout_dialect::{MemorySpace, TensorType};
use melior::{
    dialect::DialectHandle,
    ir::{
        block::BlockLike,
        operation::{OperationLike, WalkOrder, WalkResult},
        Location, OperationRef, RegionLike, Type, TypeLike, ValueLike,
    },
    pass::{ExternalPass, Pass},
    Context,
};
use mlir_sys::{MlirType, MlirValue};

use crate::{
    emit_error,
    error::{LocatedError, LoweringError},
    ir::op_name,
    verify::Rules,
};
use layout_dialect::{ops::LayoutOp, LayoutCache};
pub use self_check::{CheckSpec, SymOrigin};
pub use witness::AccessSpec;

use crate::external::{self, PassId};

pub const ARGUMENT: &str = "layout-lower-to-loops";
pub const DESCRIPTION: &str =
    "Lower verified layout ops to scf/memref/arith loops (CPU reference semantics; addresses from the layout algebra; {host-copies=true}: also on-chip views and host-side copies)";

static PASS_ID: PassId = PassId::new();

/// Creates the pass (no self-check side functions).
pub fn create() -> Pass {
    external::create(
        &PASS_ID,
        run,
        "LayoutLowerToLoops",
        ARGUMENT,
        DESCRIPTION,
        &[DialectHandle::arith(), DialectHandle::scf(), DialectHandle::memref(), DialectHandle::func()],
    )
}

fn run(root: OperationRef, pass: ExternalPass) {
    if lower(root, &Options::default()).is_err() {
        pass.signal_failure();
    }
}

/// The pass option that sets [`Options::host_copies`]: `layout-lower-to-loops{host-copies=true}`.
pub const HOST_COPIES_OPTION: &str = "host-copies";

static RELAXED_PASS_ID: PassId = PassId::new();

/// The pass option that sets [`Options::sanitize`]: `layout-lower-to-loops{sanitize=true}`.
pub const SANITIZE_OPTION: &str = "sanitize";

static SANITIZE_PASS_ID: PassId = PassId::new();

/// Creates the pass with pipeline options (`{host-copies=true}`, `{sanitize=true}`, both
/// separated by a space or comma; braces included or not).
pub fn create_with_options(text: &str) -> Result<Pass, LoweringError> {
    let text = text.trim().trim_start_matches('{').trim_end_matches('}').trim();
    let (mut host_copies, mut sanitize) = (false, false);
    for option in text.split([' ', ',']).filter(|o| !o.is_empty()) {
        let (key, value) = option.split_once('=').map_or((option, "true"), |(k, v)| (k.trim(), v.trim()));
        let slot = match key {
            HOST_COPIES_OPTION => &mut host_copies,
            SANITIZE_OPTION => &mut sanitize,
            k => {
                let message = format!(
                    "unknown option '{k}' (known: {HOST_COPIES_OPTION}=true|false, {SANITIZE_OPTION}=true|false)"
                );
                return Err(LoweringError::PassOption { pass: ARGUMENT, message });
            }
        };
        *slot = match value {
            "true" | "1" => true,
            "false" | "0" => false,
            v => {
                let message = format!("{key} must be true or false, got '{v}'");
                return Err(LoweringError::PassOption { pass: ARGUMENT, message });
            }
        };
    }
    let rules = Rules { host_copies, ..Rules::default() };
    Ok(match (host_copies, sanitize) {
        (_, true) => create_sanitizing(rules),
        (true, false) => create_with_rules(rules),
        (false, false) => create(),
    })
}

/// The pass with initcheck ([`Options::sanitize`]) and `rules`.
pub fn create_sanitizing(rules: Rules) -> Pass {
    external::create(
        &SANITIZE_PASS_ID,
        move |root: OperationRef, pass: ExternalPass| {
            if lower(root, &Options { rules, sanitize: true, ..Options::default() }).is_err() {
                pass.signal_failure();
            }
        },
        "LayoutLowerToLoopsSanitize",
        ARGUMENT,
        DESCRIPTION,
        &[DialectHandle::arith(), DialectHandle::scf(), DialectHandle::memref(), DialectHandle::func()],
    )
}

/// Creates the pass verifying its input with `rules` ([`Options::rules`]).
pub fn create_with_rules(rules: Rules) -> Pass {
    external::create(
        &RELAXED_PASS_ID,
        move |root: OperationRef, pass: ExternalPass| {
            if lower(root, &Options { rules, ..Options::default() }).is_err() {
                pass.signal_failure();
            }
        },
        "LayoutLowerToLoopsRelaxed",
        ARGUMENT,
        DESCRIPTION,
        &[DialectHandle::arith(), DialectHandle::scf(), DialectHandle::memref(), DialectHandle::func()],
    )
}

/// Options of [`lower`].
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Also emit the self-check side functions (root must be the module).
    pub self_check: bool,
    /// The `layout-verify` rules the input must pass (default: all). The relaxed ones
    /// ([`Rules::host_copies`], [`Rules::any_c0`]) are for host-side programs: the packer, and
    /// tests and the offset benchmark observing an on-chip buffer through a view.
    pub rules: Rules,
    /// initcheck ([`initcheck`], `{sanitize=true}`): a read of an on-chip element nothing
    /// wrote is reported through the guard hook, with the op, the buffer and the coordinate.
    pub sanitize: bool,
    /// Access witnesses ([`witness`]): every load and store of a copy or matmul tagged, with
    /// the values its address depends on passed to an opaque call (root must be the module;
    /// for `layout_runtime::address_proof`, not for running).
    pub witness_accesses: bool,
}

/// Why [`lower`] failed. Every error has also been emitted as a diagnostic at its op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LowerFailure {
    /// `layout-verify`'s checks rejected the input (their errors are diagnostics only).
    Unverified,
    /// Ops that could not be lowered, in program order (one error per cause: users of a failed
    /// op are skipped silently).
    Errors(Vec<LocatedError>),
}

/// What [`lower`] produced besides the rewrite.
#[derive(Debug, Default)]
pub struct Lowered {
    /// One entry per self-check side function (empty without [`Options::self_check`]).
    pub checks: Vec<CheckSpec>,
    /// Tensors the self-check could not cover, with the reason.
    pub unchecked: Vec<String>,
    /// One entry per witnessed access (empty without [`Options::witness_accesses`]).
    pub accesses: Vec<AccessSpec>,
}

/// Lowers every layout op under `root` after running `layout-verify`'s checks on it (the
/// [`Options::rules`]), so the CPU lowering accepts exactly what the verifier accepts. Errors
/// are emitted as located diagnostics and returned in the [`LowerFailure`].
pub fn lower(root: OperationRef, options: &Options) -> Result<Lowered, LowerFailure> {
    if !crate::verify::verify_with(root, options.rules) {
        return Err(LowerFailure::Unverified);
    }
    // `ContextRef::to_ref` borrows the ContextRef itself: keep it alive (not a temporary).
    let context_ref = root.context();
    // Safety: the context outlives the pass run.
    let context = unsafe { context_ref.to_ref() };
    let mut lowerer = Lowerer::new(context, options.self_check);
    lowerer.sanitize = options.sanitize;
    lowerer.witness_accesses = options.witness_accesses;
    // Verified: a module that uses the dialect has a well-formed target.
    lowerer.target = crate::verify::find_target(root).ok().flatten();
    let mut ops = Vec::new();
    root.walk(WalkOrder::PreOrder, |op| {
        ops.push(op.to_raw());
        WalkResult::Advance
    });
    let mut errors = Vec::new();
    let mut layout_ops = Vec::new();
    // Every operand and block argument of every other op is checked for a tensor type.
    for raw in ops {
        // Safety: ops are only erased after this loop (offset ops have their uses replaced
        // but stay until then).
        let op = unsafe { OperationRef::from_raw(raw) };
        let result = match LayoutOp::decode(op) {
            Some(decoded) => {
                layout_ops.push(raw);
                if lowerer.uses_failed(&op) {
                    // One error per cause: the op that failed has reported it; its users are
                    // skipped (and fail in turn, for their own users) without a second message.
                    lowerer.mark_failed(&op);
                    continue;
                }
                decoded
                    .map_err(|e| LoweringError::IrShape(e.to_string()))
                    .and_then(|decoded| lowerer.lower_op(&decoded))
            }
            None => check_foreign(&op, &op_name(&op), &mut lowerer.layouts),
        };
        if let Err(error) = result {
            emit_error(op.location(), &error.to_string());
            lowerer.mark_failed(&op);
            errors.push(LocatedError { location: guard::position(op.location()), error });
        }
    }
    if !errors.is_empty() {
        return Err(LowerFailure::Errors(errors));
    }
    for raw in layout_ops.into_iter().rev() {
        // Safety: every user of a layout op's results is a layout op later in program order
        // (checked by `check_foreign`), erased before it.
        unsafe { mlir_sys::mlirOperationDestroy(raw) };
    }
    let mut lowered = Lowered::default();
    if options.witness_accesses {
        if let Err(error) = witness::declare_witnesses(&mut lowerer, root) {
            emit_error(root.location(), &error.to_string());
            return Err(LowerFailure::Errors(vec![LocatedError { location: guard::position(root.location()), error }]));
        }
        lowered.accesses = std::mem::take(&mut lowerer.accesses);
    }
    if options.self_check {
        match self_check::emit_side_functions(&mut lowerer, root) {
            Ok(()) => {}
            Err(error) => {
                let error = LoweringError::SelfCheck(Box::new(error));
                emit_error(root.location(), &error.to_string());
                return Err(LowerFailure::Errors(vec![LocatedError {
                    location: guard::position(root.location()),
                    error,
                }]));
            }
        }
        lowered.checks = std::mem::take(&mut lowerer.checks);
        lowered.unchecked = std::mem::take(&mut lowerer.unchecked);
    }
    Ok(lowered)
}

/// Non-layout ops may not touch tensor values (they have no lowering).
fn check_foreign(op: &OperationRef, name: &str, types: &mut LayoutCache) -> Result<(), LoweringError> {
    for (i, operand) in op.operands().enumerate() {
        if types.tensor_type(operand.r#type()).is_some() {
            return Err(LoweringError::Contract(format!(
                "'{name}' uses a !layout.tensor value (operand #{i}); the CPU lowering supports tensor values only as operands of layout ops (not as function arguments or results, scf.for iter_args, yields or call arguments)"
            )));
        }
    }
    for r in 0..op.region_count() {
        let Ok(region) = op.region(r) else { continue };
        let mut block = region.first_block();
        while let Some(b) = block {
            for a in 0..b.argument_count() {
                if let Ok(arg) = b.argument(a) {
                    if types.tensor_type(arg.r#type()).is_some() {
                        return Err(LoweringError::Contract(format!(
                            "'{name}' has a block argument #{a} of !layout.tensor type; the CPU lowering supports tensor values only as results of layout.view/alloc/tile (pass memrefs and bind them with layout.view)"
                        )));
                    }
                }
            }
            block = b.next_in_region();
        }
    }
    Ok(())
}

/// A lowered `!layout.tensor` value.
#[derive(Clone, Debug)]
pub(crate) struct Tensor {
    /// The 1-D memref.
    pub buffer: MlirValue,
    pub elem: ElementType,
    pub elem_type: MlirType,
    pub space: MemorySpace,
    /// The frame pattern (and C0) of the buffer, if it is one.
    pub pattern: Option<(FramePattern, i64)>,
    /// Shape, stride, origin; symbols are bound in [`Lowerer::env`].
    pub layout: Layout<SymExpr>,
    /// Global coordinate of the top-left corner, one per origin leaf (zeros for view/alloc).
    pub coord: Vec<SymExpr>,
    /// Element offset of the layout's offset 0 in the buffer: the batch offset of one matrix
    /// of a batch form ([`Tensor::matrix`]), 0 otherwise.
    pub base: SymExpr,
    /// How errors and the self-check name it.
    pub name: String,
    /// The `i1` flag of its contract checks and its parent's (see [`guard`]); accesses through
    /// the tensor run only where it is true. None: nothing to check.
    pub valid: Option<MlirValue>,
}

impl Tensor {
    /// The valid extents (origin leaves).
    pub fn extents(&self) -> Vec<SymExpr> {
        self.layout.origin().leaves()
    }

    /// The address of local coordinate `local` (one per origin leaf): [`crate::tile::address`],
    /// `crd_to_offset(layout, coord + local)`.
    pub fn address(&self, local: &[SymExpr]) -> Result<SymExpr, LoweringError> {
        if local.len() != self.coord.len() {
            return Err(LoweringError::Internal(format!(
                "{} coordinates for {} (rank {})",
                local.len(),
                self.name,
                self.coord.len()
            )));
        }
        let offset = crate::tile::address(&self.layout, &self.coord, local, &self.name)?;
        build::add(&self.base, &offset)
    }

    /// The matrix a copy moves of this tensor ([`crate::tile::matrix_view`]): a batch form
    /// of batch extent 1 becomes its matrix at the batch offset; other tensors are unchanged.
    pub fn matrix(self) -> Result<Tensor, LoweringError> {
        let view = crate::tile::matrix_view(&self.layout, &self.coord)?;
        let base = build::add(&self.base, &view.offset)?;
        Ok(Tensor { layout: view.layout, coord: view.corner, base, ..self })
    }

    /// Per origin leaf, the padded extent of the shape it covers (the self-check domain).
    pub fn padded_extents(&self) -> Result<Vec<SymExpr>, LoweringError> {
        fn walk(origin: &Tuple<SymExpr>, shape: &Tuple<SymExpr>, out: &mut Vec<SymExpr>) -> Result<(), LoweringError> {
            match (origin, shape) {
                (Tuple::Int(_), s) => out.push(s.size()?),
                (Tuple::Tuple(os), Tuple::Tuple(ss)) if os.len() == ss.len() => {
                    for (o, s) in os.iter().zip(ss) {
                        walk(o, s, out)?;
                    }
                }
                _ => return Err(LoweringError::Contract(format!("origin {origin} does not fit shape {shape}"))),
            }
            Ok(())
        }
        let mut out = Vec::new();
        walk(self.layout.origin(), self.layout.shape(), &mut out)?;
        Ok(out)
    }
}

/// State of one run.
pub(crate) struct Lowerer<'c> {
    pub context: &'c Context,
    /// Symbol → SSA value.
    pub env: build::Env,
    /// Lowered tensors by the raw pointer of their `!layout.tensor` value.
    tensors: HashMap<usize, Tensor>,
    /// SSA value (raw pointer) → its symbol.
    value_symbols: HashMap<usize, SymExpr>,
    /// Results (raw pointers) of ops whose lowering failed or was skipped.
    failed: std::collections::HashSet<usize>,
    /// What each SSA symbol is (for choosing self-check values).
    pub origins: HashMap<String, SymOrigin>,
    /// Symbols of size leaves whose `env` value is the clamp `maxsi(%v, 0)` (see
    /// [`Lowerer::size_symbol_of`]); the self-check clamps its parameters the same way.
    pub clamped: std::collections::HashSet<String>,
    counter: usize,
    pub self_check: bool,
    /// Tensors to check (filled while lowering; side functions emitted at the end).
    pub candidates: Vec<(Tensor, String)>,
    pub checks: Vec<CheckSpec>,
    pub unchecked: Vec<String>,
    /// Whether the module declares [`guard::HOOK`] already.
    pub hook_declared: bool,
    /// Checks already emitted (`i1` "ok" flags by what they check), reused where they dominate.
    pub checked: HashMap<String, MlirValue>,
    /// The module's target (`layout.target`): the capacities the alloc checks use.
    pub target: Option<layout_dialect::Target>,
    /// `!layout.tensor` types parsed and resolved once per uniqued type: view/alloc/tile
    /// results and the tensor-use check of every other op read them.
    pub layouts: LayoutCache,
    /// [`Options::sanitize`]: on-chip buffers get "written" shadows ([`initcheck`]).
    pub sanitize: bool,
    /// Buffer (raw pointer) → its shadow flags.
    pub shadows: HashMap<usize, MlirValue>,
    /// [`Options::witness_accesses`], the accesses witnessed so far and their witnesses'
    /// argument types.
    pub witness_accesses: bool,
    pub accesses: Vec<AccessSpec>,
    pub witness_types: Vec<Vec<Type<'c>>>,
}

impl<'c> Lowerer<'c> {
    fn new(context: &'c Context, self_check: bool) -> Self {
        Lowerer {
            context,
            env: HashMap::new(),
            tensors: HashMap::new(),
            value_symbols: HashMap::new(),
            failed: std::collections::HashSet::new(),
            origins: HashMap::new(),
            clamped: std::collections::HashSet::new(),
            counter: 0,
            self_check,
            candidates: Vec::new(),
            checks: Vec::new(),
            unchecked: Vec::new(),
            hook_declared: false,
            checked: HashMap::new(),
            target: None,
            layouts: LayoutCache::new(),
            sanitize: false,
            shadows: HashMap::new(),
            witness_accesses: false,
            accesses: Vec::new(),
            witness_types: Vec::new(),
        }
    }

    fn lower_op(&mut self, decoded: &LayoutOp) -> Result<(), LoweringError> {
        match decoded {
            LayoutOp::View { op, .. } => buffers::view(self, op),
            LayoutOp::Alloc { op, .. } => buffers::alloc(self, op),
            LayoutOp::Tile { op, shape, .. } => tile::tile(self, op, shape),
            LayoutOp::Load { op, .. } => copy::copy(self, op, decoded.kind().name(), Default::default()),
            LayoutOp::Store { op, epilogue, .. } => copy::copy(self, op, decoded.kind().name(), *epilogue),
            LayoutOp::Matmul { op, accumulate, .. } => matmul::matmul(self, op, *accumulate),
            LayoutOp::Offset { op, .. } => offset::offset(self, op),
            LayoutOp::Block { op, query, .. } => block::block(self, op, *query),
        }
    }

    /// A fresh number for symbol and loop-variable names.
    pub fn fresh(&mut self) -> usize {
        self.counter += 1;
        self.counter
    }

    /// The algebra value of an `index` SSA value: its constant, or a symbol bound to it.
    pub fn symbol_of(&mut self, value: MlirValue) -> SymExpr {
        if let Some(c) = crate::ir::constant_int(build::val(value)) {
            return SymExpr::Const(c);
        }
        let key = value.ptr as usize;
        if let Some(s) = self.value_symbols.get(&key) {
            return s.clone();
        }
        let name = format!("s{}", self.fresh());
        self.env.insert(name.clone(), value);
        self.origins.insert(name.clone(), self_check::classify(value));
        let s = SymExpr::sym(&name);
        self.value_symbols.insert(key, s.clone());
        s
    }

    /// [`Self::symbol_of`] for a value bound to a **size** leaf (an origin or shape leaf of a
    /// `layout.view`/`layout.alloc` type; not a stride, not a coordinate): the symbol's value
    /// becomes `arith.maxsi(%v, %c0)`, emitted once, right after the definition of `%v` (so it
    /// dominates every use of the symbol, whatever op binds it first or later). See "Sizes are
    /// non-negative" in the module documentation.
    pub fn size_symbol_of(&mut self, location: Location, value: MlirValue) -> Result<SymExpr, LoweringError> {
        let symbol = self.symbol_of(value);
        let SymExpr::Sym(name) = &symbol else { return Ok(symbol) };
        if self.clamped.contains(name.as_ref()) {
            return Ok(symbol);
        }
        let point = build::Point::after_definition(value)?;
        let zero = build::index_constant(self.context, location, point, 0)?;
        let clamped = point.value(melior::dialect::arith::maxsi(build::val(value), build::val(zero), location))?;
        self.env.insert(name.to_string(), clamped);
        self.clamped.insert(name.to_string());
        Ok(symbol)
    }

    /// The lowered tensor of operand `i` of `op`.
    pub fn operand(&self, op: &OperationRef, i: usize) -> Result<Tensor, LoweringError> {
        let value = op.operand(i).map_err(|e| LoweringError::IrShape(format!("missing operand #{i}: {e}")))?;
        self.tensors.get(&(value.to_raw().ptr as usize)).cloned().ok_or_else(|| {
            LoweringError::Contract(format!(
                "operand #{i} is a !layout.tensor that is not a result of layout.view/alloc/tile in this function"
            ))
        })
    }

    /// Whether an operand of `op` is a result of an op whose lowering failed.
    fn uses_failed(&self, op: &OperationRef) -> bool {
        op.operands().any(|value| self.failed.contains(&(value.to_raw().ptr as usize)))
    }

    /// Records that `op` was not lowered, so that its users are skipped silently.
    fn mark_failed(&mut self, op: &OperationRef) {
        self.failed.extend((0..op.result_count()).filter_map(|i| op.result(i).ok()).map(|r| r.to_raw().ptr as usize));
    }

    /// Records the lowered tensor of `op`'s result (and queues it for the self-check).
    pub fn define(&mut self, op: &OperationRef, tensor: Tensor) -> Result<(), LoweringError> {
        let result = op.result(0).map_err(|e| LoweringError::IrShape(format!("missing result: {e}")))?;
        if self.self_check {
            let function = enclosing_function(op);
            self.candidates.push((tensor.clone(), function));
        }
        self.tensors.insert(result.to_raw().ptr as usize, tensor);
        Ok(())
    }

    /// Binds the `written` result of a `layout.load` ([`crate::tile::written_view`]): the
    /// destination's buffer and addresses, so the self-check (which covers the destination) has
    /// nothing new to check.
    pub fn define_written(&mut self, op: &OperationRef, tensor: Tensor) -> Result<(), LoweringError> {
        let result = op.result(0).map_err(|e| LoweringError::IrShape(format!("missing result: {e}")))?;
        self.tensors.insert(result.to_raw().ptr as usize, tensor);
        Ok(())
    }

    /// Emits `exprs` at `point`.
    pub fn emit(
        &self,
        location: Location,
        point: build::Point,
        exprs: &[SymExpr],
    ) -> Result<Vec<MlirValue>, LoweringError> {
        build::emit_exprs(self.context, location, point, &self.env, exprs)
    }

    /// A loop nest over `ranges` at `point`.
    pub fn nest(
        &mut self,
        location: Location,
        point: build::Point,
        ranges: &[(SymExpr, SymExpr)],
    ) -> Result<build::Nest, LoweringError> {
        let prefix = format!("i{}_", self.fresh());
        build::loop_nest(self.context, location, point, &mut self.env, ranges, &prefix)
    }
}

/// The MLIR element type of a tensor type (as written), and the algebra's.
pub(crate) fn element_types(context: &Context, ty: &TensorType) -> Result<(ElementType, MlirType), LoweringError> {
    let elem = ty.element_type()?;
    let supported = matches!(
        elem,
        ElementType::F16
            | ElementType::BF16
            | ElementType::F32
            | ElementType::F64
            | ElementType::I8
            | ElementType::I16
            | ElementType::I32
            | ElementType::I64
            | ElementType::F8E8M0FNU
    );
    if !supported {
        return Err(LoweringError::Unsupported(format!("element type {elem} is not supported by the CPU lowering (f16, bf16, f32, f64, i8, i16, i32, i64, f8E8M0FNU)")));
    }
    let mlir = Type::parse(context, &ty.elem)
        .ok_or_else(|| LoweringError::Unsupported(format!("cannot parse element type {}", ty.elem)))?;
    Ok((elem, mlir.to_raw()))
}

/// `@name` of the `func.func` around `op` ("" if none).
fn enclosing_function(op: &OperationRef) -> String {
    let mut current = op.parent_operation();
    while let Some(p) = current {
        if op_name(&p) == "func.func" {
            return p
                .attribute("sym_name")
                .ok()
                .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
                .map(|s| s.value().to_string())
                .unwrap_or_default();
        }
        current = p.parent_operation();
    }
    String::new()
}

/// A short description of the value an op defines, for messages: `layout.alloc at loc(...)`.
pub(crate) fn describe(op: &OperationRef, name: &str) -> String {
    let ty = op.result(0).map(|r| r.r#type().to_string()).unwrap_or_default();
    format!("{name} {ty} at {}", op.location())
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout_algebra::AlgebraError;

    #[test]
    fn bad_pass_options_are_typed_errors_with_the_cli_text() {
        let Err(error) = create_with_options("{host-copies=yes}") else { panic!("accepted host-copies=yes") };
        let LoweringError::PassOption { pass, message } = &error else { panic!("not a pass-option error: {error:?}") };
        assert_eq!((*pass, message.as_str()), (ARGUMENT, "host-copies must be true or false, got 'yes'"));
        let Err(error) = create_with_options("host-copy=true") else { panic!("accepted host-copy") };
        assert_eq!(
            error.to_string(),
            "layout-lower-to-loops: unknown option 'host-copy' (known: host-copies=true|false, sanitize=true|false)"
        );
    }

    /// `lower` returns what it emitted: one located, typed error per failing op.
    #[test]
    fn lower_returns_located_errors() {
        let context = layout_dialect::create_context().expect("context");
        let source = r#"module attributes {layout.target = #layout.target<"a2">} {
  func.func @f() {
    %over = "layout.alloc"() : () -> !layout.tensor<f16, "l1", "NZ", "(1025,256)">
    return
  }
}"#;
        let module = layout_dialect::parse_source(&context, source).expect("parse");
        let Err(LowerFailure::Errors(errors)) = lower(module.as_operation(), &Options::default()) else {
            panic!("an over-capacity alloc was lowered")
        };
        let [located] = errors.as_slice() else { panic!("{errors:?}") };
        assert!(located.location.ends_with(":3:13"), "{}", located.location);
        let LoweringError::Contract(message) = &located.error else { panic!("{:?}", located.error) };
        assert_eq!(
            message,
            r#"layout.alloc of !layout.tensor<f16, "l1", "NZ", "(1025,256)">: needs 532480 bytes, L1 on a2 holds 524288 bytes"#
        );
    }

    #[test]
    fn shape_overflow_is_an_algebra_error_not_a_wrap() {
        let error = build::add(&SymExpr::Const(i64::MAX), &SymExpr::Const(1)).unwrap_err();
        assert!(matches!(error, LoweringError::Algebra(AlgebraError::Overflow { .. })), "{error:?}");
        let address = Tensor {
            buffer: MlirValue { ptr: std::ptr::null_mut() },
            elem: ElementType::F16,
            elem_type: MlirType { ptr: std::ptr::null_mut() },
            space: MemorySpace::Gm,
            pattern: None,
            layout: Layout::new(Tuple::Int(SymExpr::Const(4)), Tuple::Int(SymExpr::Const(1))).unwrap(),
            coord: vec![SymExpr::Const(0)],
            base: SymExpr::Const(0),
            name: "%t".into(),
            valid: None,
        }
        .address(&[]);
        assert_eq!(address.unwrap_err(), LoweringError::Internal("0 coordinates for %t (rank 1)".into()));
    }
}
