"""Chart specs: one bar per chunk, sorted, top_k emphasised, a labelled rule at the floor."""

from __future__ import annotations

import json
from typing import Any

import pytest
from article import ARTICLE_FLOOR, article_floor_text
from hypothesis import given, settings
from hypothesis import strategies as st

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.evaluation.calibration import calibrate_outcomes
from ragviz.evaluation.experiments import sweep
from ragviz.evaluation.pipeline import analyse
from ragviz.evaluation.results import Analysis, RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.charts import (
    FLOOR_DATA,
    calibration_strip,
    score_bars,
    similarity_profile,
    sweep_heatmap,
    tradeoff_curve,
)
from tests.chart_status import chart_statuses


def _layers(chart: Any) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """(layer spec, its data rows) for every layer of a layered chart."""
    spec = chart.to_dict()
    datasets = spec.get("datasets", {})
    shared = spec.get("data", {}).get("name")
    return [(layer, datasets[layer.get("data", {}).get("name", shared)]) for layer in spec["layer"]]


def _statuses(chart: Any) -> list[str]:
    """Each bar's status as the chart computes it from its two datasets."""
    spec = chart.to_dict()
    bars = next(rows for layer, rows in _layers(chart) if _mark(layer) == "bar")
    return chart_statuses(bars, spec["datasets"][FLOOR_DATA][0])


def _mark(layer: dict[str, Any]) -> str:
    mark = layer["mark"]
    return str(mark["type"] if isinstance(mark, dict) else mark)


@pytest.fixture(scope="module")
def fixed_analysis(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> Analysis:
    return analyse(seed_doc, ChunkerConfig("fixed", size=120), use_model, seed_questions,
                   RetrievalSettings(top_k=2, floor=ARTICLE_FLOOR))


def test_score_bars_one_bar_per_chunk_sorted_by_score(fixed_analysis: Analysis) -> None:
    decision = fixed_analysis.outcomes[0].decision
    chart = score_bars(decision, fixed_analysis.chunks, ARTICLE_FLOOR, "prazo")
    bars = [(layer, rows) for layer, rows in _layers(chart) if _mark(layer) == "bar"]
    assert len(bars) == 1
    layer, rows = bars[0]
    assert len(rows) == len(fixed_analysis.chunks) == 5
    scores = [row["score"] for row in rows]
    assert scores == sorted(scores, reverse=True)
    assert layer["encoding"]["y"]["sort"] == [f"#{i}" for i in decision.ranking]


def test_score_bars_rule_at_the_floor_with_its_value(fixed_analysis: Analysis) -> None:
    decision = fixed_analysis.outcomes[0].decision
    layers = _layers(score_bars(decision, fixed_analysis.chunks, ARTICLE_FLOOR))
    rules = [rows for layer, rows in layers if _mark(layer) == "rule"]
    assert [(row["floor"], row["label"]) for rows in rules for row in rows] == [
        (ARTICLE_FLOOR, f"floor {article_floor_text()}")]
    texts = [layer for layer, _ in layers if _mark(layer) == "text"]
    assert any(layer["encoding"]["text"]["field"] == "label" for layer in texts)


def test_score_bars_emphasise_the_top_k(fixed_analysis: Analysis) -> None:
    decision = fixed_analysis.outcomes[0].decision
    statuses = _statuses(score_bars(decision, fixed_analysis.chunks, ARTICLE_FLOOR))
    assert statuses[:2] == ["sent as context", "sent as context"]
    assert set(statuses[2:]) == {"not retrieved"}


def test_score_bars_mark_top_k_under_the_floor(fixed_analysis: Analysis) -> None:
    wifi = fixed_analysis.outcomes[4].decision
    from ragviz.retrieval.decision import decide

    refused = decide(wifi.scores, 2, 0.5)
    statuses = _statuses(score_bars(refused, fixed_analysis.chunks, 0.5))
    assert statuses[:2] == ["in top_k, under the floor"] * 2


def test_calibration_strip_has_a_dot_per_question_and_the_suggested_rule(
    fixed_analysis: Analysis,
) -> None:
    calibration = fixed_analysis.calibration
    assert calibration is not None
    layers = _layers(calibration_strip(calibration, fixed_analysis.outcomes, ARTICLE_FLOOR))
    dots = next(rows for layer, rows in layers if _mark(layer) == "circle")
    assert len(dots) == 7
    assert sum(1 for d in dots if d["group"] == "answerable") == 4
    rules = [rows[0]["floor"] for layer, rows in layers if _mark(layer) == "rule"]
    assert round(calibration.floor, 4) in rules
    # the floor in use differs from A's suggestion, so it is drawn too
    assert ARTICLE_FLOOR in rules


def test_tradeoff_curve_counts_both_errors_for_every_floor(fixed_analysis: Analysis) -> None:
    overlapping = calibrate_outcomes(fixed_analysis.outcomes[:1] + fixed_analysis.outcomes[4:])
    layers = _layers(tradeoff_curve(overlapping))
    rows = next(rows for layer, rows in layers if _mark(layer) == "line")
    assert len(rows) == 3 * len(overlapping.curve)
    assert {row["series"] for row in rows} == {"false refusals", "false answers", "weighted cost"}


def test_sweep_heatmap_has_a_cell_per_configuration(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> None:
    grid = [ChunkerConfig("fixed", size=s) for s in (80, 120)] + [
        ChunkerConfig("sentence", max_chars=220, overlap_sentences=o) for o in (0, 1)
    ]
    result = sweep(seed_doc, seed_questions, use_model, grid,
                   RetrievalSettings(top_k=2, floor=ARTICLE_FLOOR))
    layers = _layers(sweep_heatmap(result, "hit_at_1"))
    cells = next(rows for layer, rows in layers if _mark(layer) == "rect")
    assert len(cells) == 4
    assert {c["config"] for c in cells} == {c.label() for c in grid}
    # issue 19, low 13: the legend said the raw key "hit_at_1"
    legend = json.dumps(sweep_heatmap(result, "hit_at_1", "pt").to_dict(), ensure_ascii=False)
    assert "hit_at_1" not in legend.replace('"metric": "hit_at_1"', "")
    assert "resposta no 1º chunk (hit@1)" in legend


def _iou_sweep(values: dict[tuple[int, int], float]) -> Any:
    """A sweep result with hand-set token IoU per (size, overlap) of the fixed chunker."""
    from ragviz.evaluation.measures import metric_names
    from ragviz.evaluation.results import Metrics, SweepResult, SweepRow

    rows = []
    for (size, overlap), iou in values.items():
        figures: dict[str, float | None] = dict.fromkeys(metric_names())
        rows.append(SweepRow(ChunkerConfig("fixed", size=size, overlap=overlap),
                             Metrics(figures | {"iou": iou}, 1, 0, {})))
    return SweepResult(tuple(rows))


def test_a_heatmap_of_small_values_spans_its_colours_over_them_and_reads_on_a_projector(
) -> None:
    """Issue 20's screenshot: token IoU stays under 0.2 with any chunker, so on a 0..1 scale
    every cell was the same pale blue. Colours now end at the largest value rounded up to a
    tenth (said under the title), cells are written as the metric is (percentages), size
    labels are level, and overlaps go from the smallest down."""
    low = _iou_sweep({(320, 48): 0.10, (320, 0): 0.05, (480, 0): 0.14, (480, 72): 0.03})
    spec = sweep_heatmap(low, "iou").to_dict()
    cells, text = spec["layer"]
    assert cells["encoding"]["color"]["scale"]["domain"] == [0, 0.2]
    assert text["encoding"]["text"]["format"] == ".0%"
    assert "Colours run from 0 to 20%" in " ".join(spec["title"]["subtitle"])
    assert spec["title"]["text"] == "token IoU", "Vega shows no subtitle under an empty title"
    pt = sweep_heatmap(low, "iou", "pt").to_dict()
    assert "de 0 a 20%" in " ".join(pt["title"]["subtitle"])
    assert cells["encoding"]["x"]["axis"]["labelAngle"] == 0
    assert cells["encoding"]["y"]["sort"] == ["fixed, overlap 0 %", "fixed, overlap 15 %"]
    high = sweep_heatmap(_iou_sweep({(320, 0): 0.9, (480, 0): 0.2}), "iou").to_dict()
    assert high["layer"][0]["encoding"]["color"]["scale"]["domain"] == [0, 1.0]
    assert not any("Colours run" in note for note in high["title"]["subtitle"])


def test_similarity_profile_draws_the_threshold() -> None:
    layers = _layers(similarity_profile([(10, 0.8), (30, 0.2), (50, 0.6)], 0.4))
    line = next(rows for layer, rows in layers if _mark(layer) == "line")
    assert [row["offset"] for row in line] == [10, 30, 50]
    rule = next(rows for layer, rows in layers if _mark(layer) == "rule")
    assert rule[0]["threshold"] == 0.4


def test_a_long_documents_similarity_profile_is_aggregated_and_keeps_every_dip() -> None:
    """Issue 19, low 12: ~1,000 points of a 99,000-character document in one 380 px chart
    were unreadable; the chart draws a bounded number of spans, each with its lowest
    similarity (a dip under the threshold is what starts a chunk, so none may vanish)."""
    import random

    rng = random.Random(7)
    raw = [(offset * 99, rng.uniform(0.3, 0.9)) for offset in range(1000)]
    dips = {345: 0.05, 346: 0.1, 800: 0.02}
    raw = [(o, dips.get(i, s)) for i, (o, s) in enumerate(raw)]
    layers = _layers(similarity_profile(raw, 0.2))
    line = next(rows for layer, rows in layers if _mark(layer) == "line")
    assert len(line) <= 120
    assert min(row["similarity"] for row in line) == 0.02
    low = [row for row in line if row["similarity"] < 0.2]
    assert [(row["start"] <= 345 * 99 <= row["end"]) or (row["start"] <= 800 * 99 <= row["end"])
            for row in low] == [True] * len(low) and len(low) == 2
    spans = next(rows for layer, rows in layers if _mark(layer) == "area")
    assert max(row["highest"] for row in spans) <= 0.9 and len(spans) == len(line)


def test_a_long_ranking_draws_the_best_forty_and_says_so() -> None:
    from ragviz.chunking.base import Chunk
    from ragviz.present.charts import MAX_BARS
    from ragviz.retrieval.decision import decide

    chunks = [Chunk(i, i * 10, i * 10 + 5, "x" * 5) for i in range(100)]
    decision = decide([i / 100 for i in range(100)], 2, 0.5)
    spec = score_bars(decision, chunks, 0.5).to_dict()
    bars = spec["datasets"]["scores"]
    assert len(bars) == MAX_BARS
    assert bars[0]["chunk"] == "#99"
    assert spec["title"] == "the 40 best of 100 chunks"


def test_a_long_documents_scores_and_floor_keep_one_format() -> None:
    """Issue 19, low 9: on a long document every score was written with six decimals (so
    that 1,000 scores all differ) and the floor as 0.190000; the scores a reader compares
    (the ranking's head and the floor) decide the digits, and the floor is written as it is
    everywhere else (0.19)."""
    import random

    from ragviz.chunking.base import Chunk
    from ragviz.retrieval.decision import decide

    rng = random.Random(3)
    scores = [round(rng.uniform(0.05, 0.45), 6) for _ in range(1000)]
    scores[10], scores[20] = 0.61, 0.52
    chunks = [Chunk(i, i * 99, i * 99 + 5, "x" * 5) for i in range(1000)]
    spec = score_bars(decide(scores, 2, 0.19), chunks, 0.19, lang="pt").to_dict()
    bars = spec["datasets"]["scores"]
    assert [row["shown"] for row in bars[:2]] == ["0,610", "0,520"]
    assert {len(row["shown"].split(",")[1]) for row in bars} == {3}
    floor = spec["datasets"][FLOOR_DATA]
    assert floor[0]["label"].endswith("0,19")


def test_portuguese_charts_write_numbers_with_a_decimal_comma() -> None:
    """Issue 19, low 9: axes said 0.19 where the text says 0,19 (the slider cannot: its
    help says so)."""
    from ragviz.chunking.base import Chunk
    from ragviz.i18n import t
    from ragviz.present.charts import score_bars_spec
    from ragviz.retrieval.decision import decide

    chunks = [Chunk(i, i * 10, i * 10 + 5, "x" * 5) for i in range(3)]
    bars = score_bars_spec(decide([0.5, 0.3, 0.1], 2, 0.2), chunks, 0.2, lang="pt")
    assert bars["config"]["locale"]["number"]["decimal"] == ","
    english = score_bars_spec(decide([0.5, 0.3, 0.1], 2, 0.2), chunks, 0.2, lang="en")
    assert "locale" not in english.get("config", {})
    from ragviz.present.charts import localised

    profile = localised(similarity_profile([(10, 0.8), (30, 0.2)], 0.4, "pt"), "pt").to_dict()
    assert profile["config"]["locale"]["number"]["decimal"] == ","
    # the slider itself writes 0,19 now (ragviz_app.number_marks): no excuse in its help
    assert "0.19" not in t("app.floor_help", "pt")


@settings(max_examples=200, deadline=None)
@given(scores=st.lists(st.one_of(st.floats(-1, 1), st.sampled_from([0.19, 0.2, 0.5, 0.0])),
                       min_size=1, max_size=60),
       top_k=st.integers(1, 8), floor=st.sampled_from([-0.5, 0.0, 0.19, 0.2, 0.5, 0.9]),
       lang=st.sampled_from(["en", "pt"]))
def test_the_charts_status_is_the_decisions(scores: list[float], top_k: int, floor: float,
                                            lang: str) -> None:
    """The chart carries no status: it computes each bar's from its rank, its exact score and
    the decision's top_k and floor (a step then changes one row, not every bar). Ties at the
    floor and between ranks included, that is what the decision's hits say."""
    from ragviz.chunking.base import Chunk
    from ragviz.present.charts import MAX_BARS, score_bars_spec, score_rows
    from ragviz.retrieval.decision import decide

    chunks = [Chunk(i, i * 10, i * 10 + 5, "x" * 5) for i in range(len(scores))]
    decision = decide(scores, top_k, floor)
    spec = score_bars_spec(decision, chunks, floor, lang=lang)
    truth = [row["status"] for row in score_rows(decision, chunks, lang, MAX_BARS)]
    assert chart_statuses(spec["datasets"]["scores"], spec["datasets"][FLOOR_DATA][0],
                          lang) == truth
    assert "status" not in spec["datasets"]["scores"][0]


def test_the_status_expression_names_the_fields_the_chart_carries() -> None:
    """The Vega expression reads the fields the datasets hold (a renamed field would colour
    every bar the same in the browser; the browser test checks the colours themselves)."""
    import re

    from ragviz.chunking.base import Chunk
    from ragviz.present.charts import score_bars_spec, status_expression
    from ragviz.retrieval.decision import decide

    spec = score_bars_spec(decide([0.5, 0.1], 1, 0.2), [Chunk(i, i, i + 1, "x") for i in range(2)],
                           0.2)
    fields = set(re.findall(r"datum\.(\w+)", status_expression("en")))
    bars = spec["layer"][0]
    looked_up = {f for step in bars["transform"] if "lookup" in step
                 for f in step["from"]["fields"]}
    assert fields <= set(spec["datasets"]["scores"][0]) | looked_up
    assert looked_up <= set(spec["datasets"][FLOOR_DATA][0])
