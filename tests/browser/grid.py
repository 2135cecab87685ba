"""Typing into the question table in a real browser. The table is Streamlit's data editor,
a canvas grid (Glide Data Grid): cells are reached by clicking where they are drawn and
edited in an overlay textarea that Enter opens and Enter stores.

Two waits belong to the grid, not to ragviz, and are the only ones here: keys sent before
the overlay exists are dropped, and an Enter sent in the same frame as the last typed key
stores the value the cell had before (measured with a bare ``st.data_editor`` and nothing
else on the page: 7-10 of 20 rows lost with no pause, none after one painted frame)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from playwright.sync_api import Error as PlaywrightError

if TYPE_CHECKING:
    from .conftest import AppPage

EDITOR = ".st-key-questions_editor"
EDITOR_FOLD = ".st-key-questions_expander details"
CELL_EDITOR = "textarea.gdg-input"
ROW_PX, HEADER_PX = 35, 35
# The grid keeps an accessible table of the rows it draws; aria-selected follows the cursor.
TWO_FRAMES_JS = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
FIRST_CELL_SELECTED = '[data-testid="glide-cell-1-0"][aria-selected="true"]'


def next_frame(app: AppPage) -> None:
    """Let the browser paint once, so the grid has taken what was typed (see the module)."""
    app.page.evaluate(TWO_FRAMES_JS)


def open_editor(app: AppPage) -> None:
    """Unfold the question table (folded by default so the first screen shows the scores)."""
    fold = app.page.locator(EDITOR_FOLD)
    if fold.get_attribute("open") is None:
        fold.locator("summary").click()
        app.page.locator(EDITOR).wait_for(state="visible")


def add_rows(app: AppPage, count: int) -> None:
    """Add ``count`` empty rows with the grid's toolbar button."""
    open_editor(app)
    add_row = app.page.locator(EDITOR).get_by_role("button", name="Add row")
    for _ in range(count):
        app.page.locator(EDITOR).hover()
        add_row.click()
    app.page.keyboard.press("Escape")


def select_first_row(app: AppPage, rows: int) -> None:
    """Put the grid's cursor on the first question cell: click a drawn row, then ArrowUp
    to the top (after rows were added the grid has scrolled to them). Retried, as a rerun
    can swap the grid for a new one under the click."""
    open_editor(app)
    editor = app.page.locator(EDITOR)
    for _ in range(8):
        app.wait_idle()
        try:
            editor.scroll_into_view_if_needed(timeout=5_000)
            box = editor.bounding_box()
        except PlaywrightError:
            continue
        assert box is not None
        app.page.mouse.click(box["x"] + 200, box["y"] + HEADER_PX + 18)
        for _ in range(rows):
            app.page.keyboard.press("ArrowUp")
        try:
            app.page.wait_for_selector(FIRST_CELL_SELECTED, state="attached", timeout=3_000)
            return
        except PlaywrightError:
            app.page.keyboard.press("Escape")
    raise AssertionError("the question table's first cell could not be selected")


def open_cell(app: AppPage, row: int) -> None:
    """Enter on the selected cell opens its editor. On a loaded machine the grid can miss
    that Enter (it had no keyboard focus yet, e.g. right after the previous editor closed):
    then the cursor is still on ``row``, so give the grid focus back and press Enter again.
    Never a second Enter while the editor may be open: that would store the cell and move."""
    cell = app.page.locator(CELL_EDITOR)
    selected = f'[data-testid="glide-cell-1-{row}"][aria-selected="true"]'
    for _ in range(4):
        app.page.keyboard.press("Enter")
        try:
            cell.wait_for(timeout=8_000)
            return
        except PlaywrightError:
            pass
        assert app.page.locator(selected).count() == 1, f"the grid's cursor left row {row}"
        app.page.locator(f"{EDITOR} [data-testid='data-grid-canvas']").focus()
    raise AssertionError(f"the question table's row {row} did not open for editing")


def enter_down(app: AppPage, texts: list[str], *, key_by_key: bool = True) -> None:
    """From the selected cell down: Enter opens the cell, the text goes in (key by key with
    no delay, or replacing what the cell held), Enter stores it and moves down."""
    cell = app.page.locator(CELL_EDITOR)
    for row, text in enumerate(texts):
        open_cell(app, row)
        if key_by_key:
            cell.press_sequentially(text)
        else:
            cell.fill(text)
        next_frame(app)
        cell.press("Enter")
        cell.wait_for(state="detached")
    next_frame(app)  # the grid hands the last stored cell to Streamlit on the next frame


def apply_questions(app: AppPage) -> None:
    """The table sits in a form: nothing reruns while typing, the button applies it all."""
    app.page.keyboard.press("Escape")
    app.page.locator(".st-key-apply_questions button").click()
    app.wait_idle()
