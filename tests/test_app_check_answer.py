"""Issue 45 items 2 and 3 in the real Streamlit runtime (AppTest, the default model): "Check
an answer" explains a ticket on the document in use, one click on a candidate labels the
question at exact offsets and it joins the questions table; a question with no label shows
a neutral badge, never ``ok``, and one click opens it in "Check an answer"."""

from __future__ import annotations

import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ragviz.i18n import t
from ragviz.inputs.questions import read_questions_file
from ragviz.present.exports import questions_csv
from ragviz.share import links
from ragviz_app import app_state
from tests.index_fixtures import DOC  # the article's policy: the app's first document

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
QUESTION = "Qual o prazo do reembolso?"
BOT = "Quando o cliente cancela a assinatura, o valor pago é devolvido integralmente <script>."


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def ask(at: AppTest, question: str, bot: str, expected: str = "") -> None:
    at.text_input(key="check_question").input(question)
    at.text_area(key="check_bot_answer").input(bot)
    at.text_input(key="check_expected").input(expected)
    at.button(key="FormSubmitter:check_form-" + _run_label(at)).click()
    run(at)


def _run_label(at: AppTest) -> str:
    return next(b.label for b in at.button if b.key and b.key.startswith("FormSubmitter:check"))


def htmls(at: AppTest) -> list[str]:
    return [str(h.proto.body) for h in at.get("html")]


def test_a_ticket_shows_the_chunk_sent_and_one_click_labels_it() -> None:
    at = run(AppTest.from_file(APP, default_timeout=120))
    ask(at, QUESTION, BOT)
    marked = [h for h in htmls(at) if "rv-sent" in h]
    assert marked and all("<script>" not in h for h in marked)  # escaped, marked
    assert any("<mark>valor</mark> <mark>pago</mark>" in h for h in marked)
    picks = [b for b in at.button if b.key and b.key.startswith("check_pick_")]
    assert len(picks) >= 3
    lines = [str(m.value) for m in at.markdown]
    head = next(i for i, line in enumerate(lines) if "Where the right answer may be" in line)
    candidates = lines[head + 1:head + 1 + len(picks)]
    position = next(i for i, line in enumerate(candidates) if "7 dias úteis" in line)
    picks[position].click()
    run(at)
    questions = app_state.frame_questions(at.session_state.questions_base)
    mine = next(q for q in questions if q.question == QUESTION)
    reference = mine.references[0]
    assert "7 dias úteis" in reference.content and mine.is_answerable is True
    assert DOC.read_text(encoding="utf-8")[reference.start:reference.end] == reference.content
    shown = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", "\n".join(str(m.value) for m in at.markdown))
    assert 'class="rv-label' in shown and "Diagnosis [" in shown
    token = at.query_params[links.WORK_KEY]  # the link carries the labelled question
    work = links.decode_work(token[0] if isinstance(token, list) else token)
    assert next(q for q in work.questions if q.question == QUESTION).references == \
        mine.references
    csv = questions_csv(questions)
    again, _ = read_questions_file(csv.encode(), "q.csv")
    assert next(q for q in again if q.question == QUESTION).references == mine.references
    for language in ("en", "pt"):  # the main area's heading is short, in each language
        at.selectbox(key="lang").set_value(language)
        run(at)
        assert [h.value for h in at.main.subheader if h.value.startswith(
            t("check.heading", language))] == [t("check.heading", language)]


def test_an_unlabelled_question_is_never_ok_and_one_click_opens_it() -> None:
    at = run(AppTest.from_file(APP, default_timeout=120))
    base = at.session_state.questions_base
    at.session_state.questions_base = app_state.table_frame(
        [*base.to_dict("records"), {"question": "Quem é o CEO?", "answer": "",
                                    "answerable": True, "references": ""}])
    run(at)
    position = len(base)
    lines = [str(m.value) for m in at.markdown]
    head = next(i for i, line in enumerate(lines) if "Quem é o CEO" in line)
    end = next((i for i in range(head + 1, len(lines)) if lines[i].startswith("####")),
               len(lines))
    mine = "\n".join(lines[head:end])  # the question's lines: A's and B's verdicts
    assert mine.count(":gray-badge[unlabelled]") == 2 and "ok]" not in mine
    metrics = at.session_state.questions_base
    assert app_state.frame_questions(metrics)[position].is_answerable is None
    at.button(key=f"label_it_a_{position}").click()
    run(at)
    assert at.session_state["_check"]["question"] == "Quem é o CEO?"
    assert at.text_input(key="check_question").value == "Quem é o CEO?"


def test_the_csv_keeps_an_unlabelled_question_unlabelled() -> None:
    frame = app_state.table_frame([{"question": "q?", "answer": "", "answerable": True}])
    questions = app_state.frame_questions(frame)
    assert questions[0].is_answerable is None
    again, _ = read_questions_file(questions_csv(questions).encode(), "q.csv")
    assert again[0].is_answerable is None
    assert json.loads(app_state.references_cell(again[0]) or "[]") == []


def test_a_new_document_asks_at_the_top_of_the_page() -> None:
    at = run(AppTest.from_file(APP, default_timeout=120))
    at.radio(key="doc_source").set_value("paste")
    run(at)
    at.text_area(key="doc_paste").input("Orders ship in two days. Returns take a week.")
    run(at)
    asked = "were written for the previous one"
    assert any(asked in str(w.value) for w in at.main.warning)
    assert not any(asked in str(w.value) for w in at.sidebar.warning)
    at.button(key="keep_questions").click()
    run(at)
    assert not any(asked in str(w.value) for w in at.main.warning)
