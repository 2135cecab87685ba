"""Let the database retrieve (issue 21, part 8): an index too large to load is diagnosed from
what the database itself returns. For each question ragviz embeds the question, asks the
store for its top_k plus a margin, and asks the store's text filter for the chunks holding
the expected answer; the diagnosis then runs on those chunks only.

The exact check (issue 35, item 4): where the store has an exact search (pgvector with index
scans off, Qdrant's ``exact=True``, Chroma by brute force over its stored vectors), each
question's true top_k is fetched too; a chunk it ranks inside top_k that the database's own
top_k left out is ``ann-miss``, with the index's recall@k and the settings to raise. The
labels then read the database's own top_k, what production hands the model (``with_hits``):
a question whose answer the exact ranking would have sent and the index lost is ``ann-miss``
first, never ``ok``; one whose answer the database's top_k held is ``ok``, with ``ann-miss``
after it as a note when the index lost another chunk of the top_k.

Why the ranks match the in-memory mode: every question's true top (top_k + margin) is in
the fetched set, and any other fetched chunk scores lower, so the fetched set ranks them in
the same order. A chunk holding the answer but outside that top keeps its true score; its
rank among the fetched chunks is at most its rank in the whole index (so hit@k and the
labels are right, and MRR is at least the true one: ``ranks_past`` says by how much at
most, and the command says it). Chunk numbers are positions among the fetched chunks; each
chunk's ``id`` is the store's. Only the chunks some question's top_k hands on are
re-embedded to check their stored vectors (re-embedding is the slow part, and those are
what production gave the language model); the others' agreement is unknown.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, TypeVar

import numpy as np

from ragviz.embedding.models import Embedder
from ragviz.errors import IndexInputError
from ragviz.evaluation.answers import locate_in_corpus
from ragviz.evaluation.diagnosis import ANN_MISS, AnnMiss
from ragviz.evaluation.index_analysis import (
    IndexAnalysis,
    analyse_index,
    dimension_sentence,
    with_hits,
)
from ragviz.evaluation.measures import answer_rank
from ragviz.evaluation.metrics import compute_metrics
from ragviz.evaluation.pipeline import Progress, encode_questions
from ragviz.evaluation.results import QuestionOutcome, RetrievalSettings
from ragviz.index.base import IndexChunk, LoadedIndex, RetrievingIndex, Vector
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.scorers import DEFAULT_SCORER

MARGIN = 10  # chunks fetched past top_k per question
HOLDING_LIMIT = 20  # chunks holding one expected answer fetched at most
QUERY_BATCH = 100  # question vectors sent in one query
TIE = 1e-6  # a chunk scoring within this of the database's k-th is a tie, not a miss
_SHORTEST_PIECE = 4  # characters of an answer's prefix or suffix searched for a split
T = TypeVar("T")


@dataclass(frozen=True)
class DatabaseAnalysis:
    """The diagnosis on the fetched chunks, with how many the index holds and the time the
    database took (the rest is ragviz's)."""

    index_analysis: IndexAnalysis
    count: int  # chunks in the collection
    fetched: int  # chunks the database returned (distinct)
    margin: int
    database_seconds: float
    depth: int = 0  # each question's nearest chunks asked for: top_k + margin (or all)
    ann: AnnSummary | None = None  # the exact check (None: the store has no exact search)

    def mrr_past_depth(self) -> tuple[int, float]:
        """How many ranked questions hold their answer past ``depth``, and by how much the
        MRR shown may exceed the whole index's because of them (see ``ranks_past``)."""
        return ranks_past(self.index_analysis.analysis.outcomes, self.depth)


def ranks_past(outcomes: Sequence[QuestionOutcome], depth: int) -> tuple[int, float]:
    """Questions whose answer ranks past ``depth`` among the fetched chunks, and the most
    MRR can read high because of them. Within ``depth`` a rank is exact (every question's
    true top ``depth`` was fetched); past it, the rank among the fetched chunks is at most
    the true one, so each such question adds at most 1/rank over the questions MRR averages."""
    ranks = [r for r in (answer_rank(o) for o in outcomes) if r is not False]
    past = [r for r in ranks if r is not None and r > depth]
    return len(past), (sum(1 / r for r in past) / len(ranks) if ranks else 0.0)


def analyse_in_database(reader: RetrievingIndex, collection: str | None, embedder: Embedder,
                        questions: Sequence[LabelledQuestion], sources: Corpus | None = None,
                        settings: RetrievalSettings | None = None, margin: int = MARGIN,
                        progress: Progress | None = None) -> DatabaseAnalysis:
    """Diagnose ``questions`` on what the database retrieves (see the module's note);
    ``progress(done, total)`` after each question's text queries."""
    settings = settings or RetrievalSettings()
    info = reader.info(collection)
    if info.count == 0:
        raise IndexInputError(key="idx.collection_empty", name=repr(info.name),
                              where=getattr(reader, "where", ""))
    if info.dimension is not None and info.dimension != embedder.dimension:
        raise IndexInputError.of(dimension_sentence(info.dimension, embedder.name,
                                                    embedder.dimension))
    probe = _Probe(reader, info.name)
    fetched: dict[str, IndexChunk] = {}
    queries = encode_questions(embedder, questions)
    shown: set[str] = set()  # the chunks some question's top_k hands on: their vectors checked
    wanted = min(settings.top_k + margin, info.count)
    exact = _ExactCheck(reader, info.name, min(settings.top_k, info.count))
    for low in range(0, len(queries), QUERY_BATCH):
        batch = queries[low:low + QUERY_BATCH]
        rows = probe.clock(partial(reader.nearest, info.name, batch, wanted))
        for row in rows:
            fetched.update((c.id, c) for c in row)
            shown.update(c.id for c in row[:settings.top_k])
        fetched.update((c.id, c) for c in exact.compare(batch, rows))
    probe.prefetch([form for q in questions if q.is_answerable and q.expected
                    for form in (q.expected, *_as_written(q.expected, sources))])
    for done, question in enumerate(questions, start=1):
        fetched.update((c.id, c) for c in holding_chunks(probe, question, sources))
        if progress is not None:
            progress(done, len(questions))
    chunks = tuple(sorted(fetched.values(), key=_order))
    result = analyse_index(LoadedIndex(info.name, chunks), embedder, questions, sources,
                           settings, check=[i for i, c in enumerate(chunks) if c.id in shown])
    return DatabaseAnalysis(exact.label(result, questions), info.count, len(chunks), margin,
                            probe.clock.seconds, wanted, exact.summary())


@dataclass(frozen=True)
class AnnSummary:
    """The exact check over the questions: the index's recall@k (the share of the exact
    top_k chunks the database's own top_k returned), the questions it missed a chunk for,
    the settings that govern it, and the seconds the exact queries took."""

    recall: float
    missed: int
    settings: str
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {"recall_at_k": round(self.recall, 6), "questions_missed": self.missed,
                "settings": self.settings, "exact_seconds": round(self.seconds, 3)}


class _ExactCheck:
    """The true top_k of every question (the store's exact search: a flat scan), compared
    with what its own search returned: a chunk exact search ranks inside top_k and the
    database's top_k left out (scoring above the database's k-th, so ties are no miss)."""

    def __init__(self, reader: RetrievingIndex, name: str, top_k: int) -> None:
        self.search = getattr(reader, "exact_nearest", None)
        self.reader, self.name, self.top_k, self.clock = reader, name, top_k, _Clock()
        self.missed: list[list[tuple[int, str]]] = []  # per question: (exact rank, id)
        self.given: list[list[str]] = []  # per question: the ids of the database's top_k

    def compare(self, queries: Vector, rows: list[list[IndexChunk]]) -> list[IndexChunk]:
        """The exact top_k of ``queries`` (to be fetched too), the misses recorded."""
        if self.search is None or self.top_k == 0:
            return []
        exact = self.clock(partial(self.search, self.name, queries, self.top_k))
        for query, found, true in zip(queries, rows, exact, strict=True):
            given = found[:self.top_k]
            floor = min((_score(query, c) for c in given), default=-2.0)
            ids = {c.id for c in given}
            self.given.append([c.id for c in given])
            self.missed.append([(rank, c.id) for rank, c in enumerate(true, start=1)
                                if c.id not in ids and _score(query, c) > floor + TIE])
        return [c for row in exact for c in row]

    def summary(self) -> AnnSummary | None:
        if self.search is None or not self.missed:
            return None
        lost = sum(len(m) for m in self.missed)
        recall = 1.0 - lost / (self.top_k * len(self.missed))
        return AnnSummary(recall, sum(bool(m) for m in self.missed), self.settings(),
                          self.clock.seconds)

    def settings(self) -> str:
        tell = getattr(self.reader, "search_settings", None)
        return str(tell(self.name)) if tell is not None else "the index's search breadth"

    def label(self, result: IndexAnalysis,
              questions: Sequence[LabelledQuestion]) -> IndexAnalysis:
        """``result`` labelled from what the database's own top_k sent, for each question
        whose top_k left out a chunk exact search ranks inside it: ``ann-miss`` first when
        that lost the answer (the diagnosis finds it so), else after the other labels, the
        answer's chunk named first when missed. With another scorer than the stored
        vectors' cosine (a reranker, BM25) the chunks sent are not the database's top_k:
        ``ann-miss`` is added after the labels."""
        summary = self.summary()
        if summary is None or not summary.missed:
            return result
        by_question = {q.question: (m, g) for q, m, g in
                       zip(questions, self.missed, self.given, strict=True)}
        position = {c.id: i for i, c in enumerate(result.index.chunks)}
        lost = {n: by_question[o.question.question] for n, o in
                enumerate(result.analysis.outcomes)
                if by_question.get(o.question.question, ((), ()))[0]}
        sent = result.analysis.outcomes
        if result.analysis.settings.scorer == DEFAULT_SCORER:
            sent = with_hits(result, {n: [position[i] for i in given]
                                      for n, (_, given) in lost.items()})
        outcomes = list(sent)
        for n, (missed, _) in lost.items():
            found = outcomes[n].diagnosis
            if found is None:
                continue
            rank, chunk = next(((r, i) for r, i in missed
                                if position[i] in found.holding_chunks), missed[0])
            miss = found.ann_miss or AnnMiss(position[chunk], rank)
            labels = found.labels if ANN_MISS in found.labels else (*found.labels, ANN_MISS)
            outcomes[n] = replace(outcomes[n], diagnosis=replace(
                found, labels=labels, ann_miss=replace(miss, recall=summary.recall,
                                                       settings=summary.settings)))
        analysis = replace(result.analysis, outcomes=tuple(outcomes),
                           metrics=compute_metrics(outcomes))
        return replace(result, analysis=analysis)


def _score(query: Vector, chunk: IndexChunk) -> float:
    return -2.0 if chunk.vector is None else float(np.dot(query, chunk.vector))


class _Clock:
    """Adds up the time spent in the database's calls."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self, call: Callable[[], T]) -> T:
        started = time.perf_counter()
        try:
            return call()
        finally:
            self.seconds += time.perf_counter() - started


class _Probe:
    """The database's text filter, timed, each string asked once (questions share answers)."""

    def __init__(self, reader: RetrievingIndex, name: str) -> None:
        self.reader, self.name, self.clock = reader, name, _Clock()
        self._asked: dict[str, list[IndexChunk]] = {}

    def prefetch(self, texts: Sequence[str]) -> None:
        """Every string of ``texts`` asked at once when the store can (one pass over its
        chunks instead of one per string); a store that cannot, or a pass that hit its cap,
        leaves them to be asked one by one."""
        many = getattr(self.reader, "containing_many", None)
        wanted = [t for t in dict.fromkeys(texts) if t and t not in self._asked]
        if many is None or not wanted:
            return
        found = self.clock(partial(many, self.name, wanted, HOLDING_LIMIT))
        if found is not None:
            self._asked.update(found)

    def __call__(self, text: str) -> list[IndexChunk]:
        if text not in self._asked:
            self._asked[text] = self.clock(partial(self.reader.containing, self.name, text,
                                                   HOLDING_LIMIT))
        return self._asked[text]


def holding_chunks(probe: Callable[[str], list[IndexChunk]], question: LabelledQuestion,
                   sources: Corpus | None) -> Iterator[IndexChunk]:
    """The chunks holding the question's expected answer, as typed and as the source files
    write it (the diagnosis finds answers ignoring case and accents; the database's filter
    is exact); for a written answer no chunk holds whole (cut between chunks), the chunks
    holding its longest prefix and its longest suffix: those it straddles. A written form
    that a chunk holds is found by its own query, so a form whose query finds none is held
    by no chunk of the collection."""
    if not question.is_answerable or not question.expected:
        return
    yield from probe(question.expected)
    for written in _as_written(question.expected, sources):
        found = probe(written)
        yield from found
        if not found:
            for from_end in (False, True):
                yield from _longest_piece(probe, written, from_end)


def _as_written(answer: str, sources: Corpus | None) -> list[str]:
    """The answer as each source file writes it (each distinct form once)."""
    if sources is None:
        return []
    return list(dict.fromkeys(sources.source(s.source).text[s.start:s.end]
                              for s in locate_in_corpus(sources, answer)))


def _longest_piece(probe: Callable[[str], list[IndexChunk]], answer: str,
                   from_end: bool) -> list[IndexChunk]:
    """The chunks holding the answer's longest prefix (or suffix) that some chunk holds, down
    to a few characters. A chunk holding a piece holds every shorter one, so the longest is
    found by halving: at most ``probes_per_side(len(answer))`` queries, where asking every
    length took one query per character (20 answers of 2,000 characters: 141 s)."""
    low, high = _SHORTEST_PIECE, len(answer) - 1
    best: list[IndexChunk] = []
    while low <= high:
        length = (low + high) // 2
        found = probe(answer[-length:] if from_end else answer[:length])
        if found:
            best, low = found, length + 1
        else:
            high = length - 1
    return best


def probes_per_side(length: int) -> int:
    """The most queries ``_longest_piece`` asks for an answer of ``length`` characters."""
    return max(0, length - _SHORTEST_PIECE).bit_length()


def _order(chunk: IndexChunk) -> tuple[Any, ...]:
    """Fetched chunks in document order: by source, offsets when known, then the id with
    its numbers compared as numbers (``c2`` before ``c10``)."""
    natural = tuple((0, int(p), "") if p.isdigit() else (1, 0, p)
                    for p in re.split(r"(\d+)", chunk.id) if p)
    return (chunk.source, chunk.start is None, chunk.start or 0, natural)
