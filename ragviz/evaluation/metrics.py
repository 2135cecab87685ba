"""Retrieval quality from the pipeline's outcomes: every registered metric (hit@1, hit@k,
MRR, refusal precision and recall, see ``measures``), and the floor calibrated from the
same outcomes.

Metrics are computed from diagnoses, so a number and the sentence that explains it never
disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragviz.evaluation.calibration import COSINE_SCALE, Calibration, calibrate_outcomes
from ragviz.evaluation.diagnosis import label_counts
from ragviz.evaluation.excerpts import source_for
from ragviz.evaluation.measures import METRICS, std
from ragviz.evaluation.results import Metrics, QuestionOutcome
from ragviz.inputs.corpus import Corpus
from ragviz.retrieval.scorers import ScoreScale


def compute_metrics(outcomes: Sequence[QuestionOutcome]) -> Metrics:
    """Every registered metric over the pipeline's outcomes (unlabelled questions are
    ignored), with the counts the panels show beside them."""
    top_k = outcomes[0].decision.top_k if outcomes else 1
    labelled = [o.question.is_answerable for o in outcomes]
    answerable_refused = sum(1 for o in outcomes
                             if o.question.is_answerable is True and o.decision.refused)
    return Metrics(
        values={metric.name: metric.value(outcomes) for metric in METRICS.values()},
        std={metric.name: std(metric.values(outcomes)) for metric in METRICS.values()},
        answerable=labelled.count(True),
        unanswerable=labelled.count(False),
        labels=label_counts(o.diagnosis for o in outcomes),
        top_k=top_k,
        answerable_refused=answerable_refused,
    )


def outcome_calibration(outcomes: Sequence[QuestionOutcome],
                        scale: ScoreScale = COSINE_SCALE) -> Calibration | None:
    """The floor calibrated from the scored labelled questions on the scorer's ``scale``,
    or None unless both answerable and unanswerable ones exist."""
    labels = {o.question.is_answerable for o in outcomes if o.decision.ranked}
    if True not in labels or False not in labels:
        return None
    return calibrate_outcomes([o for o in outcomes if o.decision.ranked], scale=scale)


def outcome_files(outcome: QuestionOutcome, corpus: Corpus | None = None) -> tuple[str, ...]:
    """The files a question's expected excerpts (or its answer) lie in: the benchmark's
    ``corpus_id``, named as ``corpus`` names its files; () when it expects nothing located."""
    given = (r.source for r in outcome.question.references if r.source)
    names = dict.fromkeys(
        (source_for(corpus, name) or name) if corpus is not None else name for name in given)
    span = outcome.diagnosis.answer_span if outcome.diagnosis is not None else None
    if not names and span is not None:
        names[span.source] = None
    return tuple(names)


def metrics_per_file(outcomes: Sequence[QuestionOutcome],
                     corpus: Corpus | None = None) -> dict[str, Metrics]:
    """Every registered metric over each file's questions, files in name order (a question
    whose excerpts lie in two files counts for both)."""
    groups: dict[str, list[QuestionOutcome]] = {}
    for outcome in outcomes:
        for name in outcome_files(outcome, corpus):
            groups.setdefault(name, []).append(outcome)
    return {name: compute_metrics(groups[name]) for name in sorted(groups)}
