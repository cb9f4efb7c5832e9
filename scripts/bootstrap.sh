#!/usr/bin/env bash
# Installs every system package layout-opt needs on a Debian 12 machine.
# Idempotent: when everything is present it only runs `dpkg-query` and compares the venv's pins.
set -euo pipefail

# LLVM/MLIR 22 from Debian (docs/toolchain.md says why each package is here):
#   llvm-22-dev libmlir-22-dev  - headers + static libraries melior/mlir-sys/inkwell link
#   libpolly-22-dev             - llvm-config lists Polly; without it linking fails
#   libzstd-dev                 - -lzstd for LLVM's compression support
#   libclang1-22 libclang-common-22-dev - bindgen (mlir-sys) needs libclang and stdbool.h
#   mlir-22-tools llvm-22-tools - mlir-opt, mlir-translate, FileCheck, not, lit
#   python3-numpy               - numpy golden of the host packing test, bench-pack baseline
#   g++                         - compiles the emitted AscendC C++ against the CPU model (tests)
#   python3-venv                - the venv of the Python package's build tools (python-venv.sh)
#   z3                          - SMT solver binary: rule schemas and per-rewrite proofs of
#                                 index-simplify (docs/index-simplification.md §13)
PACKAGES=(
  llvm-22-dev libmlir-22-dev libpolly-22-dev libzstd-dev libclang1-22
  libclang-common-22-dev mlir-22-tools llvm-22-tools
  python3-numpy g++ python3-venv z3
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -ne 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "bootstrap: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# The Python package's pinned build tools (maturin, numpy, pytest) in target/py-venv.
bash "$(dirname "$0")/python-venv.sh"
