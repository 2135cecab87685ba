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
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/streamlit run streamlit_app.py --server.port $(PORT) --browser.gatherUsageStats false

test: $(STAMP)
	bash scripts/ensure_chromium.sh
	$(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check ragviz ragviz_app tests streamlit_app.py bench
	$(VENV)/bin/mypy

bench: $(STAMP)
	$(PY) bench/embedding_cache.py
	$(PY) bench/embedding_path.py
	$(PY) bench/memory_shapes.py
	$(PY) bench/chunking_scaling.py
	$(PY) bench/browser_timing.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
