"""Every algebra function of layout_opt against `layout-calc` (the same Rust algebra through
the calculator's parser and printer) on random cases, and against the brute-force reference."""

import pytest

import layout_opt as lo
from conftest import calc_lines, expr, fmt, random_layout, random_shape
import reference as ref

CASES = 60


def outcome(f, *args):
    """str(result), or layout-calc's `error: MESSAGE` line for a LayoutError."""
    try:
        return str(f(*args))
    except lo.LayoutError as e:
        return f"error: {e}"


def agree(pairs):
    """pairs: (python outcome, layout-calc expression); one calculator run for all."""
    got = [p for p, _ in pairs]
    want = calc_lines([e for _, e in pairs])
    for g, w, (_, e) in zip(got, want, pairs):
        assert g == w, f"{e}: python {g!r}, layout-calc {w!r}"


def test_printing_and_queries_agree_with_layout_calc(rng):
    pairs = []
    for _ in range(CASES):
        a = random_layout(rng)
        e = expr(a)
        pairs += [
            (str(a), e),
            (outcome(lo.size, a), f"size({e})"),
            (outcome(lo.cosize, a), f"cosize({e})"),
            (outcome(lo.rank, a), f"rank({e})"),
            (outcome(lo.depth, a), f"depth({e})"),
            (fmt(lo.shape(a)), f"shape({e})"),
            (fmt(lo.stride(a)), f"stride({e})"),
            (fmt(lo.origin(a)), f"origin({e})"),
        ]
        assert lo.size(a) == ref.size(a.shape) == a.size()
        assert lo.cosize(a) == ref.cosize(a) == a.cosize()
        assert lo.depth(a) == ref.depth(a.shape)
        assert lo.rank(a) == (1 if isinstance(a.shape, int) else len(a.shape)) == len(a)
    agree(pairs)


def test_layout_function_crd2idx_idx2crd(rng):
    pairs = []
    for _ in range(CASES):
        a = random_layout(rng)
        n = ref.size(a.shape)
        want = ref.offsets(a)
        assert [a(i) for i in range(n)] == want
        for i in rng.sample(range(n), min(n, 4)):
            crd = ref.idx2crd(i, a.shape)
            assert lo.idx2crd(i, a.shape) == crd
            assert a(crd) == lo.crd2idx(crd, a) == lo.crd2offset(crd, a.shape, a.stride) == want[i]
            pairs.append((str(a(crd)), f"crd2idx({expr(a)},{fmt(crd)})"))
            pairs.append((fmt(lo.idx2crd(i, a.shape)), f"idx2crd({i},{fmt(a.shape)})"))
    # Column-major default stride, as pycute.
    assert lo.crd2idx((1, 2), (3, 4)) == 1 + 2 * 3
    assert lo.Layout((2, (3, 4))).stride == (1, (2, 6))
    agree(pairs)


def test_coalesce_and_filter(rng):
    pairs = []
    for _ in range(CASES):
        a = random_layout(rng)
        c = lo.coalesce(a)
        assert lo.size(c) == lo.size(a) and ref.offsets(c) == ref.offsets(a)
        assert lo.depth(c) <= 1
        f = lo.filter(a)
        kept = [(s, d) for s, d in zip(ref._leaves(a.shape), ref._leaves(a.stride)) if d != 0 and s != 1]
        dropped = lo.Layout(tuple(s for s, _ in kept) or 1, tuple(d for _, d in kept) or 0)
        assert ref.offsets(f) == ref.offsets(dropped)
        pairs += [(str(c), f"coalesce({expr(a)})"), (str(f), f"filter({expr(a)})")]
        if not isinstance(a.shape, int):
            profile = tuple(1 for _ in a.shape)
            cb = outcome(lo.coalesce, a, profile)
            pairs.append((cb, f"coalesce({expr(a)},{fmt(profile)})"))
    agree(pairs)


def test_composition(rng):
    pairs = []
    for _ in range(CASES):
        a = random_layout(rng, max_leaf=6)
        b = random_layout(rng, max_rank=2, max_leaf=4)
        got = outcome(lo.composition, a, b)
        pairs.append((got, f"composition({expr(a)},{expr(b)})"))
        if not got.startswith("error"):
            r = lo.composition(a, b)
            # (A o B)(i) = A(B(i)) where B's values stay in A's domain.
            for i in range(ref.size(b.shape)):
                if b(i) < ref.size(a.shape):
                    assert r(i) == ref.crd2idx(ref.crd2idx(i, b.shape, b.stride), a.shape, a.stride)
    # The README example, a by-mode tiler.
    a = lo.Layout((12, (4, 8)), (59, (13, 1)))
    assert str(lo.composition(a, (lo.Layout(3, 4), lo.Layout(8, 2)))) == "(3,(2,4)):(236,(26,1))"
    agree(pairs)


def test_complement_and_inverses(rng):
    pairs = []
    for _ in range(CASES):
        a = random_layout(rng, injective=True, max_leaf=4)
        m = ref.cosize(a) * rng.choice([1, 2, 3])
        c = lo.complement(a, m)
        both = ref.offsets(a) + ref.offsets(lo.make_layout(a, c))
        image = ref.offsets(lo.make_layout(a, c))
        assert len(set(image)) == len(image), "(A, complement(A)) is injective"
        assert ref.offsets(c) == sorted(ref.offsets(c)), "complement is ordered"
        assert max(image) + 1 >= m or lo.size(a) * lo.size(c) >= m
        del both
        r = lo.right_inverse(a)
        assert all(ref.crd2idx(ref.crd2idx(i, r.shape, r.stride), a.shape, a.stride) == i for i in range(lo.size(r)))
        li = lo.left_inverse(a)
        assert all(ref.crd2idx(a(i), li.shape, li.stride) == i for i in range(lo.size(a)))
        pairs += [
            (str(c), f"complement({expr(a)},{m})"),
            (outcome(lo.complement, a), f"complement({expr(a)})"),
            (str(r), f"right_inverse({expr(a)})"),
            (str(li), f"left_inverse({expr(a)})"),
        ]
    # Errors carry the algebra's message, as the calculator prints it.
    pairs.append((outcome(lo.complement, lo.Layout((2, 2), (1, 1)), 4), "complement((2,2):(1,1),4)"))
    agree(pairs)


DIVIDES = ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]
PRODUCTS = ["logical_product", "zipped_product", "tiled_product"]


def test_divides(rng):
    pairs = []
    for _ in range(CASES):
        a = random_layout(rng, injective=True, max_leaf=4)
        b = random_layout(rng, injective=True, max_rank=1, max_depth=1, max_leaf=4)
        results = {}
        for name in DIVIDES:
            results[name] = outcome(getattr(lo, name), a, b)
            pairs.append((results[name], f"{name}({expr(a)},{expr(b)})"))
        if results["logical_divide"].startswith("error"):
            continue
        # logical_divide(A, B) = A o (B, complement(B, size(A))): brute force on every index.
        d = lo.logical_divide(a, b)
        bc = lo.make_layout(b, lo.complement(b, lo.size(a)))
        if max(ref.offsets(bc)) >= lo.size(a):
            continue  # the tile leaves A's domain: only the agreement with layout-calc applies
        assert [d(i) for i in range(lo.size(d))] == [a(bc(i)) for i in range(lo.size(bc))]
        # The other divides rearrange the same modes: the same offsets.
        for name in DIVIDES[1:]:
            assert sorted(ref.offsets(getattr(lo, name)(a, b))) == sorted(ref.offsets(d)), name
    # By-mode tilers: shapes and None (CuTe `_`).
    a = lo.Layout((8, 6), (1, 8))
    for tiler, text in [((2, 3), "(2,3)"), ((lo.Layout(2, 1), None), "(2:1,_)")]:
        for name in DIVIDES:
            pairs.append((outcome(getattr(lo, name), a, tiler), f"{name}({expr(a)},{text})"))
    agree(pairs)


def test_products(rng):
    pairs = []
    for _ in range(CASES):
        a = random_layout(rng, injective=True, max_rank=2, max_leaf=4)
        b = random_layout(rng, injective=True, max_rank=2, max_leaf=3)
        for name in PRODUCTS + ["blocked_product", "raked_product"]:
            pairs.append((outcome(getattr(lo, name), a, b), f"{name}({expr(a)},{expr(b)})"))
        if pairs[-5][0].startswith("error"):
            continue  # inadmissible: the agreement with layout-calc covers the message
        p = lo.logical_product(a, b)
        # (A, complement(A, size(A)*cosize(B)) o B): mode 0 is A, mode 1 the complement at B.
        c = lo.complement(a, lo.size(a) * ref.cosize(b))
        for i in range(lo.size(a)):
            for j in range(lo.size(b)):
                assert p((i, j)) == a(i) + c(b(j))
        for name in PRODUCTS[1:]:
            assert sorted(ref.offsets(getattr(lo, name)(a, b))) == sorted(ref.offsets(p)), name
    agree(pairs)


def test_blocked_product_is_the_nz_frame():
    for rows, cols, dtype, c0 in [(100, 100, "f32", 8), (33, 40, "f16", 16), (17, 70, "i8", 32)]:
        m1, n1 = -(-rows // 16), -(-cols // c0)
        fractal = lo.Layout((16, c0), (c0, 1))
        grid = lo.Layout((m1, n1), (1, m1))
        nz = lo.frame("NZ", dtype, rows, cols)
        assert str(lo.blocked_product(fractal, grid)) == str(lo.Layout(nz.shape, nz.stride))


def test_make_layout_forms():
    assert str(lo.make_layout((2, 3))) == "(2,3):(1,2)"
    assert str(lo.make_layout((2, 3), (3, 1))) == "(2,3):(3,1)"
    assert str(lo.make_layout((4, 3), (1, 4), (3, 2))) == "(4,3):(1,4) origin (3,2)"
    assert str(lo.make_layout(lo.Layout(2, 1), lo.Layout((3, 4), (2, 6)))) == "(2,(3,4)):(1,(2,6))"
    assert str(lo.Layout(((16, 2), (16, 2)), ((16, 256), (1, 512)), origin=(20, 20))) == str(
        lo.frame("NZ", "f16", 20, 20)
    )
    assert lo.Layout((2, 3)) == lo.make_layout((2, 3)) and hash(lo.Layout((2, 3))) == hash(lo.make_layout((2, 3)))
    assert lo.Layout((2, 3))[1] == lo.Layout(3, 2) and lo.Layout((2, 3))[-1] == lo.Layout(3, 2)


def test_random_shapes_match_the_reference_size(rng):
    for _ in range(CASES):
        s = random_shape(rng)
        assert lo.size(s) == ref.size(s) and lo.depth(s) == ref.depth(s)
