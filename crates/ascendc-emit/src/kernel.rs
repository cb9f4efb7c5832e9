//! The walk: a `func.func` of `ascendc` ops (plus `arith` index arithmetic and `scf.for`) read
//! into a small kernel description both printers use.

use ascendc_params::decl::{self, IntrinsicDecl};
use layout_dialect::ascendc_ops::AscendcOp;
use layout_runtime::diagnostics::{position_of, UNNAMED_INPUT};
use layout_runtime::{Diag, Position};
use melior::ir::{
    block::BlockLike,
    operation::{OperationLike, OperationRef},
    Attribute, AttributeLike, BlockRef, RegionLike, Type, TypeLike, Value, ValueLike,
};
use std::collections::HashMap;

/// An integer: a constant or a named index value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Const(i64),
    Var(String),
}

/// Index arithmetic: one `arith` op of the shared list (`index_simplify::ArithOp`, what the
/// passes' index emitter writes), printed exactly by both printers.
pub use index_simplify::ArithOp;

/// The intrinsic families: the decoded `ascendc` ops themselves (`layout_dialect::ascendc_ops`),
/// so the list of intrinsics is written once.
pub use layout_dialect::ascendc_ops::Intrinsic as Kind;

/// What the printers need of an intrinsic, all read from its declaration.
pub trait KindExt {
    /// The intrinsic's declaration (`ascendc_params::decl::INTRINSICS`): fields, meanings, C ABI.
    fn decl(self) -> &'static IntrinsicDecl;
    /// The AscendC parameter struct.
    fn struct_name(self) -> &'static str;
    /// The fields of the C ABI struct (`ascendc_model_abi.h`), in order, with their LLVM types
    /// (`bool` is `i8`). Fields the kernel does not set are 0.
    fn abi_fields(self) -> Vec<(&'static str, &'static str)>;
}

impl KindExt for Kind {
    fn decl(self) -> &'static IntrinsicDecl {
        // Every intrinsic's op is declared (test `every_kind_is_declared`).
        decl::by_op(self.name()).expect("every ascendc op the emitter reads is declared in ascendc_params::decl")
    }

    fn struct_name(self) -> &'static str {
        self.decl().params.cpp
    }

    fn abi_fields(self) -> Vec<(&'static str, &'static str)> {
        self.decl().params.fields.iter().map(|f| (f.name, f.ctype.llvm())).collect()
    }
}

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
}

impl Call {
    pub fn field(&self, name: &str) -> Val {
        self.fields.get(name).cloned().unwrap_or(Val::Const(0))
    }
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Const { name: String, value: i64 },
    Arith { name: String, op: ArithOp, a: Val, b: Val },
    For { var: String, lo: Val, hi: Val, step: Val, body: Vec<Stmt> },
    Call(Call),
    Flag { set: bool, event: String, id: i64 },
    Barrier(String),
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

fn name_of(op: &OperationRef) -> String {
    op.name().as_string_ref().as_str().unwrap_or("").to_string()
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

    fn val(&self, v: Value) -> Result<Val, String> {
        if let Some(c) = self.consts.get(&key(v)) {
            return Ok(Val::Const(*c));
        }
        self.names
            .get(&key(v))
            .map(|n| Val::Var(n.clone()))
            .ok_or_else(|| format!("value {v} is not an index value the emitter knows"))
    }

    fn block(&mut self, block: BlockRef) -> Result<Vec<Stmt>, String> {
        let mut out = Vec::new();
        let mut next = block.first_operation();
        while let Some(op) = next {
            if let Err(message) = self.op(op, &mut out) {
                // Nested blocks return first, so the innermost op is kept.
                self.failed_at = self.failed_at.take().or_else(|| position_of(op.location(), UNNAMED_INPUT));
                return Err(message);
            }
            next = op.next_in_block();
        }
        Ok(out)
    }

    fn op(&mut self, op: OperationRef, out: &mut Vec<Stmt>) -> Result<(), String> {
        if let Some(decoded) = AscendcOp::decode(op) {
            return self.ascendc_op(decoded.map_err(|e| e.to_string())?, out);
        }
        let name = name_of(&op);
        let result = || -> Result<Value, String> { op.result(0).map(Into::into).map_err(|e| e.to_string()) };
        if let Some(arith) = ArithOp::from_name(&name) {
            let a = self.val(op.operand(0).map_err(|e| e.to_string())?)?;
            let b = self.val(op.operand(1).map_err(|e| e.to_string())?)?;
            if let (Val::Const(x), Val::Const(y)) = (&a, &b) {
                if let Some(c) = arith.eval(*x, *y) {
                    self.consts.insert(key(result()?), c);
                    return Ok(());
                }
            }
            let n = self.fresh("v");
            self.names.insert(key(result()?), n.clone());
            out.push(Stmt::Arith { name: n, op: arith, a, b });
            return Ok(());
        }
        match name.as_str() {
            "arith.constant" => {
                let value = op
                    .attribute("value")
                    .ok()
                    .and_then(int)
                    .ok_or("arith.constant: only integer constants are emitted")?;
                self.consts.insert(key(result()?), value);
            }
            "arith.index_cast" => {
                let a = self.val(op.operand(0).map_err(|e| e.to_string())?)?;
                let n = self.fresh("v");
                self.names.insert(key(result()?), n.clone());
                out.push(Stmt::Arith { name: n, op: ArithOp::AddI, a, b: Val::Const(0) });
            }
            "scf.for" => {
                let lo = self.val(op.operand(0).map_err(|e| e.to_string())?)?;
                let hi = self.val(op.operand(1).map_err(|e| e.to_string())?)?;
                let step = self.val(op.operand(2).map_err(|e| e.to_string())?)?;
                if op.result_count() > 0 {
                    return Err("scf.for with iteration arguments is not emitted".into());
                }
                let body = op.region(0).map_err(|e| e.to_string())?.first_block().ok_or("scf.for without body")?;
                let var = self.fresh("i");
                self.names.insert(key(body.argument(0).map_err(|e| e.to_string())?.into()), var.clone());
                let inner = self.block(body)?;
                out.push(Stmt::For { var, lo, hi, step, body: inner });
            }
            "scf.yield" | "func.return" => {}
            _ => {
                return Err(format!("cannot emit `{name}` (only ascendc ops, arith index arithmetic and scf.for)"));
            }
        }
        Ok(())
    }

    /// An `ascendc` op: buffers, flags and intrinsic calls.
    fn ascendc_op(&mut self, decoded: AscendcOp, out: &mut Vec<Stmt>) -> Result<(), String> {
        let op = decoded_op(&decoded);
        let result = || -> Result<Value, String> { op.result(0).map(Into::into).map_err(|e| e.to_string()) };
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
                let pname = pname.ok_or("ascendc.global_tensor: the source must be a memref argument of the kernel")?;
                let n = self.fresh(&format!("{pname}Gm"));
                let r = result()?;
                self.buf_of.insert(key(r), self.bufs.len());
                self.bufs.push(Buf {
                    name: n,
                    elem: buffer_elem(r.r#type()).ok_or("bad global type")?,
                    local: None,
                    param,
                    layout: op.attribute("layout").ok().and_then(text).unwrap_or_default(),
                });
            }
            AscendcOp::Alloc { .. } => {
                let r = result()?;
                let ty = r.r#type().to_string();
                let position = ty.rsplit('"').nth(1).unwrap_or("A1").to_string();
                let n = self.fresh(&position.to_lowercase());
                let offset = op.attribute("offset").ok().and_then(int).ok_or("alloc without offset")?;
                let size = op.attribute("size").ok().and_then(int).ok_or("alloc without size")?;
                // The emitters print `offset + size` and index the memory with it: a byte range
                // that is negative or leaves i64 is an error here, not a wrapped end.
                if offset < 0 || size < 0 || offset.checked_add(size).is_none() {
                    return Err(format!("ascendc.alloc: bytes [{offset}, {offset} + {size}) are not a valid range"));
                }
                self.buf_of.insert(key(r), self.bufs.len());
                self.bufs.push(Buf {
                    name: n,
                    elem: buffer_elem(r.r#type()).ok_or("bad local type")?,
                    local: Some((position, offset, size)),
                    param: None,
                    layout: op.attribute("layout").ok().and_then(text).unwrap_or_default(),
                });
            }
            AscendcOp::Flag { set, .. } => {
                let event = op.attribute("event").ok().and_then(text).ok_or("flag without event")?;
                let id = op.attribute("id").ok().and_then(int).ok_or("flag without id")?;
                out.push(Stmt::Flag { set, event, id });
            }
            AscendcOp::PipeBarrier { .. } => {
                out.push(Stmt::Barrier(op.attribute("pipe").ok().and_then(text).unwrap_or_else(|| "PIPE_ALL".into())));
            }
            AscendcOp::Call { intrinsic, buffers, dyn_values, params, .. } => {
                let kind = intrinsic;
                let mut bufs = Vec::new();
                for v in buffers {
                    bufs.push(*self.buf_of.get(&key(v)).ok_or("intrinsic operand is not an ascendc buffer")?);
                }
                let mut fields = HashMap::new();
                let mut bools = HashMap::new();
                let mut quant = None;
                for (k, a) in dict(params) {
                    if let Some(b) = boolean(a) {
                        bools.insert(k, b);
                    } else if let Some(i) = int(a) {
                        fields.insert(k, Val::Const(i));
                    } else if let Some(s) = text(a) {
                        quant = Some(s);
                    }
                }
                let dyn_names: Vec<String> =
                    op.attribute("dyn_fields").map(array).unwrap_or_default().into_iter().filter_map(text).collect();
                let mut symbols: HashMap<String, Val> = HashMap::new();
                for (i, f) in dyn_names.into_iter().enumerate() {
                    let v = *dyn_values.get(i).ok_or("fewer `dyn` operands than `dyn_fields`")?;
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
                out.push(Stmt::Call(Call { kind, bufs, fields, bools, quant, notes, refs }));
            }
        }
        Ok(())
    }
}

/// The op of a decoded `ascendc` op.
fn decoded_op<'c, 'a>(decoded: &AscendcOp<'c, 'a>) -> OperationRef<'c, 'a> {
    match decoded {
        AscendcOp::GlobalTensor { op, .. }
        | AscendcOp::Alloc { op, .. }
        | AscendcOp::Call { op, .. }
        | AscendcOp::Flag { op, .. }
        | AscendcOp::PipeBarrier { op } => *op,
    }
}

/// Reads every `func.func` of `module` that contains ascendc ops. An error is located at the op
/// that cannot be emitted (or at the function), in [`UNNAMED_INPUT`] for a module parsed from text.
pub fn kernels(module: &melior::ir::Module) -> Result<Vec<Kernel>, Diag> {
    let mut out = Vec::new();
    let mut next = module.body().first_operation();
    while let Some(op) = next {
        next = op.next_in_block();
        if name_of(&op) != "func.func" {
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
        prune(&mut stmts);
        if w.bufs.is_empty() {
            continue;
        }
        out.push(Kernel { name: fname, params: w.params, bufs: w.bufs, body: stmts });
    }
    Ok(out)
}

/// Replaces every identifier of `text` that names a symbol by the kernel's name for its value.
fn rename(text: &str, symbols: &HashMap<String, Val>) -> String {
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
            Stmt::Arith { a, b, .. } => {
                add(a, used);
                add(b, used);
            }
            Stmt::For { lo, hi, step, body, .. } => {
                add(lo, used);
                add(hi, used);
                add(step, used);
                uses(body, used);
            }
            Stmt::Call(c) => c.fields.values().chain(&c.refs).for_each(|v| add(v, used)),
            Stmt::Const { .. } | Stmt::Flag { .. } | Stmt::Barrier(_) => {}
        }
    }
}

fn remove_unused(stmts: &mut Vec<Stmt>, used: &std::collections::HashSet<String>) -> bool {
    let before = stmts.len();
    stmts.retain(|s| match s {
        Stmt::Const { name, .. } | Stmt::Arith { name, .. } => used.contains(name),
        _ => true,
    });
    let mut changed = stmts.len() != before;
    for s in stmts.iter_mut() {
        if let Stmt::For { body, .. } = s {
            changed |= remove_unused(body, used);
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
    use super::{Kind, KindExt};

    #[test]
    fn every_kind_is_declared() {
        for k in Kind::ALL {
            assert_eq!(k.decl().op, k.name());
        }
        // The ABI struct of Fixpipe in LLVM types, from the declaration.
        let f: Vec<&str> = Kind::FixpipeNz.abi_fields().iter().map(|f| f.1).collect();
        assert_eq!(f, ["i16", "i16", "i16", "i32", "i8", "i32", "i64", "i16", "i16", "i32", "i8", "i8"]);
        assert_eq!(Kind::Mmad.abi_fields()[4], ("fmOffset", "i32"));
    }
}
