"""examples/python/layout_tour.py runs and prints what the docs say it prints."""

import pathlib
import subprocess
import sys

TOUR = pathlib.Path(__file__).resolve().parents[2] / "examples/python/layout_tour.py"


def test_tour_runs():
    out = subprocess.run([sys.executable, str(TOUR)], capture_output=True, text=True, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == "column-major: (4,3):(1,4)   a(1, 2) = 9"
    assert "NZ 100x100 f16: ((16,7),(16,7)):((16,256),(1,1792)) origin (100,100)" in lines
    assert "offset of (17, 33): 3857 = crd2offset: 3857" in lines
    assert "same in catlass spelling: True  C0(f32) = 8" in lines
    assert "tail tile: ((16,2),(16,3)):((16,256),(1,1792)) origin (4,4)  pattern: NZ(c0=16)" in lines
    assert "blocked_product: ((16,7),(16,7)):((16,256),(1,1792))" in lines
    assert "right_inverse (offset -> logical index): (16,112,7):(112,1,1792)" in lines
    assert "svg cells of ((16,1),(8,2)):((8,128),(1,128)) origin (4,10) : 256" in lines
    assert "3  [ 3] [ 7] [11]" in lines
    assert "packed NZ: (2, 2, 16, 16)  round trip: True" in lines
    assert lines[-1].startswith("LayoutError: complement is not admissible: injectivity")
