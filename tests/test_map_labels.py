"""The map's labels do not overlap (issue 36, item 13): Vega-Lite writes a text mark where it
is told, so the map places its labels itself. Read back from the chart spec sent to the
browser: each label's point, the offset and alignment of the layer it is in."""

from __future__ import annotations

from typing import Any

from ragviz.projection.space import ANSWER, CONTEXT, ChunkPoint, Link, QuestionPoint, SpaceMap
from ragviz_app.map_chart import FONT, HEIGHT, LINES_OF_EVERY, PLOT_WIDTH, map_chart

PAD = 24  # the scales' padding in the chart spec (checked below)


def crowded_map() -> SpaceMap:
    """Thirty questions piled on one spot among chunks spread over the plane; Q1's lines
    go to chunks #0 (rank 1) and #1 (rank 2, holding its answer)."""
    chunks = tuple(ChunkPoint("a", i, "", 100, float(i % 6), float(i // 6), f"chunk {i}", "")
                   for i in range(36))
    questions = tuple(QuestionPoint(i, f"question {i}", 2.5 + i * 0.001, 2.5)
                      for i in range(30))
    far = QuestionPoint(30, "far away", 5.0, 0.0)
    links = (Link("a", 0, 0, CONTEXT, 2.5, 2.5, 0.0, 0.0, 1),
             Link("a", 0, 1, ANSWER, 2.5, 2.5, 1.0, 0.0, 2))
    return SpaceMap("pca", chunks, (*questions, far), links, 36)


def label_boxes(spec: dict[str, Any]) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every text the chart writes, with its box in pixels on a PLOT_WIDTH x HEIGHT plot."""
    rows = [r for data in spec["datasets"].values() for r in data if "head" in r or "question"
            in r]
    xs, ys = [r["x"] for r in rows], [r["y"] for r in rows]
    out = []
    for layer in spec["layer"]:
        mark = layer["mark"]
        if mark.get("type") != "text" or "stroke" in mark:  # the white edge repeats the text
            continue
        assert layer["encoding"]["x"]["scale"]["padding"] == PAD
        for row in spec["datasets"][layer["data"]["name"]]:
            px = PAD + (row["x"] - min(xs)) / (max(xs) - min(xs)) * (PLOT_WIDTH - 2 * PAD)
            py = PAD + (max(ys) - row["y"]) / (max(ys) - min(ys)) * (HEIGHT - 2 * PAD)
            width = len(row["label"]) * FONT * 0.6
            left = px + mark["dx"] - {"left": 0, "center": width / 2, "right": width}[
                mark["align"]]
            top = py + mark["dy"] - FONT * 0.4
            out.append((row["label"], (left, top, left + width, top + FONT * 0.8)))
    return out


def overlap(one: tuple[float, ...], other: tuple[float, ...]) -> bool:
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


def test_labels_that_would_overlap_are_left_out_and_the_rest_do_not_overlap() -> None:
    spec = map_chart(crowded_map(), "config", 0).to_dict()
    boxes = label_boxes(spec)
    texts = [text for text, _box in boxes]
    assert {"Q1", "1. A #0", "2. A #1", "Q31"} <= set(texts)  # the shown question, its
    assert len(texts) < 31 + 2  # line ends by rank, a lone question; not the whole pile
    for i, (text, box) in enumerate(boxes):
        for other, other_box in boxes[i + 1:]:
            assert not overlap(box, other_box), (text, other)


def test_every_question_name_is_written_when_they_lie_apart() -> None:
    drawn = crowded_map()
    apart = SpaceMap("pca", drawn.chunks,
                     tuple(QuestionPoint(i, "q", float(i % 6), float(i // 6) + 0.5)
                           for i in range(12)), (), 36)
    texts = [text for text, _box in label_boxes(map_chart(apart, "config", None).to_dict())]
    assert sorted(texts) == sorted(f"Q{i}" for i in range(1, 13))


def test_every_questions_lines_are_those_of_the_first_ten() -> None:
    """On an index's benchmark every question's top_k lines crossed the whole map."""
    drawn = crowded_map()
    many = SpaceMap("pca", drawn.chunks, drawn.questions, tuple(
        Link("a", q.position, q.position % 36, CONTEXT, q.x, q.y, 0.0, 0.0, 1)
        for q in drawn.questions), 36)
    spec = map_chart(many, "config", None).to_dict()
    lines = next(layer for layer in spec["layer"] if layer["mark"]["type"] == "rule")
    rows = spec["datasets"][lines["data"]["name"]]
    assert len(rows) == LINES_OF_EVERY == 10
    shown = map_chart(many, "config", 25).to_dict()  # one question: its own lines, always
    lines = next(layer for layer in shown["layer"] if layer["mark"]["type"] == "rule")
    assert len(shown["datasets"][lines["data"]["name"]]) == 1
