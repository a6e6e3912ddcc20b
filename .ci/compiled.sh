#!/usr/bin/env bash
# CI job: the optional compiled build (Cython, docs/speed.md). Installs the `fast` extra, builds
# the engine and the rule bot (2 parallel jobs) into a temporary folder, then runs the whole test
# suite (the conformance suites and golden games among it) with BANGARENA_ENGINE=compiled, and
# plays 1,000 games on the pure and the compiled build (two subprocesses) comparing state hashes
# and views. Called from .ci/run after the main suite's venv exists (and its PostgreSQL); about
# 6 minutes on 2 cores, the compile included.
# BANGARENA_CI_NO_INSTALL=1 skips the pip step (a venv that already has the extra).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
if [ "${BANGARENA_CI_NO_INSTALL:-}" != 1 ]; then
    "$PY" -m pip install --quiet -e '.[fast]'
fi
BANGARENA_BUILD_DIR="$(mktemp -d)/compiled"
export BANGARENA_BUILD_DIR
trap 'rm -rf "$(dirname "$BANGARENA_BUILD_DIR")"' EXIT
unset PYTHONDONTWRITEBYTECODE
start=$SECONDS
# -O1: half of -O2's gcc time for nearly all of its speed (docs/speed.md).
"$PY" -m bangarena.cli engine compile --jobs 2 --opt 1
echo "compiled in $((SECONDS - start)) s"
# The switch must really load the build: `engine info` says so, or the job fails here.
info=$(BANGARENA_ENGINE=compiled "$PY" -m bangarena.cli engine info)
echo "$info"
grep -q '"build": "compiled"' <<<"$info"
# The whole suite, not only the engine's: the harness, the rules machine, the service and the
# bots all import the compiled modules (a Move as an extension type once lost the type hints the
# published move schema is built from, which only the service's tests showed).
BANGARENA_ENGINE=compiled "$PY" -m pytest -n 2 -p no:cacheprovider -q
"$PY" tests/compiled_support.py --games 1000
echo "compiled-build job: $((SECONDS - start)) s"
