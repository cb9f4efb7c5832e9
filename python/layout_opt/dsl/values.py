"""Traced values: `Index` (MLIR `index`, with Python arithmetic), `Cond` (`i1`) and `TensorValue`
(a `!layout.tensor`, with `.tile` and `.offset`).

A value belongs to the block that defined it; using it after that block's Python `for`/`with`
ended is an error at the Python line (the DSL has no loop-carried values).
"""

import re

from .._native import frame
from .trace import active, caller_location, error

# Python operator -> arith op on index values.
_ARITH = {"+": "arith.addi", "-": "arith.subi", "*": "arith.muli", "//": "arith.floordivsi", "%": "arith.remsi"}
_COMPARE = {"<": "slt", "<=": "sle", ">": "sgt", ">=": "sge", "==": "eq", "!=": "ne"}


class Value:
    def __init__(self, name, type_):
        tracer = active()
        self.name = name
        self.type = type_
        self.block = tracer.block

    def use(self):
        """The SSA name, after checking that the value is visible where the tracer is."""
        tracer = active()
        if not self.block.encloses(tracer.block):
            raise error(f"{self.name} was defined inside a loop or `if` body that has ended "
                        "(the DSL has no loop-carried values: define it before the loop)")
        return self.name

    def __bool__(self):
        raise error("a traced value has no Python truth value: use `with layout_opt.if_(cond):` "
                    "for a run-time condition")

    def __index__(self):
        raise error("a traced index is not a Python int: loop over it with layout_opt.range(...)")

    def __iter__(self):
        raise error(f"{self.name} is not iterable")


def operand(x):
    """The SSA name of an Index (checked) or of the constant of a Python int."""
    if isinstance(x, Index):
        return x.use()
    if isinstance(x, bool) or not isinstance(x, int):
        raise error(f"expected an index (a traced index or a Python int), got {type(x).__name__}")
    return active().constant(x)


def _binary(op, a, b):
    tracer = active()
    lhs, rhs = operand(a), operand(b)
    name = tracer.fresh()
    tracer.emit(f"{name} = {op} {lhs}, {rhs} : index", caller_location())
    return Index(name)


def _compare(predicate, a, b):
    tracer = active()
    lhs, rhs = operand(a), operand(b)
    name = tracer.fresh()
    tracer.emit(f"{name} = arith.cmpi {predicate}, {lhs}, {rhs} : index", caller_location())
    return Cond(name)


class Index(Value):
    """An `index` value of the kernel: a size parameter, a loop variable, a block index, or
    arithmetic on them (`+ - * // %` with ints or indices, comparisons giving a `Cond`)."""

    def __init__(self, name):
        super().__init__(name, "index")

    def __add__(self, o): return _binary(_ARITH["+"], self, o)
    def __radd__(self, o): return _binary(_ARITH["+"], o, self)
    def __sub__(self, o): return _binary(_ARITH["-"], self, o)
    def __rsub__(self, o): return _binary(_ARITH["-"], o, self)
    def __mul__(self, o): return _binary(_ARITH["*"], self, o)
    def __rmul__(self, o): return _binary(_ARITH["*"], o, self)
    def __floordiv__(self, o): return _binary(_ARITH["//"], self, o)
    def __rfloordiv__(self, o): return _binary(_ARITH["//"], o, self)
    def __mod__(self, o): return _binary(_ARITH["%"], self, o)
    def __rmod__(self, o): return _binary(_ARITH["%"], o, self)
    def __lt__(self, o): return _compare(_COMPARE["<"], self, o)
    def __le__(self, o): return _compare(_COMPARE["<="], self, o)
    def __gt__(self, o): return _compare(_COMPARE[">"], self, o)
    def __ge__(self, o): return _compare(_COMPARE[">="], self, o)
    def __eq__(self, o): return _compare(_COMPARE["=="], self, o)  # noqa: traced comparison
    def __ne__(self, o): return _compare(_COMPARE["!="], self, o)
    __hash__ = Value.__hash__


class Cond(Value):
    """An `i1` condition (from a comparison of indices), the argument of `layout_opt.if_`."""

    def __init__(self, name):
        super().__init__(name, "i1")


def index_min(a, b):
    """`arith.minsi` of two indices (or ints: then a Python int)."""
    if isinstance(a, int) and isinstance(b, int):
        return min(a, b)
    return _binary("arith.minsi", a, b)


def index_max(a, b):
    """`arith.maxsi` of two indices (or ints: then a Python int)."""
    if isinstance(a, int) and isinstance(b, int):
        return max(a, b)
    return _binary("arith.maxsi", a, b)


def tensor_type(dtype, space, layout, origin):
    return f'!layout.tensor<{dtype}, "{space}", "{layout}", "{origin}">'


def origin_text(dims):
    return "(" + ",".join("?" if isinstance(d, (str, Index)) or d is None else str(d) for d in dims) + ")"


def template_of(dtype, layout, dims):
    """The explicit layout with every leaf `?` that tiles and written views of a tensor of this
    layout have (the algebra fills the leaves in): the nesting of the frame the algebra builds."""
    if ":" in layout:
        return re.sub(r"\d+", "?", layout)
    sample = [d if isinstance(d, int) else 64 for d in dims]
    expanded = str(frame(layout, dtype, *sample)).split(" origin ")[0]
    return re.sub(r"\d+", "?", expanded)


class TensorValue(Value):
    """A `!layout.tensor` value: a parameter's view, an on-chip buffer, a tile, a written view."""

    def __init__(self, name, dtype, space, layout, origin, template, root):
        super().__init__(name, tensor_type(dtype, space, layout, origin))
        self.dtype, self.space, self.layout, self.origin = dtype, space, layout, origin
        self.template = template
        self.root = root  # the parameter a tile or view of it reads and writes (or None)
        self.rank = origin.count(",") + 1 if origin != "()" else 0

    def derived(self, name):
        """A value of the type every leaf of which the algebra derives (tiles, written views)."""
        origin = "(" + ",".join(["?"] * self.rank) + ")"
        return TensorValue(name, self.dtype, self.space, self.template, origin, self.template, self.root)

    def tile(self, shape, coord):
        """`layout.tile`: the tile of static `shape` whose top-left element is at `coord`
        (element coordinates in this tensor; catlass GetTileLayout, tails clipped)."""
        shape, coord = tuple(shape), tuple(coord)
        if len(shape) != self.rank or len(coord) != self.rank:
            raise error(f"tile of a rank-{self.rank} tensor needs {self.rank} extents and coordinates, "
                        f"got shape {shape} and coordinate of {len(coord)}")
        if not all(isinstance(s, int) and not isinstance(s, bool) for s in shape):
            raise error(f"a tile's shape is static: Python ints, got {shape}")
        tracer = active()
        names = [self.use()] + [operand(c) for c in coord]
        result = self.derived(tracer.fresh())
        extents = ", ".join(str(s) for s in shape)
        types = ", ".join([self.type] + ["index"] * len(coord))
        tracer.emit(f'{result.name} = "layout.tile"({", ".join(names)}) {{shape = array<i64: {extents}>}} '
                    f": ({types}) -> {result.type}", caller_location())
        return result

    def offset(self, *coord):
        """`layout.offset`: the element offset of `coord` under this tensor's layout."""
        tracer = active()
        names = [self.use()] + [operand(c) for c in coord]
        result = tracer.fresh()
        types = ", ".join([self.type] + ["index"] * len(coord))
        tracer.emit(f'{result} = "layout.offset"({", ".join(names)}) : ({types}) -> index', caller_location())
        return Index(result)
