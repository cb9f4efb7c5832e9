"""Independent brute-force reference of the layout function, written from the CuTe definition
(docs/layout-spec.md §0.1, §B): nothing here calls the package."""


def size(shape):
    if isinstance(shape, int):
        return shape
    n = 1
    for m in shape:
        n *= size(m)
    return n


def depth(shape):
    return 0 if isinstance(shape, int) else 1 + max((depth(m) for m in shape), default=0)


def idx2crd(idx, shape):
    """Colexicographic natural coordinate; the last mode takes the rest (not reduced)."""
    if isinstance(shape, int):
        return idx
    out = []
    for i, m in enumerate(shape):
        if i == len(shape) - 1:
            out.append(idx2crd(idx, m))
        else:
            out.append(idx2crd(idx % size(m), m))
            idx //= size(m)
    return tuple(out)


def crd2idx(crd, shape, stride):
    """The offset of a coordinate: an int is split colexicographically over the shape."""
    if isinstance(shape, int):
        assert isinstance(crd, int)
        return crd * stride
    if isinstance(crd, int):
        crd = idx2crd(crd, shape)
    return sum(crd2idx(c, s, d) for c, s, d in zip(crd, shape, stride))


def offsets(layout):
    """L(i) for every i in [0, size)."""
    return [crd2idx(i, layout.shape, layout.stride) for i in range(size(layout.shape))]


def cosize(layout):
    ls = _leaves(layout.shape)
    ds = _leaves(layout.stride)
    return 1 + sum((s - 1) * abs(d) for s, d in zip(ls, ds))


def _leaves(t):
    return [t] if isinstance(t, int) else [x for m in t for x in _leaves(m)]


def nz_offset(i, j, rows, c0):
    """NZ (catlass zN) of a rows x cols matrix: 16 x C0 row-major fractals, column-major grid."""
    m1 = -(-rows // 16)
    return (j // c0) * (m1 * 16 * c0) + (i // 16) * (16 * c0) + (i % 16) * c0 + j % c0


def zz_offset(i, j, cols, c0):
    n1 = -(-cols // c0)
    return (i // 16) * (n1 * 16 * c0) + (j // c0) * (16 * c0) + (i % 16) * c0 + j % c0


def zn_offset(i, j, cols, c0):
    n1 = -(-cols // 16)
    return (i // c0) * (n1 * 16 * c0) + (j // 16) * (16 * c0) + (j % 16) * c0 + i % c0


def nn_offset(i, j, rows, c0):
    m1 = -(-rows // c0)
    return (j // 16) * (m1 * 16 * c0) + (i // c0) * (16 * c0) + (j % 16) * c0 + i % c0
