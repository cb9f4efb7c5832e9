"""The Python boundary: every failure is a LayoutError (a ValueError) with the algebra's
message, never a panic, a wrapped integer or a recursion crash."""

import pytest

import layout_opt as lo
from conftest import calc_lines


def test_layout_error_is_a_value_error():
    assert issubclass(lo.LayoutError, ValueError)


@pytest.mark.parametrize(
    "call, calc",
    [
        (lambda: lo.Layout((2, 0)), "make_layout((2,0))"),
        (lambda: lo.Layout((2, 3), (1, (2, 3))), "make_layout((2,3),(1,(2,3)))"),
        (lambda: lo.Layout((1 << 40, 1 << 40), (1, 1 << 40)).cosize(), "cosize((1099511627776,1099511627776):(1,1099511627776))"),
        (lambda: lo.Layout((2, 3))((1, 0, 1)), "crd2idx((2,3):(1,2),(1,0,1))"),
        (lambda: lo.left_inverse(lo.Layout((2, 2), (1, 1))), "left_inverse((2,2):(1,1))"),
        (lambda: lo.complement(lo.Layout(4), -1), "complement(4:1,-1)"),
    ],
)
def test_messages_are_the_calculators(call, calc):
    with pytest.raises(lo.LayoutError) as info:
        call()
    assert [f"error: {info.value}"] == calc_lines([calc])


def test_bad_python_values_are_layout_errors():
    deep = 1
    for _ in range(100_000):
        deep = (deep,)
    for call, match in [
        (lambda: lo.Layout(deep), "nested deeper"),
        (lambda: lo.Layout(1 << 70), "64 bits"),
        (lambda: lo.Layout((2, "x")), "got str"),
        (lambda: lo.Layout(True), "bool"),
        (lambda: lo.cosize((2, 3)), "must be a Layout"),
        (lambda: lo.composition(lo.Layout(4), "x"), "a tiler"),
        (lambda: lo.make_layout(1, 2, 3, 4), "make_layout takes"),
        (lambda: lo.Layout((2, 3))[2], "out of range"),
        (lambda: lo.tile(lo.frame("NZ", "f16", 32, 32), ((16, 2), 16), (0, 0)), "must be flat"),
    ]:
        with pytest.raises(lo.LayoutError, match=match):
            call()
