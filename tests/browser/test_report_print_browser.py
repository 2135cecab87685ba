"""The HTML report as a reader gets it: downloaded from the Portuguese interface it is
Portuguese throughout, and printed (or shot as a full page) it shows every chunk."""

from __future__ import annotations

import io
import re
import unicodedata
from pathlib import Path
from typing import Any

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import load_embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.i18n import LANGUAGE_NAMES, t
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.report import render_report

from .conftest import AppPage, download, select_option

pytestmark = pytest.mark.browser

ENGLISH_ONLY = ("report.metrics", "report.document", "report.questions", "report.calibration",
                "report.prompt", "app.direction_fixed", "chart.status_context")


def test_the_report_downloaded_in_portuguese_is_portuguese(app: AppPage, tmp_path: Path) -> None:
    app.open(tab=None)
    select_option(app, "lang", LANGUAGE_NAMES["pt"])
    app.page.get_by_text(t("app.config_a", "pt"), exact=True).first.wait_for()
    app.wait_idle()
    html = download(app, "download_report", tmp_path / "report.html").read_text("utf-8")
    assert '<html lang="pt-BR">' in html
    for key in ENGLISH_ONLY:
        assert t(key, "pt") in html or key == "app.direction_fixed"
        assert t(key, "en") not in html, key
    assert "Calibration" not in html and "fixed by B" not in html


def many_chunks_report() -> tuple[str, str]:
    """A report of a document cut into 40 small chunks; its last chunk's text."""
    lines = [f"Paragraph {i:02d} says the locker code number {i:02d} is kept at the desk."
             for i in range(40)]
    document = "\n\n".join(lines)
    model = load_embedder("use-multilingual")
    config = ChunkerConfig("fixed", size=70, overlap=0)
    analysis = analyse(document, config, model,
                       [LabelledQuestion("Where is locker 39?", "desk", True)])
    return render_report([analysis], None, "en"), analysis.chunks[-1].text.strip()


def test_a_printed_report_shows_every_chunk(browser: Any, tmp_path: Path) -> None:
    from pypdf import PdfReader

    report, last_chunk = many_chunks_report()
    path = tmp_path / "report.html"
    path.write_text(report, encoding="utf-8")
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        pdf = PdfReader(io.BytesIO(page.pdf(format="A4"))).pages
        text = unicodedata.normalize("NFKC", "".join(p.extract_text() for p in pdf))
        printed = re.sub(r"\s+", "", text)
        assert re.sub(r"\s+", "", last_chunk) in printed, "the last chunk is in the printout"
        box = page.locator(".rv-doc").first  # a full-page screenshot sees the whole document
        sizes = box.evaluate("e => [e.scrollHeight, e.clientHeight]")
        assert sizes[0] <= sizes[1] + 1, f"the document scrolls inside its box: {sizes}"
        page.screenshot(path=str(tmp_path / "report-full.png"), full_page=True)
    finally:
        context.close()
