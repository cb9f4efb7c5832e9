//! Reading trees of `index`-typed `arith` ops into [`IndexExpr`]s.
//!
//! [`Reader::read`] follows operands through the arith ops the pass understands and stops at
//! *atoms*: block arguments, results of other ops, and arith ops that cannot be read exactly
//! (a signed division whose dividend is not proven non-negative, a division by a non-constant,
//! a shift by a non-constant). Each atom becomes a symbol; the facts about it (loop ranges,
//! `memref.dim ≥ 0`) are gathered by [`super::facts`] the first time it is met.
//!
//! Each reading is exact (floor semantics of [`IndexExpr`]; index arithmetic is assumed not to
//! overflow, as everywhere in `index-simplify`): the table of ops, readings and conditions is
//! docs/index-simplification.md §3. Anything else is an atom, so the reading never claims more
//! than the op computes. Which op computes which operator, and when, is
//! `index_simplify::ArithOp::computes` (the list the emitter writes from); the reader adds the
//! constant operands the analysis needs.

use std::collections::HashMap;

use index_simplify::{ArithOp, Data, Exact, Facts, IndexExpr, Op};
use melior::ir::{operation::OperationLike, OperationRef, TypeLike, Value, ValueLike};

use crate::ir::{constant_int, defining_op, op_name};

/// Whether `name` is an op that may be read as a tree node (whether one is, depends on its
/// operands): an `arith.constant` or one of the index ops of [`ArithOp`].
pub fn is_tree_op(name: &str) -> bool {
    name == "arith.constant" || ArithOp::from_name(name).is_some()
}

/// The node budget of one tree: operator nodes after expanding shared sub-trees. A value whose
/// tree would be larger is *split off*: it becomes an atom of the trees that use it, and the
/// trees of its operands are simplified on their own (each within the budget). This bounds the
/// work per tree (reading, e-graph, rebuilding), so a whole function costs time and memory
/// linear in its size; a tree within the budget is never deeper than
/// `SimplifyOptions::max_depth` (256), so the simplifier never refuses one for its depth.
/// Offset trees of real kernels have a few dozen nodes (the largest in the lit suite and the examples: 14).
pub const MAX_TREE_NODES: usize = 200;
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

/// How a memoized value was read: one operator over its operands' entries, never an expanded
/// tree, so reading a chain of N ops stores N small entries (the old memo held each value's
/// whole tree: ~250 KB per link of a long chain).
#[derive(Clone, Debug)]
enum Shape {
    Atom(String),
    Const(i64),
    Bin(Op, usize, usize),
    /// `ceildivsi a, c` read as `(a + c − 1) floordiv c`.
    CeilDiv(usize, i64),
}

#[derive(Clone, Debug)]
struct Entry {
    shape: Shape,
    /// Operator nodes of the expanded tree (≤ [`MAX_TREE_NODES`] for nodes, 0 for atoms).
    size: usize,
    /// `analyze` of the expanded tree, computed bottom-up from the operands' entries.
    data: Data,
}

impl Entry {
    fn node(&self) -> bool {
        !matches!(self.shape, Shape::Atom(_))
    }
}

/// A value whose tree passed [`MAX_TREE_NODES`] and was split off (read as an atom).
#[derive(Clone, Copy, Debug)]
pub struct Split<'c, 'a> {
    pub value: Value<'c, 'a>,
    /// Operator nodes its tree would have had (shared sub-trees counted at each use).
    pub size: usize,
}

/// Reads arith trees of one region tree; symbols and facts are shared by all trees read.
pub struct Reader<'c, 'a> {
    memo: HashMap<usize, Entry>,
    /// Atom symbol → the value it stands for (for rebuilding).
    pub symbols: HashMap<String, Value<'c, 'a>>,
    /// Facts about the atoms.
    pub facts: Facts,
    /// The values split off for the node budget, in reading order.
    pub split: Vec<Split<'c, 'a>>,
    counter: usize,
}

impl<'c: 'a, 'a> Default for Reader<'c, 'a> {
    fn default() -> Self {
        Reader { memo: HashMap::new(), symbols: HashMap::new(), facts: Facts::new(), split: Vec::new(), counter: 0 }
    }
}

impl<'c: 'a, 'a> Reader<'c, 'a> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether `value` was read as a node (`None`: not read yet).
    pub fn is_node(&self, value: Value) -> Option<bool> {
        self.memo.get(&key(value)).map(Entry::node)
    }

    /// The analysis (interval, congruence) of a value that was read.
    pub fn data(&self, value: Value) -> Option<Data> {
        self.memo.get(&key(value)).map(|e| e.data)
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
        self.memo.insert(key(value), Entry { shape: Shape::Atom(name.clone()), size: 0, data: Data::from_fact(&fact) });
        Some(name)
    }

    /// Reads `value` (memoized) and returns its expanded tree.
    pub fn read(&mut self, value: Value<'c, 'a>) -> Read {
        let (node, size) = self.scan(value);
        Read { expr: self.expand(key(value)), node, size }
    }

    /// Reads `value` (memoized) without building its tree: `(node, size)` as in [`Read`].
    /// Constant work per op on top of its operands' readings.
    pub fn scan(&mut self, value: Value<'c, 'a>) -> (bool, usize) {
        self.scan_at(value, 0);
        let entry = &self.memo[&key(value)];
        (entry.node(), entry.size)
    }

    /// The expanded tree of a value that was read (`None` if it was not).
    pub fn expr(&self, value: Value) -> Option<IndexExpr> {
        self.memo.contains_key(&key(value)).then(|| self.expand(key(value)))
    }

    /// The tree of entry `k`: at most [`MAX_TREE_NODES`] operators (+ leaves), so the
    /// recursion is shallow.
    fn expand(&self, k: usize) -> IndexExpr {
        match &self.memo[&k].shape {
            Shape::Atom(name) => IndexExpr::Sym(name.clone()),
            Shape::Const(c) => IndexExpr::Const(*c),
            Shape::Bin(op, a, b) => IndexExpr::bin(*op, self.expand(*a), self.expand(*b)),
            Shape::CeilDiv(a, c) => IndexExpr::bin(
                Op::FloorDiv,
                IndexExpr::bin(Op::Add, self.expand(*a), IndexExpr::Const(c - 1)),
                IndexExpr::Const(*c),
            ),
        }
    }

    fn scan_at(&mut self, value: Value<'c, 'a>, depth: usize) -> usize {
        let k = key(value);
        if self.memo.contains_key(&k) {
            return k;
        }
        let entry = match self.read_node(value, depth) {
            Some(e) if e.size <= MAX_TREE_NODES => e,
            Some(e) => {
                self.split.push(Split { value, size: e.size });
                self.atom(value)
            }
            None => self.atom(value),
        };
        self.memo.insert(k, entry);
        k
    }

    /// A fresh symbol for `value`, with its facts.
    fn atom(&mut self, value: Value<'c, 'a>) -> Entry {
        let prefix = super::facts::symbol_prefix(value);
        let name = format!("{prefix}{}", self.counter);
        self.counter += 1;
        self.symbols.insert(name.clone(), value);
        // Facts may need other values read first (loop bounds); they never need this one.
        let mut data = Data::TOP;
        if let Some(fact) = super::facts::fact_of(self, value) {
            self.facts.set(&name, fact);
            data = Data::from_fact(&fact);
        }
        Entry { shape: Shape::Atom(name), size: 0, data }
    }

    /// Reads `value` as an operator node, or `None` when it is an atom.
    fn read_node(&mut self, value: Value<'c, 'a>, depth: usize) -> Option<Entry> {
        if !value.r#type().is_index() || depth > MAX_DEPTH {
            return None;
        }
        let op = defining_op(value)?;
        let name = op_name(&op);
        if !is_tree_op(&name) || op.result_count() != 1 {
            return None;
        }
        if name == "arith.constant" {
            return constant_int(value).map(|c| Entry { shape: Shape::Const(c), size: 0, data: Data::exact(c) });
        }
        let (a, b) = (op.operand(0).ok()?, op.operand(1).ok()?);
        let ka = self.scan_at(a, depth + 1);
        let kb = self.scan_at(b, depth + 1);
        let (ea, eb) = (&self.memo[&ka], &self.memo[&kb]);
        let konst = |e: &Entry| match e.shape {
            Shape::Const(c) => Some(c),
            _ => None,
        };
        let pos_const = konst(eb).is_some_and(|c| c > 0);
        let non_negative = ea.data.range.lo.is_some_and(|lo| lo >= 0);
        let shift_amount = |max: i64| konst(eb).is_some_and(|k| (0..=max).contains(&k));
        let size = ea.size + eb.size + 1;
        let bin = |op: Op| {
            let data = Data::apply(op, &ea.data, &eb.data);
            Some(Entry { shape: Shape::Bin(op, ka, kb), size, data })
        };
        let arith = ArithOp::from_name(&name)?;
        if arith == ArithOp::CeilDivSI {
            let c = konst(eb).filter(|c| *c > 0)?;
            let sum = Data::apply(Op::Add, &ea.data, &Data::exact(c - 1));
            let data = Data::apply(Op::FloorDiv, &sum, &eb.data);
            return Some(Entry { shape: Shape::CeilDiv(ka, c), size: size + 1, data });
        }
        // Read only where `ArithOp::computes` says the op is the operator; divisors and shift
        // amounts must also be constants the analysis can use.
        let (op, exact) = arith.computes()?;
        let exact = match exact {
            Exact::Always => true,
            Exact::NonNegativeLhs => non_negative && (pos_const || arith == ArithOp::ShRUI),
        };
        let operands_ok = match op {
            Op::FloorDiv | Op::FloorMod => pos_const,
            Op::Shl => shift_amount(62),
            Op::Shr => shift_amount(63),
            _ => true,
        };
        (exact && operands_ok).then(|| bin(op)).flatten()
    }
}

/// The op defining `value` when `value` was read as a node (not an atom).
pub fn node_op<'c: 'a, 'a>(reader: &Reader<'c, 'a>, value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    reader.is_node(value).filter(|node| *node).and_then(|_| defining_op(value))
}
