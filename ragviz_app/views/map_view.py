"""The Map tab: every chunk of A and B and every question in one picture of the embedding
space, with the lines the score bars colour. PCA is drawn at once; UMAP is fitted in the
background (progress shown) and swapped in. Self-contained: it reads the frame and session
state only, so it can sit in a fragment."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping, Sequence
from typing import Any, cast

import pandas as pd
import streamlit as st

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import encode_questions
from ragviz.i18n import Grouped
from ragviz.present.charts import localised
from ragviz.present.label_words import legend_html
from ragviz.present.map_svg import map_key
from ragviz.present.presentation import format_score
from ragviz.projection import planar, space
from ragviz_app import map_jobs
from ragviz_app.common import SIDES, lang, md, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.map_chart import (
    COLOURINGS,
    LINES_OF_EVERY,
    PICK_CHUNK,
    PICK_QUESTION,
    map_chart,
)

ALL_QUESTIONS = -1
POLL_SECONDS = 1.0
PICKED_CHUNK = "_map_picked_chunk"


def map_tab(frame: Frame) -> None:
    """The controls, then one map per model (one for A and B when they share it)."""
    spaces = frame_spaces(frame)
    if not spaces:
        return
    method, colouring, question = _controls(frame)
    st.caption(f'{tr("map.caption")} {tr(f"map.caption_{method}")}')  # what the method keeps
    if len(spaces) > 1:
        st.caption(tr("map.own_models"))
    if question is None and len(frame.questions) > LINES_OF_EVERY:
        st.caption(tr("map.lines_capped", shown=LINES_OF_EVERY, total=len(frame.questions)))
    for number, sides in enumerate(spaces):
        texts = [q.question for q in frame.questions]
        draw_space(frame.models[sides[0][0]], sides, frame, method, colouring, question,
                   f"map_chart_{number}", _on_pick(f"map_chart_{number}", texts, sides))


def frame_spaces(frame: Frame) -> list[list[space.Side]]:
    """The analyses grouped by embedding space: A and B together on one model."""
    ready = [(side, a) for side in SIDES if (a := frame.analyses[side]) is not None]
    if len(ready) == 2 and frame.models["a"].name != frame.models["b"].name:
        return [[side] for side in ready]
    return [ready] if ready else []


def _controls(frame: Frame) -> tuple[str, str, int | None]:
    """Projection, colouring and whose lines are drawn (one question by default: on a
    projector every question's lines at once are a tangle)."""
    methods, colourings = planar.METHODS, COLOURINGS
    if ss.get("map_method") not in methods:
        ss.map_method = planar.UMAP if planar.umap_available() else planar.PCA
    if ss.get("map_colour") not in colourings:
        ss.map_colour = "file" if _multi_file(frame) else "config"
    options = [ALL_QUESTIONS, *range(len(frame.questions))]
    if ss.get("map_lines") not in options:
        ss.map_lines = 0 if frame.questions else ALL_QUESTIONS
    method_col, colour_col, lines_col = st.columns([1.2, 1.6, 2])
    method_col.radio(tr("map.method"), methods, key="map_method", horizontal=True,
                     format_func=lambda m: tr(f"map.method_{m}"))
    colour_col.radio(tr("map.colour"), colourings, key="map_colour", horizontal=True,
                     format_func=lambda c: tr(f"map.colour_{c}"))
    texts = [q.question for q in frame.questions]
    lines_col.selectbox(tr("map.lines"), options, key="map_lines",
                        format_func=lambda i: tr("map.lines_all") if i == ALL_QUESTIONS
                        else f"Q{i + 1}. {texts[i][:80]}")
    picked = int(ss.map_lines)
    return str(ss.map_method), str(ss.map_colour), None if picked == ALL_QUESTIONS else picked


def _multi_file(frame: Frame) -> bool:
    return any(a is not None and a.corpus.multi_file for a in frame.analyses.values())


def draw_space(model: Embedder, sides: Sequence[space.Side], frame: Frame | None,
               method: str, colouring: str, question: int | None, key: str,
               on_pick: Callable[[], None] | None = None, large: bool = False) -> None:
    """One map: its notes (projection, sample), the key, the chart and what a click picked."""
    rows, vectors = space.fitted_rows(sides)
    projection, note = current_projection(vectors, method)
    if note:
        st.caption(note)
    analyses = [analysis for _, analysis in sides]
    questions = [o.question for o in analyses[0].outcomes]
    drawn = space.space_map(sides, rows, projection, encode_questions(model, questions))
    if drawn.sampled:
        st.caption(tr("map.sampled", shown=Grouped(len(drawn.chunks)),
                      total=Grouped(drawn.total), keep=space.KEEP_RANKS))
    st.html(map_key(lang()))
    chart = localised(map_chart(drawn, colouring, question, lang(), large), lang())
    st.altair_chart(chart, width="stretch", key=key,
                    on_select=on_pick if on_pick is not None else "ignore",
                    selection_mode=[PICK_CHUNK, PICK_QUESTION] if on_pick else None)
    if colouring == "diagnosis":
        labels_legend(drawn, key)
    if frame is not None:  # under the Map tab's chart (its width kept for a projector), the
        top_k_numbers(sides, question)  # shown question's top_k in numbers: lengths lie
        _picked_note(drawn)


def labels_legend(drawn: space.SpaceMap, key: str) -> None:
    """Coloured by diagnosis: what each label drawn means and the fix, folded under the
    chart (the chart's own legend names them only; a point's hover says its own)."""
    shown = {p.label for p in drawn.chunks} - {space.NOT_RETRIEVED}
    if shown:
        with st.expander(tr("labels.legend"), key=f"{key}_labels_legend"):
            st.html(legend_html(lang(), shown))


def top_k_numbers(sides: Sequence[space.Side], question: int | None) -> None:
    """The shown question's top_k chunks and answer chunks of each side, by rank, with
    their scores: what the lines stand for, read as the model ranks them."""
    if question is None:
        st.caption(tr("map.numbers_pick"))
        return
    rows = []
    for side, analysis in sides:
        if question >= len(analysis.outcomes):
            continue
        outcome = analysis.outcomes[question]
        decision = outcome.decision
        holding = set(outcome.diagnosis.holding_chunks) if outcome.diagnosis else set()
        shown = {int(i) for i in decision.ranking[:decision.top_k].tolist()} | holding
        for index in sorted(shown, key=decision.rank_of):
            rows.append({tr("map.numbers_rank"): decision.rank_of(index),
                         tr("map.chunk"): f"{side.upper()} #{index}",
                         tr("map.numbers_score"): format_score(decision.score(index), lang()),
                         tr("map.numbers_answer"): "✓" if index in holding else ""})
    st.markdown(f"**{tr('map.numbers_title', n=question + 1)}**", help=tr("map.numbers_help"))
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def current_projection(vectors: planar.Vectors, method: str) -> tuple[planar.Projection,
                                                                      str | None]:
    """PCA at once; UMAP when fitted (else PCA, the fit started and its progress polled),
    with the sentence that says why the picture is not the one asked for."""
    pca = planar.project(vectors, planar.PCA)
    if method == planar.PCA:
        return pca, None
    if not planar.umap_available():
        return pca, tr("map.umap_missing", hint=planar.MAP_EXTRA)
    if len(vectors) < planar.MIN_UMAP_CHUNKS:
        return pca, tr("map.few_chunks", n=planar.MIN_UMAP_CHUNKS)
    found = planar.cached(vectors, planar.UMAP)
    if found is not None:
        return found, None
    job = map_jobs.umap_job(vectors)
    if job.error is not None:
        return pca, tr("map.umap_failed", error=md(job.error))
    _poll(job, len(vectors))
    return pca, None


def _poll(job: map_jobs.ProjectionJob, n: int) -> None:
    """A progress bar that redraws itself every second and reruns the page once UMAP is
    done (the picture is then swapped in)."""
    @st.fragment(run_every=POLL_SECONDS)
    def progress() -> None:
        if not job.running:
            st.rerun()
        st.progress(job.share, text=tr("map.umap_running", n=n, done=f"{job.share:.0%}"))

    progress()


def _on_pick(key: str, texts: list[str], sides: Sequence[space.Side]) -> Callable[[], None]:
    """The chart's selection callback (runs before the next run, so widgets may change)."""
    def picked() -> None:
        apply_pick((ss.get(key) or {}).get("selection", {}), texts, sides,
                   cast(MutableMapping[str, Any], ss))
    return picked


def apply_pick(selection: Mapping[str, Any], texts: Sequence[str], sides: Sequence[space.Side],
               state: MutableMapping[str, Any]) -> None:
    """What a click does: a question draws its lines and opens the Why tab (and the
    question picker) on it; a chunk is named under the map and its file picked in the
    document tab."""
    analyses = dict(sides)
    for point in selection.get(PICK_QUESTION, []):
        position = int(point.get("index", -1))
        if 0 <= position < len(texts):
            state["map_lines"] = position
            state["why_pick"] = texts[position]
            state["question_pick"] = position
            state[PICKED_CHUNK] = ("question", position)
    for point in selection.get(PICK_CHUNK, []):
        side, index = str(point.get("side")), int(point.get("index", -1))
        if side in analyses and 0 <= index < len(analyses[side].chunks):
            state[PICKED_CHUNK] = (side, index)
            if analyses[side].corpus.multi_file:
                state["doc_file"] = analyses[side].chunks[index].source


def _picked_note(drawn: space.SpaceMap) -> None:
    """The picked point in words (its whole head, file and size), under the map."""
    picked = ss.get(PICKED_CHUNK)
    if not picked:
        return
    kind, index = picked
    if kind == "question":
        if index < len(drawn.questions):
            st.info(tr("map.picked_question", n=index + 1,
                       question=md(drawn.questions[index].text)))
        return
    point = next((p for p in drawn.chunks if p.side == kind and p.index == index), None)
    if point is not None:
        st.info(tr("map.picked_chunk", chunk=f"#{point.index}", side=point.side.upper(),
                   file=f" ({md(point.source)})" if point.source else "",
                   chars=point.chars, head=md(point.head)))
