//! A symbolic integer domain: the layout formulas evaluated on unknowns.
//!
//! Running `crd_to_offset` or `tile_layout` with [`SymExpr`] leaves instead of `i64` yields the
//! index arithmetic for dynamic coordinates and shapes, with every static part folded: the
//! NZ offset of a dynamic `(r, c)` in a 100×100 fp16 matrix comes out as
//! `r mod 16 * 16 + r floordiv 16 * 256 + c mod 16 + c floordiv 16 * 1792`.
//! Constant sub-expressions fold with checked arithmetic, so overflow is still an error.

use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    FloorDiv,
    FloorMod,
    Min,
    Max,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::FloorDiv => "floordiv",
            BinOp::FloorMod => "mod",
            BinOp::Min => "min",
            BinOp::Max => "max",
        }
    }

    /// Apply to concrete values with the checked `i64` domain.
    pub fn eval(self, a: i64, b: i64) -> Result<i64> {
        match self {
            BinOp::Add => a.add(&b),
            BinOp::Sub => a.sub(&b),
            BinOp::Mul => a.mul(&b),
            BinOp::FloorDiv => a.floor_div(&b),
            BinOp::FloorMod => a.floor_mod(&b),
            BinOp::Min => Ok(a.min(b)),
            BinOp::Max => Ok(a.max(b)),
        }
    }

    fn precedence(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::FloorDiv | BinOp::FloorMod => 2,
            BinOp::Min | BinOp::Max => 3,
        }
    }
}

/// An index expression over named symbols. Cheap to clone (shared sub-trees).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SymExpr {
    Const(i64),
    Sym(Rc<str>),
    Bin(BinOp, Rc<SymExpr>, Rc<SymExpr>),
}

impl SymExpr {
    pub fn sym(name: &str) -> Self {
        SymExpr::Sym(name.into())
    }

    /// Builds `a op b`, folding constants and the identities that need no range facts
    /// (`x+0`, `x*1`, `x*0`, `x floordiv 1`, `x mod 1`). Range-dependent rewrites belong to the
    /// e-graph simplifier, not here.
    pub fn bin(op: BinOp, a: &SymExpr, b: &SymExpr) -> Result<SymExpr> {
        use SymExpr::Const;
        Ok(match (op, a, b) {
            (_, Const(x), Const(y)) => Const(op.eval(*x, *y)?),
            (BinOp::Add, Const(0), e) | (BinOp::Add | BinOp::Sub, e, Const(0)) => e.clone(),
            (BinOp::Mul, Const(1), e) | (BinOp::Mul | BinOp::FloorDiv, e, Const(1)) => e.clone(),
            (BinOp::Mul, Const(0), _) | (BinOp::Mul, _, Const(0)) | (BinOp::FloorMod, _, Const(1)) => Const(0),
            (BinOp::FloorDiv | BinOp::FloorMod, _, Const(0)) => {
                return Err(AlgebraError::DivisionByZero { op: op.symbol() })
            }
            (BinOp::Sub, x, y) if x == y => Const(0),
            (BinOp::Min | BinOp::Max, x, y) if x == y => x.clone(),
            _ => SymExpr::Bin(op, Rc::new(a.clone()), Rc::new(b.clone())),
        })
    }

    /// Evaluates with concrete values for the symbols.
    pub fn eval(&self, env: &HashMap<String, i64>) -> Result<i64> {
        match self {
            SymExpr::Const(v) => Ok(*v),
            SymExpr::Sym(name) => env.get(name.as_ref()).copied().ok_or_else(|| AlgebraError::Unknown {
                what: "symbol",
                name: name.to_string(),
                hint: String::new(),
            }),
            SymExpr::Bin(op, a, b) => op.eval(a.eval(env)?, b.eval(env)?),
        }
    }

    /// Names of the symbols in the expression, sorted and unique.
    pub fn symbols(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.collect_symbols(&mut out);
        out.sort();
        out.dedup();
        out
    }

    fn collect_symbols(&self, out: &mut Vec<String>) {
        match self {
            SymExpr::Const(_) => {}
            SymExpr::Sym(n) => out.push(n.to_string()),
            SymExpr::Bin(_, a, b) => {
                a.collect_symbols(out);
                b.collect_symbols(out);
            }
        }
    }

    fn fmt_prec(&self, f: &mut fmt::Formatter<'_>, parent: u8) -> fmt::Result {
        match self {
            SymExpr::Const(v) => write!(f, "{v}"),
            SymExpr::Sym(n) => write!(f, "{n}"),
            SymExpr::Bin(op @ (BinOp::Min | BinOp::Max), a, b) => write!(f, "{}({a}, {b})", op.symbol()),
            SymExpr::Bin(op, a, b) => {
                let p = op.precedence();
                if p < parent {
                    f.write_str("(")?;
                }
                a.fmt_prec(f, p)?;
                write!(f, " {} ", op.symbol())?;
                // Right operands bind tighter, except under the associative `+` and `*`
                // (`a + (b - c)` prints as `a + b - c`, `a * (b * c)` as `a * b * c`).
                let associative = matches!(
                    (op, b.as_ref()),
                    (BinOp::Add, SymExpr::Bin(BinOp::Add | BinOp::Sub, ..))
                        | (BinOp::Mul, SymExpr::Bin(BinOp::Mul, ..))
                );
                b.fmt_prec(f, if associative { p } else { p + 1 })?;
                if p < parent {
                    f.write_str(")")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for SymExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_prec(f, 0)
    }
}

impl IndexValue for SymExpr {
    fn constant(value: i64) -> Self {
        SymExpr::Const(value)
    }
    fn as_constant(&self) -> Option<i64> {
        match self {
            SymExpr::Const(v) => Some(*v),
            _ => None,
        }
    }
    fn add(&self, rhs: &Self) -> Result<Self> {
        SymExpr::bin(BinOp::Add, self, rhs)
    }
    fn sub(&self, rhs: &Self) -> Result<Self> {
        SymExpr::bin(BinOp::Sub, self, rhs)
    }
    fn mul(&self, rhs: &Self) -> Result<Self> {
        SymExpr::bin(BinOp::Mul, self, rhs)
    }
    fn floor_div(&self, rhs: &Self) -> Result<Self> {
        SymExpr::bin(BinOp::FloorDiv, self, rhs)
    }
    fn floor_mod(&self, rhs: &Self) -> Result<Self> {
        SymExpr::bin(BinOp::FloorMod, self, rhs)
    }
    fn min(&self, rhs: &Self) -> Result<Self> {
        SymExpr::bin(BinOp::Min, self, rhs)
    }
    fn max(&self, rhs: &Self) -> Result<Self> {
        SymExpr::bin(BinOp::Max, self, rhs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::int_tuple::Tuple;
    use crate::parse::parse_layout;

    #[test]
    fn symbolic_crd_to_offset_agrees_with_concrete_everywhere() {
        let l = parse_layout("((16,7),(16,7)):((16,256),(1,1792))").unwrap();
        let to_sym = |t: &Tuple<i64>| t.map(&mut |v: &i64| Ok::<_, AlgebraError>(SymExpr::Const(*v))).unwrap();
        let crd = Tuple::Tuple(vec![Tuple::Int(SymExpr::sym("r")), Tuple::Int(SymExpr::sym("c"))]);
        let e = crate::coord::crd_to_offset(&crd, &to_sym(l.shape()), &to_sym(l.stride())).unwrap();
        assert_eq!(e.to_string(), "r mod 16 * 16 + r floordiv 16 * 256 + c mod 16 + c floordiv 16 * 1792");
        for r in 0..112 {
            for c in (0..112).step_by(5) {
                let env = HashMap::from([("r".to_string(), r), ("c".to_string(), c)]);
                let want = l.crd_to_offset(&Tuple::Tuple(vec![Tuple::Int(r), Tuple::Int(c)])).unwrap();
                assert_eq!(e.eval(&env).unwrap(), want);
            }
        }
    }

    #[test]
    fn constants_fold_with_overflow_checks() {
        let big = SymExpr::Const(i64::MAX);
        assert!(big.add(&SymExpr::Const(1)).is_err());
        let x = SymExpr::sym("x");
        assert_eq!(x.mul(&SymExpr::Const(1)).unwrap(), x);
        assert_eq!(x.floor_mod(&SymExpr::Const(1)).unwrap(), SymExpr::Const(0));
        assert_eq!(x.add(&SymExpr::Const(0)).unwrap(), x);
    }
}
