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
