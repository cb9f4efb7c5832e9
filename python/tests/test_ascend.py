"""frame / c0 / tile / pattern against layout-calc and the formulas of docs/layout-spec.md §A.2."""

import pytest

import layout_opt as lo
from conftest import calc_lines, expr, fmt
import reference as ref

FORMULAS = {"NZ": ref.nz_offset, "ZZ": ref.zz_offset, "ZN": ref.zn_offset, "NN": ref.nn_offset}
# The third argument of each formula: rows for column-major grids, cols for row-major ones.
GRID_EXTENT = {"NZ": 0, "NN": 0, "ZZ": 1, "ZN": 1}
CATLASS = {"NZ": "zN", "ZZ": "zZ", "ZN": "nZ", "NN": "nN"}


def test_frames_match_the_formulas_and_both_spellings(rng):
    exprs, got = [], []
    for _ in range(30):
        p = rng.choice(list(FORMULAS))
        dtype, c0 = rng.choice([("f16", 16), ("bf16", 16), ("f32", 8), ("i8", 32), ("i32", 8)])
        rows, cols = rng.randint(1, 70), rng.randint(1, 70)
        layout = lo.frame(p, dtype, rows, cols)
        assert layout == lo.frame(CATLASS[p], dtype, rows, cols)
        assert lo.c0(dtype) == c0
        if layout.shape[0][1] > 1 and layout.shape[1][1] > 1:  # one row of fractals is NZ and ZZ at once
            assert lo.pattern(layout) == f"{p}(c0={c0})"
        extent = (rows, cols)[GRID_EXTENT[p]]
        for _ in range(20):
            i, j = rng.randrange(rows), rng.randrange(cols)
            assert layout((i, j)) == FORMULAS[p](i, j, extent, c0), (p, dtype, rows, cols, i, j)
        assert layout.origin == (rows, cols)
        exprs += [f"frame({CATLASS[p]},{dtype},{rows},{cols})", f"pattern({expr(layout)})", f"c0({dtype})"]
        got += [str(layout), lo.pattern(layout), str(lo.c0(dtype))]
    assert got == calc_lines(exprs)


def test_tiles_are_windows_of_the_parent(rng):
    exprs, got = [], []
    for _ in range(30):
        rows, cols = rng.randint(20, 100), rng.randint(20, 100)
        parent = lo.frame("NZ", "f16", rows, cols)
        shape = (rng.choice([16, 32, 48]), rng.choice([16, 32, 48]))
        coord = (rng.randrange(0, rows, shape[0]), rng.randrange(0, cols, shape[1]))
        t = lo.tile(parent, shape, coord)
        base = parent(coord)
        for i in range(0, shape[0], 7):
            for j in range(0, shape[1], 5):
                assert t((i, j)) + base == parent((coord[0] + i, coord[1] + j))
        assert t.origin == (min(shape[0], rows - coord[0]), min(shape[1], cols - coord[1]))
        exprs.append(f"tile(frame(NZ,f16,{rows},{cols}),{fmt(shape)},{fmt(coord)})")
        got.append(str(t))
    assert got == calc_lines(exprs)
    assert str(lo.tile(lo.frame("NZ", "f16", 100, 100), (32, 48), (96, 96))) == (
        "((16,2),(16,3)):((16,256),(1,1792)) origin (4,4)"
    )


def test_pattern_of_other_layouts():
    assert lo.pattern(lo.Layout(((16, 2), (16, 3)), ((1, 512), (16, 256)))) == "ZN(c0=16)"
    assert lo.pattern(lo.Layout((3, 5), (7, 3))) is None
    assert calc_lines(["pattern((3,5):(7,3))"]) == ["none"]


def test_ascend_errors_are_the_algebras():
    for f, args, e in [
        (lo.frame, ("NZ", "i64", 16, 16), "frame(NZ,i64,16,16)"),
        (lo.frame, ("QQ", "f16", 16, 16), "frame(QQ,f16,16,16)"),
        (lo.c0, ("f17",), "c0(f17)"),
    ]:
        with pytest.raises(lo.LayoutError) as info:
            f(*args)
        assert [f"error: {info.value}"] == calc_lines([e])
