"""--format md|csv: eval's metrics as mean ± std, per file and per question; compare and sweep
as tables; the numbers are the JSON's, formula-like cells guarded."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from chroma_questions import chroma_questions

from ragviz.cli.command import main

HELP = Path(__file__).resolve().parents[1] / "sample_docs" / "help_center"


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def test_eval_tables_hold_the_jsons_numbers(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    questions = tmp_path / "q.csv"
    questions.write_text(chroma_questions(HELP, 24), encoding="utf-8")
    common = ["eval", str(HELP), "--questions", str(questions), "--top-k", "3"]
    payload = json.loads(_run([*common, "--json"], capsys))
    md = _run([*common, "--format", "md"], capsys)
    m = payload["metrics"]
    assert f"| recall | {m['recall']:.4f} | {m['std']['recall']:.4f} |" in md
    for name in {r["source"] for q in payload["questions"] for r in q["references"]}:
        group = [q for q in payload["questions"]
                 if name in {r["source"] for r in q["references"]}]
        hit = sum(q["diagnosis"]["answer_rank"] == 1 for q in group) / len(group)
        recall = sum(q["recall"] for q in group) / len(group)
        assert f"| {name} | {len(group)} | {hit:.4f} |" in md
        assert f"| {recall:.4f} |" in md
        assert payload["per_file"][name]["hit_at_1"] == pytest.approx(hit)
    rows = list(csv.DictReader(io.StringIO(_run([*common, "--format", "csv"], capsys))))
    assert [r["question"] for r in rows] == [q["question"] for q in payload["questions"]]
    assert [float(r["iou"]) for r in rows] == pytest.approx(
        [q["iou"] for q in payload["questions"]], abs=1e-4)


def test_a_formula_in_a_question_is_guarded_in_csv(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    document = tmp_path / "doc.txt"
    document.write_text("Refunds take ten days.", encoding="utf-8")
    questions = tmp_path / "q.csv"
    questions.write_text('question,answer\n"=HYPERLINK(""x"")",ten days\n', encoding="utf-8")
    out = _run(["eval", str(document), "--questions", str(questions), "--format", "csv"], capsys)
    assert list(csv.reader(io.StringIO(out)))[1][0] == "'=HYPERLINK(\"x\")"


def test_compare_and_sweep_tables_and_a_command_without_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    questions = tmp_path / "q.csv"
    questions.write_text(chroma_questions(HELP, 12), encoding="utf-8")
    common = [str(HELP), "--questions", str(questions)]
    compared = json.loads(_run(["compare", *common, "--b-scorer", "bm25", "--json"], capsys))
    md = _run(["compare", *common, "--b-scorer", "bm25", "--format", "md"], capsys)
    a, b = compared["metrics_a"]["hit_at_1"], compared["metrics_b"]["hit_at_1"]
    assert f"| hit_at_1 | {a:.4f} | {b:.4f} |" in md
    rows = list(csv.DictReader(io.StringIO(
        _run(["sweep", *common, "--chunkers", "fixed", "--format", "csv"], capsys))))
    swept = json.loads(_run(["sweep", *common, "--chunkers", "fixed", "--json"], capsys))
    assert [r["config"] for r in rows] == [r["config"] for r in swept["rows"]]
    assert main(["chunk", str(HELP / "refunds.md"), "--format", "md"]) == 2
    assert "has no table" in capsys.readouterr().err
