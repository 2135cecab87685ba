"""A score floor measured from labelled questions instead of guessed.

Following the article: take each labelled question's best score; when every answerable
question scores above every unanswerable one, put the floor between the two groups and
report the margin. When the groups overlap no floor is right for all, so we say so and
pick the floor that minimises a weighted count of false refusals and false answers.
A score passes when ``score >= floor``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Protocol

from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.decision import Decision
from ragviz.retrieval.scorers import CosineScorer, ScoreScale


class ScoredQuestion(Protocol):
    """What calibration reads from an outcome (``ragviz.evaluation.results.QuestionOutcome``
    is one), named here so calibration does not import the results it is part of."""

    @property
    def question(self) -> LabelledQuestion: ...

    @property
    def decision(self) -> Decision: ...

# How far beyond the lowest / highest score the curve's end points sit, as a share of half
# a bounded scale (0.05 on cosine's -1..1) or of the scores' spread on an open one.
END_PAD = 0.05
COSINE_SCALE = CosineScorer.scale


def end_pad(scores: Sequence[float], scale: ScoreScale = COSINE_SCALE) -> float:
    """How far past the lowest and highest score the curve and the cheapest run reach."""
    if scale.bounded:
        return END_PAD * (scale.high - scale.low) / 2
    return END_PAD * max(max(scores) - min(scores), 10 * scale.step)


@dataclass(frozen=True)
class FloorPoint:
    """What one candidate floor would do to the labelled questions."""

    floor: float
    false_refusals: int
    false_answers: int
    cost: float


@dataclass(frozen=True, kw_only=True)
class Calibration:
    """The suggested floor, how well it separates the groups, and the trade-off curve
    (``ragviz calibrate --json`` prints these fields: ``ragviz.cli.outputs``)."""

    floor: float = field(metadata={
        "description": "the score floor on the scorer's scale (calibrate: the suggested floor; "
                       "the one given is floor_given)"})
    separable: bool
    margin: float  # lowest answerable minus highest unanswerable; negative when overlapping
    lowest_answerable: float
    highest_unanswerable: float
    false_refusals: int
    false_answers: int
    cost_false_refusal: float
    cost_false_answer: float
    curve: tuple[FloorPoint, ...]


def count_errors(
    answerable: Sequence[float], unanswerable: Sequence[float], floor: float
) -> tuple[int, int]:
    """(false refusals, false answers) at ``floor``."""
    false_refusals = sum(1 for s in answerable if s < floor)
    false_answers = sum(1 for s in unanswerable if s >= floor)
    return false_refusals, false_answers


def calibrate(
    answerable_best: Sequence[float],
    unanswerable_best: Sequence[float],
    cost_false_refusal: float = 1.0,
    cost_false_answer: float = 1.0,
    scale: ScoreScale = COSINE_SCALE,
) -> Calibration:
    """The floor from the best score of each answerable and each unanswerable question, on
    the scorer's ``scale`` (its decimals, how far the curve reaches past the scores)."""
    if not answerable_best or not unanswerable_best:
        raise ValueError(
            "calibration needs at least one answerable and one unanswerable labelled question, "
            f"got {len(answerable_best)} answerable and {len(unanswerable_best)} unanswerable"
        )
    for name, weight in (("cost_false_refusal", cost_false_refusal),
                         ("cost_false_answer", cost_false_answer)):
        if not math.isfinite(weight) or weight < 0:
            raise ValueError(f"{name} must be a number, zero or more, got {weight}")
    answerable = [float(s) for s in answerable_best]
    unanswerable = [float(s) for s in unanswerable_best]
    lowest, highest = min(answerable), max(unanswerable)

    def cost(floor: float) -> float:
        refusals, answers = count_errors(answerable, unanswerable, floor)
        return cost_false_refusal * refusals + cost_false_answer * answers

    scores = sorted(set(answerable + unanswerable))
    separable = lowest > highest
    pad = end_pad(scores, scale)
    floor = _separating_floor(lowest, highest, scale.digits) if separable \
        else _cheapest_floor(scores, cost, pad, scale.digits)
    curve = tuple(
        FloorPoint(f, *count_errors(answerable, unanswerable, f), cost(f))
        for f in _candidates(scores, pad)
    )
    refusals, answers = count_errors(answerable, unanswerable, floor)
    return Calibration(
        floor=floor,
        separable=separable,
        margin=lowest - highest,
        lowest_answerable=lowest,
        highest_unanswerable=highest,
        false_refusals=refusals,
        false_answers=answers,
        cost_false_refusal=float(cost_false_refusal),
        cost_false_answer=float(cost_false_answer),
        curve=curve,
    )


def _separating_floor(lowest: float, highest: float, digits: int = 2) -> float:
    """The midpoint, rounded to the scale's decimals when the rounded value still separates."""
    middle = (lowest + highest) / 2
    rounded = round(middle, digits)
    return rounded if highest < rounded <= lowest else middle


def _candidates(scores: Sequence[float], pad: float = END_PAD) -> list[float]:
    """Every distinct score, the midpoints between neighbours, and one point past each end."""
    points = [scores[0] - pad, scores[-1] + pad, *scores]
    points += [(a + b) / 2 for a, b in pairwise(scores)]
    return sorted(set(points))


def _cheapest_floor(scores: Sequence[float], cost: Callable[[float], float],
                    pad: float = END_PAD, digits: int = 2) -> float:
    """The middle of the widest run of floors with the least cost.

    Between two neighbouring scores the cost is constant: region k holds the floors in
    ``(scores[k-1], scores[k]]``, with a padded region below the lowest score and above
    the highest. Adjacent cheapest regions merge into one run; the widest run wins (the
    lowest on a tie) and the floor is put in its middle, away from any score.
    """
    bounds = [scores[0] - 2 * pad, *scores, scores[-1] + 2 * pad]
    # Region k is (bounds[k], bounds[k+1]]; any floor inside it has the same cost.
    costs = [cost((bounds[k] + bounds[k + 1]) / 2) for k in range(len(bounds) - 1)]
    least = min(costs)
    runs: list[tuple[int, int]] = []
    for k, value in enumerate(costs):
        if value > least:
            continue
        if runs and runs[-1][1] == k - 1:
            runs[-1] = (runs[-1][0], k)
        else:
            runs.append((k, k))
    first, last = max(runs, key=lambda run: (bounds[run[1] + 1] - bounds[run[0]], -run[0]))
    middle = (bounds[first] + bounds[last + 1]) / 2
    rounded = round(middle, digits)  # what the floor slider can hold, when it costs the same
    return rounded if bounds[first] < rounded <= bounds[last + 1] else middle


def calibrate_outcomes(
    outcomes: Sequence[ScoredQuestion],
    cost_false_refusal: float = 1.0,
    cost_false_answer: float = 1.0,
    scale: ScoreScale = COSINE_SCALE,
) -> Calibration:
    """Calibrate from the pipeline's outcomes (unlabelled questions are skipped)."""
    answerable = [o.decision.best_score for o in outcomes if o.question.is_answerable is True]
    unanswerable = [o.decision.best_score for o in outcomes if o.question.is_answerable is False]
    return calibrate(answerable, unanswerable, cost_false_refusal, cost_false_answer, scale)
