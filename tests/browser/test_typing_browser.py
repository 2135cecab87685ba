"""Issue 9, "nothing typed is lost", in a real browser: twenty questions typed into the
question table as fast as Playwright types (no delay between keys or rows), then applied,
are all there exactly as typed: in the page's question headings and in the downloaded
questions CSV. Edits typed but not applied stay in the table across a tab switch."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.i18n import t
from ragviz.questions import read_questions_file

from .conftest import AppPage, download, visible_texts

pytestmark = pytest.mark.browser

QUESTIONS = [
    f"Is there a mobile app for Android, version {n}?" if n % 3 == 0 else
    f"Quanto custa o frete nº {n} para São Paulo?" if n % 3 == 1 else
    f"Can order #{n} be returned after 30 days (with receipt)?"
    for n in range(1, 21)
]
ROW_PX, HEADER_PX = 35, 35
EDITOR = ".st-key-questions_editor"


def click_row(app: AppPage, row: int) -> None:
    """Select the question cell of ``row`` (the grid is a canvas: click where it is drawn)."""
    editor = app.page.locator(EDITOR)
    editor.scroll_into_view_if_needed()
    box = editor.bounding_box()
    assert box is not None
    app.page.mouse.click(box["x"] + 200, box["y"] + HEADER_PX + ROW_PX * row + 18)


def type_rows(app: AppPage, first_row: int, questions: list[str]) -> None:
    """Add a row per question (the grid's toolbar "Add row"), select the first new row, and
    for each question: Enter opens the cell's editor, the text goes in with no delay between
    keys, and Enter stores it and moves down to the next row. The only wait is for the
    editor to open: the grid drops keys sent before its editor exists, app or not."""
    add_row = app.page.locator(EDITOR).get_by_role("button", name="Add row")
    for _ in questions:
        app.page.locator(EDITOR).hover()
        add_row.click()
    app.page.keyboard.press("Escape")
    click_row(app, first_row)
    cell = app.page.locator("textarea.gdg-input")
    for question in questions:
        app.page.keyboard.press("Enter")
        cell.press_sequentially(question)  # key by key, no delay
        cell.press("Enter")
        cell.wait_for(state="detached")


def apply_questions(app: AppPage) -> None:
    app.page.keyboard.press("Escape")
    app.page.wait_for_timeout(500)  # the grid hands its last edit to the form after a moment
    app.page.locator(".st-key-apply_questions button").click()
    app.wait_idle()


def clear_questions(app: AppPage) -> None:
    app.page.locator(".st-key-clear_questions button").click()
    app.page.get_by_text(t("app.no_questions", "en")).wait_for()
    app.wait_idle()


def headings(app: AppPage) -> list[str]:
    return visible_texts(app, "h4")


@pytest.mark.xfail(reason="known failure, open in issue 9: the typed cells do not "
                   "reach the form before Apply (headings never appear); AppTests in "
                   "tests/test_app_questions.py cover the form's logic",
                   strict=False)
def test_twenty_questions_typed_as_fast_as_possible_are_all_kept(
    app: AppPage, tmp_path: Path
) -> None:
    app.open(tab=None)
    clear_questions(app)
    type_rows(app, 0, QUESTIONS)
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


@pytest.mark.xfail(reason="known failure, open in issue 9: the typed cells do not "
                   "reach the form before Apply (headings never appear); AppTests in "
                   "tests/test_app_questions.py cover the form's logic",
                   strict=False)
def test_typed_but_not_applied_edits_survive_a_tab_switch(app: AppPage) -> None:
    app.open(tab=None)
    clear_questions(app)
    type_rows(app, 0, QUESTIONS[:2])
    app.page.keyboard.press("Escape")
    app.open_tab(t("tab.chunks", "en"))
    app.open_tab(t("tab.questions", "en"))
    apply_questions(app)
    app.page.wait_for_function(
        "(n) => [...document.querySelectorAll('h4')].filter(h => h.checkVisibility()).length >= n",
        arg=2,
    )
    app.wait_rendered(doc_tab=False)
    assert headings(app) == [f"{n}. {q}" for n, q in enumerate(QUESTIONS[:2], start=1)]
    app.assert_healthy()
