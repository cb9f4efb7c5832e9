//! Every rewrite rule of [`crate::rules::rule_set`] as a schema: a universally quantified
//! formula with its side conditions, proven once by the solver (the test at the end asks for
//! the negation of every schema to be `unsat`, and fails for a rule without a schema).
//!
//! Semantics are the checked `i64` ones of [`IndexExpr::eval`] (docs/index-simplification.md
//! §2, §13): the obligation is `conditions ∧ lhs defined ⇒ rhs defined ∧ lhs = rhs`. The
//! rule's own constant arithmetic (`c1·c2`, `c·k`, `q·c`) is checked, so "it does not
//! overflow" is a condition ([`Cond::Defined`]; D4 is wrong without it). Arithmetic rules are
//! encoded over integers with a range condition on every intermediate, the bit-level rules
//! over 64-bit bit-vectors, one instance per shift amount. The modulo rules are proven with
//! [`Hint`]s: instances of two lemmas over ℤ (uniqueness of floor division, products of
//! non-negatives), each proven on its own, which z3's nonlinear arithmetic does not find.

use std::ops::RangeInclusive;

use super::encode::{conj, encode, le, lt, Semantics, Theory};
use super::{check, Answer, Query};
use crate::expr::{IndexExpr, Op};

/// A side condition of a schema.
#[derive(Clone, Debug)]
pub enum Cond {
    Le(IndexExpr, IndexExpr),
    Lt(IndexExpr, IndexExpr),
    Eq(IndexExpr, IndexExpr),
    Ne(IndexExpr, IndexExpr),
    /// The expression is defined (the rule computes it with checked `i64` arithmetic).
    Defined(IndexExpr),
}

/// A shift amount: the schema is instantiated for each `k` of the range, with each named
/// variable replaced by the constant the function gives (`?p` → `2^k`).
pub struct ShiftParam {
    pub k: RangeInclusive<i64>,
    pub subst: fn(i64) -> Vec<(&'static str, i64)>,
}

/// One rule's formula: `lhs ⇒ rhs` under `conds`. Variables are the pattern's `?names`.
pub struct Schema {
    pub rule: &'static str,
    pub lhs: IndexExpr,
    pub rhs: IndexExpr,
    pub conds: Vec<Cond>,
    pub shift: Option<ShiftParam>,
    /// Lemma instances given to the solver as assumptions: z3's nonlinear integer arithmetic
    /// does not find them by itself for the modulo rules (each lemma is proven on its own).
    pub hints: Vec<Hint>,
}

/// An instance of a lemma, valid over all integers (so asserted without range conditions).
#[derive(Clone, Debug)]
pub enum Hint {
    /// Uniqueness of floor division at `(c, k)`: `c ≥ 1 ⇒ k = 0 ∨ c·k ≥ c ∨ c·k ≤ −c`. With
    /// `k` the difference of two candidate quotients, `|c·k| < c` forces them equal.
    Unique(IndexExpr, IndexExpr),
    /// `a ≥ 0 ∧ b ≥ 0 ⇒ a·b ≥ 0` at `(a, b)` (bounds of `c1·b + y` in M2, R2).
    NonNeg(IndexExpr, IndexExpr),
}

impl Schema {
    fn unique(mut self, c: IndexExpr, k: IndexExpr) -> Schema {
        self.hints.push(Hint::Unique(c, k));
        self
    }
    fn nonneg(mut self, a: IndexExpr, b: IndexExpr) -> Schema {
        self.hints.push(Hint::NonNeg(a, b));
        self
    }
}

/// The lemmas of [`Hint::Unique`] and [`Hint::NonNeg`] as negated queries over unbounded
/// integers (the test `lemmas_are_proven` requires `unsat`).
pub fn lemma_queries() -> Vec<Query> {
    let q = |assertion: &str| Query::new(Theory::Int, vec!["c".into(), "k".into()], assertion.to_string());
    vec![
        q("(and (<= 1 |c|) (not (or (= |k| 0) (>= (* |c| |k|) |c|) (<= (* |c| |k|) (- |c|)))))"),
        q("(and (<= 0 |c|) (<= 0 |k|) (< (* |c| |k|) 0))"),
    ]
}

fn v(name: &str) -> IndexExpr {
    IndexExpr::sym(name)
}

fn k(c: i64) -> IndexExpr {
    IndexExpr::c(c)
}

fn min(a: IndexExpr, b: IndexExpr) -> IndexExpr {
    IndexExpr::bin(Op::Min, a, b)
}

fn max(a: IndexExpr, b: IndexExpr) -> IndexExpr {
    IndexExpr::bin(Op::Max, a, b)
}

/// `e ≥ 1`: a positive constant (`pk` in the rules) or a class with `lo ≥ 1`.
fn pos(e: IndexExpr) -> Cond {
    Cond::Le(k(1), e)
}

/// `a ≡ 0 (mod c)`: `c2 ∣ c1` of the rules (checked as `c1 % c2 == 0`, `c > 0`) or a proven
/// modular fact.
fn divides(c: IndexExpr, a: IndexExpr) -> Cond {
    Cond::Eq(a % c, k(0))
}

/// `a = c·?t`: `c ∣ a` with its quotient named, which the solver needs for the modulo rules.
fn multiple(a: IndexExpr, c: IndexExpr) -> Cond {
    Cond::Eq(a, c * v("?t"))
}

/// `y ∈ [0, c)`.
fn within(y: &str, c: IndexExpr) -> [Cond; 2] {
    [Cond::Le(k(0), v(y)), Cond::Lt(v(y), c)]
}

fn schema(rule: &'static str, lhs: IndexExpr, rhs: IndexExpr, conds: Vec<Cond>) -> Schema {
    Schema { rule, lhs, rhs, conds, shift: None, hints: vec![] }
}

/// All schemas; a rule may have several (one per right-hand side it can produce).
pub fn schemas() -> Vec<Schema> {
    let (x, y, a, b) = (v("?x"), v("?y"), v("?a"), v("?b"));
    let (c, c1, c2) = (v("?c"), v("?c1"), v("?c2"));
    // The quotient of a divisibility: `c1 = c2·t` (the rules check `c1 % c2 == 0`).
    let t = v("?t");
    let cat = |mut a: Vec<Cond>, b: [Cond; 2]| {
        a.extend(b);
        a
    };
    vec![
        // `lo(c) ≤ c`, so `y < lo(c)` gives `y < c`.
        schema("D0", y.clone() / c.clone(), k(0), cat(vec![pos(c.clone())], within("?y", c.clone()))),
        schema(
            "D1",
            (x.clone() * c1.clone() + y.clone()) / c2.clone(),
            x.clone() * (c1.clone() / c2.clone()) + y.clone() / c2.clone(),
            vec![pos(c2.clone()), divides(c2.clone(), c1.clone())],
        ),
        schema(
            "D1m",
            (a.clone() + y.clone()) / c.clone(),
            a.clone() / c.clone() + y.clone() / c.clone(),
            vec![pos(c.clone()), divides(c.clone(), a.clone())],
        ),
        schema(
            "D2",
            (x.clone() * c.clone() + y.clone()) / c.clone(),
            x.clone(),
            cat(vec![pos(c.clone())], within("?y", c.clone())),
        ),
        schema(
            "D3",
            (x.clone() * c1.clone() + y.clone()) / c2.clone(),
            x.clone() / (c2.clone() / c1.clone()),
            cat(vec![pos(c1.clone()), pos(c2.clone()), divides(c1.clone(), c2.clone())], within("?y", c1.clone())),
        ),
        schema(
            "D4",
            x.clone() / c1.clone() / c2.clone(),
            x.clone() / (c1.clone() * c2.clone()),
            vec![pos(c1.clone()), pos(c2.clone()), Cond::Defined(c1.clone() * c2.clone())],
        ),
        schema(
            "D5",
            x.clone() * c1.clone() / c2.clone(),
            x.clone() / (c2.clone() / c1.clone()),
            vec![pos(c1.clone()), pos(c2.clone()), divides(c1.clone(), c2.clone())],
        ),
        schema(
            "D6",
            x.clone() * c1.clone() / c2.clone(),
            x.clone() * (c1.clone() / c2.clone()),
            vec![pos(c2.clone()), divides(c2.clone(), c1.clone())],
        ),
        schema("D7", x.clone() * y.clone() / y.clone(), x.clone(), vec![Cond::Ne(y.clone(), k(0))]),
        schema("M0", y.clone() % c.clone(), y.clone(), cat(vec![pos(c.clone())], within("?y", c.clone()))),
        // One residue block: `⌊lo/c⌋ = ⌊hi/c⌋ = q`, `y ∈ [lo, hi]` ⇒ `y mod c = y + (−q·c)`.
        schema(
            "M0s",
            y.clone() % c.clone(),
            y.clone() + (k(0) - v("?lo") / c.clone() * c.clone()),
            vec![
                pos(c.clone()),
                Cond::Le(v("?lo"), y.clone()),
                Cond::Le(y.clone(), v("?hi")),
                Cond::Eq(v("?lo") / c.clone(), v("?hi") / c.clone()),
                Cond::Defined(k(0) - v("?lo") / c.clone() * c.clone()),
            ],
        )
        .unique(c.clone(), y.clone() / c.clone() - v("?lo") / c.clone()),
        schema(
            "M1",
            (x.clone() * c1.clone() + y.clone()) % c2.clone(),
            y.clone() % c2.clone(),
            vec![pos(c2.clone()), multiple(c1.clone(), c2.clone())],
        )
        // `x·c1 + y = c2·(x·t + ⌊y/c2⌋) + y mod c2`.
        .unique(
            c2.clone(),
            (x.clone() * c1.clone() + y.clone()) / c2.clone() - x.clone() * t.clone() - y.clone() / c2.clone(),
        ),
        schema(
            "M1m",
            (a.clone() + y.clone()) % c.clone(),
            y.clone() % c.clone(),
            vec![pos(c.clone()), multiple(a.clone(), c.clone())],
        )
        .unique(c.clone(), (a.clone() + y.clone()) / c.clone() - t.clone() - y.clone() / c.clone()),
        schema(
            "M2",
            (x.clone() * c1.clone() + y.clone()) % c2.clone(),
            x.clone() % (c2.clone() / c1.clone()) * c1.clone() + y.clone(),
            cat(vec![pos(c1.clone()), pos(c2.clone()), multiple(c2.clone(), c1.clone())], within("?y", c1.clone())),
        )
        // `c2/c1 = t`; with `x = t·a + b`: `x·c1 + y = c2·a + (c1·b + y)`, `0 ≤ c1·b + y < c2`.
        .unique(c1.clone(), c2.clone() / c1.clone() - t.clone())
        .unique(c2.clone(), (x.clone() * c1.clone() + y.clone()) / c2.clone() - x.clone() / t.clone())
        .nonneg(c1.clone(), t.clone() - 1 - x.clone() % t.clone()),
        schema(
            "M3",
            x.clone() % c1.clone() % c2.clone(),
            x.clone() % c2.clone(),
            vec![pos(c1.clone()), pos(c2.clone()), multiple(c1.clone(), c2.clone())],
        )
        // `x = c2·(t·⌊x/c1⌋ + ⌊(x mod c1)/c2⌋) + (x mod c1) mod c2`.
        .unique(
            c2.clone(),
            t.clone() * (x.clone() / c1.clone()) + x.clone() % c1.clone() / c2.clone() - x.clone() / c2.clone(),
        ),
        // `x ≡ r (mod m)` with `0 ≤ r < m` (the analysis keeps residues reduced), `c ∣ m`.
        schema(
            "M4",
            x.clone() % c.clone(),
            v("?r") % c.clone(),
            vec![
                pos(c.clone()),
                pos(v("?m")),
                multiple(v("?m"), c.clone()),
                Cond::Le(k(0), v("?r")),
                Cond::Lt(v("?r"), v("?m")),
                Cond::Eq(x.clone() % v("?m"), v("?r")),
            ],
        )
        // `x = c·(t·⌊x/m⌋ + ⌊r/c⌋) + r mod c`.
        .unique(c.clone(), x.clone() / c.clone() - t.clone() * (x.clone() / v("?m")) - v("?r") / c.clone()),
        schema("M6", x.clone() * y.clone() % y.clone(), k(0), vec![Cond::Ne(y.clone(), k(0))]),
        schema(
            "S1",
            x.clone() % c1.clone() / c2.clone(),
            x.clone() / c2.clone() % (c1.clone() / c2.clone()),
            vec![pos(c1.clone()), pos(c2.clone()), multiple(c1.clone(), c2.clone())],
        )
        // `c1/c2 = t ≥ 1`; `b = ⌊(x mod c1)/c2⌋ < t`; `⌊x/c2⌋ = t·⌊x/c1⌋ + b`, so its residue
        // modulo `t` is `b`.
        .unique(c2.clone(), c1.clone() / c2.clone() - t.clone())
        .nonneg(c2.clone(), k(0) - t.clone())
        .nonneg(c2.clone(), x.clone() % c1.clone() / c2.clone() - t.clone())
        .unique(
            c2.clone(),
            x.clone() / c2.clone() - t.clone() * (x.clone() / c1.clone()) - x.clone() % c1.clone() / c2.clone(),
        )
        .unique(t.clone(), x.clone() / c2.clone() / t.clone() - x.clone() / c1.clone()),
        schema("R1", x.clone() / c.clone() * c.clone() + x.clone() % c.clone(), x.clone(), vec![pos(c.clone())]),
        schema("R1b", x.clone() % c.clone() + x.clone() / c.clone() * c.clone(), x.clone(), vec![pos(c.clone())]),
        schema(
            "R1s",
            x.clone() % c.clone() * v("?k") + x.clone() / c.clone() * v("?ck"),
            x.clone() * v("?k"),
            vec![pos(c.clone()), Cond::Defined(c.clone() * v("?k")), Cond::Eq(v("?ck"), c.clone() * v("?k"))],
        ),
        schema(
            "R1sb",
            x.clone() / c.clone() * v("?ck") + x.clone() % c.clone() * v("?k"),
            x.clone() * v("?k"),
            vec![pos(c.clone()), Cond::Defined(c.clone() * v("?k")), Cond::Eq(v("?ck"), c.clone() * v("?k"))],
        ),
        // `x = c·q + r` with `q = ⌊x/c⌋ ≥ 0`: both sides are `r·k + q·s`; `q·(s − c·k) ≥ 0`
        // bounds the right-hand side's intermediates by the left-hand side.
        r3("R3", x.clone() % c.clone() + x.clone() / c.clone() * v("?s"), k(1)),
        r3("R3b", x.clone() / c.clone() * v("?s") + x.clone() % c.clone(), k(1)),
        r3("R3s", x.clone() % c.clone() * v("?k") + x.clone() / c.clone() * v("?s"), v("?k")),
        r3("R3sb", x.clone() / c.clone() * v("?s") + x.clone() % c.clone() * v("?k"), v("?k")),
        schema(
            "R0",
            x.clone() / c.clone() * v("?k"),
            x.clone() * (v("?k") / c.clone()),
            vec![pos(c.clone()), divides(c.clone(), v("?k")), divides(c.clone(), x.clone())],
        ),
        schema(
            "R2",
            x.clone() / c1.clone() % c2.clone() * c1.clone() + x.clone() % c1.clone(),
            x.clone() % (c1.clone() * c2.clone()),
            vec![pos(c1.clone()), pos(c2.clone()), Cond::Defined(c1.clone() * c2.clone())],
        )
        // `x = c1·c2·⌊⌊x/c1⌋/c2⌋ + (c1·b + x mod c1)` with `b = ⌊x/c1⌋ mod c2`, and
        // `0 ≤ c1·b + x mod c1 < c1·c2`.
        .unique(c1.clone() * c2.clone(), x.clone() / (c1.clone() * c2.clone()) - x.clone() / c1.clone() / c2.clone())
        .nonneg(c1.clone(), c2.clone() - 1 - x.clone() / c1.clone() % c2.clone()),
        schema(
            "R2b",
            x.clone() % c1.clone() + x.clone() / c1.clone() % c2.clone() * c1.clone(),
            x.clone() % (c1.clone() * c2.clone()),
            vec![pos(c1.clone()), pos(c2.clone()), Cond::Defined(c1.clone() * c2.clone())],
        )
        // `x = c1·c2·⌊⌊x/c1⌋/c2⌋ + (c1·b + x mod c1)` with `b = ⌊x/c1⌋ mod c2`, and
        // `0 ≤ c1·b + x mod c1 < c1·c2`.
        .unique(c1.clone() * c2.clone(), x.clone() / (c1.clone() * c2.clone()) - x.clone() / c1.clone() / c2.clone())
        .nonneg(c1.clone(), c2.clone() - 1 - x.clone() / c1.clone() % c2.clone()),
        Schema {
            rule: "B1",
            lhs: x.clone() >> v("?k"),
            rhs: x.clone() / v("?p"),
            conds: vec![],
            hints: vec![],
            shift: Some(ShiftParam { k: 0..=62, subst: |k| vec![("?k", k), ("?p", 1 << k)] }),
        },
        Schema {
            rule: "B2",
            lhs: x.clone() & v("?m"),
            rhs: x.clone() % v("?p"),
            conds: vec![],
            hints: vec![],
            shift: Some(ShiftParam { k: 1..=62, subst: |k| vec![("?m", (1 << k) - 1), ("?p", 1 << k)] }),
        },
        Schema {
            rule: "B3",
            lhs: x.clone() << v("?k"),
            rhs: x.clone() * v("?p"),
            conds: vec![],
            hints: vec![],
            shift: Some(ShiftParam { k: 0..=62, subst: |k| vec![("?k", k), ("?p", 1 << k)] }),
        },
        schema("N1", min(a.clone(), b.clone()), a.clone(), vec![Cond::Le(a.clone(), b.clone())]),
        schema("N1", min(a.clone(), b.clone()), b.clone(), vec![Cond::Le(b.clone(), a.clone())]),
        schema("N2", max(a.clone(), b.clone()), a.clone(), vec![Cond::Le(b.clone(), a.clone())]),
        schema("N2", max(a.clone(), b.clone()), b.clone(), vec![Cond::Le(a.clone(), b.clone())]),
        schema("I-add0", x.clone() + 0, x.clone(), vec![]),
        schema("I-0add", k(0) + x.clone(), x.clone(), vec![]),
        schema("I-mul1", x.clone() * 1, x.clone(), vec![]),
        schema("I-div1", x.clone() / 1, x.clone(), vec![]),
        schema("I-sub0", x.clone() - 0, x.clone(), vec![]),
        schema("I-subx", x.clone() - x.clone(), k(0), vec![]),
        Schema {
            rule: "P1",
            lhs: x.clone() / c.clone(),
            rhs: x.clone() >> v("?k"),
            conds: vec![Cond::Le(k(0), x.clone())],
            hints: vec![],
            shift: Some(ShiftParam { k: 1..=62, subst: |k| vec![("?k", k), ("?c", 1 << k)] }),
        },
        Schema {
            rule: "P2",
            lhs: x.clone() % c.clone(),
            rhs: x.clone() & v("?m"),
            conds: vec![Cond::Le(k(0), x.clone())],
            hints: vec![],
            shift: Some(ShiftParam { k: 1..=62, subst: |k| vec![("?m", (1 << k) - 1), ("?c", 1 << k)] }),
        },
    ]
}

/// The schema of R3/R3s (`lhs` in one of its orders, `k` the scale: `1` or `?k`).
fn r3(rule: &'static str, lhs: IndexExpr, scale: IndexExpr) -> Schema {
    let (x, c, s) = (v("?x"), v("?c"), v("?s"));
    let ck = c.clone() * scale.clone();
    let rhs = x.clone() * scale.clone() + x.clone() / c.clone() * (s.clone() - ck.clone());
    let conds = vec![
        pos(c.clone()),
        pos(scale),
        Cond::Le(k(0), x.clone()),
        Cond::Defined(ck.clone()),
        Cond::Le(ck.clone(), s.clone()),
    ];
    schema(rule, lhs, rhs, conds).nonneg(x / c, s - ck)
}

/// The egg pattern of `e` (`(/ (+ (* ?x ?c1) ?y) ?c2)`), to compare with [`crate::RuleInfo::lhs`].
pub fn to_pattern(e: &IndexExpr) -> String {
    match e {
        IndexExpr::Const(c) => c.to_string(),
        IndexExpr::Sym(s) => s.clone(),
        IndexExpr::Bin(op, a, b) => {
            let o = match op {
                Op::Add => "+",
                Op::Sub => "-",
                Op::Mul => "*",
                Op::FloorDiv => "/",
                Op::FloorMod => "%",
                Op::Min => "min",
                Op::Max => "max",
                Op::Shl => "<<",
                Op::Shr => ">>",
                Op::And => "&",
            };
            format!("({o} {} {})", to_pattern(a), to_pattern(b))
        }
    }
}

fn substitute(e: &IndexExpr, s: &[(&str, i64)]) -> IndexExpr {
    match e {
        IndexExpr::Sym(n) => s.iter().find(|(m, _)| m == n).map_or(e.clone(), |(_, c)| IndexExpr::c(*c)),
        IndexExpr::Const(_) => e.clone(),
        IndexExpr::Bin(op, a, b) => IndexExpr::bin(*op, substitute(a, s), substitute(b, s)),
    }
}

fn subst_cond(c: &Cond, s: &[(&str, i64)]) -> Cond {
    match c {
        Cond::Le(a, b) => Cond::Le(substitute(a, s), substitute(b, s)),
        Cond::Lt(a, b) => Cond::Lt(substitute(a, s), substitute(b, s)),
        Cond::Eq(a, b) => Cond::Eq(substitute(a, s), substitute(b, s)),
        Cond::Ne(a, b) => Cond::Ne(substitute(a, s), substitute(b, s)),
        Cond::Defined(a) => Cond::Defined(substitute(a, s)),
    }
}

/// The negated obligation `conds ∧ def(lhs) ∧ ¬(def(rhs) ∧ lhs = rhs)` as a query.
fn negation(lhs: &IndexExpr, rhs: &IndexExpr, conds: &[Cond], hints: &[Hint], t: Theory) -> Query {
    let mut parts = Vec::new();
    // Over ℤ (no range condition: the lemmas hold for all integers).
    let val = |e: &IndexExpr| encode(e, t, Semantics::Checked).value;
    for h in hints {
        parts.push(match h {
            Hint::Unique(c, k) => {
                let (c, k) = (val(c), val(k));
                format!("(=> (<= 1 {c}) (or (= {k} 0) (>= (* {c} {k}) {c}) (<= (* {c} {k}) (- {c}))))")
            }
            Hint::NonNeg(a, b) => {
                let (a, b) = (val(a), val(b));
                format!("(=> (and (<= 0 {a}) (<= 0 {b})) (<= 0 (* {a} {b})))")
            }
        });
    }
    let mut symbols: Vec<String> = lhs.symbols();
    symbols.extend(rhs.symbols());
    let term = |e: &IndexExpr, parts: &mut Vec<String>| {
        let enc = encode(e, t, Semantics::Checked);
        parts.extend(enc.defined);
        enc.value
    };
    for c in conds {
        let f = match c {
            Cond::Le(a, b) | Cond::Lt(a, b) | Cond::Eq(a, b) | Cond::Ne(a, b) => {
                symbols.extend(a.symbols());
                symbols.extend(b.symbols());
                let (a, b) = (term(a, &mut parts), term(b, &mut parts));
                match c {
                    Cond::Le(..) => le(t, &a, &b),
                    Cond::Lt(..) => lt(t, &a, &b),
                    Cond::Eq(..) => format!("(= {a} {b})"),
                    _ => format!("(not (= {a} {b}))"),
                }
            }
            Cond::Defined(a) => {
                symbols.extend(a.symbols());
                term(a, &mut parts);
                continue;
            }
        };
        parts.push(f);
    }
    symbols.sort();
    symbols.dedup();
    if t == Theory::Int {
        parts.extend(symbols.iter().map(|s| format!("(in64 {})", super::encode::symbol(s))));
    }
    let l = encode(lhs, t, Semantics::Checked);
    let r = encode(rhs, t, Semantics::Checked);
    parts.extend(l.defined.iter().cloned());
    parts.push(format!("(not (and {} (= {} {})))", r.defined_formula(), l.value, r.value));
    Query::new(t, symbols, conj(&parts))
}

/// The queries that prove `s`: one over integers, or one per shift amount over bit-vectors.
pub fn queries(s: &Schema) -> Vec<Query> {
    match &s.shift {
        None => vec![negation(&s.lhs, &s.rhs, &s.conds, &s.hints, Theory::Int)],
        Some(p) => {
            p.k.clone()
                .map(|k| {
                    let sub = (p.subst)(k);
                    let conds: Vec<Cond> = s.conds.iter().map(|c| subst_cond(c, &sub)).collect();
                    negation(&substitute(&s.lhs, &sub), &substitute(&s.rhs, &sub), &conds, &[], Theory::Bv64)
                })
                .collect()
        }
    }
}

/// Why a schema is not proven: the solver failed, or it answered other than `unsat`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SchemaError {
    #[error(transparent)]
    Solver(#[from] super::SolverError),
    #[error("{rule}: {answer:?}")]
    NotProven { rule: String, answer: Answer },
}

/// Proves `s`: `Ok(())` when every query is `unsat`, else the first other answer.
pub fn prove(s: &Schema, timeout: std::time::Duration) -> Result<(), SchemaError> {
    let qs = queries(s);
    let answers = check(&qs, timeout)?;
    match answers.iter().find(|a| **a != Answer::Unsat) {
        None => Ok(()),
        Some(a) => Err(SchemaError::NotProven { rule: s.rule.to_string(), answer: a.clone() }),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::time::Duration;

    use super::*;
    use crate::rules::rule_catalog;

    /// Generous: the slowest schemas take 2–4 s of solver time, but the wall-clock time on a
    /// loaded 2-core machine was up to 4× that.
    const TIMEOUT: Duration = Duration::from_secs(120);

    /// Every rule of the one rule list has a schema whose left-hand side is the rule's pattern,
    /// and no schema names a rule that does not exist.
    #[test]
    fn every_rule_has_a_schema_with_its_pattern() {
        let all = schemas();
        for info in rule_catalog() {
            let mine: Vec<&Schema> = all.iter().filter(|s| s.rule == info.name).collect();
            assert!(!mine.is_empty(), "rule {} has no schema in smt/schemas.rs", info.name);
            for s in mine {
                assert_eq!(to_pattern(&s.lhs), info.lhs, "schema of {}", info.name);
            }
        }
        let names: BTreeSet<&str> = rule_catalog().iter().map(|r| r.name).collect();
        for s in &all {
            assert!(names.contains(s.rule), "schema for unknown rule {}", s.rule);
        }
    }

    /// No rule without a proof: every schema's negation is `unsat` (no exception list).
    #[test]
    fn every_schema_is_proven() {
        let mut failures = Vec::new();
        for s in schemas() {
            let start = std::time::Instant::now();
            if let Err(e) = prove(&s, TIMEOUT) {
                failures.push(e.to_string());
            }
            eprintln!("schema {}: {:?}", s.rule, start.elapsed());
        }
        assert!(failures.is_empty(), "not proven: {failures:?}");
    }

    /// The lemmas the hints instantiate hold over all integers.
    #[test]
    fn lemmas_are_proven() {
        let answers = check(&lemma_queries(), TIMEOUT).unwrap();
        assert!(answers.iter().all(|a| *a == Answer::Unsat), "{answers:?}");
    }

    /// The hints only help the solver: a wrong schema with them is still refused (M3 with
    /// `c1 = c2·t + 1`, i.e. `c2 ∤ c1`, has a counterexample).
    #[test]
    fn hints_do_not_prove_a_wrong_schema() {
        let mut s = schemas().into_iter().find(|s| s.rule == "M3").unwrap();
        let last = s.conds.len() - 1;
        s.conds[last] = Cond::Eq(v("?c1"), v("?c2") * v("?t") + 1);
        let answers = check(&queries(&s), TIMEOUT).unwrap();
        assert!(matches!(answers[0], Answer::Sat(_)), "{answers:?}");
    }

    /// The 2^63 corner: without "`c1·c2` does not overflow" D4 is wrong (`c1·c2` wraps or the
    /// right-hand side is undefined where the left-hand side is defined), and so is R2.
    #[test]
    fn overflow_conditions_are_needed() {
        for rule in ["D4", "R2"] {
            let mut s = schemas().into_iter().find(|s| s.rule == rule).unwrap();
            s.conds.retain(|c| !matches!(c, Cond::Defined(_)));
            let answers = check(&queries(&s), TIMEOUT).unwrap();
            let Answer::Sat(model) = &answers[0] else { panic!("{rule} without its overflow condition: {answers:?}") };
            let value = |name: &str| model.iter().find(|(n, _)| n == name).and_then(|(_, v)| v.as_i64()).unwrap();
            let (c1, c2) = (value("?c1"), value("?c2"));
            assert!(c1.checked_mul(c2).is_none(), "{rule}: model {model:?} should overflow c1·c2");
        }
    }

    /// A wrong schema is refused: `x mod c ⇒ x` without a range.
    #[test]
    fn a_wrong_schema_is_not_proven() {
        let s = schema("M0", v("?y") % v("?c"), v("?y"), vec![pos(v("?c"))]);
        assert!(prove(&s, TIMEOUT).is_err());
    }
}
