"""The tracer: the function being traced, its nested blocks, and the Python source location of
every op (docs/python.md#the-kernel-dsl).

Ops are recorded as lines of MLIR text in a tree of blocks (an `scf.for` or `scf.if` owns its
regions), each with `loc("file.py":line:col)` of the Python statement that made it, so the
verifier's errors name the Python line. Constants are hoisted to the function's entry block,
where they dominate every use.
"""

import os
import sys

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class DSLError(ValueError):
    """A kernel the tracer rejects (before the compiler sees it): `file.py:line:col: error: ...`."""


def caller_location():
    """(file, line, column) of the innermost frame outside the layout_opt package."""
    frame = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return ("<unknown>", 0, 0)
    column = 1
    positions = getattr(frame.f_code, "co_positions", None)
    if positions is not None:  # Python >= 3.11: the column of the executing expression
        entries = list(positions())
        index = frame.f_lasti // 2
        if 0 <= index < len(entries) and entries[index][2] is not None:
            column = entries[index][2] + 1
    return (frame.f_code.co_filename, frame.f_lineno, column)


def loc_text(location):
    file, line, column = location
    escaped = file.replace("\\", "\\\\").replace('"', '\\"')
    return f'loc("{escaped}":{line}:{column})'


def error(message, location=None):
    file, line, column = location or caller_location()
    return DSLError(f"{file}:{line}:{column}: error: {message}")


class Block:
    """A list of entries (a line, or a region op) in a region; `closed` once its Python block ended."""

    def __init__(self, parent):
        self.parent = parent
        self.entries = []
        self.closed = False

    def encloses(self, other):
        """Whether values of `self` are visible in `other` (self is other or one of its ancestors)."""
        while other is not None:
            if other is self:
                return True
            other = other.parent
        return False


class RegionOp:
    """`scf.for` / `scf.if`: a header line, its regions (Blocks) and a location."""

    def __init__(self, header, regions, location, keywords):
        self.header = header
        self.regions = regions
        self.location = location
        self.keywords = keywords  # printed before each region after the first: ["else"]


class Tracer:
    """The function being traced."""

    current = None

    def __init__(self, target):
        self.target = target
        self.entry = Block(None)
        self.block = self.entry
        self.constants = {}  # (value, type) -> name
        self.constant_lines = []
        self.counter = 0
        self.stored = set()  # names of the parameters a store writes

    def fresh(self, prefix=""):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, line, location):
        self.block.entries.append(f"{line} {loc_text(location)}")

    def constant(self, value, type_="index"):
        key = (value, type_)
        if key not in self.constants:
            name = f"%c{'m' if value < 0 else ''}{abs(value)}" + ("" if type_ == "index" else f"_{type_}")
            self.constants[key] = name
            self.constant_lines.append(f"{name} = arith.constant {value} : {type_} {loc_text(caller_location())}")
        return self.constants[key]

    def push(self, block):
        self.block = block

    def pop(self):
        self.block.closed = True
        self.block = self.block.parent

    def render(self, block, indent):
        pad = "  " * indent
        out = []
        for entry in block.entries:
            if isinstance(entry, str):
                out.append(pad + entry)
                continue
            text = pad + entry.header + " {"
            for k, region in enumerate(entry.regions):
                if k > 0:
                    text = pad + "} " + entry.keywords[k - 1] + " {"
                out.append(text)
                out.extend(self.render(region, indent + 1))
            out.append(pad + "} " + loc_text(entry.location))
        return out


def active():
    tracer = Tracer.current
    if tracer is None:
        raise error("layout_opt DSL operations can only be used inside a traced kernel (@layout_opt.kernel)")
    return tracer
