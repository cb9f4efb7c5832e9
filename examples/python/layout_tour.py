"""A short tour of layout_opt (docs/python.md). Run: python examples/python/layout_tour.py
(python/tests/test_tour.py runs it and checks what it prints)."""

import numpy as np

import layout_opt as lo

# CuTe layouts: shape:stride, column-major by default; printed as layout-calc prints them.
a = lo.Layout((4, 3))
print("column-major:", a, "  a(1, 2) =", a((1, 2)))

# The L1 layout of a 100x100 fp16 matrix in NZ (catlass zN): 16x16 fractals, padded to 112x112,
# with the valid extent as origin.
nz = lo.frame("NZ", "f16", 100, 100)
print("NZ 100x100 f16:", nz)
print("offset of (17, 33):", nz((17, 33)), "= crd2offset:", lo.crd2offset((17, 33), nz))
print("same in catlass spelling:", lo.frame("zN", "f16", 100, 100) == nz, " C0(f32) =", lo.c0("f32"))

# The tail tile at (96, 96): the origin is clipped to what is left of the matrix.
t = lo.tile(nz, (32, 48), (96, 96))
print("tail tile:", t, " pattern:", lo.pattern(t))

# The algebra: NZ is the blocked product of a row-major fractal and a column-major grid.
print("blocked_product:", lo.blocked_product(lo.Layout((16, 16), (16, 1)), lo.Layout((7, 7), (1, 7))))
print("right_inverse (offset -> logical index):", lo.right_inverse(nz))
print("zipped_divide by 16x16:", lo.zipped_divide(lo.Layout((32, 32)), (16, 16)))

# Pictures: the offset grid (Jupyter shows L.svg() through _repr_svg_).
print(lo.Layout((4, 3), (1, 4), origin=(3, 2)).table(), end="")
small = lo.frame("NZ", "f32", 4, 10)
print("svg cells of", small, ":", small.svg().count('<rect class="cell'))

# Host packing: numpy ND -> NZ buffer and back, in memory.
m = np.arange(20 * 20, dtype=np.float16).reshape(20, 20)
packed = lo.pack(m, "NZ", physical=True)
print("packed NZ:", packed.shape, " round trip:", np.array_equal(lo.unpack(packed, "NZ", 20, 20), m))

try:
    lo.complement(lo.Layout((2, 2), (1, 1)), 4)
except lo.LayoutError as e:
    print("LayoutError:", e)
