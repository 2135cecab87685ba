"""The HTML report: self-contained, escaped, and inert in a real headless Chromium."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.analysis import analyse
from ragviz.chunking import ChunkerConfig
from ragviz.embedders import Embedder
from ragviz.evaluation import compare
from ragviz.questions import LabelledQuestion
from ragviz.report import render_report

CHROMIUM = Path("/usr/bin/chromium")
HOSTILE_DOC = (
    "Refunds. <script>alert(1)</script> Refunds take 7 days.\n\n"
    "<img src=x onerror=alert(1)> Support answers on weekdays. "
    '"><svg onload=alert(1)> The end.'
)
HOSTILE_QUESTIONS = [
    LabelledQuestion("How long do <b>refunds</b> take?", "7 days", True),
    LabelledQuestion("<script>alert('q')</script> wifi?", "", False),
]


@pytest.fixture(scope="module")
def hostile_html(use_model: Embedder) -> str:
    a = analyse(HOSTILE_DOC, ChunkerConfig("fixed", size=40), use_model, HOSTILE_QUESTIONS)
    b = analyse(HOSTILE_DOC, ChunkerConfig("sentence", max_chars=80), use_model, HOSTILE_QUESTIONS)
    return render_report([a, b], compare(a, b), lang="en")


def test_report_escapes_every_piece_of_user_text(hostile_html: str) -> None:
    assert "<script>" not in hostile_html
    assert "<img src=x" not in hostile_html
    assert "<svg onload" not in hostile_html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in hostile_html
    assert "&lt;b&gt;refunds&lt;/b&gt;" in hostile_html


def test_report_needs_nothing_from_the_network(hostile_html: str) -> None:
    assert "http://" not in hostile_html.replace('xmlns="http://www.w3.org/2000/svg"', "")
    assert "https://" not in hostile_html
    assert "script-src" not in hostile_html and "default-src 'none'" in hostile_html


def test_report_in_both_languages(use_model: Embedder, seed_doc: str) -> None:
    questions = [LabelledQuestion("Qual o prazo do reembolso?", "7 dias úteis", True)]
    analysis = analyse(seed_doc, ChunkerConfig("fixed"), use_model, questions, language="pt")
    html = render_report([analysis], lang="pt")
    assert 'lang="pt-BR"' in html and "Perguntas" in html


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed")
def test_report_opens_offline_and_runs_no_user_script(hostile_html: str, tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    path = tmp_path / "report.html"
    path.write_text(hostile_html, encoding="utf-8")
    dialogs: list[str] = []
    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM),
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        try:
            page = browser.new_page()
            page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(path.as_uri())
            page.wait_for_timeout(300)
            text = page.inner_text("body")
            assert "<script>alert(1)</script>" in text
            assert "<img src=x onerror=alert(1)>" in text
            assert page.locator("img").count() == 0
            assert page.locator("svg[onload]").count() == 0
            assert page.locator("svg").count() > 0, "charts are inline SVG"
        finally:
            browser.close()
    assert dialogs == []
    assert requests == [path.as_uri()]
