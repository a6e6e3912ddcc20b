#!/usr/bin/env bash
# CI job: the optional compiled build (Cython, docs/speed.md). Installs the `fast` extra, builds
# the engine and the rule bot (2 parallel jobs) into a temporary folder, then runs the tests that
# run the compiled modules (the conformance suites and golden games among them, below) with
# BANGARENA_ENGINE=compiled, and plays 1,000 games on the pure and the compiled build (two
# subprocesses) comparing state hashes and views. Called from .ci/run after the main suite's venv
# exists; about 2 minutes on 2 cores, the compile (~70 s with --pgo) included.
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
# -O1: half of -O2's gcc time for nearly all of its speed (docs/speed.md). --pgo: the
# profile-guided build the speed figures are taken on (two compiles and its training games) is
# the one whose games are checked here.
"$PY" -m bangarena.cli engine compile --jobs 2 --opt 1 --pgo
echo "compiled in $((SECONDS - start)) s"
# The switch must really load the build: `engine info` says so, or the job fails here.
info=$(BANGARENA_ENGINE=compiled "$PY" -m bangarena.cli engine info)
echo "$info"
grep -q '"build": "compiled"' <<<"$info"
grep -q '"pgo": true' <<<"$info"
# Every test that runs the compiled modules, not only the engine's: the harness, the rules
# machine, the service's match driver and fast path, and the bots import them too (a Move as an
# extension type once lost the type hints the published move schema is built from, which only
# the service's tests showed). Left out: the tests of what the engine's build cannot change
# (browsers, Ray, providers and their fake servers, the results stores, the leaderboard site,
# the CLI's start-up, the docs, packaging): the main suite runs them, and they are half of its
# time (CI must stay within 20 minutes with the installs).
BANGARENA_ENGINE=compiled "$PY" -m pytest -n 2 -p no:cacheprovider -q \
    --ignore-glob='tests/test_web_*' --ignore-glob='tests/test_leaderboard_*' \
    --ignore-glob='tests/test_evals_*' --ignore-glob='tests/test_agents_*' \
    --ignore-glob='tests/test_providers_*' --ignore-glob='tests/test_cli_*' \
    --ignore-glob='tests/test_client_*' --ignore=tests/test_credentials.py \
    --ignore=tests/test_match_sdk.py --ignore=tests/test_docs_examples.py \
    --ignore=tests/test_packaging.py --ignore=tests/test_import_costs.py \
    --ignore=tests/test_layers.py --ignore=tests/test_suite_humans.py \
    --ignore=tests/test_progress_leak.py --ignore=tests/test_service_bad_input.py \
    --ignore=tests/test_service_isolation.py --ignore=tests/test_service_schemathesis.py \
    --ignore=tests/test_service_clock.py
"$PY" tests/compiled_support.py --games 1000
echo "compiled-build job: $((SECONDS - start)) s"
