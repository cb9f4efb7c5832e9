"""layout_opt: the layout-opt layout algebra for Ascend NPUs, from Python (docs/python.md).

CuTe layouts (pycute's names and argument order) with the catlass origin, the Ascend frame
patterns, pictures of rank-2 layouts, and host packing of numpy arrays. Every function is the
Rust algebra of `crates/layout-algebra` (through the extension module `layout_opt._native`);
`str(layout)` prints what `layout-calc` prints.
"""

from ._native import (
    Layout,
    LayoutError,
    blocked_product,
    c0,
    coalesce,
    complement,
    composition,
    cosize,
    crd2idx,
    crd2offset,
    depth,
    filter,
    flat_divide,
    frame,
    idx2crd,
    left_inverse,
    logical_divide,
    logical_product,
    make_layout,
    origin,
    pattern,
    raked_product,
    rank,
    right_inverse,
    shape,
    size,
    stride,
    tile,
    tiled_divide,
    tiled_product,
    zipped_divide,
    zipped_product,
)
from .packing import pack, unpack

__all__ = [
    "Layout", "LayoutError", "blocked_product", "c0", "coalesce", "complement", "composition", "cosize",
    "crd2idx", "crd2offset", "depth", "filter", "flat_divide", "frame", "idx2crd", "left_inverse",
    "logical_divide", "logical_product", "make_layout", "origin", "pack", "pattern", "raked_product", "rank",
    "right_inverse", "shape", "size", "stride", "tile", "tiled_divide", "tiled_product", "unpack",
    "zipped_divide", "zipped_product",
]
