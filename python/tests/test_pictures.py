"""table / svg / _repr_svg_: the same text as `layout-calc table|svg`, and the SVG's content."""

import re
import subprocess

import pytest

import layout_opt as lo
from conftest import LAYOUT_CALC, expr


def calc_picture(kind, layout):
    out = subprocess.run([LAYOUT_CALC, kind, expr(layout)], capture_output=True, text=True, check=True)
    return out.stdout


@pytest.mark.parametrize(
    "layout",
    [
        lo.frame("NZ", "f16", 20, 20),
        lo.frame("ZN", "f32", 10, 18),
        lo.Layout((4, 3), (1, 4), origin=(3, 2)),
        lo.Layout((2, 3), (3, 1)),
    ],
    ids=str,
)
def test_pictures_equal_layout_calc(layout):
    assert layout.table() == calc_picture("table", layout)
    assert layout.svg() == calc_picture("svg", layout)
    assert layout._repr_svg_() == layout.svg()


def test_svg_of_an_nz_tail():
    layout = lo.frame("NZ", "f16", 20, 20)
    svg = layout.svg()
    cells = re.findall(r'<rect class="(cell(?: padding)?)"', svg)
    assert len(cells) == 32 * 32 and cells.count("cell padding") == 32 * 32 - 20 * 20
    offsets = [int(v) for v in re.findall(r'<text class="offset"[^>]*>(\d+)</text>', svg)]
    assert offsets == [layout((i, j)) for i in range(32) for j in range(32)]
    blocks = re.findall(r'<rect class="block" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)"', svg)
    assert sorted(blocks) == sorted(
        (str(24 + bj * 448), str(24 + bi * 448), "448", "448") for bi in range(2) for bj in range(2)
    )
    assert re.findall(r'<rect class="origin" x="24" y="24" width="(\d+)" height="(\d+)"', svg) == [("560", "560")]
    assert "<title>((16,2),(16,2)):((16,256),(1,512)) origin (20,20)</title>" in svg


def test_pictures_of_other_ranks_are_errors_not_crashes():
    layout = lo.Layout((2, 3, 4))
    with pytest.raises(lo.LayoutError, match="rank-2"):
        layout.svg()
    with pytest.raises(lo.LayoutError, match="rank-2"):
        layout.table()
    assert layout._repr_svg_() is None
