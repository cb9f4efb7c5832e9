"""The kernel DSL: traced kernels run on every back end and both targets and equal numpy
(tails in every dimension), epilogues, element types, `if_`, located errors, IR round trips."""

import importlib.util
import inspect
import pathlib

import numpy as np
import pytest

import layout_opt as lo
from layout_opt import Index, Tensor

ROOT = pathlib.Path(__file__).resolve().parents[2]
BACKENDS = ["loops", "ascendc-cpp", "ascendc-llvm"]
TARGETS = ["a2", "a5"]


def _example():
    spec = importlib.util.spec_from_file_location("gemm_dynamic", ROOT / "examples/python/gemm_dynamic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def small_ints(rng, shape, dtype):
    """Values whose products and sums are exact in f16/f32, so every back end must match numpy
    exactly (a wrong tile, tail or accumulation changes some element)."""
    return rng.integers(-3, 4, shape).astype(dtype)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_example_gemm_equals_numpy(target, backend):
    gemm = _example().gemm(target)
    rng = np.random.default_rng(7)
    # M = 150 (one full 128-row block + 22), N = 70 (< 256), K = 100 (64 + a 36 tail slice).
    a, b = small_ints(rng, (150, 100), np.float16), small_ints(rng, (100, 70), np.float16)
    c0 = np.full((150, 70), 12345.0, np.float32)
    sanitize = True if backend != "loops" else "memcheck,initcheck"
    c = gemm(a, b, c0, backend=backend, sanitize=sanitize)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    assert (c0 == 12345.0).all(), "inputs are not modified"


def test_sizes_by_keyword_and_mismatch():
    gemm = _example().gemm("a2")
    rng = np.random.default_rng(1)
    a, b = small_ints(rng, (40, 80), np.float16), small_ints(rng, (80, 24), np.float16)
    c = gemm(a, b, np.zeros((40, 24), np.float32), M=40, N=24, K=80)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    with pytest.raises(lo.DSLError, match="disagree on K"):
        gemm(a, np.zeros((81, 24), np.float16), np.zeros((40, 24), np.float32))
    with pytest.raises(lo.DSLError, match="is f16: expected a numpy array of float16, got float32"):
        gemm(a.astype(np.float32), b, np.zeros((40, 24), np.float32))


def epilogue_kernel(target, out_dtype, relu, scale, in_dtype="f16", acc_dtype="f32"):
    a0_layout = "ZZ" if target == "a2" else "NZ"
    # 8-bit B is copied in L0B's order (gm DN -> L1 ZN -> L0B ZN): NZ -> ZN of i8 needs a
    # transposing B8 load the back end does not emit. The DN parameter is a packed 1-D buffer.
    b_gm, b1_layout = ("DN", "ZN") if in_dtype == "i8" else ("ND", "NZ")

    @lo.kernel(target=target)
    def epilogue(A: Tensor(in_dtype, ("M", "K")), B: Tensor(in_dtype, ("K", "N"), b_gm),
                 C: Tensor(out_dtype, ("M", "N")), M: Index, N: Index, K: Index):
        a1, b1 = lo.alloc(in_dtype, "l1", "NZ", (64, 64)), lo.alloc(in_dtype, "l1", b1_layout, (64, 64))
        a0, b0 = lo.alloc(in_dtype, "l0a", a0_layout, (64, 64)), lo.alloc(in_dtype, "l0b", "ZN", (64, 64))
        acc = lo.alloc(acc_dtype, "l0c", "NZ", (64, 64))
        for m in lo.range(0, M, 64):
            for n in lo.range(0, N, 64):
                a = lo.load(lo.load(A.tile((64, 64), (m, 0)), a1), a0)
                b = lo.load(lo.load(B.tile((64, 64), (0, n)), b1), b0)
                lo.matmul(a, b, acc)
                lo.store(acc, C.tile((64, 64), (m, n)), relu=relu, scale=scale)

    return epilogue


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_relu_and_f16_conversion(target, backend):
    k = epilogue_kernel(target, "f16", relu=True, scale=None)
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (70, 40)).astype(np.float16)
    b = rng.uniform(-1, 1, (40, 90)).astype(np.float16)
    c = k(a, b, np.zeros((70, 90), np.float16), backend=backend)
    exact = a.astype(np.float64) @ b.astype(np.float64)
    want = np.maximum(exact, 0).astype(np.float16)
    assert c.dtype == np.float16
    # The f32 accumulation order differs from numpy's: within one f16 rounding step.
    np.testing.assert_allclose(c.astype(np.float64), want.astype(np.float64), rtol=2e-3, atol=2e-3)
    # relu: what is not > 0 is +0 exactly; what is clearly positive stays positive.
    assert (c[exact <= 0] == 0).all() and not np.signbit(c).any()
    assert (c[exact > 1e-2] > 0).all()


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_i8_matmul_dequantized_to_f16(target, backend):
    k = epilogue_kernel(target, "f16", relu=False, scale=0.25, in_dtype="i8", acc_dtype="i32")
    rng = np.random.default_rng(4)
    a = rng.integers(-128, 128, (50, 64)).astype(np.int8)
    b = rng.integers(-128, 128, (64, 70)).astype(np.int8)
    c = k(a, lo.pack(b, "DN"), np.zeros((50, 70), np.float16), K=64, N=70, backend=backend)
    acc = a.astype(np.int64) @ b.astype(np.int64)
    want = np.clip(acc.astype(np.float32) * np.float32(0.25), -65504, 65504).astype(np.float16)
    np.testing.assert_array_equal(c, want)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_i8_matmul_i32_result(target, backend):
    k = epilogue_kernel(target, "i32", relu=False, scale=None, in_dtype="i8", acc_dtype="i32")
    rng = np.random.default_rng(5)
    a = rng.integers(-128, 128, (70, 64)).astype(np.int8)
    b = rng.integers(-128, 128, (64, 33)).astype(np.int8)
    c = k(a, lo.pack(b, "DN"), np.zeros((70, 33), np.int32), K=64, N=33, backend=backend)
    np.testing.assert_array_equal(c, (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32))


@pytest.mark.parametrize("backend", BACKENDS)
def test_bf16_result_as_uint16_bits(backend):
    k = epilogue_kernel("a2", "bf16", relu=False, scale=None)
    rng = np.random.default_rng(6)
    a, b = small_ints(rng, (20, 30), np.float16), small_ints(rng, (30, 40), np.float16)
    bits = k(a, b, np.zeros((20, 40), np.uint16), backend=backend)
    assert bits.dtype == np.uint16
    # Small integers are exact in bf16: the bits are the top half of the f32 bits.
    want = (a.astype(np.float32) @ b.astype(np.float32)).view(np.uint32) >> 16
    np.testing.assert_array_equal(bits, want.astype(np.uint16))


def branch_kernel(target):
    """Row blocks that end at or before row T are stored with relu, the others without: `if_` on
    a traced comparison of index arithmetic."""

    @lo.kernel(target=target)
    def branch(A: Tensor("f16", ("M", "K")), B: Tensor("f16", ("K", "N")), C: Tensor("f32", ("M", "N")),
               M: Index, N: Index, K: Index, T: Index):
        a1, b1 = lo.alloc("f16", "l1", "NZ", (32, 32)), lo.alloc("f16", "l1", "NZ", (32, 32))
        a0 = lo.alloc("f16", "l0a", "ZZ" if target == "a2" else "NZ", (32, 32))
        b0 = lo.alloc("f16", "l0b", "ZN", (32, 32))
        acc = lo.alloc("f32", "l0c", "NZ", (32, 32))
        for m in lo.range(0, M, 32):
            for n in lo.range(0, N, 32):
                a = lo.load(lo.load(A.tile((32, 32), (m, 0)), a1), a0)
                b = lo.load(lo.load(B.tile((32, 32), (0, n)), b1), b0)
                lo.matmul(a, b, acc)
                with lo.if_(m + 32 <= T):
                    lo.store(acc, C.tile((32, 32), (m, n)), relu=True)
                with lo.else_():
                    lo.store(acc, C.tile((32, 32), (m, n)))

    return branch


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_if_on_a_traced_condition(target, backend):
    k = branch_kernel(target)
    rng = np.random.default_rng(8)
    a, b = small_ints(rng, (100, 20), np.float16), small_ints(rng, (20, 40), np.float16)
    want = a.astype(np.float32) @ b.astype(np.float32)
    for t in (0, 64, 100, 200):
        c = k(a, b, np.zeros((100, 40), np.float32), T=t, backend=backend)
        expect = want.copy()
        relu_rows = t // 32 * 32
        expect[:relu_rows] = np.maximum(expect[:relu_rows], 0)
        np.testing.assert_array_equal(c, expect, err_msg=f"T = {t}")
    assert "scf.if" in k.mlir() and "arith.cmpi sle" in k.mlir()


def test_ascendc_cpp_is_a_kernel():
    cpp = _example().gemm("a2").ascendc()
    assert "gemm_dynamic_k" in cpp
    assert "Mmad" in cpp and "Fixpipe" in cpp and "DataCopy" in cpp


def stale_read_kernel():
    @lo.kernel
    def stale(A: Tensor("f16", ("M", "K")), B: Tensor("f16", ("K", "N")), C: Tensor("f32", ("M", "N")),
              M: Index, N: Index, K: Index):
        a1, b1 = lo.alloc("f16", "l1", "NZ", (128, 64)), lo.alloc("f16", "l1", "NZ", (64, 256))
        a0, b0 = lo.alloc("f16", "l0a", "ZZ", (128, 64)), lo.alloc("f16", "l0b", "ZN", (64, 256))
        acc = lo.alloc("f32", "l0c", "NZ", (128, 256))
        for k in lo.range(0, K, 64):
            lo.load(A.tile((128, 64), (0, k)), a1)
            a = lo.load(a1, a0)  # STALE: reads the whole L1 buffer, not the written view
            b = lo.load(lo.load(B.tile((64, 256), (k, 0)), b1), b0)
            lo.matmul(a, b, acc, accumulate=True)
        lo.store(acc, C.tile((128, 256), (0, 0)))

    return stale


def line_of(marker, fn):
    lines, first = inspect.getsourcelines(fn)
    return first + next(i for i, line in enumerate(lines) if marker in line)


def test_verify_errors_point_at_the_python_line():
    k = stale_read_kernel()
    errors = k.verify()
    line = line_of("# STALE", stale_read_kernel)
    assert errors, "the stale read must be rejected"
    assert errors[0].startswith(f"{__file__}:{line}:"), errors[0]
    assert "error:" in errors[0] and "# STALE" in errors[0], "the Python line is quoted under the error"
    with pytest.raises(lo.CompileError, match=f"{__file__}:{line}:"):
        k(np.zeros((128, 64), np.float16), np.zeros((64, 256), np.float16), np.zeros((128, 256), np.float32))


def test_tracer_errors_point_at_the_python_line():
    @lo.kernel
    def escaped(A: Tensor("f16", (16, 16)), C: Tensor("f16", (16, 16))):
        buf = lo.alloc("f16", "ub", "ND", (16, 16))
        for i in lo.range(0, 16, 16):
            t = A.tile((16, 16), (i, 0))
        lo.load(t, buf)  # ESCAPED

    with pytest.raises(lo.DSLError, match=f"{__file__}:{line_of('# ESCAPED', escaped.fn)}:.*no loop-carried"):
        escaped.source()

    @lo.kernel
    def python_if(A: Tensor("f16", ("M", 16)), M: Index):
        if M > 3:  # PYIF
            pass

    with pytest.raises(lo.DSLError, match=f"{__file__}:{line_of('# PYIF', python_if.fn)}:.*if_"):
        python_if.source()


def test_ir_round_trips_through_the_verifier():
    for target in TARGETS:
        for k in (_example().gemm(target), branch_kernel(target)):
            pretty, generic = k.mlir(), k.mlir(generic=True)
            assert '"layout.matmul"' in generic and '"scf.for"' in generic and "scf.for %" in pretty
            assert lo._native.print_module(pretty) == pretty
            assert lo._native.print_module(generic) == pretty
            assert lo._native.print_module(pretty, True) == generic
            for text in (k.source(), pretty, generic, k.mlir(locations=True)):
                assert lo._native.verify(text) == ""
            assert k.verify() == []
            file = k.fn.__code__.co_filename
            assert f'loc("{file}":' in k.mlir(locations=True) and "loc(" not in pretty


def test_example_script_runs():
    import subprocess
    import sys

    for target in TARGETS:
        out = subprocess.run([sys.executable, str(ROOT / "examples/python/gemm_dynamic.py"), target, "ascendc-llvm"],
                             capture_output=True, text=True, check=True).stdout
        assert out.startswith(f"{target} ascendc-llvm: max |C - A @ B| = "), out
        assert float(out.split("= ")[1]) < 1e-3, out
