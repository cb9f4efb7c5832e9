"""`@layout_opt.kernel`: a Python function traced into one `func.func` of the layout dialect,
and what can be done with it: its IR, the verifier's errors, its AscendC C++, a run on the CPU.

Parameters are annotated `Tensor(dtype, shape, layout="ND", space="gm")` (a global-memory
buffer, bound by `layout.view`) or `Index` (an `index` size); a tensor's extents are ints or the
names of `Index` parameters.
"""

import inspect

import numpy as np

from .. import _native
from .._native import frame
from .arrays import from_bytes, to_input
from .trace import DSLError, Tracer, loc_text
from .values import Index as IndexValue
from .values import TensorValue, origin_text, template_of

TARGETS = ("a2", "a5")
BACKENDS = ("loops", "ascendc-cpp", "ascendc-llvm")


class Tensor:
    """The annotation of a tensor parameter: element type, logical extents (ints or the names of
    `Index` parameters), frame pattern or explicit CuTe layout, memory space (gm)."""

    def __init__(self, dtype, shape, layout="ND", space="gm"):
        self.dtype, self.shape, self.layout, self.space = dtype, tuple(shape), layout, space

    def memref(self):
        """ND and RowMajor: the array of the logical shape; any other layout: the 1-D packed buffer
        (`layout_opt.pack(a, layout)`), of the frame's cosize when static."""
        if self.layout in ("ND", "RowMajor"):
            dims = ["?" if isinstance(d, str) else str(d) for d in self.shape]
        elif all(isinstance(d, int) for d in self.shape):
            dims = [str(frame(self.layout, self.dtype, *self.shape).cosize())]
        else:
            dims = ["?"]
        return f"memref<{'x'.join(dims)}x{self.dtype}>"

    def __repr__(self):
        return f"Tensor({self.dtype!r}, {self.shape!r}, layout={self.layout!r}, space={self.space!r})"


class Index:  # noqa: F811 -- the annotation; values.Index is the traced value
    """The annotation of an `index` parameter (a size such as M, N, K)."""


def _annotation(fn, name, annotation):
    if isinstance(annotation, str):  # `from __future__ import annotations`
        annotation = eval(annotation, fn.__globals__)  # noqa: S307 -- the user's own annotation
    if annotation is Index or annotation is int:
        return Index
    if isinstance(annotation, Tensor):
        return annotation
    code = fn.__code__
    raise DSLError(f"{code.co_filename}:{code.co_firstlineno}:1: error: parameter '{name}' of kernel "
                   f"{fn.__name__} needs an annotation: layout_opt.Tensor(dtype, shape, ...) or layout_opt.Index")


class Kernel:
    """A traced kernel. `mlir()`, `verify()`, `ascendc()`, `k(*arrays, M=..., backend=...)`."""

    def __init__(self, fn, target="a2", name=None):
        if target not in TARGETS:
            raise DSLError(f"unknown target '{target}' ({', '.join(TARGETS)})")
        self.fn, self.target, self.name = fn, target, name or fn.__name__
        self.params = [(p, _annotation(fn, p, a.annotation)) for p, a in inspect.signature(fn).parameters.items()]
        self._text = None
        self.outputs = []

    def on(self, target):
        """The same kernel for another target ("a2" or "a5")."""
        return Kernel(self.fn, target, self.name)

    # -- tracing ------------------------------------------------------------------------------

    def source(self):
        """The MLIR text the tracer generates (pretty `scf`/`arith`, generic layout ops, every op
        located at its Python line); `mlir()` is the same module as MLIR prints it."""
        if self._text is None:
            self._text = self._trace()
        return self._text

    def _trace(self):
        code = self.fn.__code__
        def_location = (code.co_filename, code.co_firstlineno, 1)
        tracer = Tracer(self.target)
        tracer.failed = None
        indices = {p for p, a in self.params if a is Index}
        args, signature, views = [], [], []
        previous, Tracer.current = Tracer.current, tracer
        try:
            values = {}
            for p, a in self.params:
                if a is Index:
                    values[p] = IndexValue(f"%{p}")
                    signature.append(f"%{p}: index {loc_text(def_location)}")
            for p, a in self.params:
                if a is Index:
                    args.append(values[p])
                    continue
                for d in a.shape:
                    if isinstance(d, str) and d not in indices:
                        raise DSLError(f"{def_location[0]}:{def_location[1]}:1: error: extent '{d}' of parameter "
                                       f"'{p}' is not an Index parameter of {self.name}")
                signature.append(f"%{p}_mem: {a.memref()} {loc_text(def_location)}")
                origin = origin_text(a.shape)
                view = TensorValue(f"%{p}", a.dtype, a.space, a.layout, origin,
                                   template_of(a.dtype, a.layout, a.shape), p)
                dyn = [f"%{d}" for d in a.shape if isinstance(d, str)]
                types = ", ".join([a.memref()] + ["index"] * len(dyn))
                views.append(f'%{p} = "layout.view"({", ".join([f"%{p}_mem"] + dyn)}) : ({types}) -> {view.type} '
                             + loc_text(def_location))
                args.append(view)
            # Index parameters after the memrefs, in declaration order (the C ABI of layout-run).
            memrefs = [s for s in signature if "_mem:" in s]
            scalars = [s for s in signature if "_mem:" not in s]
            self.outputs = []
            self.fn(*args)
            if tracer.failed is not None:
                raise tracer.failed
            if tracer.block is not tracer.entry:
                raise DSLError("internal error: a traced block was left open")
            self.outputs = [p for p, a in self.params if a is not Index and p in tracer.stored]
        finally:
            Tracer.current = previous
        body = tracer.constant_lines + views + tracer.render(tracer.entry, 0)
        lines = [f'module attributes {{layout.target = #layout.target<"{self.target}">}} {{',
                 f"  func.func @{self.name}({', '.join(memrefs + scalars)}) attributes {{llvm.emit_c_interface}} {{"]
        lines += ["    " + line for line in body]
        lines += [f"    return {loc_text(def_location)}", f"  }} {loc_text(def_location)}", "}"]
        return "\n".join(lines) + "\n"

    def arguments(self):
        """The entry's parameters in call order: tensors (memrefs) first, then the indices."""
        return [p for p, a in self.params if a is not Index] + [p for p, a in self.params if a is Index]

    # -- the compiler ---------------------------------------------------------------------------

    def mlir(self, generic=False, locations=False):
        """The module as MLIR prints it (pretty, or `generic=True`); `locations=True` keeps the
        `loc("file.py":line:col)` of every op."""
        return _native.print_module(self.source(), generic, locations)

    def verify(self):
        """layout-verify's errors, `file.py:line:col: error: ...` at the Python lines, each with
        the line and a caret; an empty list when the kernel is valid."""
        text = _native.verify(self.source())
        errors, current = [], []
        for line in text.splitlines():
            if ": error: " in line and current:
                errors.append("\n".join(current))
                current = []
            current.append(line)
        if current:
            errors.append("\n".join(current))
        return errors

    def ascendc(self):
        """The AscendC C++ of the kernel (layout-lower-to-ascendc, --emit=ascendc)."""
        return _native.ascendc(self.source())

    def __call__(self, *arrays, backend="loops", sanitize=None, block_dim=1, seed=0, **sizes):
        """Runs the kernel on the CPU and returns the arrays its stores write (one array, or a
        tuple in parameter order). Tensors in parameter order, positionally or by name; `Index`
        sizes by name (or inferred from the ND arrays' shapes). `backend`: loops, ascendc-cpp,
        ascendc-llvm; `sanitize`: True (all checks) or "memcheck,initcheck,synccheck,racecheck";
        `block_dim` blocks run in a `seed`ed shuffled order over the same arrays."""
        if backend not in BACKENDS:
            raise DSLError(f"unknown back end '{backend}' ({', '.join(BACKENDS)})")
        checks = 0 if not sanitize else _native.SANITIZE_ALL if sanitize is True else _native.sanitizer_checks(sanitize)
        text = self.source()
        tensors = [(p, a) for p, a in self.params if a is not Index]
        given = dict(zip([p for p, _ in tensors], arrays))
        if len(arrays) > len(tensors):
            raise DSLError(f"{self.name} takes {len(tensors)} tensors, got {len(arrays)} arrays")
        for p, _ in tensors:
            if p in sizes:
                given[p] = sizes.pop(p)
        values = {}
        for p, a in tensors:
            if p not in given:
                raise DSLError(f"{self.name}: no array for tensor parameter '{p}'")
            given[p] = np.asarray(given[p])
            if a.layout in ("ND", "RowMajor"):
                for d, n in zip(a.shape, given[p].shape):
                    if isinstance(d, str):
                        values.setdefault(d, []).append((p, n))
        indices = [p for p, a in self.params if a is Index]
        unknown = set(sizes) - set(indices)
        if unknown:
            raise DSLError(f"{self.name} has no parameter {', '.join(sorted(unknown))}")
        scalars = []
        for p in indices:
            inferred = {n for _, n in values.get(p, [])}
            if p in sizes:
                value = sizes[p]
            elif len(inferred) == 1:
                value = inferred.pop()
            else:
                raise DSLError(f"{self.name}: give {p}=... (it is not the extent of an ND array)"
                               if not inferred else f"{self.name}: the arrays disagree on {p}: {sorted(inferred)}")
            scalars.append(int(value))
        inputs = [to_input(given[p], a.dtype, p) for p, a in tensors] + scalars
        outputs = _native.run_kernel(text, self.name, backend, checks, inputs, block_dim, seed)
        results = {p: from_bytes(raw, given[p], a.dtype) for (p, a), raw in zip(tensors, outputs)}
        written = [results[p] for p in self.outputs] or [results[p] for p, _ in tensors]
        return written[0] if len(written) == 1 else tuple(written)


def kernel(fn=None, *, target="a2", name=None):
    """`@layout_opt.kernel` or `@layout_opt.kernel(target="a5")`: the function as a `Kernel`."""
    if fn is None:
        return lambda f: Kernel(f, target, name)
    return Kernel(fn, target, name)


__all__ = ["Kernel", "Tensor", "Index", "kernel", "TARGETS", "BACKENDS"]
