"""User text is shown, never run: markup pasted as a document or typed as a question appears
literally, opens no dialog and adds no element to the page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from ragviz.i18n import t

from .conftest import DOC, AppPage, paste_document

pytestmark = pytest.mark.browser

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
# Short enough to be one fixed chunk (the size slider is capped at the document length), and
# with no sentence end inside the markup, so no chunk boundary or cut mark splits it.
HOSTILE_DOC = f"Refunds take 7 days. {SCRIPT} and {IMG} stay text"
BOLD_QUESTION = "Is <b>bold</b> refunded?"


def edit_first_question(app: AppPage, text: str) -> None:
    """Type into the first cell of the question table. It is a canvas grid: click the cell,
    Enter opens its editor (retried, as a click during a redraw can be lost)."""
    app.open_tab(t("tab.questions", "en"))
    app.wait_idle()
    editor = app.page.locator(".st-key-questions_editor")
    cell = app.page.locator("textarea.gdg-input")
    for _ in range(8):
        app.wait_idle()
        try:  # a rerun may swap the grid for a new one between two attempts
            editor.scroll_into_view_if_needed(timeout=5_000)
            box = editor.bounding_box()
        except PlaywrightError:
            continue
        assert box is not None
        app.page.mouse.click(box["x"] + 200, box["y"] + 35 + 18)  # below the header: row 0
        app.page.keyboard.press("Enter")
        try:
            cell.wait_for(timeout=2_000)
            break
        except PlaywrightTimeoutError:
            app.page.keyboard.press("Escape")
    cell.fill(text)
    cell.press("Enter")
    app.page.keyboard.press("Escape")
    app.page.wait_for_timeout(500)  # the grid hands its last edit to the form after a moment
    app.page.locator(".st-key-apply_questions button").click()  # the table is in a form
    app.page.locator("h4").filter(has_text=text).wait_for()
    app.wait_rendered(doc_tab=False)


def test_pasted_markup_is_shown_as_text_and_never_runs(app: AppPage) -> None:
    app.open()
    paste_document(app, HOSTILE_DOC, shown="Refunds take 7 days")
    edit_first_question(app, BOLD_QUESTION)
    heading = app.page.locator("h4").filter(has_text=BOLD_QUESTION)
    assert heading.count() == 1, "the question heading shows the markup literally"
    assert heading.locator("b").count() == 0
    app.open_tab(t("tab.chunks", "en"))
    app.page.wait_for_timeout(500)  # an injected <img onerror> would have fired by now

    docs = app.page.locator(DOC)
    assert docs.count() == 2
    for i in range(2):
        shown = docs.nth(i).inner_text()
        assert SCRIPT in shown, shown
        assert IMG in shown, shown
        assert docs.nth(i).locator("img, script").count() == 0
    assert app.page.locator('img[src="x"]').count() == 0
    assert (
        app.page.evaluate(
            "() => [...document.scripts].filter(s => s.textContent.includes('alert(1)')).length"
        )
        == 0
    )
    assert app.dialogs == [], f"a dialog opened: {app.dialogs}"
    app.assert_healthy()
