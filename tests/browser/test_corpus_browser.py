"""Three files uploaded at once in a real Chromium, then a questions CSV written for them:
the overview, each file's own chunks in the highlighted document, and score bars whose
labels name the file (read from the chart's tooltip, as a user hovering a bar sees it)."""

from __future__ import annotations

import re

import pytest

from ragviz.i18n import t
from ragviz.inputs.corpus import short_name
from ragviz.present.charts import FILE_LABEL_CHARS

from .conftest import DOC, AppPage, upload
from .grid import open_editor

pytestmark = pytest.mark.browser

FILES = [
    {"name": "returns.md", "mimeType": "text/markdown",
     "buffer": b"# Returns\n\nYou can return any item within 30 days of delivery.\n"},
    {"name": "warehouse.txt", "mimeType": "text/plain",
     "buffer": b"Our warehouse ships orders on weekdays. Express delivery costs 9 euros.\n"},
    {"name": "store.html", "mimeType": "text/html",
     "buffer": b"<html><body><h1>Opening hours</h1><p>The store opens at 9 and closes at 18 "
               b"on Saturdays.</p><script>document.title='x'</script></body></html>"},
]  # fmt: skip
NAMES = [file["name"] for file in FILES]
QUESTIONS = [
    ("When does the store close on Saturdays?", "18", "true"),
    ("How much does express delivery cost?", "9 euros", "true"),
    ("Is there wifi in the store?", "", "false"),
]
QUESTIONS_CSV = {
    "name": "kb-questions.csv", "mimeType": "text/csv",
    "buffer": ("question,answer,answerable\n"
               + "".join(f"{q},{a},{ok}\n" for q, a, ok in QUESTIONS)).encode(),
}


def _upload_three(app: AppPage) -> None:
    app.open()
    app.page.locator(".st-key-doc_source").get_by_text(
        t("app.source_upload", "en"), exact=True
    ).click()
    app.page.locator('.st-key-doc_upload input[type="file"]').wait_for(state="attached")
    upload(app, "doc_upload", FILES)
    app.page.locator(".st-key-doc_file").wait_for()
    app.wait_rendered()


def _pick_file(app: AppPage, name: str) -> None:
    """The file picker's option ``name``; the list is opened again if the first click came
    while the picker was being drawn anew."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    box = app.page.locator('.st-key-doc_file input[role="combobox"]')
    option = app.page.get_by_role("option", name=name, exact=True)
    for _attempt in range(3):
        app.wait_idle()
        box.click()
        try:
            option.wait_for(timeout=5_000)
            break
        except PlaywrightTimeoutError:
            app.page.keyboard.press("Escape")
    option.click()
    app.page.wait_for_function(
        "name => document.querySelector('.st-key-doc_file input').value === name", arg=name)
    app.wait_idle()


def _tooltip_labels(app: AppPage) -> set[str]:
    """Hover down the first score chart and collect the ``chunk`` shown in each tooltip."""
    chart = app.page.locator("canvas.marks, svg.marks").first
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    assert box is not None
    labels: set[str] = set()
    for step in range(4, 40, 2):
        app.page.mouse.move(box["x"] + box["width"] * 0.5, box["y"] + step * 3)
        tooltip = app.page.locator("#vg-tooltip-element")
        if tooltip.count() and tooltip.is_visible():
            for row in tooltip.locator("tr").all():
                cells = row.locator("td").all_inner_texts()
                if cells and cells[0].strip().rstrip(":") == "chunk":
                    labels.add(cells[-1].strip())
    return labels


def test_three_files_at_once_show_per_file_chunks_and_bars_by_file(app: AppPage) -> None:
    _upload_three(app)
    overview = app.page.get_by_text(t("app.corpus_overview", "en"), exact=True)
    assert overview.is_visible()
    documents = app.page.locator(DOC)
    assert documents.count() == 2
    assert "You can return any item" in documents.first.inner_text()
    _pick_file(app, "store.html")
    documents.first.get_by_text("Opening hours").wait_for()
    shown = documents.first.inner_text()
    assert "closes at 18" in shown and "return any item" not in shown
    assert "document.title" not in shown
    app.open_tab(t("tab.questions", "en"))
    open_editor(app)
    upload(app, "questions_upload", QUESTIONS_CSV)
    app.page.get_by_text(t("app.questions_uploaded", "en", n=len(QUESTIONS))).wait_for()
    app.page.get_by_text(f"1. {QUESTIONS[0][0]}", exact=True).wait_for()
    app.wait_idle()
    app.wait_charts(2 * len(QUESTIONS))
    labels = _tooltip_labels(app)
    assert labels, "no tooltip found over the first score chart"
    # the chunk number first, then the (abbreviated) file: issue 19, medium 6
    shown = [f" {short_name(name, FILE_LABEL_CHARS)}" for name in NAMES]
    assert all(re.match(r"#\d+ ", label) and any(label.endswith(end) for end in shown)
               for label in labels)
    app.assert_no_exception()
