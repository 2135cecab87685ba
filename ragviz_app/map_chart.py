"""The Map tab's chart (Altair): chunks as points, questions as labelled diamonds, the lines
to each question's top_k and answer chunks in the score bars' colours; a click picks a chunk
or a question (Streamlit's chart selections)."""

from __future__ import annotations

from typing import Any

import altair as alt
import pandas as pd

from ragviz.i18n import t
from ragviz.present.map_svg import LINK_COLOURS, QUESTION_COLOUR, SIDE_COLOURS
from ragviz.present.presentation import label_name
from ragviz.projection.space import NOT_RETRIEVED, SpaceMap

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
    } for p in drawn.chunks], columns=["kind", "side", "index", "x", "y", "name", "config",
                                       "file", "chars", "head", "diagnosis"])


def question_frame(drawn: SpaceMap) -> pd.DataFrame:
    return pd.DataFrame([{"kind": "question", "side": "", "index": q.position, "x": q.x,
                          "y": q.y, "name": f"Q{q.position + 1}", "question": q.text}
                         for q in drawn.questions],
                        columns=["kind", "side", "index", "x", "y", "name", "question"])


def link_frame(drawn: SpaceMap, question: int | None) -> pd.DataFrame:
    """The lines of one question (None: of every question), the answer's first: drawn wide
    under the context line, so a chunk that is both shows a blue line in a green band."""
    links = sorted((k for k in drawn.links if question is None or k.question == question),
                   key=lambda k: k.kind != "answer")
    return pd.DataFrame([{"x": k.x1, "y": k.y1, "x2": k.x2, "y2": k.y2, "kind": k.kind,
                          "dash": 1 if k.kind == "answer" else 0,
                          "width": 7 if k.kind == "answer" else 3} for k in links],
                        columns=["x", "y", "x2", "y2", "kind", "dash", "width"])


def tagged(chunks: pd.DataFrame, drawn: SpaceMap, question: int | None) -> pd.DataFrame:
    """The chunks one question's lines end on, named (``A #1``) so the step's sentence can
    point at them; none when every question's lines are drawn (too many names)."""
    if question is None:
        return chunks.iloc[0:0]
    ends = {(k.side, k.chunk) for k in drawn.links if k.question == question}
    keep = [(side, index) in ends for side, index in zip(chunks["side"], chunks["index"],
                                                          strict=True)]
    return chunks[keep]


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
                 alt.Tooltip("head:N", title=t("map.text", lang))],
    ).add_params(pick_chunk)
    names = alt.Chart(tagged(chunks, drawn, question)).mark_text(
        align="left", dx=10, dy=12, fontSize=font, fontWeight="bold", color="#374151",
        stroke="#ffffff", strokeWidth=3, strokeOpacity=0.9, opacity=1).encode(
        x=x, y=y, text="name:N")
    names_fill = names.mark_text(align="left", dx=10, dy=12, fontSize=font, fontWeight="bold",
                                 color="#374151")
    layers = [names, names_fill, *_question_layers(questions, question, x, y, font, lang)]
    # independent colours: the lines' context/under-floor/answer scale is not the chunks' one
    chart: alt.LayerChart = alt.layer(lines, points, *layers).resolve_scale(
        color="independent").properties(height=HEIGHT, description=f"map:{drawn.method}")
    framed: alt.LayerChart = chart.configure_view(stroke="#e5e7eb")
    return framed


def _question_layers(questions: pd.DataFrame, shown: int | None, x: Any, y: Any, font: int,
                     lang: str) -> list[alt.Chart]:
    """Diamonds and ``Qn`` labels; while one question's lines are drawn the others fade."""
    questions = questions.assign(
        faded=[shown is not None and i != shown for i in questions["index"].tolist()])
    opacity = alt.Opacity("faded:N", scale=alt.Scale(domain=[False, True], range=[1.0, 0.3]),
                          legend=None)
    pick_question = alt.selection_point(name=PICK_QUESTION, fields=["kind", "index"],
                                        on="click", clear="dblclick")
    base = alt.Chart(questions).encode(x=x, y=y)
    marks = base.mark_point(shape="diamond", filled=True, size=420, color=QUESTION_COLOUR,
                            stroke="#ffffff", strokeWidth=1.5).encode(
        opacity=opacity, tooltip=[alt.Tooltip("name:N", title=t("map.question", lang)),
                 alt.Tooltip("question:N", title=t("map.text", lang))],
    ).add_params(pick_question)
    labels = base.mark_text(align="left", dx=13, dy=-2, fontSize=font, fontWeight="bold",
                            color=QUESTION_COLOUR, stroke="#ffffff", strokeWidth=4,
                            strokeOpacity=0.9).encode(text="name:N", opacity=opacity)
    labels_fill = base.mark_text(align="left", dx=13, dy=-2, fontSize=font, fontWeight="bold",
                                 color=QUESTION_COLOUR).encode(text="name:N", opacity=opacity)
    return [marks, labels, labels_fill]
