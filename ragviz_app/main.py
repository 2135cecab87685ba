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

from ragviz_app import app_state as state
from ragviz_app import background, preview
from ragviz_app import frame as shared_frame
from ragviz_app.common import ss, tr
from ragviz_app.frame import Frame
from ragviz_app.models import load_models, preload_in_background
from ragviz_app.session import (
    TAB_IDS,
    init_state,
    keep_typed_questions,
    on_tab_change,
    persist,
    sync_url,
    tab_labels,
)
from ragviz_app.sidebar import sidebar
from ragviz_app.views import (
    calibration,
    chunks,
    compare,
    map_view,
    question_editor,
    questions,
    replay,
    why,
    workspace,
)

# Less empty space above the page and between elements (less on a short screen), and a
# smaller title, so the first screen reaches the first question's bars at 1024x768 (a
# projector, sidebar open) and 1280x800; labels of buttons and metrics wrap instead of
# being cut with an ellipsis on a small screen.
LAYOUT_CSS = """<style>
[data-testid="stMainBlockContainer"]{padding-top:clamp(.5rem,1.5vh,1.25rem);padding-bottom:2rem}
[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"]{gap:clamp(.25rem,.5vh,.45rem)}
[data-testid="stMetricValue"]{font-size:clamp(1.5rem,2.6vw,2rem)}
[data-testid="stMainBlockContainer"] h1{font-size:clamp(1.3rem,2.1vw,1.9rem);padding:0 0 .3rem}
[data-testid="stMainBlockContainer"] h4{font-size:clamp(1.05rem,1.6vw,1.25rem)}
.rv-bars-key{font-size:.85rem;row-gap:0}
[class*="st-key-config_head_"] h3{font-size:clamp(1.1rem,1.7vw,1.5rem);padding:.5rem 0 .6rem;
line-height:1.4}
[data-testid="stMetricLabel"] p{font-size:.85rem;line-height:1.25}
[data-testid="stMainBlockContainer"] h2{font-size:clamp(1.2rem,1.9vw,1.55rem);padding:.25rem 0}
[class*="st-key-config_head_"] [data-testid="stHorizontalBlock"]{flex-wrap:wrap;row-gap:.3rem}
[class*="st-key-config_head_"] [data-testid="stColumn"]{min-width:135px}
[data-testid="stMainBlockContainer"] h4{padding:.3rem 0 .35rem}
[data-testid="stSidebarHeader"]{height:2.5rem;margin-bottom:0}
[data-testid^="stBaseButton"] p,[data-testid^="stBaseButton"] div,
[data-testid="stMetricLabel"] p,[data-testid="stMetricLabel"] div,
[data-testid="stMetricLabel"] label{white-space:normal;overflow:visible;text-overflow:clip;
overflow-wrap:anywhere}
</style>"""


def main() -> None:
    """One run of the script: the frame, then only the open tab (the others are drawn
    when picked, so a slider answers fast)."""
    st.set_page_config(page_title="ragviz", layout="wide")
    st.html(LAYOUT_CSS)
    init_state()
    keep_typed_questions()  # before any callback-free redraw can drop the grid's edits
    persist()
    choice, wanted = sidebar()
    models = load_models(wanted)
    if ss.walk_on:
        replay.walkthrough_page(models["a"])
        return
    st.title(tr("app.title"), help=tr("app.subtitle"))  # a tooltip: the first screen is short

    controls = st.container()
    config_columns = st.columns(2, gap="large")
    tabs, is_open = open_tabs()
    checked = question_editor.edited_questions(tabs["questions"], is_open["questions"])
    document = choice.analysed  # the corpus when there are several files, else the text
    n_chars = state.document_chars(document) if document is not None else 1000
    configs = shared_frame.config_inputs(config_columns, n_chars)
    slots = shared_frame.summary_slots(config_columns)
    document_slot = tabs["chunks"].empty() if is_open["chunks"] else None
    early = (preview.chunks_first(document, configs, slots, document_slot)
             if document is not None else None)
    frame = shared_frame.compute(document, models, checked, configs, early)
    shared_frame.retrieval_controls(controls, frame)
    shared_frame.config_summaries(slots, frame)
    sync_url(workspace.share_panel(frame))
    draw_tabs(frame, tabs, is_open, document_slot)
    background.after_run(frame.document, frame.models, frame.configs, n_chars)
    preload_in_background()


def open_tabs() -> tuple[dict[str, DeltaGenerator], dict[str, bool]]:
    """The tabs by id, and which one is open (kept by id across language changes)."""
    labels = tab_labels()
    tabs = st.tabs(list(labels.values()), key="tab", on_change=on_tab_change,
                   default=labels[ss.get("tab_id", TAB_IDS[0])])
    is_open = {tab_id: tab.open is not False for tab_id, tab in zip(TAB_IDS, tabs, strict=True)}
    return dict(zip(TAB_IDS, tabs, strict=True)), is_open


def draw_tabs(frame: Frame, tabs: dict[str, DeltaGenerator], is_open: dict[str, bool],
              document_slot: DeltaGenerator | None = None) -> None:
    """The open tab's view (the document tab into the place its early chunks were shown,
    so they are replaced, not repeated); without a document every tab but the questions
    says so."""
    document = frame.document
    if document is None:
        for tab_id in ("chunks", "calibration", "compare", "why", "map"):
            with tabs[tab_id]:
                st.info(tr("app.need_document"))
        return
    views: dict[str, Callable[[], None]] = {
        "chunks": lambda: chunks.chunks_tab(frame),
        "questions": lambda: questions.questions_tab(frame),
        "calibration": lambda: calibration.calibration_tab(frame),
        "compare": lambda: compare.compare_tab(frame, document),
        "why": lambda: why.why_tab(frame, document),
        "map": lambda: map_view.map_tab(frame),
    }
    for tab_id, view in views.items():  # the order the views were always drawn in
        if is_open[tab_id]:
            in_slot = tab_id == "chunks" and document_slot is not None
            with document_slot.container() if in_slot and document_slot else tabs[tab_id]:
                view()
