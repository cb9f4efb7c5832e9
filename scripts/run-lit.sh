#!/usr/bin/env bash
# Builds layout-opt, layout-run, layout-gemm and layout-calc and runs the lit/FileCheck suite in filecheck/.
# Usage: scripts/run-lit.sh [--release] [extra lit args...]
# Env: CARGO_TARGET_DIR (default target/), LIT (default /usr/lib/llvm-22/bin/lit).
set -euo pipefail
cd "$(dirname "$0")/.."

profile=debug
cargo_flags=()
if [ "${1:-}" = "--release" ]; then
  profile=release
  cargo_flags=(--release)
  shift
fi

cargo build -p layout-opt -p layout-run -p layout-gemm -p layout-calc "${cargo_flags[@]}"

LIT="${LIT:-/usr/lib/llvm-22/bin/lit}"
export LAYOUT_OPT_PROFILE="$profile"
exec "$LIT" -v filecheck/ "$@"
