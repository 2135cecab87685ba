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

from .conftest import AppPage, download
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
