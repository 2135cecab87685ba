"""The Map tab in a real browser at 1280x800, in English and Portuguese: the chart is drawn
(PCA first, then UMAP), the question labels and their lines are on it, the key above it is
not cut, and nothing on the page raised. Screenshots go to the screenshot folder to be
looked at as a projector audience would."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragviz.i18n import t
from ragviz.share.samples import get_sample
from ragviz_app.walkthrough import STEPS

from .conftest import (
    CHART,
    LAYOUT_STABLE_JS,
    STABLE_FRAMES,
    AppPage,
    paste_document,
    wait_layout,
)
from .test_xss_browser import HOSTILE_DOC

pytestmark = pytest.mark.browser

UMAP_WAIT_MS = 180_000  # numba compiles UMAP on the server's first fit (~20 s here, loaded)
# The map chart's box, its key's box and whether the key's text is wider than its box.
MAP_BOX_JS = """() => {
    const key = document.querySelector('.rv-map-key');
    const charts = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
        .filter(c => c.checkVisibility());
    const box = e => {
        const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
    };
    return {key: key ? box(key) : null, charts: charts.map(box),
            cut: key ? key.scrollWidth > key.clientWidth + 1 : null};
}"""
# The open tab's map and its legend, read in one go once both are drawn and their layout is
# done (a redraw replaces the chart's elements, so boxes read one by one can miss them).
LEGEND_JS = """([frames, token]) => {
    const stable = """ + LAYOUT_STABLE_JS + """;
    const chart = [...document.querySelectorAll('[data-testid="stVegaLiteChart"]')]
        .find(c => c.checkVisibility());
    const legend = chart && chart.querySelector('g.role-legend');
    if (!legend || !legend.checkVisibility()) return false;
    chart.scrollIntoViewIfNeeded();
    const sel = '[data-testid="stVegaLiteChart"], [data-testid="stVegaLiteChart"] g.role-legend';
    if (!stable([sel, frames, token])) return false;
    const box = e => { const r = e.getBoundingClientRect();
                       return {x: r.left, y: r.top, width: r.width, height: r.height}; };
    return {chart: box(chart), legend: box(legend),
            names: [...legend.querySelectorAll('text')].map(t => t.textContent)};
}"""


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_map_tab_draws_legibly_at_1280x800(app: AppPage, lang: str,
                                               screenshot_dir: Path) -> None:
    page: Any = app.page
    page.set_viewport_size({"width": 1280, "height": 800})
    app.url = f"{app.url}/?lang={lang}"
    app.open(tab=None)
    app.open_tab(t("tab.map", lang))
    page.wait_for_selector(".rv-map-key", state="visible")
    page.screenshot(path=str(screenshot_dir / f"map-first-1280x800-{lang}.png"))
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stProgress\"]')",
                           timeout=UMAP_WAIT_MS)
    app.wait_idle(60_000)
    wait_layout(page, f".rv-map-key, {CHART}")  # the swapped chart is laid out
    app.assert_no_exception()
    page.locator(CHART).locator("visible=true").first.scroll_into_view_if_needed()
    page.screenshot(path=str(screenshot_dir / f"map-umap-1280x800-{lang}.png"))
    placed = page.evaluate(MAP_BOX_JS)
    assert placed["key"] is not None and placed["cut"] is False
    assert len(placed["charts"]) == 1
    left, top, right, bottom = placed["charts"][0]
    assert right - left > 700 and bottom - top > 450, placed
    labels = [text.text_content() for text in page.locator(f"{CHART} svg text").all()]
    assert "Q1" in labels, labels[:20]
    assert not app.errors, app.errors


@pytest.mark.parametrize("lang", ["en", "pt"])
def test_the_replay_map_step_shows_the_refund_question_among_the_chunks(
        app: AppPage, lang: str, screenshot_dir: Path) -> None:
    page: Any = app.page
    page.set_viewport_size({"width": 1280, "height": 800})
    step = next(i for i, s in enumerate(STEPS) if s.key == "map")
    page.goto(f"{app.url}/?lang={lang}&walk={step + 1}")
    app.wait_idle(60_000)
    app.assert_no_exception()
    page.wait_for_selector(f"{CHART} svg text")
    wait_layout(page, f"{CHART}, {CHART} svg text")
    page.screenshot(path=str(screenshot_dir / f"map-replay-1280x800-{lang}.png"))
    labels = [text.text_content() for text in page.locator(f"{CHART} svg text").all()]
    assert "Q1" in labels
    assert STEPS[step].title(lang) in page.locator("body").inner_text()
    assert not app.errors, app.errors


def test_a_chunks_hover_shows_its_markup_as_text(app: AppPage) -> None:
    """The map's tooltip (the chunk's head) shows pasted markup literally and runs none."""
    app.open()
    paste_document(app, HOSTILE_DOC, shown="Refunds take 7 days")
    app.open_tab(t("tab.map", "en"))
    page: Any = app.page
    symbols = page.locator(f"{CHART} g.mark-symbol path")
    symbols.first.wait_for()
    for index in range(symbols.count()):
        symbols.nth(index).hover(force=True)
        tooltip = page.locator("#vg-tooltip-element")
        if tooltip.is_visible() and "Refunds" in tooltip.inner_text():
            break
    text = page.locator("#vg-tooltip-element").inner_text()
    assert "<script>alert(1)</script>" in text, text
    assert page.locator("#vg-tooltip-element img, #vg-tooltip-element script").count() == 0
    assert not app.dialogs and not app.errors, (app.dialogs, app.errors)


def test_a_corpus_map_names_every_file_in_an_uncut_legend(app: AppPage,
                                                          screenshot_dir: Path) -> None:
    page: Any = app.page
    page.set_viewport_size({"width": 1280, "height": 800})
    app.url = f"{app.url}/?sample=help_center&k=2"
    app.open(tab=None)
    app.open_tab(t("tab.map", "en"))
    placed = page.wait_for_function(LEGEND_JS, arg=[STABLE_FRAMES, "corpus-legend"],
                                    polling="raf").json_value()
    page.screenshot(path=str(screenshot_dir / "map-corpus-1280x800-en.png"))
    files = {source.name for source in get_sample("help_center").corpus().sources}
    assert files <= set(placed["names"]), (files, placed["names"])
    chart, box = placed["chart"], placed["legend"]
    assert box["x"] + box["width"] <= chart["x"] + chart["width"] + 1, (box, chart)
    assert box["y"] + box["height"] <= chart["y"] + chart["height"] + 1, (box, chart)
