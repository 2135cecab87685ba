"""The data types the pipeline and the experiments produce: facts, never sentences.

Results import nothing that computes them, so the pipeline (``ragviz.evaluation.pipeline``),
the measures (``ragviz.evaluation.metrics``) and the experiments
(``ragviz.evaluation.experiments``) all import this module and not one another the other
way round.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ragviz.chunking import Chunk, ChunkerConfig, ChunkingResult
from ragviz.chunking.sweep_grid import axes
from ragviz.evaluation.calibration import Calibration
from ragviz.evaluation.diagnosis import OK, Diagnosis
from ragviz.evaluation.excerpts import LeftOut, TokenScores
from ragviz.evaluation.measures import METRICS, get_metric, metric_names
from ragviz.inputs.corpus import Corpus, Source
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.decision import Decision, Scores
from ragviz.retrieval.scorers import DEFAULT_SCORER, get_scorer

Vectors = npt.NDArray[np.float32]


MAX_EXPAND = 5


@dataclass(frozen=True)
class RetrievalSettings:
    """How many chunks retrieval hands on (top_k), the score they must reach (floor) and
    the registered scorer that gives the scores (``ragviz.retrieval.scorers``)."""

    top_k: int = 2
    floor: float = 0.0
    scorer: str = DEFAULT_SCORER
    expand: int = 0  # chunks on each side of every hit added to the prompt (same file)

    def __post_init__(self) -> None:
        if isinstance(self.top_k, bool) or not isinstance(self.top_k, int) or self.top_k < 1:
            raise ValueError(f"top_k must be a whole number of at least 1, got {self.top_k}")
        if isinstance(self.expand, bool) or not isinstance(self.expand, int) \
                or not 0 <= self.expand <= MAX_EXPAND:
            raise ValueError(f"expand must be a whole number from 0 to {MAX_EXPAND}, "
                             f"got {self.expand}")
        if not math.isfinite(self.floor):
            raise ValueError(f"floor must be a finite number, got {self.floor}")
        object.__setattr__(self, "floor", float(self.floor))
        get_scorer(self.scorer)  # ValueError naming the registered scorers

    @classmethod
    def checked(cls, top_k: int, floor: float | None, scorer: str = DEFAULT_SCORER,
                expand: int = 0) -> RetrievalSettings:
        """Settings whose floor is checked on ``scorer``'s scale (its bottom when None: no
        floor), ``scorer`` a spec its registry reads (``bm25(stemmer=english)``): what the
        CLI's options and the Python API (``ragviz.api``) both build."""
        found = get_scorer(scorer)
        floor = found.scale.low if floor is None else found.scale.check_floor(floor)
        return cls(top_k, floor, scorer=found.name, expand=expand)


@dataclass(frozen=True)
class Metrics:
    """Retrieval quality of one configuration over the labelled questions.

    hit@1, hit@k and MRR are over answerable questions that carry an expected answer, floor
    ignored; one whose answer is not in the document counts as a miss. Refusal recall is
    the share of unanswerable questions refused; refusal precision is the share of refusals
    (of labelled questions) that were right, None when nothing was refused. A metric whose
    group is empty is None (JSON null). ``labels`` counts every label of every question.
    """

    values: dict[str, float | None]  # by metric name (``ragviz.evaluation.measures``)
    answerable: int
    unanswerable: int
    labels: dict[str, int]
    top_k: int = 1
    answerable_refused: int = 0  # answerable questions the floor refused: its cost
    std: dict[str, float | None] = field(default_factory=dict)  # by name, population


    def value(self, name: str) -> float | None:
        get_metric(name)  # ValueError naming the registered metrics
        return self.values.get(name)

    # the two the app shows big, and the ones the replay and the samples' checks name
    hit_at_1 = property(lambda self: self.value("hit_at_1"))
    hit_at_k = property(lambda self: self.value("hit_at_k"))
    mrr = property(lambda self: self.value("mrr"))
    refusal_precision = property(lambda self: self.value("refusal_precision"))
    refusal_recall = property(lambda self: self.value("refusal_recall"))

    def to_dict(self) -> dict[str, Any]:
        return {
            **{name: self.values.get(name) for name in metric_names()},
            "answerable": self.answerable,
            "unanswerable": self.unanswerable,
            "answerable_refused": self.answerable_refused,
            "labels": dict(self.labels),
            "std": {name: self.std.get(name) for name in metric_names()},
        }


# Why a question was left out, in the order the sentences list them (``Unfound.kind``).
LEFT_OUT_KINDS = ("no-file", "offsets", "text")


@dataclass(frozen=True)
class Coverage:
    """Which of the questions given were evaluated: every mean, count and flip is over the
    ``evaluated`` ones; ``left_out`` says which were not and why (``LeftOut``)."""

    given: int
    left_out: tuple[LeftOut, ...] = ()

    @property
    def evaluated(self) -> int:
        return self.given - len(self.left_out)

    def groups(self) -> dict[str, tuple[LeftOut, ...]]:
        """The rows left out by why (``LEFT_OUT_KINDS`` order), empty kinds dropped."""
        out = {kind: tuple(r for r in self.left_out if r.why.kind == kind)
               for kind in LEFT_OUT_KINDS}
        return {kind: rows for kind, rows in out.items() if rows}

    def to_dict(self) -> dict[str, Any]:
        return {"questions_given": self.given, "questions_evaluated": self.evaluated,
                "left_out": {kind: len(rows) for kind, rows in self.groups().items()},
                "left_out_rows": [{"line": r.line, "question": r.question, "excerpt": r.excerpt,
                                   "why": r.why.kind, "source": r.why.source}
                                  for r in self.left_out]}


Direction = Literal["fixed", "broken", "changed"]


@dataclass(frozen=True)
class Flip:
    """A question whose outcome differs between configurations A and B."""

    index: int
    question: LabelledQuestion
    label_a: str | None
    label_b: str | None
    refused_a: bool
    refused_b: bool
    top_holds_a: bool
    top_holds_b: bool
    direction: Direction = field(init=False)
    """``fixed`` (ok only in B), ``broken`` (ok only in A) or ``changed``"""

    def __post_init__(self) -> None:
        object.__setattr__(self, "direction", flip_direction(self.label_a, self.label_b))

    def to_dict(self) -> dict[str, Any]:
        """The JSON row (``ragviz.cli.outputs.Flip``): the question as its text."""
        return {**{f.name: getattr(self, f.name) for f in fields(self)},
                "question": self.question.question}


def flip_direction(label_a: str | None, label_b: str | None) -> Direction:
    if label_b == OK and label_a != OK:
        return "fixed"
    if label_a == OK and label_b != OK:
        return "broken"
    return "changed"


@dataclass(frozen=True)
class Comparison:
    """Two configurations side by side: their metrics and the questions that flip."""

    label_a: str
    label_b: str
    metrics_a: Metrics
    metrics_b: Metrics
    flips: tuple[Flip, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.label_a,
            "b": self.label_b,
            "metrics_a": self.metrics_a.to_dict(),
            "metrics_b": self.metrics_b.to_dict(),
            "flips": [flip.to_dict() for flip in self.flips],
        }



@dataclass(frozen=True)
class SweepRow:
    config: ChunkerConfig
    metrics: Metrics
    chunks: int = 0
    scorer: str | None = None  # the scorer spec of a sweep with a scorer axis

    def to_dict(self) -> dict[str, Any]:
        """Flat record for a heatmap: chunker, a size and an overlap axis (and the scorer
        on a scorer axis), every metric."""
        size, overlap = axes(self.config)
        return {
            "config": self.config.label(),
            "chunker": self.config.chunker,
            "size": size,
            "overlap": overlap,
            **({} if self.scorer is None else {"scorer": self.scorer}),
            "chunks": self.chunks,
            **{name: self.metrics.values.get(name) for name in metric_names()},
        }

    def label(self) -> str:
        """The configuration's label, with its scorer on a scorer axis."""
        return self.config.label() + ("" if self.scorer is None else f" · {self.scorer}")


@dataclass(frozen=True)
class SweepResult:
    rows: tuple[SweepRow, ...]
    complete: bool = True  # False: stopped before its last configuration (rows so far)

    def best(self, metric: str = "hit_at_1") -> SweepRow:
        """The row with the best ``metric`` (highest, or lowest when lower is better); ties
        go to the other metrics in their ``tie_break`` order (MRR, hit@k, refusal recall and
        precision), then to the earlier row of the grid."""
        if not self.rows:
            raise ValueError("the sweep has no configurations")
        chosen = get_metric(metric)
        others = sorted((m for m in METRICS.values() if m.name != metric),
                        key=lambda m: m.tie_break)

        def key(item: tuple[int, SweepRow]) -> tuple[float, ...]:
            position, row = item
            values = [m.better_key(row.metrics.values.get(m.name)) for m in (chosen, *others)]
            return (*values, -position)

        return max(enumerate(self.rows), key=key)[1]

    def to_dict(self) -> dict[str, Any]:
        return {"rows": [row.to_dict() for row in self.rows]}


@dataclass(frozen=True)
class WhyFailed:
    """The diagnosis of one question under ``current``, and the closest configuration that
    fixes it while keeping the ``kept`` other questions that are right now right."""

    diagnosis: Diagnosis
    current: ChunkerConfig
    fix: ChunkerConfig | None
    fix_metrics: Metrics | None
    fix_diagnosis: Diagnosis | None = None
    kept: int = 0


@dataclass(frozen=True)
class QuestionOutcome:
    """What retrieval did with one question, and why."""

    question: LabelledQuestion
    decision: Decision
    diagnosis: Diagnosis | None  # None for unlabelled questions
    tokens: TokenScores | None = None  # None when the question expects no excerpt
    first_stage: Scores | None = None  # a reranked scorer's first-stage scores


def _no_corpus() -> Corpus:
    return Corpus(())


@dataclass(frozen=True)
class Analysis:
    """Everything the views need for one corpus, configuration, model and question set.

    ``document`` is the text of the first (for a pasted document, the only) source, kept for
    single-document views; ``corpus`` holds every source, and ``source_text(chunk)`` the
    text a chunk's offsets point into. Left out, ``corpus`` is ``document`` as one source.
    """

    document: str
    config: ChunkerConfig
    model: str
    settings: RetrievalSettings
    chunking: ChunkingResult
    chunk_vectors: Vectors = field(compare=False, repr=False)
    chunk_tokens: Sequence[int]  # counted when read (``pipeline.TokenCounts``)
    truncation: tuple[int | None, ...]  # document offset where the model stops reading
    outcomes: tuple[QuestionOutcome, ...]
    metrics: Metrics
    calibration: Calibration | None  # None unless both answerable and unanswerable exist
    corpus: Corpus = field(default_factory=_no_corpus, compare=False, repr=False)
    # a production index's duplicate group per chunk (-1: no copy), kept for rescore
    duplicate_groups: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.corpus.sources and self.document:
            object.__setattr__(self, "corpus", Corpus((Source("", self.document),)))

    def source_text(self, chunk: Chunk) -> str:
        """The converted text of the file ``chunk`` comes from (its offsets point into it)."""
        return self.corpus.source(chunk.source).text

    def chunks_of(self, source: str) -> tuple[Chunk, ...]:
        """The chunks of one file, in order."""
        return tuple(c for c in self.chunks if c.source == source)

    @property
    def top_k(self) -> int:
        return self.settings.top_k

    @property
    def floor(self) -> float:
        return self.settings.floor

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        return self.chunking.chunks

    @property
    def truncated_count(self) -> int:
        return sum(1 for offset in self.truncation if offset is not None)
