//! The walk: a `func.func` of `ascendc` ops (plus `arith` index arithmetic and comparisons,
//! `scf.for` with index `iter_args`, and `scf.if`) read into a small kernel description both
//! printers use. Errors are [`EmitError`]s at the op they concern ([`Located`]).

use ascendc_params::decl::{Source, UnitFlag};
use ascendc_params::{Buffer, Target};
use layout_dialect::ascendc_ops::AscendcOp;
use layout_runtime::diagnostics::{position_of, UNNAMED_INPUT};
use layout_runtime::{Diag, Position};
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    Attribute, AttributeLike, BlockRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use std::collections::HashMap;

pub use crate::error::{EmitError, Located};
use crate::ops::{is_function, ArithView, ScfView, UpstreamOp};

/// An integer: a constant or a named index value (a condition is an `i1` value: 0 or 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Const(i64),
    Var(String),
}

/// Index arithmetic: one `arith` op of the shared list (`index_simplify::ArithOp`, what the
/// passes' index emitter writes), printed exactly by both printers.
pub use index_simplify::ArithOp;

/// An `arith.cmpi` predicate (the `predicate` attribute's order).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pred {
    Eq,
    Ne,
    Slt,
    Sle,
    Sgt,
    Sge,
    Ult,
    Ule,
    Ugt,
    Uge,
}

impl Pred {
    /// The predicate of `arith.cmpi`'s attribute value.
    pub fn from_code(code: i64) -> Option<Pred> {
        use Pred::*;
        [Eq, Ne, Slt, Sle, Sgt, Sge, Ult, Ule, Ugt, Uge].get(usize::try_from(code).ok()?).copied()
    }

    /// The MLIR spelling (`slt`).
    pub fn name(self) -> &'static str {
        use Pred::*;
        match self {
            Eq => "eq",
            Ne => "ne",
            Slt => "slt",
            Sle => "sle",
            Sgt => "sgt",
            Sge => "sge",
            Ult => "ult",
            Ule => "ule",
            Ugt => "ugt",
            Uge => "uge",
        }
    }

    /// The comparison on two values (unsigned ones on the 64-bit patterns, as `index` is).
    pub fn eval(self, a: i64, b: i64) -> bool {
        use Pred::*;
        let (ua, ub) = (a as u64, b as u64);
        match self {
            Eq => a == b,
            Ne => a != b,
            Slt => a < b,
            Sle => a <= b,
            Sgt => a > b,
            Sge => a >= b,
            Ult => ua < ub,
            Ule => ua <= ub,
            Ugt => ua > ub,
            Uge => ua >= ub,
        }
    }

    /// Whether the comparison is unsigned.
    pub fn unsigned(self) -> bool {
        matches!(self, Pred::Ult | Pred::Ule | Pred::Ugt | Pred::Uge)
    }
}

/// The intrinsic of a call: its kind in the one declaration (`ascendc_params::decl`), decoded
/// from the op name once (`layout_dialect::ascendc_ops`); `kind.decl()` holds everything the
/// printers need (fields, meanings, C ABI).
pub use ascendc_params::IntrinsicKind as Kind;

/// A kernel parameter.
#[derive(Clone, Debug)]
pub enum Param {
    /// A GM buffer (`GM_ADDR`), from a memref argument; `elem` is the MLIR element type and
    /// `memref` the argument's type text.
    Gm { name: String, elem: String, memref: String },
    /// A scalar (`index` argument) → `int64_t`.
    Index { name: String },
}

/// A buffer an intrinsic reads or writes.
#[derive(Clone, Debug)]
pub struct Buf {
    pub name: String,
    /// MLIR element type (`f16`).
    pub elem: String,
    /// `None` for GM tensors; `Some((position, memory byte offset, bytes))` on chip.
    pub local: Option<(String, i64, i64)>,
    /// For GM: the parameter index.
    pub param: Option<usize>,
    pub layout: String,
    /// The op that declares it (errors about the buffer are located there).
    pub at: Option<Position>,
}

/// One intrinsic call: `for (r < repeat) F(op0[off0 + r·step0], ...)`.
#[derive(Clone, Debug)]
pub struct Call {
    pub kind: Kind,
    /// Buffer indices, in call order (destination first).
    pub bufs: Vec<usize>,
    /// Every integer field, static or dynamic (AscendC spelling), in attribute order.
    pub fields: HashMap<String, Val>,
    /// Boolean fields (`ifTranspose`, `cmatrixInitVal`, ...).
    pub bools: HashMap<String, bool>,
    /// `quantPre` of Fixpipe.
    pub quant: Option<String>,
    /// Reader notes; symbols of the `assumes` note are already replaced by the kernel's names.
    pub notes: Vec<(String, String)>,
    /// Values the notes mention (kept alive by [`prune`]).
    pub refs: Vec<Val>,
    /// The op (errors about the call are located there).
    pub at: Option<Position>,
}

/// The on-chip memory of a `TPosition` (`A1`/`B1`: L1, `A2`: L0A, `B2`: L0B, `CO1`: L0C).
pub fn memory_of(position: &str) -> Option<Buffer> {
    Some(match position {
        "A1" | "B1" => Buffer::L1,
        "A2" => Buffer::L0A,
        "B2" => Buffer::L0B,
        "CO1" => Buffer::L0C,
        _ => return None,
    })
}

impl Buf {
    /// An on-chip buffer must lie inside its memory on `target` (capacities:
    /// `layout_algebra::ascend::MemorySpace::capacity`): the printers index the memory with
    /// its bytes. A hand-written `ascendc.alloc` past the end is an error at the alloc.
    pub fn check_capacity(&self, target: Target) -> Result<(), Located> {
        let Some((position, offset, size)) = &self.local else { return Ok(()) };
        let memory = memory_of(position)
            .ok_or_else(|| EmitError::Malformed(format!("unknown position \"{position}\"")).at(self.at.clone()))?;
        let capacity = memory.space().capacity(target).unwrap_or(i64::MAX);
        let end = offset.saturating_add(*size);
        if end > capacity {
            let (buffer, memory, target) = (self.name.clone(), memory.name(), target.name());
            return Err(
                EmitError::Capacity { buffer, offset: *offset, end, memory, capacity, target }.at(self.at.clone())
            );
        }
        Ok(())
    }
}

impl Call {
    pub fn field(&self, name: &str) -> Val {
        self.fields.get(name).cloned().unwrap_or(Val::Const(0))
    }
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Const {
        name: String,
        value: i64,
    },
    Arith {
        name: String,
        op: ArithOp,
        a: Val,
        b: Val,
    },
    /// `name = a PRED b` (a condition).
    Cmp {
        name: String,
        pred: Pred,
        a: Val,
        b: Val,
    },
    /// `name = cond ? a : b` (index values).
    Select {
        name: String,
        cond: Val,
        a: Val,
        b: Val,
    },
    /// `scf.for`; `iter` are the loop-carried index variables with their initial values, set
    /// to `yields` at the end of each iteration; `results` are named after the loop and hold
    /// the carried values' last values.
    For {
        var: String,
        lo: Val,
        hi: Val,
        step: Val,
        iter: Vec<(String, Val)>,
        body: Vec<Stmt>,
        yields: Vec<Val>,
        results: Vec<String>,
    },
    /// `scf.if`: `results` (index values) are set to `then_yields` or `else_yields`.
    If {
        cond: Val,
        results: Vec<String>,
        then_body: Vec<Stmt>,
        then_yields: Vec<Val>,
        else_body: Vec<Stmt>,
        else_yields: Vec<Val>,
    },
    Call(Call),
    Flag {
        set: bool,
        event: String,
        id: i64,
    },
    Barrier(String),
    /// `name = GetBlockIdx()` (`num: false`) or `GetBlockNum()` (`num: true`).
    Block {
        name: String,
        num: bool,
    },
    /// `SetAtomicAdd<T>()` with `T` the MLIR element type (`add: Some("f32")`), or
    /// `SetAtomicNone()` (`add: None`): the GM writes of the Fixpipes between them add into GM.
    Atomic {
        add: Option<String>,
    },
}

#[derive(Clone, Debug)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<Param>,
    pub bufs: Vec<Buf>,
    pub body: Vec<Stmt>,
}

fn text(attr: Attribute) -> Option<String> {
    // Safety: valid attribute.
    unsafe {
        if mlir_sys::mlirAttributeIsAString(attr.to_raw()) {
            let s = mlir_sys::mlirStringAttrGetValue(attr.to_raw());
            let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
            return Some(String::from_utf8_lossy(bytes).into_owned());
        }
    }
    None
}

fn int(attr: Attribute) -> Option<i64> {
    // Safety: valid attribute.
    unsafe {
        mlir_sys::mlirAttributeIsAInteger(attr.to_raw()).then(|| mlir_sys::mlirIntegerAttrGetValueInt(attr.to_raw()))
    }
}

fn boolean(attr: Attribute) -> Option<bool> {
    // Safety: valid attribute.
    unsafe { mlir_sys::mlirAttributeIsABool(attr.to_raw()).then(|| mlir_sys::mlirBoolAttrGetValue(attr.to_raw())) }
}

fn dict(attr: Attribute) -> Vec<(String, Attribute)> {
    let mut out = Vec::new();
    // Safety: valid attribute; indices in range.
    unsafe {
        if !mlir_sys::mlirAttributeIsADictionary(attr.to_raw()) {
            return out;
        }
        for i in 0..mlir_sys::mlirDictionaryAttrGetNumElements(attr.to_raw()) {
            let named = mlir_sys::mlirDictionaryAttrGetElement(attr.to_raw(), i);
            let name = mlir_sys::mlirIdentifierStr(named.name);
            let bytes = std::slice::from_raw_parts(name.data as *const u8, name.length);
            out.push((String::from_utf8_lossy(bytes).into_owned(), Attribute::from_raw(named.attribute)));
        }
    }
    out
}

fn array(attr: Attribute) -> Vec<Attribute> {
    // Safety: as above.
    unsafe {
        if !mlir_sys::mlirAttributeIsAArray(attr.to_raw()) {
            return Vec::new();
        }
        (0..mlir_sys::mlirArrayAttrGetNumElements(attr.to_raw()))
            .map(|i| Attribute::from_raw(mlir_sys::mlirArrayAttrGetElement(attr.to_raw(), i)))
            .collect()
    }
}

fn key(v: Value) -> usize {
    v.to_raw().ptr as usize
}

fn memref_elem(ty: Type) -> Option<String> {
    // Safety: valid type.
    unsafe {
        let raw = ty.to_raw();
        mlir_sys::mlirTypeIsAMemRef(raw)
            .then(|| Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)).to_string())
    }
}

/// Element type text of `!ascendc.global<f16>` / `!ascendc.local<f16, "A1">`.
fn buffer_elem(ty: Type) -> Option<String> {
    let t = ty.to_string();
    let inner = t.strip_prefix("!ascendc.global<").or_else(|| t.strip_prefix("!ascendc.local<"))?;
    Some(inner.split([',', '>']).next()?.trim().to_string())
}

struct Walker {
    names: HashMap<usize, String>,
    /// Index values known to be constants (`arith.constant` and folded arithmetic): printed
    /// inline.
    consts: HashMap<usize, i64>,
    bufs: Vec<Buf>,
    buf_of: HashMap<usize, usize>,
    count: HashMap<String, usize>,
    params: Vec<Param>,
    /// Where the first error arose: the innermost op whose emission failed.
    failed_at: Option<Position>,
}

type Result<T, E = EmitError> = std::result::Result<T, E>;

fn malformed(e: impl std::fmt::Display) -> EmitError {
    EmitError::Malformed(e.to_string())
}

/// Whether every result of `op` is an `index` value (`iter_args` and `scf.if` results).
/// Checks that every operand of `op` is an `index` value.
fn index_operands(op: &OperationRef, what: &str) -> Result<()> {
    for i in 0..op.operand_count() {
        let ty = op.operand(i).map_err(malformed)?.r#type();
        if !ty.is_index() {
            return Err(EmitError::Unsupported(format!("{what} on {ty} is not emitted (only index values)")));
        }
    }
    Ok(())
}

fn index_results(op: &OperationRef, what: &str) -> Result<()> {
    for i in 0..op.result_count() {
        let ty = op.result(i).map_err(malformed)?.r#type();
        if !ty.is_index() {
            return Err(EmitError::Unsupported(format!("{what} of type {ty} is not emitted (only index values)")));
        }
    }
    Ok(())
}

impl Walker {
    fn fresh(&mut self, base: &str) -> String {
        let n = self.count.entry(base.to_string()).or_insert(0);
        *n += 1;
        if *n == 1 && base != "v" && base != "i" {
            base.to_string()
        } else {
            format!("{base}{}", *n - 1)
        }
    }

    fn val(&self, v: Value) -> Result<Val> {
        if let Some(c) = self.consts.get(&key(v)) {
            return Ok(Val::Const(*c));
        }
        self.names
            .get(&key(v))
            .map(|n| Val::Var(n.clone()))
            .ok_or_else(|| EmitError::Unsupported(format!("value {v} is not an index value the emitter knows")))
    }

    fn operand(&self, op: &OperationRef, i: usize) -> Result<Val> {
        self.val(op.operand(i).map_err(malformed)?)
    }

    /// Names a fresh variable for `v` (`base`: `v` for index values, `cond` for conditions).
    fn define(&mut self, v: Value, base: &str) -> String {
        let n = self.fresh(base);
        self.names.insert(key(v), n.clone());
        n
    }

    fn block(&mut self, block: BlockRef) -> Result<Vec<Stmt>> {
        let mut out = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            if let Err(error) = self.op(op, &mut out) {
                // Nested blocks return first, so the innermost op is kept.
                self.failed_at = self.failed_at.take().or_else(|| position_of(op.location(), UNNAMED_INPUT));
                return Err(error);
            }
            next = op.next_in_block();
        }
        Ok(out)
    }

    /// The body of a region and the values its `scf.yield` passes on.
    fn region(&mut self, block: Option<BlockRef>) -> Result<(Vec<Stmt>, Vec<Val>)> {
        let Some(block) = block else { return Ok((Vec::new(), Vec::new())) };
        let body = self.block(block)?;
        let mut yields = Vec::new();
        if let Some(t) = block.terminator() {
            for i in 0..t.operand_count() {
                yields.push(self.operand(&t, i)?);
            }
        }
        Ok((body, yields))
    }

    fn op(&mut self, op: OperationRef, out: &mut Vec<Stmt>) -> Result<()> {
        if let Some(decoded) = AscendcOp::decode(op) {
            return self.ascendc_op(decoded?, out);
        }
        match UpstreamOp::decode(op)? {
            UpstreamOp::Arith(arith) => self.arith_op(&op, arith, out),
            UpstreamOp::Scf(scf) => self.scf_op(&op, scf, out),
            UpstreamOp::Return => Ok(()),
        }
    }

    /// An `arith` op: constants and arithmetic on constants fold, the rest are statements.
    fn arith_op(&mut self, op: &OperationRef, arith: ArithView, out: &mut Vec<Stmt>) -> Result<()> {
        match arith {
            ArithView::Binary { op: binary, lhs, rhs, result } => {
                // Index arithmetic only: an `i1` `arith.andi` is no condition the printers know.
                let name = binary.name();
                index_operands(op, name)?;
                index_results(op, name)?;
                let (a, b) = (self.val(lhs)?, self.val(rhs)?);
                if let (Val::Const(x), Val::Const(y)) = (&a, &b) {
                    if let Some(c) = binary.eval(*x, *y) {
                        self.consts.insert(key(result), c);
                        return Ok(());
                    }
                }
                let n = self.define(result, "v");
                out.push(Stmt::Arith { name: n, op: binary, a, b });
            }
            ArithView::Constant { value, result } => {
                self.consts.insert(key(result), value);
            }
            ArithView::IndexCast { input, result } => {
                let a = self.val(input)?;
                let n = self.define(result, "v");
                out.push(Stmt::Arith { name: n, op: ArithOp::AddI, a, b: Val::Const(0) });
            }
            ArithView::CmpI { pred, lhs, rhs, result } => {
                let (a, b) = (self.val(lhs)?, self.val(rhs)?);
                if let (Val::Const(x), Val::Const(y)) = (&a, &b) {
                    self.consts.insert(key(result), i64::from(pred.eval(*x, *y)));
                    return Ok(());
                }
                let n = self.define(result, "cond");
                out.push(Stmt::Cmp { name: n, pred, a, b });
            }
            ArithView::Select { cond, on_true, on_false, result } => {
                index_results(op, "arith.select")?;
                let cond = self.val(cond)?;
                let (a, b) = (self.val(on_true)?, self.val(on_false)?);
                match (cond, a, b) {
                    (Val::Const(c), a, b) => match if c != 0 { a } else { b } {
                        Val::Const(v) => {
                            self.consts.insert(key(result), v);
                        }
                        Val::Var(n) => {
                            self.names.insert(key(result), n);
                        }
                    },
                    (cond, a, b) => {
                        let n = self.define(result, "v");
                        out.push(Stmt::Select { name: n, cond, a, b });
                    }
                }
            }
        }
        Ok(())
    }

    /// An `scf` op: loops and conditionals with their regions (a `scf.yield` is read by the
    /// region that ends with it).
    fn scf_op(&mut self, op: &OperationRef, scf: ScfView, out: &mut Vec<Stmt>) -> Result<()> {
        match scf {
            ScfView::For { lower, upper, step, inits, body, results: carried_out } => {
                let lo = self.val(lower)?;
                let hi = self.val(upper)?;
                let step = self.val(step)?;
                index_results(op, "scf.for iter_args")?;
                let var = self.define(body.argument(0).map_err(malformed)?.into(), "i");
                let mut iter = Vec::new();
                for (k, init) in inits.into_iter().enumerate() {
                    let init = self.val(init)?;
                    let carried = self.define(body.argument(1 + k).map_err(malformed)?.into(), "v");
                    iter.push((carried, init));
                }
                let (inner, yields) = self.region(Some(body))?;
                if yields.len() != iter.len() {
                    return Err(EmitError::Malformed(format!(
                        "scf.for: {} iter_args but the body yields {} values",
                        iter.len(),
                        yields.len()
                    )));
                }
                let results = carried_out.into_iter().map(|r| self.define(r, "v")).collect();
                out.push(Stmt::For { var, lo, hi, step, iter, body: inner, yields, results });
            }
            ScfView::If { cond, then_block, else_block, results: values } => {
                index_results(op, "scf.if result")?;
                let cond = self.val(cond)?;
                let (then_body, then_yields) = self.region(then_block)?;
                let (else_body, else_yields) = self.region(else_block)?;
                let n = values.len();
                if then_yields.len() != n || (n > 0 && else_yields.len() != n) {
                    return Err(EmitError::Malformed(format!(
                        "scf.if: {n} results but the regions yield {} and {} values",
                        then_yields.len(),
                        else_yields.len()
                    )));
                }
                let results = values.into_iter().map(|r| self.define(r, "v")).collect();
                out.push(Stmt::If { cond, results, then_body, then_yields, else_body, else_yields });
            }
            ScfView::Yield => {}
        }
        Ok(())
    }

    /// An `ascendc` op: buffers, flags and intrinsic calls.
    fn ascendc_op(&mut self, decoded: AscendcOp, out: &mut Vec<Stmt>) -> Result<()> {
        let op = decoded_op(&decoded);
        let at = position_of(op.location(), UNNAMED_INPUT);
        let result = || -> Result<Value> { op.result(0).map(Into::into).map_err(malformed) };
        match decoded {
            AscendcOp::GlobalTensor { source: src, .. } => {
                let param = self
                    .names
                    .get(&key(src))
                    .and_then(|n| self.params.iter().position(|p| matches!(p, Param::Gm { name, .. } if name == n)));
                let pname = param.and_then(|i| match &self.params[i] {
                    Param::Gm { name, .. } => Some(name.clone()),
                    _ => None,
                });
                let pname = pname.ok_or_else(|| {
                    EmitError::Unsupported(
                        "ascendc.global_tensor: the source must be a memref argument of the kernel".into(),
                    )
                })?;
                let n = self.fresh(&format!("{pname}Gm"));
                let r = result()?;
                self.buf_of.insert(key(r), self.bufs.len());
                self.bufs.push(Buf {
                    name: n,
                    elem: buffer_elem(r.r#type()).ok_or_else(|| EmitError::Malformed("bad global type".into()))?,
                    local: None,
                    param,
                    layout: op.attribute("layout").ok().and_then(text).unwrap_or_default(),
                    at,
                });
            }
            AscendcOp::Alloc { .. } => {
                let r = result()?;
                let ty = r.r#type().to_string();
                let position = ty.rsplit('"').nth(1).unwrap_or("A1").to_string();
                let n = self.fresh(&position.to_lowercase());
                let attr = |name: &str| {
                    op.attribute(name)
                        .ok()
                        .and_then(int)
                        .ok_or_else(|| EmitError::Malformed(format!("ascendc.alloc without {name}")))
                };
                let (offset, size) = (attr("offset")?, attr("size")?);
                // The emitters print `offset + size` and index the memory with it: a byte range
                // that is negative or leaves i64 is an error here, not a wrapped end.
                if offset < 0 || size < 0 || offset.checked_add(size).is_none() {
                    return Err(EmitError::Malformed(format!(
                        "ascendc.alloc: bytes [{offset}, {offset} + {size}) are not a valid range"
                    )));
                }
                self.buf_of.insert(key(r), self.bufs.len());
                self.bufs.push(Buf {
                    name: n,
                    elem: buffer_elem(r.r#type()).ok_or_else(|| EmitError::Malformed("bad local type".into()))?,
                    local: Some((position, offset, size)),
                    param: None,
                    layout: op.attribute("layout").ok().and_then(text).unwrap_or_default(),
                    at,
                });
            }
            AscendcOp::Flag { set, .. } => {
                let event = op
                    .attribute("event")
                    .ok()
                    .and_then(text)
                    .ok_or_else(|| EmitError::Malformed("flag without event".into()))?;
                let id = op
                    .attribute("id")
                    .ok()
                    .and_then(int)
                    .ok_or_else(|| EmitError::Malformed("flag without id".into()))?;
                out.push(Stmt::Flag { set, event, id });
            }
            AscendcOp::PipeBarrier { .. } => {
                out.push(Stmt::Barrier(op.attribute("pipe").ok().and_then(text).unwrap_or_else(|| "PIPE_ALL".into())));
            }
            AscendcOp::Block { num, result, .. } => {
                let name = self.define(result, if num { "blockNum" } else { "blockIdx" });
                out.push(Stmt::Block { name, num });
            }
            AscendcOp::Call { intrinsic, buffers, dyn_values, params, .. } => {
                let kind = intrinsic;
                let mut bufs = Vec::new();
                for v in buffers {
                    bufs.push(
                        *self.buf_of.get(&key(v)).ok_or_else(|| {
                            EmitError::Unsupported("intrinsic operand is not an ascendc buffer".into())
                        })?,
                    );
                }
                let mut fields = HashMap::new();
                let mut bools = HashMap::new();
                let mut quant = None;
                let mut given = Vec::new();
                for (k, a) in dict(params) {
                    if let Some(b) = boolean(a) {
                        given.push((k.clone(), Source::Flag));
                        bools.insert(k, b);
                    } else if let Some(i) = int(a) {
                        given.push((k.clone(), Source::Int));
                        fields.insert(k, Val::Const(i));
                    } else if let Some(s) = text(a) {
                        given.push((k, Source::Quant));
                        quant = Some(s);
                    } else {
                        given.push((k, Source::Fixed));
                    }
                }
                let dyn_names: Vec<String> =
                    op.attribute("dyn_fields").map(array).unwrap_or_default().into_iter().filter_map(text).collect();
                given.extend(dyn_names.iter().filter(|f| !f.starts_with("sym:")).map(|f| (f.clone(), Source::Int)));
                check_fields(kind, &given)?;
                if let Some(Val::Const(u)) = fields.get("unitFlag") {
                    if UnitFlag::of(*u).is_none() {
                        return Err(EmitError::Malformed(format!(
                            "{}: unitFlag must be 0, 2 or 3 (asc-devkit UnitFlag), not {u}",
                            kind.decl().function
                        )));
                    }
                }
                let mut symbols: HashMap<String, Val> = HashMap::new();
                for (i, f) in dyn_names.into_iter().enumerate() {
                    let v = *dyn_values
                        .get(i)
                        .ok_or_else(|| EmitError::Malformed("fewer `dyn` operands than `dyn_fields`".into()))?;
                    match f.strip_prefix("sym:") {
                        Some(s) => {
                            symbols.insert(s.to_string(), self.val(v)?);
                        }
                        None => {
                            fields.insert(f, self.val(v)?);
                        }
                    }
                }
                let notes = op
                    .attribute("notes")
                    .map(dict)
                    .unwrap_or_default()
                    .into_iter()
                    .filter_map(|(k, a)| Some((k, rename(&text(a)?, &symbols))))
                    .collect();
                let refs = symbols.into_values().collect();
                // `atomic = "add"` (a store that adds into GM): SetAtomicAdd<T> of the
                // destination's type around the call, SetAtomicNone after it.
                let atomic = match op.attribute("atomic").ok().map(|a| text(a)) {
                    None => None,
                    Some(Some(mode)) if mode == "add" && matches!(kind, Kind::FixpipeNz2Nd | Kind::FixpipeNz2Nz) => {
                        Some(self.bufs[bufs[0]].elem.clone())
                    }
                    Some(other) => {
                        return Err(EmitError::Malformed(format!(
                            "{}: `atomic` must be \"add\" on a Fixpipe, got {other:?}",
                            kind.name()
                        )))
                    }
                };
                if let Some(elem) = &atomic {
                    out.push(Stmt::Atomic { add: Some(elem.clone()) });
                }
                out.push(Stmt::Call(Call { kind, bufs, fields, bools, quant, notes, refs, at }));
                if atomic.is_some() {
                    out.push(Stmt::Atomic { add: None });
                }
            }
        }
        Ok(())
    }
}

/// The fields `(name, kind of value)` of a call (its `params` and `dyn_fields`) are the ones its
/// declaration has, each once and with a value of its source: the struct's `int` fields (all of
/// them) and `flag`/`quant` fields, and `repeat`, `off<k>`, `step<k>` of every operand k.
/// A misspelled or forgotten field is an error here, not a silent 0 in the printed call.
fn check_fields(kind: Kind, given: &[(String, Source)]) -> Result<()> {
    let decl = kind.decl();
    let call_site = |name: &str| {
        name == "repeat"
            || ["off", "step"].iter().any(|p| {
                name.strip_prefix(p).and_then(|k| k.parse::<usize>().ok()).is_some_and(|k| k < decl.buffer_count())
            })
    };
    let field = |problem: String| EmitError::Malformed(format!("{}: {problem}", decl.op));
    for (i, (name, got)) in given.iter().enumerate() {
        let want = if call_site(name) {
            Source::Int
        } else {
            match decl.params.field(name) {
                Some(f) if f.source != Source::Fixed && !decl.omit.contains(&f.name) => f.source,
                _ => return Err(field(format!("{} has no field `{name}`", decl.params.cpp))),
            }
        };
        if *got != want {
            return Err(field(format!("field `{name}` needs {}", source_value(want))));
        }
        if given[..i].iter().any(|(n, _)| n == name) {
            return Err(field(format!("field `{name}` is given twice (in `params` and `dyn_fields`)")));
        }
    }
    let ints = decl.params.fields.iter().filter(|f| f.source == Source::Int).map(|f| f.name.to_string());
    let sites = (0..decl.buffer_count()).flat_map(|k| [format!("off{k}"), format!("step{k}")]);
    for name in ints.chain(std::iter::once("repeat".to_string())).chain(sites) {
        if !given.iter().any(|(n, _)| *n == name) {
            return Err(field(format!("field `{name}` is missing (in neither `params` nor `dyn_fields`)")));
        }
    }
    Ok(())
}

fn source_value(source: Source) -> &'static str {
    match source {
        Source::Int => "an integer (`params`) or a `dyn` index operand",
        Source::Flag => "a boolean",
        Source::Quant => "a quant mode string",
        Source::Fixed => "no value",
    }
}

/// The op of a decoded `ascendc` op.
fn decoded_op<'c, 'a>(decoded: &AscendcOp<'c, 'a>) -> OperationRef<'c, 'a> {
    match decoded {
        AscendcOp::GlobalTensor { op, .. }
        | AscendcOp::Alloc { op, .. }
        | AscendcOp::Call { op, .. }
        | AscendcOp::Flag { op, .. }
        | AscendcOp::PipeBarrier { op }
        | AscendcOp::Block { op, .. } => *op,
    }
}

/// Reads every `func.func` of `module` that contains ascendc ops. An error is located at the op
/// that cannot be emitted (or at the function), in [`UNNAMED_INPUT`] for a module parsed from text.
pub fn kernels(module: &melior::ir::Module) -> std::result::Result<Vec<Kernel>, Diag> {
    let mut out = Vec::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if !is_function(&op) {
            continue;
        }
        let at_function = |message: String| Diag::error(position_of(op.location(), UNNAMED_INPUT), message);
        let fname = op.attribute("sym_name").ok().and_then(text).unwrap_or_else(|| "kernel".into());
        let body = op
            .region(0)
            .ok()
            .and_then(|region| region.first_block())
            .ok_or_else(|| at_function(format!("@{fname}: function without body")))?;
        let mut w = Walker {
            names: HashMap::new(),
            consts: HashMap::new(),
            bufs: Vec::new(),
            buf_of: HashMap::new(),
            count: HashMap::new(),
            params: Vec::new(),
            failed_at: None,
        };
        for i in 0..body.argument_count() {
            let arg: Value = body.argument(i).map_err(|e| at_function(e.to_string()))?.into();
            let n = format!("arg{i}");
            let ty = arg.r#type();
            if let Some(elem) = memref_elem(ty) {
                w.params.push(Param::Gm { name: n.clone(), elem, memref: ty.to_string() });
            } else if ty.is_index() {
                w.params.push(Param::Index { name: n.clone() });
            } else {
                return Err(at_function(format!(
                    "@{fname}: argument {i} has type {ty}; kernels take memrefs (GM) and index scalars"
                )));
            }
            w.names.insert(key(arg), n);
        }
        let mut stmts = w.block(body).map_err(|e| {
            let at = w.failed_at.take().or_else(|| position_of(op.location(), UNNAMED_INPUT));
            Diag::error(at, format!("@{fname}: {e}"))
        })?;
        crate::hoist::hoist_invariants(&mut stmts);
        crate::hoist::merge_equal(&mut stmts);
        prune(&mut stmts);
        if w.bufs.is_empty() {
            continue;
        }
        out.push(Kernel { name: fname, params: w.params, bufs: w.bufs, body: stmts });
    }
    Ok(out)
}

/// Replaces every identifier of `text` that names a symbol by the kernel's name for its value.
pub(crate) fn rename(text: &str, symbols: &HashMap<String, Val>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match symbols.get(word.as_str()) {
            Some(Val::Var(n)) => out.push_str(n),
            Some(Val::Const(c)) => out.push_str(&c.to_string()),
            None => out.push_str(word),
        }
        word.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

fn uses(stmts: &[Stmt], used: &mut std::collections::HashSet<String>) {
    fn add(v: &Val, used: &mut std::collections::HashSet<String>) {
        if let Val::Var(n) = v {
            used.insert(n.clone());
        }
    }
    for s in stmts {
        match s {
            Stmt::Arith { a, b, .. } | Stmt::Cmp { a, b, .. } => {
                add(a, used);
                add(b, used);
            }
            Stmt::Select { cond, a, b, .. } => [cond, a, b].into_iter().for_each(|v| add(v, used)),
            Stmt::For { lo, hi, step, iter, body, yields, .. } => {
                add(lo, used);
                add(hi, used);
                add(step, used);
                iter.iter().for_each(|(_, init)| add(init, used));
                yields.iter().for_each(|v| add(v, used));
                uses(body, used);
            }
            Stmt::If { cond, then_body, then_yields, else_body, else_yields, .. } => {
                add(cond, used);
                then_yields.iter().chain(else_yields).for_each(|v| add(v, used));
                uses(then_body, used);
                uses(else_body, used);
            }
            Stmt::Call(c) => c.fields.values().chain(&c.refs).for_each(|v| add(v, used)),
            Stmt::Const { .. } | Stmt::Flag { .. } | Stmt::Barrier(_) | Stmt::Block { .. } | Stmt::Atomic { .. } => {}
        }
    }
}

fn remove_unused(stmts: &mut Vec<Stmt>, used: &std::collections::HashSet<String>) -> bool {
    let before = stmts.len();
    stmts.retain(|s| match s {
        Stmt::Const { name, .. }
        | Stmt::Arith { name, .. }
        | Stmt::Cmp { name, .. }
        | Stmt::Select { name, .. }
        | Stmt::Block { name, .. } => used.contains(name),
        _ => true,
    });
    let mut changed = stmts.len() != before;
    for s in stmts.iter_mut() {
        match s {
            Stmt::For { body, .. } => changed |= remove_unused(body, used),
            Stmt::If { then_body, else_body, .. } => {
                changed |= remove_unused(then_body, used);
                changed |= remove_unused(else_body, used);
            }
            _ => {}
        }
    }
    changed
}

/// Drops index arithmetic nothing uses (e.g. the results of `layout.offset` in a kernel that
/// does not return them), to a fixpoint.
pub fn prune(stmts: &mut Vec<Stmt>) {
    loop {
        let mut used = std::collections::HashSet::new();
        uses(stmts, &mut used);
        if !remove_unused(stmts, &used) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{check_fields, Kind};
    use ascendc_params::decl::Source;

    /// The fields the lowering writes for a `DataCopy`, as `(name, kind of value)`.
    fn data_copy(fields: &[&str]) -> Vec<(String, Source)> {
        fields.iter().map(|f| (f.to_string(), Source::Int)).collect()
    }

    #[test]
    fn fields_are_the_declared_ones() {
        let all = ["blockCount", "blockLen", "srcStride", "dstStride", "repeat", "off0", "step0", "off1", "step1"];
        assert_eq!(check_fields(Kind::DataCopy, &data_copy(&all)), Ok(()));
        let message = |given: &[(String, Source)]| check_fields(Kind::DataCopy, given).unwrap_err().to_string();
        let mut typo = data_copy(&all);
        typo[1].0 = "blockLength".into();
        assert_eq!(message(&typo), "ascendc.data_copy: DataCopyParams has no field `blockLength`");
        assert_eq!(
            message(&data_copy(&all[1..])),
            "ascendc.data_copy: field `blockCount` is missing (in neither `params` nor `dyn_fields`)"
        );
        // `off2` of a two-operand call, a value of the wrong kind, a field given twice.
        let mut extra = data_copy(&all);
        extra.push(("off2".into(), Source::Int));
        assert!(message(&extra).contains("has no field `off2`"));
        let mut flag = data_copy(&all);
        flag[0].1 = Source::Flag;
        assert!(message(&flag).contains("field `blockCount` needs an integer"));
        let mut twice = data_copy(&all);
        twice.push(("srcStride".into(), Source::Int));
        assert!(message(&twice).contains("`srcStride` is given twice"));
        // Mmad: the flags are booleans, the fixed fields are not settable, C, A and B have offsets.
        let mmad: Vec<(String, Source)> =
            ["m", "n", "k", "unitFlag", "repeat", "off0", "step0", "off1", "step1", "off2", "step2"]
                .iter()
                .map(|f| (f.to_string(), Source::Int))
                .chain([("cmatrixInitVal".to_string(), Source::Flag)])
                .collect();
        assert_eq!(check_fields(Kind::Mmad, &mmad), Ok(()));
        let mut fixed = mmad.clone();
        fixed.push(("isBias".into(), Source::Flag));
        assert!(check_fields(Kind::Mmad, &fixed).unwrap_err().to_string().contains("has no field `isBias`"));
        // Fixpipe NZ2ND leaves isChannelSplit unset (`omit`); NZ2NZ has it.
        let fix: Vec<(String, Source)> = Kind::FixpipeNz2Nz
            .decl()
            .params
            .fields
            .iter()
            .map(|f| (f.name.to_string(), f.source))
            .chain(["repeat", "off0", "step0", "off1", "step1"].map(|f| (f.to_string(), Source::Int)))
            .collect();
        assert_eq!(check_fields(Kind::FixpipeNz2Nz, &fix), Ok(()));
        assert!(check_fields(Kind::FixpipeNz2Nd, &fix).unwrap_err().to_string().contains("no field `isChannelSplit`"));
    }

    #[test]
    fn every_kind_is_declared() {
        for k in Kind::ALL {
            assert_eq!(
                layout_dialect::ascendc_ops::AscendcOpKind::from_name(k.decl().op).map(|o| o.name()),
                Some(k.name())
            );
        }
        // The ABI struct of Fixpipe in LLVM types, from the declaration.
        let f: Vec<&str> = Kind::FixpipeNz2Nz.decl().params.llvm_fields().iter().map(|f| f.1).collect();
        assert_eq!(f, ["i16", "i16", "i16", "i32", "i8", "i32", "i64", "i16", "i16", "i32", "i8", "i8"]);
        assert_eq!(Kind::Mmad.decl().params.llvm_fields()[4], ("fmOffset", "i32"));
    }
}
