//! Reading trees of `index`-typed `arith` ops into [`IndexExpr`]s.
//!
//! [`Reader::read`] follows operands through the arith ops the pass understands and stops at
//! *atoms*: block arguments, results of other ops, and arith ops that cannot be read exactly
//! (a signed division whose dividend is not proven non-negative, a division by a non-constant,
//! a shift by a non-constant). Each atom becomes a symbol; the facts about it (loop ranges,
//! `memref.dim ≥ 0`) are gathered by [`super::facts`] the first time it is met.
//!
//! Exactness of each reading (floor semantics of [`IndexExpr`]; index arithmetic is assumed not
//! to overflow, as everywhere in `index-simplify`):
//!
//! | op | read as | condition |
//! |---|---|---|
//! | `addi` `subi` `muli` `minsi` `maxsi` | `+ - * min max` | none |
//! | `andi` | `&` (two's complement) | none |
//! | `divsi a, c` / `remsi a, c` | `a floordiv c` / `a mod c` | `c > 0` constant, `a ≥ 0` proven |
//! | `divui a, c` / `remui a, c` | same | `c > 0` constant, `a ≥ 0` proven (so `a < 2^63`) |
//! | `floordivsi a, c` | `a floordiv c` | `c > 0` constant |
//! | `ceildivsi a, c` | `(a + c − 1) floordiv c` | `c > 0` constant |
//! | `shli a, k` | `a << k` | constant `0 ≤ k ≤ 62` |
//! | `shrui a, k` | `a >> k` | constant `0 ≤ k ≤ 63`, `a ≥ 0` proven |
//! | `arith.constant` | the constant | integer attribute |
//!
//! Anything else is an atom, so the reading never claims more than the op computes.

use std::collections::HashMap;

use index_simplify::{analyze, Facts, IndexExpr, Op};
use melior::ir::{operation::OperationLike, OperationRef, TypeLike, Value, ValueLike};

use crate::ir::{constant_int, defining_op, op_name};

/// Arith ops that may be read as tree nodes (whether one is, depends on its operands).
pub const TREE_OPS: &[&str] = &[
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.divsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.floordivsi",
    "arith.ceildivsi",
    "arith.minsi",
    "arith.maxsi",
    "arith.shli",
    "arith.shrui",
    "arith.andi",
    "arith.constant",
];

/// Trees larger than this (after expanding shared sub-trees) are cut: the value becomes an
/// atom. Keeps the e-graph and the reading linear on pathological DAGs.
pub const MAX_TREE_NODES: usize = 2_000;
/// Reading stops at this depth (the value becomes an atom).
pub const MAX_DEPTH: usize = 200;

/// What a value was read as.
#[derive(Clone, Debug)]
pub struct Read {
    pub expr: IndexExpr,
    /// True when the value is the result of an arith op read as an operator or constant
    /// (false for atoms).
    pub node: bool,
    /// Operator nodes in `expr`.
    pub size: usize,
}

/// A raw value as a map key.
pub fn key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// Reads arith trees of one region tree; symbols and facts are shared by all trees read.
pub struct Reader<'c, 'a> {
    memo: HashMap<usize, Read>,
    /// Atom symbol → the value it stands for (for rebuilding).
    pub symbols: HashMap<String, Value<'c, 'a>>,
    /// Facts about the atoms.
    pub facts: Facts,
    counter: usize,
}

impl<'c: 'a, 'a> Default for Reader<'c, 'a> {
    fn default() -> Self {
        Reader { memo: HashMap::new(), symbols: HashMap::new(), facts: Facts::new(), counter: 0 }
    }
}

impl<'c: 'a, 'a> Reader<'c, 'a> {
    pub fn new() -> Self {
        Self::default()
    }

    /// The memoized reading of `value`, if it was read.
    pub fn get(&self, value: Value) -> Option<&Read> {
        self.memo.get(&key(value))
    }

    /// Declares `value` an atom with a known fact before anything reads it (a caller that knows
    /// more than the IR says, e.g. a parameter range). Returns its symbol; `None` if `value` was
    /// already read.
    pub fn assume(&mut self, value: Value<'c, 'a>, fact: index_simplify::SymFact) -> Option<String> {
        if self.memo.contains_key(&key(value)) {
            return None;
        }
        let name = format!("{}{}", super::facts::symbol_prefix(value), self.counter);
        self.counter += 1;
        self.symbols.insert(name.clone(), value);
        self.facts.set(&name, fact);
        self.memo.insert(key(value), Read { expr: IndexExpr::Sym(name.clone()), node: false, size: 0 });
        Some(name)
    }

    /// Reads `value` (memoized).
    pub fn read(&mut self, value: Value<'c, 'a>) -> Read {
        self.read_at(value, 0)
    }

    fn read_at(&mut self, value: Value<'c, 'a>, depth: usize) -> Read {
        if let Some(r) = self.memo.get(&key(value)) {
            return r.clone();
        }
        let read = match self.read_node(value, depth) {
            Some(r) if r.size <= MAX_TREE_NODES => r,
            _ => self.atom(value),
        };
        self.memo.insert(key(value), read.clone());
        read
    }

    /// A fresh symbol for `value`, with its facts.
    fn atom(&mut self, value: Value<'c, 'a>) -> Read {
        let prefix = super::facts::symbol_prefix(value);
        let name = format!("{prefix}{}", self.counter);
        self.counter += 1;
        self.symbols.insert(name.clone(), value);
        // Facts may need other values read first (loop bounds); they never need this one.
        if let Some(fact) = super::facts::fact_of(self, value) {
            self.facts.set(&name, fact);
        }
        Read { expr: IndexExpr::Sym(name), node: false, size: 0 }
    }

    /// Reads `value` as an operator node, or `None` when it is an atom.
    fn read_node(&mut self, value: Value<'c, 'a>, depth: usize) -> Option<Read> {
        if !value.r#type().is_index() || depth > MAX_DEPTH {
            return None;
        }
        let op = defining_op(value)?;
        let name = op_name(&op);
        if !TREE_OPS.contains(&name.as_str()) || op.result_count() != 1 {
            return None;
        }
        if name == "arith.constant" {
            return constant_int(value).map(|c| Read { expr: IndexExpr::Const(c), node: true, size: 0 });
        }
        let (a, b) = (op.operand(0).ok()?, op.operand(1).ok()?);
        let ra = self.read_at(a, depth + 1);
        let rb = self.read_at(b, depth + 1);
        let (ea, eb) = (ra.expr.clone(), rb.expr.clone());
        let pos_const = |e: &IndexExpr| matches!(e, IndexExpr::Const(c) if *c > 0);
        let non_negative = |me: &Self, e: &IndexExpr| analyze(e, &me.facts).range.lo.is_some_and(|lo| lo >= 0);
        let shift_amount = |e: &IndexExpr, max: i64| matches!(e, IndexExpr::Const(k) if (0..=max).contains(k));
        let expr = match name.as_str() {
            "arith.addi" => IndexExpr::bin(Op::Add, ea, eb),
            "arith.subi" => IndexExpr::bin(Op::Sub, ea, eb),
            "arith.muli" => IndexExpr::bin(Op::Mul, ea, eb),
            "arith.minsi" => IndexExpr::bin(Op::Min, ea, eb),
            "arith.maxsi" => IndexExpr::bin(Op::Max, ea, eb),
            "arith.andi" => IndexExpr::bin(Op::And, ea, eb),
            "arith.divsi" | "arith.divui" if pos_const(&eb) && non_negative(self, &ea) => {
                IndexExpr::bin(Op::FloorDiv, ea, eb)
            }
            "arith.remsi" | "arith.remui" if pos_const(&eb) && non_negative(self, &ea) => {
                IndexExpr::bin(Op::FloorMod, ea, eb)
            }
            "arith.floordivsi" if pos_const(&eb) => IndexExpr::bin(Op::FloorDiv, ea, eb),
            "arith.ceildivsi" => match eb {
                IndexExpr::Const(c) if c > 0 => {
                    IndexExpr::bin(Op::FloorDiv, IndexExpr::bin(Op::Add, ea, IndexExpr::Const(c - 1)), eb)
                }
                _ => return None,
            },
            "arith.shli" if shift_amount(&eb, 62) => IndexExpr::bin(Op::Shl, ea, eb),
            "arith.shrui" if shift_amount(&eb, 63) && non_negative(self, &ea) => IndexExpr::bin(Op::Shr, ea, eb),
            _ => return None,
        };
        let size = ra.size + rb.size + 1 + usize::from(name == "arith.ceildivsi");
        Some(Read { expr, node: true, size })
    }
}

/// The op defining `value` when `value` was read as a node (not an atom).
pub fn node_op<'c: 'a, 'a>(reader: &Reader<'c, 'a>, value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    reader.get(value).filter(|r| r.node).and_then(|_| defining_op(value))
}
