#!/usr/bin/env bash
# Builds the `layout_opt` wheel (python/, maturin, dev profile) and runs its pytest suite.
#
# The tools live in target/py-venv (scripts/python-venv.sh, also run by bootstrap.sh); the
# wheel goes to target/wheels and is installed into the same venv.
# The tests compare with target/debug/layout-calc and layout-run (`make build` builds them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=$ROOT/target/py-venv
bash scripts/python-venv.sh

# The PyO3 crate is a separate workspace (python/Cargo.toml) but links the compiler (passes,
# layout-runtime, ascendc-emit, MLIR 22): a dev build into the root target dir reuses what
# `make build` compiled where the crate graphs agree (python/Cargo.lock starts from the root lock,
# python/Cargo.toml repeats the root's dev profile): mlir-sys, the costly one, is shared; crates
# whose features unify differently in the two workspaces (melior, the passes) are built again. Run from the root, so that
# .cargo/config.toml's MLIR/LLVM prefixes apply. `--strip` drops the line tables from the wheel.
export CARGO_TARGET_DIR=$ROOT/target
rm -rf "$ROOT/target/wheels"
"$VENV/bin/maturin" build --quiet --profile dev --strip --manifest-path python/Cargo.toml \
  --interpreter "$VENV/bin/python" --out "$ROOT/target/wheels"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
  "$ROOT"/target/wheels/layout_opt-*.whl

export LAYOUT_CALC=${LAYOUT_CALC:-$ROOT/target/debug/layout-calc}
export LAYOUT_RUN=${LAYOUT_RUN:-$ROOT/target/debug/layout-run}
# From the root: python/ itself must not be on sys.path (its layout_opt/ has no extension).
"$VENV/bin/python" -m pytest -q python/tests "$@"
