//! # index-simplify
//!
//! Removes `floordiv`/`mod` from index and offset arithmetic with range facts, using an
//! e-graph ([`egg`]). No MLIR dependency: a pass converts its `arith` ops to an [`IndexExpr`]
//! ([`ArithOp`] says which op computes which [`Op`]), calls [`simplify`], and rebuilds ops from
//! [`SimplifyReport::expr`] with an [`IndexVisitor`]. Layout formulas ([`layout_algebra::SymExpr`])
//! cross the one boundary `IndexExpr::from(&sym)` / [`IndexExpr::to_sym_expr`] ([`from_sym_exprs`]
//! keeps sharing). Semantics, [`Facts`], [`analysis`], [`rules`], the bounds of
//! [`SimplifyOptions`] and the [`cost`] model: docs/index-simplification.md.
//!
//! NZ rows, `r mod 16 * 16 + r floordiv 16 * 256`, are `r * 16` for every `r` (R1s); a
//! tile-local row `i + 16·t` with `i ∈ [0, 15]` has fractal `t` (D2) and row `i` (M1, M0):
//!
//! ```
//! use index_simplify::{simplify, sym, Facts};
//! let r = || sym("r");
//! let rep = simplify(&((r() % 16) * 16 + (r() / 16) * 256), &Facts::new().range("r", 0, 15));
//! assert_eq!(rep.expr.to_string(), "r * 16");
//! assert!(rep.cost_after < rep.cost_before);
//! let facts = Facts::new().range("i", 0, 15).range("t", 0, 6);
//! let row = sym("i") + sym("t") * 16;
//! assert_eq!(simplify(&(row.clone() / 16), &facts).expr.to_string(), "t");
//! assert_eq!(simplify(&(row % 16), &facts).expr.to_string(), "i");
//! ```

pub mod analysis;
pub mod arith;
pub mod cache;
pub mod cost;
pub mod cpu;
pub mod expr;
pub mod facts;
pub mod normalize;
pub mod rules;
pub mod simplify;
pub mod smt;

#[cfg(test)]
mod cache_tests;
#[cfg(test)]
mod tests;

pub use analysis::{analyze, Data, Interval, Modular};
pub use arith::{ArithOp, Exact};
pub use cache::{CacheStats, SimplifyCache};
pub use expr::{floor_div, floor_mod, from_sym_exprs, sym, IndexExpr, IndexVisitor, Op};
pub use facts::{Facts, InconsistentFact, SymFact};
pub use rules::{rule_catalog, RuleInfo};
pub use simplify::{simplify, simplify_with, simplify_without_rules, SimplifyOptions, SimplifyReport, StopReason};
