"""The compare tab: the questions whose outcome flips between A and B, and the sweep of
chunker settings with the best one ready to load into A."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ragviz.embedding.models import Embedder
from ragviz.evaluation.experiments import compare, default_grid, sweep
from ragviz.evaluation.measures import metric_names
from ragviz.evaluation.results import Analysis, SweepResult
from ragviz.i18n import count
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present import presentation
from ragviz_app import app_state as state
from ragviz_app import charts
from ragviz_app.common import lang, retrieval, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.session import load_into_a


def compare_tab(frame: Frame, document: str | Corpus) -> None:
    a, b = frame.analyses["a"], frame.analyses["b"]
    if a is not None and b is not None:
        compare_view(a, b)
    sweep_view(document, frame.model, frame.questions, frame.top_k, frame.floor)


def compare_view(a: Analysis, b: Analysis) -> None:
    comparison = compare(a, b)
    if not comparison.flips:
        st.success(tr("app.no_flips"))
        return
    st.markdown(f"**{count(len(comparison.flips), 'app.flips', lang())}**")
    rows = [
        {
            tr("col.question"): f.question.question,
            "A": presentation.label_name(f.label_a, lang()) if f.label_a else "–",
            "B": presentation.label_name(f.label_b, lang()) if f.label_b else "–",
            tr("col.direction"): tr(f"app.direction_{f.direction}"),
        }
        for f in comparison.flips
    ]
    frame = pd.DataFrame(rows)
    colours = {"fixed": "#dcfce7", "broken": "#fee2e2", "changed": "#fef9c3"}
    tints = [colours[f.direction] for f in comparison.flips]
    styled = frame.style.apply(lambda row: [f"background-color: {tints[row.name]}"] * len(row),
                               axis=1)
    st.dataframe(styled, hide_index=True, width="stretch")


def sweep_view(document: str | Corpus, model: Embedder, questions: list[LabelledQuestion],
               top_k: int, floor: float) -> None:
    st.subheader(tr("app.sweep"))
    left, right = st.columns([1, 2])
    language = lang()
    left.selectbox(tr("app.sweep_metric"), metric_names(), key="sweep_metric",
                   format_func=lambda name: presentation.metric_label(name, language))
    grid = default_grid(state.document_chars(document))
    signature = (model.name, state.document_key(document), tuple(questions), top_k, floor)
    if left.button(tr("app.run_sweep", n=len(grid)), key="run_sweep", type="primary"):
        bar = right.progress(0.0, text=tr("app.sweep_count", done=0, total=len(grid)))

        def report(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), text=tr("app.sweep_count", done=done, total=total))

        ss.sweep_result = (signature, sweep(document, questions, model, grid,
                                            retrieval(top_k, floor), progress=report))
        bar.empty()
    stored = ss.get("sweep_result")
    if stored is None:
        right.caption(tr("app.sweep_hint"))
        return
    stored_signature, result = stored
    result_typed: SweepResult = result
    if stored_signature != signature:
        right.warning(tr("app.sweep_stale"))
    best = result_typed.best(ss.sweep_metric)
    value = best.metrics.value(ss.sweep_metric)
    right.markdown(tr("app.sweep_best", config=presentation.config_text(best.config, lang()),
                      metric=presentation.metric_label(ss.sweep_metric, lang()),
                      value=presentation.metric_text(ss.sweep_metric, value, lang())))
    right.button(tr("app.load_best"), key="load_best", on_click=load_into_a, args=(best.config,))
    st.altair_chart(charts.localised(charts.sweep_heatmap(result_typed, ss.sweep_metric, lang()),
                                     lang()),
                    width="stretch")
