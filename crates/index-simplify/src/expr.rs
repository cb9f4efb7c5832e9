//! The index-expression tree: what callers hand in and get back.
//!
//! [`IndexExpr`] is a plain tree over `i64` constants and named symbols with the operators of
//! [`Op`]. Semantics are those of mathematical integers with **floor** division and modulo
//! (`-7 floordiv 2 = -4`, `-7 mod 2 = 1`), evaluated with checked `i64` arithmetic: an overflow or
//! a division by zero makes the value undefined ([`IndexExpr::eval`] returns `None`).
//!
//! A pass rebuilds `arith` ops from a result with [`IndexExpr::visit`] and an [`IndexVisitor`].

use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use layout_algebra::sym::{BinOp, SymExpr};

/// Binary operators of the index language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    Add,
    Sub,
    Mul,
    /// Floor division `⌊a / b⌋`.
    FloorDiv,
    /// Floor modulo `a − b·⌊a / b⌋` (same sign as `b`).
    FloorMod,
    Min,
    Max,
    /// `a << k` = `a · 2^k` for `0 ≤ k ≤ 62` (undefined otherwise or on overflow).
    Shl,
    /// Arithmetic `a >> k` = `⌊a / 2^k⌋` for `0 ≤ k ≤ 63` (undefined otherwise).
    Shr,
    /// Bitwise and on two's complement; `a & (2^k − 1)` = `a mod 2^k` for every `a`.
    And,
}

impl Op {
    /// All operators, in declaration order.
    pub const ALL: [Op; 10] =
        [Op::Add, Op::Sub, Op::Mul, Op::FloorDiv, Op::FloorMod, Op::Min, Op::Max, Op::Shl, Op::Shr, Op::And];

    /// The spelling used by [`fmt::Display`] (and by `SymExpr`'s printer for the shared ops).
    pub fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::FloorDiv => "floordiv",
            Op::FloorMod => "mod",
            Op::Min => "min",
            Op::Max => "max",
            Op::Shl => "<<",
            Op::Shr => ">>",
            Op::And => "&",
        }
    }

    /// Applies the operator to concrete values; `None` on overflow, division by zero or an
    /// out-of-range shift amount. Never panics.
    pub fn eval(self, a: i64, b: i64) -> Option<i64> {
        match self {
            Op::Add => a.checked_add(b),
            Op::Sub => a.checked_sub(b),
            Op::Mul => a.checked_mul(b),
            Op::FloorDiv => floor_div(a, b),
            Op::FloorMod => floor_mod(a, b),
            Op::Min => Some(a.min(b)),
            Op::Max => Some(a.max(b)),
            Op::Shl => {
                if (0..=62).contains(&b) {
                    a.checked_mul(1i64 << b)
                } else {
                    None
                }
            }
            Op::Shr => {
                if (0..=63).contains(&b) {
                    Some(a >> b)
                } else {
                    None
                }
            }
            Op::And => Some(a & b),
        }
    }

    fn precedence(self) -> u8 {
        match self {
            Op::And => 0,
            Op::Shl | Op::Shr => 1,
            Op::Add | Op::Sub => 2,
            Op::Mul | Op::FloorDiv | Op::FloorMod => 3,
            Op::Min | Op::Max => 4,
        }
    }

    fn is_commutative(self) -> bool {
        matches!(self, Op::Add | Op::Mul | Op::Min | Op::Max | Op::And)
    }
}

/// `⌊a / b⌋`; `None` for `b = 0` and for `i64::MIN / -1`.
pub fn floor_div(a: i64, b: i64) -> Option<i64> {
    let q = a.checked_div(b)?;
    let r = a.checked_rem(b)?;
    if r != 0 && ((r < 0) != (b < 0)) {
        q.checked_sub(1)
    } else {
        Some(q)
    }
}

/// `a − b·⌊a / b⌋`; `None` for `b = 0`.
pub fn floor_mod(a: i64, b: i64) -> Option<i64> {
    if b == 0 {
        return None;
    }
    // `i64::MIN rem -1` overflows in Rust although the result is 0.
    if b == -1 {
        return Some(0);
    }
    let r = a % b;
    if r != 0 && ((r < 0) != (b < 0)) {
        Some(r + b)
    } else {
        Some(r)
    }
}

/// An index expression. Operands are shared (`Rc`): cloning is O(1), and a DAG converted from
/// the algebra's [`SymExpr`] keeps its sharing, so an emitter can emit a shared sub-expression
/// once by identity. Equality, hashing and order are by value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IndexExpr {
    Const(i64),
    Sym(String),
    Bin(Op, Rc<IndexExpr>, Rc<IndexExpr>),
}

/// Callbacks for [`IndexExpr::visit`], bottom-up: children are visited before their parent.
/// A pass implements this to emit `arith.constant`, block arguments and `arith` ops.
pub trait IndexVisitor {
    type Out;
    type Error;
    fn constant(&mut self, value: i64) -> Result<Self::Out, Self::Error>;
    fn symbol(&mut self, name: &str) -> Result<Self::Out, Self::Error>;
    fn binary(&mut self, op: Op, lhs: Self::Out, rhs: Self::Out) -> Result<Self::Out, Self::Error>;
}

impl IndexExpr {
    pub fn sym(name: &str) -> Self {
        IndexExpr::Sym(name.to_string())
    }

    pub fn c(value: i64) -> Self {
        IndexExpr::Const(value)
    }

    /// `a op b` without any folding.
    pub fn bin(op: Op, a: IndexExpr, b: IndexExpr) -> Self {
        IndexExpr::Bin(op, Rc::new(a), Rc::new(b))
    }

    /// Evaluates with checked `i64` arithmetic; `None` when a symbol is missing from `env` or
    /// an operation is undefined (overflow, division by zero, bad shift amount).
    pub fn eval(&self, env: &HashMap<String, i64>) -> Option<i64> {
        match self {
            IndexExpr::Const(v) => Some(*v),
            IndexExpr::Sym(n) => env.get(n).copied(),
            IndexExpr::Bin(op, a, b) => op.eval(a.eval(env)?, b.eval(env)?),
        }
    }

    /// Visits bottom-up (post-order) and returns what the visitor built for the root.
    pub fn visit<V: IndexVisitor>(&self, v: &mut V) -> Result<V::Out, V::Error> {
        match self {
            IndexExpr::Const(c) => v.constant(*c),
            IndexExpr::Sym(n) => v.symbol(n),
            IndexExpr::Bin(op, a, b) => {
                let a = a.visit(v)?;
                let b = b.visit(v)?;
                v.binary(*op, a, b)
            }
        }
    }

    /// Number of operator nodes of each kind, as `(op, count)` for the ops that occur.
    pub fn op_counts(&self) -> Vec<(Op, usize)> {
        let mut counts = [0usize; 10];
        self.count_into(&mut counts);
        Op::ALL.iter().zip(counts).filter(|(_, n)| *n > 0).map(|(op, n)| (*op, n)).collect()
    }

    fn count_into(&self, counts: &mut [usize; 10]) {
        if let IndexExpr::Bin(op, a, b) = self {
            counts[*op as usize] += 1;
            a.count_into(counts);
            b.count_into(counts);
        }
    }

    /// Number of `floordiv` and `mod` nodes (shifts and masks not included).
    pub fn div_mod_count(&self) -> usize {
        self.op_counts().iter().filter(|(op, _)| matches!(op, Op::FloorDiv | Op::FloorMod)).map(|(_, n)| n).sum()
    }

    /// Depth of the tree (a leaf has depth 1). Iterative, so it cannot overflow the stack.
    pub fn depth(&self) -> usize {
        let mut max = 0;
        let mut stack = vec![(self, 1usize)];
        while let Some((e, d)) = stack.pop() {
            max = max.max(d);
            if let IndexExpr::Bin(_, a, b) = e {
                stack.push((a, d + 1));
                stack.push((b, d + 1));
            }
        }
        max
    }

    /// Names of the symbols, sorted and unique.
    pub fn symbols(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match e {
                IndexExpr::Const(_) => {}
                IndexExpr::Sym(n) => out.push(n.clone()),
                IndexExpr::Bin(_, a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Converts to a [`SymExpr`] for the layout algebra. Shifts and masks become the
    /// equivalent floor ops (`a >> k` → `a floordiv 2^k`, `a & (2^k−1)` → `a mod 2^k`,
    /// `a << k` → `a * 2^k`); `None` for a shift by a non-constant or out-of-range amount and
    /// for a mask that is not `2^k − 1`, which `SymExpr` cannot express.
    pub fn to_sym_expr(&self) -> Option<SymExpr> {
        Some(match self {
            IndexExpr::Const(v) => SymExpr::Const(*v),
            IndexExpr::Sym(n) => SymExpr::sym(n),
            IndexExpr::Bin(op, a, b) => {
                let (bop, rhs) = match (op, b.as_ref()) {
                    (Op::Add, _) => (BinOp::Add, b.to_sym_expr()?),
                    (Op::Sub, _) => (BinOp::Sub, b.to_sym_expr()?),
                    (Op::Mul, _) => (BinOp::Mul, b.to_sym_expr()?),
                    (Op::FloorDiv, _) => (BinOp::FloorDiv, b.to_sym_expr()?),
                    (Op::FloorMod, _) => (BinOp::FloorMod, b.to_sym_expr()?),
                    (Op::Min, _) => (BinOp::Min, b.to_sym_expr()?),
                    (Op::Max, _) => (BinOp::Max, b.to_sym_expr()?),
                    (Op::Shl, IndexExpr::Const(k)) if (0..=62).contains(k) => (BinOp::Mul, SymExpr::Const(1i64 << k)),
                    (Op::Shr, IndexExpr::Const(k)) if (0..=62).contains(k) => {
                        (BinOp::FloorDiv, SymExpr::Const(1i64 << k))
                    }
                    (Op::And, IndexExpr::Const(m)) if low_mask_width(*m).is_some() => {
                        (BinOp::FloorMod, SymExpr::Const(m + 1))
                    }
                    _ => return None,
                };
                SymExpr::Bin(bop, Rc::new(a.to_sym_expr()?), Rc::new(rhs))
            }
        })
    }

    fn fmt_prec(&self, f: &mut fmt::Formatter<'_>, parent: u8) -> fmt::Result {
        match self {
            IndexExpr::Const(v) if *v < 0 && parent > 0 => write!(f, "({v})"),
            IndexExpr::Const(v) => write!(f, "{v}"),
            IndexExpr::Sym(n) => write!(f, "{n}"),
            IndexExpr::Bin(op @ (Op::Min | Op::Max), a, b) => write!(f, "{}({a}, {b})", op.symbol()),
            IndexExpr::Bin(op, a, b) => {
                let p = op.precedence();
                let paren = p < parent;
                if paren {
                    f.write_str("(")?;
                }
                a.fmt_prec(f, p)?;
                write!(f, " {} ", op.symbol())?;
                let assoc = op.is_commutative() && matches!(b.as_ref(), IndexExpr::Bin(o, ..) if o == op);
                b.fmt_prec(f, if assoc { p } else { p + 1 })?;
                if paren {
                    f.write_str(")")?;
                }
                Ok(())
            }
        }
    }
}

/// `Some(k)` when `m = 2^k − 1` with `1 ≤ k ≤ 62`.
pub fn low_mask_width(m: i64) -> Option<u32> {
    let p = m.checked_add(1)?;
    power_of_two_exp(p).filter(|k| *k >= 1)
}

/// `Some(k)` when `v = 2^k` with `0 ≤ k ≤ 62`.
pub(crate) fn power_of_two_exp(v: i64) -> Option<u32> {
    if v > 0 && v.count_ones() == 1 {
        Some(v.trailing_zeros())
    } else {
        None
    }
}

impl fmt::Display for IndexExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_prec(f, 0)
    }
}

/// The one conversion from the layout algebra's [`SymExpr`] (its inverse is
/// [`IndexExpr::to_sym_expr`]). Shared sub-trees stay shared: each `Rc` of the input is
/// converted once, so a DAG of `n` nodes costs `O(n)` however large its expanded tree is.
impl From<&SymExpr> for IndexExpr {
    fn from(e: &SymExpr) -> Self {
        from_sym(e, &mut HashMap::new())
    }
}

/// [`IndexExpr::from`] for several expressions at once: a sub-tree they share stays one `Rc`
/// across all of them (an emitter then emits it once for all).
pub fn from_sym_exprs(exprs: &[SymExpr]) -> Vec<IndexExpr> {
    let mut memo = HashMap::new();
    exprs.iter().map(|e| from_sym(e, &mut memo)).collect()
}

/// [`IndexExpr::from`] with the memo of converted shared sub-trees (by `Rc` address; the input
/// outlives the memo, so no address is reused while it is in use).
fn from_sym(e: &SymExpr, memo: &mut HashMap<*const SymExpr, Rc<IndexExpr>>) -> IndexExpr {
    match e {
        SymExpr::Const(v) => IndexExpr::Const(*v),
        SymExpr::Sym(n) => IndexExpr::Sym(n.to_string()),
        SymExpr::Bin(op, a, b) => {
            let op = match op {
                BinOp::Add => Op::Add,
                BinOp::Sub => Op::Sub,
                BinOp::Mul => Op::Mul,
                BinOp::FloorDiv => Op::FloorDiv,
                BinOp::FloorMod => Op::FloorMod,
                BinOp::Min => Op::Min,
                BinOp::Max => Op::Max,
            };
            let mut operand = |x: &Rc<SymExpr>| {
                if let Some(done) = memo.get(&Rc::as_ptr(x)) {
                    return done.clone();
                }
                let done = Rc::new(from_sym(x, memo));
                memo.insert(Rc::as_ptr(x), done.clone());
                done
            };
            let (a, b) = (operand(a), operand(b));
            IndexExpr::Bin(op, a, b)
        }
    }
}

impl From<SymExpr> for IndexExpr {
    fn from(e: SymExpr) -> Self {
        IndexExpr::from(&e)
    }
}

/// Convenience constructors for tests and callers: `sym("r") % 16 * 16 + sym("r") / 16 * 256`.
/// `/` and `%` are **floor** division and modulo.
pub fn sym(name: &str) -> IndexExpr {
    IndexExpr::sym(name)
}

macro_rules! op_impl {
    ($tr:ident, $m:ident, $op:expr) => {
        impl std::ops::$tr<IndexExpr> for IndexExpr {
            type Output = IndexExpr;
            fn $m(self, rhs: IndexExpr) -> IndexExpr {
                IndexExpr::bin($op, self, rhs)
            }
        }
        impl std::ops::$tr<i64> for IndexExpr {
            type Output = IndexExpr;
            fn $m(self, rhs: i64) -> IndexExpr {
                IndexExpr::bin($op, self, IndexExpr::Const(rhs))
            }
        }
    };
}
op_impl!(Add, add, Op::Add);
op_impl!(Sub, sub, Op::Sub);
op_impl!(Mul, mul, Op::Mul);
op_impl!(Div, div, Op::FloorDiv);
op_impl!(Rem, rem, Op::FloorMod);
op_impl!(Shl, shl, Op::Shl);
op_impl!(Shr, shr, Op::Shr);
op_impl!(BitAnd, bitand, Op::And);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floor_semantics() {
        assert_eq!(floor_div(-7, 2), Some(-4));
        assert_eq!(floor_mod(-7, 2), Some(1));
        assert_eq!(floor_div(7, -2), Some(-4));
        assert_eq!(floor_mod(7, -2), Some(-1));
        assert_eq!(floor_div(i64::MIN, -1), None);
        assert_eq!(floor_mod(i64::MIN, -1), Some(0));
        assert_eq!(floor_div(1, 0), None);
        assert_eq!(Op::Shr.eval(-7, 1), Some(-4));
        assert_eq!(Op::And.eval(-7, 1), Some(1));
        assert_eq!(Op::Shl.eval(1, 63), None);
    }

    #[test]
    fn display_and_sym_round_trip() {
        let e = (sym("r") % 16) * 16 + (sym("r") / 16) * 256;
        assert_eq!(e.to_string(), "r mod 16 * 16 + r floordiv 16 * 256");
        let s = e.to_sym_expr().unwrap();
        assert_eq!(IndexExpr::from(&s), e);
        let b = (sym("r") >> 4) & 15;
        assert_eq!(IndexExpr::from(&b.to_sym_expr().unwrap()).to_string(), "r floordiv 16 mod 16");
        assert!((sym("r") & 5).to_sym_expr().is_none());
    }

    /// `e_k = e_(k-1) + e_(k-1)` with one shared `Rc`: converting takes 48 steps (the expanded
    /// tree has 2^48 nodes, which the conversion used to build) and stays shared.
    #[test]
    fn conversion_from_sym_expr_keeps_shared_sub_trees_shared() {
        let mut e = SymExpr::sym("x");
        for _ in 0..48 {
            let shared = Rc::new(e);
            e = SymExpr::Bin(BinOp::Add, shared.clone(), shared);
        }
        let IndexExpr::Bin(Op::Add, a, b) = IndexExpr::from(&e) else { panic!("not a sum") };
        assert!(Rc::ptr_eq(&a, &b));
        let IndexExpr::Bin(Op::Add, c, d) = a.as_ref() else { panic!("not a sum") };
        assert!(Rc::ptr_eq(c, d));
    }
}
