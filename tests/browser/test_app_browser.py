"""What only a real browser shows: the default page renders, its highlighted documents and the
score charts are drawn, and a slider re-cuts the chunks. Two journeys, one per page they open
(the questions tab a visitor sees first, the chunks tab)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ragviz.i18n import t
from ragviz_app.app_state import DEFAULT_SAMPLE, load_sample

from .conftest import DOC, AppPage

pytestmark = pytest.mark.browser


def test_default_page_renders_and_its_score_charts_are_drawn(
        app: AppPage, screenshot_dir: Path) -> None:
    """What a visitor sees first: every question's bars and outcome, each chart drawn."""
    app.open(tab=None)
    app.wait_charts(14)
    shot = screenshot_dir / "default.png"
    app.screenshot_full(shot)
    assert shot.stat().st_size > 20_000, "the screenshot looks empty"
    assert app.page.get_by_text(t("app.title", "en")).is_visible()
    shown = app.assert_charts_drawn(min_height=50, at_most=4)
    assert shown >= 2, "every question gets a score chart per configuration"
    app.assert_healthy()


def assert_highlighted_documents_show_the_sample_in_chunks(app: AppPage) -> None:
    docs = app.page.locator(DOC)
    # auto-waits: the first run may still be drawing configuration B
    expect(docs).to_have_count(2, timeout=30_000)
    for i in range(2):
        doc = docs.nth(i)
        assert doc.is_visible()
        assert "Reembolso" in doc.inner_text()
        badges = doc.locator(".rv-badge")
        assert badges.count() >= 2, f"document {i} shows fewer than two chunks"
        assert badges.first.inner_text().strip() == "#0"


def test_the_chunks_are_highlighted_and_the_size_slider_recuts_them(app: AppPage) -> None:
    app.open()
    assert_highlighted_documents_show_the_sample_in_chunks(app)
    start = int(app.slider("a_size").get_attribute("value") or 0)
    before = app.chunk_badges()
    assert app.page.locator(DOC).first.locator(".rv-badge").count() == math.ceil(
        len(load_sample(DEFAULT_SAMPLE)[0]) / start
    )
    first_badge = f"{DOC} >> nth=0 >> .rv-badge >> nth=0"
    assert f"· {start} chars" in (app.page.locator(first_badge).get_attribute("title") or "")

    app.nudge_slider("a_size", 30)
    app.wait_badges_change(before)
    # Keystrokes that land during a rerun may be dropped, so the size is read back from the
    # slider. Fixed windows are not trimmed: chunk #0 of A is exactly `size` characters, so
    # its badge shows when the page holds the chunks of the value the slider shows.
    app.page.wait_for_function(
        """() => {
            const size = document.querySelector('.st-key-a_size input[type="range"]').value;
            const badge = document.querySelector('.rv-doc .rv-badge');
            return badge && badge.title.includes('· ' + size + ' chars');
        }"""
    )
    app.wait_rendered()
    size = int(app.slider("a_size").get_attribute("value") or 0)
    assert size > start

    after = app.chunk_badges()
    assert after != before
    n_chars = len(load_sample(DEFAULT_SAMPLE)[0])
    a_badges = app.page.locator(DOC).first.locator(".rv-badge")
    assert a_badges.count() == math.ceil(n_chars / size)
    app.assert_healthy()


def test_every_label_badge_says_what_it_means_on_hover(app: AppPage) -> None:
    """Issue 43: a badge's hover (its ``title``, as the browser keeps it after Streamlit's
    Markdown) is the label's definition and fix from the catalog."""
    from ragviz.present.label_words import hover_text

    app.open(tab=None)
    app.wait_charts(14)
    badges = app.page.locator("span.rv-label")
    expect(badges.first).to_be_visible(timeout=30_000)
    assert badges.count() >= 2
    for i in range(badges.count()):
        badge = badges.nth(i)
        label = badge.get_attribute("data-label")
        assert label and badge.get_attribute("title") == hover_text(label, "en")
    badges.first.hover()
    assert "Fix:" in (badges.first.get_attribute("title") or "")
    app.assert_healthy()
