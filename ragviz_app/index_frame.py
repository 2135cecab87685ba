"""The frame when the document is a production index: A is the index as production built
it (its own chunks, scored on its stored vectors), B the source files chunked by any
ragviz chunker with the same questions and model (the "what if")."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import Embedder
from ragviz.errors import IndexInputError
from ragviz.evaluation.index_analysis import IndexAnalysis, analyse_index
from ragviz.evaluation.pipeline import chunk_document, rescore
from ragviz.i18n import render
from ragviz.index.base import INDEX_CONFIG
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz_app import background, floors
from ragviz_app import frame as shared_frame
from ragviz_app.common import SIDES, expand_of, lang, md, retrieval, scorer_name, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.index_source import IndexChoice, error_text


@dataclass(frozen=True)
class IndexView:
    """What the views read of an index: the analysis (None when it was refused) and the
    source files B chunks (None when none were given)."""

    result: IndexAnalysis | None
    sources: Corpus | None
    name: str


def config_inputs(columns: Sequence[DeltaGenerator], choice: IndexChoice,
                  ) -> dict[str, ChunkerConfig | None]:
    """A's column names the index (production chose its chunks); B's widgets as always,
    fitted to the source files."""
    left, right = columns
    with left:
        st.subheader(tr("idx.side_a"))
        st.caption(md(tr("idx.side_a_caption", name=choice.loaded.name,
                               n=len(choice.loaded.chunks))))
    chars = choice.sources.total_chars if choice.sources else choice.corpus.total_chars
    with right:
        config_b = shared_frame.config_widgets("b", chars)
    return {"a": INDEX_CONFIG, "b": config_b}


def compute(choice: IndexChoice, models: dict[str, Embedder],
            questions: list[LabelledQuestion],
            configs: dict[str, ChunkerConfig | None]) -> Frame:
    """A on the index (memoised, rescored when only top_k or the floor move), B on the
    source files; a refusal leaves its side with one sentence."""
    top_k = int(ss.top_k)
    floors.ensure()
    background.stop()
    frame = Frame(choice.corpus, models, questions, dict(configs), dict.fromkeys(SIDES), {},
                  top_k)
    result: IndexAnalysis | None = None
    try:
        result = index_analysis(choice, models["a"], questions, top_k, floors.floor_of("a"))
        frame.analyses["a"] = result.analysis
    except IndexInputError as error:
        frame.errors["a"] = error_text(error)
        frame.configs["a"] = None
    frame.index = IndexView(result, choice.sources, choice.loaded.name)
    _side_b(frame, choice, questions, top_k)
    shared_frame.first_floors(frame)
    if result is not None and frame.analyses["a"] is not None:
        frame.index = IndexView(dataclasses.replace(result, analysis=frame.analyses["a"]),
                                choice.sources, choice.loaded.name)
    return frame


def _side_b(frame: Frame, choice: IndexChoice, questions: list[LabelledQuestion],
            top_k: int) -> None:
    config = frame.configs["b"]
    if choice.sources is None:
        frame.notes["b"] = tr("idx.b_needs_sources")
        frame.configs["b"] = None
        return
    assert config is not None
    with shared_frame.refusing(frame, "b"):
        model = frame.models["b"]
        floor = floors.floor_of("b")
        found = shared_frame.memoised(choice.sources, config, model, questions, top_k, floor,
                                      "b")
        frame.analyses["b"] = found or shared_frame.run_analysis(
            choice.sources, config, model, questions, top_k, floor,
            chunk_document(choice.sources, config, model), side="b")


def index_analysis(choice: IndexChoice, model: Embedder, questions: list[LabelledQuestion],
                   top_k: int, floor: float) -> IndexAnalysis:
    """The index's analysis for these inputs: from the session's memo when only top_k or
    the floor moved, else scored on the stored vectors (re-embedding the chunk texts to
    check them, with a progress bar)."""
    key = ("index", choice.key, model.name, tuple(questions), scorer_name(), expand_of())
    memo: dict[Any, Any] = ss["_memo"]
    found: IndexAnalysis | None = memo.get(key)
    if found is None:
        slot = st.empty()
        with st.spinner(tr("app.embedding", config=choice.loaded.name)):
            found = analyse_index(choice.loaded, model, questions, choice.sources,
                                  retrieval(top_k, floor), shared_frame.embedding_progress(slot))
        slot.empty()
        memo[key] = found
    elif found.analysis.top_k != top_k or found.analysis.floor != floor:
        found = dataclasses.replace(found, analysis=rescore(
            found.analysis, shared_frame.moved(found.analysis, top_k, floor)))
        memo[key] = found
    return found


def top_notes(frame: Frame) -> None:
    """The sentences that change how every score reads, at the top of the page."""
    view: IndexView | None = frame.index
    if view is None or view.result is None:
        return
    for warning in view.result.warnings():
        if warning.key == "idx.no_sources":  # a choice, not a fault: a neutral line
            st.caption(tr("idx.no_sources_app"))
        else:
            st.error(md(render(warning, lang())))
