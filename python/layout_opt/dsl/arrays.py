"""numpy arrays <-> the compiler's arguments (element type name, shape, little-endian bytes).

bf16 (docs/python.md#the-kernel-dsl): numpy has no bfloat16, so a bf16 tensor takes either an
`ml_dtypes.bfloat16` array or its uint16 bit patterns (layout-npy's `.npy` convention, `<u2`);
the result has the input's dtype.
"""

import numpy as np

from .trace import DSLError

# The DSL's element types and the numpy dtypes that hold them.
_DTYPES = {"f16": ("float16",), "bf16": ("bfloat16", "uint16"), "f32": ("float32",), "f64": ("float64",),
           "i8": ("int8", "uint8"), "i16": ("int16", "uint16"), "i32": ("int32",), "i64": ("int64",)}
_NUMPY = {"f16": np.float16, "bf16": np.uint16, "f32": np.float32, "f64": np.float64, "i8": np.int8,
          "i16": np.int16, "i32": np.int32, "i64": np.int64}


def to_input(array, dtype, name):
    """The argument of tensor parameter `name` of element type `dtype`."""
    if dtype not in _DTYPES:
        raise DSLError(f"parameter '{name}': element type {dtype} has no numpy form ({', '.join(_DTYPES)})")
    if array.dtype.name not in _DTYPES[dtype]:
        raise DSLError(f"parameter '{name}' is {dtype}: expected a numpy array of "
                       f"{' or '.join(_DTYPES[dtype])}, got {array.dtype.name}")
    array = np.ascontiguousarray(array)
    return (dtype, list(array.shape), array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes())


def from_bytes(raw, like, dtype):
    """The output bytes as a new array of `like`'s shape and dtype."""
    out = np.frombuffer(raw, dtype=np.dtype(_NUMPY[dtype]).newbyteorder("<")).reshape(like.shape)
    return out.view(like.dtype).copy() if like.dtype.itemsize == out.dtype.itemsize else out.copy()
