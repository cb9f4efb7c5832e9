"""Instructions per kernel (callgrind), the repeatable measure behind scripts/bench-pipeline.

`python3 instructions.py LAYOUT_OPT [REPEAT]`: for each kernel and pipeline of driver.py, runs
layout-opt under `valgrind --tool=callgrind` on the file once and REPEAT times (default 6) and
prints (I_R - I_1) / (R - 1), the in-process instructions per kernel (start-up removed).
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from driver import KERNELS, PIPELINES


def instructions(cmd):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        found = re.search(r"Collected : (\d+)", run.stderr)
        if not found:
            sys.exit(f"instructions.py: no instruction count from callgrind:\n{run.stderr}")
        return int(found.group(1))


def main():
    opt = sys.argv[1]
    repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    print(f"instructions per kernel, millions (callgrind, (I_{repeat} - I_1) / {repeat - 1})")
    print(f"{'kernel':<12} {'loops':>8} {'ascendc':>8}")
    for kernel, path in KERNELS.items():
        row = []
        for flags in PIPELINES.values():
            one = instructions([opt, *flags, str(path), "-o", "/dev/null"])
            many = instructions([opt, *flags, *[str(path)] * repeat, "-o", "/dev/null"])
            row.append((many - one) / (repeat - 1) / 1e6)
        print(f"{kernel:<12} {row[0]:>8.1f} {row[1]:>8.1f}")


if __name__ == "__main__":
    main()
