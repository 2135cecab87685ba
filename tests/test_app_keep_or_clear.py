"""Issue 45 item 5 in the real Streamlit runtime (AppTest, the default model): while a new
document asks to keep or clear the previous one's questions, a question labelled on the new
document (Check an answer) is its own and survives "Clear"; a workspace exported meanwhile
reopens asking; a large document embeds nothing until the user answers."""

from __future__ import annotations

import json

import pytest

from ragviz.share.workspace import Workspace
from tests.test_app_check_answer import ask
from tests.test_app_questions import (
    ENGLISH_DOC,
    counted_queries,
    headings,
    paste,
    run,
    start,
    table,
    texts,
)
from tests.test_app_size_hold import counted_documents

ASKED = "were written for the previous one"
RETURNS = "How long do returns last?"


def test_a_question_labelled_on_the_new_document_is_scored_and_survives_clear() -> None:
    at = start("questions")
    old = table(at)
    paste(at, ENGLISH_DOC)
    ask(at, RETURNS, "Returns are accepted within thirty days.", "thirty days")
    assert ASKED in texts(at) and "the 7 questions" in texts(at)
    scored = headings(at)  # the ticket's question is the new document's: scored at once
    assert len(scored) == 1 and RETURNS.rstrip("?") in scored[0]
    at.button(key="clear_questions_for_document").click()
    run(at)
    assert table(at) == [RETURNS], "only the previous document's questions go"
    assert not set(old) & set(table(at))
    assert ASKED not in texts(at)
    assert len(headings(at)) == 1


def test_a_workspace_exported_while_asking_reopens_asking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    at = start()
    old = table(at)
    paste(at, ENGLISH_DOC)
    exported = at.session_state["_share_now"]["workspace"].to_json()
    data = json.loads(exported)
    assert data["questions"] == [] and len(data["waiting_questions"]) == 7
    asked = counted_queries(monkeypatch)
    again = start("questions")
    asked.clear()
    again.session_state["more_controls"] = True  # the import sits on the second level
    run(again)
    again.file_uploader(key="workspace_upload").set_value(
        ("ragviz-workspace.json", exported.encode(), "application/json"))
    run(again)
    assert again.session_state.doc_paste == ENGLISH_DOC and table(again) == old
    assert ASKED in texts(again)
    assert headings(again) == [], "reopened as exported: nothing scored"
    assert not set(asked) & set(old), "no waiting question embedded"
    assert Workspace.from_json(
        again.session_state["_share_now"]["workspace"].to_json()).waiting == \
        Workspace.from_json(exported).waiting, "exported again, it still waits"
    again.button(key="keep_questions").click()
    run(again)
    assert len(headings(again)) == 7


# about 700 chunks at the defaults (fixed 120, sentence 220), all different, far under the limit
LARGE = "".join(f"Order {n} ships from warehouse {n * 7 % 97} in {n % 9 + 2} days. "
                for n in range(1100))


def test_a_large_document_embeds_nothing_until_keep_or_clear_is_answered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    at = start()
    calls = counted_documents(monkeypatch)
    paste(at, LARGE)
    assert ASKED in texts(at)
    assert calls == [], "nothing embedded while the choice is open"
    assert "nothing is embedded until you keep or clear" in texts(at)
    at.button(key="clear_questions_for_document").click()
    run(at)
    assert sum(calls) > 500, "answered: both configurations embed"
    assert "nothing is embedded until you keep or clear" not in texts(at)


def test_a_small_document_still_shows_at_once_while_asking(
        monkeypatch: pytest.MonkeyPatch) -> None:
    at = start()
    calls = counted_documents(monkeypatch)
    paste(at, ENGLISH_DOC)
    assert ASKED in texts(at) and len(calls) == 2, "a pasted page is embedded at once"
