"""A floor or top_k move reruns only the retrieval fragment (issue 25, item 3): in a real
browser, nothing on the page is left stale by it, and rows typed but not applied in the
question editor (outside the fragment) survive it (issue 19's rule)."""

from __future__ import annotations

import contextlib
import csv
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from ragviz.i18n import t

from .conftest import CHART, AppPage, default_analyses, download, url_query
from .grid import open_editor
from .test_typing_browser import (
    QUESTIONS,
    assert_two_typed_rows_applied,
    clear_questions,
    type_rows,
)

pytestmark = pytest.mark.browser

# Everything the main area says, the charts' own text (axes, labels) included.
MAIN_TEXT_JS = """() => {
    const main = document.querySelector('[data-testid="stMain"]');
    const svg = [...main.querySelectorAll('svg text')].map(e => e.textContent).join('|');
    return main.innerText + '\\n' + svg;
}"""


def step(app: AppPage, key: str, arrows: int) -> None:
    """Move slider ``key`` by ``arrows`` key presses and wait for the redrawn page."""
    before = app.slider(key).input_value()
    app.nudge_slider(key, arrows)
    app.page.wait_for_function(
        "([key, before]) => document.querySelector(`.st-key-${key} input[type=range]`)"
        ".value !== before", arg=[key, before])
    # the presses may still be on their way (the page can be idle between two of them, as it
    # was once on a loaded CI machine): done when the address bar, which the last run writes,
    # carries the value the slider shows
    app.page.wait_for_function(
        """([key, param]) => {
            const shown = document.querySelector(`.st-key-${key} input[type=range]`).value;
            const linked = new URLSearchParams(location.search).get(param);
            return linked !== null && Math.abs(parseFloat(linked) - parseFloat(shown)) < 1e-9;
        }""", arg=[key, {"floor": "floor", "top_k": "k"}[key]])
    app.wait_idle()
    app.wait_rendered(doc_tab=False)


@pytest.mark.parametrize(("tab", "key", "arrows"), [
    (None, "floor", 3), (None, "top_k", 2), ("calibration", "floor", -2),
])
def test_after_a_step_the_page_is_the_one_its_link_draws(
    app: AppPage, tab: str | None, key: str, arrows: int,
) -> None:
    """Every number on the page after a fragment rerun is the one a full run draws for the
    same settings: the page is compared, text and chart labels, with a fresh page opened
    at the link the step left in the address bar."""
    app.open(tab=tab)
    first = app.page.evaluate(MAIN_TEXT_JS)
    step(app, key, arrows)
    stepped = app.page.evaluate(MAIN_TEXT_JS)
    assert stepped != first, "the step changed what the page says"
    fresh = AppPage(app.page.context.new_page(), app.page.url)
    try:
        fresh.page.goto(fresh.url)  # a new session: on this shared machine, allow it time
        fresh.wait_rendered(timeout_ms=120_000, doc_tab=False)
        if tab is not None:
            fresh.open_tab(t(f"tab.{tab}", "en"), timeout_ms=120_000)
        with contextlib.suppress(PlaywrightTimeout):  # its last charts may still be drawing
            fresh.page.wait_for_function(f"(want) => ({MAIN_TEXT_JS})() === want", arg=stepped,
                                         timeout=10_000)
        assert fresh.page.evaluate(MAIN_TEXT_JS) == stepped
    finally:
        fresh.page.close()
    app.assert_healthy()


def test_rows_typed_but_not_applied_survive_floor_and_top_k_steps(app: AppPage) -> None:
    app.open(tab=None)
    clear_questions(app)
    type_rows(app, QUESTIONS[:2])
    app.page.keyboard.press("Escape")
    step(app, "floor", 2)
    step(app, "top_k", 1)
    open_editor(app)
    app.page.locator(".st-key-apply_questions button").filter(
        has_text=t("app.apply_questions", "en")).click()
    assert_two_typed_rows_applied(app)


def test_the_downloads_follow_a_floor_step(app: AppPage, tmp_path: Path) -> None:
    """The sidebar's buttons are drawn by full runs and read what the fragment last recorded
    when clicked: after a floor step the results CSV carries the new floor (a download button
    drawn inside the fragment lost its file: Streamlit's "Deferred file not found")."""
    app.open(tab=None)
    step(app, "floor", 3)
    floor = float(app.slider("floor").input_value())
    with (download(app, "download_results", tmp_path / "results.csv")).open(
            encoding="utf-8-sig") as handle:
        floors = {row["floor"] for row in csv.DictReader(handle)}
    assert floors == {f"{floor:.2f}"}
    html = download(app, "download_report", tmp_path / "report.html").read_text("utf-8")
    assert html.startswith("<!DOCTYPE html>") and f"{floor:.2f}" in html
    app.assert_healthy()


# Each visible chart's bars (its first rect mark: the answer outline is drawn after it), their
# fill colours in data order, which is ranking order.
BAR_FILLS_JS = """(chart) => [...document.querySelectorAll(chart)]
    .filter(c => c.checkVisibility())
    .map(c => [...(c.querySelector('svg.marks g.mark-rect')?.querySelectorAll('path') ?? [])]
        .map(p => p.getAttribute('fill')))"""


SLIDERS_AGREE_WITH_LINK_JS = """() => {
    const link = new URLSearchParams(location.search);
    const value = key => document.querySelector(`.st-key-${key} input[type=range]`)?.value;
    return Number(value('top_k')) === Number(link.get('k'))
        && Number(value('floor')) === Number(link.get('floor'));
}"""


def test_after_steps_every_bar_has_the_colour_of_what_retrieval_did(app: AppPage) -> None:
    """A bar's status is computed in the browser by the chart (Vega) from the decision's
    top_k and floor, so that a step changes one row instead of every bar: after top_k and
    floor steps, every bar of the fourteen charts has the colour the core's decision gives
    (sent as context, in top_k under the floor, not retrieved)."""
    from ragviz.evaluation.pipeline import rescore
    from ragviz.evaluation.results import RetrievalSettings
    from ragviz.present.charts import MAX_BARS
    from ragviz.present.palette import HIT, OTHER, UNDER_FLOOR

    app.open(tab=None)
    step(app, "top_k", 2)
    for _ in range(10):  # one press at a time: each one drawn before the next
        step(app, "floor", 1)
    # the page link says what the server last drew: wait until the sliders say the same
    app.page.wait_for_function(SLIDERS_AGREE_WITH_LINK_JS)
    app.wait_idle()
    query = url_query(app)
    top_k, floor = int(query["k"]), float(query["floor"])
    fills = app.page.evaluate(BAR_FILLS_JS, CHART)
    expected = []
    analyses = {side: rescore(analysis, RetrievalSettings(top_k, floor))
                for side, analysis in default_analyses(floor).items()}
    for position in range(len(analyses["a"].outcomes)):
        for side in ("a", "b"):
            decision = analyses[side].outcomes[position].decision
            hits = {hit.index for hit in decision.hits}
            ranked = decision.ranking[:MAX_BARS].tolist()
            expected.append([HIT if i in hits else UNDER_FLOOR if rank < top_k else OTHER
                             for rank, i in enumerate(ranked)])
    assert fills == expected
    colours = {colour for chart in fills for colour in chart}
    assert colours == {HIT, UNDER_FLOOR, OTHER}, "the steps left bars of every kind"
    app.assert_healthy()


# Counts the DOM changes, from now on, inside each visible chart's score labels (its first text
# mark layer, drawn right after the bars; axis labels are not marks) and its floor rule.
WATCH_LABELS_JS = """(chart) => {
    window.__rvChanges = {labels: 0, rule: 0};
    for (const c of [...document.querySelectorAll(chart)].filter(c => c.checkVisibility())) {
        for (const [kind, selector] of [['labels', 'g.mark-text.role-mark'],
                                        ['rule', 'g.mark-rule.role-mark']]) {
            const group = c.querySelector(`svg.marks ${selector}`);
            if (group) new MutationObserver(found => { window.__rvChanges[kind] += found.length; })
                .observe(group, {subtree: true, attributes: true, childList: true,
                                 characterData: true});
        }
    }
}"""

LABEL_TEXTS_JS = """(chart) => [...document.querySelectorAll(chart)]
    .filter(c => c.checkVisibility())
    .map(c => c.querySelector('svg.marks g.mark-text.role-mark'))
    .map(g => [...(g?.querySelectorAll('text') ?? [])].map(e => e.textContent))"""


def test_a_floor_step_moves_the_rule_without_redrawing_the_score_labels(app: AppPage) -> None:
    """A floor step changes each chart's one-row floor dataset; the bars' order is the y
    scale's given domain, so the labels of unchanged scores are left as they are. With the
    domain computed from the data, every chart's every score label was set again on each
    step (font and size of all 560 labels on a 99,000-character paste: ~25 ms of the
    browser's main thread, docs/benchmarks.md "Stop 21")."""
    app.open(tab=None)
    app.page.wait_for_function(  # every chart drawn with its score labels
        f"(chart) => {{ const found = ({LABEL_TEXTS_JS})(chart);"
        " return found.length === 14 && found.every(texts => texts.length > 0); }", arg=CHART)
    labels = app.page.evaluate(LABEL_TEXTS_JS, CHART)
    app.page.evaluate(WATCH_LABELS_JS, CHART)
    step(app, "floor", 2)
    changes = app.page.evaluate("window.__rvChanges")
    assert app.page.evaluate(LABEL_TEXTS_JS, CHART) == labels, "the same scores, as written"
    assert changes["rule"] > 0, "the floor rule moved"
    assert changes["labels"] == 0
    app.assert_healthy()
