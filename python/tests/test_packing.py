"""pack / unpack on numpy arrays: round trips, the PyPTO placement of NZ, and the same bytes as
`layout-run pack|unpack` (the JIT-compiled packer of layout-runtime) on the same inputs."""

import subprocess

import numpy as np
import pytest

import layout_opt as lo
from conftest import LAYOUT_RUN

PATTERNS = ["NZ", "zN", "ZN", "ZZ", "NN", "ND", "DN"]
DTYPES = [np.float16, np.float32, np.int8, np.int32]


def sample(rng, dtype, shape):
    return np.asarray(rng.integers(-100, 100, size=shape)).astype(dtype)


@pytest.mark.parametrize("pattern", PATTERNS)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_round_trip(pattern, dtype):
    rng = np.random.default_rng(7)
    for shape in [(20, 37), (3, 17, 5), (16, 32)]:
        a = sample(rng, dtype, shape)
        p = lo.pack(a, pattern)
        assert p.dtype == a.dtype and p.ndim == 1
        batch = shape[0] if len(shape) == 3 else None
        back = lo.unpack(p, pattern, shape[-2], shape[-1], batch=batch)
        assert back.dtype == a.dtype and np.array_equal(back, a)
        # Padding is zero: the packed buffer holds the elements and nothing else.
        assert np.count_nonzero(p) == np.count_nonzero(a)
        assert sorted(p[p != 0].tolist()) == sorted(a[a != 0].tolist())


def test_nz_places_elements_as_pypto():
    a = np.arange(1, 20 * 37 + 1, dtype=np.float32).reshape(20, 37)
    p = lo.pack(a, "NZ", physical=True)  # f32: C0 = 8, [N1, M1, 16, C0] = [5, 2, 16, 8]
    assert p.shape == (5, 2, 16, 8)
    want = np.zeros((5, 2, 16, 8), np.float32)
    for i in range(20):
        for j in range(37):
            want[j // 8, i // 16, i % 16, j % 8] = a[i, j]
    assert np.array_equal(p, want)
    assert np.array_equal(lo.pack(a, "NZ").reshape(p.shape), p)


def test_bf16_bits_and_c0_override():
    bits = np.arange(40 * 20, dtype=np.uint16).reshape(40, 20)
    p = lo.pack(bits, "NZ", dtype="bf16")
    assert p.dtype == np.uint16 and np.array_equal(lo.unpack(p, "NZ", 40, 20, dtype="bf16"), bits)
    assert np.array_equal(p, lo.pack(bits.view(np.float16), "NZ").view(np.uint16))
    small = lo.pack(bits, "NN", dtype="bf16", c0=2)
    assert small.size == 40 * 32 and np.array_equal(lo.unpack(small, "NN", 40, 20, dtype="bf16", c0=2), bits)


def test_non_contiguous_input_is_packed_as_its_values():
    a = np.arange(64 * 48, dtype=np.float16).reshape(64, 48)
    view = a[::2, 1::3]
    assert np.array_equal(lo.unpack(lo.pack(view, "ZZ"), "ZZ", *view.shape), view)


def test_bad_inputs_are_layout_errors():
    a = np.zeros((16, 16), np.float16)
    for call, match in [
        (lambda: lo.pack(a, "L0C"), "cannot be packed"),
        (lambda: lo.pack(np.zeros(5, np.float16), "NZ"), r"\[M, N\]"),
        (lambda: lo.pack(a, "QQ"), "unknown"),
        (lambda: lo.pack(a, "NZ", dtype="f32"), "16 bits|32 bits"),
        (lambda: lo.pack(np.zeros((4, 4), np.complex64), "ND"), "complex64"),
        (lambda: lo.unpack(np.zeros(100, np.float16), "NZ", 16, 16), "100 elements"),
        (lambda: lo.pack(np.zeros((16, 16), np.float64), "NZ"), "64-bit"),
    ]:
        with pytest.raises(lo.LayoutError, match=match):
            call()


def run_tool(args):
    out = subprocess.run([LAYOUT_RUN, *args], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


@pytest.mark.parametrize("pattern", ["NZ", "ZN", "ZZ", "NN", "DN"])
def test_same_bytes_as_layout_run(tmp_path, pattern):
    rng = np.random.default_rng(3)
    cases = [(np.float16, None, (33, 40)), (np.float32, None, (2, 17, 9)), (np.int8, None, (40, 70)),
             (np.int32, None, (5, 21)), (np.uint16, "bf16", (18, 20))]
    for dtype, name, shape in cases:
        a = sample(rng, dtype, shape)
        src, packed, back = tmp_path / "a.npy", tmp_path / "p.npy", tmp_path / "b.npy"
        np.save(src, a)
        flags = ["--dtype", name] if name else []
        run_tool(["pack", "--layout", pattern, *flags, str(src), str(packed)])
        mine = lo.pack(a, pattern, dtype=name)
        theirs = np.load(packed)
        assert theirs.shape == mine.shape and np.array_equal(theirs.view(mine.dtype), mine), (pattern, shape)
        batch = ["--batch", str(shape[0])] if len(shape) == 3 else []
        run_tool(["unpack", "--layout", pattern, "--rows", str(shape[-2]), "--cols", str(shape[-1]), *batch,
                  *flags, str(packed), str(back)])
        assert np.array_equal(np.load(back).view(a.dtype), a)
        assert np.array_equal(
            lo.unpack(theirs.view(a.dtype), pattern, shape[-2], shape[-1],
                      batch=shape[0] if len(shape) == 3 else None, dtype=name), a)
