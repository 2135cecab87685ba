"""Let the database retrieve (issue 21, part 8): an index too large to load is diagnosed from
what the database itself returns. For each question ragviz embeds the question, asks the
store for its top_k plus a margin, and asks the store's text filter for the chunks holding
the expected answer; the diagnosis then runs on those chunks only.

Why the labels match the in-memory mode: every question's true top (top_k + margin) is in
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
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from ragviz.embedding.models import Embedder
from ragviz.evaluation.answers import locate_in_corpus
from ragviz.evaluation.measures import answer_rank
from ragviz.evaluation.pipeline import Progress, encode_questions
from ragviz.evaluation.results import QuestionOutcome, RetrievalSettings
from ragviz.index.analysis import IndexAnalysis, analyse_index
from ragviz.index.base import IndexChunk, IndexInputError, LoadedIndex, RetrievingIndex
from ragviz.index.messages import Sentence
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion

MARGIN = 10  # chunks fetched past top_k per question
HOLDING_LIMIT = 20  # chunks holding one expected answer fetched at most
QUERY_BATCH = 100  # question vectors sent in one query
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
        raise IndexInputError(key="index.collection_empty", name=repr(info.name),
                              where=getattr(reader, "where", ""))
    if info.dimension is not None and info.dimension != embedder.dimension:
        raise IndexInputError(Sentence("dimension", stored=info.dimension,
                                       model=embedder.name, dimension=embedder.dimension))
    probe = _Probe(reader, info.name)
    fetched: dict[str, IndexChunk] = {}
    queries = encode_questions(embedder, questions)
    shown: set[str] = set()  # the chunks some question's top_k hands on: their vectors checked
    wanted = min(settings.top_k + margin, info.count)
    for low in range(0, len(queries), QUERY_BATCH):
        batch = queries[low:low + QUERY_BATCH]
        for row in probe.clock(partial(reader.nearest, info.name, batch, wanted)):
            fetched.update((c.id, c) for c in row)
            shown.update(c.id for c in row[:settings.top_k])
    for done, question in enumerate(questions, start=1):
        fetched.update((c.id, c) for c in holding_chunks(probe, question, sources))
        if progress is not None:
            progress(done, len(questions))
    chunks = tuple(sorted(fetched.values(), key=_order))
    result = analyse_index(LoadedIndex(info.name, chunks), embedder, questions, sources,
                           settings, check=[i for i, c in enumerate(chunks) if c.id in shown])
    return DatabaseAnalysis(result, info.count, len(chunks), margin, probe.clock.seconds, wanted)


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
