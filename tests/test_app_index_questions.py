"""Issue 36 item 10 in the real Streamlit runtime: switching the document source to Index is
a new document like an upload or a paste, so the questions written for the sample are not
silently judged against the index: the page asks to keep or clear them."""

from __future__ import annotations

import json

import pytest

from ragviz.chunking import ChunkerConfig, make_chunks
from tests.index_fixtures import SAMPLES
from tests.test_app import page_text, rerun, run_app
from tests.test_app_questions import counted_queries, headings, table

ASKED = "were written for the previous one"


def guide_export() -> bytes:
    """A LangChain-style JSONL export of another document (no stored vectors)."""
    text = (SAMPLES / "residents_guide.txt").read_text(encoding="utf-8")
    chunks = make_chunks(text, ChunkerConfig.create("fixed", size=400, overlap=0)).chunks
    return "\n".join(json.dumps({"page_content": c.text, "metadata": {
        "source": "residents_guide.txt", "start_index": c.start}}) for c in chunks).encode()


def test_switching_to_an_index_asks_to_keep_or_clear_the_samples_questions() -> None:
    at = run_app(tab="questions")
    assert len(at.session_state.questions_base) == 7
    at.radio(key="doc_source").set_value("index")
    rerun(at)
    assert ASKED not in page_text(at), "nothing to ask before an index is loaded"
    at.file_uploader(key="index_upload").set_value(
        ("guide.jsonl", guide_export(), "application/octet-stream"))
    rerun(at)
    assert ASKED in page_text(at)
    at.button(key="clear_questions_for_document").click()
    rerun(at)
    assert len(at.session_state.questions_base) == 0
    assert ASKED not in page_text(at)


def test_an_index_scores_and_embeds_no_old_question_until_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    at = run_app(tab="questions")
    old = table(at)
    at.radio(key="doc_source").set_value("index")
    rerun(at)
    asked = counted_queries(monkeypatch)
    at.file_uploader(key="index_upload").set_value(
        ("guide.jsonl", guide_export(), "application/octet-stream"))
    rerun(at)
    assert ASKED in page_text(at)
    assert headings(at) == [], "no question of the sample scored against the index"
    assert not set(asked) & set(old), "no question of the sample embedded for the index"
    at.button(key="keep_questions").click()
    rerun(at)
    assert len(at.session_state.questions_base) == 7
    assert len(headings(at)) == 7 and set(old) <= set(asked)
    rerun(at)
    assert ASKED not in page_text(at)
