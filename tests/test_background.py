"""Stopping an embedding job between batches, and the background job that fills the cache
for the neighbouring slider positions (real default model, a private cache per test)."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.chunking import ChunkerConfig, chunk_corpus
from ragviz.embedding.base import ENCODE_BATCH, Kind, Vectors
from ragviz.embedding.models import EmbeddingCache, UseMultilingual
from ragviz.evaluation.pipeline import analyse, embedding_text
from ragviz.inputs.corpus import as_corpus
from ragviz.inputs.questions import parse_questions_csv
from ragviz_app.jobs import (
    CancelledError,
    CancelToken,
    Precompute,
    cancellable,
    fill_cache,
    neighbour_values,
)

SAMPLES = Path(__file__).resolve().parent.parent / "sample_docs"
DOCUMENT = (SAMPLES / "politica_reembolso.txt").read_text(encoding="utf-8")
QUESTIONS = parse_questions_csv((SAMPLES / "politica_reembolso.csv").read_text("utf-8"))
SMALL = ChunkerConfig("fixed", size=20)  # 26 chunks of the 508-character sample: 2 batches


class Counted(UseMultilingual):
    """The real model, counting the texts it is actually given (``sent``)."""

    sent = 0

    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        self.sent += len(texts)
        return super()._encode(texts, kind)


@pytest.fixture(scope="module")
def shared_model() -> Counted:
    return Counted(cache=EmbeddingCache())


@pytest.fixture
def model(shared_model: Counted) -> Counted:
    """The loaded model with an empty cache of its own and its count at zero."""
    shared_model.cache = EmbeddingCache()
    shared_model.sent = 0
    return shared_model


def chunk_texts(config: ChunkerConfig) -> list[str]:
    return [embedding_text(c) for c in chunk_corpus(as_corpus(DOCUMENT), config).chunks]


def cached(model: Counted, texts: list[str]) -> int:
    return sum(model.cache.get((model.name, "document", t)) is not None for t in texts)


def test_a_cancelled_token_stops_analyse_after_the_batch_in_flight_and_keeps_it(
    model: Counted,
) -> None:
    token = CancelToken()

    def cancel_after_first_batch(done: int, total: int) -> None:
        if done >= ENCODE_BATCH:
            token.cancel()  # what a new slider move does from the page's thread

    texts = chunk_texts(SMALL)
    assert len(set(texts)) > ENCODE_BATCH
    with pytest.raises(CancelledError):
        analyse(DOCUMENT, SMALL, model, QUESTIONS,
                progress=cancellable(token, cancel_after_first_batch))
    assert model.sent == ENCODE_BATCH  # the second batch never reached the model
    assert cached(model, texts) == ENCODE_BATCH
    analyse(DOCUMENT, SMALL, model, QUESTIONS)  # going back: only the rest is embedded
    assert model.sent == len(set(texts)) + len(QUESTIONS)


def test_a_token_cancelled_before_the_start_embeds_nothing(model: Counted) -> None:
    token = CancelToken()
    token.cancel()
    with pytest.raises(CancelledError):
        fill_cache(DOCUMENT, SMALL, model, token)
    assert model.sent == 0


def test_neighbour_values_stay_inside_the_slider() -> None:
    assert neighbour_values(120, 20, 500, 10, True) == [110, 130]
    assert neighbour_values(20, 20, 500, 10, True) == [30]
    assert neighbour_values(500, 20, 500, 10, True) == [490]
    assert neighbour_values(0.5, 0.0, 1.0, 0.05, False) == [0.45, 0.55]


def test_precompute_fills_the_cache_so_the_next_step_calls_the_model_for_nothing(
    model: Counted,
) -> None:
    neighbours = [ChunkerConfig("fixed", size=110), ChunkerConfig("fixed", size=130)]
    job = Precompute(DOCUMENT, neighbours, model, idle_seconds=0).start()
    job.join(timeout=120)
    assert not job.running and job.finished == neighbours and not job.errors
    for config in neighbours:
        texts = chunk_texts(config)
        assert cached(model, texts) == len(texts)
    analyse(DOCUMENT, ChunkerConfig("fixed", size=130), model, [])
    before = model.sent
    analyse(DOCUMENT, ChunkerConfig("fixed", size=110), model, [])
    assert model.sent == before  # both neighbours are served from the cache


def test_precompute_cancelled_while_idle_embeds_nothing(model: Counted) -> None:
    job = Precompute(DOCUMENT, [ChunkerConfig("fixed", size=130)], model, idle_seconds=30)
    job.start()
    job.cancel()
    job.join(timeout=10)
    assert not job.running and job.finished == [] and model.sent == 0


def test_precompute_skips_an_invalid_configuration_and_fills_the_next(
    model: Counted,
) -> None:
    bad = ChunkerConfig("fixed", size=100, overlap=100)  # overlap must stay under the size
    good = ChunkerConfig("fixed", size=130)
    job = Precompute(DOCUMENT, [bad, good], model, idle_seconds=0).start()
    job.join(timeout=120)
    assert job.finished == [good] and len(job.errors) == 1
    assert cached(model, chunk_texts(good)) == len(chunk_texts(good))


def test_cancel_ends_the_background_jobs_api_request_in_flight() -> None:
    """A new slider move cancels the fill; with an embedding API that stalls (tests'
    hostile server: the probe answered, every batch trickled for two minutes), the batch in
    flight ends at the cancel, not at its 60 s deadline, and is no error of the job."""
    from ragviz.embedding.openai_api import OpenAIEmbedder
    from tests.hostile_server import hostile_server

    with hostile_server() as (root, state):
        embedder = OpenAIEmbedder("m", f"{root}/stall/v1", api_key="sk-test",
                                  cache=EmbeddingCache())
        job = Precompute(DOCUMENT, [SMALL], embedder, idle_seconds=0).start()
        assert state.wait_for("stall", 2, 15), "the job never asked the API"
        job.cancel()
        job.join(5)
        assert not job.running, "the request in flight outlived the cancel"
        assert job.errors == [] and job.finished == []
