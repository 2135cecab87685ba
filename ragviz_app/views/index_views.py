"""The views' index parts: what only an index has (stale chunks, vector mismatches,
copies crowding a top_k) above the questions, the what-if in the compare tab (A the index
as production built it, B its source files chunked by ragviz), and the why tab on B."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import altair as alt
import pandas as pd
import streamlit as st

from ragviz.evaluation.index_analysis import STALE_CHUNK, VECTOR_MISMATCH, IndexAnalysis
from ragviz.evaluation.measures import metric_names
from ragviz.evaluation.results import Analysis
from ragviz.i18n import t
from ragviz.present import charts, presentation
from ragviz.present.label_words import badges_html, help_markdown
from ragviz_app.common import lang, md, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.index_frame import IndexView
from ragviz_app.views import compare, why

View = Callable[[], None]
# The label of copies sharing a top_k, as the diagnosis names it (the core's diagnosis adds
# it to a question's labels too; this table lists it beside the chunks' own faults).
CROWDING = "duplicate-crowding"


def views(frame: Frame, shared: dict[str, View]) -> dict[str, View]:
    """The tabs' views with the index's parts added (the others as they are)."""
    out = dict(shared)

    def questions() -> None:
        labels_panel(frame)
        shared["questions"]()

    out["questions"] = questions
    out["compare"] = lambda: compare_index(frame)
    out["why"] = lambda: why_index(frame)
    return out


def label_rows(view: IndexView, language: str) -> list[dict[str, str]]:
    """One row per fault: the chunk (or copies), its label and the sentence saying why."""
    result = view.result
    if result is None:
        return []
    rows = []
    for i in range(len(result.placed.chunks)):
        for label in result.chunk_labels(i):
            why_text = (t("idx.stale_chunk", language, chunk=i, file=result.placed.stale[i])
                        if label == STALE_CHUNK else
                        t("idx.mismatch_chunk", language, chunk=i, model=result.analysis.model,
                          cosine=presentation.format_score(result.agreement[i], language)))
            rows.append(_row(str(i), label, why_text, language))
    for outcome in result.analysis.outcomes:
        copies = crowding(result, outcome.decision.ranking[:outcome.decision.top_k].tolist())
        if copies:
            sentence = t("idx.crowding_row", language, chunks=", ".join(map(str, copies)),
                         places=len(copies), top_k=result.analysis.top_k)
            rows.append(_row(", ".join(map(str, copies)), CROWDING,
                             f"{outcome.question.question}: {sentence}", language))
    return rows


def crowding(result: IndexAnalysis, top: list[int]) -> tuple[int, ...]:
    """The chunks of a top_k that share a group of copies with another chunk of it."""
    groups = [result.groups[i] for i in top if result.groups[i] >= 0]
    return tuple(i for i in top if result.groups[i] >= 0 and groups.count(result.groups[i]) > 1)


def _row(chunk: str, label: str, text: str, language: str) -> dict[str, str]:
    return {t("idx.col_chunk", language): chunk,
            t("idx.col_label", language): presentation.label_name(label, language),
            t("idx.col_why", language): text}


FAULTS = (STALE_CHUNK, VECTOR_MISMATCH, CROWDING)  # the labels the faults table can show


def faults_help(rows: list[dict[str, str]], language: str) -> str | None:
    """What each label of the faults table means and what to change: its label column's
    hover (a table's cell has none of its own)."""
    shown = {row[t("idx.col_label", language)] for row in rows}
    return help_markdown([label for label in FAULTS
                          if presentation.label_name(label, language) in shown],
                         language) or None


def labels_panel(frame: Frame) -> None:
    """Above the questions: the index's faults, one row each (none: one line saying so)."""
    view: IndexView = frame.index
    if view.result is None:
        return
    language = lang()
    rows = label_rows(view, language)
    with st.expander(t("idx.labels_title", language), expanded=bool(rows)):
        unplaced = view.result.placed.known.count(False)
        if unplaced:  # the true reason: no source file given, or not found in those given
            key = "no_offsets" if view.result.placed.given else "no_sources_placed"
            st.caption(t(f"idx.{key}", language, n=unplaced))
        if not rows:
            st.caption(t("idx.labels_none", language))
            return
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config={
            t("idx.col_label", language): st.column_config.Column(
                help=faults_help(rows, language))})


def compare_index(frame: Frame) -> None:
    """The what-if: A and B side by side (metrics, chunk sizes), then the flipped
    questions and the sweep on the source files."""
    view: IndexView = frame.index
    a, b = frame.analyses["a"], frame.analyses["b"]
    language = lang()
    st.subheader(t("idx.whatif", language))
    if view.sources is None or b is None:
        st.info(md(frame.errors.get("b") or t("idx.b_needs_sources", language)))
        return
    st.caption(t("idx.whatif_caption", language,
                 config=presentation.config_text(b.config, language)))
    if a is not None:
        st.dataframe(metrics_table(a, b, language), hide_index=True, width="stretch")
        st.altair_chart(charts.localised(size_histogram(a, b, language), language),
                        width="stretch")
        compare.compare_view(a, b)
    compare.sweep_view(view.sources, frame.model, frame.questions, frame.top_k, frame.floor)


def metrics_table(a: Analysis, b: Analysis, language: str) -> pd.DataFrame:
    """Every registered metric for the index (A) and the what-if (B)."""
    return pd.DataFrame([
        {t("idx.metric", language): presentation.metric_label(name, language, k=a.top_k),
         "A": presentation.metric_text(name, a.metrics.values.get(name), language),
         "B": presentation.metric_text(name, b.metrics.values.get(name), language)}
        for name in metric_names()])


def size_histogram(a: Analysis, b: Analysis, language: str) -> Any:
    """Both chunk-size distributions, one panel per side on the same bins."""
    data = pd.DataFrame(
        [{"side": side, "chars": len(c.text)} for side, analysis in (("A", a), ("B", b))
         for c in analysis.chunks])
    title = t("idx.sizes", language)
    return alt.Chart(data).mark_bar().encode(
        x=alt.X("chars:Q", bin=alt.Bin(maxbins=30), title=title),
        y=alt.Y("count():Q", title=t("idx.sizes_count", language)),
        color=alt.Color("side:N", legend=None),
        tooltip=[alt.Tooltip("count():Q", title=t("idx.sizes_count", language))],
    ).properties(height=160).facet(column=alt.Column("side:N", title=None))


def why_index(frame: Frame) -> None:
    """The why tab: A (the production index) diagnosed on its own chunks and stored
    vectors, or B's fix searched on the source files (A's chunks have no setting to move)."""
    view: IndexView = frame.index
    side = st.radio(tr("app.why_config"), ("a", "b"), key="why_index_side",
                    format_func=str.upper, horizontal=True)
    if side == "a":
        why_index_a(frame, view)
        return
    st.caption(t("idx.why_a", lang()))
    if view.sources is None:
        st.info(t("idx.b_needs_sources", lang()))
        return
    ss.why_side = "b"  # A has no setting to move: the search is B's
    why.why_tab(dataclasses.replace(frame, configs={**frame.configs, "a": None}),
                view.sources)


def why_index_a(frame: Frame, view: IndexView) -> None:
    """A labelled question's diagnosis on the index itself: what production retrieves for
    it, from the analysis on the stored vectors (no fix is searched: A has no setting)."""
    language = lang()
    if view.result is None:
        st.info(t("idx.why_a_refused", language))
        return
    outcomes = {o.question.question: o for o in view.result.analysis.outcomes
                if o.diagnosis is not None}
    if not outcomes:
        st.info(t("idx.why_a_needs_label", language))
        return
    picked = st.selectbox(t("app.why_pick", language), list(outcomes), key="why_index_pick")
    outcome = outcomes[str(picked)]
    assert outcome.diagnosis is not None
    st.markdown(t("app.why_result_for", language, question=md(outcome.question.question),
                  side="A"))
    st.markdown(badges_html(outcome.diagnosis.labels, language), unsafe_allow_html=True)
    st.markdown(md(presentation.diagnosis_text(outcome.diagnosis, language)))
    st.caption(t("idx.why_a_no_fix", language))
