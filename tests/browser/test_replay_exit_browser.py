"""Leaving the guided replay in a real browser, by its button and by the sidebar toggle:
every slider and picker shows the value in force, and one step changes one setting
(issue 44.1: they came back at their minimums, B at "fixed", and the first step applied
that)."""

from __future__ import annotations

import pytest

from .conftest import AppPage, url_query

pytestmark = pytest.mark.browser

SLIDERS = ("top_k", "floor", "a_size", "a_overlap", "b_max_chars", "b_overlap_sentences")
PICKERS = ("a_chunker", "b_chunker")
# Every control's value as the page shows it: the sliders' positions, the pickers' texts.
CONTROLS_JS = """([sliders, pickers]) => Object.fromEntries([
    ...sliders.map(k => [k, document.querySelector(`.st-key-${k} input[type="range"]`)
                              ?.value]),
    ...pickers.map(k => [k, document.querySelector(`.st-key-${k} input[role="combobox"]`)
                              ?.value])])"""


def controls(app: AppPage) -> dict[str, str | None]:
    app.slider("b_max_chars").wait_for(state="attached")
    app.wait_idle()
    shown: dict[str, str | None] = app.page.evaluate(CONTROLS_JS, [SLIDERS, PICKERS])
    return shown


def enter_replay(app: AppPage) -> None:
    app.page.locator(".st-key-walk_on label").click()
    app.page.locator(".st-key-walk_next button").wait_for()
    app.wait_idle()
    app.page.locator(".st-key-walk_next button").click()
    app.page.locator(".rv-walk .rv-step").filter(has_text="2").wait_for()
    app.wait_idle()


def test_both_ways_out_of_the_replay_keep_every_control(app: AppPage) -> None:
    app.open(tab=None)
    before = controls(app)
    assert before["b_chunker"] and before["b_chunker"] != before["a_chunker"], before
    assert None not in before.values(), before
    link = url_query(app)
    for leave in (".st-key-walk_exit button", ".st-key-walk_on label"):
        enter_replay(app)
        app.page.locator(leave).click()
        assert controls(app) == before, f"after {leave}"
        app.assert_no_exception()
    # one step of A's size moves A's size by one step, and nothing else
    app.nudge_slider("a_size", 1)
    app.page.wait_for_function(
        "(size) => new URL(location.href).searchParams.get('a_size') !== size",
        arg=link.get("a_size"))
    app.wait_idle()
    after = controls(app)
    assert int(after["a_size"] or 0) == int(before["a_size"] or 0) + 1, after
    assert {k: v for k, v in after.items() if k != "a_size"} == \
        {k: v for k, v in before.items() if k != "a_size"}
    changed = {k for k, v in url_query(app).items() if link.get(k) != v}
    assert changed == {"a_size"}, changed
    app.assert_healthy()
