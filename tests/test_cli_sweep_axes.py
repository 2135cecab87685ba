"""`ragviz sweep` with axes beyond the chunker grid (issue 33 item 6, issue 36 item 12): scorers
(`--scorers`), rerank depths (`--rerank-depths` with `--rerank`), sizes and overlaps typed
(`--sizes`, `--overlaps`); each row equals the pipeline's own analysis of that setting (real
default model; `sentence-max` is the offline reranker)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.scorers import get_scorer

SAMPLE = "sample:politica_reembolso"
COMMON = ["sweep", SAMPLE, "--questions", SAMPLE, "--chunkers", "fixed", "--sizes", "120"]


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    assert main([*args, "--json"]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _metrics(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k not in ("config", "chunker", "size", "overlap",
                                                       "scorer", "chunks")}


def test_scorers_are_an_axis_each_row_the_pipelines_own(
    capsys: pytest.CaptureFixture[str], use_model: Embedder, seed_doc: str,
    seed_questions: list[LabelledQuestion],
) -> None:
    data = run_json(capsys, *COMMON, "--overlaps", "0", "--scorers", "cosine,bm25,hybrid")
    assert [(r["config"], r["scorer"]) for r in data["rows"]] == [
        ("fixed(size=120, overlap=0)", name) for name in ("cosine", "bm25", "hybrid")]
    config = ChunkerConfig("fixed", size=120, overlap=0)
    for row in data["rows"]:
        settings = RetrievalSettings(2, get_scorer(row["scorer"]).scale.low, row["scorer"])
        expected = analyse(seed_doc, config, use_model, seed_questions, settings).metrics
        assert _metrics(row) == {k: expected.values.get(k) for k in _metrics(row)}
    assert len({json.dumps(_metrics(r)) for r in data["rows"]}) > 1, "the scorers differ"
    assert data["best"]["scorer"] in ("cosine", "bm25", "hybrid")


def test_rerank_depths_are_an_axis(
    capsys: pytest.CaptureFixture[str], use_model: Embedder, seed_doc: str,
    seed_questions: list[LabelledQuestion],
) -> None:
    data = run_json(capsys, *COMMON, "--overlaps", "0", "--rerank", "sentence-max",
                    "--rerank-depths", "1,3")
    specs = [row["scorer"] for row in data["rows"]]
    assert specs == ["cosine+rerank(sentence-max,depth=1)", "cosine+rerank(sentence-max,depth=3)"]
    for row in data["rows"]:
        settings = RetrievalSettings(2, get_scorer(row["scorer"]).scale.low, row["scorer"])
        expected = analyse(seed_doc, ChunkerConfig("fixed", size=120, overlap=0), use_model,
                           seed_questions, settings).metrics
        assert _metrics(row) == {k: expected.values.get(k) for k in _metrics(row)}


def test_scorer_axis_in_the_text_and_the_tables(capsys: pytest.CaptureFixture[str]) -> None:
    args = [*COMMON, "--overlaps", "0", "--scorers", "cosine,bm25"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 configurations on use-multilingual; best by hit_at_1: ")
    assert any(line[2:].startswith("fixed(size=120, overlap=0) · bm25: ") for line in lines)
    assert main([*args, "--format", "csv"]) == 0
    table = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert table[0][:6] == ["config", "chunker", "size", "overlap", "scorer", "chunks"]
    assert [row[4] for row in table[1:]] == ["cosine", "bm25"]
    assert main([*args, "--format", "md"]) == 0
    assert "| scorer |" in capsys.readouterr().out


def test_sizes_and_overlaps_typed(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "sweep", SAMPLE, "--questions", SAMPLE, "--chunkers",
                    "fixed,sentence", "--sizes", "150,300", "--overlaps", "0,10")
    fixed = [(r["size"], r["overlap"]) for r in data["rows"] if r["chunker"] == "fixed"]
    assert fixed == [(150, 0), (150, 15), (300, 0), (300, 30)]
    sentence = {(r["size"], r["overlap"]) for r in data["rows"] if r["chunker"] == "sentence"}
    assert {size for size, _ in sentence} == {150, 300}  # its overlap keeps its own steps
    assert "scorer" not in data["rows"][0]


@pytest.mark.parametrize(("args", "said"), [
    (["--sizes", "100,abc"], "argument --sizes: --sizes takes whole numbers separated by "
     "commas, e.g. 200, 400, 800; 'abc' is not one"),
    (["--sizes", ",".join(str(100 + i) for i in range(13))],
     "argument --sizes: --sizes: give at most 12 values (you gave 13), so the sweep stays short"),
    (["--rerank-depths", "5,10"], "--rerank-depths needs a reranker: add --rerank MODEL "
     "(e.g. --rerank sentence-max)"),
    (["--scorers", "cosine,bm25", "--floor", "0.3"], "--floor is on one scorer's scale: "
     "leave it out when sweeping several scorers (each then has no floor)"),
    (["--scorers", "cosine,nope"], "argument --scorers: "),
])
def test_bad_axes_are_one_sentence(capsys: pytest.CaptureFixture[str], args: list[str],
                                   said: str) -> None:
    try:
        code = main(["sweep", SAMPLE, "--questions", SAMPLE, *args])
    except SystemExit as exit_:  # argparse's own (a type that refused)
        code = exit_.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ragviz sweep: {said}") and err.count("\n") == 1, err
