"""The document tab: the highlighted document, the similarity profile of the semantic
chunker, and the chunk table with its CSV download, for A and B."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from ragviz import charts, render
from ragviz.embedders import Embedder
from ragviz.exports import chunks_csv
from ragviz.results import Analysis
from ragviz_app.common import lang, md, side_by_side, tr
from ragviz_app.frame import Frame


def chunks_tab(frame: Frame) -> None:
    st.html(render.legend(lang()))
    for side, current in side_by_side(frame.analyses):
        if current is not None:
            chunk_view(current, frame.model_of(side))
            st.download_button(
                tr("app.download_chunks"), chunks_csv(current),
                file_name=f"ragviz-chunks-{side}.csv", mime="text/csv",
                key=f"download_chunks_{side}",
            )
        else:
            st.error(md(frame.errors.get(side, "")))


def chunk_view(analysis: Analysis, model: Embedder) -> None:
    st.html(render.highlight_document(
        analysis.document, analysis.chunks, analysis.truncation, True, analysis.chunk_tokens,
        lang()))
    if analysis.truncated_count:
        st.warning(tr("app.truncated", n=analysis.truncated_count,
                      limit=model.max_tokens or 0))
    if analysis.chunking.boundary_similarities:
        st.altair_chart(charts.similarity_profile(
            analysis.chunking.boundary_similarities, analysis.chunking.breakpoint_threshold,
            lang()), width="stretch")
    numbers = ("col.start", "col.end", "col.chars", "col.tokens", "col.over_size",
               "col.truncated")
    rows = [
        {
            tr("col.index"): c.index, tr("col.text"): c.text, tr("col.start"): c.start,
            tr("col.end"): c.end, tr("col.chars"): c.chars,
            tr("col.tokens"): analysis.chunk_tokens[c.index], tr("col.over_size"): c.over_size,
            tr("col.truncated"): analysis.truncation[c.index] is not None,
        }
        for c in analysis.chunks
    ]
    # The text second and wide, the numbers narrow: in a half-page column the text was
    # squeezed to two characters behind seven auto-sized number columns.
    widths: dict[str, Any] = {tr(name): st.column_config.Column(width="small")
                              for name in ("col.index", *numbers)}
    widths[tr("col.text")] = st.column_config.TextColumn(width="large")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config=widths)
