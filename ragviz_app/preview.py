"""What a size or overlap move shows before any embedding: each re-cut side's chunk count,
with the note that its scores are being recomputed and the progress bar, in the place its
summary lives; with the document tab open, the document highlighted at the new cut. The
rest of the page stays as it was, greyed by Streamlit as stale, until the new scores
replace it."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.chunking import ChunkerConfig, ChunkingResult
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.present import presentation, render
from ragviz_app.common import SIDES, lang, ss, tr
from ragviz_app.frame import Preview


def chunks_first(document: str | Corpus, configs: dict[str, ChunkerConfig | None],
                 slots: dict[str, DeltaGenerator],
                 document_slot: DeltaGenerator | None) -> Preview:
    """The preview ``frame.compute`` calls with the sides it is about to embed."""
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
            highlighted(document, pending, document_slot)
        return progress
    return show


def highlighted(document: str | Corpus, pending: dict[str, ChunkingResult],
                document_slot: DeltaGenerator) -> None:
    """The text highlighted with each re-cut side's new chunks, A left, B right; of a
    corpus, the file the document tab's picker shows (the first before any pick)."""
    corpus = as_corpus(document)
    if not corpus.sources:
        return
    picked = ss.get("doc_file")
    first = corpus.source(picked) if picked in corpus.names else corpus.sources[0]
    with document_slot.container():
        for side, column in zip(SIDES, st.columns(2, gap="large"), strict=True):
            if side in pending:
                chunks = [c for c in pending[side].chunks if c.source == first.name]
                column.html(render.highlight_document(first.text, chunks, None, True, None,
                                                      lang()))
