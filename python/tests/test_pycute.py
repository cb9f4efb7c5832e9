"""layout_opt against pycute (NVIDIA CUTLASS's Python CuTe, a test-only dependency) on random
injective layouts: wherever both accept the arguments, the results are the same shape:stride.
Our algebra checks CuTe's admissibility conditions, so it rejects some inputs pycute computes
something for (not compared); pycute fails on some inputs ours accepts (not compared either).
pycute (CUTLASS 4.2) has no blocked_product, raked_product, flat_divide, rank or depth: those
are covered by test_algebra.py (layout-calc and the brute-force reference)."""

import random

import pycute as pc
import pytest

import layout_opt as lo
from conftest import random_layout
import reference as ref

CASES = 200


def pycute_layout(layout):
    return pc.Layout(layout.shape, layout.stride)


def compare(name, ours, theirs, counts):
    try:
        mine = ours()
    except lo.LayoutError:
        return
    try:
        other = theirs()
    except Exception:  # pycute's own limitations (assertions, unsupported forms)
        return
    assert (mine.shape, mine.stride) == (other.shape, other.stride), f"{name}: {mine} vs pycute {other}"
    counts[name] = counts.get(name, 0) + 1


def test_agrees_with_pycute():
    rng = random.Random(5)
    counts = {}
    for _ in range(CASES):
        a = random_layout(rng, injective=True, max_leaf=4)
        b = random_layout(rng, injective=True, max_rank=1, max_depth=1, max_leaf=4)
        pa, pb = pycute_layout(a), pycute_layout(b)
        m = ref.cosize(a) * rng.choice([1, 2, 3])
        compare("coalesce", lambda: lo.coalesce(a), lambda: pc.coalesce(pa), counts)
        compare("filter", lambda: lo.filter(a), lambda: pc.filter(pa), counts)
        compare("composition", lambda: lo.composition(a, b), lambda: pc.composition(pa, pb), counts)
        compare("complement", lambda: lo.complement(a, m), lambda: pc.complement(pa, m), counts)
        compare("right_inverse", lambda: lo.right_inverse(a), lambda: pc.right_inverse(pa), counts)
        compare("left_inverse", lambda: lo.left_inverse(a), lambda: pc.left_inverse(pa), counts)
        for name in ["logical_divide", "zipped_divide", "tiled_divide", "logical_product", "zipped_product",
                     "tiled_product"]:
            compare(name, lambda: getattr(lo, name)(a, b), lambda: getattr(pc, name)(pa, pb), counts)
        i = rng.randrange(lo.size(a))
        assert a(i) == pc.crd2idx(i, a.shape, a.stride)
        assert lo.idx2crd(i, a.shape) == pc.idx2crd(i, a.shape)
        assert lo.size(a) == pc.size(a.shape) == pc.size(pa) and lo.cosize(a) == pc.cosize(pa)
    # Every function was compared on most cases, not only on a few.
    for name in ["coalesce", "filter", "complement", "right_inverse", "left_inverse"]:
        assert counts[name] == CASES, name
    for name in ["composition", "logical_divide", "zipped_divide", "tiled_divide", "logical_product"]:
        assert counts[name] >= CASES // 2, (name, counts[name])
