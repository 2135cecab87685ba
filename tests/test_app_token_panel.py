"""Issue 36 item 11: the token measures where the benchmark user looks (mean ± std under each
configuration) and the metrics per file of a corpus."""

from __future__ import annotations

from ragviz.share.samples import get_sample
from tests.test_app import rerun, run_app


def test_recall_precision_iou_and_the_per_file_table() -> None:
    at = run_app("questions")
    at.radio(key="sample_name").set_value("help_center")
    at = rerun(at)
    shown = {m.label: m.value for m in at.metric}
    assert {"recall", "precision", "IoU"} <= set(shown), shown
    assert "±" in shown["recall"]
    tables = [d.value for d in at.dataframe if "file" in d.value.columns]
    assert len(tables) == 2, "one per configuration"
    sample = get_sample("help_center")
    answerable = [q for q in sample.questions() if q.is_answerable]
    for table in tables:
        assert set(table["file"]) <= set(sample.corpus().names)
        assert table["questions"].sum() >= len(answerable) > table["questions"].max()
        assert table["hit@1"].between(0, 1).all() and table["recall"].between(0, 1).all()
