//! The AscendC path's intrinsic calls, proven (issue 15 item 3): a copy of the module goes
//! through `layout-lower-to-ascendc` with its side table (`lower_to_ascendc::table`); for every
//! `ascendc.*` call it records, the call's fields are read from the op (`params` constants,
//! `dyn_fields` index operands translated as in [`super::accesses`]) and put into the
//! intrinsic's element mapping (`ascendc_params::element_map`, declared once by field name).
//! The claim for a copy, for every coordinate `x` inside both operands' valid regions and every
//! size in `[0, size_limit)`: the call `l = ⌊row/rows per call⌋` of the loop of calls moves `x`
//! (every index of the mapping inside its extent, `l < repeat`), its destination address
//! `off0 + l·step0 + dst(x)` is `base + crd_to_offset` of the destination layout at `x`, its
//! source address likewise, and no intermediate of the ops' index code leaves `i64`. For a
//! Mmad, for every product `(i, j, kk)` inside the valid regions of A `(i, kk)`, B `(kk, j)`
//! and C `(i, j)`: the call computes it, and the L0A, L0B and L0C elements its mapping reads
//! and writes are the algebra's. The queries are presolved (`Query::presolve`). Each call is
//! first proven under weaker facts, as the loop path's accesses are ([`super::accesses`]):
//! every symbol value the user's code computed (a swizzled tile corner) is a free constant,
//! in `[0, size_limit)` when a lemma over its own code proves that ([`range_lemma`]), and the
//! path's quotients by non-constants are fresh; a counterexample there is asked again exactly
//! (`accesses::decide_weakened`).

use std::time::Instant;

use ascendc_params::element_map::{
    calls_along_columns, columns_per_call, element, mmad_element, rows_per_call, CallShape, Element, Fractals,
    RowsPerCall,
};
use ascendc_params::{IntrinsicKind, Requirement};
use index_simplify::smt::{encode, Query};
use index_simplify::IndexExpr;
use layout_algebra::{IndexValue, SymExpr};
use layout_passes::ir::op_name;
use layout_passes::lower_to_ascendc::{
    self,
    table::{CopySpec, OperandSpec},
};
use melior::ir::{
    operation::OperationLike, AttributeLike, BlockLike, Module, OperationRef, RegionLike, Value, ValueLike,
};
use mlir_sys::MlirValue;

use super::accesses::{argument_facts, decide_weakened, entry_block, lowering_leaf};
use super::translate::Translator;
use super::{algebra_address, AddressProofOptions, AddressProofReport, ProofSubject, TensorProof};
use crate::{Capture, Error, Result};

/// Proves every mapped intrinsic call of `module`'s AscendC lowering.
pub fn prove_intrinsics(module: &Module, opts: &AddressProofOptions) -> Result<AddressProofReport> {
    prove_intrinsics_with(module, &|_| {}, opts)
}

/// [`prove_intrinsics`] with `after_lowering` run on the lowered copy first (tests inject a
/// wrong field there).
pub fn prove_intrinsics_with(
    module: &Module,
    after_lowering: &dyn Fn(&Module),
    opts: &AddressProofOptions,
) -> Result<AddressProofReport> {
    prove_intrinsics_edited(module, &|m, _| after_lowering(m), opts)
}

/// [`prove_intrinsics`] with `edit` run on the lowered copy and its side table first (tests
/// split a call in two there, as the lowering splits a row of more than 255 fractals).
pub fn prove_intrinsics_edited(
    module: &Module,
    edit: &dyn Fn(&Module, &mut Vec<CopySpec>),
    opts: &AddressProofOptions,
) -> Result<AddressProofReport> {
    let start = Instant::now();
    let copy = crate::lower::clone_module(module);
    let capture = Capture::for_module(&copy, "<input>");
    let table = lower_to_ascendc::lower_with_table(copy.as_operation());
    let diagnostics = capture.take();
    let mut table = table.map_err(|_| Error::mlir("intrinsic proof: the AscendC lowering failed", diagnostics))?;
    edit(&copy, &mut table);
    let mut report = AddressProofReport {
        lowering_time: start.elapsed(),
        subject: ProofSubject::IntrinsicCalls,
        ..Default::default()
    };
    let lemmas = Instant::now();
    let users = in_range(user_values(&table), opts);
    report.lemma_time = lemmas.elapsed();
    for spec in &table {
        let chunks = chunks(spec);
        for (&call, &chunk) in spec.calls.iter().zip(&chunks) {
            // Safety: the ops are alive (the copy is not changed while proving).
            let call = unsafe { OperationRef::from_raw(call) };
            let name = op_name(&call);
            let Some(kind) = IntrinsicKind::from_op(&name) else { continue };
            let what = format!("{} of {}", kind.decl().params.cpp, spec.op);
            let mapped = call_shape(spec, kind, false)
                .is_ok_and(|shape| kind == IntrinsicKind::Mmad || rows_per_call(kind, &shape).is_some());
            if !mapped {
                report.unchecked.push(format!("{}: {what}: no element mapping", spec.location));
                continue;
            }
            let start = Instant::now();
            // First under weaker facts (the user's values free, the path's divisions by
            // non-constants fresh); a counterexample there is asked again exactly.
            let weak = obligation(call, kind, (spec, chunk), opts.size_limit, Some(&users));
            let exact = || obligation(call, kind, (spec, chunk), opts.size_limit, None);
            let verdict = decide_weakened(weak, exact, opts);
            report.tensors.push(TensorProof {
                tensor: what,
                side_function: name,
                location: Some(spec.location.clone()),
                verdict,
                elapsed: start.elapsed(),
            });
        }
    }
    Ok(report)
}

type Res<T> = std::result::Result<T, String>;

/// A value the user's code computed that some call's layouts read (a tile corner from a
/// swizzle), and the name of the free constant it is in a weakened obligation.
type UserValue = (MlirValue, String);

/// Each user value with whether it is proven to lie in `[0, size_limit)` wherever it is
/// computed ([`range_lemma`]): a fact of the exact obligations (the value's code and path are
/// part of every call's facts that reads it), kept in the weakened ones.
fn in_range(users: Vec<UserValue>, opts: &AddressProofOptions) -> Vec<FreeValue> {
    users
        .into_iter()
        .map(|(raw, name)| {
            // Safety: a live value of the lowered copy.
            let value = unsafe { Value::from_raw(raw) };
            let proven = range_lemma(value, opts.size_limit, opts) == Ok(true);
            (raw, name, proven)
        })
        .collect()
}

/// Whether `value` lies in `[0, size_limit)` wherever it is computed: two queries (the lower
/// and the upper bound), each `facts ∧ ¬bound`, where the facts are the user's code of `value`
/// (assumed defined, as in [`Goal::new`]), `lo ≤ iv < hi` of each enclosing loop and the
/// arguments' ranges — all of them among the exact facts of a call that reads `value` (its
/// definition dominates the call). A loop's step is left out (fewer facts: still sound).
fn range_lemma(value: Value, size_limit: i64, opts: &AddressProofOptions) -> Res<bool> {
    let def = layout_passes::ir::defining_op(value).ok_or("a user value without a definition")?;
    let entry = entry_block(&def).ok_or("a value outside a function")?;
    let mut t = Translator::new(entry);
    let term = t.int(value)?;
    let mut facts = Vec::new();
    let mut parent = def.parent_operation();
    while let Some(p) = parent {
        if op_name(&p) == "scf.for" {
            let block = p.region(0).ok().and_then(|r| r.first_block()).ok_or("a loop without a body")?;
            let iv = t.int(block.argument(0).map_err(|e| e.to_string())?.into())?;
            let (lo, hi) =
                (t.int(p.operand(0).map_err(|e| e.to_string())?)?, t.int(p.operand(1).map_err(|e| e.to_string())?)?);
            facts.push(format!("(<= {lo} {iv})"));
            facts.push(format!("(< {iv} {hi})"));
        }
        parent = p.parent_operation();
    }
    facts.append(&mut t.defined);
    facts.extend(argument_facts(&mut t, size_limit));
    for bound in [format!("(<= 0 {term})"), format!("(< {term} {size_limit})")] {
        let mut negated = facts.clone();
        negated.push(format!("(not {bound})"));
        let answers = index_simplify::smt::check(&[t.query(negated)], opts.timeout).map_err(|e| e.to_string())?;
        if !matches!(answers.as_slice(), [index_simplify::smt::Answer::Unsat]) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A user value in a weakened obligation: its free constant's name, and whether the value is
/// proven to lie in `[0, size_limit)` (then so does the constant).
type FreeValue = (MlirValue, String, bool);

/// Every symbol value of the side table that the user's code computed (an op the lowering
/// does not emit as a leaf, [`lowering_leaf`]), once, each named `user.SYMBOL` (primed when
/// two values share a symbol name). An `scf.for` iter_arg is not among them: the translation
/// does not read it, and [`Goal::new`] already makes it a free constant in its range.
fn user_values(table: &[CopySpec]) -> Vec<UserValue> {
    let mut users: Vec<UserValue> = Vec::new();
    for spec in table {
        for (symbol, raw) in &spec.symbols {
            // Safety: the table's values are alive in the lowered copy.
            let value = unsafe { Value::from_raw(*raw) };
            let computed = layout_passes::ir::defining_op(value).is_some_and(|op| !lowering_leaf(&op));
            if !computed || users.iter().any(|(v, _)| v.ptr == raw.ptr) {
                continue;
            }
            let mut name = format!("user.{symbol}");
            while users.iter().any(|(_, n)| *n == name) {
                name.push('\'');
            }
            users.push((value.to_raw(), name));
        }
    }
    users
}

/// The call columns `[start, end)` each call of `spec` covers when the copy is split into
/// several calls of the same kind along them (`element_map::columns_per_call`, static counts):
/// each call is claimed for its own columns, the last one up to the valid region's end.
/// `None` for a copy of one call (or counts that are not constants: claimed whole, per call).
fn chunks(spec: &CopySpec) -> Vec<Option<(i64, Option<i64>)>> {
    let none = vec![None; spec.calls.len()];
    if spec.calls.len() < 2 {
        return none;
    }
    let mut widths = Vec::new();
    for &raw in &spec.calls {
        // Safety: the ops are alive (the copy is not changed while proving).
        let call = unsafe { OperationRef::from_raw(raw) };
        let Some(kind) = IntrinsicKind::from_op(&op_name(&call)) else { return none };
        let (Ok(f), Ok(shape)) = (fields(call, kind), call_shape(spec, kind, false)) else { return none };
        let field = |name: &'static str| f.constants.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
        let constant = |name: &'static str| field(name).unwrap_or(-1);
        match columns_per_call(kind, &constant, &shape) {
            Ok(Some(w)) if field("repeatTimes").is_some() && w >= 0 => widths.push(w),
            _ => return none,
        }
    }
    let mut start = 0i64;
    let mut out = Vec::new();
    for (k, w) in widths.iter().enumerate() {
        let end = start.saturating_add(*w);
        out.push(Some((start, (k + 1 < widths.len()).then_some(end))));
        start = end;
    }
    out
}

/// The integer fields of an `ascendc.*` op: the `params` constants and the `dyn_fields`
/// operands after the buffers.
struct Fields<'c, 'a> {
    constants: Vec<(String, i64)>,
    flags: Vec<(String, bool)>,
    dynamic: Vec<(String, Value<'c, 'a>)>,
}

fn fields<'c, 'a>(call: OperationRef<'c, 'a>, kind: IntrinsicKind) -> Res<Fields<'c, 'a>> {
    let params = call.attribute("params").map_err(|e| e.to_string())?.to_raw();
    let names = call.attribute("dyn_fields").map_err(|e| e.to_string())?.to_raw();
    let text = |s: mlir_sys::MlirStringRef| {
        // Safety: a string reference into the context.
        let bytes = unsafe { std::slice::from_raw_parts(s.data as *const u8, s.length) };
        String::from_utf8_lossy(bytes).into_owned()
    };
    let mut constants = Vec::new();
    let mut flags = Vec::new();
    let mut dynamic = Vec::new();
    // Safety: attribute queries on the op's own attributes, checked for their kind.
    unsafe {
        if !mlir_sys::mlirAttributeIsADictionary(params) || !mlir_sys::mlirAttributeIsAArray(names) {
            return Err(format!("'{}' without params / dyn_fields", op_name(&call)));
        }
        for i in 0..mlir_sys::mlirDictionaryAttrGetNumElements(params) {
            let entry = mlir_sys::mlirDictionaryAttrGetElement(params, i);
            // A BoolAttr is an IntegerAttr of i1 too: test it first.
            let name = text(mlir_sys::mlirIdentifierStr(entry.name));
            if mlir_sys::mlirAttributeIsABool(entry.attribute) {
                flags.push((name, mlir_sys::mlirBoolAttrGetValue(entry.attribute)));
            } else if mlir_sys::mlirAttributeIsAInteger(entry.attribute) {
                constants.push((name, mlir_sys::mlirIntegerAttrGetValueInt(entry.attribute)));
            }
        }
        let first = kind.buffer_count();
        for i in 0..mlir_sys::mlirArrayAttrGetNumElements(names) {
            let name = mlir_sys::mlirArrayAttrGetElement(names, i);
            if !mlir_sys::mlirAttributeIsAString(name) {
                return Err("a dyn_fields entry that is not a string".into());
            }
            let value = call.operand(first + i as usize).map_err(|e| e.to_string())?;
            dynamic.push((text(mlir_sys::mlirStringAttrGetValue(name)), value));
        }
    }
    Ok(Fields { constants, flags, dynamic })
}

/// The inner fractal of a `((r_in, r_out), (c_in, c_out))` layout: static extents, and
/// row-major when the column stride inside it is 1.
fn fractals(layout: &layout_algebra::Layout<SymExpr>) -> Option<Fractals> {
    let at = |t: &layout_algebra::Tuple<SymExpr>, path: &[usize]| t.get_path(path).ok()?.as_int()?.as_constant();
    Some(Fractals {
        rows: at(layout.shape(), &[0, 0])?,
        cols: at(layout.shape(), &[1, 0])?,
        row_major: at(layout.stride(), &[1, 0])? == 1,
    })
}

/// The symbol a field stands for in the element mapping's formulas.
fn field_symbol(name: &str) -> String {
    format!("f.{name}")
}

fn add(a: &SymExpr, b: &SymExpr) -> Res<SymExpr> {
    a.add(b).map_err(|e| e.to_string())
}

fn int_term(e: &SymExpr) -> Res<String> {
    let e = IndexExpr::from(e);
    if !encode::int_expressible(&e) {
        return Err(format!("{e} has bit operations"));
    }
    Ok(encode::encode(&e, encode::Theory::Int, encode::Semantics::Checked).value)
}

/// The mapping's view of a call of `spec`: element size, the first source's fractals, target;
/// for `LoadData2DParamsV2` (`transpose`: its `ifTranspose`) which mode its "m" runs along.
fn call_shape(spec: &CopySpec, kind: IntrinsicKind, transpose: bool) -> Res<CallShape> {
    let src = spec.srcs.first().ok_or("a call without a source")?;
    // Mmad's mapping is in A's and B's elements; the copies' in the destination's.
    let elem_bytes = if kind == IntrinsicKind::Mmad { src.elem_bytes } else { spec.dst.elem_bytes };
    let fractals = fractals(&src.layout);
    // The witness (any choice is sound, a wrong one fails the proof): m is the mode whose
    // fractals are contiguous (outer stride F) in the destination, or with the transpose in
    // the source.
    let contiguous_rows = |layout: &layout_algebra::Layout<SymExpr>| {
        let f = fractals.map(|f| f.rows * f.cols);
        layout.stride().get_path(&[0, 1]).ok().and_then(|t| t.as_int()?.as_constant()) == f
    };
    let m_along_rows = contiguous_rows(if transpose { &src.layout } else { &spec.dst.layout });
    Ok(CallShape { elem_bytes, fractals, target: spec.target, m_along_rows })
}

/// What one obligation accumulates: the translator, the facts, the claims and the fields the
/// mapping read.
struct Goal {
    t: Translator,
    facts: Vec<String>,
    claims: Vec<String>,
    used: std::cell::RefCell<Vec<&'static str>>,
    /// Weakened ([`Goal::new`]): the path's divisions by non-constants are fresh constants,
    /// and these user values free constants (the range facts of those proven in range).
    weakened: Option<Vec<FreeValue>>,
}

impl Goal {
    /// The symbol of field `name`, remembered for [`Goal::finish`].
    fn field(&self, name: &'static str) -> SymExpr {
        if !self.used.borrow().contains(&name) {
            self.used.borrow_mut().push(name);
        }
        SymExpr::sym(&field_symbol(name))
    }

    /// The symbols of the layouts bound to the user's values, and the coordinate symbols.
    /// With `weakened` (every user value of the table, [`user_values`]) the facts are weaker,
    /// so a proof still holds but a model may be no run: each of those values is a free
    /// constant wherever the query reads it (its own layouts, the fields' code, the path), and
    /// a quotient or remainder by a non-constant that only the path reads is a fresh constant
    /// ([`Translator::path_weakened`]).
    fn new(
        call: OperationRef,
        spec: &CopySpec,
        size_limit: i64,
        coords: &[&str],
        weakened: Option<&[FreeValue]>,
    ) -> Res<Self> {
        let entry = entry_block(&call).ok_or("a call outside a function")?;
        let mut t = Translator::new(entry);
        for (raw, name, _) in weakened.unwrap_or_default() {
            // Safety: a live value of the lowered copy.
            t.abstract_if_read(unsafe { Value::from_raw(*raw) }, name);
        }
        let mut facts = Vec::new();
        // The layouts' symbols are the values the user's code gave the layout ops (sizes, tile
        // coordinates): read as that code computes them, assumed defined (only the lowering's
        // code, the fields, is claimed); a value the translation does not read is any value in
        // `[0, size_limit)`.
        for (symbol, raw) in &spec.symbols {
            // Safety: the table's values are alive in the lowered copy.
            let value = unsafe { Value::from_raw(*raw) };
            let term = match t.int(value) {
                Ok(term) => term,
                // A coordinate in a tensor of sizes below `size_limit` (an `scf.for` iter_arg).
                Err(_) => {
                    t.abstract_value(value, symbol);
                    let term = t.int(value)?;
                    facts.push(format!("(<= 0 {term})"));
                    facts.push(format!("(< {term} {size_limit})"));
                    term
                }
            };
            facts.push(format!("(= {} {term})", encode::symbol(symbol)));
            t.declare(symbol);
        }
        facts.append(&mut t.defined);
        for c in coords {
            t.declare(c);
        }
        Ok(Goal { t, facts, claims: Vec::new(), used: Default::default(), weakened: weakened.map(<[_]>::to_vec) })
    }

    /// `0 ≤ coord < extent` for each pair, as facts.
    fn inside(&mut self, pairs: &[(&SymExpr, &SymExpr)]) -> Res<()> {
        for (x, extent) in pairs {
            self.facts.push(format!("(<= 0 {})", int_term(x)?));
            self.facts.push(format!("(< {} {})", int_term(x)?, int_term(extent)?));
        }
        Ok(())
    }

    /// Claimed: every index of the mapping inside its extent.
    fn indices(&mut self, e: &Element<SymExpr>) -> Res<()> {
        for (_, value, extent) in &e.indices {
            self.claims.push(format!("(<= 0 {})", int_term(value)?));
            self.claims.push(format!("(< {} {})", int_term(value)?, int_term(extent)?));
        }
        Ok(())
    }

    /// Claimed: `off + l·step + offset = base + crd_to_offset(layout, coord)` of `operand`;
    /// both sides named `who.lowered` / `who.algebra` for a counterexample.
    fn address(
        &mut self,
        (who, off, step): (&str, &'static str, &'static str),
        l: &SymExpr,
        offset: &SymExpr,
        (operand, coord): (&OperandSpec, &[SymExpr; 2]),
    ) -> Res<()> {
        let start = add(&self.field(off), &l.mul(&self.field(step)).map_err(|e| e.to_string())?)?;
        let lowered = int_term(&add(&start, offset)?)?;
        let algebra = add(&operand.base, &algebra_address(&operand.layout, &operand.coord, coord)?)?;
        let algebra = int_term(&algebra)?;
        let (lowered_name, algebra_name) = (format!("{who}.lowered"), format!("{who}.algebra"));
        self.t.declare_unbounded(&lowered_name);
        self.t.declare_unbounded(&algebra_name);
        self.facts.push(format!("(= {} {lowered})", encode::symbol(&lowered_name)));
        self.facts.push(format!("(= {} {algebra})", encode::symbol(&algebra_name)));
        self.claims.push(format!("(= {lowered} {algebra})"));
        Ok(())
    }

    /// The fields' values, the derivation's conditions, the path and the arguments: the
    /// negated claims and the facts alone.
    fn finish(
        mut self,
        call: OperationRef,
        op_fields: &Fields,
        spec: &CopySpec,
        size_limit: i64,
    ) -> Res<(Query, Query)> {
        let (t, facts) = (&mut self.t, &mut self.facts);
        // The fields' values: constants, or the op's index operands (whose code is claimed).
        for name in self.used.into_inner() {
            let term = match op_fields.constants.iter().find(|(n, _)| n == name) {
                Some((_, c)) => c.to_string(),
                None => match op_fields.dynamic.iter().find(|(n, _)| n == name) {
                    Some((_, value)) => t.int(*value)?,
                    // A call-site field the op leaves out (`step` of a single call) is 0.
                    None if name.starts_with("step") => "0".to_string(),
                    None => return Err(format!("'{}' has no field {name}", op_name(&call))),
                },
            };
            facts.push(format!("(= {} {term})", encode::symbol(&field_symbol(name))));
            t.declare(&field_symbol(name));
        }
        // The derivation's undecided conditions: the kernel checks them before the call.
        for (k, a) in spec.assumptions.iter().enumerate() {
            let value = int_term(&a.value)?;
            facts.push(match &a.requirement {
                Requirement::InRange { min, max } => format!("(and (<= {min} {value}) (<= {value} {max}))"),
                // A congruence is a definition `value = unit·q` (docs/index-simplification.md §13).
                Requirement::MultipleOf(unit) => {
                    let q = format!("assume.q{k}");
                    t.declare_unbounded(&q);
                    format!("(= {value} (* {unit} {}))", encode::symbol(&q))
                }
                Requirement::Equals(other) => format!("(= {value} {})", int_term(other)?),
            });
        }
        facts.extend(if self.weakened.is_some() { t.path_weakened(&call)? } else { t.path_assumed(&call)? });
        facts.extend(argument_facts(t, size_limit));
        // A free constant the query reads stands for a value proven in range.
        for (_, name, in_range) in self.weakened.iter().flatten() {
            if *in_range && t.reads(name) {
                let c = encode::symbol(name);
                facts.push(format!("(<= 0 {c})"));
                facts.push(format!("(< {c} {size_limit})"));
            }
        }
        // The fields, the layout symbols and the mapping's names are defined by equations:
        // z3's `solve-eqs` eliminates them first (`Query::presolve`).
        let presolved = |mut q: Query| {
            q.presolve = true;
            q
        };
        let reachable = presolved(t.query(facts.clone()));
        self.claims.push(encode::conj(&t.defined));
        facts.push(format!("(not {})", encode::conj(&self.claims)));
        Ok((presolved(t.query(facts.clone())), reachable))
    }
}

/// `facts ∧ ¬(x is moved by the call ∧ both addresses equal the algebra ∧ no intermediate
/// overflows)` for one copy call, and the facts alone.
fn obligation(
    call: OperationRef,
    kind: IntrinsicKind,
    (spec, chunk): (&CopySpec, Option<(i64, Option<i64>)>),
    size_limit: i64,
    weakened: Option<&[FreeValue]>,
) -> Res<(Query, Query)> {
    if kind == IntrinsicKind::Mmad {
        return mmad_obligation(call, spec, size_limit, weakened);
    }
    let mut g = Goal::new(call, spec, size_limit, &["x.row", "x.col"], weakened)?;
    let op_fields = fields(call, kind)?;
    let src = spec.srcs.first().ok_or("a copy without a source")?;
    // The coordinate inside both valid regions, and the call's (row, col) of it.
    let (xr, xc) = (SymExpr::sym("x.row"), SymExpr::sym("x.col"));
    for origin in [src.layout.origin().leaves(), spec.dst.layout.origin().leaves()] {
        let [rows, cols] = origin.as_slice() else { return Err("a copy of rank other than 2".into()) };
        g.inside(&[(&xr, rows), (&xc, cols)])?;
    }
    let flag = |name: &'static str| op_fields.flags.iter().any(|(n, v)| n == name && *v);
    let shape = call_shape(spec, kind, flag("ifTranspose"))?;
    let swap = spec.transposed != calls_along_columns(kind, &shape);
    let (row, col) = if swap { (xc.clone(), xr.clone()) } else { (xr.clone(), xc.clone()) };
    // One call of a split copy: the columns from its start (to the next call's start).
    let col = match chunk {
        None => col,
        Some((start, end)) => {
            g.facts.push(format!("(<= {start} {})", int_term(&col)?));
            if let Some(end) = end {
                g.facts.push(format!("(< {} {end})", int_term(&col)?));
            }
            col.sub(&SymExpr::Const(start)).map_err(|e| e.to_string())?
        }
    };
    // The loop of calls advances by whole calls: row = l·rows + r, r < rows (a definition of
    // l and r when rows ≥ 1, which is claimed); a single call is l = 0.
    let single = op_fields.constants.iter().any(|(n, v)| n == "repeat" && *v == 1);
    let (l, row) = if single {
        (SymExpr::Const(0), row)
    } else {
        let per_call = match rows_per_call(kind, &shape).ok_or("no rows per call")? {
            RowsPerCall::Field(name) => g.field(name),
            RowsPerCall::Elements(n) => SymExpr::Const(n),
        };
        g.field("repeat");
        g.t.declare("call.l");
        g.t.declare("call.row");
        let (l, r) = (int_term(&SymExpr::sym("call.l"))?, int_term(&SymExpr::sym("call.row"))?);
        let (n, whole) = (int_term(&per_call)?, int_term(&row)?);
        g.facts.push(format!("(=> (>= {n} 1) (and (= {whole} (+ (* {l} {n}) {r})) (<= 0 {r}) (< {r} {n})))"));
        // l·n ≥ n for l ≥ 1 and n ≥ 0 (true of all integers: the solver's nonlinear hint).
        g.facts.push(format!("(=> (and (>= {l} 1) (>= {n} 0)) (>= (* {l} {n}) {n}))"));
        g.claims.push(format!("(>= {n} 1)"));
        g.claims.push(format!("(<= 0 {l})"));
        let repeat = int_term(&g.field("repeat"))?;
        g.claims.push(format!("(< {l} {repeat})"));
        (SymExpr::sym("call.l"), SymExpr::sym("call.row"))
    };
    let field = |name: &'static str| g.field(name);
    let e = element(kind, &field, &flag, &shape, &row, &col).map_err(|e| e.to_string())?.ok_or("no element mapping")?;
    g.indices(&e)?;
    let x = [xr, xc];
    g.address(("dst", "off0", "step0"), &l, &e.dst, (&spec.dst, &x))?;
    g.address(("src", "off1", "step1"), &l, &e.srcs[0], (src, &x))?;
    g.finish(call, &op_fields, spec, size_limit)
}

/// `Mmad`: for `(i, j)` inside C's valid region and A's rows and B's columns, and `kk` inside
/// A's valid columns and B's valid rows, the product `(i, j, kk)` is one the call computes
/// (`i < m`, `j < n`, `kk < k`), and the C, A and B elements its mapping reads and writes are
/// the algebra's `(i, j)` of C, `(i, kk)` of A and `(kk, j)` of B.
fn mmad_obligation(
    call: OperationRef,
    spec: &CopySpec,
    size_limit: i64,
    weakened: Option<&[FreeValue]>,
) -> Res<(Query, Query)> {
    let mut g = Goal::new(call, spec, size_limit, &["x.i", "x.j", "x.k"], weakened)?;
    let op_fields = fields(call, IntrinsicKind::Mmad)?;
    let [a, b] = spec.srcs.as_slice() else { return Err("a matmul without A and B".into()) };
    let (i, j, kk) = (SymExpr::sym("x.i"), SymExpr::sym("x.j"), SymExpr::sym("x.k"));
    let extents = |o: &OperandSpec| -> Res<[SymExpr; 2]> {
        o.layout.origin().leaves().try_into().map_err(|_| "an operand of rank other than 2".to_string())
    };
    let ([am, ak], [bk, bn], [cm, cn]) = (extents(a)?, extents(b)?, extents(&spec.dst)?);
    g.inside(&[(&i, &am), (&kk, &ak), (&kk, &bk), (&j, &bn), (&i, &cm), (&j, &cn)])?;
    let shape = call_shape(spec, IntrinsicKind::Mmad, false)?;
    let flag = |name: &'static str| op_fields.flags.iter().any(|(n, v)| n == name && *v);
    let field = |name: &'static str| g.field(name);
    let e = mmad_element(&field, &flag, &shape, (&i, &j, &kk))
        .map_err(|e| e.to_string())?
        .ok_or("no element mapping (GEMV mode with a dynamic m)")?;
    g.indices(&e)?;
    let zero = SymExpr::Const(0);
    g.address(("c", "off0", "step0"), &zero, &e.dst, (&spec.dst, &[i.clone(), j.clone()]))?;
    g.address(("a", "off1", "step1"), &zero, &e.srcs[0], (a, &[i, kk.clone()]))?;
    g.address(("b", "off2", "step2"), &zero, &e.srcs[1], (b, &[kk, j]))?;
    g.finish(call, &op_fields, spec, size_limit)
}
