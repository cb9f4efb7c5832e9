//! Derived instructions → `ascendc.*` ops.
//!
//! Every integer field of the parameter struct, and the call-site fields `repeat`, `off<k>`,
//! `step<k>` (operand k: 0 = destination, then the sources), is either static — an `i64` entry of
//! the `params` dictionary — or dynamic: an index expression, simplified with
//! `index_simplify::simplify` (facts: [`super::facts::SymbolFacts`], the enclosing loops' ranges
//! and congruences within the standing `[0, 2^40)` of a size or coordinate),
//! emitted with [`IndexEmitter`] under the same facts (shifts and masks as simplified, no
//! division the facts make a shift) before the op and passed as a `dyn` operand named in
//! `dyn_fields`. Booleans and the quant mode are always static. `notes` carries the operands'
//! CuTe layouts and the conditions `ascendc-params` could not decide statically: `assumes` for
//! those left to the running kernel, `proven from the loop` for those the loop facts prove
//! (those that hold for every value of the symbols are dropped).

use ascendc_params::decl::StaticValue;
use ascendc_params::{Assumption, Derived, Intrinsic, Requirement, Target};
use index_simplify::IndexExpr;
use layout_algebra::SymExpr;
use layout_dialect::tensor_layout::layout_strings;
use melior::{
    ir::{
        block::BlockLike,
        operation::{OperationBuilder, OperationLike},
        Attribute, Identifier, OperationRef, Value,
    },
    Context,
};

use super::error::AscendcError;
use super::facts::{simplified_value, standing_of, symbols_of, Standing, SymbolFacts};
use super::Tensor;
use crate::error::LoweringError;
use crate::index_arith::IndexEmitter;

/// (op name, integer fields, static boolean/enum attributes as `name = value` text), all read
/// from the declaration (`ascendc_params::decl`): every `int` field, and every `flag`/`quant`
/// field but those the call leaves unset (`omit`) and an a5-only flag that is not set (the
/// 2201 struct has no such field).
fn fields(intr: &Intrinsic<SymExpr>) -> (&'static str, Vec<(&'static str, SymExpr)>, Vec<String>) {
    let decl = intr.decl();
    let ints = intr.fields().into_iter().map(|(n, v)| (n, v.clone())).collect();
    let written = |(name, value): &(&str, StaticValue)| {
        !decl.omit.contains(name) && (!decl.a5_only.contains(name) || *value == StaticValue::Bool(true))
    };
    let statics = intr
        .static_fields()
        .into_iter()
        .filter(written)
        .map(|(name, value)| match value {
            StaticValue::Bool(b) => format!("{name} = {b}"),
            StaticValue::Quant(q) => format!("{name} = {}", quote(q)),
        })
        .collect();
    (decl.op, ints, statics)
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// `a` as text, with `value` written for its value (the value itself, or its simplified form).
fn assumption_text(a: &Assumption<SymExpr>, value: &dyn std::fmt::Display) -> String {
    let req = match &a.requirement {
        Requirement::InRange { min, max } => format!("in [{min}, {max}]"),
        Requirement::MultipleOf(u) => format!("multiple of {u}"),
        Requirement::Equals(v) => format!("== {v}"),
    };
    format!("{}.{} = {value} {req}", a.instr, a.field)
}

fn cute(t: &Tensor) -> String {
    let (l, o) = layout_strings(&t.layout);
    format!("{l} origin {o}")
}

/// Reader notes `(key, text)` added to an op's `notes`.
pub(crate) type Notes<'a> = &'a [(&'a str, String)];
/// Attributes `(name, attribute text)` set on an op.
pub(crate) type OpAttributes<'a> = &'a [(&'a str, &'a str)];

/// Emits the ops of `derived` before `anchor` and returns them. `dst` and `srcs` are the
/// intrinsic's operands in call order (Mmad: C, then A and B).
///
/// `extra_notes` are added to `notes` as they are; `op_attributes` (`name`, attribute text) are
/// set on every op emitted (the store's `atomic = "add"` on its Fixpipe). Every symbol of the `assumes` note is also
/// passed as a `dyn` operand named `sym:NAME` (its bound index value), so that a printer can
/// write the condition with its own names for those values.
pub(crate) fn emit<'c>(
    context: &'c Context,
    anchor: OperationRef<'c, 'c>,
    derived: &Derived<SymExpr>,
    dst: &Tensor<'c, 'c>,
    srcs: &[&Tensor<'c, 'c>],
    _target: Target,
    (extra_notes, op_attributes): (Notes, OpAttributes),
) -> Result<Vec<mlir_sys::MlirOperation>, AscendcError> {
    let location = anchor.location();
    let block = anchor.block().ok_or_else(|| AscendcError::IrShape("op outside a block".into()))?;
    let binds = || std::iter::once(dst).chain(srcs.iter().copied()).flat_map(|t| t.binds.iter().cloned());
    let facts = SymbolFacts::of(binds());
    let mut emitter =
        IndexEmitter::new(context, location, facts.assumed.clone(), |op| block.insert_operation_before(anchor, op));
    for (s, v) in binds() {
        emitter.bind(&s, v);
    }
    let mut notes = vec![];
    let mut emitted = Vec::new();
    let names: &[&str] = if srcs.len() == 2 { &["c", "a", "b"] } else { &["dst", "src"] };
    for (n, t) in names.iter().zip(std::iter::once(dst).chain(srcs.iter().copied())) {
        notes.push(format!("{n} = {}", quote(&cute(t))));
    }
    for (k, v) in extra_notes {
        notes.push(format!("{k} = {}", quote(v)));
    }
    // Assumptions the loops prove are noted as such, those that always hold are dropped.
    let mut symbols: Vec<String> = Vec::new();
    // Each standing is a proof (two simplifications): decided once per assumption.
    let standings: Vec<Standing> = derived.assumptions.iter().map(|a| standing_of(a, &facts)).collect();
    for (standing, key) in [(Standing::RunTime, "assumes"), (Standing::FromLoop, "\"proven from the loop\"")] {
        let listed: Vec<&Assumption<SymExpr>> =
            derived.assumptions.iter().zip(&standings).filter(|(_, s)| **s == standing).map(|(a, _)| a).collect();
        if listed.is_empty() {
            continue;
        }
        let text: Vec<String> = match standing {
            Standing::FromLoop => listed.iter().map(|a| assumption_text(a, &simplified_value(a, &facts))).collect(),
            _ => listed.iter().map(|a| assumption_text(a, &a.value)).collect(),
        };
        notes.push(format!("{key} = {}", quote(&text.join("; "))));
        for s in listed.iter().flat_map(|a| symbols_of(a)) {
            if !symbols.contains(&s) {
                symbols.push(s);
            }
        }
    }
    for ins in &derived.instrs {
        let (name, mut ints, flags) = fields(&ins.intrinsic);
        // An operand's offsets are in its buffer: its base (the batch offset of one matrix of a
        // batch form, `Tensor::base`) plus the offset the derivation gives in its layout.
        let in_buffer = |t: &Tensor, offset: &SymExpr| -> Result<SymExpr, AscendcError> {
            Ok(layout_algebra::IndexValue::add(&t.base, offset).map_err(LoweringError::from)?)
        };
        ints.push(("repeat", ins.repeat.clone()));
        ints.push(("off0", in_buffer(dst, &ins.dst.offset)?));
        ints.push(("step0", ins.dst.step.clone()));
        for (k, s) in ins.srcs.iter().enumerate() {
            let offset = match srcs.get(k) {
                Some(t) => in_buffer(t, &s.offset)?,
                None => s.offset.clone(),
            };
            ints.push((["off1", "off2"].get(k).copied().unwrap_or("off3"), offset));
            ints.push((["step1", "step2"].get(k).copied().unwrap_or("step3"), s.step.clone()));
        }
        let mut params = flags;
        let mut dyn_fields = Vec::new();
        let mut dyn_values: Vec<Value> = Vec::new();
        for (field, value) in ints {
            match facts.simplify(&value) {
                IndexExpr::Const(c) => params.push(format!("{field} = {c} : i64")),
                value => {
                    dyn_fields.push(quote(field));
                    dyn_values.push(emitter.emit(&value).map_err(LoweringError::IndexEmit)?);
                }
            }
        }
        for s in &symbols {
            dyn_fields.push(quote(&format!("sym:{s}")));
            dyn_values.push(emitter.emit(&IndexExpr::sym(s)).map_err(LoweringError::IndexEmit)?);
        }
        let mut operands: Vec<Value> = vec![dst.buffer];
        operands.extend(srcs.iter().map(|t| t.buffer));
        operands.extend(dyn_values);
        let attr = |text: String| {
            Attribute::parse(context, &text)
                .ok_or_else(|| AscendcError::internal(format!("cannot build attribute {text}")))
        };
        let mut attributes = vec![
            (Identifier::new(context, "params"), attr(format!("{{{}}}", params.join(", ")))?),
            (Identifier::new(context, "dyn_fields"), attr(format!("[{}]", dyn_fields.join(", ")))?),
            (Identifier::new(context, "notes"), attr(format!("{{{}}}", notes.join(", ")))?),
        ];
        for (name, text) in op_attributes {
            attributes.push((Identifier::new(context, name), attr(text.to_string())?));
        }
        let op = OperationBuilder::new(name, location)
            .add_operands(&operands)
            .add_attributes(&attributes)
            .build()
            .map_err(AscendcError::internal)?;
        emitted.push(block.insert_operation_before(anchor, op).to_raw());
    }
    Ok(emitted)
}
