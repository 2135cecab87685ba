"""The explorer's page: the shared frame (sidebar, configurations A and B, top_k and floor,
the two analyses), then the open tab's view.

A first visit replays the article: its policy text and seven labelled questions, fixed
120-character chunks (A) against sentence chunks with one sentence of overlap (B), and
the floor measured from the labels of B.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz import app_state as state
from ragviz_app import frame as shared_frame
from ragviz_app.common import ss, tr
from ragviz_app.frame import Frame
from ragviz_app.session import TAB_IDS, init_state, on_tab_change, persist, sync_url, tab_labels
from ragviz_app.sidebar import sidebar
from ragviz_app.views import calibration, chunks, compare, questions, replay, why, workspace


def main() -> None:
    """One run of the script: the frame, then only the open tab (the others are drawn
    when picked, so a slider answers fast)."""
    st.set_page_config(page_title="ragviz", layout="wide")
    init_state()
    persist()
    choice, model = sidebar()
    if ss.walk_on:
        replay.walkthrough_page(model)
        return
    st.title(tr("app.title"))
    st.caption(tr("app.subtitle"))

    controls = st.container()
    config_columns = st.columns(2, gap="large")
    tabs, is_open = open_tabs()
    checked = questions.edited_questions(tabs["questions"], is_open["questions"])
    document = choice.analysed
    n_chars = state.document_chars(document) if document is not None else 1000
    configs = shared_frame.config_inputs(config_columns, n_chars)
    frame = shared_frame.compute(document, model, checked, configs)
    shared_frame.retrieval_controls(controls, frame)
    shared_frame.config_summaries(config_columns, frame)
    sync_url(workspace.share_panel(frame))
    draw_tabs(frame, tabs, is_open)


def open_tabs() -> tuple[dict[str, DeltaGenerator], dict[str, bool]]:
    """The tabs by id, and which one is open (kept by id across language changes)."""
    labels = tab_labels()
    tabs = st.tabs(list(labels.values()), key="tab", on_change=on_tab_change,
                   default=labels[ss.get("tab_id", TAB_IDS[0])])
    is_open = {tab_id: tab.open is not False for tab_id, tab in zip(TAB_IDS, tabs, strict=True)}
    return dict(zip(TAB_IDS, tabs, strict=True)), is_open


def draw_tabs(frame: Frame, tabs: dict[str, DeltaGenerator], is_open: dict[str, bool]) -> None:
    """The open tab's view; without a document every tab but the questions says so."""
    document = frame.document
    if document is None:
        for tab_id in ("chunks", "calibration", "compare", "why"):
            with tabs[tab_id]:
                st.info(tr("app.need_document"))
        return
    views: dict[str, Callable[[], None]] = {
        "chunks": lambda: chunks.chunks_tab(frame),
        "questions": lambda: questions.questions_tab(frame),
        "calibration": lambda: calibration.calibration_tab(frame),
        "compare": lambda: compare.compare_tab(frame, document),
        "why": lambda: why.why_tab(frame, document),
    }
    for tab_id, view in views.items():  # the order the views were always drawn in
        if is_open[tab_id]:
            with tabs[tab_id]:
                view()
