"""The document tab: for a corpus of several files, the overview of the files and a file
picker; the highlighted document (the picked file), the similarity profile of the semantic
chunker, and the chunk table with its CSV download, for A and B."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from ragviz.embedding.models import Embedder
from ragviz.evaluation import overview
from ragviz.evaluation.results import Analysis
from ragviz.inputs.corpus import Corpus
from ragviz.present import charts, render
from ragviz.present.exports import chunks_csv
from ragviz_app.common import lang, md, side_by_side, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.views import check_answer


def chunks_tab(frame: Frame) -> None:
    corpus = frame.document if isinstance(frame.document, Corpus) else None
    source: str | None = None
    if corpus is not None:
        corpus_overview(frame)
        source = file_picker(corpus)
    st.html(render.legend(lang()))
    if isinstance(frame.document, str):  # selecting text labels the open ticket
        check_answer.selection_labeller(frame.document, "")
    elif corpus is not None and source is not None:
        check_answer.selection_labeller(corpus.source(source).text, source)
    for side, current in side_by_side(frame.analyses):
        if current is not None:
            chunk_view(current, frame.model_of(side), source)
            st.download_button(
                tr("app.download_chunks"), chunks_csv(current),
                file_name=f"ragviz-chunks-{side}.csv", mime="text/csv",
                key=f"download_chunks_{side}",
            )
        elif side in frame.notes:  # waiting for an input, not a fault
            st.info(md(frame.notes[side]))
        else:
            st.error(md(frame.errors.get(side, "")))


def corpus_overview(frame: Frame) -> None:
    """Files, characters, chunks per file and how often each file reaches the top_k (and
    for which questions), under A and B."""
    st.subheader(tr("app.corpus_overview"))
    for _side, current in side_by_side(frame.analyses):
        if current is None:
            continue
        rows = [
            {
                tr("col.file"): row.name, tr("col.chars"): row.chars,
                tr("col.chunks"): row.chunks,
                tr("col.retrieved", k=current.top_k): row.retrieved,
                tr("col.retrieved_for"): " · ".join(row.questions),
            }
            for row in overview.corpus_overview(current)
        ]
        st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch")


def file_picker(corpus: Corpus) -> str:
    """The file the highlighted view shows (kept across reruns while it still exists)."""
    names = list(corpus.names)
    if ss.get("doc_file") not in names:
        ss.doc_file = names[0]
    return str(st.selectbox(tr("app.corpus_file_pick"), names, key="doc_file"))


def chunk_view(analysis: Analysis, model: Embedder, source: str | None = None) -> None:
    """One configuration's chunks of the picked file (of the only document without one),
    drawn from their offsets in that file's text; truncation and tokens are indexed by the
    chunk's global index."""
    text = analysis.document if source is None else analysis.corpus.source(source).text
    chunks = analysis.chunks if source is None else analysis.chunks_of(source)
    st.html(render.highlight_document(
        text, chunks, analysis.truncation, True, analysis.chunk_tokens, lang()))
    if analysis.truncated_count:
        st.warning(tr("app.truncated", n=analysis.truncated_count,
                      limit=model.max_tokens or 0))
    if analysis.chunking.boundary_similarities and source is None:
        st.altair_chart(charts.localised(charts.similarity_profile(
            analysis.chunking.boundary_similarities, analysis.chunking.breakpoint_threshold,
            lang()), lang()), width="stretch")
    numbers = ("col.start", "col.end", "col.chars", "col.tokens", "col.over_size",
               "col.truncated")
    rows = [
        {
            **({tr("col.file"): c.source} if source is not None else {}),
            tr("col.index"): c.index, tr("col.text"): c.text, tr("col.start"): c.start,
            tr("col.end"): c.end, tr("col.chars"): c.chars,
            tr("col.tokens"): analysis.chunk_tokens[c.index], tr("col.over_size"): c.over_size,
            tr("col.truncated"): analysis.truncation[c.index] is not None,
        }
        for c in chunks
    ]
    # The text second and wide, the numbers narrow: in a half-page column the text was
    # squeezed to two characters behind seven auto-sized number columns.
    widths: dict[str, Any] = {tr(name): st.column_config.Column(width="small")
                              for name in ("col.index", *numbers)}
    widths[tr("col.text")] = st.column_config.TextColumn(width="large")
    st.dataframe(pd.DataFrame(rows), hide_index=True, width="stretch", column_config=widths)
