"""A long sweep the user controls (issue 44.4): progress within a configuration (texts
embedded of all, with the time left from the pace so far), a stop between embedding
batches that keeps the rows finished, and the cost said before the sweep starts."""

from __future__ import annotations

import uuid

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.results import RetrievalSettings
from ragviz.evaluation.sweep_cost import LONG_SECONDS, SweepCost, labelled_files, sweep_cost
from ragviz.evaluation.sweeping import SweepStep, run_sweep, seconds_left_at
from ragviz.inputs.corpus import Corpus, Source
from ragviz.inputs.questions import LabelledQuestion, Reference

SETTINGS = RetrievalSettings(top_k=2, floor=-1.0)


def fresh_document(lines: int = 120) -> str:
    """Text no test embedded before (a new word on every line): every chunk is a miss."""
    tag = uuid.uuid4().hex
    return "\n".join(f"Line {i} of {tag}: the refund takes {i % 9 + 2} working days."
                     for i in range(lines))


def test_progress_moves_within_a_configuration_and_says_the_time_left(
        use_model: Embedder, seed_questions: list[LabelledQuestion]) -> None:
    grid = [ChunkerConfig("fixed", size=s, overlap=0) for s in (60, 90)]
    steps: list[SweepStep] = []
    result = run_sweep(fresh_document(), seed_questions, use_model, grid, SETTINGS,
                       report=steps.append)
    assert result.complete and len(result.rows) == 2
    inside = [s for s in steps if s.rows_done == 0 and s.texts_done > 0]
    assert len(inside) >= 2, "several reports before the first configuration is done"
    assert inside[0].texts_done < inside[-1].texts_done <= steps[-1].texts_total
    assert inside[0].seconds_left() is not None, "a pace once the first batch is in"


def test_a_stop_between_batches_keeps_the_rows_finished(
        use_model: Embedder, seed_questions: list[LabelledQuestion]) -> None:
    """Cancel lands inside the second configuration's embedding: it stops there, the
    first configuration's row is kept and the rest of the texts are not embedded."""
    grid = [ChunkerConfig("fixed", size=s, overlap=0) for s in (400, 50, 70)]
    steps: list[SweepStep] = []

    def stop() -> bool:  # the user's Cancel, once the second configuration has begun
        return any(s.rows_done == 1 and s.texts_done > steps[0].texts_done for s in steps[1:])

    before = use_model.texts_encoded
    result = run_sweep(fresh_document(300), seed_questions, use_model, grid, SETTINGS,
                       report=steps.append, stop=stop)
    assert not result.complete
    assert [row.config for row in result.rows] == grid[:1]
    assert steps[-1].rows_done == 1 and steps[-1].texts_done < steps[-1].texts_total
    assert use_model.texts_encoded - before < steps[-1].texts_total


def test_the_cost_is_known_before_the_sweep(use_model: Embedder,
                                            seed_questions: list[LabelledQuestion]) -> None:
    document = fresh_document()
    grid = [ChunkerConfig("fixed", size=s, overlap=0) for s in (60, 90)]
    cost = sweep_cost(document, grid, use_model, ("cosine", "bm25"))
    assert cost.rows == 4
    assert cost.chunks > cost.texts / 2 and cost.texts > 50
    assert cost.seconds is not None and cost.seconds > 0
    run_sweep(document, seed_questions, use_model, grid, SETTINGS)
    again = sweep_cost(document, grid, use_model)
    assert (again.cached, again.texts, again.seconds) == (cost.texts, cost.texts, 0.0)
    assert not again.long and SweepCost(1, 1, 1, 0, LONG_SECONDS + 1).long


def test_the_smaller_corpus_keeps_the_labelled_files() -> None:
    corpus = Corpus((Source("a.md", "Refunds take 7 working days."),
                     Source("b.md", "Shipping is free."), Source("c.md", "Wifi is free.")))
    questions = [LabelledQuestion("refund?", "7 working days"),
                 LabelledQuestion("wifi?", references=(Reference("Wifi", source="c"),))]
    assert labelled_files(corpus, questions).names == ("a.md", "c.md")
    assert labelled_files(corpus, []).names == corpus.names


def test_a_long_embedding_says_the_time_left_from_its_pace() -> None:
    assert seconds_left_at(0, 100, 3.0) is None, "no pace before the first batch"
    assert seconds_left_at(25, 100, 10.0) == 30.0
    assert seconds_left_at(100, 100, 10.0) == 0.0


class _StoppedError(Exception):
    """The caller's stop, raised from the embedding's progress callback (as the sweep does)."""


def test_a_stop_is_heard_while_the_texts_are_read_before_any_batch(
        minilm_model: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before its first batch the model reads every text of the wave (MiniLM tokenises each
    to find where it stops reading): a Cancel pressed then waited for all of them (2,800
    texts, seconds); it is heard within 64 now, and nothing is embedded."""
    read: list[str] = []
    reading = minilm_model.reading_pieces

    def counting(text: str) -> list[str]:
        read.append(text)
        return reading(text)

    monkeypatch.setattr(minilm_model, "reading_pieces", counting)
    texts = fresh_document(300).splitlines()
    pressed: list[int] = []

    def progress(done: int, total: int) -> None:
        pressed.append(done)
        raise _StoppedError

    with pytest.raises(_StoppedError):
        minilm_model.encode_documents(texts, progress)
    assert pressed == [0] and len(read) <= 64 < len(texts)
    assert not minilm_model.cached_texts(texts), "nothing embedded"
