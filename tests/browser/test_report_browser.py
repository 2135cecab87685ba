"""The HTML report opened in real headless Chromium: offline, and no user text runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hostile_report import HOSTILE_DOC, HOSTILE_QUESTIONS

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import load_embedder
from ragviz.evaluation.experiments import compare
from ragviz.evaluation.pipeline import analyse
from ragviz.present.report import render_report

from .conftest import INJECTION_TRAP_JS, PAGE_LOADED_JS

pytestmark = pytest.mark.browser


def test_report_opens_offline_and_runs_no_user_script(browser: Any, tmp_path: Path) -> None:
    model = load_embedder("use-multilingual")
    a = analyse(HOSTILE_DOC, ChunkerConfig("fixed", size=40), model, HOSTILE_QUESTIONS)
    b = analyse(HOSTILE_DOC, ChunkerConfig("sentence", max_chars=80), model, HOSTILE_QUESTIONS)
    path = tmp_path / "report.html"
    path.write_text(render_report([a, b], compare(a, b)), encoding="utf-8")
    dialogs: list[str] = []
    requests: list[str] = []
    context = browser.new_context()
    try:
        page = context.new_page()
        page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        page.on("request", lambda r: requests.append(r.url))
        page.add_init_script(INJECTION_TRAP_JS)
        page.goto(path.as_uri())
        page.wait_for_function(PAGE_LOADED_JS)
        assert page.evaluate("() => window.__rvInjected") == []
        text = page.inner_text("body")
        assert "<script>alert(1)</script>" in text
        assert "<img src=x onerror=alert(1)>" in text
        assert "How long do <b>refunds</b> take?" in text
        assert page.locator("img").count() == 0
        assert page.locator("svg[onload]").count() == 0
        assert page.locator("svg").count() > 0, "charts are inline SVG"
    finally:
        context.close()
    assert dialogs == []
    assert requests == [path.as_uri()]
