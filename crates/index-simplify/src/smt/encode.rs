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
    encode_within(e, theory, sem, &|_| None)
}

/// Inclusive bounds of a value (exact integers).
pub type Bounds = (i128, i128);

/// [`encode`] for a query that constrains each symbol `s` to `bounds(s)` (its facts, or the
/// `i64` range its own `in64` condition gives): in [`Theory::Int`], an intermediate whose
/// value interval arithmetic keeps inside `i64` over those bounds gets no `in64` condition,
/// which the bounds imply. The formula is then equivalent to [`encode`]'s at every point of the
/// bounds, wherever in the query it stands (under a negation too), and z3 has fewer (and
/// smaller) constraints: the range conditions were half its time on the suite's rewrites.
/// `None` bounds (the default of [`encode`]) leave every condition in.
pub fn encode_within(
    e: &IndexExpr,
    theory: Theory,
    sem: Semantics,
    bounds: &dyn Fn(&str) -> Option<Bounds>,
) -> Encoded {
    let mut defined = Vec::new();
    let (value, _) = enc(e, theory, sem, bounds, &mut defined);
    Encoded { value, defined }
}

/// The value of `e` and, in [`Theory::Int`], an interval that holds it at every point of the
/// bounds (`None`: unknown).
fn enc(
    e: &IndexExpr,
    t: Theory,
    sem: Semantics,
    bounds: &dyn Fn(&str) -> Option<Bounds>,
    def: &mut Vec<String>,
) -> (String, Option<Bounds>) {
    let ((a, ia), (b, ib), op) = match e {
        IndexExpr::Const(v) => return (constant(t, *v), Some((*v as i128, *v as i128))),
        IndexExpr::Sym(n) => return (symbol(n), bounds(n)),
        IndexExpr::Bin(op, a, b) => (enc(a, t, sem, bounds, def), enc(b, t, sem, bounds, def), *op),
    };
    let zero = constant(t, 0);
    let value = match t {
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
            let iv = ia.zip(ib).and_then(|(ia, ib)| interval(e, op, ia, ib));
            let in_i64 = |(lo, hi): Bounds| i64::MIN as i128 <= lo && hi <= i64::MAX as i128;
            if !iv.is_some_and(in_i64) {
                def.push(format!("(in64 {v})"));
            }
            return (v, iv);
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
    };
    (value, None)
}

/// An interval holding `a op b` for `a ∈ ia`, `b ∈ ib` in [`Theory::Int`]'s encoding of `e`
/// (floor division and modulo by a divisor fixed to one non-zero value; shifts and masks by
/// constants as products, floor divisions and moduli by powers of two); `None` when not known
/// (a divisor that may vary or be 0, whose quotient z3 leaves unspecified, or bounds outside
/// `i128`).
fn interval(e: &IndexExpr, op: Op, (alo, ahi): Bounds, (blo, bhi): Bounds) -> Option<Bounds> {
    let hull = |v: [Option<i128>; 4]| -> Option<Bounds> {
        let v = [v[0]?, v[1]?, v[2]?, v[3]?];
        Some((*v.iter().min()?, *v.iter().max()?))
    };
    let divisor = (blo == bhi && blo != 0).then_some(blo);
    let floor = |a: i128, c: i128| {
        let q = a / c;
        if a % c != 0 && (a < 0) != (c < 0) {
            q - 1
        } else {
            q
        }
    };
    match op {
        Op::Add => Some((alo.checked_add(blo)?, ahi.checked_add(bhi)?)),
        Op::Sub => Some((alo.checked_sub(bhi)?, ahi.checked_sub(blo)?)),
        Op::Mul => hull([alo.checked_mul(blo), alo.checked_mul(bhi), ahi.checked_mul(blo), ahi.checked_mul(bhi)]),
        // Monotone in the dividend for a fixed divisor: increasing for c > 0, decreasing for c < 0.
        Op::FloorDiv => {
            divisor.map(|c| if c > 0 { (floor(alo, c), floor(ahi, c)) } else { (floor(ahi, c), floor(alo, c)) })
        }
        Op::FloorMod => divisor.map(|c| if c > 0 { (0, c - 1) } else { (c + 1, 0) }),
        Op::Min => Some((alo.min(blo), ahi.min(bhi))),
        Op::Max => Some((alo.max(blo), ahi.max(bhi))),
        Op::Shl | Op::Shr | Op::And => {
            let p: i128 = int_bit_constant(e)?.parse().ok()?;
            match op {
                Op::Shl => Some((alo.checked_mul(p)?, ahi.checked_mul(p)?)),
                Op::Shr => Some((floor(alo, p), floor(ahi, p))),
                _ => Some((0, p - 1)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sym;
    use std::collections::HashMap;

    /// The `in64` conditions [`encode_within`] keeps for `e` under `bounds`.
    fn range_conditions(e: &IndexExpr, bounds: &HashMap<&str, Bounds>) -> usize {
        let enc = encode_within(e, Theory::Int, Semantics::Checked, &|s| bounds.get(s).copied());
        enc.defined.iter().filter(|d| d.starts_with("(in64")).count()
    }

    /// At the edge of `i64`: `x·4` needs its condition exactly when `x` may reach 2^61 (or
    /// go below −2^61); without bounds every intermediate keeps one, as [`encode`] does.
    #[test]
    fn a_range_condition_is_left_out_only_inside_i64() {
        let e = sym("x") * 4;
        let with = |lo: i128, hi: i128| range_conditions(&e, &[("x", (lo, hi))].into_iter().collect());
        assert_eq!(with(0, (1 << 61) - 1), 0);
        assert_eq!(with(0, 1 << 61), 1);
        assert_eq!(with(-(1 << 61), 0), 0);
        assert_eq!(with(-(1 << 61) - 1, 0), 1);
        let nested = (sym("x") * 4 + sym("y")) / 16 % 7;
        assert_eq!(range_conditions(&nested, &HashMap::new()), 4);
        assert_eq!(
            encode(&nested, Theory::Int, Semantics::Checked).defined.iter().filter(|d| d.starts_with("(in64")).count(),
            4
        );
        // A divisor that may vary (or be 0) gives no interval: its quotient keeps its condition.
        let b: HashMap<&str, Bounds> = [("x", (0, 100)), ("d", (-2, 2))].into_iter().collect();
        assert_eq!(range_conditions(&(sym("x") / sym("d")), &b), 1);
        assert_eq!(range_conditions(&(sym("x") / 3), &b), 0);
    }

    /// Interval arithmetic holds every value: random expressions (every operator, divisors of
    /// both signs, shifts and masks), random bounds and random points inside them; at each
    /// point where a sub-expression is defined, its value lies in its interval.
    #[test]
    fn intervals_hold_every_defined_value() {
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let names = ["a", "b", "c"];
        fn gen(depth: u32, next: &mut dyn FnMut() -> u64, names: &[&str]) -> IndexExpr {
            let r = next();
            if depth == 0 || r.is_multiple_of(7) {
                return match r % 3 {
                    0 => IndexExpr::c((next() % 41) as i64 - 20),
                    _ => sym(names[(next() % names.len() as u64) as usize]),
                };
            }
            let a = gen(depth - 1, next, names);
            let c = || IndexExpr::c(((r >> 8) % 37) as i64 - 18);
            match (r >> 4) % 10 {
                0 => a + gen(depth - 1, next, names),
                1 => a - gen(depth - 1, next, names),
                2 => a * gen(depth - 1, next, names),
                3 => IndexExpr::bin(Op::FloorDiv, a, c()),
                4 => IndexExpr::bin(Op::FloorMod, a, c()),
                5 => IndexExpr::bin(Op::Min, a, gen(depth - 1, next, names)),
                6 => IndexExpr::bin(Op::Max, a, gen(depth - 1, next, names)),
                7 => IndexExpr::bin(Op::Shl, a, IndexExpr::c(((r >> 8) % 5) as i64)),
                8 => IndexExpr::bin(Op::Shr, a, IndexExpr::c(((r >> 8) % 5) as i64)),
                _ => IndexExpr::bin(Op::And, a, IndexExpr::c((1 << ((r >> 8) % 6)) - 1)),
            }
        }
        fn subterms<'e>(e: &'e IndexExpr, out: &mut Vec<&'e IndexExpr>) {
            out.push(e);
            if let IndexExpr::Bin(_, a, b) = e {
                subterms(a, out);
                subterms(b, out);
            }
        }
        let (mut checked, mut bounded) = (0, 0);
        for _ in 0..400 {
            let e = gen(4, &mut next, &names);
            // Wide bounds sometimes, so that products leave i64 too.
            let scale = [100i64, 1 << 20, 1 << 40, i64::MAX][(next() % 4) as usize];
            let mut bounds: HashMap<&str, Bounds> = HashMap::new();
            for n in names {
                let (x, y) = ((next() as i64) % scale, (next() as i64) % scale);
                bounds.insert(n, (x.min(y) as i128, x.max(y) as i128));
            }
            let mut terms = Vec::new();
            subterms(&e, &mut terms);
            for _ in 0..20 {
                let env: HashMap<String, i64> = names
                    .iter()
                    .map(|n| {
                        let (lo, hi) = bounds[n];
                        let span = (hi - lo) as u128 + 1;
                        (n.to_string(), (lo + (next() as u128 % span) as i128) as i64)
                    })
                    .collect();
                for t in &terms {
                    let (_, iv) = enc(t, Theory::Int, Semantics::Checked, &|s| bounds.get(s).copied(), &mut Vec::new());
                    let (Some(v), Some((lo, hi))) = (t.eval(&env), iv) else { continue };
                    assert!(lo <= v as i128 && v as i128 <= hi, "{t} = {v} at {env:?} outside [{lo}, {hi}]");
                    checked += 1;
                    bounded += usize::from(hi - lo < 1 << 63);
                }
            }
        }
        assert!(
            checked > 10_000 && bounded > 1_000,
            "too few values checked: {checked} ({bounded} in narrow intervals)"
        );
    }
}
