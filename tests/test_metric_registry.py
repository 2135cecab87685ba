"""The metric seam: the five metrics are a registry, and a metric registered from outside
(a toy: the share of questions refused, lower is better) shows in the metrics, the JSON,
the CLI, the CSV, the HTML report, the sweep's choice and colours, and the app, with none
of them touched."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.cli.command import main
from ragviz.embedding.models import load_embedder
from ragviz.evaluation.measures import METRICS, Metric, metric_names, register_metric
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import Analysis, Metrics, RetrievalSettings, SweepResult, SweepRow
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.charts import sweep_heatmap
from ragviz.present.exports import results_csv
from ragviz.present.report import render_report
from tests.test_app import open_tab, rerun, run_app

TEXT = "Refunds take ten days. The office wifi password is on the board. Lunch is at noon."
QUESTIONS = [
    LabelledQuestion("How many days do refunds take?", "ten days", True),
    LabelledQuestion("What is the CEO's salary?", "", False),
]
FIXED = ChunkerConfig("fixed", size=30, overlap=0)
TOY = "toy_refused"


@pytest.fixture
def toy() -> Iterator[Metric]:
    metric = register_metric(Metric(TOY, lambda o: 1.0 if o.decision.refused else 0.0,
                                    higher_is_better=False, display="decimal"))
    yield metric
    del METRICS[TOY]


@pytest.fixture
def analysis(toy: Metric) -> Analysis:
    return analyse(TEXT, FIXED, load_embedder("use-multilingual"), QUESTIONS,
                   RetrievalSettings(1, 0.3))


def test_the_built_in_metrics_are_registered_in_display_order() -> None:
    assert metric_names()[:5] == ("hit_at_1", "hit_at_k", "mrr", "refusal_precision",
                                  "refusal_recall")


def test_a_registered_metric_is_computed_and_written_out(analysis: Analysis) -> None:
    refused = [o.decision.refused for o in analysis.outcomes]
    assert analysis.metrics.value(TOY) == pytest.approx(sum(refused) / len(refused))
    assert TOY in analysis.metrics.to_dict()
    header = next(csv.reader(io.StringIO(results_csv([analysis]))))
    assert header[-1] == TOY
    assert f">{TOY}<b>" in render_report([analysis])


def test_the_cli_prints_a_registered_metric(
    toy: Metric, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    document, questions = tmp_path / "doc.txt", tmp_path / "q.csv"
    document.write_text(TEXT, encoding="utf-8")
    questions.write_text("question,answer,answerable\n" + "\n".join(
        f"{q.question},{q.answer},{str(q.is_answerable).lower()}" for q in QUESTIONS),
        encoding="utf-8")
    args = ["eval", str(document), "--questions", str(questions), "--chunker", "fixed",
            "--size", "30", "--overlap", "0", "--floor", "0.3", "--top-k", "1"]
    assert main(args) == 0
    assert f"  {TOY} " in capsys.readouterr().out
    assert main([*args, "--json"]) == 0
    assert TOY in json.loads(capsys.readouterr().out)["metrics"]


def _row(size: int, toy_value: float, hit: float) -> SweepRow:
    values: dict[str, float | None] = dict.fromkeys(metric_names())
    values |= {TOY: toy_value, "hit_at_1": hit}
    return SweepRow(ChunkerConfig("fixed", size=size, overlap=0), Metrics(values, 1, 1, {}))


def test_the_sweep_picks_and_colours_by_the_metrics_direction(toy: Metric) -> None:
    sweep = SweepResult((_row(100, 0.5, 1.0), _row(200, 0.25, 0.0), _row(300, 0.75, 0.5)))
    assert sweep.best(TOY).config.params()["size"] == 200  # lower is better
    assert sweep.best("hit_at_1").config.params()["size"] == 100
    scale = sweep_heatmap(sweep, TOY).to_dict()["layer"][0]["encoding"]["color"]["scale"]
    assert scale["reverse"] is True
    scale = sweep_heatmap(sweep, "hit_at_1").to_dict()["layer"][0]["encoding"]["color"]["scale"]
    assert scale["reverse"] is False


def test_the_app_shows_a_registered_metric(toy: Metric) -> None:
    at = run_app("questions")
    # the figures' tooltips (other captions, such as the refused-answerable count, have theirs)
    details = [c.proto.help for c in at.caption if "MRR" in c.proto.help]
    assert details and all(f"{TOY} " in d for d in details)
    at = open_tab(rerun(at), "compare")
    assert TOY in at.selectbox(key="sweep_metric").options


def test_the_md_and_csv_tables_list_the_registered_metrics(toy: Metric) -> None:
    """Issue 48 item 2: the per-file and per-question columns come from the registry, not a
    typed list: a registered metric is a column, and a question's token metrics are too."""
    from ragviz.cli.tables import markdown, tables

    per_file = {"a.txt": {"answerable": 1, **dict.fromkeys(metric_names(), 0.5)}}
    question = {"question": "q", "labels": [], "recall": 1.0, "precision": 0.5, "iou": 0.5,
                "precision_omega": 0.25}
    titled = dict(tables("eval", {"metrics": {}, "per_file": per_file,
                                  "questions": [question]}))
    by_file, by_question = titled["per_file"], titled["questions"]
    assert by_file[0][2:] == list(metric_names()) and TOY in by_file[0]
    assert by_file[1][0] == ["a.txt", 1, *[0.5] * len(metric_names())]
    assert by_question[0][3:] == ["recall", "precision", "iou", "precision_omega"]
    assert "### por arquivo\n" in markdown(list(titled.items()), "pt")  # titles said in --lang


def test_the_apps_per_file_table_lists_the_registry_and_a_label_falls_back_to_its_name(
    toy: Metric,
) -> None:
    """Issue 48 item 2: the app's per-file table typed its metrics (hit@1, MRR and the token
    three); it reads the registry now, as the CLI's table does: a registered metric is a
    column, headed by its name when the catalog has no label for it."""
    from ragviz.i18n import t
    from ragviz.present.presentation import metric_label
    from ragviz_app.frame import per_file_rows

    figures = Metrics(values=dict.fromkeys(metric_names(), 0.5), answerable=2,
                      unanswerable=1, labels={}, top_k=2)
    [row] = per_file_rows({"a.md": figures}, 2, "pt")
    assert row[TOY] == 0.5  # no catalog label: its name
    assert list(row)[:2] == [t("app.per_file_name", "pt"), t("app.per_file_questions", "pt")]
    assert list(row)[2:] == [metric_label(name, "pt", short=True, k=2) for name in metric_names()]
    assert row[metric_label("refusal_recall", "pt", short=True)] == 0.5


def test_the_panels_big_numbers_and_token_line_come_from_the_registry() -> None:
    """Issue 48 item 2: the panel's two big numbers and its token line were typed in the
    app; a metric registered for the headline is a big number too, labelled by its name."""
    metric = register_metric(Metric(TOY, lambda o: 1.0 if o.decision.refused else 0.0,
                                    panel="headline"))
    try:
        at = run_app("questions")
        labels = [m.label for m in at.metric]
        assert labels.count(TOY) == 2, labels  # A's panel and B's
        assert labels.count("answer in 1st chunk (hit@1)") == 2
        details = [c.proto.help for c in at.caption if "MRR" in c.proto.help]
        assert details and not any(f"{TOY} " in d for d in details)  # not twice
    finally:
        del METRICS[metric.name]
