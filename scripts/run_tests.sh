#!/usr/bin/env bash
# The whole suite, as `make test` runs it: the browser tests and the core and AppTest tests at
# the same time. The browser tests mostly wait for the page (Chromium and one Streamlit
# server keep about a third of two cores busy), so they run beside two core workers instead
# of after three. The browser suite's output is held in a file and printed once it ends, so
# the two reports do not interleave; the exit status is the first failure's.
# Usage: scripts/run_tests.sh PYTHON
set -uo pipefail
PY="${1:-.venv/bin/python}"
browser_log="$(mktemp -t ragviz-browser-tests.XXXXXX)"
trap 'rm -f "$browser_log"' EXIT

# PYTHONDONTWRITEBYTECODE emptied: the tests start ~200 Python processes, each of which would
# otherwise compile ragviz from source again when the environment sets it.
export PYTHONDONTWRITEBYTECODE=

"$PY" -m pytest -q -p no:cacheprovider tests/browser --durations=10 >"$browser_log" 2>&1 &
browser_pid=$!

# One BLAS/OpenMP thread per process: two workers (and their subprocesses) each multiplying
# matrices on two threads fought over two cores (the benchmark-format test's eval took 114 s
# beside the others, 25 s alone).
OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1 \
  "$PY" -m pytest -q -n 2 --dist loadfile --ignore=tests/browser -m "not bench_smoke_slow" \
  --durations=20
core=$?

wait "$browser_pid"
browser=$?
echo
echo "=== browser tests (run beside the core tests) ==="
cat "$browser_log"
if [ "$core" -ne 0 ]; then exit "$core"; fi
exit "$browser"
