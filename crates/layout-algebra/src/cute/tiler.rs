//! Tilers: the right-hand argument of by-mode composition, divides and products (docs/layout-spec.md §C.2).

use std::fmt;
use std::str::FromStr;

use crate::domain::IndexValue;
use crate::error::{AlgebraError, Result};
use crate::int_tuple::Tuple;
use crate::layout::Layout;
use crate::parse::Cursor;

/// A CuTe tiler.
///
/// * `Layout(B)`: one layout applied to the whole argument (`A ∘ B`, `A ⊘ B`, ...).
/// * `ByMode([T0, T1, …])` (written `<T0,T1,…>`): `Ti` is applied to mode `i` of the argument;
///   modes past the end are kept. May nest (`<_, <2:1, 3:1>>`).
/// * `Keep` (CuTe `_`, printed `_`): the mode is left unchanged.
///
/// A *shape* used as a tiler means the by-mode tiler of column-major strides-1 layouts:
/// `(n0,n1)` ≡ `<n0:1, n1:1>` and an integer `n` ≡ `n:1` (see [`Tiler::from_shape`]).
///
/// Generic over the integer domain like [`Layout`] (`Tiler<SymExpr>` for the symbolic algebra);
/// the default is `i64`, which the text form parses to.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Tiler<T = i64> {
    Layout(Layout<T>),
    ByMode(Vec<Tiler<T>>),
    Keep,
}

impl<T: IndexValue> Tiler<T> {
    /// The tiler a shape stands for: an integer `n` is `n:1`, a tuple `(n0,n1,…)` is the
    /// by-mode tiler `<from_shape(n0), from_shape(n1), …>` (recursively, so `((2,3),4)` is
    /// `<<2:1,3:1>,4:1>`). Errors on a non-positive extent.
    ///
    /// Example: `from_shape((3,8))` = `<3:1,8:1>`, and `(12,(4,8)):(59,(13,1)) ∘ (3,8) =
    /// (3,(4,2)):(59,(13,1))`.
    pub fn from_shape(shape: &Tuple<T>) -> Result<Tiler<T>> {
        match shape {
            Tuple::Int(n) => Ok(Tiler::Layout(Layout::new(Tuple::Int(n.clone()), Tuple::Int(T::constant(1)))?)),
            Tuple::Tuple(c) => Ok(Tiler::ByMode(c.iter().map(Tiler::from_shape).collect::<Result<_>>()?)),
        }
    }

    /// The same tiler in another domain (e.g. a static tiler for a symbolic layout).
    pub fn map<U: IndexValue>(&self, f: &mut impl FnMut(&T) -> Result<U>) -> Result<Tiler<U>> {
        Ok(match self {
            Tiler::Layout(l) => Tiler::Layout(Layout::new(l.shape().map(f)?, l.stride().map(f)?)?),
            Tiler::ByMode(parts) => Tiler::ByMode(parts.iter().map(|p| p.map(f)).collect::<Result<_>>()?),
            Tiler::Keep => Tiler::Keep,
        })
    }
}

impl Tiler {
    /// Parses `_`, `<t0,t1,…>`, a layout `shape:stride` or a shape (see [`Tiler::from_shape`]).
    /// Example: `Tiler::parse("<3:3,(2,4):(1,8)>")`, `Tiler::parse("<_,(2,2)>")`.
    pub fn parse(text: &str) -> Result<Tiler> {
        let mut c = Cursor::new(text);
        let t = parse_tiler(&mut c)?;
        if !c.at_end() {
            let found = c.found();
            return Err(c.error(format!("unexpected trailing input{found}")));
        }
        Ok(t)
    }
}

fn parse_tiler(c: &mut Cursor<'_>) -> Result<Tiler> {
    if c.eat('_') {
        return Ok(Tiler::Keep);
    }
    if c.peek() == Some('<') {
        c.enter()?;
        c.expect('<')?;
        let parts = parse_modes(c)?;
        c.leave();
        return Ok(Tiler::ByMode(parts));
    }
    let shape = c.int_tuple()?;
    if c.eat(':') {
        let stride = c.int_tuple()?;
        Ok(Tiler::Layout(Layout::new(shape, stride)?))
    } else {
        Tiler::from_shape(&shape)
    }
}

/// The modes of a by-mode tiler whose `<` has been eaten, up to and including its `>`.
fn parse_modes(c: &mut Cursor<'_>) -> Result<Vec<Tiler>> {
    let mut parts = Vec::new();
    if c.eat('>') {
        return Ok(parts);
    }
    loop {
        parts.push(parse_tiler(c)?);
        if c.eat('>') {
            return Ok(parts);
        }
        if !c.eat(',') {
            let found = c.found();
            return Err(c.error(format!("expected `,` or `>`{found}")));
        }
    }
}

impl FromStr for Tiler {
    type Err = AlgebraError;
    fn from_str(s: &str) -> Result<Tiler> {
        Tiler::parse(s)
    }
}

impl<T> From<Layout<T>> for Tiler<T> {
    fn from(l: Layout<T>) -> Tiler<T> {
        Tiler::Layout(l)
    }
}

impl<T: IndexValue> fmt::Display for Tiler<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tiler::Layout(l) => write!(f, "{l}"),
            Tiler::Keep => f.write_str("_"),
            Tiler::ByMode(parts) => {
                f.write_str("<")?;
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str(">")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse_int_tuple;

    #[test]
    fn shapes_mean_stride_one_by_mode_tilers() {
        assert_eq!(Tiler::from_shape(&parse_int_tuple("(3,8)").unwrap()).unwrap().to_string(), "<3:1,8:1>");
        assert_eq!(Tiler::from_shape(&parse_int_tuple("((2,3),4)").unwrap()).unwrap().to_string(), "<<2:1,3:1>,4:1>");
        assert_eq!(Tiler::from_shape(&parse_int_tuple("5").unwrap()).unwrap().to_string(), "5:1");
        assert!(Tiler::from_shape(&parse_int_tuple("(3,0)").unwrap()).is_err());
    }

    #[test]
    fn parse_round_trips() {
        for s in ["<3:3,(2,4):(1,8)>", "_", "<_,<2:1,3:1>>", "(4,2):(1,4)", "<>"] {
            assert_eq!(Tiler::parse(s).unwrap().to_string(), s);
        }
        assert_eq!(Tiler::parse("(3, 8)").unwrap().to_string(), "<3:1,8:1>");
        assert_eq!(" < _ , 4 > ".parse::<Tiler>().unwrap().to_string(), "<_,4:1>");
        assert!(Tiler::parse("<3:1").is_err());
        assert!(Tiler::parse("<3:1>x").is_err());
    }

    #[test]
    fn deep_nesting_is_a_located_error() {
        use crate::parse::MAX_NESTING;
        let message = format!("nesting deeper than {MAX_NESTING} levels is not supported");
        let deep = format!("{}_{}", "<".repeat(10_000), ">".repeat(10_000));
        let error = Tiler::parse(&deep).unwrap_err();
        assert_eq!(error, AlgebraError::Parse { column: MAX_NESTING + 1, message: message.clone() });
        // Tiler and tuple brackets count together.
        let mixed = format!("{}(1){}", "<".repeat(MAX_NESTING), ">".repeat(MAX_NESTING));
        assert_eq!(Tiler::parse(&mixed).unwrap_err(), AlgebraError::Parse { column: MAX_NESTING + 1, message });
        let fits = format!("{}1:1{}", "<".repeat(MAX_NESTING), ">".repeat(MAX_NESTING));
        assert!(Tiler::parse(&fits).is_ok());
    }
}
