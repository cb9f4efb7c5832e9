# lit configuration for the layout-opt FileCheck suite. Run with scripts/run-lit.sh (builds
# layout-opt first) or `/usr/lib/llvm-22/bin/lit -v filecheck/`.
import os
import re

import lit.formats

config.name = "layout-opt"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.excludes = ["lit.cfg.py", "Inputs"]

config.test_source_root = os.path.dirname(os.path.abspath(__file__))
repo_root = os.path.dirname(config.test_source_root)
target_dir = os.environ.get("CARGO_TARGET_DIR", os.path.join(repo_root, "target"))
if not os.path.isabs(target_dir):
    target_dir = os.path.join(repo_root, target_dir)
config.test_exec_root = os.path.join(target_dir, "lit")

llvm_bin = "/usr/lib/llvm-22/bin"
layout_opt = os.environ.get(
    "LAYOUT_OPT", os.path.join(target_dir, os.environ.get("LAYOUT_OPT_PROFILE", "debug"), "layout-opt")
)

layout_run = os.environ.get(
    "LAYOUT_RUN", os.path.join(target_dir, os.environ.get("LAYOUT_OPT_PROFILE", "debug"), "layout-run")
)

layout_gemm = os.environ.get(
    "LAYOUT_GEMM", os.path.join(target_dir, os.environ.get("LAYOUT_OPT_PROFILE", "debug"), "layout-gemm")
)

layout_calc = os.environ.get(
    "LAYOUT_CALC", os.path.join(target_dir, os.environ.get("LAYOUT_OPT_PROFILE", "debug"), "layout-calc")
)

# layout-opt verifies the IR once after its passes by default; the suite checks it after each.
config.environment["LAYOUT_OPT_VERIFY_EACH"] = "1"
config.environment["PATH"] = os.pathsep.join([llvm_bin, config.environment.get("PATH", "/usr/bin:/bin")])


def tool(name, path):
    # Whole words only: `not` must not match inside `note`, and `layout-opt` not inside a path.
    return (r"(?<![\w/.-])" + re.escape(name) + r"(?![\w/.-])", path)


config.substitutions.append(("%layout_irdl", os.path.join(repo_root, "dialects", "layout", "layout.irdl.mlir")))
config.substitutions.append(tool("layout-opt", layout_opt))
config.substitutions.append(tool("layout-run", layout_run))
config.substitutions.append(tool("layout-gemm", layout_gemm))
config.substitutions.append(tool("layout-calc", layout_calc))
config.substitutions.append(tool("mlir-opt", os.path.join(llvm_bin, "mlir-opt")))
config.substitutions.append(tool("FileCheck", os.path.join(llvm_bin, "FileCheck")))
config.substitutions.append(tool("not", os.path.join(llvm_bin, "not")))
