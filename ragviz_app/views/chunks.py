"""The document tab: the highlighted document, the similarity profile of the semantic
chunker, and the chunk table with its CSV download, for A and B."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz import charts, presentation, render
from ragviz.chunking import ChunkerConfig, ChunkingResult
from ragviz.embedders import Embedder
from ragviz.exports import chunks_csv
from ragviz.results import Analysis
from ragviz_app.common import SIDES, lang, md, side_by_side, tr
from ragviz_app.frame import Frame, Preview


def chunks_tab(frame: Frame) -> None:
    st.html(render.legend(lang()))
    for side, current in side_by_side(frame.analyses):
        if current is not None:
            chunk_view(current, frame.model)
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
    rows = [
        {
            tr("col.index"): c.index, tr("col.start"): c.start, tr("col.end"): c.end,
            tr("col.chars"): c.chars, tr("col.tokens"): analysis.chunk_tokens[c.index],
            tr("col.over_size"): c.over_size,
            tr("col.truncated"): analysis.truncation[c.index] is not None,
            tr("col.text"): c.text,
        }
        for c in analysis.chunks
    ]
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def chunks_first(document: str, configs: dict[str, ChunkerConfig | None],
                 slots: dict[str, DeltaGenerator],
                 document_slot: DeltaGenerator | None) -> Preview:
    """What a size or overlap move shows before any embedding: each re-cut side's chunk
    count (and, with this tab open, its highlighted document) with a note that its scores
    are being recomputed; the rest of the page stays as it was, greyed as stale, until the
    new scores replace it."""
    def show(pending: dict[str, ChunkingResult]) -> dict[str, DeltaGenerator]:
        progress: dict[str, DeltaGenerator] = {}
        for side, chunking in pending.items():
            config = configs[side]
            assert config is not None
            with slots[side].container():
                st.caption(tr("app.chunk_count", n=len(chunking.chunks),
                              label=presentation.config_text(config, lang())))
                st.caption(tr("app.embedding", config=config.label()))
                progress[side] = st.empty()
        if document_slot is not None:
            with document_slot.container():
                for side, column in zip(SIDES, st.columns(2, gap="large"), strict=True):
                    if side in pending:
                        column.html(render.highlight_document(
                            document, pending[side].chunks, None, True, None, lang()))
        return progress
    return show
