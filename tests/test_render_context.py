"""On-screen truths of the highlighted document and the calibration strip: what a chunk is
embedded with is shown, and the floor in use is labelled inside the axis."""

from __future__ import annotations

from typing import Any

from ragviz.chunking import ChunkerConfig, make_chunks
from ragviz.chunking.base import Chunk
from ragviz.chunking.sweep_grid import default_grid
from ragviz.embedding.models import Embedder
from ragviz.evaluation.calibration import calibrate_outcomes
from ragviz.evaluation.experiments import sweep
from ragviz.evaluation.pipeline import analyse
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.charts import calibration_strip, score_bars, sweep_frame, sweep_heatmap
from ragviz.present.palette import ANSWERABLE
from ragviz.present.render import highlight_document, legend
from ragviz.share.workspace import DEFAULT_CONFIG_B
from tests.test_chunkers import TABLE_DOC, TABLE_HEADER


def test_a_table_row_group_shows_the_header_it_is_embedded_with() -> None:
    chunks = make_chunks(TABLE_DOC, ChunkerConfig("markdown", max_chars=50)).chunks
    carried = [c for c in chunks if c.context_prefix == TABLE_HEADER]
    assert carried
    html = highlight_document(TABLE_DOC, chunks)
    marks = html.count('<span class="rv-ctx"')
    assert marks == len(carried)
    assert f"<b>context</b>{TABLE_HEADER}</span>" in html
    assert "context embedded with a chunk" in legend("en")
    assert "contexto" in highlight_document(TABLE_DOC, chunks, lang="pt")


def test_the_context_mark_escapes_what_it_shows() -> None:
    document = "row one"
    chunk = Chunk(0, 0, len(document), document, context_prefix="<script>x</script> ")
    html = highlight_document(document, [chunk])
    assert "<script>" not in html and "&lt;script&gt;x&lt;/script&gt;" in html


def _text_layers(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return [layer for layer in spec["layer"] if layer["mark"]["type"] == "text"]


def test_the_current_floor_is_labelled_and_inside_the_axis(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion],
) -> None:
    analysis = analyse(seed_doc, DEFAULT_CONFIG_B, use_model, seed_questions)
    calibration = calibrate_outcomes(analysis.outcomes)
    assert calibration is not None
    current = 0.95  # above every best score and the suggested floor
    spec = calibration_strip(calibration, analysis.outcomes, current).to_dict()
    low, high = spec["layer"][0]["encoding"]["x"]["scale"]["domain"]
    assert low <= current <= high
    labels = [d["label"] for layer in _text_layers(spec)
              for d in spec["datasets"][layer["data"]["name"]]]
    assert "floor 0.95" in labels


def test_the_sweep_heatmap_explains_blank_cells_and_ties(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion],
) -> None:
    grid = default_grid(len(seed_doc))
    result = sweep(seed_doc, seed_questions, use_model, grid)
    frame = sweep_frame(result, "hit_at_1")
    cells = frame["row"].nunique() * frame["size"].nunique()
    best = result.best("hit_at_1").metrics.hit_at_1
    tied = sum(r.metrics.hit_at_1 == best for r in result.rows)
    subtitle = sweep_heatmap(result, "hit_at_1").to_dict()["title"]["subtitle"]
    text = " ".join(subtitle)
    if cells > len(frame):
        assert f"{cells - len(frame)} blank cells" in text
    assert tied > 1, "the seed sweep has ties (the fact this test is about)"
    assert f"{tied} configurations tie for best" in text and "MRR" in text


def test_the_score_bars_outline_the_chunk_that_holds_the_expected_answer(
    use_model: Embedder, seed_doc: str, seed_questions: list[LabelledQuestion],
) -> None:
    analysis = analyse(seed_doc, DEFAULT_CONFIG_B, use_model, seed_questions)
    outcome = analysis.outcomes[0]
    assert outcome.diagnosis is not None and outcome.diagnosis.holding_chunks
    holding = outcome.diagnosis.holding_chunks
    spec = score_bars(outcome.decision, analysis.chunks, analysis.floor,
                      answer_chunks=holding).to_dict()
    outlined = [layer for layer in spec["layer"]
                if layer["mark"].get("stroke") == ANSWERABLE]
    assert len(outlined) == 1
    rows = spec["datasets"][outlined[0]["data"]["name"]]
    assert outlined[0]["transform"] == [{"filter": "datum.answer"}]
    assert sorted(row["index"] for row in rows if row["answer"]) == sorted(holding)
    assert "holds the expected answer" in spec["title"]
    plain = score_bars(outcome.decision, analysis.chunks, analysis.floor).to_dict()
    assert not [layer for layer in plain["layer"] if layer["mark"].get("stroke") == ANSWERABLE]
