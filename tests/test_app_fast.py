"""The mechanisms that make a floor or top_k move cheap, in the real Streamlit runtime with the
real default model (no timing here; `bench/ui_latency.py` measures the time).

A floor or top_k move must not call the model nor re-chunk (only ``rescore``), and every
score chart must keep its spec (only its named datasets change), so the browser swaps the data
in the chart it already drew instead of building a new one.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

import ragviz_app.frame
from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.embedding.base import ENCODE_BATCH, Embedder
from ragviz.present import presentation
from ragviz_app.jobs import THREAD_NAME
from tests.test_app import (
    PRAZO,
    bar_statuses,
    layer_data,
    open_tab,
    page_text,
    rerun,
    run_app,
    score_chart,
)

SAMPLE = (Path(__file__).resolve().parent.parent / "sample_docs"
          / "politica_reembolso.txt").read_text(encoding="utf-8")


@pytest.fixture
def model_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Counts every text any embedder is asked to encode (cached or not) and every chunking."""
    calls: list[int] = []
    encode = Embedder.encode

    def counting_encode(self: Embedder, texts: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(len(texts))
        return encode(self, texts, *args, **kwargs)

    import ragviz.evaluation.pipeline

    chunk_corpus = ragviz.evaluation.pipeline.chunk_corpus

    def counting_chunks(*args: Any, **kwargs: Any) -> Any:
        calls.append(-1)
        return chunk_corpus(*args, **kwargs)

    monkeypatch.setattr(Embedder, "encode", counting_encode)
    monkeypatch.setattr(ragviz.evaluation.pipeline, "chunk_corpus", counting_chunks)
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
    assert bar_statuses(spec, data).count("sent as context") == 1
    model_calls.clear()
    at.slider(key="top_k").set_value(2)
    rerun(at)
    assert model_calls == []
    spec, data = score_chart(at, "b", PRAZO)
    assert bar_statuses(spec, data).count("sent as context") == 2
    assert _skeletons(at) == before


SIZE_20 = ChunkerConfig("fixed", size=20)  # 26 chunks of the 508-character sample: 2 batches


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every document text the page's own thread really hands to the model (cache misses;
    a background thread's texts are left out), with the cache emptied first."""
    from ragviz.embedding.models import SHARED_CACHE, UseMultilingual

    texts: list[str] = []
    encode = UseMultilingual._encode

    def counting(self: UseMultilingual, batch: list[str], kind: Any) -> Any:
        if kind == "document" and threading.current_thread().name != THREAD_NAME:
            texts.extend(batch)
        return encode(self, batch, kind)

    SHARED_CACHE.clear()
    monkeypatch.setattr(UseMultilingual, "_encode", counting)
    yield texts


def chunk_texts(config: ChunkerConfig) -> set[str]:
    return {c.text for c in make_chunks(SAMPLE, config).chunks}


class Interrupted(Exception):  # noqa: N818 - it stands for Streamlit's RerunException
    """What the next st.* call raises in a run the user has left for a new slider position
    (AppTest cannot move a slider while a run is going, so the test raises it itself)."""


def test_a_new_position_stops_the_old_embedding_and_does_not_queue_it(
    sent: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = run_app()
    progress = ragviz_app.frame.embedding_progress

    def left_after_one_batch(slot: Any) -> Any:
        report = progress(slot)

        def draw(done: int, total: int) -> None:
            report(done, total)  # the bar is drawn: Streamlit's check for a new rerun
            if done >= ENCODE_BATCH:
                raise Interrupted
        return draw

    monkeypatch.setattr(ragviz_app.frame, "embedding_progress", left_after_one_batch)
    sent.clear()
    at.slider(key="a_size").set_value(20)
    at.run()
    assert at.exception and "raise Interrupted" in at.exception[0].stack_trace[-1]
    first_batch = set(sent)
    assert len(first_batch) == ENCODE_BATCH  # the run stopped between batches
    monkeypatch.setattr(ragviz_app.frame, "embedding_progress", progress)
    sent.clear()
    at.slider(key="a_size").set_value(30)
    rerun(at)
    rest = chunk_texts(SIZE_20) - first_batch
    assert sent and set(sent) <= chunk_texts(ChunkerConfig("fixed", size=30))
    assert not set(sent) & rest  # the position left is not finished behind the user's back
    sent.clear()
    at.slider(key="a_size").set_value(20)
    rerun(at)  # back: the finished batch was kept, only the rest is embedded
    assert sent and set(sent) <= rest and not set(sent) & first_batch


def test_while_idle_the_neighbouring_sizes_are_embedded_so_the_next_step_needs_no_model(
    sent: list[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ragviz_app import background

    monkeypatch.setattr(background, "ENABLED", True)
    monkeypatch.setattr(background, "IDLE_SECONDS", 0.0)
    at = run_app()
    assert "_precompute" not in at.session_state  # no slider moved yet: nothing to guess
    at.slider(key="a_size").set_value(121)
    rerun(at)
    job = at.session_state["_precompute"]
    job.join(120)
    expected = [ChunkerConfig("fixed", size=120), ChunkerConfig("fixed", size=122)]
    assert job.finished == expected and not job.errors
    sent.clear()
    at.slider(key="a_size").set_value(122)
    rerun(at)
    assert sent == []  # the whole step came from the cache
    assert "5 chunks · " + presentation.config_text(expected[1], "en") in [
        c.value for c in at.caption]
    at.session_state["_precompute"].join(120)
    assert at.session_state["_precompute"].finished == [
        ChunkerConfig("fixed", size=121), ChunkerConfig("fixed", size=123)]


def test_a_size_move_shows_the_new_chunks_before_any_embedding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the embedding of the new chunks stopped dead, the page already shows A's new
    chunk count and its highlighted document cut at the new size: both were drawn before
    the model was asked for anything."""
    at = run_app()  # the document tab
    encode = Embedder.encode

    def stopped(self: Embedder, texts: Any, kind: str = "document", *args: Any,
                **kwargs: Any) -> Any:
        if kind == "document" and any(len(text) == 200 for text in texts):
            raise RuntimeError("embedding stopped")
        return encode(self, texts, kind, *args, **kwargs)

    monkeypatch.setattr(Embedder, "encode", stopped)
    at.slider(key="a_size").set_value(200)
    at.run()
    assert [e.value for e in at.exception] and "embedding stopped" in at.exception[0].value
    label = presentation.config_text(ChunkerConfig("fixed", size=200), "en")
    captions = [c.value for c in at.caption]
    assert f"3 chunks · {label}" in captions
    assert any(text.startswith("Embedding chunks of") for text in captions)
    documents = [str(h.proto.body) for h in at.get("html") if "rv-doc" in str(h.proto.body)]
    assert documents and documents[0].count('class="rv-badge"') == 3  # 508 chars / 200


def test_a_floor_move_after_the_fill_starts_no_new_background_job(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ragviz_app import background

    monkeypatch.setattr(background, "ENABLED", True)
    monkeypatch.setattr(background, "IDLE_SECONDS", 0.0)
    at = open_tab(run_app(), "questions")
    at.slider(key="a_size").set_value(121)
    rerun(at)
    job = at.session_state["_precompute"]
    job.join(120)
    at.slider(key="floor").set_value(0.5)
    rerun(at)
    assert at.session_state["_precompute"] is job  # the neighbours are still those of 121
