"""Small screens: at 1024x768 with the sidebar open no button or metric label is cut, in
either language, in the explorer and in the guided replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from .conftest import CHART, IDLE_JS, PAGE_LAYOUT, AppPage, wait_layout

pytestmark = pytest.mark.browser

# Every button label, metric label and select value whose text is wider than its box
# (cut with an ellipsis or hidden), with its text, so a failure names what is cut.
CUT_LABELS_JS = """() => {
    const sel = ['[data-testid^="stBaseButton"] p', '[data-testid^="stBaseButton"] div',
                 '[data-testid="stMetricLabel"] p', '[data-testid="stMetricLabel"] div',
                 '[data-testid="stMetricValue"] div', '[data-testid="stWidgetLabel"] p'];
    const cut = [...document.querySelectorAll(sel.join(','))]
        .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1)
        .map(e => e.innerText.trim()).filter(text => text.length > 0);
    // a select shows its value in an input, which scrolls instead of wrapping
    const selects = [...document.querySelectorAll('[data-testid="stSelectbox"] input')]
        .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1)
        .map(e => 'select: ' + e.value);
    return cut.concat(selects);
}"""
# What CUT_LABELS_JS measures, and the page around it: laid out once these stop moving.
LABELS = ('[data-testid^="stBaseButton"], [data-testid="stMetricLabel"], '
          '[data-testid="stMetricValue"], [data-testid="stWidgetLabel"], '
          f'[data-testid="stSelectbox"] input, {PAGE_LAYOUT}')


@pytest.mark.parametrize("lang", ["en", "pt"])
@pytest.mark.parametrize("query", ["", "walk=1", "walk=6"])
def test_nothing_is_cut_at_1024x768(
    app: AppPage, lang: str, query: str, screenshot_dir: Path
) -> None:
    page: Any = app.page
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{app.url}/?lang={lang}&{query}")
    app.wait_idle(60_000)
    app.assert_no_exception()
    page.wait_for_function(IDLE_JS)
    wait_layout(page, LABELS)  # fonts loaded, columns and labels laid out
    name = query.replace("=", "") or "explorer"
    page.screenshot(path=str(screenshot_dir / f"{name}-1024x768-{lang}.png"))
    assert page.evaluate(CUT_LABELS_JS) == []


# Where the headline numbers and the first question's two bar charts are drawn, in page
# pixels before any scroll, so a failure says how far below the fold each one ends.
FIRST_SCREEN_JS = """() => {
    const box = e => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
    const shown = sel => [...document.querySelectorAll(sel)].filter(e => e.checkVisibility());
    return {
        metrics: shown('[data-testid="stMetricValue"]').map(box),
        charts: shown('[data-testid="stVegaLiteChart"]').slice(0, 2).map(box),
    };
}"""


def first_screen(app: AppPage, lang: str, width: int, height: int, screenshot_dir: Path
                 ) -> dict[str, list[list[float]]]:
    """Open a first visit at ``width`` x ``height``; where its headline numbers and first two
    charts are (top, bottom in px from the viewport's top)."""
    page: Any = app.page
    page.set_viewport_size({"width": width, "height": height})
    app.url = f"{app.url}/?lang={lang}"
    app.open(tab=None)
    # the script can be done while the browser still draws its last elements: measure once
    # the four numbers and two charts are all there
    page.wait_for_function(
        "() => { const p = (" + FIRST_SCREEN_JS + ")();"
        " return p.metrics.length == 4 && p.charts.length == 2; }"
    )
    wait_layout(page, f'[data-testid="stMetricValue"], {CHART}')  # the columns are laid out
    placed: dict[str, list[list[float]]] = page.evaluate(FIRST_SCREEN_JS)
    page.screenshot(path=str(screenshot_dir / f"first-screen-{width}x{height}-{lang}.png"))
    return placed


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_first_screen_shows_the_numbers_and_the_first_bars(
    app: AppPage, lang: str, screenshot_dir: Path
) -> None:
    """Issue 9: at 1280x800 a first visit sees both configurations' headline numbers and
    the first question's score bars for A and B without scrolling."""
    placed = first_screen(app, lang, 1280, 800, screenshot_dir)
    for top, bottom in placed["metrics"] + placed["charts"]:
        assert top >= 0 and bottom <= 800, placed
    assert_level(placed)


def assert_level(placed: dict[str, list[list[float]]]) -> None:
    """A's two headline numbers and B's (with its deltas) on one line, to the pixel."""
    (a_hit, _), (a_refused, _), (b_hit, _), (b_refused, _) = placed["metrics"]
    assert max(a_hit, a_refused, b_hit, b_refused) - min(a_hit, a_refused, b_hit,
                                                         b_refused) <= 1, placed


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_a_projector_first_screen_shows_the_first_bars(
    app: AppPage, lang: str, screenshot_dir: Path
) -> None:
    """Issue 19, medium 5: at 1024x768 (a projector, sidebar open) the first screen showed
    no score bars. Now both headline numbers and the first question's first bars of A and
    B are on it (the charts' top 60 px: the floor label and the two best chunks)."""
    placed = first_screen(app, lang, 1024, 768, screenshot_dir)
    for top, bottom in placed["metrics"]:
        assert top >= 0 and bottom <= 768, placed
    assert_level(placed)
    for top, _bottom in placed["charts"]:
        assert top >= 0 and top + 60 <= 768, placed


# The question table's help caption and, on hover, the table's toolbar: the toolbar is
# drawn over whatever sits above the table, so a caption there has its end covered.
CAPTION_UNDER_TOOLBAR_JS = """() => {
    const editor = document.querySelector('.st-key-questions_editor');
    const bar = editor && editor.querySelector('[data-testid="stElementToolbar"]');
    if (!bar) return 'no toolbar';
    const b = bar.getBoundingClientRect();
    return [...document.querySelectorAll('[data-testid="stCaptionContainer"]')]
        .filter(c => c.checkVisibility())
        .filter(c => { const r = c.getBoundingClientRect();
                       return r.left < b.right && b.left < r.right
                           && r.top < b.bottom && b.top < r.bottom; })
        .map(c => c.innerText.trim());
}"""


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_question_tables_toolbar_covers_no_caption(
    app: AppPage, lang: str, screenshot_dir: Path
) -> None:
    """Issue 19, low 13: the toolbar covered the end of the table's help caption."""
    from .grid import EDITOR, open_editor

    page: Any = app.page
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{app.url}/?lang={lang}")
    app.wait_idle(60_000)
    open_editor(app)
    page.locator(EDITOR).hover()
    page.locator(f"{EDITOR} [data-testid='stElementToolbar']").wait_for(state="visible")
    box = page.locator(EDITOR).bounding_box()
    page.screenshot(path=str(screenshot_dir / f"question-toolbar-{lang}.png"), clip={
        "x": box["x"], "y": box["y"] - 90, "width": box["width"], "height": 180})
    assert page.evaluate(CAPTION_UNDER_TOOLBAR_JS) == []


# The numbers the visible charts write on their axes (SVG text of the axis labels).
AXIS_NUMBERS_JS = """() => [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
    .filter(c => c.checkVisibility())
    .flatMap(c => [...c.querySelectorAll('.role-axis-label text')].map(t => t.textContent))
    .filter(text => /^-?[0-9]+[.,][0-9]+$/.test(text))"""


def test_portuguese_charts_write_decimal_commas(app: AppPage, screenshot_dir: Path) -> None:
    """Issue 19, low 9: in Portuguese the axes said 0.19 where the text says 0,19."""
    page: Any = app.page
    page.goto(f"{app.url}/?lang=pt")
    app.wait_idle(60_000)
    app.open_tab("Calibração")
    wait_layout(page, f"{CHART}, {CHART} .role-axis-label text")  # the axes are drawn
    page.screenshot(path=str(screenshot_dir / "calibration-pt.png"), full_page=True)
    shown = page.evaluate(AXIS_NUMBERS_JS)
    assert shown and all("," in text for text in shown), shown
    floor = page.locator('.st-key-floor [data-testid="stSliderThumbValue"]').inner_text()
    assert "," in floor and "." not in floor, floor  # the slider beside them too (issue 36)
