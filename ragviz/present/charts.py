"""Altair charts for the explorer; pure functions of ragviz results (no Streamlit).

Every chart keeps its data inline, so ``chart.to_dict()`` is what a test checks and what
the browser draws.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import altair as alt
import pandas as pd

from ragviz.chunking.base import Chunk
from ragviz.evaluation.measures import get_metric
from ragviz.i18n import SOURCE_LANGUAGE, STRINGS, number_symbols, t
from ragviz.inputs.corpus import short_name
from ragviz.present.palette import ANSWERABLE, FLOOR, HIT, OTHER, UNANSWERABLE, UNDER_FLOOR
from ragviz.present.param_words import overlap_text
from ragviz.present.presentation import (
    config_text,
    decimal,
    format_score,
    metric_label,
    numbers,
    score_digits,
)
from ragviz.retrieval.decision import Decision
from ragviz.retrieval.scorers import CosineScorer, ScoreScale

if TYPE_CHECKING:
    from ragviz.evaluation.calibration import Calibration
    from ragviz.evaluation.results import Analysis, QuestionOutcome, SweepResult

STRIP_HEIGHT = 160  # the calibration strip's plot height (its current-floor label sits at it)

_PREVIEW = 90
COSINE = CosineScorer.scale


def _preview(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _PREVIEW else flat[: _PREVIEW - 1] + "…"


FILE_LABEL_CHARS = 16  # a file name in a bar label: longer ones are cut in the middle


def chunk_labels(analysis: Analysis) -> dict[int, str] | None:
    """Score-bar labels that name each chunk's file (``#3 faq.md``) when there are several
    files; None keeps the plain ``#i``. The number comes first and the file is abbreviated,
    so a cut label never hides the chunk the explanation names."""
    if not analysis.corpus.multi_file:
        return None
    return {c.index: f"#{c.index} {short_name(c.source, FILE_LABEL_CHARS)}"
            for c in analysis.chunks}


MAX_BARS = 40  # past this a bar chart is unreadable: the best 40 are drawn, the rest counted


SCORE_COLUMNS = ("chunk", "index", "score", "shown", "rank", "status", "text")


def score_rows(
    decision: Decision, chunks: Sequence[Chunk], lang: str = "en", limit: int | None = None,
    labels: Mapping[int, str] | None = None, for_chart: bool = False,
) -> list[dict[str, Any]]:
    """One row per chunk in ranking order (the first ``limit`` ranks when given): label
    (``#i``, or ``labels[i]``, e.g. the file the chunk comes from), score, the score as
    written (``shown``: three decimals, more when two scores or the floor would otherwise
    look equal), rank and what retrieval did. Plain dicts: the score charts are rebuilt on
    every floor or top_k move, and a DataFrame per chart cost more than the rest of it.
    ``for_chart``: no status (the chart computes it, ``status_expression``) and exact scores
    (to compare with the floor as the decision did)."""
    hits = {h.index for h in decision.hits}
    digits = score_digits(decision.scores, decision.floor, decision.top_k)
    top = set(decision.ranking[: decision.top_k].tolist())
    by_index = {c.index: c for c in chunks}
    context, under, other = (t(f"chart.status_{x}", lang)
                             for x in ("context", "under_floor", "other"))
    rows: list[dict[str, Any]] = []
    for rank, index in enumerate(decision.ranking[:limit].tolist(), start=1):
        chunk = by_index.get(index)
        score = decision.score(index)
        row = {
            "chunk": labels.get(index, f"#{index}") if labels else f"#{index}",
            "index": index,
            "score": score if for_chart else round(score, 6),
            "shown": decimal(score, digits, lang),
            "rank": rank,
            "text": _preview(chunk.text) if chunk is not None else "",
        }
        if not for_chart:
            row["status"] = context if index in hits else under if index in top else other
        rows.append(row)
    return rows



# Dataset names of the score chart: fixed, so the spec (without its data) stays the same when
# only the floor or top_k move, and the browser swaps the data in its existing chart instead of
# building a new one (Streamlit sends named datasets apart from the spec).
SCORES_DATA = "scores"
# One row: the decision's top_k and floor (``decided``) and the floor drawn. Each bar's status
# is computed in the chart from it (``status_expression``), so a floor or top_k move changes
# this row and, unless a score's digits change, not the bars' data: the browser then updates
# the bars' colours in place instead of rebuilding every bar of fourteen charts (a top_k step
# on a 99,000-character paste: 0.50 -> 0.41 s, docs/benchmarks.md "Stop 19").
FLOOR_DATA = "floor"
STATUS_KEYS = ("context", "under_floor", "other")


def status_expression(lang: str) -> str:
    """The Vega expression of a bar's status: what ``score_rows`` says from the decision's
    hits (the first top_k ranks that reach the floor; ties are already ranked)."""
    context, under, other = (json.dumps(t(f"chart.status_{key}", lang)) for key in STATUS_KEYS)
    return (f"datum.rank <= datum.top_k ? (datum.score >= datum.decided ? {context} : {under})"
            f" : {other}")



@dataclass(frozen=True)
class BarsShape:
    """Everything the score chart's spec depends on apart from its data: the bar order, the
    x domain, the title, the language, the size and whether a floor is drawn."""

    order: tuple[str, ...]
    domain: tuple[float, float]
    title: str
    description: str
    lang: str
    large: bool
    with_floor: bool
    with_answer: bool = False
    keyed: bool = True  # False: no legend, the page shows one key for all charts
    axis_label: str = COSINE.label  # the scorer's axis label (a catalog key)
    first_stage: bool = False  # a reranked ranking: the tooltip says the first-stage rank


def score_bars(
    decision: Decision,
    chunks: Sequence[Chunk],
    floor: float | None,
    title: str = "",
    lang: str = "en",
    description: str = "",
    large: bool = False,
    answer_chunks: Sequence[int] = (),
    keyed: bool = True,
    labels: Mapping[int, str] | None = None,
    scale: ScoreScale = COSINE,
) -> alt.LayerChart:
    """Horizontal bars of one question's score against every chunk, best first; the top_k
    bars (``decision.top_k``) coloured by whether they pass the floor, and the floor drawn
    as a labelled rule (no rule when ``floor`` is None: retrieval without a floor).
    ``large`` is for a projector; ``answer_chunks`` (those holding the expected answer) are
    outlined in green; ``keyed=False`` leaves out the legend and the outline's title, for a
    page that shows :func:`ragviz.present.render.bars_key` once above many charts; ``labels`` names
    chunks other than ``#i`` (by file)."""
    shape, datasets = _bars_parts(decision, chunks, floor, title, lang, description, large,
                                  answer_chunks, keyed, labels, scale)
    chart = _bars_layers(shape)
    chart.datasets = datasets
    return chart


def score_bars_spec(
    decision: Decision,
    chunks: Sequence[Chunk],
    floor: float | None,
    title: str = "",
    lang: str = "en",
    description: str = "",
    large: bool = False,
    answer_chunks: Sequence[int] = (),
    keyed: bool = True,
    labels: Mapping[int, str] | None = None,
    scale: ScoreScale = COSINE,
    first_ranks: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """``score_bars`` as a Vega-Lite dict, its data-free part built by Altair once per shape
    (Altair takes tens of ms per chart; a floor or top_k move only changes the data);
    ``first_ranks``: each chunk's rank before a reranker, said in the tooltip."""
    shape, datasets = _bars_parts(decision, chunks, floor, title, lang, description, large,
                                  answer_chunks, keyed, labels, scale, first_ranks)
    spec: dict[str, Any] = json.loads(_bars_skeleton(shape))
    spec["datasets"] = datasets
    return spec


def _bars_parts(
    decision: Decision, chunks: Sequence[Chunk], floor: float | None, title: str, lang: str,
    description: str, large: bool, answer_chunks: Sequence[int] = (), keyed: bool = True,
    labels: Mapping[int, str] | None = None, scale: ScoreScale = COSINE,
    first_ranks: Mapping[int, int] | None = None,
) -> tuple[BarsShape, dict[str, list[dict[str, Any]]]]:
    """The chart's shape and its two datasets (bars, floor rule)."""
    rows = score_rows(decision, chunks, lang, MAX_BARS, labels, for_chart=True)
    holding = set(answer_chunks)
    for row in rows:
        row["answer"] = row["index"] in holding
        if first_ranks is not None:
            row["first"] = f"#{first_ranks.get(row['index'], '–')}"
    with_answer = any(row["answer"] for row in rows)
    if with_answer and keyed:
        title = " · ".join(x for x in (title, t("chart.answer_outline", lang)) if x)
    hidden = len(decision.ranking) - len(rows)
    if hidden > 0 and not title:
        title = t("chart.more_chunks", lang, shown=len(rows), total=len(decision.ranking))
    start = scale.baseline  # the scorer's scale gives the domain: 0..1 for cosine
    lowest = min([start, *([] if floor is None else [float(floor)]),
                  *(row["score"] for row in rows)])
    highest = max((row["score"] for row in rows), default=None)
    domain = (round(lowest - 0.02, 2) if lowest < start else start, scale.top(highest))
    shape = BarsShape(tuple(row["chunk"] for row in rows), domain, title, description or title,
                      lang, large, floor is not None, with_answer, keyed, scale.label,
                      first_ranks is not None)
    floor_text = "" if floor is None else format_score(floor, lang)  # as the slider writes it
    retrieval = {"one": "1", "top_k": decision.top_k, "decided": float(decision.floor),
                 "floor": float(decision.floor if floor is None else floor),
                 "label": "" if floor is None else t("chart.floor", lang, floor=floor_text)}
    return shape, {SCORES_DATA: rows, FLOOR_DATA: [retrieval]}


@lru_cache(maxsize=256)
def _bars_skeleton(shape: BarsShape) -> str:
    """The spec without its datasets, as JSON (a fresh copy per use). Altair's default theme
    only adds a 300-pixel default view, which Streamlit's drawing drops too: dropped here."""
    spec = _bars_layers(shape).to_dict()
    view = spec.get("config", {}).get("view", {})
    for key in ("continuousWidth", "continuousHeight"):
        view.pop(key, None)
    if "view" in spec.get("config", {}) and not view:
        del spec["config"]["view"]
    if "config" in spec and not spec["config"]:
        del spec["config"]
    spec.pop("datasets", None)
    if number_locale(shape.lang) != number_locale(SOURCE_LANGUAGE):
        spec.setdefault("config", {})["locale"] = {"number": number_locale(shape.lang)}
    return json.dumps(spec)


def _bars_layers(shape: BarsShape) -> alt.LayerChart:
    """The score chart's layers reading the named datasets."""
    n = max(1, len(shape.order))
    step = max(6, min(40 if shape.large else 20, 520 // n))
    font = 17 if shape.large else 12
    lang = shape.lang
    statuses = [
        t("chart.status_context", lang),
        t("chart.status_under_floor", lang),
        t("chart.status_other", lang),
    ]
    # every bar labelled (no overlap culling), the font fitted to the bar's step; the order
    # given as the scale's domain, not computed from the data: a computed domain is rebuilt
    # whenever the bars' floor lookup reruns (every floor or top_k step), and every mark on
    # the band scale is then drawn again (each chart's 40 score labels included)
    y = alt.Y("chunk:N", sort=list(shape.order), title=None,
              scale=alt.Scale(domain=list(shape.order)),
              axis=alt.Axis(labelOverlap=False, labelFontSize=min(font, step - 1),
                            labelLimit=220))
    base = alt.Chart(alt.NamedData(name=SCORES_DATA))
    bars = base.mark_bar().transform_calculate(one="'1'").transform_lookup(
        lookup="one", from_=alt.LookupData(data=alt.NamedData(name=FLOOR_DATA), key="one",
                                           fields=["top_k", "decided"]),
    ).transform_calculate(status=status_expression(lang)).encode(
        x=alt.X("score:Q", scale=alt.Scale(domain=list(shape.domain)),
                title=_label(shape.axis_label, lang) if shape.keyed else None),
        y=y,
        color=alt.Color(
            "status:N",
            scale=alt.Scale(domain=statuses, range=[HIT, UNDER_FLOOR, OTHER]),
            legend=(alt.Legend(title=None, orient="bottom", labelLimit=0)
                    if shape.keyed else None),
        ),
        tooltip=[
            alt.Tooltip("chunk:N", title=t("chart.tip_chunk", lang)),
            alt.Tooltip("shown:N", title=t("chart.tip_score", lang)),
            alt.Tooltip("rank:Q", title=t("chart.tip_rank", lang)),
            *([alt.Tooltip("first:N", title=t("chart.first_stage", lang))]
              if shape.first_stage else []),
            alt.Tooltip("text:N", title=t("chart.tip_text", lang)),
        ],
    )
    labels = base.mark_text(align="left", dx=3, fontSize=font).encode(
        x="score:Q", y=y, text="shown:N"
    )
    layers: list[Any] = [bars, labels]
    if shape.with_answer:  # a green outline over the chunks holding the expected answer
        layers.append(base.mark_bar(fill=None, stroke=ANSWERABLE, strokeWidth=3)
                      .encode(x="score:Q", y=y).transform_filter("datum.answer"))
    if shape.with_floor:
        layers += _floor_rule(font + 1)
    chart = alt.LayerChart(
        layer=layers, title=shape.title, height=alt.Step(step), description=shape.description,
    )
    if shape.large:
        chart = chart.configure_axis(labelFontSize=font, titleFontSize=font).configure_legend(
            labelFontSize=font
        )
    return chart


def _label(key: str, lang: str) -> str:
    """A catalog text, or ``key`` itself when the catalog has none (a scorer added without
    one)."""
    return t(key, lang) if key in STRINGS else key


def _floor_rule(font: int) -> list[Any]:
    """The floor as a dashed rule with its value written above it."""
    rule_data = alt.NamedData(name=FLOOR_DATA)
    rule = (
        alt.Chart(rule_data)
        .mark_rule(color=FLOOR, strokeWidth=2, strokeDash=[6, 3])
        .encode(x="floor:Q")
    )
    rule_label = (
        alt.Chart(rule_data)
        .mark_text(color=FLOOR, align="left", dx=4, dy=-8, fontWeight="bold", fontSize=font)
        .encode(x="floor:Q", y=alt.value(0), text="label:N")
    )
    return [rule, rule_label]


def number_locale(lang: str) -> dict[str, Any]:
    """A d3-format number locale writing numbers as ``lang`` does (0,19 where the sentences
    write it so); the sliders cannot (Streamlit formats them with printf's point), which the
    floor's help says."""
    symbols = number_symbols(lang)
    return {"decimal": symbols["decimal"], "thousands": symbols["thousands"],
            "grouping": [3], "currency": ["", ""]}


def localised(chart: Any, lang: str) -> Any:
    """A top-level chart whose axes and tooltips write numbers as ``lang`` does."""
    if number_locale(lang) == number_locale(SOURCE_LANGUAGE):
        return chart
    chart = chart.copy(deep=["config"])
    if chart.config is alt.Undefined:
        chart.config = alt.Config()
    chart.config.locale = alt.Locale(number=number_locale(lang))
    return chart


PROFILE_SPANS = 100  # ~4 px a point in the 380 px wide chart of a narrow column


def profile_spans(boundary_similarities: Sequence[tuple[int, float]]) -> pd.DataFrame:
    """Consecutive boundaries grouped into at most PROFILE_SPANS spans (one boundary each
    while they fit): the span's offsets, its lowest and highest similarity, drawn at the
    offset of its lowest."""
    pairs = list(boundary_similarities)
    size = max(1, math.ceil(len(pairs) / PROFILE_SPANS))
    rows = []
    for first in range(0, len(pairs), size):
        group = pairs[first:first + size]
        offset, lowest = min(group, key=lambda pair: pair[1])
        rows.append({"offset": offset, "start": group[0][0], "end": group[-1][0],
                     "similarity": round(float(lowest), 4),
                     "highest": round(float(max(s for _, s in group)), 4)})
    return pd.DataFrame(rows, columns=["offset", "start", "end", "similarity", "highest"])


def similarity_profile(
    boundary_similarities: Sequence[tuple[int, float]],
    threshold: float | None,
    lang: str = "en",
) -> alt.LayerChart:
    """The semantic chunker's view: similarity between neighbouring sentences along the
    document, with the breakpoint threshold under which it starts a new chunk. A long
    document's boundaries are drawn in at most PROFILE_SPANS spans of the document, each
    with its lowest similarity (the dips that start chunks) over its range."""
    frame = profile_spans(boundary_similarities)
    x = alt.X("offset:Q", title=t("chart.offset", lang))
    tooltip = [alt.Tooltip("start:Q", title=t("chart.offset", lang)),
               alt.Tooltip("end:Q", title=t("chart.tip_end", lang)),
               alt.Tooltip("similarity:Q", format=".2f", title=t("chart.similarity", lang)),
               alt.Tooltip("highest:Q", format=".2f", title=t("chart.tip_highest", lang))]
    band = alt.Chart(frame).mark_area(opacity=0.25).encode(
        x=x, y=alt.Y("similarity:Q"), y2="highest:Q")
    line = alt.Chart(frame).mark_line(point=True).encode(
        x=x, y=alt.Y("similarity:Q", title=t("chart.similarity", lang)), tooltip=tooltip)
    layers: list[Any] = [band, line]
    if threshold is not None:
        rule_data = pd.DataFrame(
            {
                "threshold": [round(float(threshold), 4)],
                "label": [t("chart.threshold", lang, value=format_score(threshold, lang))],
            }
        )
        layers.append(
            alt.Chart(rule_data)
            .mark_rule(color=FLOOR, strokeDash=[6, 3])
            .encode(y="threshold:Q")
        )
        layers.append(
            alt.Chart(rule_data)
            .mark_text(color=FLOOR, align="left", dy=-6)
            .encode(y="threshold:Q", x=alt.value(4), text="label:N")
        )
    return alt.LayerChart(layer=layers, height=220)


def calibration_strip(
    calibration: Calibration,
    outcomes: Sequence[QuestionOutcome],
    floor: float | None = None,
    lang: str = "en",
) -> alt.LayerChart:
    """Each labelled question's best score as a dot, one row per group, with the
    suggested floor as a rule (and the floor in use, when it differs, as a thin one)."""
    answerable = t("chart.answerable", lang)
    unanswerable = t("chart.unanswerable", lang)
    rows = [
        {
            "group": answerable if o.question.is_answerable else unanswerable,
            "best": round(float(o.decision.best_score), 4),
            "question": o.question.question,
        }
        for o in outcomes
        if o.question.is_answerable is not None and o.decision.ranked
    ]
    frame = pd.DataFrame(rows, columns=["group", "best", "question"])
    floors = [calibration.floor, *([] if floor is None else [float(floor)])]  # both on the axis
    lowest = min([0.0, *floors, *frame["best"].tolist()])
    highest = max([*floors, *frame["best"].tolist()])
    domain = [math.floor(lowest * 10) / 10, min(1.0, math.ceil(highest * 10) / 10 + 0.1)]
    y = alt.Y("group:N", title=None, sort=[answerable, unanswerable])
    dots = (
        alt.Chart(frame)
        .mark_circle(size=260, opacity=0.85)
        .encode(
            x=alt.X("best:Q", scale=alt.Scale(domain=domain), title=t("chart.best_score", lang)),
            y=y,
            color=alt.Color(
                "group:N",
                scale=alt.Scale(domain=[answerable, unanswerable],
                                range=[ANSWERABLE, UNANSWERABLE]),
                legend=None,
            ),
            tooltip=[alt.Tooltip("question:N", title=t("chart.tip_question", lang)),
                     alt.Tooltip("best:Q", format=".3f", title=t("chart.tip_best", lang))],
        )
    )
    return alt.LayerChart(layer=[dots, *_floor_rules(calibration, floor, lang)],
                          height=STRIP_HEIGHT)


def _floor_rules(calibration: Calibration, floor: float | None, lang: str) -> list[Any]:
    """The suggested floor as a bold labelled rule, and the floor in use, when it differs,
    as a thin one; both written with enough decimals to tell them apart."""
    suggested_text, current_text = numbers(
        [calibration.floor, calibration.floor if floor is None else floor], lang)
    rules: list[dict[str, Any]] = [
        {
            "floor": round(float(calibration.floor), 4),
            "kind": "suggested",
            "label": t("chart.suggested_floor", lang, floor=suggested_text),
        }
    ]
    if floor is not None and abs(floor - calibration.floor) > 1e-9:
        rules.append(
            {
                "floor": round(float(floor), 4),
                "kind": "current",
                "label": t("chart.floor", lang, floor=current_text),
            }
        )
    rule_frame = pd.DataFrame(rules)
    suggested = rule_frame[rule_frame["kind"] == "suggested"]
    current = rule_frame[rule_frame["kind"] == "current"]
    layers: list[Any] = [
        alt.Chart(suggested)
        .mark_rule(color=FLOOR, strokeWidth=3)
        .encode(x="floor:Q"),
        alt.Chart(suggested)
        .mark_text(color=FLOOR, align="left", dx=5, dy=-10, fontWeight="bold", fontSize=14)
        .encode(x="floor:Q", y=alt.value(0), text="label:N"),
    ]
    if not current.empty:  # labelled at the foot, where the suggested label is not
        layers += [
            alt.Chart(current)
            .mark_rule(color="#374151", strokeDash=[4, 4], strokeWidth=2)
            .encode(x="floor:Q",
                    tooltip=[alt.Tooltip("label:N", title=t("chart.floor_axis", lang))]),
            alt.Chart(current)
            .mark_text(color="#374151", align="left", baseline="bottom", dx=5, fontSize=13)
            .encode(x="floor:Q", y=alt.value(STRIP_HEIGHT - 2), text="label:N"),
        ]
    return layers


def tradeoff_curve(calibration: Calibration, lang: str = "en") -> alt.LayerChart:
    """False refusals and false answers for every candidate floor, with the weighted cost
    and the suggested floor, for when no floor separates the two groups."""
    refusals = t("chart.false_refusals", lang)
    answers = t("chart.false_answers", lang)
    cost = t("chart.cost", lang)
    rows: list[dict[str, Any]] = []
    for point in calibration.curve:
        f = round(float(point.floor), 4)
        rows.append({"floor": f, "series": refusals, "count": point.false_refusals})
        rows.append({"floor": f, "series": answers, "count": point.false_answers})
        rows.append({"floor": f, "series": cost, "count": round(point.cost, 4)})
    frame = pd.DataFrame(rows, columns=["floor", "series", "count"])
    lines = (
        alt.Chart(frame)
        .mark_line(interpolate="step-after", point=True, strokeWidth=2)
        .encode(
            x=alt.X("floor:Q", title=t("chart.floor_axis", lang)),
            y=alt.Y("count:Q", title=t("chart.errors", lang)),
            color=alt.Color(
                "series:N",
                scale=alt.Scale(domain=[refusals, answers, cost],
                                range=[ANSWERABLE, UNANSWERABLE, "#111827"]),
                legend=alt.Legend(title=None, orient="bottom", labelLimit=0),
            ),
            tooltip=[alt.Tooltip("series:N", title=t("chart.tip_series", lang)),
                     alt.Tooltip("floor:Q", format=".3f", title=t("chart.floor_axis", lang)),
                     alt.Tooltip("count:Q", title=t("chart.tip_count", lang))],
        )
    )
    rule_data = pd.DataFrame(
        {
            "floor": [round(float(calibration.floor), 4)],
            "label": [t("chart.suggested_floor", lang,
                        floor=format_score(calibration.floor, lang))],
        }
    )
    rule = alt.Chart(rule_data).mark_rule(color=FLOOR, strokeWidth=2).encode(x="floor:Q")
    label = (
        alt.Chart(rule_data)
        .mark_text(color=FLOOR, align="left", dx=5, dy=-8, fontWeight="bold")
        .encode(x="floor:Q", y=alt.value(0), text="label:N")
    )
    return alt.LayerChart(layer=[lines, rule, label], height=240)


def sweep_frame(sweep: SweepResult, metric: str, lang: str = "en") -> pd.DataFrame:
    """One row per configuration: its row label (chunker and overlap), size and metric."""
    rows: list[dict[str, Any]] = []
    for row in sweep.rows:
        record = row.to_dict()
        value = record.get(metric)
        rows.append(
            {
                "config": config_text(row.config, lang),
                "row": t("chart.sweep_row", lang, chunker=record["chunker"],
                         overlap=_overlap_text(record, lang))
                + (f" · {row.scorer}" if row.scorer else ""),  # a scorer axis
                "size": int(record["size"]),
                "value": None if value is None else round(float(value), 6),
                "chunks": record["chunks"],
                "chunker": record["chunker"],
                "overlap_share": float(record["overlap"] or 0) / max(float(record["size"]), 1),
            }
        )
    return pd.DataFrame(rows, columns=["config", "row", "size", "value", "chunks", "chunker",
                                       "overlap_share"])


def _overlap_text(record: dict[str, Any], lang: str) -> str:
    """Overlaps in the size's unit as a share of it, so every size lines up in one row."""
    return overlap_text(record["chunker"], record["size"], record["overlap"], lang)


def sweep_heatmap(sweep: SweepResult, metric: str, lang: str = "en") -> alt.LayerChart:
    """The chosen metric over the grid: size across, chunker and overlap down, the value
    written in every cell as the metric is written elsewhere (a percentage or a decimal).
    Colours span 0..1 so two sweeps read the same, unless every value is under half: then
    they span 0..``colour_top`` (said under the title), or token IoU and precision, which
    stay under 0.2 with any chunker, are one pale blue on a projector."""
    frame = sweep_frame(sweep, metric, lang)
    order = sorted(dict.fromkeys(frame["row"].tolist()), key=_row_order(frame))
    base = alt.Chart(frame).encode(
        x=alt.X("size:O", title=t("chart.sweep_size", lang),
                axis=alt.Axis(labelAngle=0, labelFontSize=14, titleFontSize=14,
                              labelColor=_INK, titleColor=_INK)),
        y=alt.Y("row:N", title=None, sort=order,
                axis=alt.Axis(labelLimit=280, labelFontSize=14, labelColor=_INK)),
    )
    top = colour_top(frame["value"].dropna().tolist())
    # the darker the better: reversed for a metric where lower is better
    reverse = not get_metric(metric).higher_is_better
    percent = get_metric(metric).display == "percent"
    shown_as = cell_format(frame["value"].dropna().tolist(), percent)
    cells = base.mark_rect(stroke="#fff").encode(
        color=alt.Color("value:Q", scale=alt.Scale(domain=[0, top], scheme="blues",
                                                   reverse=reverse, clamp=True),
                        title=metric_label(metric, lang),  # its name, not the raw key
                        legend=alt.Legend(titleFontSize=14, labelFontSize=13, labelColor=_INK,
                                          titleColor=_INK, format=".0%" if percent else ".1f",
                                          titleLimit=240)),
        tooltip=[alt.Tooltip("config:N", title=t("chart.tip_config", lang)),
                 alt.Tooltip("value:Q", format=shown_as, title=metric_label(metric, lang)),
                 alt.Tooltip("chunks:Q", title=t("chart.tip_chunks", lang))],
    )
    text = base.mark_text(fontSize=15).encode(
        text=alt.Text("value:Q", format=shown_as),
        color=alt.condition(f"datum.value > {0.6 * top:.4f}", alt.value("white"),
                            alt.value(_INK)),
    )
    n_rows = max(1, frame["row"].nunique())
    notes = sweep_notes(sweep, frame, metric, lang)
    if top < 1:
        shown = f"{top:.0%}" if percent else f"{top:.1f}"
        notes.append(t("chart.sweep_scale", lang, top=shown))
    # a title with text: Vega draws no subtitle (the notes) under an empty one
    title = alt.TitleParams(metric_label(metric, lang), subtitle=notes, anchor="start",
                            fontSize=16, color=_INK, subtitleFontSize=14,
                            subtitleColor="#374151")
    return alt.LayerChart(layer=[cells, text], height=alt.Step(36 if n_rows < 12 else 26),
                          title=title)


_INK = "#111827"  # axis words dark enough for a projector (Vega's default is a light grey)


def cell_format(values: Sequence[float], percent: bool) -> str:
    """The heatmap cells' d3 format: the fewest decimals (from none of a percent, two of a
    decimal, at most three more) at which no two different values print the same (IoU
    7.1 %, 7.4 %, 6.5 % where whole percents read 7 %, 7 %, 6 %)."""
    distinct = sorted(set(values))
    first = 0 if percent else 2
    for decimals in range(first, first + 4):
        scale = 10 ** (decimals + (2 if percent else 0))
        printed = {round(value * scale) for value in distinct}
        if len(printed) == len(distinct):
            break
    return f".{decimals}%" if percent else f".{decimals}f"


def colour_top(values: Sequence[float]) -> float:
    """Where the heatmap's colours end: 1, or the largest value rounded up to a tenth when
    every value is at most half (at least 0.1)."""
    highest = max(values, default=1.0)
    if highest > 0.5:
        return 1.0
    return max(0.1, math.ceil(round(highest * 10, 6)) / 10)


def _row_order(frame: pd.DataFrame) -> Any:
    """Rows by chunker (in the grid's order), then by overlap, smallest first."""
    chunkers = list(dict.fromkeys(frame["chunker"].tolist()))
    overlap = dict(zip(frame["row"], frame["overlap_share"], strict=False))
    chunker = dict(zip(frame["row"], frame["chunker"], strict=False))
    return lambda row: (chunkers.index(chunker[row]), overlap[row])


def sweep_notes(sweep: SweepResult, frame: pd.DataFrame, metric: str, lang: str) -> list[str]:
    """What a reader of the heatmap asks: why some cells are blank, and how the best of
    many equal cells was chosen. Only the sentences the sweep calls for."""
    notes: list[str] = []
    n_grid = frame["row"].nunique() * frame["size"].nunique()
    missing = n_grid - len(frame)
    undefined = int(frame["value"].isna().sum())
    if missing:
        notes.append(t("chart.sweep_missing", lang, n=missing))
    if undefined:
        notes.append(t("chart.sweep_undefined", lang, n=undefined, metric=metric))
    if sweep.rows:
        best = sweep.best(metric).metrics.value(metric)
        tied = sum(row.metrics.value(metric) == best for row in sweep.rows)
        if best is not None and tied > 1:
            notes.append(t("chart.sweep_ties", lang, n=tied))
    return notes
