"""The Index source in a real browser: a zipped Chroma directory (the article's fixed-120
index with the default model's vectors) and its source file uploaded, the page drawn with
A as the index, and the what-if in the compare tab (flips, metrics, both chunk-size
histograms); screenshots go to the screenshot folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragviz.embedding.models import Embedder
from ragviz.i18n import t
from tests.index_fixtures import DOC, SOURCE, chroma_collection, fixed_120
from tests.test_app_index import zipped

from .conftest import AppPage, upload

pytestmark = pytest.mark.browser


def test_index_source_and_what_if_are_drawn(app: AppPage, tmp_path: Path, use_model: Embedder,
                                            screenshot_dir: Path) -> None:
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    chroma_collection(tmp_path / "chroma", "refunds", texts, use_model.encode_documents(texts))
    app.open(tab=None)
    app.page.locator(".st-key-doc_source").get_by_text(t("idx.source_index"), exact=True).click()
    app.page.locator('.st-key-index_upload input[type="file"]').wait_for(state="attached")
    upload(app, "index_upload", {"name": "refunds.zip", "mimeType": "application/zip",
                                 "buffer": zipped(tmp_path / "chroma")})
    app.page.get_by_text("refunds: 5 chunks, stored vectors of dimension 512.").wait_for()
    upload(app, "index_sources", {"name": SOURCE, "mimeType": "text/plain",
                                  "buffer": DOC.read_bytes()})
    app.page.get_by_text("B chunks the source files with any ragviz chunker").wait_for()
    # the sample's questions are the article's, which the index holds: kept (until then the
    # index asks, at the top, and scores none of them)
    keep = app.page.locator(".st-key-keep_questions button")
    keep.click()
    keep.wait_for(state="detached")
    app.wait_idle()
    app.assert_no_exception()
    assert app.page.get_by_text(t("idx.side_a"), exact=True).is_visible()
    app.screenshot_full(screenshot_dir / "index-source.png")
    app.open_tab(t("tab.compare", "en"))
    heading = app.page.get_by_text("What if: the production index (A) against B")
    heading.wait_for()
    app.wait_charts(1)
    assert app.page.get_by_text("4 questions change outcome between A and B").is_visible()
    app.assert_no_exception()
    assert not app.errors
    app.screenshot_full(screenshot_dir / "index-what-if.png")
