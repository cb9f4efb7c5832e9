//! The extraction cost: a rough cycle model of the scalar unit that evaluates addresses.
//!
//! | node | weight | reason |
//! |---|---|---|
//! | constant, symbol | 0 | an immediate or a register that exists anyway |
//! | `+`, `-`, `<<`, `>>`, `&` | 1 | single-cycle ALU ops |
//! | `min`, `max` | 2 | compare + select |
//! | `*` | 4 | integer multiply: multi-cycle latency on the scalar unit (3–4 on typical cores) |
//! | `floordiv`, `mod` | 32 | integer division is iterative (tens of cycles), and floor semantics on signed values adds a compare/select fix-up after `divsi`/`remsi` (what `-lower-affine` emits) |
//!
//! Division and modulo are weighed far above everything else so that removing one pays for
//! several extra multiplies and adds (`r mod 16 * 16 + r floordiv 16 * 256` costs
//! 32+4+32+4+1 = 73, `r * 16` costs 4). Ties are broken by egg's extractor; the driver keeps the
//! input when nothing is strictly cheaper.

use egg::{CostFunction, Id, Language};

use crate::analysis::IndexLang;
use crate::expr::{IndexExpr, Op};

pub const COST_LEAF: usize = 0;
pub const COST_ADD: usize = 1;
pub const COST_BIT: usize = 1;
pub const COST_MIN_MAX: usize = 2;
pub const COST_MUL: usize = 4;
pub const COST_DIV_MOD: usize = 32;

/// Weight of one operator node.
pub fn op_weight(op: Op) -> usize {
    match op {
        Op::Add | Op::Sub => COST_ADD,
        Op::Shl | Op::Shr | Op::And => COST_BIT,
        Op::Min | Op::Max => COST_MIN_MAX,
        Op::Mul => COST_MUL,
        Op::FloorDiv | Op::FloorMod => COST_DIV_MOD,
    }
}

/// The cost of a tree (sum of node weights; shared sub-trees are counted every time, as in
/// egg's tree extraction).
pub fn expr_cost(e: &IndexExpr) -> usize {
    let mut total = 0usize;
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            IndexExpr::Const(_) | IndexExpr::Sym(_) => total = total.saturating_add(COST_LEAF),
            IndexExpr::Bin(op, a, b) => {
                total = total.saturating_add(op_weight(*op));
                stack.push(a);
                stack.push(b);
            }
        }
    }
    total
}

/// The egg cost function with the weights above.
#[derive(Clone, Copy, Debug, Default)]
pub struct OpCost;

impl CostFunction<IndexLang> for OpCost {
    type Cost = usize;
    fn cost<C>(&mut self, enode: &IndexLang, mut costs: C) -> usize
    where
        C: FnMut(Id) -> usize,
    {
        let own = enode.as_op().map(|(op, _)| op_weight(op)).unwrap_or(COST_LEAF);
        enode.fold(own, |sum, id| sum.saturating_add(costs(id)))
    }
}
