""""Generate questions" in the questions tab (AppTest, the real default model, the loopback
question-writing model of tests/question_server.py): the model of the LLM settings writes
questions for the sample, each excerpt at its offsets; the review keeps, edits and drops;
the kept questions join the table, the link and the workspace with their excerpts."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ragviz.inputs.corpus import Corpus, Source
from ragviz.inputs.questions import LabelledQuestion, Reference
from ragviz.share import links
from ragviz_app import app_state
from ragviz_app.views.question_generator import FOUND, REVIEW, in_context, review_row, reviewed
from tests.hostile_server import hostile_server
from tests.question_server import INVENTED, REPEATED
from tests.test_app import rerun, run_app
from tests.test_app_links import work_token
from tests.test_question_writing import KEY, MODEL
from tests.test_question_writing import base as base


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv("RAGVIZ_LLM_API_KEY", KEY)
    monkeypatch.setenv("RAGVIZ_KEY_HOSTS", "127.0.0.1")  # the operator allows the test server
    yield run_app("questions")


def test_without_a_model_the_panel_says_what_to_set(app: AppTest) -> None:
    assert any("writes questions for this document" in i.value for i in app.info)
    assert "qgen_start" not in [button.key for button in app.button]


def test_generated_questions_are_reviewed_then_join_the_table_and_the_link(
        app: AppTest, base: str) -> None:
    app.text_input(key="llm_model").input(f"openai:{MODEL}")
    app.text_input(key="llm_base").input(base)
    rerun(app)
    app.number_input(key="qgen_count").set_value(3)
    rerun(app)
    before = len(app_state.frame_questions(app.session_state.questions_base))
    app.button(key="qgen_start").click()
    rerun(app)
    found = app.session_state[FOUND]
    assert len(found) == 3
    sample = (Path(__file__).resolve().parent.parent / "sample_docs"
              / "politica_reembolso.txt").read_text(encoding="utf-8")
    for question in found:
        assert question.answerable and question.references
        for ref in question.references:
            assert INVENTED not in ref.content
            assert ref.start is not None and sample[ref.start:ref.end] == ref.content
    assert [q.question for q in found].count(REPEATED) <= 1
    assert any("3 of 3 questions written" in c.value for c in app.caption)
    # the review: drop the first, edit the second
    app.session_state[REVIEW] = {"edited_rows": {0: {"keep": False},
                                                 1: {"question": "Edited question?"}},
                                 "added_rows": [], "deleted_rows": []}
    app.button(key="qgen_add").click()
    rerun(app)
    table = app_state.frame_questions(app.session_state.questions_base)
    added = table[before:]
    assert [q.question for q in added] == ["Edited question?", found[2].question]
    assert added[0].references == found[1].references  # its excerpt at its offsets
    assert any("2 questions added" in c.value for c in app.caption)
    work = links.decode_work(work_token(app))
    assert [q.question for q in work.questions][-2:] == ["Edited question?", found[2].question]
    assert work.questions[-1].references == found[2].references
    _the_workspace_carries_them(app, table)


def _the_workspace_carries_them(app: AppTest, table: list[LabelledQuestion]) -> None:
    """The workspace exported (what its download gives) and imported in a new session: the
    questions are back, each with its excerpts at their offsets."""
    exported = app.session_state["_share_now"]["workspace"].to_json()
    again = run_app(None)
    again.session_state["more_controls"] = True  # the import sits on the second level
    rerun(again)
    again.file_uploader(key="workspace_upload").set_value(
        ("ragviz-workspace.json", exported.encode(), "application/json"))
    rerun(again)
    back = app_state.frame_questions(again.session_state.questions_base)
    assert [(q.question, q.references, q.is_answerable) for q in back] == [
        (q.question, q.references, q.is_answerable) for q in table]
    assert sum(bool(q.references) for q in back) >= 2


def test_a_visitors_base_gets_no_server_key(app: AppTest, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    """In the app the base typed is a visitor's: the server's key goes only to the hosts the
    operator allowed (docs/security.md), so the echoing model never sees it."""
    monkeypatch.delenv("RAGVIZ_KEY_HOSTS")
    with hostile_server() as (root, state):
        app.text_input(key="llm_model").input("openai:m")
        app.text_input(key="llm_base").input(f"{root}/echo/v1")
        rerun(app)
        app.number_input(key="qgen_count").set_value(1)
        app.button(key="qgen_start").click()
        rerun(app)
    sent = [auth for path, auth in state.requests if path.startswith("/echo/")]
    assert sent and all(KEY not in auth for auth in sent)
    assert any("0 of 1 questions written" in c.value for c in app.caption)


def test_the_review_keeps_edits_and_drops() -> None:
    found = [LabelledQuestion("a?", answerable=True), LabelledQuestion("b?", answerable=False),
             LabelledQuestion("c?", answerable=True)]
    kept = reviewed(found, {"edited_rows": {"0": {"question": " A2? "}, 1: {"keep": False}}})
    assert [(q.question, q.answerable) for q in kept] == [("A2?", True), ("c?", True)]
    assert reviewed(found, None) == found


def test_an_excerpt_is_shown_in_its_context() -> None:
    text = "x" * 100 + " the refund\ntakes seven days " + "y" * 100
    start = text.index("the refund")
    shown = in_context(text, start, start + len("the refund\ntakes seven days"))
    assert "«the refund takes seven days»" in shown and shown.startswith("…x")


def test_the_review_shows_every_excerpt_of_a_question_and_its_files() -> None:
    corpus = Corpus((Source("a.txt", "Refunds take seven days. Store credit lasts a year."),
                     Source("b.txt", "Exchanges are free within a month of purchase.")))
    refs = (Reference("seven days", 13, 23, "a.txt"), Reference("lasts a year", 38, 50, "a.txt"),
            Reference("within a month", 19, 33, "b.txt"))
    row = review_row(LabelledQuestion("How long?", answerable=True, references=refs), corpus)
    assert row["excerpt"].startswith("[1] …Refunds take «seven days»")
    assert "[2] …" in row["excerpt"] and "«lasts a year»" in row["excerpt"]
    assert "[3] …Exchanges are free «within a month» of purchase.…" in row["excerpt"]
    assert row["file"] == "a.txt, b.txt"
    one = review_row(LabelledQuestion("How long?", answerable=True, references=refs[:1]), corpus)
    assert one["excerpt"].startswith("…Refunds take «seven days»") and one["file"] == "a.txt"
