"""Scorers: how strongly each chunk matches each question, behind one small protocol.

A scorer prepares once on the chunks (and their vectors), then gives one score row per
question (one score per chunk, higher is better); its scale says where scores live, so the
floor slider, the chart's axis and its label follow the scorer instead of assuming cosine.
Adding one is one class plus ``register_scorer(...)``: the pipeline, the CLI (``--scorer``)
and the app (a choice in the sidebar when more than one is registered) read this registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ragviz.chunking.base import Chunk
from ragviz.inputs.documents import InputError

Vectors = npt.NDArray[np.float32]
# one score per chunk: cosine gives rows of one float32 matrix (never Python floats); a
# scorer may give any sequence of numbers, decide() makes it an array
ScoreRow = npt.NDArray[np.floating[Any]] | Sequence[float]
DEFAULT_SCORER = "cosine"


@dataclass(frozen=True)
class ScoreScale:
    """Where a scorer's scores live: the floor's range and step, and the axis label (a
    catalog key of ``ragviz.i18n``, so the label is written in the reader's language; a
    label the catalog does not hold is shown as written)."""

    low: float
    high: float
    step: float
    label: str

    @property
    def baseline(self) -> float:
        """Where the floor slider and the bars start unless a score falls below it."""
        return max(0.0, self.low)


class Scorer(Protocol):
    """One way to score chunks for questions."""

    name: str
    scale: ScoreScale

    def prepare(self, chunks: Sequence[Chunk], chunk_vectors: Vectors) -> Any:
        """Whatever the scorer needs from the chunks, computed once (an index, the vectors)."""

    def score_rows(self, prepared: Any, questions: Sequence[str],
                   query_vectors: Vectors) -> list[ScoreRow]:
        """One row per question, one score per chunk in chunk order."""


def cosine_scores(query: Vectors, chunk_vectors: Vectors) -> Vectors:
    """Scores of one unit query vector against unit chunk rows (dot product = cosine)."""
    if chunk_vectors.shape[0] == 0:
        return np.zeros(0, dtype=np.float32)
    return np.asarray(chunk_vectors @ query, dtype=np.float32)


class CosineScorer:
    """Cosine similarity of the question's vector with each chunk's (unit rows: a dot
    product). Never zero, which is why retrieval needs a floor to say "not found"."""

    name = "cosine"
    scale = ScoreScale(low=-1.0, high=1.0, step=0.01, label="chart.score")

    def prepare(self, chunks: Sequence[Chunk], chunk_vectors: Vectors) -> Vectors:
        return chunk_vectors

    def score_rows(self, prepared: Vectors, questions: Sequence[str],
                   query_vectors: Vectors) -> list[ScoreRow]:
        if not questions:
            return []
        if prepared.shape[0] == 0:
            return [np.zeros(0, dtype=np.float32) for _ in questions]
        matrix = np.asarray(query_vectors[: len(questions)] @ prepared.T, dtype=np.float32)
        return list(matrix)


SCORERS: dict[str, Scorer] = {}


def register_scorer(scorer: Scorer) -> Scorer:
    """Add a scorer under its name (a second one with the same name replaces the first)."""
    SCORERS[scorer.name] = scorer
    return scorer


def get_scorer(name: str) -> Scorer:
    """The registered scorer ``name``, or ValueError naming the known ones."""
    try:
        return SCORERS[name]
    except KeyError:
        known = ", ".join(sorted(SCORERS))
        raise InputError(key="scorer.unknown", name=repr(name), known=known) from None


def scorer_names() -> tuple[str, ...]:
    """The registered scorers, the default first."""
    return tuple(sorted(SCORERS, key=lambda name: (name != DEFAULT_SCORER, name)))


register_scorer(CosineScorer())
