//! Python values ⇄ algebra values: ints and (nested) tuples are `IntTuple`s; a tiler is a
//! `Layout`, `None` (CuTe `_`: keep the mode), a shape, or a tuple of tilers (by mode).

use layout_algebra::cute::Tiler;
use layout_algebra::parse::MAX_NESTING;
use layout_algebra::{IntTuple, Tuple};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyTuple};

use crate::layout::PyLayout;
use crate::{message, Result};

/// A Python int or (nested) tuple/list of ints as an `IntTuple`; `what` names the argument.
pub fn int_tuple(obj: &Bound<'_, PyAny>, what: &str) -> Result<IntTuple> {
    int_tuple_at(obj, what, 0)
}

fn int_tuple_at(obj: &Bound<'_, PyAny>, what: &str, depth: usize) -> Result<IntTuple> {
    if depth > MAX_NESTING {
        return message(format!("{what} is nested deeper than {MAX_NESTING} levels"));
    }
    if obj.is_instance_of::<PyBool>() {
        return message(format!("{what} must be an int or a tuple of ints, got a bool"));
    }
    if obj.is_instance_of::<PyInt>() {
        return match obj.extract::<i64>() {
            Ok(v) => Ok(Tuple::Int(v)),
            Err(_) => message(format!("{what}: integer {obj} does not fit in 64 bits")),
        };
    }
    if let Some(items) = sequence(obj) {
        return items.iter().map(|x| int_tuple_at(x, what, depth + 1)).collect::<Result<Vec<_>>>().map(Tuple::Tuple);
    }
    message(format!("{what} must be an int or a tuple of ints, got {}", type_name(obj)))
}

/// The items of a tuple or list.
fn sequence<'py>(obj: &Bound<'py, PyAny>) -> Option<Vec<Bound<'py, PyAny>>> {
    if let Ok(t) = obj.cast::<PyTuple>() {
        return Some(t.iter().collect());
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return Some(l.iter().collect());
    }
    None
}

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".into())
}

/// An `IntTuple` as a Python int or tuple.
pub fn to_py<'py>(py: Python<'py>, t: &IntTuple) -> PyResult<Bound<'py, PyAny>> {
    match t {
        Tuple::Int(v) => Ok(v.into_pyobject(py)?.into_any()),
        Tuple::Tuple(c) => {
            let items = c.iter().map(|x| to_py(py, x)).collect::<PyResult<Vec<_>>>()?;
            Ok(PyTuple::new(py, items)?.into_any())
        }
    }
}

/// A tiler, as `layout-calc` reads the second argument of composition, divides and products.
pub fn tiler(obj: &Bound<'_, PyAny>) -> Result<Tiler> {
    tiler_at(obj, 0)
}

fn tiler_at(obj: &Bound<'_, PyAny>, depth: usize) -> Result<Tiler> {
    if depth > MAX_NESTING {
        return message(format!("the tiler is nested deeper than {MAX_NESTING} levels"));
    }
    if let Ok(l) = obj.cast::<PyLayout>() {
        return Ok(Tiler::Layout(l.get().inner.clone()));
    }
    if obj.is_none() {
        return Ok(Tiler::Keep);
    }
    if let Ok(shape) = int_tuple(obj, "a tiler") {
        return Ok(Tiler::from_shape(&shape)?);
    }
    match sequence(obj) {
        Some(items) => Ok(Tiler::ByMode(items.iter().map(|x| tiler_at(x, depth + 1)).collect::<Result<_>>()?)),
        None => message(format!("a tiler must be a Layout, a shape, None or a tuple of those, got {}", type_name(obj))),
    }
}
