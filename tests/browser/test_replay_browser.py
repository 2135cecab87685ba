"""The guided replay in a real browser: a link reopens its step, and a presentation
clicker's keys (PageDown/PageUp, the arrows) move between steps."""

from __future__ import annotations

import pytest

from ragviz.i18n import t
from ragviz_app.walkthrough import STEPS

from .conftest import AppPage, url_query

pytestmark = pytest.mark.browser

WALK = ".rv-walk"
# Records each key press that reaches the window and whether a listener before it (the
# replay's, on the document) took it: [key, defaultPrevented].
WATCH_KEYS_JS = """() => {
    window.__rvKeys = [];
    window.addEventListener('keydown',
        event => window.__rvKeys.push([event.key, event.defaultPrevented]));
}"""


def wait_step(app: AppPage, index: int) -> None:
    """Wait until the banner shows step ``index`` (0-based) and the run is over."""
    progress = t("walk.progress", "en", n=index + 1, total=len(STEPS))
    app.page.locator(f"{WALK} .rv-step").filter(has_text=progress).wait_for()
    app.wait_idle()
    app.assert_no_exception()


def test_a_link_reopens_the_step_and_clicker_keys_move_between_steps(app: AppPage) -> None:
    app.page.goto(f"{app.url}/?walk=2&k=3")
    wait_step(app, 1)
    assert app.page.locator(f"{WALK} h1").inner_text().strip() == STEPS[1].title("en")
    app.page.locator(WALK).click()  # the audience's focus is on the page, not on a field
    for key, index in (("PageDown", 2), ("ArrowRight", 3), ("PageUp", 2), ("ArrowLeft", 1)):
        app.page.keyboard.press(key)
        wait_step(app, index)
        app.page.wait_for_function(
            "(step) => new URL(location.href).searchParams.get('walk') === step",
            arg=str(index + 1))
        assert url_query(app)["k"] == "3", "the other parameters stay in the link"
    app.page.keyboard.press("ArrowLeft")
    wait_step(app, 0)
    # nothing before the first step: the replay's listener takes the key and finds Back
    # disabled, so it clicks nothing; the next key moves one step on from the first
    back = app.page.locator(".st-key-walk_back button")
    assert back.is_disabled()
    app.page.evaluate(WATCH_KEYS_JS)
    app.page.keyboard.press("ArrowLeft")
    assert app.page.evaluate("() => window.__rvKeys") == [["ArrowLeft", True]]
    wait_step(app, 0)
    app.page.keyboard.press("ArrowRight")
    wait_step(app, 1)
    app.page.wait_for_function(
        "() => new URL(location.href).searchParams.get('walk') === '2'")
    app.assert_healthy()
