//! The kernel's own accesses, proven (issue 15 item 3): the loop lowering runs with access
//! witnesses (`layout_passes::lower_to_loops::witness`), then the JIT hook's simplification;
//! for every `memref.load`/`memref.store` tagged `layout.access = N`, the simplified index
//! operand is translated ([`super::translate`]) in its own function, under the facts of its
//! path (the copy's loops, the contract guards, the user's loops), and compared with
//! `base + crd_to_offset` of the recorded layout at the values the witness call `@__layout_access_N`
//! receives (a value the user's code computed, such as a tile coordinate, stands for any value
//! the guards on the path admit). Index arguments of the kernel range over `[0, size_limit)`,
//! the block index over `[0, block_num)` with `block_num` in that range. Each access is first
//! proven under weaker facts (every user value any witness receives free, quotients by
//! non-constants only the path reads fresh); a counterexample there is asked
//! again exactly ([`decide_weakened`]). An access the simplification deleted (a
//! loop it proved empty) is listed as not covered.

use std::collections::HashMap;
use std::time::Instant;

use index_simplify::smt::{check, encode, Query};
use layout_passes::ir::op_name;
use layout_passes::lower_to_loops::{self, witness, AccessSpec};
use layout_passes::verify::Rules;
use melior::ir::{
    attribute::FlatSymbolRefAttribute, operation::OperationLike, AttributeLike, Module, OperationRef, RegionLike,
    ValueLike,
};
use mlir_sys::{MlirOperation, MlirValue};

use super::translate::{Translator, BLOCK_IDX, BLOCK_NUM};
use super::{
    algebra_address, decide, goal, AddressProofOptions, AddressProofReport, AddressVerdict, ProofSubject, TensorProof,
};
use crate::Result;

/// Proves every load and store of the lowered `module` after the JIT hook's simplification.
pub fn prove_accesses(module: &Module, opts: &AddressProofOptions) -> Result<AddressProofReport> {
    prove_accesses_with(module, Rules::default(), &crate::layout_lowering::simplify_lowered, opts)
}

/// [`prove_accesses`] with `rules` and `after_lowering` in place of the simplification (tests
/// inject a wrong rewrite there).
pub fn prove_accesses_with(
    module: &Module,
    rules: Rules,
    after_lowering: &dyn Fn(&mut Module) -> Result<()>,
    opts: &AddressProofOptions,
) -> Result<AddressProofReport> {
    let start = Instant::now();
    let options = lower_to_loops::Options { witness_accesses: true, rules, ..Default::default() };
    let (copy, lowered) = crate::self_check::lower_with(module, &options, after_lowering, "access proof")?;
    let mut report =
        AddressProofReport { lowering_time: start.elapsed(), subject: ProofSubject::Accesses, ..Default::default() };
    let (accesses, witnesses) = tagged(&copy);
    let users = user_values(&lowered.accesses, &witnesses);
    for spec in &lowered.accesses {
        let (Some(ops), Some(&call)) = (accesses.get(&spec.id), witnesses.get(&spec.id)) else {
            report.unchecked.push(format!("{}: {}: removed by the simplification", spec.location, spec.access));
            continue;
        };
        for &op in ops {
            let start = Instant::now();
            // Safety: the ops are alive (the module is not changed while proving).
            let (op, call) = unsafe { (OperationRef::from_raw(op), OperationRef::from_raw(call)) };
            let weak = obligation(op, call, spec, opts.size_limit, Some(&users));
            let verdict = decide_weakened(weak, || obligation(op, call, spec, opts.size_limit, None), opts);
            report.tensors.push(TensorProof {
                tensor: spec.access.clone(),
                side_function: format!("{}{}", witness::WITNESS_PREFIX, spec.id),
                location: Some(spec.location.clone()),
                verdict,
                elapsed: start.elapsed(),
            });
        }
    }
    Ok(report)
}

/// An obligation: the negated claim and the facts alone (what `goal` builds).
pub type Obligation = std::result::Result<(Query, Query), String>;

/// The verdict on an access from its `weak` obligation (weaker facts: its proof is one of the
/// exact obligation) and, only when `weak` has a counterexample (which may be no run of the
/// kernel), the `exact` one ([`decide_exactly`]): a weakening never yields a counterexample
/// the exact facts do not have.
pub fn decide_weakened(
    weak: Obligation,
    exact: impl FnOnce() -> Obligation,
    opts: &AddressProofOptions,
) -> AddressVerdict {
    match decide(weak, opts) {
        AddressVerdict::Counterexample(values) => match decide_exactly(exact(), &values, opts) {
            AddressVerdict::Unknown(why) => AddressVerdict::Unknown(format!(
                "a counterexample under the weakened facts, not decided exactly: {why}"
            )),
            verdict => verdict,
        },
        verdict => verdict,
    }
}

/// The verdict on the exact obligation of an access whose weakened obligation has the
/// counterexample `weak`. First with the kernel's inputs (arguments, sizes, the block index
/// and count) fixed to their values in `weak`: that query only adds equations to the exact
/// one, so a model of it is a counterexample of the exact obligation, and with
/// the sizes fixed the user's divisions are by constants. When it has none (the weakened
/// model's sizes reach no run of the access), the exact obligation itself.
pub fn decide_exactly(
    exact: Obligation,
    weak: &[(String, index_simplify::smt::ModelValue)],
    opts: &AddressProofOptions,
) -> AddressVerdict {
    let (negated, reachable) = match exact {
        Ok(q) => q,
        Err(why) => return AddressVerdict::Unknown(why),
    };
    let input = |s: &str| s.starts_with("ir.arg") || s == BLOCK_IDX || s == BLOCK_NUM;
    let fixed: Vec<String> = weak
        .iter()
        .filter(|(s, _)| input(s) && negated.symbols.contains(s))
        .filter_map(|(s, v)| {
            Some(format!("(= {} {})", encode::symbol(s), encode::constant(encode::Theory::Int, v.as_i64()?)))
        })
        .collect();
    if !fixed.is_empty() {
        let mut seeded = negated.clone();
        seeded.assertion = format!("(and {} {})", negated.assertion, encode::conj(&fixed));
        if let Ok([index_simplify::smt::Answer::Sat(values)]) = check(&[seeded], opts.timeout).as_deref() {
            return AddressVerdict::Counterexample(values.clone());
        }
    }
    decide(Ok((negated, reachable)), opts)
}

/// A value the user's code computed that a witness receives, and the symbol it is the value of.
type UserValue = (MlirValue, String);

/// Every value the user's code computed ([`user_computed`]) that some witness call receives:
/// a tile coordinate from a swizzle.
fn user_values(specs: &[AccessSpec], witnesses: &HashMap<i64, MlirOperation>) -> Vec<UserValue> {
    let mut users: Vec<UserValue> = Vec::new();
    for spec in specs {
        let Some(&call) = witnesses.get(&spec.id) else { continue };
        // Safety: the call is alive (the module is not changed while proving).
        let call = unsafe { OperationRef::from_raw(call) };
        for (k, symbol) in spec.symbols.iter().enumerate() {
            let Ok(value) = call.operand(k) else { continue };
            if user_computed(value) && !users.iter().any(|(v, _)| v.ptr == value.to_raw().ptr) {
                users.push((value.to_raw(), symbol.clone()));
            }
        }
    }
    users
}

/// The tagged loads and stores by witness number, and the witness calls.
type Tagged = (HashMap<i64, Vec<MlirOperation>>, HashMap<i64, MlirOperation>);

fn tagged(module: &Module) -> Tagged {
    let (mut accesses, mut witnesses): Tagged = Default::default();
    module.as_operation().walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let name = op_name(&op);
        if name == "func.call" {
            let callee = op.attribute("callee").ok().and_then(|a| FlatSymbolRefAttribute::try_from(a).ok());
            let id = callee.and_then(|c| c.value().strip_prefix(witness::WITNESS_PREFIX)?.parse::<i64>().ok());
            if let Some(id) = id {
                witnesses.insert(id, op.to_raw());
            }
        } else if name == "memref.load" || name == "memref.store" {
            let tag = op.attribute(witness::ACCESS_ATTRIBUTE).ok();
            // Safety: a valid attribute.
            let id = tag.filter(|a| unsafe { mlir_sys::mlirAttributeIsAInteger(a.to_raw()) });
            if let Some(a) = id {
                let id = unsafe { mlir_sys::mlirIntegerAttrGetValueInt(a.to_raw()) };
                accesses.entry(id).or_default().push(op.to_raw());
            }
        }
        melior::ir::operation::WalkResult::Advance
    });
    (accesses, witnesses)
}

/// The entry block of the `func.func` around `op`.
pub(super) fn entry_block<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<melior::ir::BlockRef<'c, 'a>> {
    let mut current = op.parent_operation();
    while let Some(p) = current {
        if op_name(&p) == "func.func" {
            return p.region(0).ok()?.first_block();
        }
        current = p.parent_operation();
    }
    None
}

/// What the lowering itself defines as a symbol's value: a constant, the clamp `maxsi(%n, 0)`
/// of a size, a block query (a runtime call on the loop path, an `ascendc` op on the AscendC
/// path).
pub(super) fn lowering_leaf(op: &OperationRef) -> bool {
    matches!(
        op_name(op).as_str(),
        "arith.constant" | "arith.maxsi" | "func.call" | "ascendc.get_block_idx" | "ascendc.get_block_num"
    )
}

/// Whether the user's code computed `value`: an op the lowering does not emit as a leaf
/// ([`lowering_leaf`]), or a value an `scf.for` carries (an iter_arg, which the translation
/// does not read: a tile corner swapped every iteration).
fn user_computed(value: melior::ir::Value) -> bool {
    if let Some(op) = layout_passes::ir::defining_op(value) {
        return !lowering_leaf(&op);
    }
    let Ok(argument) = melior::ir::block::BlockArgument::try_from(value) else { return false };
    let owner = melior::ir::BlockLike::parent_operation(&argument.owner());
    argument.argument_number() > 0 && owner.is_some_and(|p| op_name(&p) == "scf.for")
}

/// `path ∧ ranges ∧ ¬(every intermediate in i64 ∧ index = algebra)` for one access, and the
/// same facts without the negated goal. With `weakened` (every user value some witness
/// receives, [`user_values`]) the facts are weaker, so a proof still holds but a model may not
/// be a run: each of those values is a free constant wherever the query reads it, and a
/// quotient or remainder by a non-constant divisor that only the path reads is a fresh
/// constant ([`Translator::path_weakened`]).
fn obligation(
    access: OperationRef,
    call: OperationRef,
    spec: &AccessSpec,
    size_limit: i64,
    weakened: Option<&[UserValue]>,
) -> Obligation {
    let entry = entry_block(&access).ok_or("an access outside a function")?;
    let mut t = Translator::new(entry);
    // A value the user's code computed (a tile coordinate) is any value its uses admit: the
    // proof holds for all of them, and the user's arithmetic is not part of the claim.
    let mut own = Vec::new();
    for (k, symbol) in spec.symbols.iter().enumerate() {
        let value = call.operand(k).map_err(|e| e.to_string())?;
        if user_computed(value) {
            t.abstract_value(value, symbol);
            own.push(value.to_raw().ptr);
        }
    }
    // The other witnesses' user values (the guards of the path read them): one free constant
    // each, named after its symbol (primed when the access's own witness has that name).
    let mut taken = Vec::new();
    for (value, symbol) in weakened.unwrap_or_default() {
        if own.contains(&value.ptr) {
            continue;
        }
        let mut name = symbol.clone();
        while spec.symbols.contains(&name) || taken.contains(&name) {
            name.push('\'');
        }
        // Safety: a live value of the module.
        t.abstract_if_read(unsafe { melior::ir::Value::from_raw(*value) }, &name);
        taken.push(name);
    }
    // memref.load %m[%i] / memref.store %v, %m[%i]: the buffers are 1-D.
    let first_index = if op_name(&access) == "memref.load" { 1 } else { 2 };
    if access.operand_count() != first_index + 1 {
        return Err(format!("an access with {} indices", access.operand_count() - first_index));
    }
    let address = t.int(access.operand(first_index).map_err(|e| e.to_string())?)?;
    if call.operand_count() != spec.symbols.len() {
        return Err(format!("the witness has {} values for {} symbols", call.operand_count(), spec.symbols.len()));
    }
    let mut facts = Vec::new();
    for (k, symbol) in spec.symbols.iter().enumerate() {
        let value = call.operand(k).map_err(|e| e.to_string())?;
        let term = t.int(value)?;
        facts.push(format!("(= {} {term})", encode::symbol(symbol)));
        t.declare(symbol);
    }
    // After the address and the witness: what they share is claimed, the rest assumed.
    facts.extend(if weakened.is_some() { t.path_weakened(&access)? } else { t.path_assumed(&access)? });
    let expected = algebra_address(&spec.layout, &spec.coord, &spec.local)?;
    let expected = layout_algebra::SymExpr::bin(layout_algebra::sym::BinOp::Add, &spec.base, &expected)
        .map_err(|e| e.to_string())?;
    facts.extend(argument_facts(&mut t, size_limit));
    goal(&mut t, facts, &address, &index_simplify::IndexExpr::from(&expected))
}

/// The ranges of what the query reads from outside: every index argument (and memref size) in
/// `[0, size_limit)`, the block index in `[0, block_num)` with `block_num` in that range.
pub(super) fn argument_facts(t: &mut Translator, size_limit: i64) -> Vec<String> {
    let mut facts = Vec::new();
    for arg in t.arguments() {
        let arg = encode::symbol(&arg);
        facts.push(format!("(<= 0 {arg})"));
        facts.push(format!("(< {arg} {size_limit})"));
    }
    if t.reads(BLOCK_IDX) || t.reads(BLOCK_NUM) {
        t.declare(BLOCK_IDX);
        t.declare(BLOCK_NUM);
        let (idx, num) = (encode::symbol(BLOCK_IDX), encode::symbol(BLOCK_NUM));
        facts.push(format!("(<= 0 {idx})"));
        facts.push(format!("(< {idx} {num})"));
        facts.push(format!("(< {num} {size_limit})"));
    }
    facts
}
