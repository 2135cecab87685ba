"""The floor from labelled best scores: separating groups, overlapping groups, the curve."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from ragviz.evaluation.calibration import calibrate, count_errors
from ragviz.present.presentation import calibration_message, format_score

# The article: lowest answerable 0.476, highest unanswerable 0.348, floor 0.41.
ARTICLE_ANSWERABLE = [0.732, 0.476, 0.61, 0.55]
ARTICLE_UNANSWERABLE = [0.339, 0.348, 0.206]


def test_article_groups_separate_at_041_with_margin_0128() -> None:
    result = calibrate(ARTICLE_ANSWERABLE, ARTICLE_UNANSWERABLE)
    assert result.separable
    assert result.floor == 0.41
    assert result.margin == pytest.approx(0.128)
    assert (result.false_refusals, result.false_answers) == (0, 0)


def test_midpoint_kept_exact_when_rounding_would_not_separate() -> None:
    result = calibrate([0.4125], [0.4105])
    assert result.floor == pytest.approx(0.4115)
    assert 0.4105 < result.floor <= 0.4125


def test_equal_best_scores_do_not_separate() -> None:
    result = calibrate([0.4, 0.6], [0.4, 0.2])
    assert not result.separable
    assert result.margin == 0.0


def test_overlap_says_so_and_counts_errors_at_the_floor() -> None:
    result = calibrate([0.3, 0.6], [0.4, 0.2])
    assert not result.separable
    assert result.margin == pytest.approx(-0.1)
    assert (result.false_refusals, result.false_answers) == count_errors(
        [0.3, 0.6], [0.4, 0.2], result.floor
    )
    assert result.false_refusals + result.false_answers == 1
    assert "No floor separates the groups" in calibration_message(result, "en")
    assert "Nenhum piso separa os grupos" in calibration_message(result, "pt")


def test_tied_cost_puts_floor_in_middle_of_widest_cheapest_interval() -> None:
    # Cost 1 for floors in (0.2, 0.3] and in (0.4, 0.6]; the wider one wins, at its middle.
    assert calibrate([0.3, 0.6], [0.4, 0.2]).floor == pytest.approx(0.5)


def test_expensive_false_refusals_lower_the_floor() -> None:
    result = calibrate([0.3, 0.6], [0.4, 0.2], cost_false_refusal=5.0)
    assert result.false_refusals == 0
    assert result.false_answers == 1
    assert 0.2 < result.floor <= 0.3


def test_expensive_false_answers_raise_the_floor() -> None:
    result = calibrate([0.3, 0.6], [0.4, 0.5], cost_false_answer=5.0)
    assert result.false_answers == 0
    assert result.floor > 0.5


def test_curve_has_every_score_midpoints_and_both_ends() -> None:
    scores = [0.3, 0.6, 0.4, 0.2]
    floors = [p.floor for p in calibrate(scores[:2], scores[2:]).curve]
    assert floors == sorted(floors)
    for score in scores:
        assert score in floors
    assert floors[floors.index(0.3) + 1] == pytest.approx(0.35)
    assert floors[0] < 0.2
    assert floors[-1] > 0.6


def test_curve_points_count_false_refusals_and_false_answers() -> None:
    result = calibrate([0.3, 0.6], [0.4, 0.2], cost_false_refusal=2.0)
    point = next(p for p in result.curve if p.floor == 0.4)
    assert (point.false_refusals, point.false_answers) == (1, 1)  # 0.3 refused, 0.4 passes
    assert point.cost == 3.0


@pytest.mark.parametrize(
    ("answerable", "unanswerable"), [([], [0.2]), ([0.5], []), ([], [])]
)
def test_needs_both_groups(answerable: list[float], unanswerable: list[float]) -> None:
    with pytest.raises(ValueError, match="at least one answerable and one unanswerable"):
        calibrate(answerable, unanswerable)


def test_negative_cost_is_rejected() -> None:
    with pytest.raises(ValueError, match="cost_false_answer"):
        calibrate([0.5], [0.2], cost_false_answer=-1.0)


def test_separable_message_gives_floor_and_margin_in_both_languages() -> None:
    result = calibrate(ARTICLE_ANSWERABLE, ARTICLE_UNANSWERABLE)
    assert "floor 0.41" in calibration_message(result, "en")
    assert "margin of 0.128" in calibration_message(result, "en")
    assert "piso 0,41" in calibration_message(result, "pt")


def test_its_fields_are_json_with_the_documented_keys() -> None:
    data = asdict(calibrate([0.3, 0.6], [0.4, 0.2]))  # what ``calibrate --json`` prints
    assert set(data) == {
        "floor", "separable", "margin", "lowest_answerable", "highest_unanswerable",
        "false_refusals", "false_answers", "cost_false_refusal", "cost_false_answer", "curve",
    }
    assert set(data["curve"][0]) == {"floor", "false_refusals", "false_answers", "cost"}
    assert json.loads(json.dumps(data)) == {**data, "curve": list(data["curve"])}


@pytest.mark.parametrize(("value", "text"), [(0.41, "0.41"), (0.128, "0.128"), (0.4, "0.40")])
def test_format_score(value: float, text: str) -> None:
    assert format_score(value) == text


@pytest.mark.parametrize("weight", [float("nan"), float("inf"), -1.0])
def test_cost_weights_must_be_finite_and_not_negative(weight: float) -> None:
    from ragviz.evaluation.calibration import calibrate

    with pytest.raises(ValueError, match="cost_false_answer must be"):
        calibrate([0.5, 0.3], [0.4], 1.0, weight)


def test_overlapping_groups_get_a_floor_a_slider_can_hold() -> None:
    from ragviz.evaluation.calibration import calibrate

    result = calibrate([0.5, 0.33, 0.61], [0.347, 0.2, 0.1])
    assert not result.separable
    assert result.floor == round(result.floor, 2)
    best = min(point.cost for point in result.curve)
    assert result.false_refusals + result.false_answers == best
