"""Issue 9, "nothing typed is lost", in a real browser: twenty questions typed into the
question table as fast as Playwright types (no delay between keys; see grid.py), then applied,
are all there exactly as typed: in the page's question headings and in the downloaded
questions CSV. Edits typed but not applied stay in the table across a tab switch."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from ragviz.i18n import t
from ragviz.inputs.questions import read_questions_file

from .conftest import RENDER_TIMEOUT_MS, AppPage, download, select_option, visible_texts
from .grid import (
    CELL_EDITOR,
    add_rows,
    apply_questions,
    enter_down,
    next_frame,
    open_editor,
    select_first_row,
)

pytestmark = pytest.mark.browser

QUESTIONS = [
    f"Is there a mobile app for Android, version {n}?" if n % 3 == 0 else
    f"Quanto custa o frete nº {n} para São Paulo?" if n % 3 == 1 else
    f"Can order #{n} be returned after 30 days (with receipt)?"
    for n in range(1, 21)
]


def type_rows(app: AppPage, questions: list[str]) -> None:
    """Add a row per question and type each into its row, as fast as the grid takes keys."""
    add_rows(app, len(questions))
    select_first_row(app, len(questions))
    enter_down(app, questions)


def clear_questions(app: AppPage) -> None:
    """Clear the table. On CI (12-07) a click once showed no effect within 60 s (its cause
    not recorded; not reproduced here). A click that shows none is given twice more
    (the button stays enabled only while questions are left to clear), and an exception
    on the page fails at once with its text, never retried."""
    open_editor(app)
    button = app.page.locator(".st-key-clear_questions button")
    empty = app.page.get_by_text(t("app.no_questions", "en"))
    for _ in range(3):
        app.wait_idle()  # the click goes to the page's last run, not to one being replaced
        if button.is_disabled():
            break
        button.click()
        try:
            # a loaded CI machine once took over 30 s here (the first page's background
            # model load shares the two cores): twice the render timeout
            empty.wait_for(timeout=2 * RENDER_TIMEOUT_MS)
            break
        except PlaywrightTimeout:
            app.assert_no_exception()
            assert app.errors == [], f"uncaught page errors: {app.errors}"
    empty.wait_for(timeout=RENDER_TIMEOUT_MS)
    app.wait_idle()


def headings(app: AppPage) -> list[str]:
    return visible_texts(app, "h4")


def test_twenty_questions_typed_as_fast_as_possible_are_all_kept(
    app: AppPage, tmp_path: Path
) -> None:
    app.open(tab=None)
    clear_questions(app)
    type_rows(app, QUESTIONS)
    apply_questions(app)
    wanted = [f"{n}. {q}" for n, q in enumerate(QUESTIONS, start=1)]
    app.page.wait_for_function(
        "(n) => [...document.querySelectorAll('h4')].filter(h => h.checkVisibility()).length >= n",
        arg=len(QUESTIONS), timeout=180_000,  # 20 questions x 2 configurations to embed
    )
    app.wait_rendered(timeout_ms=180_000, doc_tab=False)
    assert headings(app) == wanted
    saved = download(app, "questions_download", tmp_path / "questions.csv")
    questions, _ = read_questions_file(saved.read_bytes(), saved.name)
    assert [q.question for q in questions] == QUESTIONS
    app.assert_healthy()


def assert_two_typed_rows_applied(app: AppPage) -> None:
    """The page shows the first two QUESTIONS as its questions, and nothing went wrong."""
    app.page.wait_for_function(
        "(n) => [...document.querySelectorAll('h4')].filter(h => h.checkVisibility()).length >= n",
        arg=2,
    )
    app.wait_rendered(doc_tab=False)
    assert headings(app) == [f"{n}. {q}" for n, q in enumerate(QUESTIONS[:2], start=1)]
    app.assert_healthy()


def test_typed_but_not_applied_edits_survive_a_tab_switch(app: AppPage) -> None:
    app.open(tab=None)
    clear_questions(app)
    type_rows(app, QUESTIONS[:2])
    app.page.keyboard.press("Escape")
    app.open_tab(t("tab.chunks", "en"))
    app.open_tab(t("tab.questions", "en"))
    apply_questions(app)
    assert_two_typed_rows_applied(app)



@pytest.mark.parametrize("commit", ["Enter", "click"])
def test_an_edit_applied_at_once_is_applied(app: AppPage, commit: str) -> None:
    """A user types a question and clicks "Apply questions" at once: right after Enter, or
    with the cell still open (the click commits it). The form must submit that edit: the
    grid's default hands an Enter-committed cell to the form 150 ms later."""
    app.open(tab=None)
    select_first_row(app, 1)
    app.page.keyboard.press("Enter")
    cell = app.page.locator(CELL_EDITOR)
    cell.wait_for()
    cell.fill(QUESTIONS[0])
    next_frame(app)
    if commit == "Enter":
        cell.press("Enter")
        cell.wait_for(state="detached")
    app.page.locator(".st-key-apply_questions button").click()
    app.page.locator("h4").filter(has_text=QUESTIONS[0]).wait_for()
    app.wait_rendered(doc_tab=False)
    assert headings(app)[0] == f"1. {QUESTIONS[0]}"
    app.assert_healthy()


@pytest.mark.parametrize("leave", ["language", "replay"])
def test_typed_but_not_applied_rows_survive_language_and_replay(app: AppPage, leave: str) -> None:
    """Issue 19, high 1: rows typed but not applied were lost on a language switch (the
    editor's columns change name, so the browser drew a new, empty grid) and when the guided
    replay was turned on and off (the grid was not drawn meanwhile)."""
    app.open(tab=None)
    clear_questions(app)
    type_rows(app, QUESTIONS[:2])
    app.page.keyboard.press("Escape")
    if leave == "language":
        select_option(app, "lang", "Português (Brasil)")
        apply_label = t("app.apply_questions", "pt")
    else:
        toggle = app.page.locator(".st-key-walk_on label")
        toggle.click()
        app.wait_idle()
        toggle.click()
        app.wait_idle()
        apply_label = t("app.apply_questions", "en")
    open_editor(app)
    app.page.locator(".st-key-apply_questions button").filter(has_text=apply_label).click()
    assert_two_typed_rows_applied(app)
