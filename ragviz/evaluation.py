"""Metrics for one configuration, A/B comparison, sweeps over a grid, and "why did this fail?".

Metrics are computed from diagnoses, so a number and the sentence that explains it never
disagree. Sweeps embed every distinct chunk text once: configurations share the embedder's
cache, so a chunk text two configurations produce is sent to the model only the first time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.chunking.registry import axes
from ragviz.chunking.registry import default_grid as default_grid  # moved to the registry
from ragviz.diagnosis import OK, Diagnosis, label_counts
from ragviz.i18n import t
from ragviz.questions import LabelledQuestion

if TYPE_CHECKING:
    from ragviz.analysis import Analysis, QuestionOutcome
    from ragviz.embedders import Embedder

METRIC_NAMES: tuple[str, ...] = ("hit_at_1", "hit_at_k", "mrr", "refusal_precision",
                                 "refusal_recall")
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Metrics:
    """Retrieval quality of one configuration over the labelled questions.

    hit@1, hit@k and MRR are over answerable questions that carry an expected answer, floor
    ignored; one whose answer is not in the document counts as a miss. Refusal recall is
    the share of unanswerable questions refused; refusal precision is the share of refusals
    (of labelled questions) that were right, None when nothing was refused. A metric whose
    group is empty is None (JSON null). ``labels`` counts every label of every question.
    """

    hit_at_1: float | None
    hit_at_k: float | None
    mrr: float | None
    refusal_precision: float | None
    refusal_recall: float | None
    answerable: int
    unanswerable: int
    labels: dict[str, int]
    top_k: int = 1

    def value(self, name: str) -> float | None:
        if name not in METRIC_NAMES:
            raise ValueError(f"metric must be one of {', '.join(METRIC_NAMES)}, got {name!r}")
        result: float | None = getattr(self, name)
        return result

    def to_dict(self) -> dict[str, Any]:
        return {
            "hit_at_1": self.hit_at_1,
            "hit_at_k": self.hit_at_k,
            "mrr": self.mrr,
            "refusal_precision": self.refusal_precision,
            "refusal_recall": self.refusal_recall,
            "answerable": self.answerable,
            "unanswerable": self.unanswerable,
            "labels": dict(self.labels),
        }


def _share(count: int, total: int) -> float | None:
    return count / total if total else None


def compute_metrics(outcomes: Sequence[QuestionOutcome]) -> Metrics:
    """Metrics from the pipeline's outcomes (unlabelled questions are ignored)."""
    top_k = outcomes[0].decision.top_k if outcomes else 1
    ranks: list[int | None] = []
    unanswerable_refused = unanswerable = answerable = refusals = 0
    for outcome in outcomes:
        label = outcome.question.is_answerable
        if label is None:
            continue
        refused = outcome.decision.refused
        refusals += refused
        if label:
            answerable += 1
            if outcome.question.answer.strip() and outcome.diagnosis is not None:
                ranks.append(outcome.diagnosis.answer_rank)
        else:
            unanswerable += 1
            unanswerable_refused += refused
    scored = len(ranks)
    return Metrics(
        hit_at_1=_share(sum(1 for r in ranks if r == 1), scored),
        hit_at_k=_share(sum(1 for r in ranks if r is not None and r <= top_k), scored),
        mrr=(sum(1 / r for r in ranks if r is not None) / scored) if scored else None,
        refusal_precision=_share(unanswerable_refused, refusals),
        refusal_recall=_share(unanswerable_refused, unanswerable),
        answerable=answerable,
        unanswerable=unanswerable,
        labels=label_counts(o.diagnosis for o in outcomes),
        top_k=top_k,
    )


# --- comparison -----------------------------------------------------------------------


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

    @property
    def direction(self) -> str:
        """``fixed`` (ok only in B), ``broken`` (ok only in A) or ``changed``."""
        if self.label_b == OK and self.label_a != OK:
            return "fixed"
        if self.label_a == OK and self.label_b != OK:
            return "broken"
        return "changed"

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "question": self.question.question,
            "label_a": self.label_a,
            "label_b": self.label_b,
            "refused_a": self.refused_a,
            "refused_b": self.refused_b,
            "top_holds_a": self.top_holds_a,
            "top_holds_b": self.top_holds_b,
            "direction": self.direction,
        }


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


def _primary(diagnosis: Diagnosis | None) -> str | None:
    return None if diagnosis is None else diagnosis.primary


def _top_holds(diagnosis: Diagnosis | None) -> bool:
    return diagnosis is not None and diagnosis.answer_rank == 1


def compare(a: Analysis, b: Analysis) -> Comparison:
    """Metrics of both, and every question whose primary label, refusal, or "top chunk
    holds the answer" differs. Both analyses must cover the same questions in order."""
    questions_a = [o.question for o in a.outcomes]
    questions_b = [o.question for o in b.outcomes]
    if questions_a != questions_b:
        raise ValueError("compare needs both analyses to use the same questions, in the same order")
    flips: list[Flip] = []
    for index, (oa, ob) in enumerate(zip(a.outcomes, b.outcomes, strict=True)):
        flip = Flip(
            index=index,
            question=oa.question,
            label_a=_primary(oa.diagnosis),
            label_b=_primary(ob.diagnosis),
            refused_a=oa.decision.refused,
            refused_b=ob.decision.refused,
            top_holds_a=_top_holds(oa.diagnosis),
            top_holds_b=_top_holds(ob.diagnosis),
        )
        if ((flip.label_a, flip.refused_a, flip.top_holds_a)
                != (flip.label_b, flip.refused_b, flip.top_holds_b)):
            flips.append(flip)
    return Comparison(a.config.label(), b.config.label(), a.metrics, b.metrics, tuple(flips))


# --- sweep ----------------------------------------------------------------------------

@dataclass(frozen=True)
class SweepRow:
    config: ChunkerConfig
    metrics: Metrics
    chunks: int = 0

    def to_dict(self) -> dict[str, Any]:
        """Flat record for a heatmap: chunker, a size and an overlap axis, every metric."""
        size, overlap = axes(self.config)
        return {
            "config": self.config.label(),
            "chunker": self.config.chunker,
            "size": size,
            "overlap": overlap,
            "chunks": self.chunks,
            **{name: self.metrics.value(name) for name in METRIC_NAMES},
        }


@dataclass(frozen=True)
class SweepResult:
    rows: tuple[SweepRow, ...]

    def best(self, metric: str = "hit_at_1") -> SweepRow:
        """The row with the highest ``metric``; ties go to the better MRR, hit@k, refusal
        recall and precision in that order, then to the earlier row of the grid."""
        if not self.rows:
            raise ValueError("the sweep has no configurations")

        def key(item: tuple[int, SweepRow]) -> tuple[float, ...]:
            position, row = item
            values = [row.metrics.value(metric), row.metrics.mrr, row.metrics.hit_at_k,
                      row.metrics.refusal_recall, row.metrics.refusal_precision]
            return (*(-1.0 if v is None else v for v in values), -position)

        return max(enumerate(self.rows), key=key)[1]

    def to_dict(self) -> dict[str, Any]:
        return {"rows": [row.to_dict() for row in self.rows]}


def _analyses(
    document: str,
    questions: Sequence[LabelledQuestion],
    embedder: Embedder,
    grid: Sequence[ChunkerConfig],
    top_k: int,
    floor: float,
    language: str,
    progress: Progress | None,
) -> list[Analysis]:
    """One analysis per configuration; chunk texts go through the embedder's cache, so each
    distinct text is embedded once across the grid. ``progress`` counts configurations."""
    from ragviz.analysis import MAX_CHUNKS, _encode_questions, analyse_chunked, embedding_text

    query_vectors = _encode_questions(embedder, questions)
    out: list[Analysis] = []
    if progress is not None:
        progress(0, len(grid))
    for done, config in enumerate(grid, start=1):
        chunking = make_chunks(document, config, embedder)
        if len(chunking.chunks) > MAX_CHUNKS:
            if progress is not None:
                progress(done, len(grid))
            continue  # too many chunks to embed: the sweep leaves this configuration out
        vectors = embedder.encode_documents([embedding_text(c) for c in chunking.chunks])
        out.append(analyse_chunked(document, config, embedder, questions, chunking, vectors,
                                   query_vectors, top_k, floor, language))
        if progress is not None:
            progress(done, len(grid))
    return out


def sweep(
    document: str,
    questions: Sequence[LabelledQuestion],
    embedder: Embedder,
    grid: Sequence[ChunkerConfig],
    top_k: int = 2,
    floor: float = 0.0,
    progress: Progress | None = None,
) -> SweepResult:
    """Metrics of every configuration in ``grid`` on this document and these questions."""
    analyses = _analyses(document, questions, embedder, grid, top_k, floor, "en", progress)
    return SweepResult(tuple(SweepRow(a.config, a.metrics, len(a.chunks)) for a in analyses))


# --- why did this fail? ---------------------------------------------------------------


@dataclass(frozen=True)
class WhyFailed:
    """The diagnosis of one question now, and the closest configuration that fixes it."""

    diagnosis: Diagnosis
    fix: ChunkerConfig | None
    fix_metrics: Metrics | None
    explanation: str
    fix_diagnosis: Diagnosis | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "diagnosis": self.diagnosis.to_dict(),
            "fix": None if self.fix is None else self.fix.to_dict(),
            "fix_label": None if self.fix is None else self.fix.label(),
            "fix_metrics": None if self.fix_metrics is None else self.fix_metrics.to_dict(),
            "fix_diagnosis": None if self.fix_diagnosis is None else self.fix_diagnosis.to_dict(),
            "explanation": self.explanation,
        }


def _size_axis(config: ChunkerConfig) -> float:
    return float(axes(config)[0])


def config_distance(candidate: ChunkerConfig, current: ChunkerConfig) -> tuple[int, float]:
    """Closeness for "the closest fix": same chunker first, then the smallest relative
    change of its parameters (of the size for another chunker)."""
    if candidate.chunker != current.chunker:
        base = _size_axis(current)
        return 1, abs(_size_axis(candidate) - base) / max(base, 1.0)
    distance = 0.0
    for name, value in current.params().items():
        other = getattr(candidate, name)
        if value is None or other is None:
            distance += 0.0 if value == other else 1.0
        else:
            distance += abs(float(other) - float(value)) / max(abs(float(value)), 1.0)
    return 0, distance


def _is_ok(diagnosis: Diagnosis | None) -> bool:
    return diagnosis is not None and diagnosis.ok


def why_failed(
    document: str,
    question: LabelledQuestion,
    others: Sequence[LabelledQuestion],
    embedder: Embedder,
    current: ChunkerConfig,
    grid: Sequence[ChunkerConfig],
    top_k: int = 2,
    floor: float = 0.0,
    language: str = "en",
    progress: Progress | None = None,
) -> WhyFailed:
    """The question's diagnosis under ``current``, and the closest configuration in
    ``grid`` under which it is ok while every other question that is ok now stays ok."""
    if question.is_answerable is None:
        raise ValueError("give the question an expected answer or mark it unanswerable")
    from ragviz.analysis import analyse

    questions = [question, *others]
    now = analyse(document, current, embedder, questions, top_k, floor, language)
    diagnosis = now.outcomes[0].diagnosis
    assert diagnosis is not None  # the question is labelled
    if diagnosis.ok:
        return WhyFailed(diagnosis, None, None,
                         t("why.already_ok", language, config=current.label()))
    kept = [i for i, o in enumerate(now.outcomes) if i > 0 and _is_ok(o.diagnosis)]
    candidates = [c for c in grid if c != current]
    fixes: list[tuple[tuple[int, float], int, Analysis]] = []
    for position, analysis in enumerate(
        _analyses(document, questions, embedder, candidates, top_k, floor, language, progress)
    ):
        diagnoses = [o.diagnosis for o in analysis.outcomes]
        if all(_is_ok(diagnoses[i]) for i in (0, *kept)):
            fixes.append((config_distance(analysis.config, current), position, analysis))
    if not fixes:
        return WhyFailed(diagnosis, None, None, t("why.no_fix", language))
    best = min(fixes, key=lambda item: (item[0], item[1]))[2]
    fix_diagnosis = best.outcomes[0].diagnosis
    detail = fix_diagnosis.explanation if fix_diagnosis is not None else ""
    explanation = t("why.fix", language, config=best.config.label(), kept=len(kept),
                    detail=detail)
    return WhyFailed(diagnosis, best.config, best.metrics, explanation, fix_diagnosis)
