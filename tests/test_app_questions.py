"""Issue 9, "nothing typed is lost" and "why did this fail?", in the real Streamlit runtime
(AppTest) with the real default model: the question table applies edits with a button,
belongs to its document, comes from and goes to a CSV file; the "why" tab picks a labelled
question and keeps its result only while its inputs stay the same."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from ragviz.chunking import get_spec
from ragviz.embedding.models import Embedder
from ragviz.i18n import t
from ragviz.inputs.questions import LabelledQuestion, read_questions_file
from ragviz.present.exports import questions_csv
from ragviz.share.samples import load_samples
from ragviz_app import app_state

APP = str(Path(__file__).resolve().parent.parent / "streamlit_app.py")
TIMEOUT = 120
ENGLISH_DOC = (
    "Our store ships worldwide. Orders arrive in five to eight days. "
    "Returns are accepted within thirty days of delivery."
)
PRAZO = "Qual o prazo do reembolso?"


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def start(tab: str | None = None) -> AppTest:
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    if tab is not None:
        at.session_state["tab"] = t(f"tab.{tab}", "en")
        run(at)
    return at


def shown(markdown: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown)


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.error] + [w.value for w in at.warning]
    parts += [i.value for i in at.info] + [s.value for s in at.success]
    return shown("\n".join(str(p) for p in parts))


def table(at: AppTest) -> list[str]:
    return [str(q) for q in at.session_state.questions_base["question"]]


def paste(at: AppTest, text: str) -> None:
    at.radio(key="doc_source").set_value("paste")
    run(at)
    at.text_area(key="doc_paste").input(text)
    run(at)


def apply_edits(at: AppTest, edits: dict[str, object]) -> None:
    at.session_state["questions_editor"] = edits
    at.button(key="apply_questions").click()
    run(at)


# --- the table applies with a button ------------------------------------------------------


def test_edits_wait_for_apply_then_survive_tabs_language_and_model() -> None:
    at = start()
    assert "Apply questions" in texts(at), "the page says edits apply with the button"
    at.session_state["questions_editor"] = {
        "edited_rows": {0: {"question": "Typed, not applied?"}}, "added_rows": [],
        "deleted_rows": []}
    run(at)  # a rerun from elsewhere (no button): nothing applied
    assert table(at)[0] == PRAZO
    at.button(key="apply_questions").click()
    run(at)
    assert table(at)[0] == "Typed, not applied?"
    for change in ("tab", "lang", "model"):
        if change == "tab":
            at.session_state["tab"] = t("tab.chunks", "en")
        elif change == "lang":
            at.selectbox(key="lang").set_value("pt")
        else:
            at.radio(key="model_choice").set_value("minilm-en")
        run(at)
        assert table(at)[0] == "Typed, not applied?", change
    at.session_state["tab"] = t("tab.questions", "pt")
    run(at)
    assert "Typed, not applied?" in texts(at)


# --- the questions belong to their document -------------------------------------------------


def test_a_new_document_offers_to_keep_or_clear_the_questions() -> None:
    at = start()
    assert not [b for b in at.button if b.key == "keep_questions"]
    paste(at, ENGLISH_DOC)
    assert "were written for the previous one" in texts(at)
    at.button(key="clear_questions_for_document").click()
    run(at)
    assert table(at) == []
    assert headings(at) == []
    assert "were written for the previous one" not in texts(at)
    assert "Add a question" in texts(at)


def headings(at: AppTest) -> list[str]:
    """The questions scored on the questions tab, one heading each."""
    return [str(m.value) for m in at.markdown if str(m.value).startswith("#### ")]


def counted_queries(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every question the model is asked to embed (``encode_queries``, before its cache)."""
    asked: list[str] = []
    original = Embedder.encode_queries

    def counting(self: Embedder, texts: Sequence[str], *args: Any, **kwargs: Any) -> Any:
        asked.extend(texts)
        return original(self, texts, *args, **kwargs)

    monkeypatch.setattr(Embedder, "encode_queries", counting)
    return asked


def test_a_new_document_scores_and_embeds_no_old_question_until_kept(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 45 item 5: while keep-or-clear is asked the previous document's questions are
    not scored against the new one, nor embedded; "Keep" scores them."""
    asked = counted_queries(monkeypatch)
    at = start("questions")
    old = table(at)
    assert len(headings(at)) == len(old) == 7 and set(old) <= set(asked)
    asked.clear()
    paste(at, ENGLISH_DOC)
    assert "were written for the previous one" in texts(at)
    assert headings(at) == [], "no question of the old document scored against the new one"
    assert not set(asked) & set(old), "no old question embedded for the new document"
    assert len(table(at)) == 7, "the table keeps them meanwhile"
    at.button(key="keep_questions").click()
    run(at)
    assert len(headings(at)) == 7
    assert set(old) <= set(asked)


def test_the_waiting_questions_and_the_pasted_document_stay_in_the_workspace() -> None:
    at = start()
    paste(at, ENGLISH_DOC)
    assert "were written for the previous one" in texts(at)
    workspace = at.session_state["_share_now"]["workspace"]
    assert workspace.document == ENGLISH_DOC
    assert workspace.questions == ()  # none is the pasted document's yet
    assert [q.question for q in workspace.waiting] == table(at)


def test_applying_edits_under_the_offer_keeps_the_table_for_the_new_document() -> None:
    at = start("questions")
    paste(at, ENGLISH_DOC)
    assert headings(at) == []
    apply_edits(at, {"edited_rows": {}, "deleted_rows": list(range(7)),
                     "added_rows": [{"question": "How long do returns last?",
                                     "answer": "thirty days", "answerable": True}]})
    assert "were written for the previous one" not in texts(at)
    scored = headings(at)
    assert len(scored) == 1 and "How long do returns last" in scored[0]


def test_keeping_the_questions_ends_the_offer() -> None:
    at = start()
    paste(at, ENGLISH_DOC)
    at.button(key="keep_questions").click()
    run(at)
    assert len(table(at)) == 7
    run(at)
    assert "were written for the previous one" not in texts(at)
    at.text_area(key="doc_paste").input(ENGLISH_DOC + " Gift cards never expire.")
    run(at)
    assert "were written for the previous one" in texts(at), "asked again for the next one"


def test_picking_a_sample_loads_its_own_questions_without_asking() -> None:
    at = start()
    other = next(s for s in load_samples() if s.name != app_state.DEFAULT_SAMPLE)
    at.radio(key="sample_name").set_value(other.name)
    run(at)
    assert table(at) == [q.question for q in other.questions()]
    assert "were written for the previous one" not in texts(at)


def test_clear_questions_always_exists() -> None:
    at = start()
    at.button(key="clear_questions").click()
    run(at)
    assert table(at) == []
    assert "Add a question" in texts(at)


def test_rows_without_a_question_and_duplicates_get_one_line_each() -> None:
    at = start()
    apply_edits(at, {"edited_rows": {2: {"question": PRAZO}},
                     "added_rows": [{"answer": "7 dias"}, {"answerable": True}],
                     "deleted_rows": []})
    shown_text = texts(at)
    assert "Row 8 has an expected answer but no question" in shown_text
    assert f"Rows 1, 3 ask the same question (“{PRAZO}”)" in shown_text
    # 7 questions in use; the row without a question is not counted as answerable
    assert "7 questions in use: 4 answerable, 3 not." in shown_text
    frame = at.session_state.questions_base
    assert len(frame) == 8, "the blank added row is dropped, the answer-only row stays"
    assert not frame["answer"].isna().any() and not frame["question"].isna().any()
    editor = at.data_editor(key="questions_editor").value
    assert "None" not in editor.astype(str).to_numpy().ravel().tolist()


def test_empty_cells_from_the_editor_stay_empty() -> None:
    frame = app_state.apply_table_edits(
        app_state.questions_frame([LabelledQuestion("A?", "a", True)]),
        {"edited_rows": {}, "added_rows": [{"question": "B?", "answer": None,
                                            "answerable": None}], "deleted_rows": []})
    assert frame.to_dict("records") == [
        {"question": "A?", "answer": "a", "answerable": True},
        {"question": "B?", "answer": "", "answerable": True},
    ]
    assert not any(pd.isna(v) for v in frame["answer"])


# --- questions as a CSV file ----------------------------------------------------------------


def test_a_questions_csv_replaces_the_table_and_downloads_back() -> None:
    at = start()
    data = ("question,answer,answerable\nHow long do refunds take?,30 days,true\n"
            "Is there wifi?,,false\n=cmd|' /C calc'!A0,,false\n").encode("utf-16")
    at.file_uploader(key="questions_upload").set_value(("mine.csv", data, "text/csv"))
    run(at)
    assert table(at) == ["How long do refunds take?", "Is there wifi?", "=cmd|' /C calc'!A0"]
    assert "3 questions loaded from the file." in texts(at)
    assert at.get("download_button"), "a download button for the questions"
    csv_text = questions_csv(app_state.frame_questions(at.session_state.questions_base))
    assert "'=cmd|" in csv_text, "a formula-like cell is guarded"
    back, _ = read_questions_file(csv_text.encode(), "questions.csv")
    assert [(q.question, q.answer, q.answerable) for q in back[:2]] == [
        ("How long do refunds take?", "30 days", True), ("Is there wifi?", "", False)]


def test_the_questions_download_keeps_the_benchmarks_excerpts() -> None:
    """Issue 48 item 5: the app's download wrote question, answer and answerable only, so a
    benchmark's questions lost their labelled excerpts on a round trip; one writer now."""
    import json

    document = (Path(APP).parent / "sample_docs" / "politica_reembolso.txt").read_text("utf-8")
    excerpt = "o valor pago é devolvido integralmente"
    begin = document.index(excerpt)
    reference = {"content": excerpt, "start_index": begin, "end_index": begin + len(excerpt)}
    cell = json.dumps([reference]).replace('"', '""')
    data = f'question,references,corpus_id\nO valor volta inteiro?,"{cell}",\n'
    at = start()
    at.file_uploader(key="questions_upload").set_value(("bench.csv", data.encode(), "text/csv"))
    run(at)
    assert table(at) == ["O valor volta inteiro?"]
    downloaded = questions_csv(app_state.frame_questions(at.session_state.questions_base))
    back, _ = read_questions_file(downloaded.encode(), "questions.csv")
    assert [(r.content, r.start, r.end) for r in back[0].references] == [
        (excerpt, begin, begin + len(excerpt))]


def test_a_bad_questions_file_says_why_and_keeps_the_table() -> None:
    at = start()
    at.file_uploader(key="questions_upload").set_value(
        ("bad.csv", b"question,answer,answerable\n", "text/csv"))
    run(at)
    assert any("has no questions" in shown(e.value) for e in at.error)
    assert len(table(at)) == 7


# --- why did this fail? -----------------------------------------------------------------------


def test_why_picks_a_labelled_question_and_keeps_its_result() -> None:
    at = start("why")
    picker = at.selectbox(key="why_pick")
    assert picker.options[:7] == table(at)
    at.selectbox(key="why_pick").set_value("Vocês emitem nota fiscal?")
    run(at)
    at.button(key="why_run").click()
    run(at)
    assert "Diagnosis of “Vocês emitem nota fiscal?” under configuration A" in texts(at)
    at.radio(key="why_side").set_value("b")
    run(at)
    assert "Diagnosis of" not in texts(at), "another configuration: the result is gone"
    at.radio(key="why_side").set_value("a")
    run(at)
    at.button(key="why_run").click()
    run(at)
    at.slider(key="b_max_chars").set_value(300)  # not an input of A's diagnosis
    run(at)
    assert "Diagnosis of “Vocês emitem nota fiscal?”" in texts(at), "kept through a rerun"
    at.slider(key="top_k").set_value(3)
    run(at)
    assert "Diagnosis of" not in texts(at), "top_k changed: the result is gone"


def test_why_loads_the_fix_into_b_and_forgets_the_old_document() -> None:
    at = start("why")
    at.button(key="why_run").click()
    run(at)
    fix = at.session_state["_why_result"][1].fix
    assert fix is not None and at.button(key="load_fix") is not None
    at.button(key="load_fix_b").click()
    run(at)
    assert at.session_state.b_chunker == fix.chunker
    for param in get_spec(fix.chunker).params:
        assert at.session_state[f"b_{param.name}"] == fix.get(param.name), param.name
    paste(at, ENGLISH_DOC)
    at.button(key="clear_questions_for_document").click()
    run(at)
    apply_edits(at, {"edited_rows": {}, "deleted_rows": [],
                     "added_rows": [{"question": "How long do returns last?",
                                     "answer": "thirty days", "answerable": True}]})
    picker = at.selectbox(key="why_pick")
    assert picker.value == "How long do returns last?"
    assert PRAZO not in picker.options
    assert "Diagnosis of" not in texts(at)


def test_rows_typed_but_not_applied_are_kept_and_said_until_applied() -> None:
    """Issue 19, high 1 (server side): the grid's edits reach the server with any rerun;
    they are kept as the grid's data (and the page says they are not applied) through a
    language switch and the guided replay, then "Apply questions" applies them."""
    at = start()
    at.session_state["questions_editor"] = {
        "edited_rows": {}, "added_rows": [{"question": "Typed, kept?", "answer": ""}],
        "deleted_rows": []}
    at.selectbox(key="lang").set_value("pt")
    run(at)
    assert t("app.questions_not_applied", "pt") in texts(at)
    at.toggle(key="walk_on").set_value(True)
    run(at)
    at.toggle(key="walk_on").set_value(False)
    run(at)
    assert "Typed, kept?" not in table(at), "not applied yet"
    assert "Typed, kept?" in list(at.data_editor(key="questions_editor").value["question"])
    at.button(key="apply_questions").click()
    run(at)
    assert table(at)[-1] == "Typed, kept?"
    assert t("app.questions_not_applied", "pt") not in texts(at)


# --- a benchmark file: labelled excerpts, many questions ----------------------------------------


def test_a_chroma_shaped_file_keeps_its_excerpts_and_shows_a_picker_and_token_metrics() -> None:
    import csv
    import io
    import json

    from ragviz_app.views.questions import MANY_QUESTIONS

    sample = Path(__file__).resolve().parent.parent / "sample_docs" / "politica_reembolso.txt"
    document = sample.read_text(encoding="utf-8")
    sentences = [s.strip() + "." for s in document.split(".") if len(s.strip()) > 30]
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["question", "references", "corpus_id"])
    count = MANY_QUESTIONS + 5
    for n in range(count):
        first, second = sentences[n % len(sentences)], sentences[(n + 1) % len(sentences)]
        refs = [{"content": first, "start_index": document.index(first),
                 "end_index": document.index(first) + len(first)}, {"content": second}]
        writer.writerow([f"Pergunta {n}?", json.dumps(refs, ensure_ascii=False), ""])
    at = start()
    at.file_uploader(key="questions_upload").set_value(
        ("bench.csv", buffer.getvalue().encode(), "text/csv"))
    run(at)
    questions = app_state.frame_questions(at.session_state.questions_base)
    assert len(questions) == count and all(len(q.references) == 2 for q in questions)
    assert questions[0].references[0].start == document.index(sentences[0])
    at.session_state["tab"] = t("tab.questions", "en")
    run(at)
    assert at.selectbox(key="question_pick").options[0].startswith("1. Pergunta 0?")
    headings = [m.value for m in at.markdown if str(m.value).startswith("#### ")]
    assert len(headings) == 1, "one question's charts, not a pair per question"
    details = " ".join(c.proto.help for c in at.caption if c.proto.help)
    assert "IoU" in details and "recall" in details


def test_an_excerpt_not_in_the_document_is_named_by_row_and_the_other_rows_load() -> None:
    """Issue 20: as the CLI does, a row whose excerpt's offsets do not slice the document to
    its content, or whose text is in no file, is named (row and question) in one sentence,
    left out of the evaluation and kept in the table; the other rows are evaluated."""
    import csv
    import io
    import json

    first = "Orders arrive in five to eight days."
    start_at = ENGLISH_DOC.index(first)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["question", "references", "corpus_id"])
    writer.writerow(["How long is delivery?", json.dumps(
        [{"content": first, "start_index": start_at, "end_index": start_at + len(first)}]), ""])
    writer.writerow(["Bad offsets?", json.dumps(
        [{"content": first, "start_index": 0, "end_index": len(first)}]), ""])
    writer.writerow(["Not there?", json.dumps([{"content": "Pets fly free."}]), ""])
    at = start()
    paste(at, ENGLISH_DOC)
    at.file_uploader(key="questions_upload").set_value(
        ("bench.csv", buffer.getvalue().encode(), "text/csv"))
    run(at)
    at.session_state["tab"] = t("tab.questions", "en")
    run(at)
    errors = [shown(e.value) for e in at.error]
    assert errors == [
        f"Row 2 (“Bad offsets?”): excerpt 1: offsets 0–{len(first)} do not slice the file to "
        "the excerpt's content; the question is left out of the evaluation and stays in the "
        "table.",
        "Row 3 (“Not there?”): excerpt 1: the excerpt's text is not in the corpus; the "
        "question is left out of the evaluation and stays in the table."]
    assert table(at) == ["How long is delivery?", "Bad offsets?", "Not there?"]
    headings = [str(m.value) for m in at.markdown if str(m.value).startswith("#### ")]
    assert len(headings) == 1 and "How long is delivery" in shown(headings[0])
    at.selectbox(key="lang").set_value("pt")
    run(at)
    assert any(shown(e.value).startswith("Linha 3 (“Not there?”): trecho 1: o texto do trecho "
                                         "não está no corpus") for e in at.error)
