"""The metric registry: what each metric measures on one question, and how the questions'
values become one number.

Every display (the app's metrics panel and compare tab, the sweep's colours and its choice
of the best configuration, the CSV, the HTML report, the CLI) loops over ``METRICS``, so a
new metric is one ``register_metric(Metric(...))`` call: a name, a per-question function
(None when the question does not count), how to aggregate (the mean by default), whether
higher is better and how the app writes it. Its label is looked up by name in the catalog
(``metric.NAME``, ``metric_short.NAME``) and falls back to the name.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from ragviz.evaluation.diagnosis import Diagnosis
    from ragviz.evaluation.excerpts import TokenScores
    from ragviz.inputs.questions import LabelledQuestion
    from ragviz.retrieval.decision import Decision

Display = Literal["percent", "decimal"]
# Where the app's metrics panel shows a metric: one of the big numbers, the token line
# (mean ± std, with excerpts), or the details behind the help icon.
Panel = Literal["headline", "tokens", "details"]


class Outcome(Protocol):
    """What a metric reads of one question's outcome (``results.QuestionOutcome`` is one;
    results import the metrics, so the metrics name only this shape)."""

    @property
    def question(self) -> LabelledQuestion: ...

    @property
    def decision(self) -> Decision: ...

    @property
    def diagnosis(self) -> Diagnosis | None: ...

    @property
    def tokens(self) -> TokenScores | None: ...


def mean(values: Sequence[float]) -> float | None:
    """The mean, None when no question counted (JSON null, "–" on screen)."""
    return sum(values) / len(values) if values else None


def std(values: Sequence[float]) -> float | None:
    """The population standard deviation, None when no question counted."""
    if not values:
        return None
    centre = sum(values) / len(values)
    return math.sqrt(sum((v - centre) ** 2 for v in values) / len(values))


@dataclass(frozen=True)
class Metric:
    """One measure of retrieval quality."""

    name: str
    per_question: Callable[[Outcome], float | None]
    aggregate: Callable[[Sequence[float]], float | None] = mean
    higher_is_better: bool = True
    display: Display = "percent"
    # where it breaks a tie between configurations equal on the chosen metric (lower first)
    tie_break: int = 100
    panel: Panel = "details"

    def values(self, outcomes: Sequence[Outcome]) -> list[float]:
        """The values of the questions that count for this metric."""
        return [v for v in (self.per_question(o) for o in outcomes) if v is not None]

    def value(self, outcomes: Sequence[Outcome]) -> float | None:
        """The aggregate over the questions that count for this metric."""
        return self.aggregate(self.values(outcomes))

    def better_key(self, value: float | None) -> float:
        """A sort key where larger is better and no value is worst."""
        if value is None:
            return float("-inf")
        return value if self.higher_is_better else -value


METRICS: dict[str, Metric] = {}


def register_metric(metric: Metric) -> Metric:
    """Add a metric under its name (a second one with the same name replaces the first)."""
    METRICS[metric.name] = metric
    return metric


def metric_names() -> tuple[str, ...]:
    return tuple(METRICS)


def panel_metrics(panel: Panel) -> tuple[str, ...]:
    """The registered metrics the app's panel shows in ``panel``, in registration order."""
    return tuple(name for name, metric in METRICS.items() if metric.panel == panel)


def get_metric(name: str) -> Metric:
    """The registered metric ``name``, or ValueError naming the known ones."""
    if name not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {name!r}")
    return METRICS[name]


# --- the built-in metrics -----------------------------------------------------------------


def answer_rank(outcome: Outcome) -> int | Literal[False] | None:
    """The rank of the chunk holding the answer (None: not retrieved at all), or False when
    the question does not count for rank metrics: unlabelled, unanswerable, no expected
    answer, or no diagnosis."""
    question = outcome.question
    if question.is_answerable is not True or not question.expected:
        return False
    if outcome.diagnosis is None:
        return False
    return outcome.diagnosis.answer_rank


def _hit_at(k: Callable[[Outcome], int]) -> Callable[[Outcome], float | None]:
    def hit(outcome: Outcome) -> float | None:
        rank = answer_rank(outcome)
        if rank is False:
            return None
        return 1.0 if rank is not None and rank <= k(outcome) else 0.0
    return hit


def _reciprocal_rank(outcome: Outcome) -> float | None:
    rank = answer_rank(outcome)
    if rank is False:
        return None
    return 1 / rank if rank is not None else 0.0


def _refusal_right(outcome: Outcome) -> float | None:
    """Over refused labelled questions: 1 when the question had no answer."""
    if outcome.question.is_answerable is None or not outcome.decision.refused:
        return None
    return 0.0 if outcome.question.is_answerable else 1.0


def _unanswerable_refused(outcome: Outcome) -> float | None:
    """Over unanswerable questions: 1 when retrieval refused."""
    if outcome.question.is_answerable is not False:
        return None
    return 1.0 if outcome.decision.refused else 0.0


register_metric(Metric("hit_at_1", _hit_at(lambda _o: 1), panel="headline"))
register_metric(Metric("hit_at_k", _hit_at(lambda o: o.decision.top_k), tie_break=2))
register_metric(Metric("mrr", _reciprocal_rank, display="decimal", tie_break=1))
register_metric(Metric("refusal_precision", _refusal_right, tie_break=4))
register_metric(Metric("refusal_recall", _unanswerable_refused, tie_break=3, panel="headline"))


def _token(name: str) -> Callable[[Outcome], float | None]:
    """A token-level measure (``ragviz.evaluation.excerpts``) of questions with excerpts."""
    def value(outcome: Outcome) -> float | None:
        return None if outcome.tokens is None else float(getattr(outcome.tokens, name))
    return value


register_metric(Metric("recall", _token("recall"), tie_break=5, panel="tokens"))
register_metric(Metric("precision", _token("precision"), tie_break=7, panel="tokens"))
register_metric(Metric("iou", _token("iou"), tie_break=6, panel="tokens"))
register_metric(Metric("precision_omega", _token("precision_omega"), tie_break=8))
