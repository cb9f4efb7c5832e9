"""The three kernels of scripts/bench-pipeline, written with the CATLASS DSL (PyPI wheel
ascend-catlass-dsl==2.1.0), as close as its API allows to the layout-dialect files beside
this one: an ND -> NZ panel copy, one 128 x 128 GEMM block (the block body is written out in both GEMM kernels: the DSL's
front end does not lower `tla.range` inside a helper function), and the tiled GEMM of
examples/tiled_gemm.mlir (f16 x f16 -> f32, K = 256 in L1, 64-wide L0 K slices, dynamic M, N).

Prints, per kernel, the median wall time of the DSL's C++ pipeline
(`compiler_bridge.lower_tlair_module_to_mlir`: TLA dialect -> its lowered MLIR, printed)
over the repetitions given on the command line. The Python front end (AST -> TLA IR) is
not timed: it corresponds to writing the .mlir file on our side.
"""

import statistics
import sys
import time

import catlass.tla as tla
from catlass.base_dsl import BaseDSL
from catlass.compiler_bridge import lower_tlair_module_to_mlir

TM, TN, TK, K0 = 128, 128, 256, 64


@tla.kernel(auto_sync="v0")
def copy_nd_nz(gm_a: tla.Tensor, m0: tla.Int32) -> None:
    panel = tla.allocate(TM * TK, gm_a.ptr.dtype, tla.AddressSpace.l1, 512)
    with tla.cube():
        src = tla.tile_view(gm_a, tla.make_shape(TM, TK), tla.make_coord(m0, 0))
        dst = tla.make_tensor_like(panel, src)
        tla.copy(dst, src)


@tla.kernel(auto_sync="v0")
def gemm_tile(gm_a: tla.Tensor, gm_b: tla.Tensor, gm_c: tla.Tensor, row: tla.Int32, col: tla.Int32) -> None:
    a1p = tla.allocate(TM * TK, tla.Float16, tla.AddressSpace.l1, 512)
    b1p = tla.allocate(TK * TN, tla.Float16, tla.AddressSpace.l1, 512)
    a0p = tla.allocate(TM * K0, tla.Float16, tla.AddressSpace.l0a, 512)
    b0p = tla.allocate(K0 * TN, tla.Float16, tla.AddressSpace.l0b, 512)
    c0p = tla.allocate(TM * TN, tla.Float32, tla.AddressSpace.l0c, 512)
    with tla.cube():
        ta = tla.tile_view(gm_a, tla.make_shape(TM, TK), tla.make_coord(row, 0))
        tb = tla.tile_view(gm_b, tla.make_shape(TK, TN), tla.make_coord(0, col))
        tc = tla.tile_view(gm_c, tla.make_shape(TM, TN), tla.make_coord(row, col))
        a1 = tla.make_tensor_like(a1p, ta)
        b1 = tla.make_tensor_like(b1p, tb)
        tla.copy(a1, ta)
        tla.copy(b1, tb)
        acc = tla.make_tensor_like(c0p, tc)
        for k in tla.range(0, TK // K0, 1):
            a1k = tla.tile_view(a1, tla.make_shape(TM, K0), tla.make_coord(0, k))
            b1k = tla.tile_view(b1, tla.make_shape(K0, TN), tla.make_coord(k, 0))
            a0 = tla.make_tensor_like(a0p, a1k)
            b0 = tla.make_tensor_like(b0p, b1k)
            tla.copy(a0, a1k)
            tla.copy(b0, b1k)
            tla.mmad(acc, a0, b0, init_c=(k == 0))
        tla.copy(tc, acc)


@tla.kernel(auto_sync="v0")
def tiled_gemm(gm_a: tla.Tensor, gm_b: tla.Tensor, gm_c: tla.Tensor) -> None:
    a1p = tla.allocate(TM * TK, tla.Float16, tla.AddressSpace.l1, 512)
    b1p = tla.allocate(TK * TN, tla.Float16, tla.AddressSpace.l1, 512)
    a0p = tla.allocate(TM * K0, tla.Float16, tla.AddressSpace.l0a, 512)
    b0p = tla.allocate(K0 * TN, tla.Float16, tla.AddressSpace.l0b, 512)
    c0p = tla.allocate(TM * TN, tla.Float32, tla.AddressSpace.l0c, 512)
    m = gm_a.origin_shape[0]
    n = gm_b.origin_shape[1]
    with tla.cube():
        for row in tla.range(0, (m + TM - 1) // TM, 1):
            for col in tla.range(0, (n + TN - 1) // TN, 1):
                ta = tla.tile_view(gm_a, tla.make_shape(TM, TK), tla.make_coord(row, 0))
                tb = tla.tile_view(gm_b, tla.make_shape(TK, TN), tla.make_coord(0, col))
                tc = tla.tile_view(gm_c, tla.make_shape(TM, TN), tla.make_coord(row, col))
                a1 = tla.make_tensor_like(a1p, ta)
                b1 = tla.make_tensor_like(b1p, tb)
                tla.copy(a1, ta)
                tla.copy(b1, tb)
                acc = tla.make_tensor_like(c0p, tc)
                for k in tla.range(0, TK // K0, 1):
                    a1k = tla.tile_view(a1, tla.make_shape(TM, K0), tla.make_coord(0, k))
                    b1k = tla.tile_view(b1, tla.make_shape(K0, TN), tla.make_coord(k, 0))
                    a0 = tla.make_tensor_like(a0p, a1k)
                    b0 = tla.make_tensor_like(b0p, b1k)
                    tla.copy(a0, a1k)
                    tla.copy(b0, b1k)
                    tla.mmad(acc, a0, b0, init_c=(k == 0))
                tla.copy(tc, acc)


def _operands():
    """A (M x 256) f16, B (256 x N) f16, C (M x N) f32, all row-major, M and N dynamic."""
    a = tla.make_fake_tensor(tla.Float16, (1024, TK), (TK, 1)).mark_compact_shape_dynamic(mode=0)
    b = tla.make_fake_tensor(tla.Float16, (TK, 1024), (1024, 1)).mark_compact_shape_dynamic(mode=1)
    c = tla.make_fake_tensor(tla.Float32, (1024, 1024), (1024, 1)).mark_layout_dynamic()
    return a, b, c


def lowered(kernel):
    a, b, c = _operands()
    args = {"copy_nd_nz": [a, 0], "gemm_tile": [a, b, c, 0, 0], "tiled_gemm": [a, b, c]}[kernel.fn.__name__]
    return BaseDSL()._lower(
        kernel.fn,
        kind=kernel.kind,
        options=dict(kernel.options),
        type_args=args,
        location=kernel.decorator_location,
    )


KERNELS = {"copy_nd_nz": copy_nd_nz, "gemm_tile": gemm_tile, "tiled_gemm": tiled_gemm}


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    names = sys.argv[2:] or list(KERNELS)
    for name in names:
        module = lowered(KERNELS[name]).module
        lower_tlair_module_to_mlir(module)  # warm-up: loads the bridge, first-use caches
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            result = lower_tlair_module_to_mlir(module)
            times.append(time.perf_counter() - t)
        lines = result.lowered_mlir.count("\n")
        print(f"{name} {statistics.median(times) * 1e3:.3f} ms {lines} lines")


if __name__ == "__main__":
    main()
