//! The one emitter of index arithmetic: an [`IndexExpr`] and the range facts in scope →
//! `arith` ops on `index` values.
//!
//! Every lowering writes addresses through it: `layout-lower-to-loops` (the algebra's
//! `crd_to_offset` on symbols, converted once with `IndexExpr::from(&SymExpr)`),
//! `layout-simplify-offsets` (the simplified trees) and the AscendC lowering (intrinsic fields,
//! simplified with the enclosing loops' facts). So every back end gets the same ops for the same
//! expression under the same facts, and the C++ and LLVM forms print what it chose.
//!
//! Op choice ([`choose`]): each node gets the op that computes it exactly under the facts
//! (`lo(a)` = the proven lower bound of `a`): `a floordiv 2^k` with `lo(a) ≥ 0` is `shrui`,
//! `a mod c` with `lo(a) ≥ 0` is `remui`, and without a proof the floor ops are emitted as such,
//! never a truncating `divsi` for a `floordiv`. The full table: docs/index-simplification.md §9.
//!
//! The facts are those of `index_simplify` ([`Facts`]): what the IR proves of the bound values
//! (`simplify_offsets::facts::value_fact`: loop ranges and steps, `memref.dim ≥ 0`, the
//! lowering's `maxsi(size, 0)` clamps), plus what a caller's contract adds (the AscendC
//! lowering's standing `[0, 2^40)` of sizes and coordinates).
//!
//! Equal sub-expressions are emitted once: shared ones (`Rc`) always, equal small ones by value
//! (see [`STRUCTURAL_CACHE_NODES`]).

use std::collections::HashMap;
use std::rc::Rc;

use index_simplify::{ArithOp, Data, Facts, IndexExpr, Op};
use melior::{
    dialect::arith,
    ir::{attribute::IntegerAttribute, Location, Operation, OperationRef, Type, Value},
    Context,
};
use thiserror::Error;

use crate::ir::file_line_col;

/// Why an expression could not be emitted; `location` is the `file:line:col` of the op the
/// expression is emitted for.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum IndexEmitError {
    #[error("unbound symbol `{symbol}` in index expression {expr}")]
    UnboundSymbol { location: String, symbol: String, expr: String },
    #[error("emitted {op} has no result")]
    NoResult { location: String, op: &'static str },
}

impl IndexEmitError {
    /// Where the emission was asked for.
    pub fn location(&self) -> &str {
        match self {
            IndexEmitError::UnboundSymbol { location, .. } | IndexEmitError::NoResult { location, .. } => location,
        }
    }
}

/// How one operator node is emitted: one op on (left, right), where the right operand is the
/// expression's or the constant `rhs`; or the floor-modulo expansion `a − floordivsi(a, b)·b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    One { op: ArithOp, rhs: Option<i64> },
    FloorModExpansion,
}

/// The op that computes `a op b` exactly for every `a`, `b` the facts `da`, `db` admit.
pub fn choose(op: Op, da: &Data, db: &Data) -> Choice {
    let one = |op| Choice::One { op, rhs: None };
    let non_negative = !da.conflict && da.range.lo.is_some_and(|lo| lo >= 0);
    let divisor = db.pos_const().filter(|_| !db.conflict && non_negative);
    let power = divisor.filter(|c| c.count_ones() == 1).map(|c| i64::from(c.trailing_zeros()));
    match op {
        Op::Add => one(ArithOp::AddI),
        Op::Sub => one(ArithOp::SubI),
        Op::Mul => one(ArithOp::MulI),
        Op::Min => one(ArithOp::MinSI),
        Op::Max => one(ArithOp::MaxSI),
        Op::Shl => one(ArithOp::ShLI),
        Op::And => one(ArithOp::AndI),
        Op::Shr if non_negative => one(ArithOp::ShRUI),
        Op::Shr => one(ArithOp::ShRSI),
        Op::FloorDiv => match (power, divisor) {
            (Some(k), _) => Choice::One { op: ArithOp::ShRUI, rhs: Some(k) },
            (None, Some(_)) => one(ArithOp::DivUI),
            (None, None) => one(ArithOp::FloorDivSI),
        },
        Op::FloorMod => match (power, divisor) {
            (Some(k), _) => Choice::One { op: ArithOp::AndI, rhs: Some((1i64 << k) - 1) },
            (None, Some(_)) => one(ArithOp::RemUI),
            (None, None) => Choice::FloorModExpansion,
        },
    }
}

/// Expressions up to this many operators are deduplicated by value (hashing one costs its
/// size); larger ones only by identity (`Rc`), so emitting a long chain — a tile of a tile
/// ... at dynamic coordinates, whose origin and coordinate grow by one node per tile — is
/// linear instead of hashing the whole chain at every node. Offsets of real kernels are far
/// smaller; `canonicalize`/`cse` after the lowering merge what identity misses.
pub const STRUCTURAL_CACHE_NODES: usize = 64;

/// An emitted sub-expression: its value, what the facts say of it, its operator count with
/// shared sub-trees expanded (saturating).
#[derive(Clone, Copy)]
struct Emitted<'c, 'a> {
    value: Value<'c, 'a>,
    data: Data,
    size: usize,
}

/// The right operand of a node: emitted, or a constant emitted only when an op uses it.
#[derive(Clone, Copy)]
enum Rhs<'c, 'a> {
    Emitted(Emitted<'c, 'a>),
    Constant(i64),
}

/// Emits `arith` ops for index expressions through an insertion callback.
///
/// `insert` places an op (before some anchor, at the end of a block, ...) and returns it; the
/// emitter never decides where code goes.
pub struct IndexEmitter<'c: 'a, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    context: &'c Context,
    location: Location<'c>,
    insert: F,
    facts: Facts,
    symbols: HashMap<String, Value<'c, 'a>>,
    /// Equal expressions → one value (the CSE of the emitter), for small expressions.
    cache: HashMap<IndexExpr, Emitted<'c, 'a>>,
    /// `Rc` address → (the `Rc`, emitted): shared sub-trees of any size, in O(1) each.
    shared: HashMap<*const IndexExpr, (Rc<IndexExpr>, Emitted<'c, 'a>)>,
}

impl<'c: 'a, 'a, F> IndexEmitter<'c, 'a, F>
where
    F: FnMut(Operation<'c>) -> OperationRef<'c, 'a>,
{
    /// `facts` describe the symbols wherever the ops are inserted (they decide the op choice).
    pub fn new(context: &'c Context, location: Location<'c>, facts: Facts, insert: F) -> Self {
        IndexEmitter {
            context,
            location,
            insert,
            facts,
            symbols: HashMap::new(),
            cache: HashMap::new(),
            shared: HashMap::new(),
        }
    }

    /// Binds symbol `name` to an `index` value.
    pub fn bind(&mut self, name: &str, value: Value<'c, 'a>) {
        self.symbols.insert(name.to_string(), value);
    }

    fn push(&mut self, op: Operation<'c>, name: &'static str) -> Result<Value<'c, 'a>, IndexEmitError> {
        let op = (self.insert)(op);
        op.result(0)
            .map(Into::into)
            .map_err(|_| IndexEmitError::NoResult { location: file_line_col(self.location), op: name })
    }

    /// An `arith.constant` of type `index`.
    pub fn constant(&mut self, value: i64) -> Result<Value<'c, 'a>, IndexEmitError> {
        self.emit_constant(value).map(|e| e.value)
    }

    fn emit_constant(&mut self, value: i64) -> Result<Emitted<'c, 'a>, IndexEmitError> {
        let key = IndexExpr::Const(value);
        if let Some(e) = self.cache.get(&key) {
            return Ok(*e);
        }
        let index = Type::index(self.context);
        let op = arith::constant(self.context, IntegerAttribute::new(index, value).into(), self.location);
        let emitted = Emitted { value: self.push(op, "arith.constant")?, data: Data::exact(value), size: 0 };
        self.cache.insert(key, emitted);
        Ok(emitted)
    }

    /// The value of `expr`; every symbol in it must be bound.
    pub fn emit(&mut self, expr: &IndexExpr) -> Result<Value<'c, 'a>, IndexEmitError> {
        self.emit_node(expr).map(|e| e.value)
    }

    /// A shared operand: emitted once per `Rc` (the entry keeps the `Rc` alive, so its address
    /// cannot be reused by another expression while the emitter lives).
    fn emit_shared(&mut self, expr: &Rc<IndexExpr>) -> Result<Emitted<'c, 'a>, IndexEmitError> {
        if let Some((_, e)) = self.shared.get(&Rc::as_ptr(expr)) {
            return Ok(*e);
        }
        let e = self.emit_node(expr)?;
        self.shared.insert(Rc::as_ptr(expr), (expr.clone(), e));
        Ok(e)
    }

    /// Operands are emitted first (for an expression seen before they are all cache hits, so
    /// no op is created twice); only expressions within [`STRUCTURAL_CACHE_NODES`] are looked
    /// up and stored by value, so hashing stays bounded per node.
    fn emit_node(&mut self, expr: &IndexExpr) -> Result<Emitted<'c, 'a>, IndexEmitError> {
        let (op, a, b) = match expr {
            IndexExpr::Const(c) => return self.emit_constant(*c),
            IndexExpr::Sym(name) => {
                let value = self.symbols.get(name).copied().ok_or_else(|| IndexEmitError::UnboundSymbol {
                    location: file_line_col(self.location),
                    symbol: name.clone(),
                    expr: expr.to_string(),
                })?;
                let data = self.facts.get(name).map(Data::from_fact).unwrap_or(Data::TOP);
                return Ok(Emitted { value, data, size: 0 });
            }
            IndexExpr::Bin(op, a, b) => (*op, a, b),
        };
        let ea = self.emit_shared(a)?;
        // A constant right operand is emitted only if the chosen op uses it (a division by 16
        // becomes a shift by 4: no `16` is left behind).
        let rhs = match b.as_ref() {
            IndexExpr::Const(c) => Rhs::Constant(*c),
            _ => Rhs::Emitted(self.emit_shared(b)?),
        };
        let (db, b_size) = match rhs {
            Rhs::Emitted(e) => (e.data, e.size),
            Rhs::Constant(c) => (Data::exact(c), 0),
        };
        let rhs_value = |me: &mut Self| match rhs {
            Rhs::Emitted(e) => Ok(e.value),
            Rhs::Constant(c) => me.constant(c),
        };
        let size = ea.size.saturating_add(b_size).saturating_add(1);
        let small = size <= STRUCTURAL_CACHE_NODES;
        if small {
            if let Some(e) = self.cache.get(expr) {
                return Ok(*e);
            }
        }
        let data = Data::apply(op, &ea.data, &db);
        let value = match choose(op, &ea.data, &db) {
            Choice::One { op, rhs } => {
                let rhs = match rhs {
                    Some(c) => self.constant(c)?,
                    None => rhs_value(self)?,
                };
                self.arith(op, ea.value, rhs)?
            }
            Choice::FloorModExpansion => {
                let b = rhs_value(self)?;
                let q = self.arith(ArithOp::FloorDivSI, ea.value, b)?;
                let p = self.arith(ArithOp::MulI, q, b)?;
                self.arith(ArithOp::SubI, ea.value, p)?
            }
        };
        let emitted = Emitted { value, data, size };
        if small {
            self.cache.insert(expr.clone(), emitted);
        }
        Ok(emitted)
    }

    /// One `arith` op on two `index` values.
    fn arith(&mut self, op: ArithOp, a: Value<'c, 'a>, b: Value<'c, 'a>) -> Result<Value<'c, 'a>, IndexEmitError> {
        let loc = self.location;
        let built = match op {
            ArithOp::AddI => arith::addi(a, b, loc),
            ArithOp::SubI => arith::subi(a, b, loc),
            ArithOp::MulI => arith::muli(a, b, loc),
            ArithOp::DivSI => arith::divsi(a, b, loc),
            ArithOp::RemSI => arith::remsi(a, b, loc),
            ArithOp::DivUI => arith::divui(a, b, loc),
            ArithOp::RemUI => arith::remui(a, b, loc),
            ArithOp::FloorDivSI => arith::floordivsi(a, b, loc),
            ArithOp::CeilDivSI => arith::ceildivsi(a, b, loc),
            ArithOp::MinSI => arith::minsi(a, b, loc),
            ArithOp::MaxSI => arith::maxsi(a, b, loc),
            ArithOp::ShLI => arith::shli(a, b, loc),
            ArithOp::ShRUI => arith::shrui(a, b, loc),
            ArithOp::ShRSI => arith::shrsi(a, b, loc),
            ArithOp::AndI => arith::andi(a, b, loc),
        };
        self.push(built, op.name())
    }
}

#[cfg(test)]
#[path = "index_arith_tests.rs"]
mod tests;
