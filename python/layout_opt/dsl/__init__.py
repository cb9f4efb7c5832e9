"""layout_opt.dsl: the kernel DSL (docs/python.md#the-kernel-dsl).

A Python function decorated with `@layout_opt.kernel` is traced once into a `func.func` of the
layout dialect: its parameters are `Tensor`s in global memory and `Index` sizes, its body calls
`alloc`, `.tile`, `load`, `store`, `matmul`, loops over `range` (`scf.for`) and branches with
`if_`/`else_` (`scf.if`). The compiler (linked into `layout_opt._native`) verifies, prints,
emits AscendC C++ and runs it on the CPU.
"""

from .._native import CompileError
from .kernel import BACKENDS, TARGETS, Index, Kernel, Tensor, kernel
from .ops import alloc, block_idx, block_num, else_, if_, load, matmul, range, store
from .trace import DSLError
from .values import Cond, TensorValue
from .values import index_max as max
from .values import index_min as min

__all__ = ["BACKENDS", "TARGETS", "CompileError", "Cond", "DSLError", "Index", "Kernel", "Tensor", "TensorValue",
           "alloc", "block_idx", "block_num", "else_", "if_", "kernel", "load", "matmul", "max", "min", "range",
           "store"]
