"""Issue 36 item 11: with labelled excerpts (the benchmark's questions), the token measures
where the benchmark user looks (mean ± std under each configuration) and the metrics per file
of a corpus; the article's own questions (answers, no excerpts) keep the page as it was."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chroma_questions import chroma_questions

from ragviz.share.samples import get_sample
from tests.test_app import rerun, run_app

HELP = Path(__file__).resolve().parents[1] / "sample_docs" / "help_center"


def _token_lines(at: object) -> list[str]:
    return [str(m.value) for m in at.markdown if "**recall**" in str(m.value)]  # type: ignore[attr-defined]


def test_excerpt_questions_show_recall_precision_iou_and_the_per_file_table() -> None:
    at = run_app("questions")
    assert _token_lines(at) == []  # the article's questions: answers, no excerpts
    at.radio(key="sample_name").set_value("help_center")
    at = rerun(at)
    at.file_uploader(key="questions_upload").set_value(
        ("q.csv", chroma_questions(HELP, 18).encode(), "text/csv"))
    at = rerun(at)
    lines = _token_lines(at)
    assert len(lines) == 2 and all("±" in line and "**IoU**" in line for line in lines), lines
    tables = [d.value for d in at.dataframe if "file" in d.value.columns]
    assert len(tables) == 2, "one per configuration"
    names = set(get_sample("help_center").corpus().names)
    for table in tables:
        assert set(table["file"]) <= names and table["questions"].sum() >= 18
        assert table["hit@1"].between(0, 1).all() and table["recall"].between(0, 1).all()
