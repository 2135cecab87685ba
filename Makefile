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
	$(PY) -m pip install --quiet -e '.[dev,index]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/streamlit run streamlit_app.py --server.port $(PORT) --browser.gatherUsageStats false

test: $(STAMP)
	bash scripts/ensure_chromium.sh
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check ragviz ragviz_app tests streamlit_app.py bench
	$(VENV)/bin/mypy

# Benchmarks print figures next to issue 11's goals; they assert nothing. The bench extra
# holds the chunker peers; the browser benches need Debian's chromium (scripts/ensure_chromium.sh).
bench: $(STAMP)
	$(PY) -m pip install --quiet -e '.[dev,index,bench]'
	$(PY) bench/embedding_cache.py
	$(PY) bench/embedding_path.py
	$(PY) bench/memory_shapes.py
	$(PY) bench/chunking_scaling.py
	$(PY) bench/chunker_peers.py
	$(PY) bench/slider_precompute.py
	$(PY) bench/index_load.py
	bash scripts/ensure_chromium.sh
	$(PY) bench/browser_timing.py
	$(PY) bench/ui_latency.py
	$(PY) bench/workshop_load.py --sessions 10
	$(PY) bench/workshop_load.py --sessions 30
	$(PY) bench/workshop_load.py --sessions 30 --clients protocol

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
