//! Values of the calculator: integers, tuples (of values), layouts and bare names.

use std::fmt;

use layout_algebra::cute::Tiler;
use layout_algebra::{IntTuple, Layout, Tuple};

use crate::error::CalcError;

#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Tuple(Vec<Value>),
    Layout(Layout),
    /// A bare identifier: a pattern (`NZ`), an element type (`f16`), or `_`.
    Name(String),
}

impl Value {
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "integer",
            Value::Tuple(_) => "tuple",
            Value::Layout(_) => "layout",
            Value::Name(_) => "name",
        }
    }

    pub fn from_int_tuple(t: &IntTuple) -> Value {
        match t {
            Tuple::Int(v) => Value::Int(*v),
            Tuple::Tuple(c) => Value::Tuple(c.iter().map(Value::from_int_tuple).collect()),
        }
    }

    /// The value as an integer tuple, if it is made of integers only.
    pub fn to_int_tuple(&self) -> Option<IntTuple> {
        match self {
            Value::Int(v) => Some(Tuple::Int(*v)),
            Value::Tuple(c) => c.iter().map(Value::to_int_tuple).collect::<Option<Vec<_>>>().map(Tuple::Tuple),
            _ => None,
        }
    }

    pub fn expect_int_tuple(&self, what: &str) -> Result<IntTuple, CalcError> {
        self.to_int_tuple().ok_or_else(|| {
            CalcError::Type(format!("{what} must be an integer or a tuple of integers, got {} `{self}`", self.kind()))
        })
    }

    pub fn expect_int(&self, what: &str) -> Result<i64, CalcError> {
        match self {
            Value::Int(v) => Ok(*v),
            _ => Err(CalcError::Type(format!("{what} must be an integer, got {} `{self}`", self.kind()))),
        }
    }

    pub fn expect_layout(&self, what: &str) -> Result<Layout, CalcError> {
        match self {
            Value::Layout(l) => Ok(l.clone()),
            _ => Err(CalcError::Type(format!("{what} must be a layout, got {} `{self}`", self.kind()))),
        }
    }

    pub fn expect_name(&self, what: &str) -> Result<&str, CalcError> {
        match self {
            Value::Name(n) => Ok(n),
            _ => Err(CalcError::Type(format!("{what} must be a name, got {} `{self}`", self.kind()))),
        }
    }

    /// A tiler: a layout, `_`, an integer `n` (= `n:1`), or a tuple of tilers (by-mode).
    /// A tuple of integers is a shape, which CuTe reads as a by-mode tiler of `n:1` layouts.
    pub fn to_tiler(&self) -> Result<Tiler, CalcError> {
        match self {
            Value::Layout(l) => Ok(Tiler::Layout(l.clone())),
            Value::Int(_) | Value::Tuple(_) if self.to_int_tuple().is_some() => {
                let shape = self.expect_int_tuple("a tiler")?;
                Ok(Tiler::from_shape(&shape)?)
            }
            Value::Tuple(c) => Ok(Tiler::ByMode(c.iter().map(Value::to_tiler).collect::<Result<_, _>>()?)),
            Value::Name(n) if n == "_" => Ok(Tiler::Keep),
            Value::Name(_) | Value::Int(_) => Err(CalcError::Type(format!(
                "a tiler must be a layout, a shape or a tuple of layouts, got {} `{self}`",
                self.kind()
            ))),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Tuple(c) => {
                f.write_str("(")?;
                for (i, v) in c.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
            Value::Layout(l) => write!(f, "{l}"),
            Value::Name(n) => f.write_str(n),
        }
    }
}
