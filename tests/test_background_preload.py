"""RAGVIZ_PRELOAD_MODELS: the second model is loaded in the background once the first page
is drawn, once per process, into the cache the pickers use (real bundled models)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from ragviz.embedding.models import Embedder
from tests.test_app import rerun, run_app, shown


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A fresh server process as far as models go, counting every real model load."""
    from ragviz_app import models

    counted: list[str] = []
    load = models.load_embedder

    def counting(name: str, *args: Any, **kwargs: Any) -> Embedder:
        counted.append(name)
        return load(name, *args, **kwargs)

    monkeypatch.setattr(models, "load_embedder", counting)
    models.get_model.clear()
    models._LOADED.clear()
    models._PRELOAD_STARTED.clear()
    yield counted
    for thread in threading.enumerate():
        if thread.name.startswith("ragviz-preload-"):
            thread.join(120)


def test_preload_names_skip_blanks_and_api_models(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragviz_app import models

    monkeypatch.setenv("RAGVIZ_PRELOAD_MODELS", " minilm-en, ,openai:text-embedding-3-small")
    assert models.preload_names() == ["minilm-en"]
    monkeypatch.delenv("RAGVIZ_PRELOAD_MODELS")
    assert models.preload_names() == []


def test_the_preloaded_model_is_loaded_once_and_shared_with_the_picker(
    loads: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ragviz_app import models

    monkeypatch.setenv("RAGVIZ_PRELOAD_MODELS", "minilm-en")
    at = run_app(tab=None)  # the first page; its end starts the preload
    assert "minilm-en\0" in models._PRELOAD_STARTED
    at.radio(key="model_choice").set_value("minilm-en")
    rerun(at)  # picked while the preload may still run: waits for it, loads nothing itself
    assert "In use: minilm-en" in " ".join(shown(c.value) for c in at.caption)
    assert models.preload_in_background() == []  # once per process
    picked = models.get_model("minilm-en", "", None)
    assert loads.count("minilm-en") == 1
    assert picked is models.get_model("minilm-en", "", None)
