"""The mechanisms that make a floor or top_k move cheap, in the real Streamlit runtime with the
real default model (no timing here; `bench/ui_latency.py` measures the time).

A floor or top_k move must not call the model nor re-chunk (only ``rescore``), and every
score chart must keep its spec (only its named datasets change), so the browser swaps the data
in the chart it already drew instead of building a new one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.embedding_base import Embedder
from tests.test_app import PRAZO, layer_data, open_tab, page_text, rerun, run_app, score_chart


@pytest.fixture
def model_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts every text any embedder is asked to encode (cached or not) and every chunking."""
    calls: list[int] = []
    encode = Embedder.encode

    def counting_encode(self: Embedder, texts: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(len(texts))
        return encode(self, texts, *args, **kwargs)

    import ragviz.pipeline

    chunk_corpus = ragviz.pipeline.chunk_corpus

    def counting_chunks(*args: Any, **kwargs: Any) -> Any:
        calls.append(-1)
        return chunk_corpus(*args, **kwargs)

    monkeypatch.setattr(Embedder, "encode", counting_encode)
    monkeypatch.setattr(ragviz.pipeline, "chunk_corpus", counting_chunks)
    yield calls


def _skeletons(at: AppTest) -> dict[str, str]:
    """Every score chart's spec as sent to the browser (its data travels apart), by chart."""
    return {json.loads(e.proto.spec).get("description", ""): e.proto.spec
            for e in at.get("vega_lite_chart")}


def test_a_floor_move_rescores_without_the_model_and_keeps_every_chart_spec(
    model_calls: list[int],
) -> None:
    at = open_tab(run_app(), "questions")
    assert model_calls, "the first run embeds (the counter sees the model)"
    before = _skeletons(at)
    model_calls.clear()
    at.slider(key="floor").set_value(0.5)
    rerun(at)
    assert model_calls == []  # no encode, no chunking: only rescore
    assert "refused: best score 0.44 is under the floor 0.50" in page_text(at)
    spec, data = score_chart(at, "a", PRAZO)
    assert layer_data(spec, data, "rule")["floor"].tolist() == [0.5]
    after = _skeletons(at)
    assert len(after) == 14 and after == before  # same specs: only the datasets changed


def test_a_top_k_move_rescores_without_the_model_and_keeps_every_chart_spec(
    model_calls: list[int],
) -> None:
    at = open_tab(run_app(), "questions")
    before = _skeletons(at)
    spec, data = score_chart(at, "b", PRAZO)
    assert layer_data(spec, data, "bar")["status"].tolist().count("sent as context") == 2
    model_calls.clear()
    at.slider(key="top_k").set_value(1)
    rerun(at)
    assert model_calls == []
    spec, data = score_chart(at, "b", PRAZO)
    assert layer_data(spec, data, "bar")["status"].tolist().count("sent as context") == 1
    assert _skeletons(at) == before
