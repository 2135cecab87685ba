"""Ranking, the decision with a floor, and prompt assembly (scores come from ``scorers``).

``top_k`` alone always returns k chunks because cosine similarity is never zero; the floor
is what lets retrieval say "not found". Ties are broken by chunk order so every result is
deterministic.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from ragviz.chunking.base import Chunk
from ragviz.chunking.spans import difference
from ragviz.i18n import SOURCE_LANGUAGE, catalog_text


@dataclass(frozen=True)
class Hit:
    """A chunk selected for a question, with its cosine score."""

    index: int
    score: float


Scores = npt.NDArray[np.floating[Any]]
Ranking = npt.NDArray[np.intp]


@dataclass(frozen=True, eq=False)
class Decision:
    """What retrieval hands on for one question: hits, or a refusal when hits is empty.

    ``scores`` (one per chunk, in chunk order) is a read-only numpy array: a thousand
    questions over ten thousand chunks are 80 MB of arrays, where tuples of Python numbers
    took gigabytes. ``ranking`` (chunk indices by descending score) is sorted only when a
    view asks for it: the hits, the best chunk and a chunk's rank are found in one pass
    over the scores, so rescoring a thousand questions sorts nothing."""

    scores: Scores
    hits: tuple[Hit, ...]
    top_k: int
    floor: float
    no_match: float | None = None  # the scorer's "shares nothing" score (BM25's 0)
    floored: bool = True  # False: the floor is the scale's bottom, i.e. no floor was set

    @property
    def nothing_matched(self) -> bool:
        """Every chunk scores "shares nothing with the question" (a BM25 query whose words
        are in no chunk): a refusal that no floor decided."""
        return self.no_match is not None and self.ranked and self.best_score <= self.no_match

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return (self.hits, self.top_k, self.floor) == (other.hits, other.top_k, other.floor) \
            and np.array_equal(self.scores, other.scores)

    __hash__ = None  # type: ignore[assignment]

    @cached_property
    def ranking(self) -> Ranking:
        """Chunk indices by descending score, ties in chunk order (read-only)."""
        ranking = rank(self.scores)
        ranking.flags.writeable = False
        return ranking

    @property
    def refused(self) -> bool:
        return not self.hits

    @property
    def ranked(self) -> bool:
        """There was at least one chunk to rank."""
        return len(self.scores) > 0

    @property
    def best_score(self) -> float:
        index = self.best_index
        return float(self.scores[index]) if index is not None else float("-inf")

    @property
    def best_index(self) -> int | None:
        if not len(self.scores):
            return None
        return int(self.ranking[0]) if _unordered(self.scores) else int(np.argmax(self.scores))

    def score(self, chunk_index: int) -> float:
        """The score of one chunk, as a Python float."""
        return float(self.scores[chunk_index])

    def passes(self, chunk_index: int) -> bool:
        """Whether the chunk's score may be sent: at the floor, and above the scorer's
        "shares nothing" (``no_match``) when it has one."""
        return _passes(self.score(chunk_index), self.floor, self.no_match)

    def scored(self, chunk_index: int) -> bool:
        """Whether the ranking scored the chunk: a chunk a user's retriever did not return,
        or past a reranker's depth, has no score (NaN) and so no rank of its own."""
        return not math.isnan(self.scores[chunk_index])

    def rank_of(self, chunk_index: int) -> int:
        """1-based rank of a chunk: the chunks scoring higher, and the earlier ones scoring
        the same, come before it (what ``ranking`` says, without sorting)."""
        if _unordered(self.scores):
            return int(np.flatnonzero(self.ranking == chunk_index)[0]) + 1
        value = self.scores[chunk_index]
        ahead = np.count_nonzero(self.scores > value)
        return int(ahead + np.count_nonzero(self.scores[:chunk_index] == value)) + 1


def _passes(value: float, floor: float, no_match: float | None) -> bool:
    return value >= floor and (no_match is None or value > no_match)


def _unordered(values: Scores) -> bool:
    """NaN scores have no order but argsort's: only the full sort reproduces it."""
    return bool(np.isnan(values).any())


def top_indices(values: Scores, count: int) -> Ranking:
    """``rank(values)[:count]`` in one pass when it can: everything above the count-th best
    value, then the first ones equal to it, sorted."""
    if count >= len(values) or _unordered(values):
        return rank(values)[:count]
    if count <= 0:
        return np.zeros(0, dtype=np.intp)
    kth = np.partition(values, len(values) - count)[len(values) - count]
    above = np.flatnonzero(values > kth)
    equal = np.flatnonzero(values == kth)[: count - len(above)]
    chosen = np.concatenate([above, equal])
    return chosen[np.lexsort((chosen, -values[chosen]))].astype(np.intp)


def rank(scores: Sequence[float] | Scores) -> Ranking:
    """Chunk indices by descending score; equal scores keep chunk order."""
    values = np.asarray(scores)
    return np.argsort(-values, kind="stable")


def decide(scores: Sequence[float] | Scores, top_k: int, floor: float,
           no_match: float | None = None, floored: bool = True) -> Decision:
    """The top_k chunks whose score reaches the floor; none means the question is refused.
    A score at or under ``no_match`` (the scorer's "shares nothing", BM25's 0) never reaches
    it, whatever the floor."""
    if isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1:
        raise ValueError(f"top_k must be a whole number of at least 1, got {top_k}")
    if not math.isfinite(floor):
        raise ValueError(f"floor must be a finite number, got {floor}")
    values = np.asarray(scores)
    if values.dtype.kind != "f":
        values = values.astype(np.float64)
    values = values.view()
    values.flags.writeable = False
    hits = tuple(Hit(int(i), float(values[i])) for i in top_indices(values, top_k).tolist()
                 if _passes(values[i], floor, no_match))
    return Decision(scores=values, hits=hits, top_k=top_k, floor=float(floor),
                    no_match=no_match, floored=floored)


def excerpts(chunks: Sequence[Chunk], hits: Sequence[Hit]) -> list[str]:
    """Text of the selected chunks in hit order, where text already given by an earlier hit
    (overlap between neighbours) is left out, so the prompt repeats nothing. A chunk with a
    ``context_prefix`` (a table's header) gets it in front, as it was embedded."""
    covered: dict[str, list[tuple[int, int]]] = {}  # per file: offsets are a file's own
    out: list[str] = []
    by_index = {c.index: c for c in chunks}
    for hit in hits:
        chunk = by_index[hit.index]
        seen = covered.setdefault(chunk.source, [])
        pieces = difference((chunk.start, chunk.end), seen)
        seen.append((chunk.start, chunk.end))
        text = " … ".join(
            chunk.text[a - chunk.start : b - chunk.start].strip() for a, b in pieces
        ).strip()
        if text.strip(" …"):
            # Table rows cut away from their header carry it: the model reads it too.
            out.append(chunk.context_prefix + text if chunk.context_prefix else text)
    return out


def with_neighbours(chunks: Sequence[Chunk], decision: Decision,
                    expand: int) -> tuple[list[Hit], tuple[int, ...]]:
    """The hits with the ``expand`` chunks on each side of every hit (same file, in the
    file's order) around it, each chunk once: the fix for an answer split between two
    chunks. Also the chunks added (not hits themselves), for the prompt preview to show."""
    hits = list(decision.hits)
    if expand <= 0 or not hits:
        return hits, ()
    files: dict[str, list[Chunk]] = {}
    for chunk in sorted(chunks, key=lambda c: (c.source, c.start, c.end)):
        files.setdefault(chunk.source, []).append(chunk)
    place = {c.index: (group, n) for group in files.values() for n, c in enumerate(group)}
    out: list[Hit] = []
    seen: set[int] = set()
    for hit in hits:
        group, position = place[hit.index]
        for chunk in group[max(0, position - expand): position + expand + 1]:
            if chunk.index not in seen:
                seen.add(chunk.index)
                out.append(Hit(chunk.index, decision.score(chunk.index)))
    hit_indices = {hit.index for hit in hits}
    return out, tuple(h.index for h in out if h.index not in hit_indices)


def build_prompt(
    question: str, chunks: Sequence[Chunk], hits: Sequence[Hit], language: str = SOURCE_LANGUAGE
) -> str | None:
    """The prompt the language model would receive, or None when retrieval refused (pass
    ``with_neighbours``'s hits for an expanded context)."""
    if not hits:
        return None
    context = "\n\n".join(excerpts(chunks, hits))
    return catalog_text("prompt.template", language).format(context=context, question=question)
