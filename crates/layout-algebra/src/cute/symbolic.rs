//! Deciding the CuTe conditions on [`SymExpr`]: facts about the symbols and a polynomial normal
//! form to prove divisibility and order from.
//!
//! **Facts.** A symbol stands for a dynamic extent or stride, so without a declared fact it is
//! a positive integer (`>= 1`); [`SymFacts`] can raise the lower bound and declare a divisor
//! (`N % 16 == 0`, then also `N >= 16`). Negative dynamic strides are not supported.
//!
//! **Normal form.** An expression is read as a polynomial with integer coefficients over
//! *atoms*: the symbols, and every sub-expression that is not a polynomial (`x floordiv c`
//! that does not divide out, `mod`, `min`, `max`), each atom with a lower bound where one is
//! known (`(M + 15) floordiv 16 >= 1`).
//!
//! **Proofs** (sound, not complete; what is not proved is `Unknown`):
//! * `p >= 0`: substitute `x = lo_x + y` for every atom (`y >= 0`); if every non-constant
//!   coefficient is `>= 0` the constant term is a lower bound of `p`.
//! * `a <= b`: `b - a >= 0`; refuted if `a - b >= 1`.
//! * `b | a` for a monomial `b = c·m`: every term `k·m·r` of `a` contains `m`, and `c` divides
//!   `k·div(r)` where `div(r)` is the product of the declared divisors of `r`'s symbols.
//!   `16·M` is divisible by `M` and by `16`; `M` by `16` only with the fact `M % 16 == 0`.
//!   For a constant `b` that divides every non-constant term, the constant term decides it
//!   (`4·M + 2` is refuted for 4).

use std::collections::{BTreeMap, HashMap};

use crate::domain::{Decide, Truth};
use crate::error::Result;
use crate::sym::{BinOp, SymExpr};

/// What is known about one symbol: `value >= lo` and `value % divisor == 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SymFact {
    pub lo: i64,
    pub divisor: i64,
}

impl Default for SymFact {
    /// A dynamic extent or stride: a positive integer.
    fn default() -> Self {
        SymFact { lo: 1, divisor: 1 }
    }
}

impl SymFact {
    /// The least value the symbol can take: `lo` rounded up to a multiple of the divisor
    /// (in `i128`, so that no bound near `i64::MAX` overflows).
    pub fn least(&self) -> i128 {
        let (lo, d) = (i128::from(self.lo), i128::from(self.divisor.max(1)));
        lo.div_euclid(d) * d + if lo.rem_euclid(d) == 0 { 0 } else { d }
    }

    pub fn holds(&self, value: i64) -> bool {
        value >= self.lo && value.rem_euclid(self.divisor.max(1)) == 0
    }
}

/// Facts about the symbols of a symbolic layout (a symbol without one is `>= 1`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymFacts {
    syms: BTreeMap<String, SymFact>,
}

impl SymFacts {
    pub fn new() -> Self {
        Self::default()
    }

    /// `name >= lo`.
    pub fn at_least(mut self, name: &str, lo: i64) -> Self {
        self.syms.entry(name.to_string()).or_default().lo = lo;
        self
    }

    /// `name % d == 0` (`d > 0`; other values declare nothing).
    pub fn divisible(mut self, name: &str, d: i64) -> Self {
        if d > 0 {
            self.syms.entry(name.to_string()).or_default().divisor = d;
        }
        self
    }

    /// The fact of `name` (the default one if none was declared).
    pub fn fact(&self, name: &str) -> SymFact {
        self.syms.get(name).copied().unwrap_or_default()
    }

    /// Whether every symbol bound in `env` satisfies its fact.
    pub fn hold_at(&self, env: &HashMap<String, i64>) -> bool {
        env.iter().all(|(name, &v)| self.fact(name).holds(v))
    }
}

/// A product of atoms with exponents, sorted by atom key.
type Mono = Vec<(String, u32)>;

/// Bounds the work of a proof: larger polynomials are `Unknown`.
const MAX_TERMS: usize = 64;
const MAX_EXPONENT: u32 = 8;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Poly(BTreeMap<Mono, i128>);

impl Poly {
    fn constant(c: i128) -> Poly {
        let mut m = BTreeMap::new();
        if c != 0 {
            m.insert(Vec::new(), c);
        }
        Poly(m)
    }

    fn atom(key: &str) -> Poly {
        Poly(BTreeMap::from([(vec![(key.to_string(), 1)], 1)]))
    }

    fn as_constant(&self) -> Option<i128> {
        match self.0.len() {
            0 => Some(0),
            1 => self.0.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    fn constant_term(&self) -> i128 {
        self.0.get(&Vec::new()).copied().unwrap_or(0)
    }

    /// `self + sign·other`.
    fn add(&self, other: &Poly, sign: i128) -> Option<Poly> {
        let mut out = self.0.clone();
        for (m, c) in &other.0 {
            let e = out.entry(m.clone()).or_insert(0);
            *e = e.checked_add(c.checked_mul(sign)?)?;
            if *e == 0 {
                out.remove(m);
            }
        }
        (out.len() <= MAX_TERMS).then_some(Poly(out))
    }

    fn mul(&self, other: &Poly) -> Option<Poly> {
        let mut out = Poly::constant(0);
        for (ma, ca) in &self.0 {
            for (mb, cb) in &other.0 {
                let term = Poly(BTreeMap::from([(mono_mul(ma, mb)?, ca.checked_mul(*cb)?)]));
                out = out.add(&term, 1)?;
            }
        }
        Some(out)
    }

    /// Every coefficient divided by `c`, if all divide.
    fn div_const(&self, c: i128) -> Option<Poly> {
        if c == 0 || self.0.values().any(|k| k % c != 0) {
            return None;
        }
        Some(Poly(self.0.iter().map(|(m, k)| (m.clone(), k / c)).collect()))
    }
}

fn mono_mul(a: &Mono, b: &Mono) -> Option<Mono> {
    let mut out: BTreeMap<String, u32> = a.iter().cloned().collect();
    for (k, e) in b {
        let x = out.entry(k.clone()).or_insert(0);
        *x += e;
        if *x > MAX_EXPONENT {
            return None;
        }
    }
    Some(out.into_iter().collect())
}

/// `m / d` if every atom of `d` occurs in `m` at least as often.
fn mono_div(m: &Mono, d: &Mono) -> Option<Mono> {
    let mut out: BTreeMap<String, u32> = m.iter().cloned().collect();
    for (k, e) in d {
        let x = out.get_mut(k)?;
        *x = x.checked_sub(*e)?;
        if *x == 0 {
            out.remove(k);
        }
    }
    Some(out.into_iter().collect())
}

struct Atom {
    expr: SymExpr,
    lo: Option<i128>,
    divisor: i128,
}

/// Converts expressions to polynomials, remembering the atoms it met.
struct Norm<'a> {
    facts: &'a SymFacts,
    atoms: BTreeMap<String, Atom>,
}

impl<'a> Norm<'a> {
    fn new(facts: &'a SymFacts) -> Self {
        Norm { facts, atoms: BTreeMap::new() }
    }

    fn poly(&mut self, e: &SymExpr) -> Option<Poly> {
        match e {
            SymExpr::Const(v) => Some(Poly::constant(i128::from(*v))),
            SymExpr::Sym(name) => {
                let f = self.facts.fact(name);
                Some(self.atom(e.clone(), Some(f.least()), i128::from(f.divisor.max(1))))
            }
            SymExpr::Bin(op, a, b) => match op {
                BinOp::Add => self.poly(a)?.add(&self.poly(b)?, 1),
                BinOp::Sub => self.poly(a)?.add(&self.poly(b)?, -1),
                BinOp::Mul => self.poly(a)?.mul(&self.poly(b)?),
                BinOp::FloorDiv => {
                    let pa = self.poly(a)?;
                    if let SymExpr::Const(c) = b.as_ref() {
                        if *c > 0 {
                            if let Some(q) = pa.div_const(i128::from(*c)) {
                                return Some(q);
                            }
                            let lo = self.lower(&pa).map(|l| l.div_euclid(i128::from(*c)));
                            let expr = SymExpr::Bin(BinOp::FloorDiv, self.to_expr(&pa)?.into(), b.clone());
                            return Some(self.atom(expr, lo, 1));
                        }
                    }
                    let pb = self.poly(b)?;
                    if self.divides(&pa, &pb).proved() {
                        if let Some(q) = self.quotient(&pa, &pb) {
                            return Some(q);
                        }
                    }
                    // a floordiv b with b >= 1 is >= 1 where a >= b, >= 0 where a >= 0
                    let lo = if self.lower(&pb).is_some_and(|l| l >= 1) {
                        if pa.add(&pb, -1).and_then(|d| self.lower(&d)).is_some_and(|l| l >= 0) {
                            Some(1)
                        } else {
                            self.lower(&pa).filter(|l| *l >= 0).map(|_| 0)
                        }
                    } else {
                        None
                    };
                    let expr = SymExpr::Bin(BinOp::FloorDiv, self.to_expr(&pa)?.into(), self.to_expr(&pb)?.into());
                    Some(self.atom(expr, lo, 1))
                }
                BinOp::FloorMod => match b.as_ref() {
                    SymExpr::Const(c) if *c > 0 => {
                        let pa = self.poly(a)?;
                        let expr = SymExpr::Bin(BinOp::FloorMod, self.to_expr(&pa)?.into(), b.clone());
                        Some(self.atom(expr, Some(0), 1))
                    }
                    _ => self.opaque(e),
                },
                BinOp::Min | BinOp::Max => {
                    let (pa, pb) = (self.poly(a)?, self.poly(b)?);
                    let (la, lb) = (self.lower(&pa), self.lower(&pb));
                    let lo = match op {
                        BinOp::Min => la.zip(lb).map(|(x, y)| x.min(y)),
                        _ => la.max(lb),
                    };
                    let expr = SymExpr::Bin(*op, self.to_expr(&pa)?.into(), self.to_expr(&pb)?.into());
                    Some(self.atom(expr, lo, 1))
                }
            },
        }
    }

    /// An atom about which nothing is known.
    fn opaque(&mut self, e: &SymExpr) -> Option<Poly> {
        Some(self.atom(e.clone(), None, 1))
    }

    fn atom(&mut self, expr: SymExpr, lo: Option<i128>, divisor: i128) -> Poly {
        let key = expr.to_string();
        let p = Poly::atom(&key);
        self.atoms.entry(key).or_insert(Atom { expr, lo, divisor });
        p
    }

    /// A lower bound of `p` over all points allowed by the facts (see the module docs).
    fn lower(&self, p: &Poly) -> Option<i128> {
        let mut shifted = Poly::constant(0);
        for (mono, &c) in &p.0 {
            let mut term = Poly::constant(c);
            for (key, e) in mono {
                let base = Poly::constant(self.atoms.get(key)?.lo?).add(&Poly::atom(key), 1)?;
                for _ in 0..*e {
                    term = term.mul(&base)?;
                }
            }
            shifted = shifted.add(&term, 1)?;
        }
        shifted.0.iter().all(|(m, c)| m.is_empty() || *c >= 0).then(|| shifted.constant_term())
    }

    /// The product of the declared divisors of a monomial's atoms.
    fn divisor(&self, m: &Mono) -> Option<i128> {
        m.iter().try_fold(1i128, |acc, (k, e)| acc.checked_mul(self.atoms.get(k)?.divisor.checked_pow(*e)?))
    }

    /// Back to an expression: terms in atom order, the constant last.
    fn to_expr(&self, p: &Poly) -> Option<SymExpr> {
        let mut acc: Option<SymExpr> = None;
        let constant = p.0.get(&Vec::new()).copied();
        for (mono, &c) in p.0.iter().filter(|(m, _)| !m.is_empty()).chain(constant.iter().map(|c| (&EMPTY, c))) {
            let mut factor: Option<SymExpr> = None;
            for (key, e) in mono {
                for _ in 0..*e {
                    let x = &self.atoms.get(key)?.expr;
                    factor = Some(match factor {
                        None => x.clone(),
                        Some(f) => SymExpr::bin(BinOp::Mul, &f, x).ok()?,
                    });
                }
            }
            let magnitude = SymExpr::Const(i64::try_from(if acc.is_some() { c.abs() } else { c }).ok()?);
            let term = match factor {
                None => magnitude,
                Some(f) if magnitude == SymExpr::Const(1) => f,
                Some(f) => SymExpr::bin(BinOp::Mul, &magnitude, &f).ok()?,
            };
            acc = Some(match acc {
                None => term,
                Some(a) => SymExpr::bin(if c < 0 { BinOp::Sub } else { BinOp::Add }, &a, &term).ok()?,
            });
        }
        Some(acc.unwrap_or(SymExpr::Const(0)))
    }

    /// `p != 0` everywhere (it is `>= 1` or `<= -1`).
    fn nonzero(&self, p: &Poly) -> bool {
        let neg = Poly::constant(0).add(p, -1);
        self.lower(p).is_some_and(|l| l >= 1) || neg.is_some_and(|n| self.lower(&n).is_some_and(|l| l >= 1))
    }

    /// `d | p` (see the module docs). For a constant `d` whose multiples are all non-constant
    /// terms of `p`, the constant term decides both ways (`(4·M + 2) % 4 != 0`).
    fn divides(&self, p: &Poly, d: &Poly) -> Truth {
        if !self.nonzero(d) {
            return Truth::Unknown;
        }
        if p == d {
            return Truth::Proved;
        }
        let [(dm, &dc)] = d.0.iter().collect::<Vec<_>>()[..] else {
            return Truth::Unknown;
        };
        let term_divides = |m: &Mono, k: i128| {
            mono_div(m, dm).and_then(|r| k.checked_mul(self.divisor(&r)?)).is_some_and(|v| v % dc == 0)
        };
        if dm.is_empty() {
            if p.0.iter().all(|(m, &k)| m.is_empty() || term_divides(m, k)) {
                return Truth::from_bool(p.constant_term() % dc == 0);
            }
            return Truth::Unknown;
        }
        if p.0.iter().all(|(m, &k)| term_divides(m, k)) {
            Truth::Proved
        } else {
            Truth::Unknown
        }
    }

    /// `p / d` as a polynomial, when `d` is one term dividing every term exactly.
    fn quotient(&self, p: &Poly, d: &Poly) -> Option<Poly> {
        if p == d {
            return Some(Poly::constant(1));
        }
        let [(dm, &dc)] = d.0.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let mut out = BTreeMap::new();
        for (m, &k) in &p.0 {
            if k % dc != 0 {
                return None;
            }
            out.insert(mono_div(m, dm)?, k / dc);
        }
        Some(Poly(out))
    }
}

static EMPTY: Mono = Vec::new();

impl Decide for SymExpr {
    type Facts = SymFacts;

    fn divisible_by(&self, rhs: &Self, facts: &SymFacts) -> Truth {
        if let (SymExpr::Const(a), SymExpr::Const(b)) = (self, rhs) {
            return a.divisible_by(b, &());
        }
        let mut n = Norm::new(facts);
        let (Some(p), Some(d)) = (n.poly(self), n.poly(rhs)) else {
            return Truth::Unknown;
        };
        match (p.as_constant(), d.as_constant()) {
            (_, Some(0)) => Truth::Refuted,
            (Some(a), Some(b)) => Truth::from_bool(a % b == 0),
            _ => n.divides(&p, &d),
        }
    }

    fn le(&self, rhs: &Self, facts: &SymFacts) -> Truth {
        if let (SymExpr::Const(a), SymExpr::Const(b)) = (self, rhs) {
            return Truth::from_bool(a <= b);
        }
        let mut n = Norm::new(facts);
        let (Some(a), Some(b)) = (n.poly(self), n.poly(rhs)) else {
            return if self == rhs { Truth::Proved } else { Truth::Unknown };
        };
        let (Some(up), Some(down)) = (b.add(&a, -1), a.add(&b, -1)) else {
            return Truth::Unknown;
        };
        if n.lower(&up).is_some_and(|l| l >= 0) {
            Truth::Proved
        } else if n.lower(&down).is_some_and(|l| l >= 1) {
            Truth::Refuted
        } else {
            Truth::Unknown
        }
    }

    fn exact_div(&self, rhs: &Self, facts: &SymFacts) -> Result<Self> {
        let mut n = Norm::new(facts);
        if let (Some(p), Some(d)) = (n.poly(self), n.poly(rhs)) {
            if let Some(e) = n.quotient(&p, &d).and_then(|q| n.to_expr(&q)) {
                return Ok(e);
            }
        }
        SymExpr::bin(BinOp::FloorDiv, &self.canonical(facts), &rhs.canonical(facts))
    }

    fn canonical(&self, facts: &SymFacts) -> Self {
        let mut n = Norm::new(facts);
        n.poly(self).and_then(|p| n.to_expr(&p)).unwrap_or_else(|| self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::IndexValue;

    fn m() -> SymExpr {
        SymExpr::sym("M")
    }
    fn n() -> SymExpr {
        SymExpr::sym("N")
    }
    fn c(v: i64) -> SymExpr {
        SymExpr::Const(v)
    }

    #[test]
    fn divisibility_is_proved_refuted_or_unknown() {
        let none = SymFacts::new();
        let m16 = m().mul(&c(16)).unwrap();
        assert_eq!(m16.divisible_by(&c(16), &none), Truth::Proved);
        assert_eq!(m16.divisible_by(&m(), &none), Truth::Proved);
        assert_eq!(m16.divisible_by(&c(64), &none), Truth::Unknown);
        assert_eq!(m().divisible_by(&c(16), &none), Truth::Unknown);
        assert_eq!(m().divisible_by(&c(16), &SymFacts::new().divisible("M", 16)), Truth::Proved);
        assert_eq!(m16.divisible_by(&c(64), &SymFacts::new().divisible("M", 4)), Truth::Proved);
        // the constant term decides once every other term is a multiple
        let m4 = m().mul(&c(4)).unwrap();
        assert_eq!(m4.add(&c(2)).unwrap().divisible_by(&c(4), &none), Truth::Refuted);
        assert_eq!(m4.add(&c(8)).unwrap().divisible_by(&c(4), &none), Truth::Proved);
        assert_eq!(m4.add(&c(8)).unwrap().divisible_by(&c(0), &none), Truth::Refuted);
        let mn = m().mul(&n()).unwrap();
        assert_eq!(mn.mul(&c(6)).unwrap().divisible_by(&mn.mul(&c(3)).unwrap(), &none), Truth::Proved);
        assert_eq!(mn.divisible_by(&mn.mul(&c(3)).unwrap(), &none), Truth::Unknown);
        let sum = m().add(&n()).unwrap();
        assert_eq!(sum.divisible_by(&n().add(&m()).unwrap(), &none), Truth::Proved);
        // a divisor that may be 0 proves nothing
        let maybe_zero = m().sub(&c(1)).unwrap();
        assert_eq!(m().divisible_by(&maybe_zero, &none), Truth::Unknown);
    }

    #[test]
    fn order_uses_lower_bounds() {
        let none = SymFacts::new();
        assert_eq!(c(1).le(&m(), &none), Truth::Proved);
        assert_eq!(c(2).le(&m(), &none), Truth::Unknown);
        assert_eq!(c(2).le(&m(), &SymFacts::new().at_least("M", 2)), Truth::Proved);
        assert_eq!(c(16).le(&m(), &SymFacts::new().divisible("M", 16)), Truth::Proved);
        assert_eq!(c(17).le(&m(), &SymFacts::new().divisible("M", 16)), Truth::Unknown);
        let mn = m().mul(&n()).unwrap();
        assert_eq!(m().le(&mn, &none), Truth::Proved);
        assert_eq!(mn.lt(&m(), &none), Truth::Refuted);
        assert_eq!(m().add(&c(1)).unwrap().le(&m(), &none), Truth::Refuted);
        assert_eq!(m().eq_value(&m(), &none), Truth::Proved);
        assert_eq!(m().eq_value(&n(), &none), Truth::Unknown);
        // (M + 15) floordiv 16 >= 1, and a floordiv of an unbounded atom is unknown
        let ceil = m().ceil_div(&c(16)).unwrap();
        assert_eq!(c(1).le(&ceil, &none), Truth::Proved);
        let unknown = m().floor_mod(&n()).unwrap().floor_div(&c(2)).unwrap();
        assert_eq!(c(0).le(&unknown, &none), Truth::Unknown);
        // ceil_div(4M, 3K) >= 1 by a >= b, a floordiv b >= 1
        let k3 = SymExpr::sym("K").mul(&c(3)).unwrap();
        let big = k3.mul(&m()).unwrap().mul(&c(4)).unwrap();
        assert_eq!(c(1).le(&big.ceil_div(&k3).unwrap(), &none), Truth::Proved);
    }

    #[test]
    fn normal_forms_and_exact_quotients() {
        let none = SymFacts::new();
        let e = m().mul(&c(16)).unwrap().mul(&c(2)).unwrap().add(&c(0)).unwrap();
        assert_eq!(e.canonical(&none).to_string(), "32 * M");
        assert_eq!(m().ceil_div(&c(16)).unwrap().canonical(&none).to_string(), "(M + 15) floordiv 16");
        assert_eq!(m().add(&n()).unwrap().sub(&m()).unwrap().canonical(&none), n());
        let a = c(16).mul(&m()).unwrap().mul(&n()).unwrap();
        assert_eq!(a.exact_div(&c(4).mul(&m()).unwrap(), &none).unwrap().to_string(), "4 * N");
        // no polynomial quotient: the exact floordiv stays
        assert_eq!(m().exact_div(&c(16), &none).unwrap().to_string(), "M floordiv 16");
        let mut env = HashMap::new();
        env.insert("M".to_string(), 48);
        assert_eq!(m().exact_div(&c(16), &none).unwrap().eval(&env).unwrap(), 3);
    }

    #[test]
    fn facts_hold_at_points() {
        let f = SymFacts::new().divisible("M", 16).at_least("N", 3);
        assert_eq!(f.fact("M").least(), 16);
        assert_eq!(f.fact("K"), SymFact::default());
        let at = |m: i64, n: i64| HashMap::from([("M".to_string(), m), ("N".to_string(), n)]);
        assert!(f.hold_at(&at(32, 3)));
        assert!(!f.hold_at(&at(8, 3)));
        assert!(!f.hold_at(&at(16, 2)));
        assert!(!f.hold_at(&HashMap::from([("K".to_string(), 0)])));
        let huge = SymFacts::new().at_least("M", i64::MAX).divisible("M", 2);
        assert_eq!(huge.fact("M").least(), i128::from(i64::MAX) + 1);
        assert_eq!(c(i64::MAX).le(&m(), &huge), Truth::Proved);
    }
}
