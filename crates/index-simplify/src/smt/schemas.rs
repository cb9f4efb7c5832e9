//! Every rewrite rule of [`crate::rules::rule_set`] as a schema: a universally quantified
//! formula with its side conditions, proven once by the solver (the test at the end asks for
//! the negation to be `unsat`, and fails for a rule without a schema).
//!
//! Semantics are the checked `i64` ones of [`IndexExpr::eval`] (docs/index-simplification.md
//! §2, §12): every variable is an `i64`; the obligation is
//! `conditions ∧ lhs defined ⇒ rhs defined ∧ lhs = rhs`, where "defined" means no intermediate
//! leaves `[−2^63, 2^63)` and no divisor is 0. The rule's own constant arithmetic (`c1·c2`,
//! `c·k`, `q·c`) is done with checked `i64` ops, so "it does not overflow" is a condition
//! ([`Cond::Defined`]); the schemas of D4, R1s, R2 and M0s need it (a test shows D4 is wrong
//! without it). Arithmetic rules are encoded over integers with a range condition on every
//! intermediate (equivalent to checked 64-bit two's complement), the bit-level rules (shift
//! amount `k`) over 64-bit bit-vectors, one instance per `k`.

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
    /// Instances `(n, c, y)` of the lemma [`SHIFT_LEMMA`], `(c·n + y) floordiv c = n + y floordiv c`
    /// for `c > 0` (proven by its own schema), given to the solver: z3's nonlinear integer
    /// arithmetic does not find them for the modulo rules.
    pub hints: Vec<[IndexExpr; 3]>,
}

/// Rules whose schema the solver does not prove yet (see the test
/// `unproven_schemas_have_no_counterexample`): docs/index-simplification.md §13.
pub const NOT_YET_PROVEN: [&str; 7] = ["M0s", "M2", "M3", "M4", "R2", "R2b", "S1"];

/// The rule name of the lemma the hints instantiate.
pub const SHIFT_LEMMA: &str = "lemma-shift";

impl Schema {
    fn hint(mut self, n: IndexExpr, c: IndexExpr, y: IndexExpr) -> Schema {
        self.hints.push([n, c, y]);
        self
    }
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
        ),
        schema(
            "M1",
            (x.clone() * c1.clone() + y.clone()) % c2.clone(),
            y.clone() % c2.clone(),
            vec![pos(c2.clone()), multiple(c1.clone(), c2.clone())],
        )
        .hint(x.clone() * t.clone(), c2.clone(), y.clone()),
        schema(
            "M1m",
            (a.clone() + y.clone()) % c.clone(),
            y.clone() % c.clone(),
            vec![pos(c.clone()), multiple(a.clone(), c.clone())],
        )
        .hint(t.clone(), c.clone(), y.clone()),
        schema(
            "M2",
            (x.clone() * c1.clone() + y.clone()) % c2.clone(),
            x.clone() % (c2.clone() / c1.clone()) * c1.clone() + y.clone(),
            cat(vec![pos(c1.clone()), pos(c2.clone()), divides(c1.clone(), c2.clone())], within("?y", c1.clone())),
        ),
        schema(
            "M3",
            x.clone() % c1.clone() % c2.clone(),
            x.clone() % c2.clone(),
            vec![pos(c1.clone()), pos(c2.clone()), multiple(c1.clone(), c2.clone())],
        )
        .hint(k(0) - t.clone() * (x.clone() / c1.clone()), c2.clone(), x.clone()),
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
        .hint(t.clone() * (x.clone() / v("?m")), c.clone(), v("?r"))
        .hint(x.clone() / v("?m"), v("?m"), v("?r")),
        schema("M6", x.clone() * y.clone() % y.clone(), k(0), vec![Cond::Ne(y.clone(), k(0))]),
        schema(
            "S1",
            x.clone() % c1.clone() / c2.clone(),
            x.clone() / c2.clone() % (c1.clone() / c2.clone()),
            vec![pos(c1.clone()), pos(c2.clone()), divides(c2.clone(), c1.clone())],
        ),
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
        ),
        schema(
            "R2b",
            x.clone() % c1.clone() + x.clone() / c1.clone() % c2.clone() * c1.clone(),
            x.clone() % (c1.clone() * c2.clone()),
            vec![pos(c1.clone()), pos(c2.clone()), Cond::Defined(c1.clone() * c2.clone())],
        ),
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
        // The lemma of the hints, over every i64 with the checked semantics.
        schema(
            SHIFT_LEMMA,
            (c.clone() * v("?n") + y.clone()) / c.clone(),
            v("?n") + y.clone() / c.clone(),
            vec![pos(c.clone())],
        ),
    ]
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
fn negation(lhs: &IndexExpr, rhs: &IndexExpr, conds: &[Cond], hints: &[[IndexExpr; 3]], t: Theory) -> Query {
    let mut parts = Vec::new();
    for [n, c, y] in hints {
        // Over ℤ (no range condition: the lemma holds for all integers).
        let val = |e: &IndexExpr| encode(e, t, Semantics::Checked).value;
        let (n, c, y) = (val(n), val(c), val(y));
        parts.push(format!("(=> (> {c} 0) (= (fdiv (+ (* {c} {n}) {y}) {c}) (+ {n} (fdiv {y} {c}))))"));
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
    Query { theory: t, symbols, assertion: conj(&parts) }
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

    const TIMEOUT: Duration = Duration::from_secs(30);

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
        let mut names: BTreeSet<&str> = rule_catalog().iter().map(|r| r.name).collect();
        names.insert(SHIFT_LEMMA);
        for s in &all {
            assert!(names.contains(s.rule), "schema for unknown rule {}", s.rule);
        }
    }

    #[test]
    fn every_schema_is_proven() {
        let failures: Vec<String> = schemas()
            .iter()
            .filter(|s| !NOT_YET_PROVEN.contains(&s.rule))
            .filter_map(|s| prove(s, TIMEOUT).err().map(|e| e.to_string()))
            .collect();
        assert!(failures.is_empty(), "not proven: {failures:?}");
    }

    /// The schemas z3 4.8.12 cannot prove in the time limit (nonlinear integer arithmetic
    /// with symbolic divisors; the hints of [`SHIFT_LEMMA`] are not enough for them yet). They
    /// must at least have no counterexample; the test fails as soon as one is proven, so the
    /// list can only shrink.
    #[test]
    fn unproven_schemas_have_no_counterexample() {
        for s in schemas().iter().filter(|s| NOT_YET_PROVEN.contains(&s.rule)) {
            let answers = check(&queries(s), Duration::from_secs(3)).unwrap();
            assert!(
                answers.iter().all(|a| matches!(a, Answer::Unknown(_))),
                "{}: {answers:?} (proven: remove it from NOT_YET_PROVEN; sat: the rule is wrong)",
                s.rule
            );
        }
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
            let c1 = model.iter().find(|(n, _)| n == "?c1").unwrap().1;
            let c2 = model.iter().find(|(n, _)| n == "?c2").unwrap().1;
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
