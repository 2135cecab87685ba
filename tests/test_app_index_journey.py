"""Issue 45 item 4, the index journey in the real Streamlit runtime (AppTest, the default
model, a real Chroma collection zipped as a browser uploads it): without source files no
red box and no command-line advice, the server field names every store, and "Why did this
fail?" on A diagnoses the production index itself."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.embedding.models import Embedder
from ragviz.i18n import t
from tests.test_app import open_tab, page_text, rerun, run_app
from tests.test_app_index import BADGE, article_zip, index_app  # noqa: F401  (the fixture)


@pytest.fixture(scope="module")
def no_sources(article_zip: bytes) -> AppTest:  # noqa: F811
    return index_app(("refunds.zip", article_zip), sources=False)


def test_an_index_without_sources_shows_no_error_box(no_sources: AppTest,
                                                     use_model: Embedder) -> None:
    assert not no_sources.error, [e.value for e in no_sources.error]
    text = page_text(no_sources)
    assert "--sources" not in text
    assert t("idx.no_sources_app", "en") in text  # the neutral line, pointing at the box
    assert "upload box beside the index" in text


def test_why_on_a_diagnoses_the_index_itself(no_sources: AppTest) -> None:
    a_labels = [m["label"] for m in BADGE.finditer(page_text(no_sources)) if m["side"] == "A"]
    open_tab(no_sources, "why")
    assert no_sources.radio(key="why_index_side").value == "a"
    question = no_sources.selectbox(key="why_index_pick").value
    text = page_text(no_sources)
    assert "under configuration A" in text
    assert t("idx.why_a_no_fix", "en") in text
    shown = [line for line in (str(m.value) for m in no_sources.markdown) if "data-label=" in line
             and "Configuration" not in line]
    assert shown and f'data-label="{a_labels[0]}"' in shown[0], (question, a_labels, shown)
    no_sources.radio(key="why_index_side").set_value("b")
    rerun(no_sources)
    assert t("idx.b_needs_sources", "en") in page_text(no_sources)
    open_tab(no_sources, "questions")


def test_the_server_field_names_every_store() -> None:
    at = run_app(tab=None)
    at.radio(key="doc_source").set_value("index")
    rerun(at)
    at.radio(key="index_from").set_value("server")
    rerun(at)
    label = at.text_input(key="index_server").label
    assert all(store in label for store in ("Chroma", "Postgres/pgvector", "Qdrant"))
    assert all(store in page_text(at) for store in ("Chroma", "Postgres", "Qdrant"))
