"""The scorer seam: cosine is the registered default, settings name their scorer, and a
scorer registered from outside (a toy: shared words) reaches the pipeline, the CLI and the
app without either being touched."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

from ragviz.chunking import Chunk, ChunkerConfig
from ragviz.cli.command import main
from ragviz.cli.payloads import search_payload
from ragviz.embedding.models import load_embedder
from ragviz.evaluation.pipeline import analyse, rescore
from ragviz.evaluation.results import RetrievalSettings
from ragviz.i18n import STRINGS
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.scorers import (
    DEFAULT_SCORER,
    SCORERS,
    CosineScorer,
    ScoreScale,
    Vectors,
    get_scorer,
    register_scorer,
    scorer_names,
)
from tests.test_app import charts, open_tab, rerun, run_app

TEXT = "Refunds take ten days. The office wifi password is on the board. Lunch is at noon."
QUESTION = "How many days do refunds take?"
FIXED = ChunkerConfig("fixed", size=30, overlap=0)


class SharedWords:
    """A toy scorer: how many of the question's words a chunk holds (0 to 10)."""

    name = "toy-words"
    scale = ScoreScale(low=0.0, high=10.0, step=0.5, label="test.toy_axis")

    def prepare(self, chunks: Sequence[Chunk], chunk_vectors: Vectors) -> list[set[str]]:
        return [set(c.text.lower().split()) for c in chunks]

    def score_rows(self, prepared: list[set[str]], questions: Sequence[str],
                   query_vectors: Vectors) -> list[tuple[float, ...]]:
        return [tuple(float(min(10, len(words & set(q.lower().split())))) for words in prepared)
                for q in questions]


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[SharedWords]:
    monkeypatch.setitem(STRINGS, "test.toy_axis", {"en": "shared words", "pt": "palavras"})
    scorer = SharedWords()
    register_scorer(scorer)
    yield scorer
    del SCORERS[scorer.name]


def test_cosine_is_the_default_and_settings_without_a_scorer_still_load() -> None:
    assert scorer_names()[0] == DEFAULT_SCORER == "cosine"
    assert isinstance(get_scorer("cosine"), CosineScorer)
    assert RetrievalSettings(3, 0.2) == RetrievalSettings(3, 0.2, "cosine")


def test_an_unknown_scorer_is_refused_with_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown scorer 'dense': choose one of ") as refused:
        RetrievalSettings(2, 0.1, "dense")
    assert {"cosine", "bm25", "hybrid"} <= set(str(refused.value).split(": ")[1]
                                              .removeprefix("choose one of ").split(", "))


def test_cosine_rows_are_the_dot_products() -> None:
    rows = np.array([[1.0, 0.0], [0.6, 0.8]], dtype=np.float32)
    queries = np.array([[0.6, 0.8]], dtype=np.float32)
    scorer = get_scorer("cosine")
    assert scorer.score_rows(scorer.prepare([], rows), ["q"], queries) == [
        pytest.approx((0.6, 1.0))
    ]


def test_the_pipeline_takes_the_named_scorers_rows(toy: SharedWords) -> None:
    embedder = load_embedder("use-multilingual")
    questions = [LabelledQuestion(QUESTION)]
    analysis = analyse(TEXT, FIXED, embedder, questions, RetrievalSettings(1, 2.0, toy.name))
    expected = toy.score_rows(toy.prepare(analysis.chunks, analysis.chunk_vectors),
                              [QUESTION], np.zeros((1, 1), dtype=np.float32))
    assert analysis.outcomes[0].decision.scores.tolist() == list(expected[0])
    assert search_payload(analysis)["scorer"] == toy.name
    assert rescore(analysis, RetrievalSettings(2, 1.0, toy.name)).top_k == 2
    with pytest.raises(ValueError, match="analyse again"):
        rescore(analysis, RetrievalSettings(2, 1.0))


def test_the_cli_offers_and_uses_a_registered_scorer(
    toy: SharedWords, capsys: pytest.CaptureFixture[str], tmp_path: Any,
) -> None:
    with pytest.raises(SystemExit):
        main(["search", "--help"])
    assert toy.name in capsys.readouterr().out
    path = tmp_path / "doc.txt"
    path.write_text(TEXT, encoding="utf-8")
    assert main(["search", str(path), "--question", QUESTION, "--scorer", toy.name,
                 "--chunker", "fixed", "--size", "30", "--overlap", "0", "--json"]) == 0
    scores = json.loads(capsys.readouterr().out)["questions"][0]["scores"]
    assert scores == [1.0, 0.0, 0.0]  # "refunds" in the first chunk; cosine is never whole


def test_the_app_offers_a_registered_scorer_and_draws_on_its_scale(toy: SharedWords) -> None:
    at = run_app("questions")
    options = at.selectbox(key="a_scorer").options
    assert options[0] == "cosine" and toy.name in options
    at.selectbox(key="a_scorer").select(toy.name)
    at.selectbox(key="b_scorer").select(toy.name)
    at = open_tab(rerun(at), "questions")
    floor = at.slider(key="floor")
    assert (floor.min, floor.max, floor.step) == (0.0, 10.0, 0.5)
    bars = [spec for spec, _ in charts(at) if str(spec.get("description", "")).startswith("a: ")]
    assert bars
    x = next(layer["encoding"]["x"] for layer in bars[0]["layer"] if "x" in layer["encoding"]
             and layer["encoding"]["x"].get("field") == "score")
    assert x["scale"]["domain"] == [0.0, 10.0]


def test_the_score_chart_takes_its_domain_and_axis_label_from_the_scale(
    toy: SharedWords,
) -> None:
    from ragviz.present.charts import score_bars_spec
    from ragviz.retrieval.decision import decide

    chunks = [Chunk(0, 0, 4, "abcd"), Chunk(1, 4, 8, "efgh")]
    spec = score_bars_spec(decide([3.0, 1.0], 1, 2.0), chunks, 2.0, "t", scale=toy.scale)
    x = next(layer["encoding"]["x"] for layer in spec["layer"]
             if layer["encoding"].get("x", {}).get("field") == "score")
    assert (x["scale"]["domain"], x["title"]) == ([0.0, 10.0], "shared words")
    unlabelled = ScoreScale(0.0, 5.0, 1.0, "words in common")  # no catalog entry: as written
    spec = score_bars_spec(decide([3.0, 1.0], 1, 2.0), chunks, 2.0, "t", scale=unlabelled)
    x = next(layer["encoding"]["x"] for layer in spec["layer"]
             if layer["encoding"].get("x", {}).get("field") == "score")
    assert x["title"] == "words in common"


class FortyPoints:
    """A toy scorer on 0..40: ten points per question word a chunk holds."""

    name = "toy-forty"
    scale = ScoreScale(low=0.0, high=40.0, step=0.5, label="test.toy_axis")

    def prepare(self, chunks: Sequence[Chunk], chunk_vectors: Vectors) -> list[set[str]]:
        return [set(c.text.lower().replace(".", " ").split()) for c in chunks]

    def score_rows(self, prepared: list[set[str]], questions: Sequence[str],
                   query_vectors: Vectors) -> list[tuple[float, ...]]:
        return [tuple(float(min(40, 10 * len(words & set(q.lower().strip("?").split()))))
                      for words in prepared) for q in questions]


@pytest.fixture
def forty(monkeypatch: pytest.MonkeyPatch) -> Iterator[FortyPoints]:
    monkeypatch.setitem(STRINGS, "test.toy_axis", {"en": "points", "pt": "pontos"})
    scorer = FortyPoints()
    register_scorer(scorer)
    yield scorer
    del SCORERS[scorer.name]


def test_a_scorer_on_0_to_40_works_through_the_cli_calibration_and_report(
    forty: FortyPoints, capsys: pytest.CaptureFixture[str], tmp_path: Any,
) -> None:
    document = tmp_path / "doc.txt"
    document.write_text(TEXT, encoding="utf-8")
    questions = tmp_path / "q.csv"
    questions.write_text("question,answer,answerable\n"
                         "How many days do refunds take?,ten days,true\n"
                         "Where is the office wifi password?,on the board,true\n"
                         "Is there free parking?,,false\n", encoding="utf-8")
    common = [str(document), "--questions", str(questions), "--scorer", forty.name,
              "--chunker", "fixed", "--size", "30", "--overlap", "0"]
    assert main(["calibrate", *common, "--json"]) == 0
    calibration = json.loads(capsys.readouterr().out)
    assert calibration["separable"] and 0 < calibration["floor"] < 40
    assert calibration["floor"] == round(calibration["floor"], 1)  # the scale's decimals
    assert main(["eval", *common, "--floor", "25", "--json"]) == 0  # off cosine's scale
    evaluated = json.loads(capsys.readouterr().out)
    assert evaluated["floor"] == 25.0 and evaluated["scorer"] == forty.name
    assert main(["eval", *common, "--floor", "41"]) == 2
    assert "give a number from 0 to 40" in capsys.readouterr().err
    report = tmp_path / "report.html"
    assert main(["report", *common, "--floor", "25", "--html", str(report)]) == 0
    html = report.read_text(encoding="utf-8")
    assert "floor 25.00" in html and not re.search(r"\bnan\b", html, re.IGNORECASE)
