//! Linear normalization outside the e-graph.
//!
//! Associativity and commutativity of `+` and `*` make e-graphs explode, so they are not
//! rewrite rules here. Instead every sum is brought into the normal form of TVM's `SumExpr`:
//!
//! ```text
//! Σ cᵢ · atomᵢ + k      atoms sorted, cᵢ ≠ 0, coefficients of equal atoms added
//! ```
//!
//! where an *atom* is a symbol or a non-linear node (`floordiv`, `mod`, `min`, `max`, a product
//! of two non-constants, a non-power-of-two mask) whose children are normalized recursively.
//! Products by constants are distributed (`16·(a + b)` → `16·a + 16·b`), `a << k` becomes
//! `a · 2^k`, `a >> k` becomes `a floordiv 2^k` and `a & (2^k − 1)` becomes `a mod 2^k` (exact
//! identities in two's complement for every `a`), constants fold with checked arithmetic.
//! A coefficient computation that would overflow keeps the sub-expression as an atom instead.

use std::collections::BTreeMap;

use crate::expr::{low_mask_width, IndexExpr, Op};

/// `Σ terms[atom]·atom + k`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinSum {
    pub k: i64,
    pub terms: BTreeMap<IndexExpr, i64>,
}

impl LinSum {
    fn constant(k: i64) -> Self {
        LinSum { k, terms: BTreeMap::new() }
    }

    fn atom(e: IndexExpr) -> Self {
        match e {
            IndexExpr::Const(k) => LinSum::constant(k),
            e => LinSum { k: 0, terms: BTreeMap::from([(e, 1)]) },
        }
    }

    fn as_const(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.k)
    }

    /// `self + sign·o`, `None` on overflow.
    fn add(&self, o: &LinSum, sign: i64) -> Option<LinSum> {
        let mut out = self.clone();
        out.k = out.k.checked_add(o.k.checked_mul(sign)?)?;
        for (a, c) in &o.terms {
            let c = c.checked_mul(sign)?;
            let e = out.terms.entry(a.clone()).or_insert(0);
            *e = e.checked_add(c)?;
            if *e == 0 {
                out.terms.remove(a);
            }
        }
        Some(out)
    }

    fn scale(&self, f: i64) -> Option<LinSum> {
        if f == 0 {
            return Some(LinSum::constant(0));
        }
        let mut terms = BTreeMap::new();
        for (a, c) in &self.terms {
            terms.insert(a.clone(), c.checked_mul(f)?);
        }
        Some(LinSum { k: self.k.checked_mul(f)?, terms })
    }

    /// Rebuilds a tree: terms left-nested in sorted order, the constant last. With
    /// `use_sub`, negative coefficients become subtractions (what a pass emits); without, they
    /// stay `atom * (−c)` additions (what the e-graph patterns match).
    pub fn to_expr(&self, use_sub: bool) -> IndexExpr {
        let mut acc: Option<IndexExpr> = None;
        let term = |a: &IndexExpr, c: i64| {
            if c == 1 {
                a.clone()
            } else {
                IndexExpr::bin(Op::Mul, a.clone(), IndexExpr::Const(c))
            }
        };
        for (a, &c) in &self.terms {
            acc = Some(match acc {
                None => term(a, c),
                Some(s) if use_sub && c < 0 && c != i64::MIN => IndexExpr::bin(Op::Sub, s, term(a, -c)),
                Some(s) => IndexExpr::bin(Op::Add, s, term(a, c)),
            });
        }
        match acc {
            None => IndexExpr::Const(self.k),
            Some(s) if self.k == 0 => s,
            Some(s) if use_sub && self.k < 0 && self.k != i64::MIN => {
                IndexExpr::bin(Op::Sub, s, IndexExpr::Const(-self.k))
            }
            Some(s) => IndexExpr::bin(Op::Add, s, IndexExpr::Const(self.k)),
        }
    }
}

/// The linear form of `e` (never fails: overflowing parts stay atoms).
pub fn linear(e: &IndexExpr) -> LinSum {
    linear_with(e, true)
}

/// [`linear`]; with `bits_to_floor == false` shifts right and masks stay as they are (the
/// output form keeps what P1/P2 produced).
pub fn linear_with(e: &IndexExpr, bits_to_floor: bool) -> LinSum {
    match e {
        IndexExpr::Const(k) => LinSum::constant(*k),
        IndexExpr::Sym(_) => LinSum::atom(e.clone()),
        IndexExpr::Bin(op, a, b) => {
            let (la, lb) = (linear_with(a, bits_to_floor), linear_with(b, bits_to_floor));
            let joined = match op {
                Op::Add => la.add(&lb, 1),
                Op::Sub => la.add(&lb, -1),
                Op::Mul => match (la.as_const(), lb.as_const()) {
                    (_, Some(k)) => la.scale(k),
                    (Some(k), _) => lb.scale(k),
                    _ => None,
                },
                Op::Shl => match lb.as_const() {
                    Some(k) if (0..=62).contains(&k) => la.scale(1i64 << k),
                    _ => None,
                },
                _ => None,
            };
            match joined {
                Some(l) => l,
                None => atom_op(*op, la.to_expr(false), lb.to_expr(false), bits_to_floor),
            }
        }
    }
}

/// The normal form of a non-linear node whose children are already normal.
fn atom_op(op: Op, a: IndexExpr, b: IndexExpr, bits_to_floor: bool) -> LinSum {
    use IndexExpr::Const;
    if let (Const(x), Const(y)) = (&a, &b) {
        if let Some(v) = op.eval(*x, *y) {
            return LinSum::constant(v);
        }
    }
    let (op, a, b) = match (op, a, b) {
        t if !bits_to_floor => t,
        (Op::Shr, a, Const(k)) if (0..=62).contains(&k) => (Op::FloorDiv, a, Const(1i64 << k)),
        (Op::And, a, Const(m)) if low_mask_width(m).is_some() => (Op::FloorMod, a, Const(m + 1)),
        (Op::And, Const(m), b) if low_mask_width(m).is_some() => (Op::FloorMod, b, Const(m + 1)),
        t => t,
    };
    match (op, &a, &b) {
        (Op::FloorDiv, _, Const(1)) => return linear_with(&a, bits_to_floor),
        (Op::Shr, _, Const(0)) => return linear_with(&a, bits_to_floor),
        (Op::FloorMod, _, Const(1)) | (Op::FloorMod, _, Const(-1)) => return LinSum::constant(0),
        (Op::Min | Op::Max, x, y) if x == y => return linear_with(&a, bits_to_floor),
        _ => {}
    }
    // Commutative non-linear ops get sorted operands so equal atoms compare equal.
    // Constants go to the right (`c & 15`, as patterns and printers expect).
    let swap = matches!(op, Op::Mul | Op::Min | Op::Max | Op::And)
        && match (&a, &b) {
            (Const(_), Const(_)) | (_, Const(_)) => false,
            (Const(_), _) => true,
            _ => b < a,
        };
    let (a, b) = if swap { (b, a) } else { (a, b) };
    LinSum::atom(IndexExpr::bin(op, a, b))
}

/// Normal form used as e-graph input (additions only, negative coefficients kept).
pub fn normalize(e: &IndexExpr) -> IndexExpr {
    linear(e).to_expr(false)
}

/// Normal form for output: negative coefficients become subtractions.
pub fn normalize_for_output(e: &IndexExpr) -> IndexExpr {
    linear_with(e, false).to_expr(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::sym;

    #[test]
    fn sums_are_sorted_and_folded() {
        let e = (sym("b") + sym("a") * 3) * 2 - sym("b") * 2 + 5 - (sym("a") << 1);
        assert_eq!(normalize(&e).to_string(), "a * 4 + 5");
        let e = (sym("r") >> 4) + (sym("r") & 15);
        assert_eq!(normalize(&e).to_string(), "r floordiv 16 + r mod 16");
        let e = sym("x") - sym("y") * 3 - 2;
        assert_eq!(normalize_for_output(&e).to_string(), "x - y * 3 - 2");
        let e = sym("y") * sym("x") - sym("x") * sym("y");
        assert_eq!(normalize(&e), IndexExpr::Const(0));
    }
}
