"""The one analysis pipeline: chunk, embed, score, decide, diagnose, measure, calibrate.

The app, the CLI and the HTML report all call ``analyse`` (and ``rescore`` when only
top_k or the floor moved, which must feel instant: no re-chunking, no re-embedding).
Nothing here depends on the reader's language: sentences are made by
``ragviz.present.presentation`` from the facts returned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import overload

import numpy as np

from ragviz.chunking import Chunk, ChunkerConfig, ChunkingResult, chunk_corpus
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError
from ragviz.evaluation.chunk_table import ChunkTable
from ragviz.evaluation.diagnosis import diagnose, with_crowding, with_first_stage
from ragviz.evaluation.excerpts import question_excerpts, token_scores
from ragviz.evaluation.metrics import compute_metrics, outcome_calibration
from ragviz.evaluation.results import Analysis, QuestionOutcome, RetrievalSettings, Vectors
from ragviz.evaluation.winner_words import kept_winner_words, with_winner_words
from ragviz.i18n import Grouped
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.decision import Decision, decide, with_neighbours
from ragviz.retrieval.scorers import ScoreRow, get_scorer, prepare

Progress = Callable[[int, int], None]
# Chunks of one configuration over the whole corpus (see README "Input limits" for how long
# embedding that many takes here with the default model).
MAX_CHUNKS = 10_000
DEFAULT_SETTINGS = RetrievalSettings()


def embedding_text(chunk: Chunk) -> str:
    """The text the model embeds for a chunk: ``embedding_text`` when the chunk has one
    (e.g. a table row with its header as context), else the chunk's own text."""
    value = getattr(chunk, "embedding_text", None)
    return value if isinstance(value, str) else chunk.text


class TokenCounts(Sequence[int]):
    """Every chunk's token count, counted when first read: the views read the counts of
    the file they show, the CLI and exports all of them; a thousand-question evaluation
    reads none, and the model's tokenizer costs as much as the evaluation itself."""

    def __init__(self, chunks: Sequence[Chunk], embedder: Embedder) -> None:
        self._chunks = chunks
        self._embedder = embedder
        self._counted: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._chunks)

    @overload
    def __getitem__(self, position: int) -> int: ...
    @overload
    def __getitem__(self, position: slice) -> tuple[int, ...]: ...

    def __getitem__(self, position: int | slice) -> int | tuple[int, ...]:
        if isinstance(position, slice):
            return tuple(self[i] for i in range(len(self))[position])
        position = range(len(self))[position]  # IndexError past the end, like a tuple
        if position not in self._counted:
            text = embedding_text(self._chunks[position])
            self._counted[position] = self._embedder.count_tokens(text)
        return self._counted[position]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return tuple(self) == tuple(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"TokenCounts({len(self)} chunks)"


def truncation_offsets(chunks: Sequence[Chunk], embedder: Embedder) -> tuple[int | None, ...]:
    """Per chunk, the offset in its source where the model stops reading, or None.

    When the embedded text is a context prefix plus the chunk text, the prefix's length is
    taken off, so the offset still points into the chunk.
    """
    out: list[int | None] = []
    for chunk in chunks:
        text = embedding_text(chunk)
        offset = embedder.truncation_offset(text)
        if offset is None:
            out.append(None)
            continue
        prefix = len(text) - len(chunk.text) if text.endswith(chunk.text) else 0
        out.append(chunk.start + max(0, offset - prefix))
    return tuple(out)


def analyse(
    document: str | Corpus,
    config: ChunkerConfig,
    embedder: Embedder,
    questions: Sequence[LabelledQuestion],
    settings: RetrievalSettings = DEFAULT_SETTINGS,
    progress: Progress | None = None,
    chunking: ChunkingResult | None = None,
    query_vectors: Vectors | None = None,
) -> Analysis:
    """Chunk every source of the corpus (a plain text is a one-source corpus named "")
    with ``config``, embed through the cache, rank all chunks for every question: the one
    copy of that sequence (the app passes the chunks it already shows, a sweep the question
    vectors it shares across the grid). A plain text becomes a corpus here, once: every
    stage after it is handed that one corpus."""
    corpus = as_corpus(document)
    if chunking is None:
        chunking = chunk_checked(corpus, config, embedder)
    vectors = embed_chunks(chunking, embedder, progress)
    if query_vectors is None:
        query_vectors = encode_questions(embedder, questions)
    return analyse_chunked(corpus, config, embedder, questions, chunking, vectors,
                           query_vectors, settings)


def embed_chunks(chunking: ChunkingResult, embedder: Embedder,
                 progress: Progress | None = None) -> Vectors:
    """The vectors of the chunks' embedding texts, through the embedder's cache (progress
    is called after every batch: raising there stops the job, finished batches stay)."""
    return embedder.encode_documents([embedding_text(c) for c in chunking.chunks], progress)


def chunk_document(document: str | Corpus, config: ChunkerConfig,
                   embedder: Embedder | None = None) -> ChunkingResult:
    """The chunks of every source (no embedding): what the app shows before the vectors
    exist; refused when they are too many to embed."""
    return chunk_checked(as_corpus(document), config, embedder)


def chunk_checked(corpus: Corpus, config: ChunkerConfig,
                  embedder: Embedder | None = None) -> ChunkingResult:
    """``chunk_document`` of a corpus already made (``analyse`` makes it once)."""
    return check_chunk_count(chunk_corpus(corpus, config, embedder), config)


def check_chunk_count(chunking: ChunkingResult, config: ChunkerConfig) -> ChunkingResult:
    """Refuse a configuration that would make more chunks than are worth embedding here."""
    count = len(chunking.chunks)
    if count > MAX_CHUNKS:
        raise InputError(key="input.too_many_chunks", config=config.label(), n=count,
                         limit=Grouped(MAX_CHUNKS))
    return chunking


def encode_questions(embedder: Embedder, questions: Sequence[LabelledQuestion]) -> Vectors:
    """One query vector per question (an empty array for no questions)."""
    if not questions:
        return np.zeros((0, 0), dtype=np.float32)
    return embedder.encode_queries([q.question for q in questions])


def analyse_chunked(
    corpus: Corpus,
    config: ChunkerConfig,
    embedder: Embedder,
    questions: Sequence[LabelledQuestion],
    chunking: ChunkingResult,
    chunk_vectors: Vectors,
    query_vectors: Vectors,
    settings: RetrievalSettings = DEFAULT_SETTINGS,
    duplicate_groups: tuple[int, ...] = (),
) -> Analysis:
    """The pipeline after chunking and embedding (sweeps reuse vectors they already have).

    ``chunking`` must come from the same corpus (``chunk_corpus``; a plain text is
    ``as_corpus(text)``). ``duplicate_groups`` (a production index's copies, ``ragviz.index``)
    lets the diagnosis see copies crowding the top_k."""
    chunks = chunking.chunks
    scorer = get_scorer(settings.scorer)
    prepared = prepare(scorer, chunks, chunk_vectors, embedder)
    texts = [q.question for q in questions]
    score_rows = scorer.score_rows(prepared, texts, query_vectors)
    first_rows = scorer.first_rows(prepared, texts, query_vectors) \
        if hasattr(scorer, "first_rows") else None  # a reranked scorer's first stage
    analysis = analyse_scored(corpus, config, questions, chunking, score_rows, settings,
                              embedder.name, embedder, chunk_vectors, first_rows,
                              duplicate_groups)
    return replace(analysis, outcomes=with_winner_words(  # the same labels: the same metrics
        analysis.outcomes, chunking.chunks, settings.scorer))


def analyse_scored(
    corpus: Corpus,
    config: ChunkerConfig,
    questions: Sequence[LabelledQuestion],
    chunking: ChunkingResult,
    score_rows: Sequence[ScoreRow],
    settings: RetrievalSettings,
    model: str,
    embedder: Embedder | None = None,
    chunk_vectors: Vectors | None = None,
    first_rows: Sequence[ScoreRow | None] | None = None,
    duplicate_groups: tuple[int, ...] = (),
) -> Analysis:
    """The pipeline after scoring: decide, diagnose, measure, calibrate. Its scores come
    from ``settings.scorer`` (``analyse_chunked``) or from a user's own retriever
    (``ragviz.api``: NaN for a chunk it did not return); without ``embedder`` no chunk is
    known to be cut by the model and token counts are not known (empty)."""
    chunks = chunking.chunks
    truncation = truncation_offsets(chunks, embedder) if embedder is not None \
        else (None,) * len(chunks)
    outcomes = _outcomes(corpus, chunks, questions, score_rows, truncation, settings,
                         duplicate_groups, first_rows)
    return Analysis(
        document=corpus.sources[0].text if corpus.sources else "",
        config=config,
        model=model,
        settings=settings,
        chunking=chunking,
        chunk_vectors=np.zeros((len(chunks), 0), dtype=np.float32) if chunk_vectors is None
        else chunk_vectors,
        chunk_tokens=TokenCounts(chunks, embedder) if embedder is not None else (),
        truncation=truncation,
        outcomes=outcomes,
        metrics=compute_metrics(outcomes),
        calibration=outcome_calibration(outcomes, get_scorer(settings.scorer).scale),
        corpus=corpus,
        duplicate_groups=duplicate_groups,
    )


def rescore(analysis: Analysis, settings: RetrievalSettings) -> Analysis:
    """New decisions, diagnoses and metrics for another top_k or floor, reusing the scores
    already computed (another scorer means new scores: ``analyse`` again)."""
    if settings.scorer != analysis.settings.scorer:
        raise ValueError(f"rescore keeps the scorer {analysis.settings.scorer!r}; "
                         f"analyse again for {settings.scorer!r}")
    score_rows = [outcome.decision.scores for outcome in analysis.outcomes]
    questions = [outcome.question for outcome in analysis.outcomes]
    first_rows = [o.first_stage for o in analysis.outcomes] \
        if any(o.first_stage is not None for o in analysis.outcomes) else None
    outcomes = kept_winner_words(  # the same scores: the same winners, their words kept
        _outcomes(analysis.corpus, analysis.chunks, questions, score_rows,
                  analysis.truncation, settings, analysis.duplicate_groups, first_rows),
        analysis.outcomes)
    return replace(analysis, settings=settings, outcomes=outcomes,
                   metrics=compute_metrics(outcomes),
                   calibration=outcome_calibration(outcomes, get_scorer(settings.scorer).scale))


def _outcomes(
    corpus: Corpus,
    chunks: Sequence[Chunk],
    questions: Sequence[LabelledQuestion],
    score_rows: Sequence[ScoreRow],
    truncation: Sequence[int | None],
    settings: RetrievalSettings,
    groups: tuple[int, ...] = (),
    first_rows: Sequence[ScoreRow | None] | None = None,
) -> tuple[QuestionOutcome, ...]:
    out: list[QuestionOutcome] = []
    table = ChunkTable.of(chunks)
    scale = get_scorer(settings.scorer).scale
    no_match, floored = scale.no_match, settings.floor > scale.low
    firsts = list(first_rows) if first_rows is not None else [None] * len(questions)
    for question, scores, first in zip(questions, score_rows, firsts, strict=True):
        decision = decide(scores, settings.top_k, settings.floor, no_match, floored)
        first_stage = None if first is None else decide(first, settings.top_k, settings.floor)
        out.append(question_outcome(corpus, table, question, decision, truncation,
                                    settings.expand, groups, first_stage))
    return tuple(out)


def question_outcome(corpus: Corpus, table: ChunkTable, question: LabelledQuestion,
                     decision: Decision, truncation: Sequence[int | None], expand: int = 0,
                     groups: tuple[int, ...] = (), first_stage: Decision | None = None
                     ) -> QuestionOutcome:
    """One question's labels and token measures from one context: the hits and the
    ``expand`` neighbours of each, what the model receives. Labels and recall read the
    same context and the same excerpts, so they cannot disagree (DESIGN contract 7)."""
    chunks = table.chunk_list
    context = [hit.index for hit in with_neighbours(chunks, decision, expand)[0]]
    diagnosis = with_first_stage(with_crowding(
        diagnose(corpus, chunks, decision, question, truncation, table, context),
        decision, groups), first_stage)
    span = None if diagnosis is None else diagnosis.answer_span
    tokens = token_scores(question_excerpts(corpus, question, span), context, table)
    return QuestionOutcome(question, decision, diagnosis, tokens,
                           None if first_stage is None else first_stage.scores)
