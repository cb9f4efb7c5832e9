//! Range facts of the symbols of an AscendC lowering, and the assumptions they discharge.
//!
//! A symbol stands for an index value (a tile coordinate, a size, an offset coordinate). What
//! the IR proves about that value — for a loop variable `iv ∈ [lb, ub − 1]`, `iv ≡ lb (mod
//! step)` of its `scf.for` — is read by [`crate::simplify_offsets::facts`], the reading the
//! `layout-simplify-offsets` pass uses, so every back end sees the same facts. Two sets:
//!
//! * [`SymbolFacts::proven`]: only what the IR proves. It decides the `assumes` of
//!   `ascendc-params`: one that holds without any fact is dropped (the derivation could not see
//!   it, the analysis can), one that holds with the proven facts is noted "proven from the loop",
//!   the rest stay run-time assumptions.
//! * [`SymbolFacts::assumed`]: the proven facts plus the lowering's standing assumption that every
//!   symbol is a size or coordinate in `[0, 2^40)`; the emitted fields are simplified with it,
//!   and the index emitter chooses its ops with it (`crate::index_arith`: a division of a
//!   non-negative value by 2^k is a shift).

use std::cell::RefCell;

use ascendc_params::{Assumption, Requirement};
use index_simplify::{analyze, Facts, IndexExpr, Op, SimplifyCache, SymFact};
use layout_algebra::SymExpr;
use melior::ir::{block::BlockLike, operation::OperationLike, BlockRef, Value, ValueLike};

use crate::ir::op_name;
use crate::simplify_offsets::{facts::value_fact, reader::Reader};

/// The standing upper end of a symbol (sizes and coordinates are far below it).
const SYMBOL_MAX: i64 = 1 << 40;

/// The facts of the symbols of one lowered op.
#[derive(Clone, Debug, Default)]
pub struct SymbolFacts {
    pub proven: Facts,
    pub assumed: Facts,
    /// `(iv, ub)`: the symbol `iv` is the variable of an enclosing `scf.for` (signed compare,
    /// step proven positive) whose upper bound is the value of the symbol `ub`, so `iv < ub`
    /// inside the body — the relational fact that proves a tail extent `min(128, max(N − n0, 0))`
    /// at least 1 (intervals alone cannot: they do not know that `n0` and `N` move together).
    pub below: Vec<(String, String)>,
}

impl SymbolFacts {
    /// The facts of the bound symbols `binds` (symbol, the index value it stands for).
    pub fn of<'c: 'a, 'a>(binds: impl IntoIterator<Item = (String, Value<'c, 'a>)>) -> Self {
        let binds: Vec<(String, Value<'c, 'a>)> = binds.into_iter().collect();
        let mut reader = Reader::new();
        let mut out = SymbolFacts::default();
        for (symbol, value) in &binds {
            let fact = value_fact(&mut reader, *value);
            if let Some(f) = fact {
                out.proven.set(symbol, f);
            }
            out.assumed.set(symbol, standing(fact.unwrap_or_default()));
            if let Some(ub) = loop_upper_bound(&mut reader, *value) {
                for (other, _) in binds.iter().filter(|(_, v)| *v == ub) {
                    out.below.push((symbol.clone(), other.clone()));
                }
            }
        }
        out
    }

    /// A field value simplified with the assumed facts (a symbol without a binding gets the
    /// standing assumption alone), as the index expression the emitter writes.
    pub fn simplify(&self, e: &SymExpr) -> IndexExpr {
        let expr = IndexExpr::from(e);
        if let IndexExpr::Const(_) = expr {
            return expr;
        }
        simplified(&expr, &self.emit_facts(&expr))
    }

    /// The facts the emitter writes `expr` under: the assumed ones of its symbols.
    pub fn emit_facts(&self, expr: &IndexExpr) -> Facts {
        let mut facts = Facts::new();
        for s in expr.symbols() {
            facts.set(&s, self.assumed.get(&s).copied().unwrap_or_else(|| standing(SymFact::default())));
        }
        facts
    }
}

thread_local! {
    /// The simplifications of the current lowering run: the same field values and assumptions
    /// come back for every copy with the same layouts, over other symbols, and the e-graph
    /// search is most of the lowering's time (issue 14). The cache answers what a new search
    /// would find (`index_simplify::cache`).
    static SIMPLIFIED: RefCell<SimplifyCache> = RefCell::default();
}

/// Empties the cache of [`simplified`]: each lowering run starts with its own (a module's
/// queries are not kept for the next module).
pub(crate) fn forget_simplified() {
    SIMPLIFIED.with(|cache| *cache.borrow_mut() = SimplifyCache::new());
}

/// `simplify(expr, facts).expr`, searched once per distinct query of a lowering run (up to
/// renaming of the symbols).
fn simplified(expr: &IndexExpr, facts: &Facts) -> IndexExpr {
    SIMPLIFIED.with(|cache| cache.borrow_mut().simplify(expr, facts).expr)
}

/// `fact` within the standing range `[0, 2^40)`.
fn standing(fact: SymFact) -> SymFact {
    SymFact {
        lo: Some(fact.lo.map_or(0, |l| l.max(0))),
        hi: Some(fact.hi.map_or(SYMBOL_MAX, |h| h.min(SYMBOL_MAX))),
        ..fact
    }
}

/// How an assumption of `ascendc-params` stands once the facts are known.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Holds whatever the symbols are (the interval analysis sees what the derivation did not).
    Always,
    /// Holds by the facts of the enclosing loops.
    FromLoop,
    /// Only the running kernel can decide.
    RunTime,
}

/// The upper bound of the `scf.for` whose induction variable is `value`, when the loop compares
/// signed and its step is proven positive (then `value < ub` in the body).
fn loop_upper_bound<'c: 'a, 'a>(reader: &mut Reader<'c, 'a>, value: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
    // Safety: queries on a valid value and its owner block.
    let block = unsafe {
        if !mlir_sys::mlirValueIsABlockArgument(value.to_raw())
            || mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) != 0
        {
            return None;
        }
        BlockRef::from_raw(mlir_sys::mlirBlockArgumentGetOwner(value.to_raw()))
    };
    let for_op = block.parent_operation().filter(|op| op_name(op) == "scf.for" && !op.has_attribute("unsignedCmp"))?;
    let step = for_op.operand(2).ok()?;
    reader.scan(step);
    reader.data(step)?.range.lo.filter(|s| *s >= 1)?;
    for_op.operand(1).ok()
}

/// Where `a` stands under the IR-proven facts.
pub fn standing_of(a: &Assumption<SymExpr>, facts: &SymbolFacts) -> Standing {
    if holds(a, &Facts::new(), &[]) {
        Standing::Always
    } else if holds(a, &restricted(a, &facts.proven), &facts.below) {
        Standing::FromLoop
    } else {
        Standing::RunTime
    }
}

/// The value of `a` simplified under the IR-proven `facts`: how a condition proven from the
/// loop is written (`src = i2 * 256 multiple of 32`, the value the loop makes of
/// `(i2 mod 16 + i2 floordiv 16 * 2048) * 2`).
pub fn simplified_value(a: &Assumption<SymExpr>, facts: &SymbolFacts) -> IndexExpr {
    simplified(&IndexExpr::from(&a.value), &restricted(a, &facts.proven))
}

/// The symbols the text of `a` mentions (its value's, and the other side of an `Equals`).
pub fn symbols_of(a: &Assumption<SymExpr>) -> Vec<String> {
    let mut symbols = a.value.symbols();
    if let Requirement::Equals(other) = &a.requirement {
        symbols.extend(other.symbols());
    }
    symbols
}

/// `facts` of the symbols `a` mentions only (an unrelated loop that never runs, whose facts are
/// empty, must not block the proof).
fn restricted(a: &Assumption<SymExpr>, facts: &Facts) -> Facts {
    let mut out = Facts::new();
    for s in symbols_of(a) {
        if let Some(f) = facts.get(&s) {
            out.set(&s, *f);
        }
    }
    out
}

/// Whether the requirement of `a` is proven under `facts` and the relations `below`: each
/// `iv < ub` is used by writing `ub` as `iv + d` with a fresh `d ≥ 1` (exact: `d` is `ub − iv`),
/// then the value is simplified and its interval and congruence (`index_simplify::analyze`)
/// are compared with the requirement.
fn holds(a: &Assumption<SymExpr>, facts: &Facts, below: &[(String, String)]) -> bool {
    let mut value = match &a.requirement {
        Requirement::Equals(other) => IndexExpr::bin(Op::Sub, IndexExpr::from(&a.value), IndexExpr::from(other)),
        _ => IndexExpr::from(&a.value),
    };
    let mut facts = facts.clone();
    for (k, (iv, ub)) in below.iter().enumerate() {
        let symbols = value.symbols();
        if iv == ub || !symbols.contains(iv) || !symbols.contains(ub) {
            continue;
        }
        let gap = format!("{ub}-{iv}#{k}");
        value = substitute(&value, ub, &IndexExpr::bin(Op::Add, IndexExpr::sym(iv), IndexExpr::sym(&gap)));
        facts = facts.at_least(&gap, 1);
    }
    let data = analyze(&simplified(&value, &facts), &facts);
    if data.conflict {
        return false;
    }
    match &a.requirement {
        Requirement::InRange { min, max } => {
            data.range.lo.is_some_and(|l| l >= *min) && data.range.hi.is_some_and(|h| h <= *max)
        }
        Requirement::MultipleOf(unit) => data.modular.multiple_of(*unit),
        Requirement::Equals(_) => data.range.konst() == Some(0),
    }
}

/// `e` with every symbol `name` replaced by `by`.
fn substitute(e: &IndexExpr, name: &str, by: &IndexExpr) -> IndexExpr {
    match e {
        IndexExpr::Sym(n) if n == name => by.clone(),
        IndexExpr::Bin(op, a, b) => IndexExpr::bin(*op, substitute(a, name, by), substitute(b, name, by)),
        _ => e.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use layout_algebra::IndexValue;

    fn assumption(value: SymExpr, requirement: Requirement<SymExpr>) -> Assumption<SymExpr> {
        Assumption { instr: "LoadData", field: "src", value, requirement }
    }

    fn proven(facts: Facts) -> SymbolFacts {
        SymbolFacts { proven: facts, ..SymbolFacts::default() }
    }

    /// The K loop of `examples/tiled_gemm.mlir`: `for k = 64 to 256 step 64`.
    fn k_loop() -> Facts {
        Facts::new().range("k", 64, 255).divisible("k", 64)
    }

    #[test]
    fn a_multiple_the_loop_step_implies_is_proven_from_the_loop() {
        let a = assumption(SymExpr::sym("k"), Requirement::MultipleOf(16));
        assert_eq!(standing_of(&a, &proven(k_loop())), Standing::FromLoop);
        // A step of 8 does not make k a multiple of 16.
        let step8 = Facts::new().range("k", 64, 255).divisible("k", 8);
        assert_eq!(standing_of(&a, &proven(step8)), Standing::RunTime);
    }

    #[test]
    fn a_multiple_is_proven_through_div_and_mod() {
        // (k mod 16 + k floordiv 16 * 2048) * 2: 256·k for k ≡ 0 (mod 16), a multiple of 32;
        // for a generic k the k mod 16 term is odd-able, so only the loop proves it.
        let k = SymExpr::sym("k");
        let c = SymExpr::Const;
        let value = k.clone().floor_mod(&c(16)).unwrap();
        let value = value.add(&k.floor_div(&c(16)).unwrap().mul(&c(2048)).unwrap()).unwrap().mul(&c(2)).unwrap();
        let a = assumption(value, Requirement::MultipleOf(32));
        assert_eq!(standing_of(&a, &proven(Facts::new())), Standing::RunTime);
        assert_eq!(standing_of(&a, &proven(k_loop())), Standing::FromLoop);
        assert_eq!(simplified_value(&a, &proven(k_loop())).to_string(), "k * 256");
    }

    #[test]
    fn ranges_are_proven_from_the_loop_bounds_or_always_or_not_at_all() {
        let k = SymExpr::sym("k");
        let in_range = |v: SymExpr, min, max| assumption(v, Requirement::InRange { min, max });
        // k ∈ {64, 128, 192}: the congruence tightens the upper end to 192.
        assert_eq!(standing_of(&in_range(k.clone(), 0, 192), &proven(k_loop())), Standing::FromLoop);
        assert_eq!(standing_of(&in_range(k.clone(), 0, 191), &proven(k_loop())), Standing::RunTime);
        assert_eq!(standing_of(&in_range(k.clone(), 65, 255), &proven(k_loop())), Standing::RunTime);
        // min(128, max(n − k, 0)) ∈ [0, 128] whatever n and k are.
        let n = SymExpr::sym("n");
        let clipped = SymExpr::Const(128).min(&n.sub(&k).unwrap().max(&SymExpr::Const(0)).unwrap()).unwrap();
        assert_eq!(standing_of(&in_range(clipped.clone(), 0, 16384), &proven(Facts::new())), Standing::Always);
        // ... but ≥ 1 needs n > k, which no interval fact gives.
        assert_eq!(standing_of(&in_range(clipped.clone(), 1, 4095), &proven(k_loop())), Standing::RunTime);
        // Inside `for k = 0 to n` the loop gives k < n: then it is proven.
        let in_loop = SymbolFacts { below: vec![("k".into(), "n".into())], ..proven(Facts::new().at_least("k", 0)) };
        assert_eq!(standing_of(&in_range(clipped, 1, 4095), &in_loop), Standing::FromLoop);
        // The relation is used in its direction only: k < n says nothing of k − n ≥ 1.
        let backwards = SymExpr::Const(128).min(&k.sub(&n).unwrap().max(&SymExpr::Const(0)).unwrap()).unwrap();
        assert_eq!(standing_of(&in_range(backwards, 1, 4095), &in_loop), Standing::RunTime);
    }

    #[test]
    fn fields_are_simplified_with_the_loop_facts() {
        let k = SymExpr::sym("k");
        let c = SymExpr::Const;
        let offset =
            k.clone().floor_div(&c(16)).unwrap().mul(&c(2048)).unwrap().add(&k.floor_mod(&c(16)).unwrap()).unwrap();
        let with_loop = SymbolFacts { assumed: k_loop(), ..SymbolFacts::default() };
        assert_eq!(with_loop.simplify(&offset).to_string(), "k * 128");
        // Without the loop (k only ≥ 0) the division stays.
        assert_ne!(SymbolFacts::default().simplify(&offset).to_string(), "k * 128");
    }
}
