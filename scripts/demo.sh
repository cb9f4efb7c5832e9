#!/usr/bin/env bash
# `make demo`: run the main job on the bundled examples and print the results.
set -euo pipefail
cd "$(dirname "$0")/.."
calc=target/debug/layout-calc
echo "== layout-calc < examples/layouts.calc"
while IFS= read -r line; do
  case "$line" in
    ''|'#'*) echo "$line" ;;
    *) printf '%s\n  => %s\n' "$line" "$("$calc" "$line")" ;;
  esac
done < examples/layouts.calc
echo
echo "== layout-calc table 'frame(NZ,f32,10,12)'   (fp32: C0 = 8, fractals of 16x8)"
"$calc" table 'frame(NZ,f32,10,12)'
echo
echo "== layout-opt --layout-verify --layout-fold examples/gemm_tile.mlir"
echo "   (a 128x128 block of C = A x B on Atlas A2: GM ND -> L1 NZ -> L0A ZZ / L0B ZN -> L0C -> GM;"
echo "    every tile type was written as '?' and is filled in by the layout algebra;"
echo "    the L1 offset of element (17,33) folds to a constant)"
target/debug/layout-opt --layout-verify --layout-fold examples/gemm_tile.mlir
