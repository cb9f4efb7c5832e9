"""layout_opt.gemm (the GEMM generator) and multi-block runs of DSL kernels: results equal numpy
exactly (small-integer inputs, so every sum is exact in f32) on every back end, for several block
counts, with the sanitizer on (racecheck included)."""

import numpy as np
import pytest

import layout_opt as lo
from layout_opt import Index, Tensor

BACKENDS = ("loops", "ascendc-cpp", "ascendc-llvm")


def operands(m, n, k, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    return a, b, a.astype(np.float64) @ b.astype(np.float64)


@pytest.mark.parametrize("backend", BACKENDS)
def test_generated_gemm_on_several_blocks(backend):
    g = lo.gemm(dtype="f16", a="ND", b="DN", tiles=(64, 64, 128, 64, 2), swizzle=(2, "zn"))
    assert '"layout.block_idx"' in g.mlir() and "GetBlockIdx()" in g.ascendc()
    a, b, want = operands(150, 100, 200)
    for blocks in (1, 3, 7):
        c = g(a, b, block_dim=blocks, backend=backend, sanitize=True, seed=blocks)
        assert c.dtype == np.float32
        np.testing.assert_array_equal(c, want.astype(np.float32))


def test_generated_gemm_static_sizes_and_epilogue():
    g = lo.gemm(m=40, n=72, k=33, dtype="f16", out="f16", relu=True, tiles=(32, 64, 64, 64, 1))
    assert "(40,33)" in g.mlir() and "relu = true" in g.mlir()
    a, b, want = operands(40, 72, 33, seed=1)
    c = g(a, b, block_dim=4, backend="ascendc-cpp", sanitize=True)
    np.testing.assert_array_equal(c, np.maximum(want, 0).astype(np.float16))
    with pytest.raises(lo.DSLError, match="generated for M = 40"):
        g(*operands(41, 72, 33)[:2])


def test_generator_errors_name_the_problem():
    with pytest.raises(lo.CompileError, match="k0 must be a positive multiple of 16"):
        lo.gemm(tiles=(64, 64, 64, 48, 1))
    with pytest.raises(lo.CompileError, match="do not fit on a2"):
        lo.gemm(tiles=(256, 256, 256, 128, 2))


def test_dsl_block_idx_splits_the_rows():
    """A DSL GEMM whose blocks take every block_num-th row tile of C."""

    @lo.kernel
    def gemm_rows(A: Tensor("f16", ("M", "K")), B: Tensor("f16", ("K", "N")), C: Tensor("f32", ("M", "N")),
                  M: Index, N: Index, K: Index):
        a1, b1 = lo.alloc("f16", "l1", "NZ", (32, 64)), lo.alloc("f16", "l1", "NZ", (64, 64))
        a0, b0 = lo.alloc("f16", "l0a", "ZZ", (32, 64)), lo.alloc("f16", "l0b", "ZN", (64, 64))
        acc = lo.alloc("f32", "l0c", "NZ", (32, 64))
        step = lo.block_num() * 32
        for m in lo.range(lo.block_idx() * 32, M, step):
            for n in lo.range(0, N, 64):
                a = lo.load(lo.load(A.tile((32, 64), (m, 0)), a1), a0)
                b = lo.load(lo.load(B.tile((64, 64), (0, n)), b1), b0)
                lo.matmul(a, b, acc)
                for k in lo.range(64, K, 64):
                    a = lo.load(lo.load(A.tile((32, 64), (m, k)), a1), a0)
                    b = lo.load(lo.load(B.tile((64, 64), (k, n)), b1), b0)
                    lo.matmul(a, b, acc, accumulate=True)
                lo.store(acc, C.tile((32, 64), (m, n)))

    a, b, want = operands(100, 70, 90, seed=2)
    for backend in BACKENDS:
        for blocks in (1, 2, 5):
            c = gemm_rows(a, b, np.full((100, 70), 7, np.float32), backend=backend, sanitize=True, block_dim=blocks)
            np.testing.assert_array_equal(c, want.astype(np.float32))


@pytest.mark.parametrize("backend", BACKENDS)
def test_split_k_gemm_adds_chunks_atomically(backend):
    """layout_opt.gemm(split_k=S): one block per (C tile, K chunk), each chunk added into C by
    an atomic-add store; K = 300 with k1 = 64 gives 5 slices cut into 3 chunks (2, 2, 1), the
    last with a K tail. Starting from a nonzero C shows the kernel computes C += A x B."""
    g = lo.gemm(dtype="f16", a="ND", b="DN", tiles=(32, 32, 64, 32, 1), split_k=3)
    assert 'atomic = "add"' in g.mlir() and "SetAtomicAdd" in g.ascendc()
    a, b, want = operands(40, 50, 300, seed=3)
    for blocks in (1, 4, 24):
        c = g(a, b, block_dim=blocks, backend=backend, sanitize=True, seed=blocks)
        np.testing.assert_array_equal(c, want.astype(np.float32))
    c0 = np.full((40, 50), 2.5, np.float32)
    c = g(a, b, block_dim=5, backend=backend, sanitize=True, c=c0)
    np.testing.assert_array_equal(c, (want + 2.5).astype(np.float32))
    np.testing.assert_array_equal(c0, np.full((40, 50), 2.5, np.float32))


def test_split_k_errors():
    with pytest.raises(lo.DSLError, match="split_k must be a positive int"):
        lo.gemm(split_k=0)
    with pytest.raises(lo.CompileError, match="split"):
        lo.gemm(target="a5", split_k=2)
    g = lo.gemm(m=16, n=16, k=16, tiles=(16, 16, 16, 16, 1))
    with pytest.raises(lo.DSLError, match="read only by a split-K kernel"):
        g(*operands(16, 16, 16)[:2], c=np.zeros((16, 16), np.float32))


def test_dsl_atomic_store_split_k():
    """A DSL kernel that splits K over two blocks by hand: block b reduces K chunk b and adds
    its partial C with store(atomic="add"); numpy gives the reference."""

    @lo.kernel
    def split2(A: Tensor("f16", ("M", "K")), B: Tensor("f16", ("K", "N")), C: Tensor("f32", ("M", "N")),
               M: Index, N: Index, K: Index):
        a1, b1 = lo.alloc("f16", "l1", "NZ", (32, 64)), lo.alloc("f16", "l1", "NZ", (64, 32))
        a0, b0 = lo.alloc("f16", "l0a", "ZZ", (32, 64)), lo.alloc("f16", "l0b", "ZN", (64, 32))
        acc = lo.alloc("f32", "l0c", "NZ", (32, 32))
        for chunk in lo.range(lo.block_idx() * 64, K, lo.block_num() * 64):
            for m in lo.range(0, M, 32):
                for n in lo.range(0, N, 32):
                    a = lo.load(lo.load(A.tile((32, 64), (m, chunk)), a1), a0)
                    b = lo.load(lo.load(B.tile((64, 32), (chunk, n)), b1), b0)
                    lo.matmul(a, b, acc)
                    lo.store(acc, C.tile((32, 32), (m, n)), atomic="add")

    assert 'atomic = "add"' in split2.mlir() and "SetAtomicAdd" in split2.ascendc()
    a, b, want = operands(40, 45, 150, seed=4)
    c0 = np.full((40, 45), -1, np.float32)
    for backend in BACKENDS:
        for blocks in (1, 2, 3):
            c = split2(a, b, c0, backend=backend, sanitize=True, block_dim=blocks)
            np.testing.assert_array_equal(c, (want - 1).astype(np.float32))
    with pytest.raises(lo.DSLError, match='atomic must be "add"'):
        @lo.kernel
        def bad(C: Tensor("f32", ("M", "N")), M: Index, N: Index):
            acc = lo.alloc("f32", "l0c", "NZ", (16, 16))
            lo.store(acc, C.tile((16, 16), (0, 0)), atomic="max")
        bad.mlir()
