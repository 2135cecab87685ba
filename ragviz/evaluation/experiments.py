"""Experiments over the pipeline: A/B comparison, sweeps over a grid, and "why did this
fail?".

Sweeps embed every distinct chunk text once: configurations share the embedder's cache, so
a chunk text two configurations produce is sent to the model only the first time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ragviz.chunking import ChunkerConfig, chunk_corpus
from ragviz.chunking.sweep_grid import axes
from ragviz.chunking.sweep_grid import default_grid as default_grid  # declared by the specs
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError
from ragviz.evaluation.diagnosis import Diagnosis
from ragviz.evaluation.pipeline import (
    DEFAULT_SETTINGS,
    MAX_CHUNKS,
    analyse,
    encode_questions,
)
from ragviz.evaluation.results import (
    Analysis,
    Comparison,
    Flip,
    RetrievalSettings,
    SweepResult,
    WhyFailed,
)
from ragviz.evaluation.sweeping import SweepStep, run_sweep
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.questions import LabelledQuestion

Progress = Callable[[int, int], None]


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

def _analyses(
    document: str | Corpus,
    questions: Sequence[LabelledQuestion],
    embedder: Embedder,
    grid: Sequence[ChunkerConfig],
    settings: RetrievalSettings,
    progress: Progress | None,
) -> list[Analysis]:
    """One analysis per configuration; chunk texts go through the embedder's cache, so each
    distinct text is embedded once across the grid. ``progress`` counts configurations."""
    corpus = as_corpus(document)
    query_vectors = encode_questions(embedder, questions)
    out: list[Analysis] = []
    if progress is not None:
        progress(0, len(grid))
    for done, config in enumerate(grid, start=1):
        chunking = chunk_corpus(corpus, config, embedder)
        if len(chunking.chunks) > MAX_CHUNKS:
            if progress is not None:
                progress(done, len(grid))
            continue  # too many chunks to embed: the sweep leaves this configuration out
        out.append(analyse(corpus, config, embedder, questions, settings, chunking=chunking,
                           query_vectors=query_vectors))
        if progress is not None:
            progress(done, len(grid))
    return out


def sweep(
    document: str | Corpus,
    questions: Sequence[LabelledQuestion],
    embedder: Embedder,
    grid: Sequence[ChunkerConfig],
    settings: RetrievalSettings = DEFAULT_SETTINGS,
    progress: Progress | None = None,
) -> SweepResult:
    """Metrics of every configuration in ``grid`` on this corpus (or document) and these
    questions: ``run_sweep`` (the app's and the CLI's one path), ``progress`` counting
    configurations."""
    said: list[int] = []

    def report(step: SweepStep) -> None:  # once per configuration, not per batch
        if progress is not None and step.rows_done not in said:
            said.append(step.rows_done)
            progress(step.rows_done, step.rows_total)

    return run_sweep(document, questions, embedder, grid, settings, report=report)


# --- why did this fail? ---------------------------------------------------------------


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
        other = candidate.get(name)
        if value is None or other is None:
            distance += 0.0 if value == other else 1.0
        else:
            distance += abs(float(other) - float(value)) / max(abs(float(value)), 1.0)
    return 0, distance


def _is_ok(diagnosis: Diagnosis | None) -> bool:
    return diagnosis is not None and diagnosis.ok


def why_failed(
    document: str | Corpus,
    question: LabelledQuestion,
    others: Sequence[LabelledQuestion],
    embedder: Embedder,
    current: ChunkerConfig,
    grid: Sequence[ChunkerConfig],
    settings: RetrievalSettings = DEFAULT_SETTINGS,
    progress: Progress | None = None,
) -> WhyFailed:
    """The question's diagnosis under ``current``, and the closest configuration in
    ``grid`` under which it is ok while every other question that is ok now stays ok."""
    if question.is_answerable is None:
        raise InputError(key="why.needs_label")
    questions = [question, *others]
    document = as_corpus(document)
    now = analyse(document, current, embedder, questions, settings)
    diagnosis = now.outcomes[0].diagnosis
    assert diagnosis is not None  # the question is labelled
    if diagnosis.ok:
        return WhyFailed(diagnosis, current, None, None)
    kept = [i for i, o in enumerate(now.outcomes) if i > 0 and _is_ok(o.diagnosis)]
    candidates = [c for c in grid if c != current]
    fixes: list[tuple[tuple[int, float], int, Analysis]] = []
    for position, analysis in enumerate(
        _analyses(document, questions, embedder, candidates, settings, progress)
    ):
        diagnoses = [o.diagnosis for o in analysis.outcomes]
        if all(_is_ok(diagnoses[i]) for i in (0, *kept)):
            fixes.append((config_distance(analysis.config, current), position, analysis))
    if not fixes:
        return WhyFailed(diagnosis, current, None, None, kept=len(kept))
    best = min(fixes, key=lambda item: (item[0], item[1]))[2]
    return WhyFailed(diagnosis, current, best.config, best.metrics, best.outcomes[0].diagnosis,
                     kept=len(kept))
