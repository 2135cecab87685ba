"""The compare tab: the questions whose outcome flips between A and B, and the sweep of
chunker settings with the best one ready to load into A."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ragviz.evaluation.experiments import compare
from ragviz.evaluation.results import Analysis
from ragviz.inputs.corpus import Corpus
from ragviz.present import presentation
from ragviz.present.label_words import help_markdown, legend_html
from ragviz_app.common import lang, tr
from ragviz_app.frame import Frame
from ragviz_app.views import compare_answers
from ragviz_app.views.sweep import sweep_view as sweep_view  # index_views calls it here


def compare_tab(frame: Frame, document: str | Corpus) -> None:
    a, b = frame.analyses["a"], frame.analyses["b"]
    if a is not None and b is not None:
        compare_view(a, b)
        compare_answers.verdict_view(a, b)  # once the LLM answered both
    sweep_view(document, frame.model, frame.questions, frame.top_k, frame.floor)


def compare_view(a: Analysis, b: Analysis) -> None:
    comparison = compare(a, b)
    compare_answers.setting_view(a, b, comparison)  # B's scorer or reranker
    if not comparison.flips:
        st.success(tr("app.no_flips"))
        return
    st.markdown(f"**{tr('app.flips', n=len(comparison.flips))}**")
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
    st.dataframe(styled, hide_index=True, width="stretch", column_config={
        side: st.column_config.Column(help=help_markdown(
            [label for f in comparison.flips if (label := f.label_a if side == "A"
                                                  else f.label_b)], lang()) or None)
        for side in ("A", "B")})
    labels_legend()


def labels_legend() -> None:
    """What each label of the flips means and the fix it points at, folded."""
    with st.expander(tr("labels.legend"), key="compare_labels_legend"):
        st.html(legend_html(lang()))
