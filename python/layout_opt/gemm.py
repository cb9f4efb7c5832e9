"""`layout_opt.gemm`: the GEMM generator (crates/gemm-gen, `layout-gemm`; docs/gemm-generator.md)
from Python. The kernel distributes C tiles over `block_dim` blocks, streams K through L1 and L0
with every tail clipped by the layout algebra, and is double-buffered for 2 stages.

    g = layout_opt.gemm(dtype="f16", a="ND", b="DN", target="a2", swizzle=(2, "zn"))
    c = g(a, b, block_dim=24, backend="ascendc-cpp", sanitize=True)   # a: M x K, b: K x N (ND)

With `split_k=S` (a2) each block takes one (C tile, K chunk) pair and adds its partial product
into C with an atomic-add store (`layout.store {atomic = "add"}`): the kernel computes C += A x B,
so the call starts it from zeros (or from `c` when given).
"""

import numpy as np

from . import _native
from .dsl.arrays import from_bytes, to_input
from .dsl.kernel import BACKENDS
from .dsl.trace import DSLError


class Gemm:
    """A generated GEMM: `mlir()`, `ascendc()`, and a call on numpy arrays."""

    def __init__(self, m, n, k, dtype, out, a, b, target, tiles, swizzle, relu, scale, name, split_k=1):
        self.sizes = (m, n, k)
        if isinstance(split_k, bool) or not isinstance(split_k, int) or split_k < 1:
            raise DSLError(f"split_k must be a positive int, got {split_k!r}")
        self.split_k = split_k
        self.dtype, self.a, self.b, self.name = dtype, a.upper(), b.upper(), name
        for layout in (self.a, self.b):
            if layout not in ("ND", "DN"):
                raise DSLError(f"layout_opt.gemm runs ND and DN operands from numpy, not {layout} "
                               "(layout-gemm generates NZ ones)")
        if tiles is not None:
            tiles = tuple(tiles) + ((2,) if len(tiles) == 4 else ())
        self._source = _native.gemm_source(name, [m, n, k], dtype, out, self.a, self.b, target,
                                           tiles, swizzle, relu, scale, split_k)
        header = self._source.splitlines()[0]
        self.out = header.split("C (")[1].split()[1]

    def mlir(self):
        """The kernel in the layout dialect (verified)."""
        return self._source

    def ascendc(self):
        """Its AscendC C++."""
        return _native.ascendc(self._source)

    def __call__(self, a, b, block_dim=1, backend="loops", sanitize=None, seed=0, c=None):
        """C = A × B (the epilogue applied) for A (M × K) and B (K × N) given row-major; a DN
        operand is passed to the kernel transposed (column-major), as it lies in GM. A split-K
        kernel adds into C: `c` (M × N, the output type) is its value on entry, zeros if None;
        `c` is not modified."""
        if backend not in BACKENDS:
            raise DSLError(f"unknown back end '{backend}' ({', '.join(BACKENDS)})")
        a, b = np.asarray(a), np.asarray(b)
        (m, k), (k2, n) = a.shape, b.shape
        if k != k2:
            raise DSLError(f"A is {m} x {k} but B is {k2} x {n}")
        for want, got, what in zip(self.sizes, (m, n, k), "MNK"):
            if want is not None and want != got:
                raise DSLError(f"the kernel was generated for {what} = {want}, the arrays give {got}")
        ga = a.T.copy() if self.a == "DN" else a
        gb = b.T.copy() if self.b == "DN" else b
        if c is None:
            c = np.zeros((m, n), dtype=_numpy_out(self.out))
        else:
            if self.split_k == 1:
                raise DSLError("c on entry is read only by a split-K kernel (split_k > 1), which adds into C")
            c = np.asarray(c)
            if c.shape != (m, n):
                raise DSLError(f"c is {c.shape[0]} x {c.shape[1]} but C is {m} x {n}")
        inputs = [to_input(ga, self.dtype, "a"), to_input(gb, self.dtype, "b"), to_input(c, self.out, "c")]
        inputs += [v for want, v in zip(self.sizes, (m, n, k)) if want is None]
        checks = 0 if not sanitize else _native.SANITIZE_ALL if sanitize is True else _native.sanitizer_checks(sanitize)
        outputs = _native.run_kernel(self._source, self.name, backend, checks, inputs, block_dim, seed)
        return from_bytes(outputs[2], c, self.out)


def _numpy_out(dtype):
    return {"f16": np.float16, "bf16": np.uint16, "f32": np.float32, "i32": np.int32}[dtype]


def gemm(m=None, n=None, k=None, dtype="f16", out=None, a="ND", b="ND", target="a2", tiles=None,
         swizzle=None, relu=False, scale=None, name="gemm", split_k=1):
    """A GEMM kernel from the generator. Sizes: an int, or None for a kernel argument. `tiles`:
    (m1, n1, k1, k0[, stages]) (default (128, 256, 256, 64, 2)); `swizzle`: None (linear) or
    (offset, "zn" | "nz") as catlass's GemmIdentityBlockSwizzle; `relu`, `scale`: the store's
    epilogue (docs/dialect.md, layout.store); `split_k`: S > 1 cuts K into at most S chunks
    of whole k1 slices, one block per (tile, chunk), atomic-add stores (a2 only; the generator's
    `--split-k`, docs/gemm-generator.md)."""
    return Gemm(m, n, k, dtype, out, a, b, target, tiles, swizzle, relu, scale, name, split_k)
