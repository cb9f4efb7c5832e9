"""layout_opt: the layout-opt layout algebra for Ascend NPUs, from Python (docs/python.md).

CuTe layouts (pycute's names and argument order) with the catlass origin, the Ascend frame
patterns, pictures of rank-2 layouts, host packing of numpy arrays, and the kernel DSL
(`@layout_opt.kernel`, package `layout_opt.dsl`). Every function is the
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
from .dsl import (
    CompileError,
    DSLError,
    Index,
    Kernel,
    Tensor,
    alloc,
    block_idx,
    block_num,
    else_,
    if_,
    kernel,
    load,
    matmul,
    store,
)
# The DSL's `range`, `min`, `max` (traced indices) are `layout_opt.range` etc., kept out of
# `__all__` so that `from layout_opt import *` does not shadow the builtins.
from .dsl import max, min, range  # noqa: A004

__all__ = [
    "Layout", "LayoutError", "blocked_product", "c0", "coalesce", "complement", "composition", "cosize",
    "crd2idx", "crd2offset", "depth", "filter", "flat_divide", "frame", "idx2crd", "left_inverse",
    "logical_divide", "logical_product", "make_layout", "origin", "pack", "pattern", "raked_product", "rank",
    "right_inverse", "shape", "size", "stride", "tile", "tiled_divide", "tiled_product", "unpack",
    "zipped_divide", "zipped_product",
    # the kernel DSL
    "CompileError", "DSLError", "Index", "Kernel", "Tensor", "alloc", "block_idx", "block_num", "else_", "if_",
    "kernel", "load", "matmul", "store",
    # the GEMM generator
    "Gemm", "gemm",
]

from .gemm import Gemm, gemm  # noqa: E402 -- after the DSL it builds on
