"""Shared fixtures: the real bundled models (loaded once per test session) and the seed sample."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.embedding.models import Embedder, load_embedder
from ragviz.inputs.questions import LabelledQuestion, parse_questions_csv

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_docs"


def pytest_configure(config: pytest.Config) -> None:
    """The embedding cache on disk lives in a folder of this session's (its subprocesses,
    the CLI's and the app servers', inherit it): no test reads or writes the user's. And
    Streamlit's component scan runs once a process (below)."""
    import os
    import tempfile

    os.environ["RAGVIZ_CACHE_DIR"] = tempfile.mkdtemp(prefix="ragviz-test-cache-")
    _scan_installed_components_once()


def _scan_installed_components_once() -> None:
    """Each new ``AppTest`` scans every installed package's metadata for Streamlit
    components (measured: 1.4 s of CPU for ~200 packages, seven times the script's own run
    on the sample). The installed packages do not change while the tests run, so one scan a
    process serves every AppTest; what it finds is the same."""
    import functools

    from streamlit.components.v2 import manifest_scanner

    scan = manifest_scanner.scan_component_manifests
    if not isinstance(scan, functools._lru_cache_wrapper):
        manifest_scanner.scan_component_manifests = functools.cache(scan)  # type: ignore[assignment]


# `make test` runs the core and AppTest files on three xdist workers (`--dist loadfile`), each
# test file a unit of work as `loadfile` makes it, with the longest units first (longest
# processing time first), so no 60-second file starts in the last minute while the other
# workers idle. SLOW_FIRST lists them, slowest first, by a file's summed test durations in a
# three-worker run of 12-07; a file missing here only starts later, it still runs.
# Run with the browser folder in the same pytest (`-n 4`, tried on 12-07 and slower here),
# the browser tests are ONE unit: they share one `streamlit run` server and one Chromium.
BROWSER_UNIT = "tests/browser"
SLOW_FIRST = (
    BROWSER_UNIT,
    "tests/test_bad_inputs.py",
    "tests/test_benchmark_format.py",
    "tests/test_index_pgvector.py",
    "tests/test_index.py",
    "tests/test_python_api.py",
    "tests/test_bm25_hybrid.py",
    "tests/test_bench_smoke.py",
    "tests/test_index_server.py",
    "tests/test_bombs.py",
    "tests/test_cli.py",
    "tests/test_embedders.py",
    "tests/test_app_questions.py",
    "tests/test_app_sharing.py",
    "tests/test_app_index.py",
    "tests/test_index_corrupt.py",
    "tests/test_model_ids.py",
    "tests/test_disk_cache.py",
    "tests/test_openai_embedder.py",
    "tests/test_app_models.py",
    "tests/test_python_api_postgres.py",
    "tests/test_index_ann.py",
    "tests/test_llm_answer.py",
)


def _unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its file, or the whole browser folder."""
    path = nodeid.split("::", 1)[0]
    return BROWSER_UNIT if path.startswith(BROWSER_UNIT + "/") else path


def _unit_rank(nodeid: str) -> int:
    unit = _unit(nodeid)
    return SLOW_FIRST.index(unit) if unit in SLOW_FIRST else len(SLOW_FIRST)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The slow units first; a file's tests stay together and in their order (stable sort)."""
    items.sort(key=lambda item: _unit_rank(item.nodeid))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """Under ``--dist loadfile``: a file per unit, the browser folder one unit, units handed
    out in the collection's order (slow first, above) rather than by their test count."""
    if config.getoption("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class SlowFirstFiles(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid)

    config.option.loadscopereorder = False
    return SlowFirstFiles(config, log)


def pytest_unconfigure(config: pytest.Config) -> None:
    import os
    import shutil

    shutil.rmtree(os.environ.get("RAGVIZ_CACHE_DIR", ""), ignore_errors=True)


@pytest.fixture(scope="session")
def use_model() -> Embedder:
    """The default model, Google USE multilingual v3 (pure numpy, offline)."""
    return load_embedder("use-multilingual")


@pytest.fixture(scope="session")
def minilm_model() -> Embedder:
    """all-MiniLM-L6-v2 from its package (torch, offline, 256-token limit)."""
    return load_embedder("minilm-en")


@pytest.fixture(scope="session")
def seed_doc() -> str:
    """The article's example policy text, exactly as its code defines DOC."""
    return (SAMPLES / "politica_reembolso.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def seed_questions() -> list[LabelledQuestion]:
    """The article's seven labelled questions (four answerable, three not)."""
    return parse_questions_csv((SAMPLES / "politica_reembolso.csv").read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _no_background_precompute(monkeypatch: pytest.MonkeyPatch) -> None:
    """The app's background fill of the cache (ragviz_app.background) is off in-process, so
    no test counts model calls a background thread made; tests of it switch it back on.
    Browser tests run their own server, where it stays on."""
    from ragviz_app import background

    monkeypatch.setattr(background, "ENABLED", False)


@pytest.fixture(autouse=True)
def _fast_subset_loads_no_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under `make test-fast` (RAGVIZ_FAST_TESTS=1) loading a model fails the test, so a file
    that needs one cannot slip into the fast list unnoticed."""
    import os

    if os.environ.get("RAGVIZ_FAST_TESTS") != "1":
        return
    from ragviz.embedding import models

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the fast subset loads no model: move this test out of FAST_TESTS")

    monkeypatch.setattr(models.UseMultilingual, "__init__", refuse)
    monkeypatch.setattr(models.SentenceTransformerEmbedder, "__init__", refuse)
