"""Issue 36 item 5 in the app: with a benchmark file whose questions are partly about files
not in the document, the Questions tab says how many questions are evaluated of how many
given (beside the one grouped sentence saying why the others are left out), and the
report downloaded from the page says it too."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from ragviz.evaluation.results import Coverage
from ragviz.i18n import t
from tests.chroma_questions import chroma_questions

ROOT = Path(__file__).resolve().parent.parent
APP = str(ROOT / "streamlit_app.py")
HELP_CENTER = ROOT / "sample_docs" / "help_center"
COUNT = 10  # two questions per file of the help centre's five text files


def run(at: AppTest) -> AppTest:
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_the_questions_tab_says_how_many_are_evaluated_of_how_many_given() -> None:
    at = run(AppTest.from_file(APP, default_timeout=120))
    at.radio(key="doc_source").set_value("paste")
    run(at)
    at.text_area(key="doc_paste").input(
        (HELP_CENTER / "account_security.txt").read_text(encoding="utf-8"))
    run(at)
    at.file_uploader(key="questions_upload").set_value(
        ("bench.csv", chroma_questions(HELP_CENTER, COUNT).encode("utf-8"), "text/csv"))
    run(at)
    at.session_state["tab"] = t("tab.questions", "en")
    run(at)
    captions = [str(c.value) for c in at.caption]
    assert any(c.startswith(f"Evaluated 2 of {COUNT} questions") for c in captions), captions
    coverage = at.session_state["_question_coverage"]
    assert isinstance(coverage, Coverage)
    assert (coverage.given, coverage.evaluated) == (COUNT, 2)
