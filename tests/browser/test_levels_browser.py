"""The first screen's first level in a real browser (issue 44.2): at 1280x800 it holds at
most 15 interactive controls and still tells the story (A's 25 % against B's 100 % hit@1);
"More controls" shows the rest."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import CHART, AppPage, wait_layout

pytestmark = pytest.mark.browser

MAX_CONTROLS = 15
# Every interactive element a visitor can see on the screen without scrolling, one per
# control (a radio group, a slider, a select, a number box count once; each tab, button,
# help icon, fold and link counts), with what it is, so a failure names them.
VISIBLE_CONTROLS_JS = """() => {
  const onScreen = e => { if (!e.checkVisibility({opacityProperty: true,
                                                   visibilityProperty: true})) return false;
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && r.bottom > 0 && r.top < innerHeight
          && r.right > 0 && r.left < innerWidth; };
  const sel = 'summary, button, input:not([type=hidden]), textarea, select, a[href], '
      + '[role=tab], [role=radio], [role=switch], [role=checkbox], [role=slider], '
      + '[role=combobox], [role=button]';
  const groups = '[data-testid="stRadio"], [data-testid="stSelectbox"], '
      + '[data-testid="stSlider"], [data-testid="stNumberInput"], [data-testid="stCheckbox"]';
  const seen = new Set(); const out = [];
  for (const e of document.querySelectorAll(sel)) {
    if (!onScreen(e)) continue;
    const unit = e.closest(groups) || e;
    if (seen.has(unit)) continue;
    seen.add(unit);
    const key = [...(e.closest('[class*="st-key-"]')?.classList || [])]
        .find(c => c.startsWith('st-key-')) || '';
    out.push(`${unit.getAttribute('data-testid') || e.tagName} ${key} `
             + (e.getAttribute('aria-label') || e.innerText || '').slice(0, 40));
  }
  return out;
}"""
METRICS_JS = """() => [...document.querySelectorAll('[data-testid="stMetricValue"]')]
    .filter(e => { const r = e.getBoundingClientRect();
                   return e.checkVisibility() && r.top >= 0 && r.bottom <= innerHeight; })
    .map(e => e.innerText.trim())"""


def first_screen(app: AppPage, query: str) -> Any:
    page: Any = app.page
    page.set_viewport_size({"width": 1280, "height": 800})
    app.url = f"{app.url}/?lang=en{query}"
    app.open(tab=None)
    page.wait_for_function(f"() => ({METRICS_JS})().length === 4")
    wait_layout(page, f'[data-testid="stMetricValue"], {CHART}')
    return page


def test_the_first_level_holds_at_most_15_controls_and_tells_the_story(app: AppPage) -> None:
    page = first_screen(app, "")
    controls = page.evaluate(VISIBLE_CONTROLS_JS)
    assert len(controls) <= MAX_CONTROLS, "\n".join(controls)
    assert any("st-key-more_controls" in c for c in controls), "the switch is on screen"
    assert page.evaluate(METRICS_JS)[::2] == ["25%", "100%"], "A's and B's hit@1"
    app.assert_healthy()


def test_more_controls_shows_the_second_level(app: AppPage) -> None:
    page = first_screen(app, "")
    for hidden in (".st-key-a_overlap", ".st-key-typed_a_size", '[role="tab"]'):
        assert not page.locator(hidden).first.is_visible(), hidden
    page.locator(".st-key-more_controls label").click()
    page.wait_for_function("() => new URL(location.href).searchParams.get('more') === '1'")
    app.wait_idle()
    for shown in (".st-key-a_overlap", ".st-key-typed_a_size", '[role="tab"]',
                  '[data-testid="stPopoverButton"]'):
        assert page.locator(shown).first.is_visible(), shown
    controls = page.evaluate(VISIBLE_CONTROLS_JS)
    assert len(controls) > MAX_CONTROLS, "the second level is where the rest went"
    app.assert_healthy()
