//! # index-simplify
//!
//! Removes `floordiv`/`mod` from index and offset arithmetic with range facts, using an
//! e-graph ([`egg`]). No MLIR dependency: a pass converts its `arith` ops to an [`IndexExpr`],
//! calls [`simplify`], and rebuilds ops from [`SimplifyReport::expr`] with an
//! [`IndexVisitor`]. Layout formulas from `layout-algebra` come in as
//! [`layout_algebra::SymExpr`] through the one conversion, `IndexExpr::from(&sym)` (sharing
//! kept; [`from_sym_exprs`] for several at once), and go back with [`IndexExpr::to_sym_expr`].
//! [`ArithOp`] lists the `arith` index ops a pass reads and writes and when each computes an
//! [`Op`].
//!
//! ## Semantics
//! Integers with **floor** division and modulo: `⌊a / b⌋` and `a mod b = a − b·⌊a / b⌋`
//! (for `b > 0`, `0 ≤ a mod b < b` also for negative `a`). A result is equal to its input at
//! every point admitted by the declared [`Facts`] where the input is defined. The rules are
//! identities over ℤ and the analysis computes in ℤ (`i128`, infinite beyond `i64`); index
//! arithmetic is assumed not to overflow `i64` in its intermediate values (as for any
//! reassociation, `a·c + b·c` may overflow where `(a + b)·c` does not, at values far beyond
//! any tensor extent).
//!
//! ## Method
//! * **Facts.** Each symbol may carry a range `[lo, hi]` and a known divisor or congruence
//!   ([`Facts::range`], [`Facts::divisible`], [`Facts::congruent`]). A symbol without facts has
//!   an unknown range. [`analyze`] gives the interval and congruence of a whole tree.
//! * **Analysis** ([`analysis`]). Every e-class carries an interval and a modular fact
//!   `x ≡ r (mod m)`, computed bottom-up (`[a,b] + [c,d] = [a+c, b+d]`,
//!   `⌊[a,b] / c⌋ = [⌊a/c⌋, ⌊b/c⌋]` for `c > 0`, `[a,b] mod c = [a,b]` if `0 ≤ a ∧ b < c`
//!   else `[0, c−1]`, `(m1,r1)+(m2,r2) = (gcd(m1,m2), r1+r2)`, …) and **intersected** when
//!   classes merge (CRT for the congruences). Bounds are computed in `i128`; one that leaves
//!   `i64` becomes infinite. A class pinned to one value is constant-folded (checked `i64`:
//!   overflow ⇒ no fold, never wrap).
//! * **Rules** ([`rules`]): D0–D7, M0–M6, S1, R0–R2, P1–P2 (shifts/masks), B1–B3, N1–N2 and
//!   identities. Every conditional rule reads proven facts only: an unknown bound makes its
//!   condition false.
//! * **Small e-graphs.** Associativity/commutativity are not rules. Sums are normalized
//!   outside the e-graph into sorted `Σ cᵢ·atomᵢ + k` ([`normalize`]), inserted with each term
//!   peeled to the front, and the run is bounded by [`SimplifyOptions`] (iterations, nodes,
//!   time); [`SimplifyReport::bound_hit`] says whether a bound stopped it.
//! * **Extraction** with [`cost::OpCost`]: `div`/`mod` 32, `*` 4, `min`/`max` 2, `+ - << >> &`
//!   1, leaves 0 (see [`cost`] for why).
//!
//! ## Worked examples
//! NZ rows: `r mod 16 * 16 + r floordiv 16 * 256`. The two terms are `(r mod 16)·16` and
//! `⌊r/16⌋·(16·16)`, so rule R1s (`(x mod c)·k + ⌊x/c⌋·(c·k) = x·k`) gives `r * 16` — true
//! for every `r`, and with `r ∈ [0, 15]` M0/D0 reach it too (`r mod 16 = r`, `⌊r/16⌋ = 0`):
//!
//! ```
//! use index_simplify::{simplify, sym, Facts};
//! let r = || sym("r");
//! let e = (r() % 16) * 16 + (r() / 16) * 256;
//! let rep = simplify(&e, &Facts::new().range("r", 0, 15));
//! assert_eq!(rep.expr.to_string(), "r * 16");
//! assert!(rep.cost_after < rep.cost_before);
//! ```
//!
//! Tile-local coordinate: row `i + 16·t` of tile `t` with `i ∈ [0, 15]`. Its fractal index
//! `(i + 16·t) floordiv 16` is `t` by D2 (`⌊(x·c + y)/c⌋ = x` for `y ∈ [0, c)`); its row in
//! the fractal, `(i + 16·t) mod 16`, is `i` by M1 then M0:
//!
//! ```
//! use index_simplify::{simplify, sym, Facts};
//! let facts = Facts::new().range("i", 0, 15).range("t", 0, 6);
//! let row = sym("i") + sym("t") * 16;
//! assert_eq!(simplify(&(row.clone() / 16), &facts).expr.to_string(), "t");
//! assert_eq!(simplify(&(row % 16), &facts).expr.to_string(), "i");
//! ```
//!
//! Without the range of `i` neither happens: `(i + 16·t) floordiv 16` becomes
//! `t + i floordiv 16` (D1, valid for every `i`) and keeps its division.

pub mod analysis;
pub mod arith;
pub mod cost;
pub mod expr;
pub mod facts;
pub mod normalize;
pub mod rules;
pub mod simplify;

#[cfg(test)]
mod tests;

pub use analysis::{analyze, Data, Interval, Modular};
pub use arith::{ArithOp, Exact};
pub use expr::{floor_div, floor_mod, from_sym_exprs, sym, IndexExpr, IndexVisitor, Op};
pub use facts::{Facts, InconsistentFact, SymFact};
pub use rules::{rule_catalog, RuleInfo};
pub use simplify::{simplify, simplify_with, SimplifyOptions, SimplifyReport, StopReason};
