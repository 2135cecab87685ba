"""Issue 45 item 5 in the real Streamlit runtime (AppTest, the default model): a new document
past the chunk limit for one configuration embeds nothing for the other until the user picks
sizes (a large upload once spent 100 s embedding the default B while A was refused)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import MAX_CHUNKS

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
SENTENCE = "Refunds reach the card in seven days. "
TINY = 5  # A's size: the document below makes more than MAX_CHUNKS of them
DOCUMENT = SENTENCE * (MAX_CHUNKS * TINY // len(SENTENCE) + 40)
HELD = "Not embedded yet: A makes more chunks than ragviz embeds"


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def infos(at: AppTest) -> list[str]:
    return [str(i.value).replace("\\", "") for i in at.info]  # markdown's escapes out


def counted_documents(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many chunk texts each call asks the model to embed (before its cache)."""
    calls: list[int] = []
    original = Embedder.encode_documents

    def counting(self: Embedder, texts: Sequence[str], *args: Any, **kwargs: Any) -> Any:
        calls.append(len(texts))
        return original(self, texts, *args, **kwargs)

    monkeypatch.setattr(Embedder, "encode_documents", counting)
    return calls


def test_a_side_past_the_chunk_limit_holds_the_other_until_sizes_are_picked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    at = run(AppTest.from_file(APP, default_timeout=180))
    at.radio(key="doc_source").set_value("paste")
    run(at)
    calls = counted_documents(monkeypatch)
    at.slider(key="a_size").set_value(TINY)
    at.text_area(key="doc_paste").input(DOCUMENT)
    run(at)
    assert any("makes" in str(e.value) and "chunks" in str(e.value) for e in at.error)
    assert any(HELD in i for i in infos(at)), infos(at)
    assert calls == [], "B is not embedded before the user picks sizes"
    run(at)  # a rerun with the same sizes holds it still
    assert calls == []
    at.slider(key="a_size").set_value(200)  # the user picks sizes: both sides embed
    run(at)
    assert not any(HELD in i for i in infos(at))
    assert len(calls) == 2 and sum(calls) > 0
    assert not at.error
