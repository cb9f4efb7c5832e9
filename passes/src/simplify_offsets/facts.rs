//! Facts about the atoms of an index tree, taken from the IR.
//!
//! * **`scf.for` induction variables** (index-typed): with a step proven positive,
//!   `iv ∈ [lo(lb), hi(ub) − 1]` (either end may be unknown) and `iv ≡ lb (mod step)`; when `lb`
//!   is only known modulo `m` (say `lb = 16·t`), `iv ≡ r (mod gcd(m, step))`. The bounds are
//!   read as trees themselves, so `ub = minsi(%c16, %M − %t)` (a tail tile) gives `hi = 15`
//!   and an outer loop's variable in `lb` contributes its own range. A loop with
//!   `unsignedCmp` gets facts only when both bounds are proven non-negative (then signed and
//!   unsigned order agree). The facts hold wherever the variable is visible: inside the body.
//! * **`memref.dim`**: `≥ 0`.
//! * Everything else (function arguments, loop-carried values, results of other ops): no
//!   fact — an unknown range, on which no conditional rule fires.
//!
//! Dynamic sizes need no atom fact: `layout-lower-to-loops` uses a size argument `%v` as
//! `arith.maxsi(%v, %c0)` (its module doc, "Sizes are non-negative"), which the reader reads as
//! `max(v, 0)`, whose interval is `[0, ∞)` whatever `v` is (test
//! `maxsi_with_a_non_negative_constant_makes_divisions_floor_operations`).

use index_simplify::{Data, SymFact};
use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, RegionLike, TypeLike, Value, ValueLike};

use super::reader::Reader;
use crate::ir::{defining_op, op_name};

/// A readable symbol prefix for an atom: `i` for loop variables, `arg` for other block
/// arguments, `v` for op results.
pub fn symbol_prefix(value: Value) -> &'static str {
    match block_argument(value) {
        Some((block, 0)) if owner_is_for(&block) => "i",
        Some(_) => "arg",
        None => "v",
    }
}

/// `(owner block, argument number)` for a block argument.
fn block_argument<'c: 'a, 'a>(value: Value<'c, 'a>) -> Option<(BlockRef<'c, 'a>, usize)> {
    // Safety: valid value; a block argument's owner is a valid block.
    unsafe {
        if !mlir_sys::mlirValueIsABlockArgument(value.to_raw()) {
            return None;
        }
        let block = BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw()));
        let number = mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw());
        Some((block, usize::try_from(number).ok()?))
    }
}

fn owner_is_for(block: &BlockRef) -> bool {
    block.parent_operation().is_some_and(|op| op_name(&op) == "scf.for")
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    i64::try_from(a).unwrap_or(0)
}

/// The fact about atom `value`, reading what it depends on (loop bounds) with `reader`.
pub fn fact_of<'c: 'a, 'a>(reader: &mut Reader<'c, 'a>, value: Value<'c, 'a>) -> Option<SymFact> {
    if let Some(op) = defining_op(value) {
        return (op_name(&op) == "memref.dim").then_some(SymFact { lo: Some(0), ..SymFact::default() });
    }
    let (block, 0) = block_argument(value)? else { return None };
    let for_op = block.parent_operation().filter(|op| op_name(op) == "scf.for")?;
    // The body is the only block of the only region: argument 0 is the induction variable.
    if !value.r#type().is_index() || for_op.region(0).ok()?.first_block()? != block {
        return None;
    }
    let mut data_of = |v: Value<'c, 'a>| {
        reader.scan(v);
        reader.data(v)
    };
    let (lb, ub, step) = (for_op.operand(0).ok()?, for_op.operand(1).ok()?, for_op.operand(2).ok()?);
    let (lb, ub, step) = (data_of(lb)?, data_of(ub)?, data_of(step)?);
    loop_fact(&lb, &ub, &step, for_op.has_attribute("unsignedCmp"))
}

/// The fact of `for iv = lb to ub step step` from the analyses of the bounds (read as trees
/// over already-known atoms: `analyze` of their readings).
pub fn loop_fact(dl: &Data, du: &Data, ds: &Data, unsigned_cmp: bool) -> Option<SymFact> {
    // A step that may be ≤ 0 would let the variable leave [lb, ub).
    if ds.range.lo.is_none_or(|s| s < 1) {
        return None;
    }
    if unsigned_cmp && !(dl.range.lo.is_some_and(|l| l >= 0) && du.range.lo.is_some_and(|u| u >= 0)) {
        return None;
    }
    let mut fact = SymFact { lo: dl.range.lo, hi: du.range.hi.and_then(|h| h.checked_sub(1)), ..SymFact::default() };
    // iv = lb + k·step with lb ≡ r (mod m): iv ≡ r (mod gcd(m, step)); m = 0 means lb = r.
    if let Some(s) = ds.konst() {
        let g = gcd(dl.modular.m, s);
        if g > 1 {
            fact.divisor = Some(g);
            fact.residue = dl.modular.r.rem_euclid(g);
        }
    }
    (fact != SymFact::default()).then_some(fact)
}

/// The fact the IR proves about any index value read by `reader` (not only an atom): the
/// interval and congruence of its reading. For a loop variable that is [`loop_fact`]; for
/// `%k + 16` it is the loop fact of `%k` shifted by 16. `None` when nothing is known. Callers
/// that name a value by a symbol of their own (the AscendC lowering's tile coordinates) get the
/// same facts this pass uses.
pub fn value_fact<'c: 'a, 'a>(reader: &mut Reader<'c, 'a>, value: Value<'c, 'a>) -> Option<SymFact> {
    reader.scan(value);
    let data = reader.data(value).filter(|d| !d.conflict)?;
    let mut fact = SymFact { lo: data.range.lo, hi: data.range.hi, ..SymFact::default() };
    match data.modular.m {
        0 => (fact.lo, fact.hi) = (Some(data.modular.r), Some(data.modular.r)),
        m if m > 1 => (fact.divisor, fact.residue) = (Some(m), data.modular.r),
        _ => {}
    }
    (fact != SymFact::default()).then_some(fact)
}
