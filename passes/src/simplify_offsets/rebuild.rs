//! Emitting `arith` ops for an [`IndexExpr`]: the sibling of [`crate::index_arith::IndexEmitter`]
//! (which emits `SymExpr`s and keeps its API) for the simplifier's results, which may contain
//! shifts and masks and need facts to choose exact ops.
//!
//! Op choice, exact under the facts (`lo(x)` = proven lower bound of `x`):
//!
//! | expression | op |
//! |---|---|
//! | `a + b`, `a - b`, `a * b`, `min`, `max` | `addi`, `subi`, `muli`, `minsi`, `maxsi` |
//! | `a floordiv c`, `a mod c` with `c > 0` constant and `lo(a) ≥ 0` | `divsi`, `remsi` (the lowering's convention) |
//! | `a floordiv b` otherwise | `floordivsi` |
//! | `a mod b` otherwise | `a - floordivsi(a, b) * b` |
//! | `a >> k` | `shrui` if `lo(a) ≥ 0`, else `shrsi` |
//! | `a << k`, `a & m` | `shli`, `andi` |
//!
//! Equal sub-expressions are emitted once.

use std::collections::HashMap;

use index_simplify::{analyze, Facts, IndexExpr, IndexVisitor, Op};
use melior::{
    dialect::arith,
    ir::{attribute::IntegerAttribute, Location, Operation, OperationRef, Type, Value},
    Context,
};

/// Emits `arith` ops for [`IndexExpr`]s through an insertion callback (like `IndexEmitter`,
/// it never decides where code goes).
pub struct OffsetEmitter<'c: 'a, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    context: &'c Context,
    location: Location<'c>,
    insert: F,
    facts: Facts,
    symbols: HashMap<String, Value<'c, 'a>>,
    cache: HashMap<IndexExpr, Value<'c, 'a>>,
}

impl<'c: 'a, 'a, F> OffsetEmitter<'c, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    /// `facts` are those the expression was simplified under (they decide signed vs. floor ops).
    pub fn new(context: &'c Context, location: Location<'c>, facts: Facts, insert: F) -> Self {
        OffsetEmitter { context, location, insert, facts, symbols: HashMap::new(), cache: HashMap::new() }
    }

    /// Binds symbol `name` to an `index` value.
    pub fn bind(&mut self, name: &str, value: Value<'c, 'a>) {
        self.symbols.insert(name.to_string(), value);
    }

    /// The value of `expr`; every symbol in it must be bound.
    pub fn emit(&mut self, expr: &IndexExpr) -> Result<Value<'c, 'a>, String> {
        let mut builder = Builder { emitter: self };
        expr.visit(&mut builder).map(|(v, _)| v)
    }

    fn push(&mut self, op: Operation<'c>) -> Result<Value<'c, 'a>, String> {
        let op = (self.insert)(op);
        op.result(0).map(Into::into).map_err(|e| format!("emitted op has no result: {e}"))
    }

    fn cached(
        &mut self,
        key: &IndexExpr,
        build: impl FnOnce(&mut Self) -> Result<Value<'c, 'a>, String>,
    ) -> Result<Value<'c, 'a>, String> {
        if let Some(v) = self.cache.get(key) {
            return Ok(*v);
        }
        let v = build(self)?;
        self.cache.insert(key.clone(), v);
        Ok(v)
    }

    fn constant(&mut self, value: i64) -> Result<Value<'c, 'a>, String> {
        self.cached(&IndexExpr::Const(value), |me| {
            let index = Type::index(me.context);
            let op = arith::constant(me.context, IntegerAttribute::new(index, value).into(), me.location);
            me.push(op)
        })
    }
}

/// The visitor: carries each sub-expression with its value, so ops can be chosen by facts.
struct Builder<'e, 'c: 'a, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    emitter: &'e mut OffsetEmitter<'c, 'a, F>,
}

impl<'c: 'a, 'a, F> IndexVisitor for Builder<'_, 'c, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    type Out = (Value<'c, 'a>, IndexExpr);
    type Error = String;

    fn constant(&mut self, value: i64) -> Result<Self::Out, String> {
        Ok((self.emitter.constant(value)?, IndexExpr::Const(value)))
    }

    fn symbol(&mut self, name: &str) -> Result<Self::Out, String> {
        let v = self
            .emitter
            .symbols
            .get(name)
            .copied()
            .ok_or_else(|| format!("unbound symbol `{name}` in index expression"))?;
        Ok((v, IndexExpr::sym(name)))
    }

    fn binary(&mut self, op: Op, (a, ea): Self::Out, (b, eb): Self::Out) -> Result<Self::Out, String> {
        let e = IndexExpr::bin(op, ea.clone(), eb.clone());
        let em = &mut *self.emitter;
        let loc = em.location;
        let non_negative = analyze(&ea, &em.facts).range.lo.is_some_and(|lo| lo >= 0);
        let pos_const = matches!(eb, IndexExpr::Const(c) if c > 0);
        let v = em.cached(&e, |em| match op {
            Op::Add => em.push(arith::addi(a, b, loc)),
            Op::Sub => em.push(arith::subi(a, b, loc)),
            Op::Mul => em.push(arith::muli(a, b, loc)),
            Op::Min => em.push(arith::minsi(a, b, loc)),
            Op::Max => em.push(arith::maxsi(a, b, loc)),
            Op::Shl => em.push(arith::shli(a, b, loc)),
            Op::And => em.push(arith::andi(a, b, loc)),
            Op::Shr if non_negative => em.push(arith::shrui(a, b, loc)),
            Op::Shr => em.push(arith::shrsi(a, b, loc)),
            Op::FloorDiv if non_negative && pos_const => em.push(arith::divsi(a, b, loc)),
            Op::FloorDiv => em.push(arith::floordivsi(a, b, loc)),
            Op::FloorMod if non_negative && pos_const => em.push(arith::remsi(a, b, loc)),
            Op::FloorMod => {
                let q = em.push(arith::floordivsi(a, b, loc))?;
                let p = em.push(arith::muli(q, b, loc))?;
                em.push(arith::subi(a, p, loc))
            }
        })?;
        Ok((v, e))
    }
}
