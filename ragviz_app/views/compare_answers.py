"""The compare tab's two other readings of A against B: what B's retrieval setting (scorer,
reranker) fixes and breaks when it differs from A's, with the questions; and, once the LLM
answered both sides, the questions whose verdict differs."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ragviz.evaluation.results import Analysis, Comparison
from ragviz.present.answers import fixed_and_broken, setting_sentence, verdict_flip_rows
from ragviz_app.common import lang, md, tr
from ragviz_app.views import llm_view

_TINTS = {"fixed": "#dcfce7", "broken": "#fee2e2", "changed": "#fef9c3"}


def setting_view(a: Analysis, b: Analysis, comparison: Comparison) -> None:
    """"B's hybrid+rerank(sentence-max) fixes 2, breaks 0", the questions under it, when A
    and B retrieve differently (said when their chunks differ too)."""
    if a.settings.scorer == b.settings.scorer:
        return
    fixed, broken = fixed_and_broken(comparison)
    st.markdown(f"**{setting_sentence(md(b.settings.scorer), comparison, lang())}**")
    for key, flips in (("app.setting_fixed_list", fixed), ("app.setting_broken_list", broken)):
        if flips:  # the questions are the user's text: escaped for Markdown
            st.markdown(tr(key, questions="; ".join(md(f.question.question) for f in flips)))
    if a.config != b.config:
        st.caption(tr("app.setting_chunks_differ"))


def verdict_view(a: Analysis, b: Analysis) -> None:
    """The questions whose LLM verdict differs from A to B, once both sides have answers."""
    sets = llm_view.kept_sets([a, b])()
    first, second = sets
    if first is None or second is None:
        return
    rows = verdict_flip_rows(a.outcomes, first, second, lang())
    if not rows:
        st.success(tr("app.no_verdict_flips"))
        return
    st.markdown(f"**{tr('app.verdict_flips', n=len(rows))}**")
    table = pd.DataFrame([{tr("col.question"): row.question, "A": row.a_text, "B": row.b_text,
                           tr("col.direction"): tr(f"app.direction_{row.direction}")}
                          for row in rows])
    tints = [_TINTS[row.direction] for row in rows]
    styled = table.style.apply(lambda r: [f"background-color: {tints[r.name]}"] * len(r),
                               axis=1)
    st.dataframe(styled, hide_index=True, width="stretch")
