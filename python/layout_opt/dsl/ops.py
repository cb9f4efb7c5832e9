"""The DSL's operations: buffers, copies, the cube, control flow, the block index.

Each function appends one op of the layout dialect (docs/dialect.md) or of `scf`/`arith` to the
traced function, located at the calling Python line.
"""

import math

from .trace import Block, RegionOp, active, caller_location, error
from .values import Cond, Index, TensorValue, operand, origin_text, template_of


def alloc(dtype, space, layout, shape):
    """`layout.alloc`: an on-chip buffer (`space` l1, l0a, l0b, l0c, ub, ...) of the frame
    pattern or explicit CuTe layout `layout`, with static extents `shape`."""
    shape = tuple(shape)
    if not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
        raise error(f"an on-chip buffer has static extents (Python ints), got {shape}")
    tracer = active()
    origin = origin_text(shape)
    name = tracer.fresh("buf")
    result = TensorValue(name, dtype, space, layout, origin, template_of(dtype, layout, shape), None)
    tracer.emit(f'{name} = "layout.alloc"() : () -> {result.type}', caller_location())
    return result


def _tensor(x, what):
    if not isinstance(x, TensorValue):
        raise error(f"{what} must be a tensor (a kernel parameter, alloc, tile or written view), "
                    f"got {type(x).__name__}")
    return x.use()


def load(src, dst):
    """`layout.load`: copies `min(src, dst)` of the origins (gm -> l1 -> l0a/l0b, gm -> ub, ...)
    and returns the *written view*: `dst` with what was written as its origin. Later copies and
    the matmul must read through it (rule R1: a K-tail slice leaves stale data beyond it)."""
    tracer = active()
    s, d = _tensor(src, "load's source"), _tensor(dst, "load's destination")
    written = dst.derived(tracer.fresh("w"))
    tracer.emit(f'{written.name} = "layout.load"({s}, {d}) : ({src.type}, {dst.type}) -> {written.type}',
                caller_location())
    return written


def store(src, dst, relu=False, scale=None, atomic=None):
    """`layout.store`: copies out of the cube (l0c -> gm runs the Fixpipe epilogue: the element
    types say the conversion; `relu=True` is `reluEn`; `scale=S` the DEQF16 dequantization of
    an i32 accumulator to f16; `atomic="add"` adds into GM instead of overwriting it, the store
    of split-K: SetAtomicAdd, a2 only, rule L5; docs/dialect.md#layoutstore)."""
    tracer = active()
    s, d = _tensor(src, "store's source"), _tensor(dst, "store's destination")
    attrs = []
    if atomic is not None:
        if atomic != "add":
            raise error(f"store's atomic must be \"add\" (the only atomic store), got {atomic!r}")
        attrs.append('atomic = "add"')
    if relu:
        attrs.append("relu = true")
    if scale is not None:
        if not math.isfinite(float(scale)):
            raise error(f"store's scale must be finite, got {scale}")
        attrs.append(f"scale = {float(scale)!r} : f32")
    attr_text = " {" + ", ".join(attrs) + "}" if attrs else ""
    tracer.emit(f'"layout.store"({s}, {d}){attr_text} : ({src.type}, {dst.type}) -> ()', caller_location())
    if dst.root is not None:
        tracer.stored.add(dst.root)


def matmul(a, b, c, accumulate=False):
    """`layout.matmul`: `c = a @ b` (or `c += a @ b` with `accumulate=True`); a in l0a, b in
    l0b, c in l0c, over the sizes of the operands' origins (read a and b through the written
    views of their loads)."""
    tracer = active()
    names = [_tensor(a, "matmul's A"), _tensor(b, "matmul's B"), _tensor(c, "matmul's C")]
    flag = "true" if accumulate else "false"
    tracer.emit(f'"layout.matmul"({", ".join(names)}) {{accumulate = {flag}}} '
                f": ({a.type}, {b.type}, {c.type}) -> ()", caller_location())


def range(start, stop=None, step=1):  # noqa: A001 -- the DSL's range, used as layout_opt.range
    """A traced `scf.for`: `for i in layout_opt.range(lo, hi, step)` runs the body once while
    tracing, with `i` the loop's index. Bounds and step are indices or Python ints."""
    if stop is None:
        start, stop = 0, start
    tracer = active()
    location = caller_location()
    bounds = [operand(start), operand(stop), operand(step)]
    body = Block(tracer.block)
    iv = tracer.fresh("i")
    tracer.block.entries.append(RegionOp(f"scf.for {iv} = {bounds[0]} to {bounds[1]} step {bounds[2]}",
                                         [body], location, []))
    tracer.push(body)
    index = Index(iv)
    finished = False
    try:
        yield index
        finished = True
    finally:
        if tracer.block is body:
            tracer.pop()
        if not finished:
            tracer.failed = error("`break` (or an exception) left a traced layout_opt.range loop: "
                                  "its body is traced once, so it cannot stop early", location)


class if_:
    """`with layout_opt.if_(cond):` traces its body into the then-region of an `scf.if`;
    a following `with layout_opt.else_():` fills the else-region."""

    def __init__(self, cond):
        if not isinstance(cond, Cond):
            raise error("layout_opt.if_ needs a traced condition (a comparison of indices); "
                        "for a Python bool use a Python `if`")
        tracer = active()
        self.location = caller_location()
        self.then = Block(tracer.block)
        self.op = RegionOp(f"scf.if {cond.use()}", [self.then], self.location, ["else"])
        tracer.block.entries.append(self.op)

    def __enter__(self):
        active().push(self.then)
        return self

    def __exit__(self, *exc):
        active().pop()
        return False


class else_:
    """The else-region of the `layout_opt.if_` just before it in the same block."""

    def __init__(self):
        tracer = active()
        last = tracer.block.entries[-1] if tracer.block.entries else None
        if not (isinstance(last, RegionOp) and last.header.startswith("scf.if") and len(last.regions) == 1):
            raise error("layout_opt.else_() must directly follow a `with layout_opt.if_(...)` block")
        self.block = Block(tracer.block)
        last.regions.append(self.block)

    def __enter__(self):
        active().push(self.block)
        return self

    def __exit__(self, *exc):
        active().pop()
        return False


def block_idx():
    """`layout.block_idx`: the index of the AI core running this instance of the kernel."""
    tracer = active()
    name = tracer.fresh("blk")
    tracer.emit(f'{name} = "layout.block_idx"() : () -> index', caller_location())
    return Index(name)


def block_num():
    """`layout.block_num`: how many AI cores run the kernel."""
    tracer = active()
    name = tracer.fresh("nblk")
    tracer.emit(f'{name} = "layout.block_num"() : () -> index', caller_location())
    return Index(name)


__all__ = ["alloc", "load", "store", "matmul", "range", "if_", "else_", "block_idx", "block_num"]
