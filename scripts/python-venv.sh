#!/usr/bin/env bash
# The Python package's build and test tools, pinned (python/requirements-build.txt: maturin,
# numpy, pytest; python/requirements-pycute.txt: pycute, test-only), in a virtualenv at
# target/py-venv made from the machine's python3 (pyenv's CPython or Debian's python3 with
# python3-venv; PYTHON=... picks another). Idempotent: a venv with the same pins is left alone.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=$ROOT/target/py-venv
REQS=$ROOT/python/requirements-build.txt
PYCUTE=$ROOT/python/requirements-pycute.txt
if [ ! -x "$VENV/bin/python" ]; then
  "${PYTHON:-python3}" -m venv "$VENV"
fi
if ! cat "$REQS" "$PYCUTE" | cmp -s - "$VENV/.requirements"; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQS"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps -r "$PYCUTE"
  cat "$REQS" "$PYCUTE" > "$VENV/.requirements"
fi
