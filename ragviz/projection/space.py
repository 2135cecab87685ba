"""The map's facts: every chunk of one or two configurations as a point, every question as
a point placed with the chunks' projection, and the lines from a question to its top_k
chunks and to the chunk holding its expected answer.

Which chunks are fitted never depends on top_k or the floor (above ``MAX_POINTS`` the sample
keeps every answer-holding chunk and each question's ``KEEP_RANKS`` best), so moving either
redraws the lines over the same projection.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import encode_questions
from ragviz.evaluation.results import Analysis
from ragviz.inputs.limits import TOP_K_RANGE
from ragviz.projection.planar import PCA, Projection, Vectors, project

MAX_POINTS = 10_000  # chunks fitted and drawn; above this a sample (the must-keep ones in it)
KEEP_RANKS = TOP_K_RANGE[1]  # each question's best chunks up to the largest top_k
HEAD_CHARS = 90
SAMPLE_SEED = 0
CONTEXT, UNDER_FLOOR, ANSWER = "context", "under_floor", "answer"
NOT_RETRIEVED = ""  # the diagnosis colour of a chunk no question retrieves

Side = tuple[str, Analysis]  # "a" or "b", and its analysis


@dataclass(frozen=True)
class ChunkPoint:
    """One chunk on the map: whose it is, its size, where it lands, its text's head, and the
    primary diagnosis of the first question whose top_k holds it (``NOT_RETRIEVED``)."""

    side: str
    index: int
    source: str
    chars: int
    x: float
    y: float
    head: str
    label: str


@dataclass(frozen=True)
class QuestionPoint:
    """One question (``position`` in the question list) placed among the chunks."""

    position: int
    text: str
    x: float
    y: float


@dataclass(frozen=True)
class Link:
    """A line from a question to a chunk of ``side``: in its top_k and passing the floor
    (``CONTEXT``), in its top_k but under the floor (``UNDER_FLOOR``), or holding its
    expected answer (``ANSWER``)."""

    side: str
    question: int
    chunk: int
    kind: str
    x1: float
    y1: float
    x2: float
    y2: float
    rank: int = 0  # the chunk's 1-based rank for the question (0: not known)


@dataclass(frozen=True)
class SpaceMap:
    """Everything one map draws; ``total`` counts the chunks before sampling."""

    method: str
    chunks: tuple[ChunkPoint, ...]
    questions: tuple[QuestionPoint, ...]
    links: tuple[Link, ...]
    total: int

    @property
    def sampled(self) -> bool:
        return len(self.chunks) < self.total


def must_keep(analysis: Analysis) -> set[int]:
    """Chunks a sample may not drop: every answer-holding chunk and every question's
    ``KEEP_RANKS`` best (so any top_k's lines end on a drawn point)."""
    keep: set[int] = set()
    for outcome in analysis.outcomes:
        keep.update(int(i) for i in outcome.decision.ranking[:KEEP_RANKS].tolist())
        if outcome.diagnosis is not None:
            keep.update(outcome.diagnosis.holding_chunks)
    return keep


def sample_indices(total: int, keep: set[int], limit: int = MAX_POINTS,
                   seed: int = SAMPLE_SEED) -> npt.NDArray[np.int64]:
    """All of ``range(total)`` up to ``limit``; above it ``keep`` plus a seeded random pick
    of the others up to ``limit`` (every kept one even when they alone pass it), sorted."""
    if total <= limit:
        return np.arange(total, dtype=np.int64)
    kept = np.array(sorted(i for i in keep if 0 <= i < total), dtype=np.int64)
    others = np.setdiff1d(np.arange(total, dtype=np.int64), kept, assume_unique=True)
    room = max(0, limit - len(kept))
    picked = np.random.default_rng(seed).choice(others, size=min(room, len(others)),
                                                replace=False)
    return np.sort(np.concatenate([kept, picked.astype(np.int64)]))


def fitted_rows(sides: Sequence[Side], limit: int = MAX_POINTS
                ) -> tuple[list[tuple[str, int]], Vectors]:
    """The (side, chunk index) of every row the projection is fitted on, and their vectors:
    each side gets an equal share of ``limit``."""
    rows: list[tuple[str, int]] = []
    blocks: list[Vectors] = []
    share = max(1, limit // max(1, len(sides)))
    for side, analysis in sides:
        chosen = sample_indices(len(analysis.chunks), must_keep(analysis), share)
        rows.extend((side, int(i)) for i in chosen.tolist())
        blocks.append(np.asarray(analysis.chunk_vectors, dtype=np.float32)[chosen])
    return rows, np.vstack(blocks) if blocks else np.zeros((0, 0), dtype=np.float32)


def head(text: str, limit: int = HEAD_CHARS) -> str:
    """A chunk's first words on one line (hover text; escaped where it is drawn)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def chunk_labels(analysis: Analysis) -> dict[int, str]:
    """Each retrieved chunk's colour under "by diagnosis": the primary label of the first
    question whose top_k holds it."""
    labels: dict[int, str] = {}
    for outcome in analysis.outcomes:
        if outcome.diagnosis is None:
            continue
        for index in outcome.decision.ranking[: outcome.decision.top_k].tolist():
            labels.setdefault(int(index), outcome.diagnosis.primary)
    return labels


def space_map(sides: Sequence[Side], rows: Sequence[tuple[str, int]], projection: Projection,
              question_vectors: Vectors) -> SpaceMap:
    """Points and lines over a projection fitted on ``rows`` (``fitted_rows``); the questions
    are those of the first side (A and B share them), placed, not fitted."""
    analyses = dict(sides)
    points: list[ChunkPoint] = []
    where: dict[tuple[str, int], tuple[float, float]] = {}
    labels = {side: chunk_labels(analysis) for side, analysis in sides}
    for (side, index), (x, y) in zip(rows, projection.chunk_xy.tolist(), strict=True):
        chunk = analyses[side].chunks[index]
        where[(side, index)] = (x, y)
        points.append(ChunkPoint(side, index, chunk.source, len(chunk.text), x, y,
                                 head(chunk.text), labels[side].get(index, NOT_RETRIEVED)))
    outcomes = sides[0][1].outcomes if sides else ()
    placed = projection.place(question_vectors).tolist() if outcomes else []
    questions = tuple(QuestionPoint(i, o.question.question, x, y)
                      for i, (o, (x, y)) in enumerate(zip(outcomes, placed, strict=True)))
    links = [link for side, analysis in sides
             for link in _links(side, analysis, questions, where)]
    total = sum(len(analysis.chunks) for _, analysis in sides)
    return SpaceMap(projection.method, tuple(points), questions, tuple(links), total)


def _links(side: str, analysis: Analysis, questions: Sequence[QuestionPoint],
           where: dict[tuple[str, int], tuple[float, float]]) -> list[Link]:
    """One side's lines: each question to its top_k chunks and its answer's chunks."""
    out: list[Link] = []
    for question, outcome in zip(questions, analysis.outcomes, strict=False):
        decision = outcome.decision
        hits = {hit.index for hit in decision.hits}
        ends = [(int(i), CONTEXT if int(i) in hits else UNDER_FLOOR)
                for i in decision.ranking[: decision.top_k].tolist()]
        if outcome.diagnosis is not None:
            ends += [(i, ANSWER) for i in outcome.diagnosis.holding_chunks]
        for index, kind in ends:
            if (side, index) in where:
                x2, y2 = where[(side, index)]
                out.append(Link(side, question.position, index, kind, question.x, question.y,
                                x2, y2, decision.rank_of(index)))
    return out


def map_of(sides: Sequence[Side], question_vectors: Vectors, method: str = PCA) -> SpaceMap:
    """The whole map of ``sides`` (one embedding space) in one call."""
    rows, vectors = fitted_rows(sides)
    return space_map(sides, rows, project(vectors, method), question_vectors)


def static_maps(analyses: Sequence[Analysis], embedders: Sequence[Embedder]) -> list[SpaceMap]:
    """The report's PCA maps: A and B in one when they share a model, else one each (their
    vectors live in different spaces); ``embedders`` place the questions, side by side."""
    sides = list(zip("ab", analyses, strict=False))
    same = len({analysis.model for analysis in analyses}) == 1
    groups = [sides] if same else [[side] for side in sides]
    out = []
    for group in groups:
        embedder = embedders["ab".index(group[0][0])]
        questions = [o.question for o in group[0][1].outcomes]
        out.append(map_of(group, encode_questions(embedder, questions)))
    return out
