"""Shared helpers: the reference tools (`layout-calc`, `layout-run` of this checkout, built by
`make build`; scripts/python-test.sh passes their paths) and random layouts."""

import os
import pathlib
import random
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
LAYOUT_CALC = os.environ.get("LAYOUT_CALC", str(ROOT / "target/debug/layout-calc"))
LAYOUT_RUN = os.environ.get("LAYOUT_RUN", str(ROOT / "target/debug/layout-run"))


def calc_lines(exprs):
    """Evaluates many expressions in one `layout-calc` process (stdin, one line each)."""
    out = subprocess.run([LAYOUT_CALC], input="\n".join(exprs) + "\n", capture_output=True, text=True, check=False)
    lines = out.stdout.splitlines()
    assert len(lines) == len(exprs), out.stdout + out.stderr
    return lines


def fmt(t):
    """An int tuple in layout-calc's syntax: (1,(2,3))."""
    if isinstance(t, int):
        return str(t)
    return "(" + ",".join(fmt(x) for x in t) + ")"


def expr(layout):
    """A Layout as a layout-calc expression (origin included)."""
    return f"make_layout({fmt(layout.shape)},{fmt(layout.stride)},{fmt(layout.origin)})"


def random_shape(rng, max_rank=3, max_depth=2, max_leaf=5):
    rank = rng.randint(1, max_rank)
    modes = []
    for _ in range(rank):
        if max_depth > 1 and rng.random() < 0.3:
            modes.append(random_shape(rng, 2, max_depth - 1, max_leaf))
        else:
            modes.append(rng.randint(1, max_leaf))
    return modes[0] if rank == 1 and rng.random() < 0.3 else tuple(modes)


def leaves(t):
    return [t] if isinstance(t, int) else [x for m in t for x in leaves(m)]


def unflatten(like, values):
    it = iter(values)

    def go(t):
        return next(it) if isinstance(t, int) else tuple(go(m) for m in t)

    return go(like)


def random_layout(rng, injective=False, **kw):
    import layout_opt as lo

    shape = random_shape(rng, **kw)
    if injective:
        # A permutation of the column-major strides, optionally scaled: always injective.
        ls = leaves(shape)
        order = list(range(len(ls)))
        rng.shuffle(order)
        strides = [0] * len(ls)
        acc = rng.choice([1, 1, 2])
        for i in order:
            strides[i] = acc
            acc *= ls[i] * rng.choice([1, 1, 2])
        return lo.Layout(shape, unflatten(shape, strides))
    strides = [rng.choice([0, 1, 2, 3, 4, 6, 8, 16]) for _ in leaves(shape)]
    return lo.Layout(shape, unflatten(shape, strides))


@pytest.fixture
def rng():
    return random.Random(int(os.environ.get("LAYOUT_OPT_SEED", "13")))
