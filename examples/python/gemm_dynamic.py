"""The tiled GEMM of examples/gemm_dynamic_k.mlir in the Python DSL: C = A @ B with M, N, K
dynamic; 128 x 256 blocks of C, K in 64-wide slices; tails clipped by the layout algebra.
Run: python examples/python/gemm_dynamic.py [a2|a5] [loops|ascendc-cpp|ascendc-llvm]"""
import sys

import numpy as np

import layout_opt as lo
from layout_opt import Index, Tensor


def gemm(target="a2"):
    @lo.kernel(target=target)
    def gemm_dynamic_k(A: Tensor("f16", ("M", "K")), B: Tensor("f16", ("K", "N")), C: Tensor("f32", ("M", "N")),
                       M: Index, N: Index, K: Index):
        a1, b1 = lo.alloc("f16", "l1", "NZ", (128, 64)), lo.alloc("f16", "l1", "NZ", (64, 256))
        a0 = lo.alloc("f16", "l0a", "ZZ" if target == "a2" else "NZ", (128, 64))
        b0 = lo.alloc("f16", "l0b", "ZN", (64, 256))
        acc = lo.alloc("f32", "l0c", "NZ", (128, 256))
        def k_slice(m, n, k):   # one 64-wide K slice of A and B in L0A / L0B (their written views)
            a = lo.load(lo.load(A.tile((128, 64), (m, k)), a1), a0)   # gm -> L1 -> L0A
            b = lo.load(lo.load(B.tile((64, 256), (k, n)), b1), b0)   # gm -> L1 -> L0B
            return a, b

        for m in lo.range(0, M, 128):
            for n in lo.range(0, N, 256):
                lo.matmul(*k_slice(m, n, 0), acc)                         # slice 0 overwrites
                for k in lo.range(64, K, 64):
                    lo.matmul(*k_slice(m, n, k), acc, accumulate=True)    # the others accumulate
                lo.store(acc, C.tile((128, 256), (m, n)))                 # Fixpipe: L0C NZ -> gm ND
    return gemm_dynamic_k


if __name__ == "__main__":
    target = sys.argv[1] if len(sys.argv) > 1 else "a2"
    backend = sys.argv[2] if len(sys.argv) > 2 else "loops"
    rng = np.random.default_rng(0)
    A = rng.uniform(-1, 1, (200, 200)).astype(np.float16)
    B = rng.uniform(-1, 1, (200, 136)).astype(np.float16)
    C = gemm(target)(A, B, np.zeros((200, 136), np.float32), backend=backend)   # M, N, K from the shapes
    print(f"{target} {backend}: max |C - A @ B| = {np.abs(C - A.astype(np.float32) @ B.astype(np.float32)).max():.2e}")
