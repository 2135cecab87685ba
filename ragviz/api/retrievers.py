"""A user's own retriever, evaluated as ragviz's own ranking: LangChain's ``BaseRetriever``
(``invoke``), a LlamaIndex retriever (``retrieve``), or any callable ``question -> list of
str | Document | (text, score)``.

Each returned text is located in the corpus (its metadata's ``source`` and ``start_index``
first when they hold, then the exact text, then the same words with any whitespace). The
chunks are the distinct places returned, plus the stretches of text nothing returned
(never retrieved, so a missed answer still has a chunk to be found in). A question's scores
are the retriever's when it gives them falling with its order, else ``1 / rank``; a chunk it
did not return for that question has no score (NaN) and so no rank: an answer only such a
chunk holds is a miss for hit@k and counts 0 for MRR, and recall and precision read what it
returned (``Evaluation.explain`` says so).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

import numpy as np

from ragviz.chunking import ChunkerConfig
from ragviz.chunking.base import Chunk, ChunkingResult, make_chunk
from ragviz.chunking.peers.common import loose_find
from ragviz.chunking.spans import difference
from ragviz.chunking.text import trim_span
from ragviz.errors import InputError
from ragviz.evaluation.excerpts import source_for
from ragviz.index.base import metadata_offsets, source_of
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.documents import shorten
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.scorers import ScoreRow

Place = tuple[str, int, int]  # source, start, end
MAX_RETURNED = 1_000  # texts one question may return


@dataclass(frozen=True)
class Returned:
    """One item a retriever returned: its text, its score (None: not given), its metadata."""

    text: str
    score: float | None
    metadata: dict[str, Any]


@dataclass(frozen=True)
class Retrieved:
    """What a retriever returned for every question, placed in the corpus."""

    chunking: ChunkingResult
    score_rows: tuple[ScoreRow, ...]
    returned: tuple[tuple[int, ...], ...]  # per question, the chunks returned, in its order


def retriever_name(retriever: object) -> str:
    """The name an evaluation's header gives the retriever (its class, or its function)."""
    if not hasattr(retriever, "invoke") and not hasattr(retriever, "retrieve"):
        name = getattr(retriever, "__name__", None)
        if isinstance(name, str):
            return name
    return type(retriever).__name__


def _libraries(thing: object) -> set[str]:
    """The top-level packages of ``thing``'s class and its bases (a user's subclass of
    LangChain's ``BaseRetriever`` lives in the user's module)."""
    return {(cls.__module__ or "").split(".")[0] for cls in type(thing).__mro__}


def asker(retriever: object) -> Callable[[str], Sequence[Any]]:
    """The call that asks ``retriever`` one question: LangChain's ``invoke``, LlamaIndex's
    ``retrieve``, or the callable itself."""
    libraries = _libraries(retriever)
    if "langchain_core" in libraries and hasattr(retriever, "invoke"):
        return retriever.invoke  # type: ignore[no-any-return]
    if "llama_index" in libraries and hasattr(retriever, "retrieve"):
        return retriever.retrieve  # type: ignore[no-any-return]
    for method in ("invoke", "retrieve"):
        if callable(getattr(retriever, method, None)):
            return getattr(retriever, method)  # type: ignore[no-any-return]
    if callable(retriever):
        return retriever
    raise InputError(key="python.retriever_type", got=type(retriever).__name__)


def returned_item(item: Any) -> Returned:
    """A string, a LangChain ``Document``, a LlamaIndex ``NodeWithScore`` or node, or a
    ``(text or document, score)`` pair, as one ``Returned``."""
    score: float | None = None
    if isinstance(item, tuple) and len(item) == 2:
        item, raw = item
        score = float(raw) if isinstance(raw, int | float) and not isinstance(raw, bool) else None
    if hasattr(item, "node") and hasattr(item, "score"):  # LlamaIndex NodeWithScore
        raw = item.score
        score = float(raw) if isinstance(raw, int | float) and score is None else score
        item = item.node
    if isinstance(item, str):
        return Returned(item, score, {})
    metadata = dict(getattr(item, "metadata", None) or {})
    if isinstance(getattr(item, "page_content", None), str):  # LangChain Document
        return Returned(item.page_content, score, metadata)
    if hasattr(item, "get_content"):  # a LlamaIndex node: its own offsets when it has them
        for key in ("start_char_idx", "end_char_idx"):
            if isinstance(getattr(item, key, None), int):
                metadata.setdefault(key, getattr(item, key))
        return Returned(str(item.get_content()), score, metadata)
    if isinstance(getattr(item, "text", None), str):
        return Returned(item.text, score, metadata)
    raise InputError(key="python.retrieved_type", got=type(item).__name__)


def retrieve_all(retriever: object, questions: Sequence[LabelledQuestion],
                 corpus: Corpus) -> Retrieved:
    """Ask every question, place every text, and build the chunks and score rows."""
    ask = asker(retriever)
    answers: list[list[Returned]] = []
    for question in questions:
        items = list(ask(question.question) or [])[:MAX_RETURNED]
        answers.append([returned_item(item) for item in items])
    places: dict[Place, None] = {}
    placed: list[list[tuple[Place, float | None]]] = []
    missing: list[str] = []
    for items in answers:
        row = []
        for item in items:
            place = locate(corpus, item)
            if place is None:
                missing.append(item.text)
                continue
            places.setdefault(place)
            row.append((place, item.score))
        placed.append(row)
    if missing:
        shown = ", ".join(shorten(text, 60, quote=True) for text in dict.fromkeys(missing))
        raise InputError(key="python.retrieved_not_found", n=len(set(missing)), texts=shown)
    chunks = _chunks(corpus, list(places))
    position = {(c.source, c.start, c.end): c.index for c in chunks}
    rows: list[ScoreRow] = []
    returned: list[tuple[int, ...]] = []
    for row in placed:
        indices = [position[place] for place, _ in row]
        rows.append(_scores(len(chunks), indices, [score for _, score in row]))
        returned.append(tuple(dict.fromkeys(indices)))
    return Retrieved(ChunkingResult(chunks), tuple(rows), tuple(returned))


def locate(corpus: Corpus, item: Returned) -> Place | None:
    """Where a returned text is: its metadata's file and offsets when they slice that text,
    else its first copy in that file (in every file when none is named), else the same words
    with other whitespace; None when it is nowhere."""
    text = item.text
    if not text.strip():
        return None
    named = source_for(corpus, source_of(item.metadata)) if source_of(item.metadata) else None
    files = [named] if named is not None else list(corpus.names)
    start, _ = metadata_offsets(text, item.metadata)
    if named is not None and start is not None:
        document = corpus.source(named).text
        if document[start:start + len(text)] == text:
            return named, start, start + len(text)
    for name in files:
        found = corpus.source(name).text.find(text)
        if found >= 0:
            return name, found, found + len(text)
    for name in files:
        span = loose_find(corpus.source(name).text, text)
        if span is not None:
            return name, span[0], span[1]
    return None


def _chunks(corpus: Corpus, places: list[Place]) -> tuple[Chunk, ...]:
    """The places returned (each once, as returned) and the stretches of text between
    them (trimmed of edge whitespace), in corpus order."""
    order = {name: n for n, name in enumerate(corpus.names)}
    spans = list(dict.fromkeys(places))
    for name in corpus.names:
        text = corpus.source(name).text
        covered = [(s, e) for n, s, e in spans if n == name]
        for start, end in difference((0, len(text)), covered):
            start, end = trim_span(text, start, end)
            if start < end:
                spans.append((name, start, end))
    spans.sort(key=lambda p: (order[p[0]], p[1], p[2]))
    return tuple(make_chunk(corpus.source(name).text, index, start, end, source=name)
                 for index, (name, start, end) in enumerate(spans))


def _scores(count: int, indices: list[int], given: list[float | None]) -> ScoreRow:
    """NaN for the chunks not returned; the retriever's scores when it gave them all,
    finite and not rising along its order, else ``1 / rank``."""
    row = np.full(count, np.nan)
    scores = [s for s in given if s is not None and math.isfinite(s)]
    falling = len(scores) == len(given) and all(a >= b for a, b in pairwise(scores))
    for rank, (index, score) in enumerate(zip(indices, given, strict=True), start=1):
        if math.isnan(row[index]):  # the first time a chunk is returned counts
            row[index] = score if falling and score is not None else 1.0 / rank
    return row


def retriever_config(retriever: object) -> ChunkerConfig:
    """The configuration that names the chunks a retriever returned (its class)."""
    return ChunkerConfig(retriever_name(retriever))
