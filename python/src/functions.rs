//! The module functions: the CuTe algebra under pycute's names and argument order, and the
//! Ascend functions under `layout-calc`'s. Each forwards to one `layout-algebra` function.

use layout_algebra::ascend::{self, ElementType, FramePattern};
use layout_algebra::cute::{self, Tiler};
use layout_algebra::{crd_to_offset, idx_to_crd, IntTuple, Layout, Tuple};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use pyo3::wrap_pyfunction;

use crate::convert::{int_tuple, tiler, to_py, type_name};
use crate::layout::{build, PyLayout};
use crate::{guard, message, Result};

fn layout_arg(obj: &Bound<'_, PyAny>, what: &str) -> Result<Layout> {
    match obj.cast::<PyLayout>() {
        Ok(l) => Ok(l.get().inner.clone()),
        Err(_) => message(format!("{what} must be a Layout, got {}", type_name(obj))),
    }
}

/// A Layout's shape, or the int tuple itself (pycute's `size`, `rank`, `depth` take both).
fn shape_of(obj: &Bound<'_, PyAny>, what: &str) -> Result<IntTuple> {
    match obj.cast::<PyLayout>() {
        Ok(l) => Ok(l.get().inner.shape().clone()),
        Err(_) => int_tuple(obj, what),
    }
}

fn wrap(l: Layout) -> PyLayout {
    PyLayout::wrap(l)
}

/// `make_layout(*layouts)` (pycute: the layouts as the modes of one layout) or
/// `make_layout(shape, stride=None, origin=None)` (`layout-calc`'s form).
#[pyfunction]
#[pyo3(signature = (*args, origin=None))]
fn make_layout(args: &Bound<'_, PyTuple>, origin: Option<&Bound<'_, PyAny>>) -> PyResult<PyLayout> {
    guard(|| {
        let items: Vec<Bound<'_, PyAny>> = args.iter().collect();
        if !items.is_empty() && items.iter().all(|a| a.cast::<PyLayout>().is_ok()) {
            let modes = items.iter().map(|a| layout_arg(a, "a mode")).collect::<Result<Vec<_>>>()?;
            let l = Layout::concat(&modes)?;
            return Ok(wrap(match origin {
                Some(o) if !o.is_none() => l.with_new_origin(int_tuple(o, "the origin")?)?,
                _ => l,
            }));
        }
        match items.as_slice() {
            [s] => Ok(wrap(build(s, None, origin)?)),
            [s, d] => Ok(wrap(build(s, Some(d), origin)?)),
            [s, d, o] if origin.is_none() => Ok(wrap(build(s, Some(d), Some(o))?)),
            _ => message(format!(
                "make_layout takes layouts, or (shape, stride=None, origin=None); got {} arguments",
                items.len()
            )),
        }
    })
}

#[pyfunction]
fn size(a: &Bound<'_, PyAny>) -> PyResult<i64> {
    guard(|| Ok(shape_of(a, "size's argument")?.size()?))
}

#[pyfunction]
fn cosize(a: &Bound<'_, PyAny>) -> PyResult<i64> {
    guard(|| Ok(layout_arg(a, "cosize's argument")?.cosize()?))
}

#[pyfunction]
fn rank(a: &Bound<'_, PyAny>) -> PyResult<usize> {
    guard(|| Ok(shape_of(a, "rank's argument")?.rank()))
}

#[pyfunction]
fn depth(a: &Bound<'_, PyAny>) -> PyResult<usize> {
    guard(|| Ok(shape_of(a, "depth's argument")?.depth()))
}

#[pyfunction]
fn shape<'py>(a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let s = guard(|| Ok(layout_arg(a, "shape's argument")?.shape().clone()))?;
    to_py(a.py(), &s)
}

#[pyfunction]
fn stride<'py>(a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let s = guard(|| Ok(layout_arg(a, "stride's argument")?.stride().clone()))?;
    to_py(a.py(), &s)
}

#[pyfunction]
fn origin<'py>(a: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let s = guard(|| Ok(layout_arg(a, "origin's argument")?.origin().clone()))?;
    to_py(a.py(), &s)
}

/// `coalesce(layout, profile=None)`: by mode where the profile has an integer.
#[pyfunction]
#[pyo3(signature = (layout, profile=None))]
fn coalesce(layout: &Bound<'_, PyAny>, profile: Option<&Bound<'_, PyAny>>) -> PyResult<PyLayout> {
    guard(|| {
        let l = layout_arg(layout, "coalesce's layout")?;
        Ok(wrap(match profile.filter(|p| !p.is_none()) {
            None => cute::coalesce(&l)?,
            Some(p) => cute::coalesce_by(&l, &int_tuple(p, "coalesce's profile")?)?,
        }))
    })
}

/// `complement(layout, max_idx=None)`; without `max_idx`, CuTe's default `cosize(filter(L))`.
#[pyfunction]
#[pyo3(signature = (layout, max_idx=None))]
fn complement(layout: &Bound<'_, PyAny>, max_idx: Option<i64>) -> PyResult<PyLayout> {
    guard(|| {
        let l = layout_arg(layout, "complement's layout")?;
        Ok(wrap(match max_idx {
            None => cute::complement_default(&l)?,
            Some(m) => cute::complement(&l, m)?,
        }))
    })
}

macro_rules! unary_layout {
    ($name:ident, $f:path) => {
        #[pyfunction]
        fn $name(layout: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
            guard(|| Ok(wrap($f(&layout_arg(layout, concat!(stringify!($name), "'s layout"))?)?)))
        }
    };
}

unary_layout!(filter, cute::filter);
unary_layout!(right_inverse, cute::right_inverse);
unary_layout!(left_inverse, cute::left_inverse);

/// `f(layoutA, layoutB)` where B is a tiler (a Layout, a shape, None, or a tuple of those).
macro_rules! tiled {
    ($name:ident, $f:path) => {
        #[pyfunction]
        fn $name(layout_a: &Bound<'_, PyAny>, layout_b: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
            guard(|| {
                let a = layout_arg(layout_a, concat!(stringify!($name), "'s first argument"))?;
                let b: Tiler = tiler(layout_b)?;
                Ok(wrap($f(&a, &b)?))
            })
        }
    };
}

tiled!(composition, cute::composition_by);
tiled!(logical_divide, cute::logical_divide);
tiled!(zipped_divide, cute::zipped_divide);
tiled!(tiled_divide, cute::tiled_divide);
tiled!(flat_divide, cute::flat_divide);
tiled!(logical_product, cute::logical_product);
tiled!(zipped_product, cute::zipped_product);
tiled!(tiled_product, cute::tiled_product);

/// `blocked_product(block, grid)` / `raked_product(a, b)`: both arguments layouts.
macro_rules! layout_pair {
    ($name:ident, $f:path) => {
        #[pyfunction]
        fn $name(layout_a: &Bound<'_, PyAny>, layout_b: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
            guard(|| {
                let a = layout_arg(layout_a, concat!(stringify!($name), "'s first argument"))?;
                let b = layout_arg(layout_b, concat!(stringify!($name), "'s second argument"))?;
                Ok(wrap($f(&a, &b)?))
            })
        }
    };
}

layout_pair!(blocked_product, cute::blocked_product);
layout_pair!(raked_product, cute::raked_product);

/// pycute `crd2idx(crd, shape, stride=None)`; `shape` may also be a Layout (then no stride).
#[pyfunction]
#[pyo3(signature = (crd, shape, stride=None))]
fn crd2idx(crd: &Bound<'_, PyAny>, shape: &Bound<'_, PyAny>, stride: Option<&Bound<'_, PyAny>>) -> PyResult<i64> {
    guard(|| {
        let c = int_tuple(crd, "the coordinate")?;
        if let Ok(l) = shape.cast::<PyLayout>() {
            if stride.is_some_and(|s| !s.is_none()) {
                return message("crd2idx(crd, layout) takes no stride");
            }
            return Ok(l.get().inner.crd_to_offset(&c)?);
        }
        let l = build(shape, stride, None)?;
        Ok(crd_to_offset(&c, l.shape(), l.stride())?)
    })
}

/// pycute `idx2crd(idx, shape)`: the natural (colexicographic) coordinate of `idx`; like
/// `layout-calc`, the last mode is not reduced modulo its extent.
#[pyfunction]
fn idx2crd<'py>(idx: &Bound<'py, PyAny>, shape: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let c = guard(|| Ok(idx_to_crd(&int_tuple(idx, "the index")?, &shape_of(shape, "the shape")?)?))?;
    to_py(idx.py(), &c)
}

fn element_type(name: &str) -> Result<ElementType> {
    Ok(ElementType::parse(name)?)
}

/// `frame(pattern, dtype, *dims)`: the Ascend frame layout (AscendC names, catlass `zN`... too).
#[pyfunction]
#[pyo3(signature = (pattern, dtype, *dims))]
fn frame(pattern: &str, dtype: &str, dims: Vec<i64>) -> PyResult<PyLayout> {
    guard(|| Ok(wrap(ascend::frame(FramePattern::parse(pattern)?, element_type(dtype)?, &dims)?)))
}

/// Elements per 32-byte C0 block of `dtype`.
#[pyfunction]
fn c0(dtype: &str) -> PyResult<i64> {
    guard(|| Ok(element_type(dtype)?.c0()))
}

fn flat(obj: &Bound<'_, PyAny>, what: &str) -> Result<Vec<i64>> {
    match int_tuple(obj, what)? {
        Tuple::Int(x) => Ok(vec![x]),
        t if t.depth() == 1 => Ok(t.leaves()),
        t => message(format!("{what} must be flat, got `{t}`")),
    }
}

/// catlass `GetTileLayout`: the tile of `tile_shape` at element coordinate `coord`.
#[pyfunction]
fn tile(layout: &Bound<'_, PyAny>, tile_shape: &Bound<'_, PyAny>, coord: &Bound<'_, PyAny>) -> PyResult<PyLayout> {
    guard(|| {
        let parent = layout_arg(layout, "tile's layout")?;
        Ok(wrap(ascend::tile_layout(&parent, &flat(tile_shape, "tile's shape")?, &flat(coord, "tile's coordinate")?)?))
    })
}

/// The frame pattern of a layout as `layout-calc` prints it (`NZ(c0=16)`,
/// `batch(ND(c0=1))`), or None.
#[pyfunction]
fn pattern(layout: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    guard(|| {
        let l = layout_arg(layout, "pattern's argument")?;
        Ok(ascend::recognize(&l).map(|r| r.to_string()))
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    macro_rules! add {
        ($($f:ident),*) => { $( m.add_function(wrap_pyfunction!($f, m)?)?; )* };
    }
    add!(
        make_layout,
        size,
        cosize,
        rank,
        depth,
        shape,
        stride,
        origin,
        coalesce,
        filter,
        composition,
        complement,
        right_inverse,
        left_inverse,
        logical_divide,
        zipped_divide,
        tiled_divide,
        flat_divide,
        logical_product,
        zipped_product,
        tiled_product,
        blocked_product,
        raked_product,
        crd2idx,
        idx2crd,
        frame,
        c0,
        tile,
        pattern
    );
    m.add("crd2offset", m.getattr("crd2idx")?)?;
    Ok(())
}
