#!/usr/bin/env bash
# The Python package's build and test tools (python/requirements-build.txt: maturin, numpy,
# pytest, pinned) in a virtualenv at target/py-venv, made from the machine's python3 (pyenv's
# CPython or Debian's python3 with python3-venv; PYTHON=... picks another). Idempotent: a venv
# whose installed pins equal the file is left alone.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VENV=$ROOT/target/py-venv
REQS=$ROOT/python/requirements-build.txt
if [ ! -x "$VENV/bin/python" ]; then
  "${PYTHON:-python3}" -m venv "$VENV"
fi
if ! cmp -s "$REQS" "$VENV/.requirements"; then
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$REQS"
  cp "$REQS" "$VENV/.requirements"
fi
