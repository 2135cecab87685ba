"""The fast paths of the evaluation (issue 20: a thousand questions over ten thousand chunks)
give what the straightforward definitions give, on drawn cases: the decision without a full
sort, the chunk table's numpy queries, the per-character normalisation spread with numpy,
the token measures (against sets of characters) and the token counts counted when read."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ragviz.chunking import ChunkerConfig, chunk_corpus
from ragviz.chunking.base import Chunk
from ragviz.embedding.models import Embedder
from ragviz.evaluation.answers import AnswerSpan, _normalised_document, _normalised_with_map
from ragviz.evaluation.chunk_table import ChunkTable
from ragviz.evaluation.excerpts import Excerpt, token_scores
from ragviz.evaluation.pipeline import analyse_chunked, embed_chunks, embedding_text, rescore
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.corpus import Corpus, Source
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.decision import decide, rank
from tests.test_excerpts import cases

# few distinct values, so ties are common; NaN now and then
SCORES = st.lists(st.sampled_from([-0.5, 0.0, -0.0, 0.1, 0.25, 0.25, 0.7, 1.0, float("nan")]),
                  min_size=1, max_size=40)


@given(SCORES, st.integers(1, 45), st.sampled_from([0.0, 0.2, -1.0]),
       st.sampled_from([np.float32, np.float64]))
def test_a_decision_ranks_as_a_full_stable_sort_would(
        values: list[float], top_k: int, floor: float, dtype: type) -> None:
    scores = np.array(values, dtype=dtype)
    decision = decide(scores, top_k, floor)
    order = np.argsort(-scores, kind="stable").tolist()
    assert [h.index for h in decision.hits] == [i for i in order[:top_k] if scores[i] >= floor]
    assert decision.best_index == order[0]
    assert [decision.rank_of(i) for i in range(len(values))] == \
        [order.index(i) + 1 for i in range(len(values))]
    assert decision.ranking.tolist() == order == rank(scores).tolist()


@st.composite
def chunk_lists(draw: st.DrawFn) -> tuple[list[Chunk], AnswerSpan]:
    """Two files of 60 characters cut at drawn points, with drawn overlaps, and a span."""
    chunks, _, _ = draw(cases())
    start = draw(st.integers(0, 59))
    span = AnswerSpan(start, draw(st.integers(start + 1, 60)), True,
                      draw(st.sampled_from(["x", "y", "z"])))
    return chunks, span


@given(chunk_lists())
def test_the_chunk_table_answers_as_a_walk_over_the_chunks(
        case: tuple[list[Chunk], AnswerSpan]) -> None:
    chunks, span = case
    table = ChunkTable(chunks)
    assert table.holding(span) == tuple(
        c.index for c in chunks
        if c.source == span.source and c.start <= span.start and span.end <= c.end)
    assert table.touching(span) == tuple(
        c.index for c in chunks
        if c.source == span.source and c.start < span.end and span.start < c.end)


# spaces of several kinds, accents composed and combining, ligatures, characters whose
# decomposition starts with a space (¨, ´), a character folding to two (ß), a lone surrogate
TRICKY = "aZé \t\n\u00a0\u2003\u00a8\u00b4\u0301\ufb01\u01c4\u00df\u0130\ud800.1"


@given(st.text(alphabet=TRICKY, max_size=30))
def test_a_documents_normalisation_is_the_character_by_character_one(text: str) -> None:
    normalised, origin = _normalised_document(text)
    expected, expected_origin = _normalised_with_map(text)
    assert normalised == expected
    assert origin.tolist() == expected_origin


def _by_sets(chunks: list[Chunk], excerpts: list[Excerpt], retrieved: list[int]
             ) -> tuple[float, float, float, float, tuple[int, ...]]:
    """The measures of Chroma's report from sets of (file, character) pairs."""
    def chars(source: str, start: int, end: int) -> set[tuple[str, int]]:
        return {(source, i) for i in range(start, end)}

    wanted = set().union(*(chars(e.source, e.start, e.end) for e in excerpts))
    got = set().union(*(chars(chunks[i].source, chunks[i].start, chunks[i].end)
                        for i in retrieved))
    summed = sum(chunks[i].end - chunks[i].start for i in retrieved)
    covered = len(wanted & got)
    holding = [c for c in chunks if chars(c.source, c.start, c.end) & wanted]
    missed = tuple(n for n, e in enumerate(excerpts, start=1)
                   if not chars(e.source, e.start, e.end) <= got)
    return (covered / len(wanted), covered / summed if summed else 0.0,
            covered / (summed + len(wanted) - covered),
            len(wanted) / sum(c.end - c.start for c in holding), missed)


@given(cases())
def test_token_measures_are_the_character_set_definitions(
        case: tuple[list[Chunk], list[Excerpt], list[int]]) -> None:
    chunks, excerpts, retrieved = case
    scores = token_scores(excerpts, retrieved, ChunkTable(chunks))
    assert scores is not None
    recall, precision, iou, omega, missed = _by_sets(chunks, excerpts, retrieved)
    assert (scores.recall, scores.precision, scores.iou, scores.precision_omega) == \
        pytest.approx((recall, precision, iou, omega))
    assert scores.missed_excerpts == missed


def test_token_counts_are_counted_when_read_and_equal_the_models(
        use_model: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Evaluating counts no chunk's tokens (the tokenizer cost as much as the rest of a
    thousand-question run); reading the counts gives the model's count of each chunk."""
    corpus = Corpus((Source("a.txt", "Refunds take seven days. " * 12),
                     Source("b.txt", "Support answers from 9 to 18. " * 9)))
    config = ChunkerConfig("fixed", size=80, overlap=0)
    chunking = chunk_corpus(corpus, config)
    vectors = embed_chunks(chunking, use_model)
    questions = [LabelledQuestion("How long do refunds take?", "seven days")]
    counted: list[str] = []
    count = use_model.count_tokens
    monkeypatch.setattr(use_model, "count_tokens",
                        lambda text: counted.append(text) or count(text))
    analysis = analyse_chunked(corpus, config, use_model, questions, chunking, vectors,
                               use_model.encode_queries([q.question for q in questions]))
    assert counted == []
    assert analysis.chunk_tokens[2] == count(embedding_text(chunking.chunks[2]))
    assert len(counted) == 1
    assert list(analysis.chunk_tokens) == [count(embedding_text(c)) for c in chunking.chunks]
    assert analysis.chunk_tokens == tuple(analysis.chunk_tokens)


def test_rescoring_needs_no_model_and_equals_a_fresh_analysis(
        use_model: Embedder, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another top_k or floor reuses the scores: the model is never asked (encoding, token
    counts, truncation), and the outcomes are those of analysing with the new settings."""
    corpus = Corpus((Source("a.txt", "Refunds take seven days. Shipping is free. " * 6),
                     Source("b.txt", "Support answers from 9 to 18 on weekdays. " * 6)))
    config = ChunkerConfig("fixed", size=70, overlap=10)
    chunking = chunk_corpus(corpus, config)
    vectors = embed_chunks(chunking, use_model)
    questions = [LabelledQuestion("How long do refunds take?", "seven days"),
                 LabelledQuestion("When does support answer?", "from 9 to 18"),
                 LabelledQuestion("Is there wifi?", "", False)]
    queries = use_model.encode_queries([q.question for q in questions])
    first = analyse_chunked(corpus, config, use_model, questions, chunking, vectors, queries)
    settings = RetrievalSettings(top_k=3, floor=0.3)
    fresh = analyse_chunked(corpus, config, use_model, questions, chunking, vectors, queries,
                            settings)
    for name in ("encode", "encode_queries", "encode_documents", "count_tokens",
                 "truncation_offset", "token_info"):
        monkeypatch.setattr(use_model, name, _no_model)
    again = rescore(first, settings)
    assert again.outcomes == fresh.outcomes
    assert again.metrics == fresh.metrics


def _no_model(*_args: object, **_kwargs: object) -> None:
    raise AssertionError("rescoring asked the model")


@given(st.lists(st.lists(st.one_of(st.floats(-1, 1), st.just(float("nan"))), max_size=8),
                max_size=6))
def test_the_floor_range_reads_each_questions_lowest_score(rows: list[list[float]]) -> None:
    """The floor slider's range, read on every step from each question's lowest finite score
    (numpy, per question) instead of every score turned into one list: the same lowest."""
    from types import SimpleNamespace

    from ragviz_app.app_state import floor_range
    from ragviz_app.frame import lowest_scores

    analysis = SimpleNamespace(outcomes=[
        SimpleNamespace(decision=SimpleNamespace(scores=np.array(row, dtype=np.float64)))
        for row in rows])
    every = [s for row in rows for s in row if np.isfinite(s)]
    assert floor_range(lowest_scores([analysis, None])) == floor_range(every)  # type: ignore[list-item]
