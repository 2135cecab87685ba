"""User text is shown, never run: markup pasted as a document or typed as a question appears
literally, opens no dialog and adds no element to the page."""

from __future__ import annotations

import pytest

from ragviz.i18n import t

from .conftest import DOC, AppPage, paste_document
from .grid import apply_questions, enter_down, select_first_row

pytestmark = pytest.mark.browser

SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
# Short enough to be one fixed chunk (the size slider is capped at the document length), and
# with no sentence end inside the markup, so no chunk boundary or cut mark splits it.
HOSTILE_DOC = f"Refunds take 7 days. {SCRIPT} and {IMG} stay text"
BOLD_QUESTION = "Is <b>bold</b> refunded?"


def edit_first_question(app: AppPage, text: str) -> None:
    """Replace the first question with ``text`` and apply the table."""
    app.open_tab(t("tab.questions", "en"))
    app.wait_idle()
    select_first_row(app, 1)
    enter_down(app, [text], key_by_key=False)
    apply_questions(app)
    app.page.locator("h4").filter(has_text=text).wait_for()
    app.wait_rendered(doc_tab=False)


def test_pasted_markup_is_shown_as_text_and_never_runs(app: AppPage) -> None:
    app.trap_injections()  # any script or handler inserted from now on is recorded
    app.open()
    paste_document(app, HOSTILE_DOC, shown="Refunds take 7 days")
    edit_first_question(app, BOLD_QUESTION)
    heading = app.page.locator("h4").filter(has_text=BOLD_QUESTION)
    assert heading.count() == 1, "the question heading shows the markup literally"
    assert heading.locator("b").count() == 0
    app.open_tab(t("tab.chunks", "en"))
    app.wait_rendered()
    assert app.injected() == [], "user markup became a script or a handler"
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
