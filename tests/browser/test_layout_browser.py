"""Small screens: at 1024x768 with the sidebar open no button or metric label is cut, in
either language, in the explorer and in the guided replay."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import IDLE_JS, AppPage

pytestmark = pytest.mark.browser

# Every button label, metric label and select value whose text is wider than its box
# (cut with an ellipsis or hidden), with its text, so a failure names what is cut.
CUT_LABELS_JS = """() => {
    const sel = ['[data-testid^="stBaseButton"] p', '[data-testid^="stBaseButton"] div',
                 '[data-testid="stMetricLabel"] p', '[data-testid="stMetricLabel"] div',
                 '[data-testid="stMetricValue"] div', '[data-testid="stWidgetLabel"] p'];
    return [...document.querySelectorAll(sel.join(','))]
        .filter(e => e.checkVisibility() && e.scrollWidth > e.clientWidth + 1)
        .map(e => e.innerText.trim()).filter(text => text.length > 0);
}"""


@pytest.mark.parametrize("lang", ["en", "pt"])
@pytest.mark.parametrize("query", ["", "walk=1", "walk=6"])
def test_nothing_is_cut_at_1024x768(app: AppPage, lang: str, query: str) -> None:
    page: Any = app.page
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{app.url}/?lang={lang}&{query}")
    app.wait_idle(60_000)
    app.assert_no_exception()
    page.wait_for_timeout(1000)  # fonts and columns settle
    page.wait_for_function(IDLE_JS)
    assert page.evaluate(CUT_LABELS_JS) == []
