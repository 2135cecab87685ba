"""The Map tab's chart (Altair): chunks as points, questions as labelled diamonds, the lines
to each question's top_k and answer chunks in the score bars' colours; a click picks a chunk
or a question (Streamlit's chart selections)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd

from ragviz.i18n import t
from ragviz.present.label_words import hover_text
from ragviz.present.map_svg import LINK_COLOURS, QUESTION_COLOUR, SIDE_COLOURS
from ragviz.present.presentation import label_name
from ragviz.projection.space import NOT_RETRIEVED, Link, SpaceMap

PICK_CHUNK, PICK_QUESTION = "pick_chunk", "pick_question"
COLOURINGS = ("config", "file", "diagnosis")
HEIGHT = 540
FONT = 15  # read from the back of a workshop room
LARGE_FONT = 20


def chunk_frame(drawn: SpaceMap, lang: str) -> pd.DataFrame:
    """One row per chunk point, with the fields the tooltip and the colourings read."""
    pasted = t("map.pasted", lang)
    return pd.DataFrame([{
        "kind": "chunk", "side": p.side, "index": p.index, "x": p.x, "y": p.y,
        "name": f"{p.side.upper()} #{p.index}", "config": p.side.upper(),
        "file": p.source or pasted, "chars": p.chars, "head": p.head,
        "diagnosis": label_name(p.label, lang) if p.label != NOT_RETRIEVED
        else t("map.not_retrieved", lang),
        "meaning": hover_text(p.label, lang) if p.label != NOT_RETRIEVED else "–",
    } for p in drawn.chunks], columns=["kind", "side", "index", "x", "y", "name", "config",
                                       "file", "chars", "head", "diagnosis", "meaning"])


def question_frame(drawn: SpaceMap) -> pd.DataFrame:
    return pd.DataFrame([{"kind": "question", "side": "", "index": q.position, "x": q.x,
                          "y": q.y, "name": f"Q{q.position + 1}", "question": q.text}
                         for q in drawn.questions],
                        columns=["kind", "side", "index", "x", "y", "name", "question"])


LINES_OF_EVERY = 10  # "every question" draws the lines of this many (more cross everything)


def link_frame(drawn: SpaceMap, question: int | None) -> pd.DataFrame:
    """The lines of one question (None: of the first ``LINES_OF_EVERY`` questions), the
    answer's first: drawn wide under the context line, so a chunk that is both shows a
    blue line in a green band."""
    links = sorted((k for k in drawn.links if k.question == question or (
        question is None and k.question < LINES_OF_EVERY)), key=lambda k: k.kind != "answer")
    return pd.DataFrame([{"x": k.x1, "y": k.y1, "x2": k.x2, "y2": k.y2, "kind": k.kind,
                          "dash": 1 if k.kind == "answer" else 0,
                          "width": 7 if k.kind == "answer" else 3} for k in links],
                        columns=["x", "y", "x2", "y2", "kind", "dash", "width"])


# Where labels go: Vega-Lite does not move a text mark off another, so the map places its
# labels here, on the pixels it will most likely get (its plot is HEIGHT tall and about
# PLOT_WIDTH wide with the sidebar open at 1280x800; wider screens only spread them more).
PLOT_WIDTH = 820
PADDING = 24  # the scales' padding, in pixels
CHAR_WIDTH = 0.62  # a bold character's width, in font sizes
LINE_HEIGHT = 0.85  # from the top of a capital to the foot of a comma, in font sizes
# Beside its point (dx, dy, align), nearest first: right, left, above, below, then a line
# further up or down on either side.
SPOTS = ((10, -4, "left"), (10, 14, "left"), (-10, -4, "right"), (-10, 14, "right"),
         (0, -18, "center"), (0, 22, "center"), (10, -22, "left"), (10, 32, "left"),
         (-10, -22, "right"), (-10, 32, "right"))
Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Label:
    """One text the map writes beside a point: a question's ``Q1`` or the end of one of its
    lines, ``1. A #89`` (its rank for that question, then its name)."""

    x: float
    y: float
    text: str
    tone: str  # "question" or "chunk"
    faded: bool = False


def wanted_labels(drawn: SpaceMap, question: int | None) -> list[Label]:
    """Every label, the most needed first: the shown question's name, its lines' ends by
    rank, then the other questions' names (every question's lines: no chunk names)."""
    names = [Label(q.x, q.y, f"Q{q.position + 1}", "question",
                   question is not None and q.position != question)
             for q in drawn.questions]
    if question is None:
        return names
    ends: dict[tuple[str, int], Link] = {}
    for link in drawn.links:
        if link.question == question and (link.side, link.chunk) not in ends:
            ends[(link.side, link.chunk)] = link
    tagged = [Label(k.x2, k.y2, f"{k.rank}. {k.side.upper()} #{k.chunk}" if k.rank
                    else f"{k.side.upper()} #{k.chunk}", "chunk")
              for k in sorted(ends.values(), key=lambda k: (k.rank or 10**9, k.side))]
    shown = [label for label in names if not label.faded]
    return shown + tagged + [label for label in names if label.faded]


def place_labels(labels: Sequence[Label], xs: Sequence[float], ys: Sequence[float],
                 font: int) -> list[int | None]:
    """Each label's spot (an index into ``SPOTS``), the first beside its point inside the
    plot that overlaps no label placed before it; None: no free spot, the label is left
    out (its point keeps its tooltip)."""
    if not labels:
        return []
    x_low, x_span = min(xs), (max(xs) - min(xs)) or 1.0
    y_low, y_span = min(ys), (max(ys) - min(ys)) or 1.0
    placed: list[Box] = []
    spots: list[int | None] = []
    for label in labels:
        px = PADDING + (label.x - x_low) / x_span * (PLOT_WIDTH - 2 * PADDING)
        py = PADDING + (1 - (label.y - y_low) / y_span) * (HEIGHT - 2 * PADDING)
        spot = next((i for i, box in enumerate(_boxes(px, py, label.text, font))
                     if _inside(box) and not any(_overlap(box, other) for other in placed)),
                    None)
        if spot is not None:
            placed.append(_boxes(px, py, label.text, font)[spot])
        spots.append(spot)
    return spots


def _boxes(px: float, py: float, text: str, font: int) -> list[Box]:
    """The label's box at each spot (left, top, right, bottom), its text middle-aligned."""
    width = len(text) * font * CHAR_WIDTH
    out = []
    for dx, dy, align in SPOTS:
        left = px + dx - {"left": 0.0, "center": width / 2, "right": width}[align]
        half = font * LINE_HEIGHT / 2
        out.append((left, py + dy - half, left + width, py + dy + half))
    return out


def _inside(box: Box) -> bool:
    return box[0] >= 0 and box[1] >= 0 and box[2] <= PLOT_WIDTH and box[3] <= HEIGHT


def _overlap(one: Box, other: Box) -> bool:
    return one[0] < other[2] and other[0] < one[2] and one[1] < other[3] and other[1] < one[3]


def label_frame(drawn: SpaceMap, question: int | None, font: int) -> pd.DataFrame:
    """The labels kept, each with its spot."""
    labels = wanted_labels(drawn, question)
    xs = [p.x for p in drawn.chunks] + [q.x for q in drawn.questions]
    ys = [p.y for p in drawn.chunks] + [q.y for q in drawn.questions]
    spots = place_labels(labels, xs, ys, font)
    return pd.DataFrame([{"x": label.x, "y": label.y, "label": label.text, "tone": label.tone,
                          "opacity": 0.3 if label.faded else 1.0, "spot": spot}
                         for label, spot in zip(labels, spots, strict=True) if spot is not None],
                        columns=["x", "y", "label", "tone", "opacity", "spot"])


def _colour(colouring: str, frame: pd.DataFrame, lang: str) -> alt.Color:
    title = t(f"map.colour_{colouring}", lang)
    legend = alt.Legend(orient="bottom", title=title, labelFontSize=FONT, titleFontSize=FONT,
                        labelLimit=280, columns=4, symbolSize=200)
    if colouring == "config":
        return alt.Color("config:N", title=title, legend=legend,
                         scale=alt.Scale(domain=["A", "B"],
                                         range=[SIDE_COLOURS["a"], SIDE_COLOURS["b"]]))
    return alt.Color(f"{colouring}:N", title=title, legend=legend,
                     sort=sorted(set(frame[colouring].tolist())),
                     scale=alt.Scale(scheme="tableau10"))


def map_chart(drawn: SpaceMap, colouring: str, question: int | None, lang: str = "en",
              large: bool = False) -> alt.LayerChart:
    """Lines under the points, chunks, then the questions and their labels on top."""
    chunks, questions = chunk_frame(drawn, lang), question_frame(drawn)
    links = link_frame(drawn, question)
    font = LARGE_FONT if large else FONT
    x = alt.X("x:Q", axis=None, scale=alt.Scale(zero=False, nice=False, padding=24))
    y = alt.Y("y:Q", axis=None, scale=alt.Scale(zero=False, nice=False, padding=24))
    kinds = list(LINK_COLOURS)
    lines = alt.Chart(links).mark_rule(opacity=0.85).encode(
        x=x, y=y, x2="x2:Q", y2="y2:Q", strokeWidth=alt.StrokeWidth("width:Q", scale=None),
        color=alt.Color("kind:N", scale=alt.Scale(domain=kinds,
                                                  range=[LINK_COLOURS[k] for k in kinds]),
                        legend=None),
        strokeDash=alt.StrokeDash("dash:N", scale=alt.Scale(domain=[0, 1],
                                                            range=[[1, 0], [7, 4]]),
                                  legend=None))
    pick_chunk = alt.selection_point(name=PICK_CHUNK, fields=["kind", "side", "index"],
                                     on="click", clear="dblclick")
    points = alt.Chart(chunks).mark_point(filled=True, opacity=0.72, stroke="#ffffff",
                                          strokeWidth=0.8).encode(
        x=x, y=y, color=_colour(colouring, chunks, lang),
        shape=alt.Shape("side:N", scale=alt.Scale(domain=["a", "b"],
                                                  range=["circle", "square"]), legend=None),
        size=alt.Size("chars:Q", scale=alt.Scale(type="sqrt", zero=True,
                                                 range=[0, 700] if large else [0, 520]),
                      legend=None),
        tooltip=[alt.Tooltip("name:N", title=t("map.chunk", lang)),
                 alt.Tooltip("file:N", title=t("map.file", lang)),
                 alt.Tooltip("chars:Q", title=t("map.chars", lang)),
                 alt.Tooltip("head:N", title=t("map.text", lang)),
                 # coloured by diagnosis: the point's label and what it means on hover
                 *([alt.Tooltip("diagnosis:N", title=t("map.colour_diagnosis", lang)),
                    alt.Tooltip("meaning:N", title=t("labels.col_definition", lang))]
                   if colouring == "diagnosis" else [])],
    ).add_params(pick_chunk)
    layers = [*_question_layers(questions, question, x, y, lang),
              *_label_layers(label_frame(drawn, question, font), x, y, font)]
    # independent colours: the lines' context/under-floor/answer scale is not the chunks' one
    chart: alt.LayerChart = alt.layer(lines, points, *layers).resolve_scale(
        color="independent").properties(height=HEIGHT, description=f"map:{drawn.method}")
    framed: alt.LayerChart = chart.configure_view(stroke="#e5e7eb")
    return framed


def _question_layers(questions: pd.DataFrame, shown: int | None, x: Any, y: Any,
                     lang: str) -> list[alt.Chart]:
    """The questions' diamonds; while one question's lines are drawn the others fade."""
    questions = questions.assign(
        faded=[shown is not None and i != shown for i in questions["index"].tolist()])
    opacity = alt.Opacity("faded:N", scale=alt.Scale(domain=[False, True], range=[1.0, 0.3]),
                          legend=None)
    pick_question = alt.selection_point(name=PICK_QUESTION, fields=["kind", "index"],
                                        on="click", clear="dblclick")
    marks = alt.Chart(questions).encode(x=x, y=y).mark_point(
        shape="diamond", filled=True, size=420, color=QUESTION_COLOUR, stroke="#ffffff",
        strokeWidth=1.5).encode(
        opacity=opacity, tooltip=[alt.Tooltip("name:N", title=t("map.question", lang)),
                                  alt.Tooltip("question:N", title=t("map.text", lang))],
    ).add_params(pick_question)
    return [marks]


def _label_layers(labels: pd.DataFrame, x: Any, y: Any, font: int) -> list[alt.Chart]:
    """The placed labels, one white-edged layer and one filled layer per spot (a spot's
    offset and alignment are the mark's, not an encoding's)."""
    tone = alt.Color("tone:N", legend=None, scale=alt.Scale(
        domain=["question", "chunk"], range=[QUESTION_COLOUR, "#374151"]))
    layers = []
    for spot, (dx, dy, align) in enumerate(SPOTS):
        base = alt.Chart(labels[labels["spot"] == spot]).encode(
            x=x, y=y, text="label:N", color=tone, opacity=alt.Opacity("opacity:Q", scale=None))
        style: dict[str, Any] = {"align": align, "dx": dx, "dy": dy, "baseline": "middle",
                                 "fontSize": font, "fontWeight": "bold"}
        layers += [base.mark_text(stroke="#ffffff", strokeWidth=4, strokeOpacity=0.9, **style),
                   base.mark_text(**style)]
    return layers
