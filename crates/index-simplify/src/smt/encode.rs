//! SMT-LIB2 encodings of [`IndexExpr`] with **checked** `i64` semantics: a term is defined when
//! no intermediate leaves `[−2^63, 2^63)`, no divisor is 0 and every shift amount is in range,
//! exactly when [`IndexExpr::eval`] returns `Some`. Two encodings of the same semantics:
//!
//! * [`Theory::Int`]: mathematical integers with a range condition on every intermediate (the
//!   rule schemas: symbolic divisors make 64-bit bit-vector division intractable, see
//!   docs/index-simplification.md §13);
//! * [`Theory::Bv64`]: 64-bit two's complement bit-vectors (the per-rewrite proofs, whose divisors
//!   are constants), with [`Semantics::Wrapping`] also for what MLIR's `arith` computes when an
//!   `addi`/`subi`/`muli`/`shli` overflows (it wraps).

use crate::expr::{IndexExpr, Op};

/// Which SMT theory the encoding uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theory {
    Int,
    Bv64,
}

/// What an overflowing `+ − · <<` means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Semantics {
    /// Undefined (the index language and the rules: intermediates are assumed not to overflow).
    Checked,
    /// Wraps modulo 2^64 (MLIR `arith` without `nsw`); only for [`Theory::Bv64`].
    Wrapping,
}

/// An encoded term: its value and the conditions under which it is defined.
pub struct Encoded {
    pub value: String,
    pub defined: Vec<String>,
}

impl Encoded {
    /// The conjunction of [`Encoded::defined`].
    pub fn defined_formula(&self) -> String {
        conj(&self.defined)
    }
}

/// `(and ...)` of `parts` (`true` when empty).
pub fn conj(parts: &[String]) -> String {
    match parts.len() {
        0 => "true".to_string(),
        1 => parts[0].clone(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

/// The SMT name of a symbol (quoted, so `%arg0` or `?x` are fine).
pub fn symbol(name: &str) -> String {
    format!("|{}|", name.replace(['|', '\\'], "_"))
}

/// The sort of a symbol.
pub fn sort(theory: Theory) -> &'static str {
    match theory {
        Theory::Int => "Int",
        Theory::Bv64 => "(_ BitVec 64)",
    }
}

/// A constant.
pub fn constant(theory: Theory, v: i64) -> String {
    match theory {
        Theory::Int if v < 0 => format!("(- {})", (v as i128).abs()),
        Theory::Int => v.to_string(),
        Theory::Bv64 => format!("#x{:016x}", v as u64),
    }
}

/// Definitions every script needs before encoded terms (floor division and modulo, range
/// and overflow predicates).
pub fn prelude(theory: Theory) -> &'static str {
    match theory {
        // z3's `div`/`mod` are Euclidean; floor division agrees for b > 0, and ⌊a/b⌋ = ⌊−a/−b⌋.
        Theory::Int => {
            "(define-fun fdiv ((a Int) (b Int)) Int (ite (> b 0) (div a b) (div (- a) (- b))))\n\
             (define-fun fmod ((a Int) (b Int)) Int (- a (* b (fdiv a b))))\n\
             (define-fun in64 ((a Int)) Bool (and (<= (- 9223372036854775808) a) (<= a 9223372036854775807)))\n"
        }
        Theory::Bv64 => {
            "(define-fun fdiv ((a (_ BitVec 64)) (b (_ BitVec 64))) (_ BitVec 64)\n\
               (let ((q (bvsdiv a b)) (r (bvsrem a b)))\n\
                 (ite (and (not (= r #x0000000000000000)) (not (= (bvslt r #x0000000000000000) (bvslt b #x0000000000000000))))\n\
                      (bvsub q #x0000000000000001) q)))\n\
             (define-fun addok ((a (_ BitVec 64)) (b (_ BitVec 64))) Bool\n\
               (= ((_ sign_extend 1) (bvadd a b)) (bvadd ((_ sign_extend 1) a) ((_ sign_extend 1) b))))\n\
             (define-fun subok ((a (_ BitVec 64)) (b (_ BitVec 64))) Bool\n\
               (= ((_ sign_extend 1) (bvsub a b)) (bvsub ((_ sign_extend 1) a) ((_ sign_extend 1) b))))\n\
             (define-fun mulok ((a (_ BitVec 64)) (b (_ BitVec 64))) Bool\n\
               (= ((_ sign_extend 64) (bvmul a b)) (bvmul ((_ sign_extend 64) a) ((_ sign_extend 64) b))))\n"
        }
    }
}

/// Encodes `e`. Symbols are [`symbol`]s of sort [`sort`], declared by the caller.
pub fn encode(e: &IndexExpr, theory: Theory, sem: Semantics) -> Encoded {
    let mut defined = Vec::new();
    let value = enc(e, theory, sem, &mut defined);
    Encoded { value, defined }
}

fn enc(e: &IndexExpr, t: Theory, sem: Semantics, def: &mut Vec<String>) -> String {
    let (op, a, b) = match e {
        IndexExpr::Const(v) => return constant(t, *v),
        IndexExpr::Sym(n) => return symbol(n),
        IndexExpr::Bin(op, a, b) => (*op, enc(a, t, sem, def), enc(b, t, sem, def)),
    };
    let zero = constant(t, 0);
    match t {
        Theory::Int => {
            let v = match op {
                Op::Add => format!("(+ {a} {b})"),
                Op::Sub => format!("(- {a} {b})"),
                Op::Mul => format!("(* {a} {b})"),
                Op::FloorDiv | Op::FloorMod => {
                    def.push(format!("(not (= {b} 0))"));
                    format!("({} {a} {b})", if op == Op::FloorDiv { "fdiv" } else { "fmod" })
                }
                Op::Min => format!("(ite (<= {a} {b}) {a} {b})"),
                Op::Max => format!("(ite (>= {a} {b}) {a} {b})"),
                // Shifts by constants and low masks are floor arithmetic; anything else is not
                // expressible here ([`int_expressible`]), bit-level rules use `Theory::Bv64`.
                Op::Shl | Op::Shr | Op::And => match (op, int_bit_constant(e)) {
                    (Op::Shl, Some(p)) => format!("(* {a} {p})"),
                    (Op::Shr, Some(p)) => format!("(fdiv {a} {p})"),
                    (Op::And, Some(p)) => format!("(fmod {a} {p})"),
                    _ => {
                        def.push("false".to_string());
                        zero
                    }
                },
            };
            def.push(format!("(in64 {v})"));
            v
        }
        Theory::Bv64 => {
            let checked = sem == Semantics::Checked;
            match op {
                Op::Add | Op::Sub | Op::Mul => {
                    let (f, ok) = match op {
                        Op::Add => ("bvadd", "addok"),
                        Op::Sub => ("bvsub", "subok"),
                        _ => ("bvmul", "mulok"),
                    };
                    if checked {
                        def.push(format!("({ok} {a} {b})"));
                    }
                    format!("({f} {a} {b})")
                }
                // By a positive constant: unsigned division of `a` or of `¬a = −1 − a` (so
                // `⌊a/c⌋ = −1 − ⌊(−1 − a)/c⌋` for `a < 0`), which z3 solves far faster than
                // signed division (a shift for powers of two).
                Op::FloorDiv if is_pos_const(e) => {
                    format!("(ite (bvsge {a} {zero}) (bvudiv {a} {b}) (bvnot (bvudiv (bvnot {a}) {b})))")
                }
                Op::FloorMod if is_pos_const(e) => {
                    format!("(ite (bvsge {a} {zero}) (bvurem {a} {b}) (bvsub (bvsub {b} #x0000000000000001) (bvurem (bvnot {a}) {b})))")
                }
                Op::FloorDiv => {
                    def.push(format!("(not (= {b} {zero}))"));
                    // ⌊MIN / −1⌋ = 2^63 overflows (and `floordivsi` is undefined there).
                    def.push(format!("(not (and (= {a} #x8000000000000000) (= {b} #xffffffffffffffff)))"));
                    format!("(fdiv {a} {b})")
                }
                Op::FloorMod => {
                    def.push(format!("(not (= {b} {zero}))"));
                    // SMT-LIB's bvsmod takes the sign of the divisor: floor modulo.
                    format!("(bvsmod {a} {b})")
                }
                Op::Min => format!("(ite (bvsle {a} {b}) {a} {b})"),
                Op::Max => format!("(ite (bvsge {a} {b}) {a} {b})"),
                Op::Shl => {
                    def.push(format!("(bvsle {zero} {b})"));
                    def.push(format!("(bvsle {b} {})", constant(t, 62)));
                    let v = format!("(bvshl {a} {b})");
                    if checked {
                        def.push(format!("(= (bvashr {v} {b}) {a})"));
                    }
                    v
                }
                Op::Shr => {
                    def.push(format!("(bvsle {zero} {b})"));
                    def.push(format!("(bvsle {b} {})", constant(t, 63)));
                    format!("(bvashr {a} {b})")
                }
                Op::And => format!("(bvand {a} {b})"),
            }
        }
    }
}

/// For `a << k`, `a >> k` (`k` constant in range) the power `2^k`, for `a & (2^k − 1)` the
/// modulus `2^k`, as an integer literal.
fn int_bit_constant(e: &IndexExpr) -> Option<String> {
    let IndexExpr::Bin(op, _, b) = e else { return None };
    let IndexExpr::Const(c) = b.as_ref() else { return None };
    match op {
        Op::Shl if (0..=62).contains(c) => Some((1i128 << c).to_string()),
        Op::Shr if (0..=63).contains(c) => Some((1i128 << c).to_string()),
        Op::And => crate::expr::low_mask_width(*c).map(|k| (1i128 << k).to_string()),
        _ => None,
    }
}

/// True when [`Theory::Int`] encodes every node of `e` (shift amounts constant, masks `2^k − 1`).
pub fn int_expressible(e: &IndexExpr) -> bool {
    match e {
        IndexExpr::Bin(op, a, b) => {
            (!matches!(op, Op::Shl | Op::Shr | Op::And) || int_bit_constant(e).is_some())
                && int_expressible(a)
                && int_expressible(b)
        }
        _ => true,
    }
}

/// True when `e` is `a op c` with a positive constant `c`.
fn is_pos_const(e: &IndexExpr) -> bool {
    matches!(e, IndexExpr::Bin(_, _, b) if matches!(b.as_ref(), IndexExpr::Const(c) if *c > 0))
}

/// `a ≤ b`, `a < b`, `a = b` in either theory.
pub fn le(t: Theory, a: &str, b: &str) -> String {
    match t {
        Theory::Int => format!("(<= {a} {b})"),
        Theory::Bv64 => format!("(bvsle {a} {b})"),
    }
}

pub fn lt(t: Theory, a: &str, b: &str) -> String {
    match t {
        Theory::Int => format!("(< {a} {b})"),
        Theory::Bv64 => format!("(bvslt {a} {b})"),
    }
}

/// `a mod m = r mod m` (floor modulo, `m > 0`).
pub fn congruent(t: Theory, a: &str, r: i64, m: i64) -> String {
    let (m, r) = (constant(t, m), constant(t, r));
    match t {
        Theory::Int => format!("(= (fmod {a} {m}) (fmod {r} {m}))"),
        Theory::Bv64 => format!("(= (bvsmod {a} {m}) (bvsmod {r} {m}))"),
    }
}
