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

    /// The interval `[lo, hi]` of the expression when every symbol ranges over the interval
    /// `range` gives it (checked `i64` interval arithmetic: an `Err` means some value of the
    /// expression in that box may not fit in `i64`). `floordiv`/`mod` need a divisor interval
    /// of one positive constant. Why: a run-time check that evaluates a layout formula in
    /// wrapping `index` arithmetic is sound only where no intermediate can overflow; this finds
    /// symbol ranges for which that holds.
    pub fn bounds(&self, range: &dyn Fn(&str) -> Option<(i64, i64)>) -> Result<(i64, i64)> {
        match self {
            SymExpr::Const(v) => Ok((*v, *v)),
            SymExpr::Sym(name) => range(name).ok_or_else(|| AlgebraError::Unknown {
                what: "symbol range",
                name: name.to_string(),
                hint: String::new(),
            }),
            SymExpr::Bin(op, a, b) => {
                let ((al, ah), (bl, bh)) = (a.bounds(range)?, b.bounds(range)?);
                match op {
                    BinOp::Add => Ok((al.add(&bl)?, ah.add(&bh)?)),
                    BinOp::Sub => Ok((al.sub(&bh)?, ah.sub(&bl)?)),
                    BinOp::Mul => {
                        let products = [al.mul(&bl)?, al.mul(&bh)?, ah.mul(&bl)?, ah.mul(&bh)?];
                        Ok((products.iter().copied().min().unwrap_or(0), products.iter().copied().max().unwrap_or(0)))
                    }
                    BinOp::FloorDiv | BinOp::FloorMod if bl != bh || bl <= 0 => Err(AlgebraError::Invalid(format!(
                        "no interval for {self}: the divisor is not one positive constant"
                    ))),
                    BinOp::FloorDiv => Ok((al.floor_div(&bl)?, ah.floor_div(&bl)?)),
                    BinOp::FloorMod => Ok((0, bl - 1)),
                    BinOp::Min => Ok((al.min(bl), ah.min(bh))),
                    BinOp::Max => Ok((al.max(bl), ah.max(bh))),
                }
            }
        }
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
    use crate::layout::Layout;
    use crate::parse::parse_layout;

    #[test]
    fn bounds_are_checked_interval_arithmetic() {
        let m = SymExpr::sym("m");
        let e = m.sub(&SymExpr::Const(1)).unwrap().mul(&SymExpr::Const(256)).unwrap();
        let range = |limit: i64| move |_: &str| Some((-3, limit));
        assert_eq!(e.bounds(&range(10)).unwrap(), (-4 * 256, 9 * 256));
        // (i64::MAX - 1) * 256 does not fit: an error, not a wrapped bound.
        assert!(matches!(e.bounds(&range(i64::MAX)), Err(AlgebraError::Overflow { .. })));
        let q = m.floor_div(&SymExpr::Const(16)).unwrap().add(&m.floor_mod(&SymExpr::Const(16)).unwrap()).unwrap();
        assert_eq!(q.bounds(&range(40)).unwrap(), (-1, 2 + 15));
        assert!(m.floor_div(&m).unwrap().bounds(&range(4)).is_err());
        assert!(m.bounds(&|_| None).is_err());
    }

    #[test]
    fn offset_span_bounds_every_offset_of_the_shape() {
        for (rows, stride) in [(0i64, 1i64), (1, 1), (9, 1), (9, -1), (3, -2)] {
            let sym = Layout::new(
                Tuple::Tuple(vec![Tuple::Int(SymExpr::sym("m")), Tuple::Int(SymExpr::Const(4))]),
                Tuple::Tuple(vec![Tuple::Int(SymExpr::Const(4 * stride)), Tuple::Int(SymExpr::Const(stride))]),
            )
            .unwrap();
            let (first, end) = sym.offset_span().unwrap();
            let env = HashMap::from([("m".to_string(), rows)]);
            let (first, end) = (first.eval(&env).unwrap(), end.eval(&env).unwrap());
            let concrete = Layout::new(
                Tuple::Tuple(vec![Tuple::Int(rows.max(1)), Tuple::Int(4)]),
                Tuple::Tuple(vec![Tuple::Int(4 * stride), Tuple::Int(stride)]),
            )
            .unwrap();
            if rows == 0 {
                assert_eq!((first, end), (0, 0));
                continue;
            }
            let offsets = concrete.offsets().unwrap();
            assert_eq!(first, *offsets.iter().min().unwrap(), "rows {rows} stride {stride}");
            assert_eq!(end, offsets.iter().max().unwrap() + 1, "rows {rows} stride {stride}");
        }
    }

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
