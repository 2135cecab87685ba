"""Issue 36 items 4 and 5: every CLI output (eval, compare, sweep, report; text and JSON) says
how many questions were evaluated of how many given and why the others were left out,
grouped, and every number is over the evaluated ones (the sweep counted the left-out
questions as misses). Chroma's question format over two of the help centre's six files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragviz.cli.command import main
from ragviz.inputs.questions import parse_questions_csv
from tests.chroma_questions import chroma_questions

HELP = Path(__file__).resolve().parent.parent / "sample_docs" / "help_center"
FILES = [str(HELP / "refunds.md"), str(HELP / "payments.md")]
MODEL = ["--model", "minilm-en", "--top-k", "3"]


@pytest.fixture(scope="module")
def asked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int, int]:
    """Questions over all six files; returns the file, how many and how many are about the
    two files given."""
    data = chroma_questions(HELP, 24)
    path = tmp_path_factory.mktemp("coverage") / "questions.csv"
    path.write_text(data, encoding="utf-8")
    questions = parse_questions_csv(data)
    mine = sum(q.references[0].source in {"refunds", "payments"} for q in questions)
    return path, len(questions), mine


def run(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main([*args, *MODEL, "--json"]) == 0, capsys.readouterr().err
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def text(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main([*args, *MODEL]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def said_left_out(warnings: list[str], left: int) -> bool:
    return any(w.startswith(f"{left} questions left out: their file is not in the corpus")
               and "'account_security'" in w for w in warnings)


def test_the_sweep_counts_only_the_evaluated_questions_as_eval_does(
        capsys: pytest.CaptureFixture[str], asked: tuple[Path, int, int]) -> None:
    path, given, mine = asked
    sweep = run(capsys, "sweep", *FILES, "--questions", str(path), "--chunkers", "fixed")
    row = sweep["rows"][0]
    evaluated = run(capsys, "eval", *FILES, "--questions", str(path), "--chunker", "fixed",
                    "--size", str(row["size"]), "--overlap", str(row["overlap"]))
    assert 0 < mine < given
    for data in (sweep, evaluated):
        assert (data["questions_given"], data["questions_evaluated"]) == (given, mine)
        assert data["left_out"] == {"no-file": given - mine}
        assert said_left_out(data["warnings"], given - mine), data["warnings"]
    for name in ("hit_at_1", "hit_at_k", "mrr", "recall", "iou"):
        assert row[name] == evaluated["metrics"][name], name
    assert len(evaluated["questions"]) == mine


def test_the_text_outputs_say_the_questions_evaluated_once_grouped(
        capsys: pytest.CaptureFixture[str], asked: tuple[Path, int, int]) -> None:
    path, given, mine = asked
    head = f"Evaluated {mine} of {given} questions: every mean, count and change here is over"
    for command in (["eval"], ["compare"], ["sweep", "--chunkers", "fixed"]):
        out = text(capsys, command[0], *FILES, "--questions", str(path), *command[1:])
        assert out.count(head) == 1, out
        assert said_left_out(out.splitlines(), given - mine), out
        assert "excerpt 1: no file" not in out, "one sentence per reason, not one per row"
    compare = text(capsys, "compare", *FILES, "--questions", str(path))
    assert f" of {mine} questions change from A to B" in compare


def test_compare_json_and_the_report_say_it_too(
        capsys: pytest.CaptureFixture[str], asked: tuple[Path, int, int],
        tmp_path: Path) -> None:
    path, given, mine = asked
    compare = run(capsys, "compare", *FILES, "--questions", str(path))
    assert (compare["questions_given"], compare["questions_evaluated"]) == (given, mine)
    assert said_left_out(compare["warnings"], given - mine)
    html = tmp_path / "report.html"
    assert main(["report", *FILES, "--questions", str(path), "--html", str(html), *MODEL]) == 0
    page = html.read_text(encoding="utf-8")
    assert f"{mine} evaluated of {given} questions" in page
    assert f"Evaluated {mine} of {given} questions" in page
    assert f"{given - mine} questions left out: their file is not in the corpus" in page


def test_calibrate_says_it_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text(
        "question,answer,answerable,references,corpus_id\n"
        'How long do refunds take?,,true,"[{""content"": ""Refunds for returned items go '
        'back to the original payment method""}]",refunds\n'
        "What is the wifi password?,,false,,\n"
        'Where is my parcel?,,true,"[{""content"": ""Parcels travel""}]",nope\n',
        encoding="utf-8")
    data = run(capsys, "calibrate", FILES[0], "--questions", str(path))
    assert (data["questions_given"], data["questions_evaluated"]) == (3, 2)
    assert data["warnings"] == ["line 4: excerpt 1: no file 'nope' in the corpus; the row is "
                                "left out."]
    assert len(data["best_scores"]) == 2
