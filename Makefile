# Two commands for a newcomer: `make run` (set up, start the app) and `make test`
# (set up, run the whole suite). Both create .venv when it is missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.ragviz-installed
PORT ?= 8501

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# torch first and pinned: this resolves to the CPU wheel, never a multi-GB CUDA build.
	$(PY) -m pip install --quiet torch==2.13.0
	# peers and bench: the peer chunkers' tests compare text by text, and
	# tests/test_bench_smoke.py runs every benchmark once (--smoke).
	$(PY) -m pip install --quiet -e '.[dev,peers,bench]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/streamlit run streamlit_app.py --server.port $(PORT) --browser.gatherUsageStats false

test: $(STAMP)
	bash scripts/ensure_chromium.sh
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check ragviz ragviz_app tests streamlit_app.py bench
	$(VENV)/bin/mypy

# Benchmarks print figures next to issue 11's goals with the machine's cores, load average and
# date; they assert nothing (docs/benchmarks.md holds a run). The bench extra holds what they
# import; the browser benches need Debian's chromium (scripts/ensure_chromium.sh).
# `make bench BENCH_FLAGS=--smoke` runs each once, tiny (what `make test` checks).
BENCH_FLAGS ?=
bench: $(STAMP)
	bash scripts/ensure_chromium.sh
	$(PY) bench/embedding_cost.py $(BENCH_FLAGS)
	$(PY) bench/embedding_cache.py $(BENCH_FLAGS)
	$(PY) bench/embedding_path.py $(BENCH_FLAGS)
	$(PY) bench/memory_shapes.py $(BENCH_FLAGS)
	$(PY) bench/chunking_scaling.py $(BENCH_FLAGS)
	$(PY) bench/hostile_files.py $(BENCH_FLAGS)
	$(PY) bench/chunker_peers.py $(BENCH_FLAGS)
	$(PY) bench/slider_precompute.py $(BENCH_FLAGS)
	$(PY) bench/eval_scale.py $(BENCH_FLAGS)
	$(PY) bench/browser_timing.py $(BENCH_FLAGS)
	$(PY) bench/ui_latency.py $(BENCH_FLAGS)
	$(PY) bench/workshop_load.py --sessions 10 $(BENCH_FLAGS)
	$(PY) bench/workshop_load.py --sessions 30 $(BENCH_FLAGS)
	$(PY) bench/workshop_load.py --sessions 30 --clients protocol $(BENCH_FLAGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
