//! `pack`/`unpack` on numpy arrays, in memory: the Python layer hands over a C-contiguous array
//! viewed as unsigned integers of the element's width (`uint8/16/32/64`: f16 and bf16 as their
//! bit patterns), the plan of `layout_algebra::ascend::PackPlan` moves the elements, and the
//! result comes back as a new numpy array of the same width (viewed back by the Python layer).

use layout_algebra::ascend::{frame_c0, physical_shape, ElementType, FramePattern, PackPlan, PackWord};
use numpy::{Element, PyArray1, PyArrayDyn, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::wrap_pyfunction;

use crate::convert::type_name;
use crate::{guard, message, Result};

/// The plan for `pattern` over `dims`, with C0 from the element type (or `c0`); the element
/// type must be as wide as the array's elements (`width` bytes).
fn plan(
    pattern: &str,
    dtype: &str,
    width: usize,
    c0: Option<i64>,
    dims: &[usize],
) -> Result<(PackPlan, FramePattern, i64)> {
    let pattern = FramePattern::parse(pattern)?;
    let elem = ElementType::parse(dtype)?;
    if elem.bits() as usize != 8 * width {
        return message(format!("element type {elem} has {} bits, the array's elements {}", elem.bits(), 8 * width));
    }
    let c0 = match c0 {
        Some(c) if !(1..=4096).contains(&c) => return message(format!("C0 must be in 1..=4096, got {c}")),
        Some(c) => c,
        None => frame_c0(pattern, elem)?,
    };
    Ok((PackPlan::new(pattern, c0, dims)?, pattern, c0))
}

/// `[B..., physical]` (`physical_shape` of one matrix, the batch in front) or `[packed_len]`.
fn packed_shape(plan: &PackPlan, pattern: FramePattern, c0: i64, dims: &[usize], physical: bool) -> Result<Vec<usize>> {
    if !physical {
        return Ok(vec![plan.packed_len()]);
    }
    let mut shape = dims[..dims.len() - 2].to_vec();
    for extent in physical_shape(pattern, c0, plan.rows as i64, plan.cols as i64)? {
        shape.push(extent as usize);
    }
    Ok(shape)
}

fn pack_typed<'py, T: Element + PackWord + Default>(
    array: &Bound<'py, PyAny>,
    pattern: &str,
    dtype: &str,
    c0: Option<i64>,
    physical: bool,
) -> Result<Bound<'py, PyAny>> {
    let nd: PyReadonlyArrayDyn<'py, T> = array.extract()?;
    let dims = nd.shape().to_vec();
    let (plan, pattern, c0) = plan(pattern, dtype, size_of::<T>(), c0, &dims)?;
    let Ok(src) = nd.as_slice() else { return message("the array must be C-contiguous") };
    let mut packed = vec![T::default(); plan.packed_len()];
    plan.pack_into(src, &mut packed, T::default())?;
    let shape = packed_shape(&plan, pattern, c0, &dims, physical)?;
    Ok(PyArray1::from_vec(array.py(), packed).reshape(shape)?.into_any())
}

fn unpack_typed<'py, T: Element + PackWord + Default>(
    array: &Bound<'py, PyAny>,
    pattern: &str,
    dtype: &str,
    c0: Option<i64>,
    dims: &[usize],
) -> Result<Bound<'py, PyAny>> {
    let packed: PyReadonlyArrayDyn<'py, T> = array.extract()?;
    let (plan, _, _) = plan(pattern, dtype, size_of::<T>(), c0, dims)?;
    let Ok(src) = packed.as_slice() else { return message("the packed array must be C-contiguous") };
    let out = PyArrayDyn::<T>::zeros(array.py(), dims.to_vec(), false);
    {
        let mut view = out.readwrite();
        let Ok(dst) = view.as_slice_mut() else { return message("internal: a new array is not contiguous") };
        plan.unpack_into(src, dst)?;
    }
    Ok(out.into_any())
}

/// Dispatches on the width of the unsigned-integer view.
fn width_of(array: &Bound<'_, PyAny>) -> Result<usize> {
    match array.getattr("itemsize").and_then(|w| w.extract::<usize>()) {
        Ok(w) => Ok(w),
        Err(_) => message(format!("expected a numpy array, got {}", type_name(array))),
    }
}

/// `_pack(bits, pattern, dtype, c0, physical)`: `bits` is the array as uint8/16/32/64.
#[pyfunction]
#[pyo3(signature = (bits, pattern, dtype, c0=None, physical=false))]
fn _pack<'py>(
    bits: &Bound<'py, PyAny>,
    pattern: &str,
    dtype: &str,
    c0: Option<i64>,
    physical: bool,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| match width_of(bits)? {
        1 => pack_typed::<u8>(bits, pattern, dtype, c0, physical),
        2 => pack_typed::<u16>(bits, pattern, dtype, c0, physical),
        4 => pack_typed::<u32>(bits, pattern, dtype, c0, physical),
        8 => pack_typed::<u64>(bits, pattern, dtype, c0, physical),
        w => message(format!("elements of {w} bytes cannot be packed")),
    })
}

/// `_unpack(bits, pattern, dtype, dims, c0)`: the inverse; `dims` = `[M, N]` or `[B, M, N]`.
#[pyfunction]
#[pyo3(signature = (bits, pattern, dtype, dims, c0=None))]
fn _unpack<'py>(
    bits: &Bound<'py, PyAny>,
    pattern: &str,
    dtype: &str,
    dims: Vec<usize>,
    c0: Option<i64>,
) -> PyResult<Bound<'py, PyAny>> {
    guard(|| match width_of(bits)? {
        1 => unpack_typed::<u8>(bits, pattern, dtype, c0, &dims),
        2 => unpack_typed::<u16>(bits, pattern, dtype, c0, &dims),
        4 => unpack_typed::<u32>(bits, pattern, dtype, c0, &dims),
        8 => unpack_typed::<u64>(bits, pattern, dtype, c0, &dims),
        w => message(format!("elements of {w} bytes cannot be unpacked")),
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_pack, m)?)?;
    m.add_function(wrap_pyfunction!(_unpack, m)?)?;
    Ok(())
}
