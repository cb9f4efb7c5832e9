"""pack / unpack of numpy arrays (docs/python.md#packing).

The element movement is Rust's (`layout_algebra::ascend::PackPlan`); this layer only picks the
element type from the numpy dtype and views the array as unsigned integers of the same width,
which costs no copy for a C-contiguous array.

bfloat16: numpy has none. A bf16 array is either an `ml_dtypes.bfloat16` array (dtype name
"bfloat16"), or its uint16 bit patterns with `dtype="bf16"` -- the convention of layout-npy's
.npy files, where bf16 is stored as '<u2'.
"""

import numpy as np

from . import _native
from ._native import LayoutError

# numpy dtype name -> the algebra's element type name.
_ELEMENT_TYPES = {
    "float16": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float64": "f64",
    "int8": "i8",
    "uint8": "ui8",
    "int16": "i16",
    "uint16": "ui16",
    "int32": "i32",
    "uint32": "ui32",
    "int64": "i64",
    "uint64": "ui64",
}

_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _element_type(array, dtype):
    if dtype is not None:
        return dtype
    name = array.dtype.name
    if name not in _ELEMENT_TYPES:
        raise LayoutError(f"numpy dtype {name} cannot be packed (supported: {', '.join(_ELEMENT_TYPES)})")
    return _ELEMENT_TYPES[name]


def _bits(array):
    array = np.ascontiguousarray(array)
    if array.dtype.itemsize not in _BITS:
        raise LayoutError(f"elements of {array.dtype.itemsize} bytes cannot be packed")
    return array, array.view(_BITS[array.dtype.itemsize])


def pack(array, layout, dtype=None, c0=None, physical=False):
    """Packs a row-major [M, N] or [B, M, N] array into frame layout `layout` ("NZ", "zN", ...).

    Returns a new array of the input's dtype: 1-D [cosize] (padding zero), or with
    `physical=True` the C-order physical array (NZ: [..., N1, M1, 16, C0]). `dtype` names the
    element type when the numpy dtype does not (e.g. "bf16" for uint16 bits); `c0` overrides C0.
    """
    array, bits = _bits(np.asarray(array))
    packed = _native._pack(bits, layout, _element_type(array, dtype), c0, physical)
    return packed.view(array.dtype)


def unpack(packed, layout, rows, cols, batch=None, dtype=None, c0=None):
    """The inverse of `pack`: a packed buffer (any shape with the right element count) back to
    the row-major [rows, cols] (or [batch, rows, cols]) array."""
    packed, bits = _bits(np.asarray(packed))
    dims = [rows, cols] if batch is None else [batch, rows, cols]
    nd = _native._unpack(bits.reshape(-1), layout, _element_type(packed, dtype), dims, c0)
    return nd.view(packed.dtype)
