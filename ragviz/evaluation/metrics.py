"""Retrieval quality from the pipeline's outcomes: hit@1, hit@k, MRR, refusal precision
and recall, and the floor calibrated from the same outcomes.

Metrics are computed from diagnoses, so a number and the sentence that explains it never
disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from ragviz.evaluation.calibration import Calibration, calibrate_outcomes
from ragviz.evaluation.diagnosis import label_counts
from ragviz.evaluation.results import Metrics, QuestionOutcome


def _share(count: int, total: int) -> float | None:
    return count / total if total else None


def compute_metrics(outcomes: Sequence[QuestionOutcome]) -> Metrics:
    """Metrics from the pipeline's outcomes (unlabelled questions are ignored)."""
    top_k = outcomes[0].decision.top_k if outcomes else 1
    ranks: list[int | None] = []
    unanswerable_refused = unanswerable = answerable = answerable_refused = refusals = 0
    for outcome in outcomes:
        label = outcome.question.is_answerable
        if label is None:
            continue
        refused = outcome.decision.refused
        refusals += refused
        if label:
            answerable += 1
            answerable_refused += refused
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
        answerable_refused=answerable_refused,
    )


def outcome_calibration(outcomes: Sequence[QuestionOutcome]) -> Calibration | None:
    """The floor calibrated from the scored labelled questions, or None unless both
    answerable and unanswerable ones exist."""
    labels = {o.question.is_answerable for o in outcomes if o.decision.ranking}
    if True not in labels or False not in labels:
        return None
    return calibrate_outcomes([o for o in outcomes if o.decision.ranking])
