"""The sweep's one path (``ragviz.evaluation.sweeping``): the grid from typed sizes and
overlaps, a stop between configurations that keeps the rows finished, the time left, and the
heatmap's cells written with enough digits to tell configurations apart (issue 36 item 12)."""

from __future__ import annotations

from typing import Any

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError
from ragviz.evaluation.experiments import sweep
from ragviz.evaluation.measures import metric_names
from ragviz.evaluation.results import Metrics, RetrievalSettings, SweepResult, SweepRow
from ragviz.evaluation.sweeping import (
    SweepStep,
    check_size,
    parse_numbers,
    run_sweep,
    sweep_grid,
    time_left_text,
)
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.charts import cell_format, sweep_heatmap

SETTINGS = RetrievalSettings(top_k=2, floor=-1.0)


def test_typed_sizes_and_overlaps_make_the_grid() -> None:
    grid = sweep_grid(5000, ["fixed", "sentence"], (150, 300), (0, 10))
    assert [c.label() for c in grid if c.chunker == "fixed"] == [
        "fixed(size=150, overlap=0)", "fixed(size=150, overlap=15)",
        "fixed(size=300, overlap=0)", "fixed(size=300, overlap=30)"]
    sentence = [c for c in grid if c.chunker == "sentence"]
    assert {c.get("max_chars") for c in sentence} == {150, 300}
    assert {c.get("overlap_sentences") for c in sentence} == {0, 1, 2}  # its own steps
    assert sweep_grid(5000, ["fixed"]) == sweep_grid(5000, ["fixed"], (), ())


@pytest.mark.parametrize(("text", "key"), [("1 2 x", "sweep.not_whole"),
                                           ("1,2,3,4", "sweep.too_many"),
                                           ("-5", "sweep.not_whole")])
def test_typed_numbers_are_checked(text: str, key: str) -> None:
    with pytest.raises(InputError) as raised:
        parse_numbers(text, "sizes", 3)
    assert raised.value.key == key
    assert parse_numbers(" 200, 400 400;800 ", "sizes", 3) == (200, 400, 800)


def test_a_sweep_over_the_limit_is_one_sentence() -> None:
    grid = sweep_grid(50_000, None, tuple(range(100, 1300, 100)), (0, 10))
    with pytest.raises(InputError) as raised:
        check_size(grid, ("cosine", "bm25", "hybrid"))
    assert raised.value.localized("en") == (
        f"this sweep would run {3 * len(grid)} configurations, over the limit of 150: give fewer "
        "sizes, overlaps, chunkers or scorers")
    check_size(grid, ())  # the same grid alone fits


def test_a_stop_between_configurations_keeps_the_rows_finished(
        use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]) -> None:
    grid = [ChunkerConfig("fixed", size=s) for s in (100, 140, 180)]
    steps: list[SweepStep] = []
    result = run_sweep(seed_doc, seed_questions, use_model, grid, SETTINGS,
                       report=steps.append, stop=lambda: bool(steps) and steps[-1].rows_done >= 2)
    assert [row.config for row in result.rows] == grid[:2] and not result.complete
    whole = sweep(seed_doc, seed_questions, use_model, grid, SETTINGS)
    assert whole.complete and whole.rows[:2] == result.rows
    # one report per configuration done (and, between them, one per embedding batch)
    rows = [(s.rows_done, s.rows_total) for s in steps]
    assert list(dict.fromkeys(rows)) == [(0, 3), (1, 3), (2, 3)]
    assert steps[0].seconds_left() is None and steps[-1].seconds_left() is not None


def test_time_left_reads_as_people_wait() -> None:
    step = SweepStep(rows_done=1, rows_total=4, texts_done=10, texts_total=40, seconds=30.0)
    assert step.share == pytest.approx(11 / 44)
    assert step.seconds_left() == pytest.approx(90.0)
    assert (time_left_text(90.0), time_left_text(12.0), time_left_text(None)) == (
        "2 min", "15 s", None)


def _iou_rows(values: list[float]) -> SweepResult:
    rows = []
    for size, iou in zip((200, 400, 800, 1600), values, strict=False):
        figures: dict[str, float | None] = dict.fromkeys(metric_names())
        rows.append(SweepRow(ChunkerConfig("fixed", size=size, overlap=0),
                             Metrics(figures | {"iou": iou}, 1, 0, {})))
    return SweepResult(tuple(rows))


@pytest.mark.parametrize(("values", "percent", "expected"), [
    ([0.071, 0.074, 0.065], True, ".1%"),   # the 7 %, 7 %, 6 %
    ([0.0712, 0.0714, 0.05], True, ".2%"),
    ([0.5, 0.5, 0.25, 1.0], True, ".0%"),   # whole percents when they tell values apart
    ([0.831, 0.834], False, ".3f"),
    ([0.8, 0.9], False, ".2f"),
])
def test_cells_get_the_digits_that_tell_them_apart(values: list[float], percent: bool,
                                                   expected: str) -> None:
    assert cell_format(values, percent) == expected


def test_the_heatmap_tells_close_iou_cells_apart() -> None:
    spec: dict[str, Any] = sweep_heatmap(_iou_rows([0.071, 0.074, 0.065]), "iou").to_dict()
    cells, text = spec["layer"]
    assert text["encoding"]["text"]["format"] == ".1%"
    assert cells["encoding"]["tooltip"][1]["format"] == ".1%"
    shown = sorted(f"{v:.1%}" for v in (0.071, 0.074, 0.065))
    assert len(set(shown)) == 3


def test_a_peer_chunker_is_an_axis_like_ragvizs_own(
        use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion]) -> None:
    grid = sweep_grid(len(seed_doc), ["fixed", "langchain_recursive"], (150,), (0,))
    assert [c.label() for c in grid] == ["fixed(size=150, overlap=0)",
                                         "langchain_recursive(chunk_size=150, chunk_overlap=0)"]
    result = run_sweep(seed_doc, seed_questions, use_model, grid, SETTINGS)
    assert [row.config.chunker for row in result.rows] == ["fixed", "langchain_recursive"]
    assert all(row.chunks > 1 for row in result.rows)
