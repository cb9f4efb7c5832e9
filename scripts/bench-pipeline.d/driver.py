"""scripts/bench-pipeline's driver: interleaved rounds of our pipelines and the CATLASS DSL's.

Our per-kernel time is in-process: layout-opt is given the same file R times (each processed
as a separate module, as --split-input-file would) and once; (T_R - T_1) / (R - 1) removes the
process start, the context and dialect loading. The DSL's time is the median of its C++
pipeline over repeated calls in one process (catlass_dsl_kernels.py).
"""

import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
KERNELS = {
    "copy_nd_nz": HERE / "copy_nd_nz.mlir",
    "gemm_tile": HERE / "gemm_tile.mlir",
    "tiled_gemm": HERE.parent.parent / "examples" / "tiled_gemm.mlir",
}
PIPELINES = {
    "loops": ["--default-pipeline"],
    "ascendc": ["--layout-verify", "--layout-fold", "--layout-lower-to-ascendc", "--emit=ascendc"],
}
REPEAT = 21


def wall(cmd):
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t


def ours(opt, pipeline, path):
    one = wall([opt, *pipeline, str(path), "-o", "/dev/null"])
    many = wall([opt, *pipeline, *[str(path)] * REPEAT, "-o", "/dev/null"])
    return max(many - one, 0.0) / (REPEAT - 1)


def theirs(python):
    out = subprocess.run(
        [python, str(HERE / "catlass_dsl_kernels.py"), "15"], check=True, capture_output=True, text=True
    ).stdout
    return {line.split()[0]: float(line.split()[1]) / 1e3 for line in out.splitlines()}


def main():
    rounds, opt, python = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    samples = {(k, p): [] for k in KERNELS for p in [*PIPELINES, "catlass-dsl"]}
    for _ in range(rounds):
        for kernel, path in KERNELS.items():
            for name, flags in PIPELINES.items():
                samples[(kernel, name)].append(ours(opt, flags, path))
        for kernel, t in theirs(python).items():
            samples[(kernel, "catlass-dsl")].append(t)
    med = {key: statistics.median(v) * 1e3 for key, v in samples.items()}
    print(f"medians of {rounds} interleaved rounds, ms per kernel, in-process")
    print(f"{'kernel':<12} {'ours loops':>11} {'ours ascendc':>13} {'CATLASS DSL':>12} {'loops/DSL':>10} {'ascendc/DSL':>12}")
    for kernel in KERNELS:
        lo, asc, dsl = med[(kernel, "loops")], med[(kernel, "ascendc")], med[(kernel, "catlass-dsl")]
        print(f"{kernel:<12} {lo:>11.2f} {asc:>13.2f} {dsl:>12.2f} {lo / dsl:>10.2f} {asc / dsl:>12.2f}")


if __name__ == "__main__":
    main()
