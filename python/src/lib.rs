//! `layout_opt._native`: the PyO3 bindings behind the Python package `layout_opt`
//! (docs/python.md). Every function forwards to `layout-algebra`; no layout formula lives here.
//!
//! * [`convert`]: Python ints and tuples ⇄ `IntTuple`, tilers.
//! * [`layout`]: the `Layout` class (callable, printed as `layout-calc` prints it, pictures).
//! * [`functions`]: the CuTe algebra under pycute's names, and the Ascend functions.
//! * [`pack`]: `pack`/`unpack` of numpy arrays by the layout function.
//! * [`compiler`]: the kernel DSL's back end (verify, print, AscendC C++, run on the CPU),
//!   linking the MLIR passes; its errors are `layout_opt.CompileError`.
//!
//! Errors are `layout_opt.LayoutError` (a `ValueError`) carrying the algebra's message; a Rust
//! panic is caught at the boundary ([`guard`]) and becomes a `LayoutError` too, never a
//! `PanicException`.

mod compiler;
mod convert;
mod functions;
mod layout;
mod pack;

use std::panic::{catch_unwind, AssertUnwindSafe};

use layout_algebra::AlgebraError;
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

create_exception!(
    layout_opt,
    LayoutError,
    PyValueError,
    "An error of the layout algebra (bad input, inadmissible operation)."
);

/// Runs `f`, turning an algebra error or a panic into a `LayoutError`.
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, Error>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(Error::Algebra(e))) => Err(LayoutError::new_err(e.to_string())),
        Ok(Err(Error::Message(m))) => Err(LayoutError::new_err(m)),
        Ok(Err(Error::Python(e))) => Err(e),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(LayoutError::new_err(format!("internal error (please report): {what}")))
        }
    }
}

/// What a binding can fail with: the algebra's error, a message of the binding (a wrong
/// argument type), or a Python exception raised while reading the arguments.
pub(crate) enum Error {
    Algebra(AlgebraError),
    Message(String),
    Python(PyErr),
}

impl From<AlgebraError> for Error {
    fn from(e: AlgebraError) -> Self {
        Error::Algebra(e)
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Error::Python(e)
    }
}

pub(crate) type Result<T, E = Error> = std::result::Result<T, E>;

pub(crate) fn message<T>(text: impl Into<String>) -> Result<T> {
    Err(Error::Message(text.into()))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("LayoutError", m.py().get_type::<LayoutError>())?;
    m.add_class::<layout::PyLayout>()?;
    functions::register(m)?;
    pack::register(m)?;
    compiler::register(m)?;
    Ok(())
}
