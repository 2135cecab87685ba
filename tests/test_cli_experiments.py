"""`ragviz compare` and `ragviz sweep` run the experiments the app runs (the same library
calls, so the same numbers) and print the results' own to_dict (real default model)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.chunking.sweep_grid import default_grid
from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from ragviz.evaluation.experiments import compare, sweep
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion

SAMPLE = "sample:politica_reembolso"
SETTINGS = RetrievalSettings(top_k=2, floor=-1.0)


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    assert main([*args, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_compare_gives_the_apps_comparison(
    capsys: pytest.CaptureFixture[str], use_model: Embedder, seed_doc: str,
    seed_questions: list[LabelledQuestion],
) -> None:
    data = run_json(capsys, "compare", SAMPLE, "--questions", SAMPLE, "--size", "100",
                    "--b-chunker", "sentence", "--b-overlap-sentences", "0")
    a = analyse(seed_doc, ChunkerConfig("fixed", size=100), use_model, seed_questions, SETTINGS)
    b = analyse(seed_doc, ChunkerConfig("sentence", overlap_sentences=0), use_model,
                seed_questions, SETTINGS)
    expected = compare(a, b).to_dict()
    assert {k: data[k] for k in expected} == expected
    assert data["a"] == "fixed(size=100, overlap=0)"
    assert data["b"] == "sentence(max_chars=220, overlap_sentences=0)"
    assert (data["model"], data["top_k"], data["floor"]) == ("use-multilingual", 2, -1.0)


def test_compare_text_names_each_question_that_flips(capsys: pytest.CaptureFixture[str]) -> None:
    """The article's A (fixed 120) against B (sentence 220, one sentence of overlap): three
    answerable questions go from a wrong top chunk to ok (top_k 1: at 2, an answer at rank 2
    reached the context and is already ok under A)."""
    assert main(["compare", SAMPLE, "--questions", SAMPLE, "--top-k", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("A fixed(size=120, overlap=0): hit@1 ")
    assert lines[1].startswith("B sentence(max_chars=220, overlap_sentences=1): hit@1 1.00")
    assert lines[2] == "3 of 7 questions change from A to B"
    assert "  [fixed] Qual o prazo do reembolso?: outranked -> ok" in lines


def test_compare_refuses_a_bad_b_option_in_one_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["compare", SAMPLE, "--questions", SAMPLE, "--b-chunker", "fixed",
                 "--b-size", "50", "--b-overlap", "60"])
    err = capsys.readouterr().err
    assert code == 2
    assert err == "ragviz compare: overlap must be smaller than size (50), got 60\n"


def test_sweep_gives_the_apps_grid_and_best_row(
    capsys: pytest.CaptureFixture[str], use_model: Embedder, seed_doc: str,
    seed_questions: list[LabelledQuestion],
) -> None:
    data = run_json(capsys, "sweep", SAMPLE, "--questions", SAMPLE, "--chunkers",
                    "fixed,sentence", "--metric", "mrr")
    grid = default_grid(len(seed_doc), ("fixed", "sentence"))
    result = sweep(seed_doc, seed_questions, use_model, grid, SETTINGS)
    assert data["rows"] == result.to_dict()["rows"]
    assert data["best"] == result.best("mrr").to_dict()
    assert data["metric"] == "mrr"
    assert {row["chunker"] for row in data["rows"]} == {"fixed", "sentence"}


def test_sweep_text_marks_the_best_row(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", SAMPLE, "--questions", SAMPLE, "--chunkers", "fixed"]) == 0
    lines = capsys.readouterr().out.splitlines()
    best = lines[0].rsplit(": ", 1)[1]
    assert lines[1] == "Evaluated 7 of 7 questions: every mean, count and change here is over " \
        "those 7."
    rows = lines[2:]
    assert lines[0].startswith(f"{len(rows)} configurations on use-multilingual; best by ")
    assert [line for line in rows if line.startswith("*")] == [
        next(line for line in rows if line[2:].startswith(best + ":"))]


@pytest.mark.parametrize("chunkers", ["nope", "semantic", ","])
def test_sweep_refuses_a_chunker_it_cannot_vary(
    capsys: pytest.CaptureFixture[str], chunkers: str
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["sweep", SAMPLE, "--questions", SAMPLE, "--chunkers", chunkers])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("ragviz sweep: argument --chunkers: ") and err.count("\n") == 1
