"""Scorers: how strongly each chunk matches each question, behind one small protocol.

A scorer prepares once on the chunks (and their vectors), then gives one score row per
question (one score per chunk, higher is better); its scale says where scores live, so the
floor slider, the chart's axis and its label follow the scorer instead of assuming cosine.
Adding one is one class plus ``register_scorer(...)``: the pipeline, the CLI (``--scorer``)
and the app (a choice in the sidebar when more than one is registered) read this registry.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from ragviz.chunking.base import Chunk
from ragviz.errors import InputError

Vectors = npt.NDArray[np.float32]
# one score per chunk: cosine gives rows of one float32 matrix (never Python floats); a
# scorer may give any sequence of numbers, decide() makes it an array
ScoreRow = npt.NDArray[np.floating[Any]] | Sequence[float]
DEFAULT_SCORER = "cosine"
OPEN_FLOOR_TOP = 1e6  # the highest floor on a scale with no top (BM25, a cross-encoder's)


@dataclass(frozen=True)
class ScoreScale:
    """Where a scorer's scores live: the floor's range and step, and the axis label (a
    catalog key of ``ragviz.i18n``, so the label is written in the reader's language; a
    label the catalog does not hold is shown as written).

    ``bounded`` False: ``high`` is only where the axis starts, scores may go past it (BM25
    grows with the words a question shares with a chunk), so the top is read off the scores.
    ``no_match``: a score at or under it means "shares nothing with the question" (BM25's
    0): such a chunk is never handed on, whatever the floor, so a question with no known
    word is refused instead of answered from a ranking of zeros."""

    low: float
    high: float
    step: float
    label: str
    bounded: bool = True
    no_match: float | None = None

    @property
    def baseline(self) -> float:
        """Where the floor slider and the bars start unless a score falls below it."""
        return max(0.0, self.low)

    @property
    def digits(self) -> int:
        """Decimals a floor on this scale is written and kept with (0.01 steps: 2)."""
        return max(0, -math.floor(math.log10(self.step) + 1e-9))

    def snap(self, value: float) -> float:
        """``value`` as the floor slider holds it (rounded to the step's decimals)."""
        return round(float(value), self.digits)

    def top(self, highest: float | None = None) -> float:
        """The top of the floor's range and of the axis: ``high``, or past it when an
        unbounded scale's best score (``highest``) is higher, rounded up to a whole step."""
        if self.bounded or highest is None or not math.isfinite(highest) or highest <= self.high:
            return self.high
        return math.ceil(highest / self.step) * self.step

    def check_floor(self, floor: float) -> float:
        """``floor`` when it is a finite number on this scale, else InputError naming the range
        (an open scale's floor stops at ``OPEN_FLOOR_TOP``: no score reaches it, and a larger
        one overflows the scores' float32)."""
        top_value = self.high if self.bounded else OPEN_FLOOR_TOP
        if not math.isfinite(floor) or floor < self.low or floor > top_value:
            top = f"{top_value:g}"
            raise InputError(key="scorer.floor_range", floor=f"{floor:g}", low=f"{self.low:g}",
                             high=top)
        return floor


class Scorer(Protocol):
    """One way to score chunks for questions."""

    name: str
    scale: ScoreScale

    def prepare(self, chunks: Sequence[Chunk], chunk_vectors: Vectors) -> Any:
        """Whatever the scorer needs from the chunks, computed once (an index, the vectors)."""

    def score_rows(self, prepared: Any, questions: Sequence[str],
                   query_vectors: Vectors) -> list[ScoreRow]:
        """One row per question, one score per chunk in chunk order."""



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
# Scorers that take options (``bm25(stopwords=en)``): made from the registered one's options.
_CONFIGURED: dict[str, Scorer] = {}
# Stages written after a scorer in a spec (``FIRST+rerank(MODEL,depth=N)``): their mark and
# what makes the staged scorer from the first one and the options (``register_stage``).
_STAGES: dict[str, Callable[[Scorer, str], Scorer]] = {}
_SPEC = re.compile(r"(?P<name>[A-Za-z0-9_.-]+)(?:\((?P<options>[^()]*)\))?")


def register_scorer(scorer: Scorer) -> Scorer:
    """Add a scorer under its name (a second one with the same name replaces the first)."""
    SCORERS[scorer.name] = scorer
    _CONFIGURED.clear()
    return scorer


def get_scorer(name: str) -> Scorer:
    """The registered scorer ``name`` (``NAME(option=value,...)`` for one with options), or
    InputError naming the known ones or the option that is wrong."""
    if name in SCORERS:
        return SCORERS[name]
    if name in _CONFIGURED:
        return _CONFIGURED[name]
    for mark, compose in _STAGES.items():  # FIRST+stage(OPTIONS): a stage after a scorer
        first, marker, rest = name.partition(mark) if isinstance(name, str) else ("", "", "")
        if marker and any(c in rest[:-1] for c in "()+"):  # a second stage, never a model
            raise InputError(key="scorer.one_stage", spec=repr(name[:80]),
                             stage=mark[1:-1])
        if marker and rest.endswith(")"):
            scorer: Scorer = compose(get_scorer(first), rest[:-1])
            _CONFIGURED[name] = scorer
            return scorer
    match = _SPEC.fullmatch(name.strip()) if isinstance(name, str) else None
    base = SCORERS.get(match["name"]) if match else None
    if match is None or base is None:
        known = ", ".join(sorted(SCORERS))
        shown = match["name"] if match else name
        raise InputError(key="scorer.unknown", name=repr(shown), known=known) from None
    options = _options(name, match["options"] or "")
    # a scorer with options has ``configured(options) -> Scorer``, whose name is the spec
    make: Callable[[dict[str, str]], Scorer] | None = getattr(base, "configured", None)
    if make is None:
        if options:
            raise InputError(key="scorer.no_options", name=repr(base.name))
        return base
    made = make(options)
    _CONFIGURED[name] = made
    return made


def _options(spec: str, text: str) -> dict[str, str]:
    return spec_options(spec, [p.strip() for p in text.split(",")])


def spec_options(spec: str, parts: Sequence[str]) -> dict[str, str]:
    """``name=value`` parts as a dict; one sentence for a part that is not one, or for an
    option given twice (``hybrid(k=1,k=2)``: which one was meant?)."""
    options: dict[str, str] = {}
    for part in filter(None, parts):
        key, equals, value = part.partition("=")
        if not equals or not key.strip() or not value.strip():
            raise InputError(key="scorer.bad_option", option=repr(part), spec=repr(spec))
        if key.strip() in options:
            raise InputError(key="scorer.option_twice", option=key.strip(), spec=repr(spec))
        options[key.strip()] = value.strip()
    return options


def register_stage(name: str, compose: Callable[[Scorer, str], Scorer]) -> None:
    """Let a spec write ``FIRST+NAME(OPTIONS)``: ``compose(first, options)`` makes it."""
    _STAGES[f"+{name}("] = compose
    _CONFIGURED.clear()


def option_error(scorer: str, option: str, value: str, allowed: str) -> InputError:
    """The one sentence for a scorer option that is unknown or out of range."""
    return InputError(key="scorer.option_value", scorer=scorer, option=option,
                      value=repr(value), allowed=allowed)


def prepare(scorer: Scorer, chunks: Sequence[Chunk], chunk_vectors: Vectors,
            embedder: Any = None) -> Any:
    """``scorer.prepare``, handing the embedding model to a scorer that uses it (a reranker
    that embeds sentences)."""
    if getattr(scorer, "uses_embedder", False):
        return scorer.prepare(chunks, chunk_vectors, embedder=embedder)  # type: ignore[call-arg]
    return scorer.prepare(chunks, chunk_vectors)


def scorer_names() -> tuple[str, ...]:
    """The registered scorers, the default first."""
    return tuple(sorted(SCORERS, key=lambda name: (name != DEFAULT_SCORER, name)))


register_scorer(CosineScorer())
