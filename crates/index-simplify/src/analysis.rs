//! The e-graph language and its e-class analysis (interval + modular set + constant).
//!
//! Every e-class carries [`Data`]: an interval `[lo, hi]` (infinite ends allowed) and a modular
//! fact `x ≡ r (mod m)` (TVM's `modular_set`, Halide's alignment). Both are *sound
//! over-approximations* of the values the class takes at every point admitted by the declared
//! [`Facts`], so two facts about the same class can be **intersected** when classes merge.
//! Arithmetic on bounds is done in `i128`; a bound that leaves `i64` becomes infinite, so no
//! bound ever wraps. A class whose facts pin a single value gets a `Num` node and is pruned to
//! its leaves (constant folding); folding uses checked `i64` arithmetic and does not happen on
//! overflow.

use std::collections::HashMap;

use egg::{define_language, Analysis, DidMerge, EGraph, Id, Language, Symbol};

use crate::expr::{floor_div, floor_mod, power_of_two_exp, IndexExpr, Op};
use crate::facts::{Facts, SymFact};

define_language! {
    /// The index language inside the e-graph. `/` and `%` are floor division and modulo.
    pub enum IndexLang {
        "+" = Add([Id; 2]),
        "-" = Sub([Id; 2]),
        "*" = Mul([Id; 2]),
        "/" = Div([Id; 2]),
        "%" = Mod([Id; 2]),
        "min" = Min([Id; 2]),
        "max" = Max([Id; 2]),
        "<<" = Shl([Id; 2]),
        ">>" = Shr([Id; 2]),
        "&" = And([Id; 2]),
        Num(i64),
        Sym(Symbol),
    }
}

impl IndexLang {
    /// The operator and children of a non-leaf node.
    pub fn as_op(&self) -> Option<(Op, [Id; 2])> {
        Some(match self {
            IndexLang::Add(c) => (Op::Add, *c),
            IndexLang::Sub(c) => (Op::Sub, *c),
            IndexLang::Mul(c) => (Op::Mul, *c),
            IndexLang::Div(c) => (Op::FloorDiv, *c),
            IndexLang::Mod(c) => (Op::FloorMod, *c),
            IndexLang::Min(c) => (Op::Min, *c),
            IndexLang::Max(c) => (Op::Max, *c),
            IndexLang::Shl(c) => (Op::Shl, *c),
            IndexLang::Shr(c) => (Op::Shr, *c),
            IndexLang::And(c) => (Op::And, *c),
            IndexLang::Num(_) | IndexLang::Sym(_) => return None,
        })
    }

    pub fn from_op(op: Op, c: [Id; 2]) -> Self {
        match op {
            Op::Add => IndexLang::Add(c),
            Op::Sub => IndexLang::Sub(c),
            Op::Mul => IndexLang::Mul(c),
            Op::FloorDiv => IndexLang::Div(c),
            Op::FloorMod => IndexLang::Mod(c),
            Op::Min => IndexLang::Min(c),
            Op::Max => IndexLang::Max(c),
            Op::Shl => IndexLang::Shl(c),
            Op::Shr => IndexLang::Shr(c),
            Op::And => IndexLang::And(c),
        }
    }
}

/// An interval of integers; `None` ends are infinite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    pub lo: Option<i64>,
    pub hi: Option<i64>,
}

fn fit(v: i128) -> Option<i64> {
    i64::try_from(v).ok()
}

fn fdiv128(a: i128, b: i128) -> i128 {
    // b ≠ 0 and |values| < 2^100 here, so nothing overflows.
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

impl Interval {
    pub const TOP: Interval = Interval { lo: None, hi: None };

    pub fn new(lo: i64, hi: i64) -> Self {
        Interval { lo: Some(lo), hi: Some(hi) }
    }

    pub fn exact(v: i64) -> Self {
        Interval::new(v, v)
    }

    /// The single value, when `lo == hi`.
    pub fn konst(&self) -> Option<i64> {
        match (self.lo, self.hi) {
            (Some(l), Some(h)) if l == h => Some(l),
            _ => None,
        }
    }

    pub fn is_empty(&self) -> bool {
        matches!((self.lo, self.hi), (Some(l), Some(h)) if l > h)
    }

    /// `0 ≤ lo`.
    pub fn non_negative(&self) -> bool {
        matches!(self.lo, Some(l) if l >= 0)
    }

    /// `0 ≤ lo ∧ hi < c` — the whole range lies in one residue block `[0, c)`.
    pub fn within(&self, c: i64) -> bool {
        matches!((self.lo, self.hi), (Some(l), Some(h)) if l >= 0 && h < c)
    }

    pub fn intersect(&self, o: &Interval) -> Interval {
        let lo = match (self.lo, o.lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (self.hi, o.hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Interval { lo, hi }
    }

    fn add(&self, o: &Interval) -> Interval {
        let f = |a: Option<i64>, b: Option<i64>| fit(a? as i128 + b? as i128);
        Interval { lo: f(self.lo, o.lo), hi: f(self.hi, o.hi) }
    }

    fn sub(&self, o: &Interval) -> Interval {
        let f = |a: Option<i64>, b: Option<i64>| fit(a? as i128 - b? as i128);
        Interval { lo: f(self.lo, o.hi), hi: f(self.hi, o.lo) }
    }

    fn scale(&self, k: i64) -> Interval {
        let f = |a: Option<i64>| fit(a? as i128 * k as i128);
        match k.cmp(&0) {
            std::cmp::Ordering::Equal => Interval::exact(0),
            std::cmp::Ordering::Greater => Interval { lo: f(self.lo), hi: f(self.hi) },
            std::cmp::Ordering::Less => Interval { lo: f(self.hi), hi: f(self.lo) },
        }
    }

    fn mul(&self, o: &Interval) -> Interval {
        if let Some(k) = o.konst() {
            return self.scale(k);
        }
        if let Some(k) = self.konst() {
            return o.scale(k);
        }
        if let (Some(a), Some(b), Some(c), Some(d)) = (self.lo, self.hi, o.lo, o.hi) {
            let p = [a as i128 * c as i128, a as i128 * d as i128, b as i128 * c as i128, b as i128 * d as i128];
            let lo = p.iter().min().copied().and_then(fit);
            let hi = p.iter().max().copied().and_then(fit);
            return Interval { lo, hi };
        }
        if self.non_negative() && o.non_negative() {
            let lo = fit(self.lo.unwrap_or(0) as i128 * o.lo.unwrap_or(0) as i128);
            let hi = match (self.hi, o.hi) {
                (Some(a), Some(b)) => fit(a as i128 * b as i128),
                _ => None,
            };
            return Interval { lo, hi };
        }
        Interval::TOP
    }

    fn div(&self, o: &Interval) -> Interval {
        if let Some(c) = o.konst() {
            if c == 0 {
                return Interval::TOP;
            }
            let f = |a: Option<i64>| fit(fdiv128(a? as i128, c as i128));
            return if c > 0 {
                Interval { lo: f(self.lo), hi: f(self.hi) }
            } else {
                Interval { lo: f(self.hi), hi: f(self.lo) }
            };
        }
        if matches!(o.lo, Some(l) if l >= 1) {
            // ⌊x / y⌋ for y ≥ 1 lies between min(x, 0) and max(x, 0).
            let lo = self.lo.map(|l| l.min(0));
            let hi = self.hi.map(|h| h.max(0));
            return Interval { lo, hi };
        }
        Interval::TOP
    }

    fn rem(&self, o: &Interval) -> Interval {
        if let Some(c) = o.konst() {
            if c > 0 {
                if let (Some(l), Some(h)) = (self.lo, self.hi) {
                    let (ql, qh) = (fdiv128(l as i128, c as i128), fdiv128(h as i128, c as i128));
                    if ql == qh {
                        let base = ql * c as i128;
                        if let (Some(a), Some(b)) = (fit(l as i128 - base), fit(h as i128 - base)) {
                            return Interval::new(a, b);
                        }
                    }
                }
                return Interval::new(0, c - 1);
            }
            if c < 0 {
                return Interval::new(c + 1, 0);
            }
            return Interval::TOP;
        }
        if matches!(o.lo, Some(l) if l >= 1) {
            // x mod y ∈ [0, y − 1], and ≤ x when x ≥ 0.
            let mut hi = o.hi.map(|h| h - 1);
            if self.non_negative() {
                hi = match (hi, self.hi) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
            return Interval { lo: Some(0), hi };
        }
        Interval::TOP
    }

    fn min(&self, o: &Interval) -> Interval {
        let lo = match (self.lo, o.lo) {
            (Some(a), Some(b)) => Some(a.min(b)),
            _ => None,
        };
        let hi = match (self.hi, o.hi) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Interval { lo, hi }
    }

    fn max(&self, o: &Interval) -> Interval {
        let lo = match (self.lo, o.lo) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let hi = match (self.hi, o.hi) {
            (Some(a), Some(b)) => Some(a.max(b)),
            _ => None,
        };
        Interval { lo, hi }
    }

    fn and(&self, o: &Interval) -> Interval {
        // For a mask m ≥ 0, x & m ∈ [0, m] whatever x is; for x ≥ 0 also x & m ≤ x.
        let bound = |m: &Interval, x: &Interval| -> Option<Interval> {
            let mhi = m.hi?;
            if !m.non_negative() {
                return None;
            }
            let mut hi = mhi;
            if x.non_negative() {
                if let Some(h) = x.hi {
                    hi = hi.min(h);
                }
            }
            Some(Interval::new(0, hi))
        };
        match (bound(o, self), bound(self, o)) {
            (Some(a), Some(b)) => a.intersect(&b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) if self.non_negative() || o.non_negative() => {
                // and with a non-negative operand is non-negative and bounded by it.
                let hi = match (self.non_negative(), o.non_negative()) {
                    (true, true) => match (self.hi, o.hi) {
                        (Some(a), Some(b)) => Some(a.min(b)),
                        (a, b) => a.or(b),
                    },
                    (true, false) => self.hi,
                    _ => o.hi,
                };
                Interval { lo: Some(0), hi }
            }
            _ => Interval::TOP,
        }
    }
}

/// A modular fact `x ≡ r (mod m)`. `m = 0` means `x = r` exactly; `m = 1` means nothing is
/// known. For `m > 0`, `0 ≤ r < m`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modular {
    pub m: i64,
    pub r: i64,
}

fn gcd128(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Extended Euclid: `(g, x)` with `a·x ≡ g (mod b)`.
fn ext_gcd(a: i128, b: i128) -> (i128, i128) {
    let (mut old_r, mut r) = (a, b);
    let (mut old_s, mut s) = (1i128, 0i128);
    while r != 0 {
        let q = old_r / r;
        (old_r, r) = (r, old_r - q * r);
        (old_s, s) = (s, old_s - q * s);
    }
    (old_r, old_s)
}

impl Modular {
    pub const TOP: Modular = Modular { m: 1, r: 0 };

    pub fn exact(v: i64) -> Self {
        Modular { m: 0, r: v }
    }

    /// `x ≡ r (mod m)` in canonical form; `TOP` if `m` does not fit.
    fn make(m: i128, r: i128) -> Modular {
        let m = m.abs();
        if m == 0 {
            return fit(r).map(Modular::exact).unwrap_or(Modular::TOP);
        }
        match (fit(m), fit(r.rem_euclid(m))) {
            (Some(m), Some(r)) => Modular { m, r },
            _ => Modular::TOP,
        }
    }

    pub fn konst(&self) -> Option<i64> {
        (self.m == 0).then_some(self.r)
    }

    /// Proven `x ≡ 0 (mod c)` for `c > 0`.
    pub fn multiple_of(&self, c: i64) -> bool {
        c > 0 && if self.m == 0 { self.r % c == 0 } else { self.m % c == 0 && self.r % c == 0 }
    }

    fn add(&self, o: &Modular, sign: i128) -> Modular {
        let g = gcd128(self.m as i128, o.m as i128);
        Modular::make(g, self.r as i128 + sign * o.r as i128)
    }

    fn mul(&self, o: &Modular) -> Modular {
        let (m1, r1, m2, r2) = (self.m as i128, self.r as i128, o.m as i128, o.r as i128);
        // (m1·a + r1)(m2·b + r2) = m1m2·ab + m1r2·a + m2r1·b + r1r2.
        let (Some(p), Some(q), Some(s)) = (m1.checked_mul(m2), m1.checked_mul(r2), m2.checked_mul(r1)) else {
            return Modular::TOP;
        };
        let g = gcd128(gcd128(p, q), s);
        Modular::make(g, r1 * r2)
    }

    fn div_const(&self, c: i64) -> Modular {
        if c <= 0 {
            return Modular::TOP;
        }
        if self.m == 0 {
            return floor_div(self.r, c).map(Modular::exact).unwrap_or(Modular::TOP);
        }
        if self.m % c == 0 {
            // x = m·k + r with 0 ≤ r < m: ⌊x/c⌋ = (m/c)·k + ⌊r/c⌋.
            return Modular::make((self.m / c) as i128, (self.r / c) as i128);
        }
        Modular::TOP
    }

    fn mod_const(&self, c: i64) -> Modular {
        if c <= 0 {
            return Modular::TOP;
        }
        if self.m == 0 {
            return floor_mod(self.r, c).map(Modular::exact).unwrap_or(Modular::TOP);
        }
        if self.m % c == 0 {
            return Modular::exact(self.r % c);
        }
        // x mod c = x − c·⌊x/c⌋ ≡ x (mod gcd(m, c)).
        let g = gcd128(self.m as i128, c as i128);
        Modular::make(g, self.r as i128)
    }

    fn union(&self, o: &Modular) -> Modular {
        // Both values are ≡ r1 resp. r2; a common congruence is mod gcd(m1, m2, r1 − r2).
        let g = gcd128(gcd128(self.m as i128, o.m as i128), self.r as i128 - o.r as i128);
        Modular::make(g, self.r as i128)
    }

    /// Intersection by the Chinese remainder theorem. `None` when the facts contradict.
    pub fn intersect(&self, o: &Modular) -> Option<Modular> {
        if self.m == 0 || o.m == 0 {
            let (e, other) = if self.m == 0 { (self, o) } else { (o, self) };
            let ok = other.m == 0 && other.r == e.r
                || other.m != 0 && (e.r as i128 - other.r as i128).rem_euclid(other.m as i128) == 0;
            return ok.then_some(*e);
        }
        let (m1, r1, m2, r2) = (self.m as i128, self.r as i128, o.m as i128, o.r as i128);
        let (g, inv) = ext_gcd(m1, m2);
        if (r2 - r1) % g != 0 {
            return None;
        }
        let l = m1 / g * m2;
        if l > i64::MAX as i128 {
            // Keep the stronger of the two; both are sound.
            return Some(if self.m >= o.m { *self } else { *o });
        }
        let m2g = m2 / g;
        let t = ((r2 - r1) / g % m2g) * (inv % m2g) % m2g;
        Some(Modular::make(l, r1 + m1 * t))
    }
}

/// The analysis data of an e-class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Data {
    pub range: Interval,
    pub modular: Modular,
    /// Set when two sound facts about a class were found disjoint. With sound rules and
    /// consistent [`Facts`] this never happens; the simplifier then discards the run.
    pub conflict: bool,
}

impl Data {
    pub const TOP: Data = Data { range: Interval::TOP, modular: Modular::TOP, conflict: false };

    pub fn exact(v: i64) -> Data {
        Data { range: Interval::exact(v), modular: Modular::exact(v), conflict: false }
    }

    /// The value, when the facts pin exactly one.
    pub fn konst(&self) -> Option<i64> {
        self.modular.konst().or(self.range.konst())
    }

    /// The value if it is a positive constant.
    pub fn pos_const(&self) -> Option<i64> {
        self.konst().filter(|c| *c > 0)
    }

    /// Tightens the interval ends to the residue class and detects emptiness.
    fn normalized(mut self) -> Data {
        if let Some(v) = self.modular.konst() {
            self.range = self.range.intersect(&Interval::exact(v));
        } else if self.modular.m > 1 {
            let (m, r) = (self.modular.m as i128, self.modular.r as i128);
            if let Some(lo) = self.range.lo {
                let lo = lo as i128;
                self.range.lo = fit(lo + (r - lo).rem_euclid(m)).or(self.range.lo);
            }
            if let Some(hi) = self.range.hi {
                let hi = hi as i128;
                self.range.hi = fit(hi - (hi - r).rem_euclid(m)).or(self.range.hi);
            }
        }
        if self.range.is_empty() {
            self.conflict = true;
        }
        if let (Some(v), None) = (self.range.konst(), self.modular.konst()) {
            self.modular = Modular::exact(v);
        }
        self
    }

    /// The data of a symbol with the declared fact `f`.
    pub fn from_fact(f: &SymFact) -> Data {
        let modular = match f.divisor {
            Some(d) if d > 0 => Modular::make(d as i128, f.residue as i128),
            _ => Modular::TOP,
        };
        Data { range: Interval { lo: f.lo, hi: f.hi }, modular, conflict: false }.normalized()
    }

    /// The data of `a op b` from the data of `a` and `b`.
    pub fn apply(op: Op, a: &Data, b: &Data) -> Data {
        if let (Some(x), Some(y)) = (a.konst(), b.konst()) {
            // Constant folding with checked i64 arithmetic: overflow ⇒ no fold.
            if let Some(v) = op.eval(x, y) {
                return Data::exact(v);
            }
        }
        let pow2 = |d: &Data, max: i64| d.konst().filter(|k| (0..=max).contains(k));
        let (range, modular) = match op {
            Op::Add => (a.range.add(&b.range), a.modular.add(&b.modular, 1)),
            Op::Sub => (a.range.sub(&b.range), a.modular.add(&b.modular, -1)),
            Op::Mul => (a.range.mul(&b.range), a.modular.mul(&b.modular)),
            Op::FloorDiv => (a.range.div(&b.range), b.konst().map(|c| a.modular.div_const(c)).unwrap_or(Modular::TOP)),
            Op::FloorMod => (a.range.rem(&b.range), b.konst().map(|c| a.modular.mod_const(c)).unwrap_or(Modular::TOP)),
            Op::Min => (a.range.min(&b.range), a.modular.union(&b.modular)),
            Op::Max => (a.range.max(&b.range), a.modular.union(&b.modular)),
            Op::Shl => match pow2(b, 62) {
                Some(k) => {
                    let p = Data::exact(1i64 << k);
                    (a.range.mul(&p.range), a.modular.mul(&p.modular))
                }
                None => (Interval::TOP, Modular::TOP),
            },
            Op::Shr => match pow2(b, 62) {
                Some(k) => (a.range.div(&Interval::exact(1i64 << k)), a.modular.div_const(1i64 << k)),
                None => (Interval::TOP, Modular::TOP),
            },
            Op::And => {
                let modular = match b.konst().and_then(|m| m.checked_add(1)).and_then(power_of_two_exp) {
                    Some(k) if k >= 1 => a.modular.mod_const(1i64 << k),
                    _ => Modular::TOP,
                };
                (a.range.and(&b.range), modular)
            }
        };
        Data { range, modular, conflict: a.conflict || b.conflict }.normalized()
    }
}

/// The analysis of a whole tree outside any e-graph: the interval and congruence the rules
/// would see for `expr` under `facts` (bottom-up [`Data::apply`]; a symbol without facts is
/// unknown). Used by passes to decide how to read and emit ops (for example whether a signed
/// division equals a floor division: its dividend is proven non-negative). Iterative, so any
/// depth is fine.
pub fn analyze(expr: &IndexExpr, facts: &Facts) -> Data {
    // Post-order with an explicit stack.
    let mut out: Vec<Data> = Vec::new();
    let mut stack: Vec<(&IndexExpr, bool)> = vec![(expr, false)];
    while let Some((e, done)) = stack.pop() {
        match e {
            IndexExpr::Const(v) => out.push(Data::exact(*v)),
            IndexExpr::Sym(n) => out.push(facts.get(n).map(Data::from_fact).unwrap_or(Data::TOP)),
            IndexExpr::Bin(op, a, b) => {
                if done {
                    let (Some(y), Some(x)) = (out.pop(), out.pop()) else { return Data::TOP };
                    out.push(Data::apply(*op, &x, &y));
                } else {
                    stack.push((e, true));
                    stack.push((b, false));
                    stack.push((a, false));
                }
            }
        }
    }
    out.pop().unwrap_or(Data::TOP)
}

/// The e-class analysis. Holds the declared facts so `make` can read symbol ranges.
#[derive(Clone, Debug, Default)]
pub struct IndexAnalysis {
    pub facts: HashMap<Symbol, SymFact>,
}

impl IndexAnalysis {
    pub fn new(facts: &Facts) -> Self {
        IndexAnalysis { facts: facts.iter().map(|(n, f)| (Symbol::from(n), *f)).collect() }
    }
}

pub type IGraph = EGraph<IndexLang, IndexAnalysis>;

impl Analysis<IndexLang> for IndexAnalysis {
    type Data = Data;

    fn make(egraph: &mut IGraph, enode: &IndexLang, _id: Id) -> Data {
        match enode {
            IndexLang::Num(v) => Data::exact(*v),
            IndexLang::Sym(s) => egraph.analysis.facts.get(s).map(Data::from_fact).unwrap_or(Data::TOP),
            other => match other.as_op() {
                Some((op, [a, b])) => Data::apply(op, &egraph[a].data, &egraph[b].data),
                None => Data::TOP,
            },
        }
    }

    fn merge(&mut self, a: &mut Data, b: Data) -> DidMerge {
        let range = a.range.intersect(&b.range);
        let (modular, mod_conflict) = match a.modular.intersect(&b.modular) {
            Some(m) => (m, false),
            None => (a.modular, true),
        };
        let mut merged = Data { range, modular, conflict: a.conflict || b.conflict || mod_conflict }.normalized();
        if merged.range.is_empty() {
            // Disjoint sound facts: keep `a`'s range so nothing downstream sees an empty set;
            // the conflict flag makes the driver discard this run.
            merged.range = a.range;
            merged.conflict = true;
        }
        let changed_a = merged != *a;
        let changed_b = merged != b;
        *a = merged;
        DidMerge(changed_a, changed_b)
    }

    fn modify(egraph: &mut IGraph, id: Id) {
        if egraph[id].data.conflict {
            return;
        }
        if let Some(v) = egraph[id].data.konst() {
            let c = egraph.add(IndexLang::Num(v));
            egraph.union(id, c);
            // Constant classes need no other representation: prune to the leaves.
            egraph[id].nodes.retain(|n| n.is_leaf());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crt_intersection() {
        let a = Modular { m: 4, r: 1 };
        let b = Modular { m: 6, r: 3 };
        let c = a.intersect(&b).unwrap();
        assert_eq!(c, Modular { m: 12, r: 9 });
        assert!(Modular { m: 4, r: 1 }.intersect(&Modular { m: 6, r: 2 }).is_none());
        assert_eq!(Modular::exact(8).intersect(&Modular { m: 4, r: 0 }), Some(Modular::exact(8)));
    }

    #[test]
    fn interval_div_mod() {
        let x = Interval::new(-7, 20);
        assert_eq!(x.div(&Interval::exact(4)), Interval::new(-2, 5));
        assert_eq!(Interval::new(16, 31).rem(&Interval::exact(16)), Interval::new(0, 15));
        assert_eq!(Interval::new(3, 40).rem(&Interval::exact(16)), Interval::new(0, 15));
        assert_eq!(Interval::TOP.rem(&Interval::exact(-4)), Interval::new(-3, 0));
        assert_eq!(Interval::new(i64::MAX - 1, i64::MAX).add(&Interval::new(1, 1)).hi, None);
    }

    #[test]
    fn divisor_fact_tightens_range() {
        let d = Data::from_fact(&SymFact { lo: Some(1), hi: Some(100), divisor: Some(16), residue: 0 });
        assert_eq!(d.range, Interval::new(16, 96));
        // i ≡ 3 (mod 4) in [0, 15]: 3, 7, 11, 15.
        let d = Data::from_fact(&SymFact { lo: Some(0), hi: Some(15), divisor: Some(4), residue: 3 });
        assert_eq!((d.range, d.modular), (Interval::new(3, 15), Modular { m: 4, r: 3 }));
    }

    #[test]
    fn analyze_a_tree() {
        use crate::expr::sym;
        let facts = Facts::new().range("i", 0, 15).congruent("t", 0, 16).range("t", 0, 96);
        let d = analyze(&(sym("t") + sym("i")), &facts);
        assert_eq!(d.range, Interval::new(0, 111));
        let d = analyze(&(sym("t") * 3 + 5), &facts);
        assert_eq!(d.modular, Modular { m: 48, r: 5 });
        assert_eq!(analyze(&(sym("x") / 16), &facts).range, Interval::TOP);
    }
}
