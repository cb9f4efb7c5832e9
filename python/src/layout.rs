//! The `Layout` class: a `layout_algebra::Layout` (shape, stride, origin) seen from Python.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use layout_algebra::{picture, Layout};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::convert::{int_tuple, to_py};
use crate::{guard, Result};

/// `Layout(shape, stride=None, *, origin=None)`: CuTe's `shape:stride` (column-major strides by
/// default, as pycute) with the catlass origin (valid extent; default: the per-mode size).
#[pyclass(name = "Layout", module = "layout_opt", frozen)]
#[derive(Clone)]
pub struct PyLayout {
    pub inner: Layout,
}

impl PyLayout {
    pub fn wrap(inner: Layout) -> PyLayout {
        PyLayout { inner }
    }
}

/// Builds a layout from Python shape, stride and origin (`layout-calc`'s `make_layout(S,D,O)`).
pub fn build(
    shape: &Bound<'_, PyAny>,
    stride: Option<&Bound<'_, PyAny>>,
    origin: Option<&Bound<'_, PyAny>>,
) -> Result<Layout> {
    let shape = int_tuple(shape, "the shape")?;
    let stride = match stride.filter(|s| !s.is_none()) {
        Some(s) => int_tuple(s, "the stride")?,
        None => shape.prefix_product()?,
    };
    Ok(match origin.filter(|o| !o.is_none()) {
        Some(o) => Layout::with_origin(shape, stride, int_tuple(o, "the origin")?)?,
        None => Layout::new(shape, stride)?,
    })
}

#[pymethods]
impl PyLayout {
    #[new]
    #[pyo3(signature = (shape, stride=None, *, origin=None))]
    fn new(
        shape: &Bound<'_, PyAny>,
        stride: Option<&Bound<'_, PyAny>>,
        origin: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        guard(|| Ok(PyLayout::wrap(build(shape, stride, origin)?)))
    }

    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.inner.shape())
    }

    #[getter]
    fn stride<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.inner.stride())
    }

    #[getter]
    fn origin<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_py(py, self.inner.origin())
    }

    /// `L(c)`: the offset of coordinate `c` (an index, or a (nested) coordinate tuple).
    /// `L(i, j, ...)` is `L((i, j, ...))`, as in pycute.
    #[pyo3(signature = (*coord))]
    fn __call__(&self, coord: &Bound<'_, PyTuple>) -> PyResult<i64> {
        guard(|| {
            let crd = if coord.len() == 1 {
                int_tuple(&coord.get_item(0)?, "the coordinate")?
            } else {
                int_tuple(coord.as_any(), "the coordinate")?
            };
            Ok(self.inner.crd_to_offset(&crd)?)
        })
    }

    /// Mode `i` (pycute `layout[i]`).
    fn __getitem__(&self, i: isize) -> PyResult<PyLayout> {
        guard(|| {
            let rank = self.inner.rank() as isize;
            let index = if i < 0 { i + rank } else { i };
            let index = usize::try_from(index).map_err(|_| layout_algebra::AlgebraError::IndexOutOfRange {
                what: "layout",
                index: i.unsigned_abs(),
                rank: rank as usize,
            })?;
            Ok(PyLayout::wrap(self.inner.mode(index)?))
        })
    }

    /// The rank (pycute `len(layout)`).
    fn __len__(&self) -> usize {
        self.inner.rank()
    }

    /// pycute's `layout.size()`.
    fn size(&self) -> PyResult<i64> {
        guard(|| Ok(self.inner.size()?))
    }

    /// pycute's `layout.cosize()`.
    fn cosize(&self) -> PyResult<i64> {
        guard(|| Ok(self.inner.cosize()?))
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Layout('{}')", self.inner)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyLayout>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.inner.hash(&mut h);
        h.finish()
    }

    /// The offset grid of a rank-2 layout as text, exactly `layout-calc table`.
    fn table(&self) -> PyResult<String> {
        guard(|| Ok(picture::table(&self.inner)?))
    }

    /// The offset grid as SVG (fractal blocks outlined, padding grey, origin dashed), exactly
    /// `layout-calc svg`.
    fn svg(&self) -> PyResult<String> {
        guard(|| Ok(picture::svg(&self.inner)?))
    }

    /// Jupyter's rich display: the SVG for rank-2 layouts, nothing (text repr) otherwise.
    fn _repr_svg_(&self) -> Option<String> {
        guard(|| Ok(picture::svg(&self.inner)?)).ok()
    }
}
