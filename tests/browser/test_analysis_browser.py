"""Diagnosis and calibration in a real browser: every label and explanation the default
sample produces is visible on the "Questions & scores" tab, the calibration charts are drawn
with the suggested floor and margin beside them, and "Apply suggested floor" moves the floor
slider. The expected values come from the core (``ragviz.evaluation.pipeline.analyse``), not
the page."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from ragviz.evaluation.calibration import calibrate_outcomes
from ragviz.i18n import t
from ragviz.present.presentation import calibration_message, diagnosis_text, format_score
from ragviz_app.app_state import slider_floor

from .conftest import AppPage, default_analyses, visible_texts

pytestmark = pytest.mark.browser

BADGE = "span.rv-label"  # a label badge (ragviz.present.label_words.badge_html)
CAPTION = '[data-testid="stCaptionContainer"]'
METRIC = '[data-testid="stMetric"]'


def page_floor(app: AppPage) -> float:
    return float(app.slider("floor").get_attribute("value") or "nan")


def test_every_diagnosis_label_and_explanation_is_visible(app: AppPage) -> None:
    app.open()
    floor = page_floor(app)
    first_visit = default_analyses(0.0)
    calibration_b = first_visit["b"].calibration
    assert calibration_b is not None
    assert floor == slider_floor(calibration_b.floor), "the first visit shows B's measured floor"

    analyses = default_analyses(floor)
    outcomes = [o for side in ("a", "b") for o in analyses[side].outcomes]
    diagnoses = [o.diagnosis for o in outcomes if o.diagnosis is not None]
    expected_labels = Counter(label for d in diagnoses for label in d.labels)
    failing = [d for d in diagnoses if not d.ok]
    assert failing, "the default sample is meant to show failures (A cuts the answers)"
    assert len(expected_labels) >= 3, expected_labels

    app.open_tab(t("tab.questions", "en"))
    app.wait_idle()
    # the first page of a test session may still be drawing its badges after idle (the
    # first floor is measured, then the tab redrawn): wait for every badge to be visible
    app.page.wait_for_function(
        """([selector, count]) => [...document.querySelectorAll(selector)]
            .filter(e => e.checkVisibility()).length >= count""",
        arg=[BADGE, sum(expected_labels.values())])
    shown_labels = Counter(visible_texts(app, BADGE))
    assert shown_labels == expected_labels, "one badge per label, per question and side"

    captions = visible_texts(app, CAPTION)
    for diagnosis in diagnoses:
        said = diagnosis_text(diagnosis)
        assert said in captions, f"not shown: {said!r}"
    for diagnosis in failing:
        sentence = app.page.get_by_text(diagnosis_text(diagnosis), exact=True).first
        assert sentence.is_visible(), diagnosis_text(diagnosis)
    app.assert_healthy()


def test_calibration_chart_numbers_and_apply_button(app: AppPage, screenshot_dir: Path) -> None:
    app.open()
    floor = page_floor(app)
    analyses = default_analyses(floor)
    expected = {}
    for side in ("a", "b"):
        labelled = [
            o
            for o in analyses[side].outcomes
            if o.question.is_answerable is not None and len(o.decision.ranking)
        ]
        expected[side] = calibrate_outcomes(labelled, 1.0, 1.0)  # the tab's default costs

    # The button above the tabs offers B's floor, saying so, once the floor is moved off
    # it; the floor's tooltip says B's margin.
    assert app.page.locator(".st-key-apply_floor").count() == 0, "the floor already is it"
    app.nudge_slider("floor", 3)
    app.wait_idle()
    top_button = app.page.locator(".st-key-apply_floor button")
    top_button.wait_for()
    assert top_button.inner_text().strip() == t(
        "app.apply_floor_side", "en", side="B", floor=format_score(expected["b"].floor)
    )
    app.page.locator('.st-key-floor [data-testid="stTooltipIcon"]').hover()
    tooltip = app.page.locator('[data-testid="stTooltipContent"]')
    tooltip.wait_for()
    assert t("app.margin_b", "en", margin=format_score(expected["b"].margin)) in (
        tooltip.inner_text())
    app.page.mouse.move(0, 0)

    app.open_tab(t("tab.calibration", "en"))
    app.wait_charts(2)
    assert app.assert_charts_drawn(min_height=40) >= 2, "a calibration chart per configuration"

    metrics = app.page.locator(METRIC).locator("visible=true")
    pairs = []
    for i in range(metrics.count()):
        label = metrics.nth(i).locator('[data-testid="stMetricLabel"]').inner_text().strip()
        value = metrics.nth(i).locator('[data-testid="stMetricValue"]').inner_text().strip()
        pairs.append((label, value))
    for side in ("a", "b"):
        assert (t("app.suggested_floor", "en"), format_score(expected[side].floor)) in pairs
        assert (t("app.margin", "en"), format_score(expected[side].margin)) in pairs
    for side in ("a", "b"):
        message = calibration_message(expected[side], "en")
        assert app.page.get_by_text(message, exact=True).first.is_visible(), message
    app.screenshot_full(screenshot_dir / "calibration.png")

    # A's suggested floor differs from the floor on the page: applying it moves the slider.
    wanted = slider_floor(expected["a"].floor)
    assert wanted != floor, "pick a side whose floor differs, or the click proves nothing"
    app.page.locator(".st-key-apply_floor_a button").click()
    app.page.wait_for_function(
        """(wanted) => {
            const input = document.querySelector('.st-key-floor input[type="range"]');
            return input && Math.abs(parseFloat(input.value) - wanted) < 1e-9;
        }""",
        arg=wanted,
    )
    app.wait_rendered(doc_tab=False)
    assert page_floor(app) == wanted
    shown = app.page.locator(".st-key-floor").inner_text()
    assert f"{wanted:.2f}" in shown, f"the slider does not show {wanted:.2f}: {shown!r}"
    app.assert_healthy()
