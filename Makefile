# Two commands for a newcomer: `make run` (set up, start the app) and `make test`
# (set up, run the whole suite). Both create .venv when it is missing.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.ragviz-installed
PORT ?= 8501

.PHONY: run test test-fast lint bench bench-smoke clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip uv
	# torch pinned, the CPU build, never a multi-GB CUDA build. Where pip's find-links folder
	# holds that wheel (this machine's kind keeps it on disk, where uv does not look), uv
	# takes the file with everything else in one parallel install (12-07: 45 s against 55 s
	# for pip's torch, then uv); elsewhere pip installs torch==2.13.0 first and uv keeps it.
	# uv installs in seconds what takes pip minutes; files copied, not hard-linked from uv's
	# cache (nltk refuses to read a data file with several links), bytecode compiled as pip
	# does. peers, index, map and bench: the peer chunkers' tests compare text by text, the
	# index tests use a real Chroma, the map tests fit a real UMAP, and
	# tests/test_bench_smoke.py runs every benchmark once.
	wheel="$$($(PY) scripts/torch_wheel.py)"; \
	if [ -z "$$wheel" ]; then $(PY) -m pip install --quiet torch==2.13.0; fi; \
	$(PY) -m uv pip install --python $(PY) --quiet --compile-bytecode --link-mode copy \
		$$wheel -e '.[dev,peers,index,map,bench]'
	# UMAP's numba functions compiled once here, kept on disk: every test process loads them
	# instead of compiling them again (ragviz/projection/numba_cache.py).
	$(PY) -c 'from ragviz.projection.planar import warm_umap; warm_umap()'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/streamlit run streamlit_app.py --server.port $(PORT) --browser.gatherUsageStats false

# The core and AppTest suites on three workers (pytest-xdist; they wait on subprocesses,
# servers and time budgets, so three keep two cores busier than two do), a test file per
# worker (a module's fixture, a Postgres, a Chroma server or the bench smoke runs starts once
# instead of on every worker given one of its tests), the longest files first
# (tests/conftest.py, SLOW_FIRST) so no minute-long file starts while the others idle. Then the
# browser tests alone: Chromium's renderer keeps both cores busy. Tried and reverted on 12-07:
# the browser tests as a fourth worker beside the core files (at load 8 a fresh clone's run
# was 57 % done after 18 minutes), and the browser suite beside two core workers (the core
# 23 % done after 12.5 minutes). PYTHONDONTWRITEBYTECODE emptied: the tests start ~200
# Python processes, each of which would otherwise compile ragviz from source again when the
# environment sets it. One BLAS/OpenMP thread per process in the core phase: three workers
# (and their subprocesses) each multiplying matrices on two threads fought over two cores.
CORE_THREADS := OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1
test: $(STAMP)
	bash scripts/ensure_chromium.sh
	PYTHONDONTWRITEBYTECODE= $(CORE_THREADS) $(PY) -m pytest -q -n 3 --dist loadfile \
		--ignore=tests/browser -m "not bench_smoke_slow" --durations=20
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -q tests/browser --durations=10

# No model, no browser (README, Contributing): RAGVIZ_FAST_TESTS=1 makes loading a model fail a
# test (tests/conftest.py), so a file that needs one cannot stay in this list unnoticed.
FAST_TESTS := tests/test_answers.py tests/test_calibration.py tests/test_chunker_golden.py \
	tests/test_code_shape.py tests/test_corpus.py tests/test_corpus_chunks.py tests/test_diagnosis.py \
	tests/test_exports.py tests/test_i18n.py tests/test_import_graph.py tests/test_inputs.py \
	tests/test_presentation.py tests/test_registry.py tests/test_render.py tests/test_report.py \
	tests/test_retrieval.py tests/test_seed_chunks.py tests/test_sentences.py tests/test_spans.py \
	tests/test_workspace.py tests/test_cache.py tests/test_legacy_files.py tests/test_one_place.py \
	tests/test_upload_store.py tests/test_test_hygiene.py
test-fast: $(STAMP)
	RAGVIZ_FAST_TESTS=1 $(PY) -m pytest -q $(FAST_TESTS)

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
	$(PY) bench/index_load.py $(BENCH_FLAGS)
	$(PY) bench/index_pgvector.py $(BENCH_FLAGS)
	$(PY) bench/chunker_peers.py $(BENCH_FLAGS)
	$(PY) bench/retrieval_scorers.py $(BENCH_FLAGS)
	$(PY) bench/slider_precompute.py $(BENCH_FLAGS)
	$(PY) bench/eval_scale.py $(BENCH_FLAGS)
	$(PY) bench/sweep_cancel.py $(BENCH_FLAGS)
	$(PY) bench/map_scale.py $(BENCH_FLAGS)
	$(PY) bench/browser_timing.py $(BENCH_FLAGS)
	$(PY) bench/ui_latency.py $(BENCH_FLAGS)
	$(PY) bench/step_profile.py $(BENCH_FLAGS)
	$(PY) bench/journey_99k.py $(BENCH_FLAGS)
	$(PY) bench/workshop_load.py --sessions 10 $(BENCH_FLAGS)
	$(PY) bench/workshop_load.py --sessions 30 $(BENCH_FLAGS)
	$(PY) bench/workshop_load.py --sessions 30 --clients protocol $(BENCH_FLAGS)

# Every bench once, tiny, asserted to run to its end: the smoke runs `make test` leaves out too.
bench-smoke: $(STAMP)
	bash scripts/ensure_chromium.sh
	$(PY) -m pytest -q tests/test_bench_smoke.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
