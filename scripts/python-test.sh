#!/usr/bin/env bash
# Builds the `layout_opt` wheel (python/, maturin, release) and runs its pytest suite.
#
# The tools live in a virtualenv under target/ (target/py-venv) made from the machine's
# python3 (pyenv's CPython here, Debian's python3 + python3-venv on a fresh Debian 12), with
# the pinned versions of python/requirements-build.txt; the wheel goes to target/wheels and is
# installed into the same venv. Idempotent: an existing venv with the pins is reused.
# The tests compare with target/debug/layout-calc and layout-run (`make build` builds them).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=$ROOT/target/py-venv
PY=${PYTHON:-python3}
REQS=$ROOT/python/requirements-build.txt

if [ ! -x "$VENV/bin/python" ]; then
  "$PY" -m venv "$VENV"
fi
if ! cmp -s "$REQS" "$VENV/.requirements" 2>/dev/null; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQS"
  cp "$REQS" "$VENV/.requirements"
fi

# Its own target dir: the PyO3 crate is a separate workspace (python/Cargo.toml).
export CARGO_TARGET_DIR=$ROOT/target/python
rm -rf "$ROOT/target/wheels"
"$VENV/bin/maturin" build --quiet --release --manifest-path python/Cargo.toml --interpreter "$VENV/bin/python" \
  --out "$ROOT/target/wheels"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
  "$ROOT"/target/wheels/layout_opt-*.whl

export LAYOUT_CALC=${LAYOUT_CALC:-$ROOT/target/debug/layout-calc}
export LAYOUT_RUN=${LAYOUT_RUN:-$ROOT/target/debug/layout-run}
# From the root: python/ itself must not be on sys.path (its layout_opt/ has no extension).
"$VENV/bin/python" -m pytest -q python/tests "$@"
