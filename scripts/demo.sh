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
echo
echo "== layout-run examples/tiled_gemm.mlir (CPU lowering: layout ops -> loops -> LLVM -> JIT)"
echo "   C (200x136 f32) = A (200x256 f16) x B (256x136 f16), M and N dynamic (tail tiles in both),"
echo "   K loop over 64-wide slices; reference: examples/gemm_reference.mlir (plain loops, same seed)"
run_dir=target/demo-tiled-gemm
rm -rf "$run_dir" && mkdir -p "$run_dir/ref" "$run_dir/tiled"
target/debug/layout-run examples/gemm_reference.mlir --entry gemm_reference --seed 42 --out-dir "$run_dir/ref" >/dev/null
# C starts as random garbage (arg3 of the reference): the tiled kernel must overwrite all of it.
target/debug/layout-run examples/tiled_gemm.mlir --entry tiled_gemm --self-check \
  --input 0="$run_dir/ref/arg0.npy" --input 1="$run_dir/ref/arg1.npy" --input 2="$run_dir/ref/arg3.npy" \
  --arg 3=200 --arg 4=136 --out-dir "$run_dir/tiled" | grep -E '^(self-check|arg2)'
target/debug/layout-run --compare "$run_dir/ref/arg2.npy" "$run_dir/tiled/arg2.npy" --tolerance 0
echo
echo "== layout-run examples/gemm_dynamic_k.mlir (M, N, K dynamic; K streamed in 64-wide slices)"
echo "   C (200x136) = A (200x200) x B (200x136): tails in M, N and K (200 = 3 x 64 + 8); each copy"
echo "   returns the view of what it wrote, so the K tail reads no stale data;"
echo "   reference: examples/gemm_reference_k200.mlir (plain loops, same seed)"
mkdir -p "$run_dir/ref_k200" "$run_dir/dynamic_k"
target/debug/layout-run examples/gemm_reference_k200.mlir --entry gemm_reference_k200 --seed 43 --out-dir "$run_dir/ref_k200" >/dev/null
target/debug/layout-run examples/gemm_dynamic_k.mlir --entry gemm_dynamic_k \
  --input 0="$run_dir/ref_k200/arg0.npy" --input 1="$run_dir/ref_k200/arg1.npy" --input 2="$run_dir/ref_k200/arg3.npy" \
  --arg 3=200 --arg 4=136 --arg 5=200 --out-dir "$run_dir/dynamic_k" | grep -E '^arg2'
target/debug/layout-run --compare "$run_dir/ref_k200/arg2.npy" "$run_dir/dynamic_k/arg2.npy" --tolerance 0
echo
echo "== layout-run examples/gemm_double_buffer.mlir --backend ascendc-cpp --sanitize"
echo "   (the same GEMM double-buffered, as layout-multi-buffer writes it: second L1/L0A/L0B buffers,"
echo "    two K slices per iteration; the emitted AscendC C++ on the CPU model under the sanitizer)"
mkdir -p "$run_dir/double_buffer"
target/debug/layout-run examples/gemm_double_buffer.mlir --entry gemm_double_buffer --backend ascendc-cpp --sanitize \
  --input 0="$run_dir/ref_k200/arg0.npy" --input 1="$run_dir/ref_k200/arg1.npy" --input 2="$run_dir/ref_k200/arg3.npy" \
  --arg 3=200 --arg 4=136 --arg 5=200 --out-dir "$run_dir/double_buffer" | grep -E '^arg2'
target/debug/layout-run --compare "$run_dir/ref_k200/arg2.npy" "$run_dir/double_buffer/arg2.npy" --tolerance 0
echo
echo "== layout-gemm --m ? --n ? --k ? --order swizzle:2, run on 24 blocks (--block-dim 24 --sanitize)"
echo "   (the generator's multi-core GEMM, tiles L1 (128,256,256) / L0 K 64, double-buffered; C tiles"
echo "    over the blocks in catlass's swizzled order; the blocks run in a shuffled order over one GM"
echo "    image under every sanitizer check, racecheck included)"
mkdir -p "$run_dir/generated"
target/debug/layout-gemm --m '?' --n '?' --k '?' --order swizzle:2 -o "$run_dir/generated/gemm.mlir"
target/debug/layout-run "$run_dir/generated/gemm.mlir" --entry gemm --backend ascendc-cpp --sanitize --block-dim 24 \
  --input 0="$run_dir/ref_k200/arg0.npy" --input 1="$run_dir/ref_k200/arg1.npy" --input 2="$run_dir/ref_k200/arg3.npy" \
  --arg 3=200 --arg 4=136 --arg 5=200 --out-dir "$run_dir/generated" | grep -E '^arg2'
target/debug/layout-run --compare "$run_dir/ref_k200/arg2.npy" "$run_dir/generated/arg2.npy" --tolerance 0
echo
echo "== layout-opt --layout-lower-to-ascendc --emit=ascendc examples/ascendc/gemm_f16_a5.mlir"
echo "   (the AscendC kernel for Ascend 950: every parameter derived from the layouts and checked"
echo "    against its field; the tests compile it with g++ against the CPU model of the intrinsics"
echo "    and compare with the loop lowering bit for bit; first 60 lines)"
target/debug/layout-opt --layout-lower-to-ascendc --emit=ascendc examples/ascendc/gemm_f16_a5.mlir -o "$run_dir/gemm_f16_a5.cpp"
head -60 "$run_dir/gemm_f16_a5.cpp"
echo "   ... (whole kernel: $run_dir/gemm_f16_a5.cpp)"
