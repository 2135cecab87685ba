"""Issue 37 item 4 in the real Streamlit runtime: a questions file in Chroma's benchmark
format (``question,references,corpus_id``, its ``corpus_id`` naming files) over a one-file
document (the sample, a pasted text, a link's document) never raises. The rows whose
excerpts are in the document are evaluated; the others are left out with one grouped
sentence that names their files, not one red box per row."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

from streamlit.testing.v1 import AppTest

from ragviz.i18n import t
from ragviz.inputs.questions import parse_questions_csv
from tests.chroma_questions import chroma_questions

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
HELP_CENTER = ROOT / "sample_docs" / "help_center"
TIMEOUT = 120
COUNT = 10  # two questions per file of the help centre's five text files


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(markdown: object) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", str(markdown))


def upload_benchmark(at: AppTest, data: str) -> None:
    at.file_uploader(key="questions_upload").set_value(
        ("bench.csv", data.encode("utf-8"), "text/csv"))
    run(at)
    at.session_state["tab"] = t("tab.questions", "en")
    run(at)


def headings(at: AppTest) -> list[str]:
    return [shown(m.value) for m in at.markdown if str(m.value).startswith("#### ")]


def test_a_benchmark_file_over_the_sample_loads_and_says_once_why_none_is_evaluated() -> None:
    data = chroma_questions(HELP_CENTER, COUNT)
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    upload_benchmark(at, data)
    assert len(at.session_state.questions_base) == COUNT, "every row stays in the table"
    errors = [shown(e.value) for e in at.error]
    files = sorted({q.references[0].source for q in parse_questions_csv(data)})
    assert len(errors) == 1, errors
    assert errors[0].startswith(f"{COUNT} questions expect excerpts of files that are not in "
                                "this document"), errors
    assert all(name in errors[0] for name in files), errors
    assert headings(at) == [], "no question is evaluated against the refund policy"


def test_a_benchmark_file_over_a_pasted_file_evaluates_that_files_rows() -> None:
    data = chroma_questions(HELP_CENTER, COUNT)
    questions = parse_questions_csv(data)
    document = (HELP_CENTER / "account_security.txt").read_text(encoding="utf-8")
    own = [q.question for q in questions if q.references[0].source == "account_security"]
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    at.radio(key="doc_source").set_value("paste")
    run(at)
    at.text_area(key="doc_paste").input(document)
    run(at)
    upload_benchmark(at, data)
    evaluated = headings(at)
    assert len(evaluated) == len(own) == 2, evaluated
    assert all(question in text for question, text in zip(own, evaluated, strict=True))
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and errors[0].startswith(
        f"{COUNT - len(own)} questions expect excerpts of files that are not in this "
        "document (cancel_order, cancel_subscription, payments, refunds)"), errors
    at.selectbox(key="lang").set_value("pt")
    run(at)
    errors = [shown(e.value) for e in at.error]
    assert len(errors) == 1 and errors[0].startswith(
        f"{COUNT - len(own)} perguntas esperam trechos de arquivos"), errors


def test_an_excerpt_named_by_another_file_is_found_by_its_text_in_the_one_document() -> None:
    """The document is a copy of the file with a line added on top: the offsets no longer
    slice it, the excerpt's text is still there, so the question is evaluated."""
    source = (HELP_CENTER / "refunds.md").read_text(encoding="utf-8")
    document = "Copied from the help centre.\n" + source
    sentence = "Refunds for returned items go back to the original payment method"
    assert sentence in source and sentence in document
    start = source.index(sentence)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["question", "references", "corpus_id"])
    writer.writerow(["Where does a refund go?", json.dumps(
        [{"content": sentence, "start_index": start, "end_index": start + len(sentence)}]),
        "refunds"])
    at = run(AppTest.from_file(APP, default_timeout=TIMEOUT))
    at.radio(key="doc_source").set_value("paste")
    run(at)
    at.text_area(key="doc_paste").input(document)
    run(at)
    upload_benchmark(at, buffer.getvalue())
    assert [e.value for e in at.error] == []
    assert len(headings(at)) == 1 and "Where does a refund go?" in headings(at)[0]
