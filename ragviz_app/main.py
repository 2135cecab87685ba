"""The explorer's page: the shared frame (sidebar, configurations A and B, top_k and floor,
the two analyses), then the open tab's view; what a floor or top_k move changes is one
fragment that such a move reruns alone (``retrieval_part``).

A first visit replays the article: its policy text and seven labelled questions, fixed
120-character chunks (A) against sentence chunks with one sentence of overlap (B), and
the floor measured from the labels of B.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.embedding.api_common import api_budget, budget_seconds
from ragviz.embedding.models import Embedder
from ragviz.inputs.questions import LabelledQuestion
from ragviz_app import app_state as state
from ragviz_app import frame as shared_frame
from ragviz_app import heap, index_frame, index_source, preview, question_owner
from ragviz_app.common import ss, tr
from ragviz_app.frame import Frame
from ragviz_app.models import load_models, loaded_keys, preload_in_background
from ragviz_app.retrieval_part import Places, draw_tabs, retrieval_part
from ragviz_app.session import (
    TAB_IDS,
    init_state,
    keep_typed_questions,
    on_tab_change,
    persist,
    rebind_on_language_change,
    remount,
    sync_url,
    tab_labels,
)
from ragviz_app.sidebar import sidebar
from ragviz_app.views import check_answer, question_editor, replay, workspace

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
.st-key-doc_upload [data-testid="stFileUploaderDropzoneInstructions"],
.st-key-workspace_upload [data-testid="stFileUploaderDropzoneInstructions"],
.st-key-questions_upload [data-testid="stFileUploaderDropzoneInstructions"],
.st-key-index_upload [data-testid="stFileUploaderDropzoneInstructions"],
.st-key-index_sources [data-testid="stFileUploaderDropzoneInstructions"]{display:none}
[class*="st-key-typed_"] [data-testid^="stNumberInputStep"]{display:none}
[class*="st-key-config_head_"] h3{white-space:nowrap}
[class*="st-key-typed_"] input{padding:0 .35rem}
[class*="st-key-typed_label_"] [data-testid="stHorizontalBlock"]{flex-wrap:wrap;row-gap:.2rem}
[class*="st-key-typed_label_"] [data-testid="stColumn"]{flex:1 1 4.5rem;min-width:4.5rem}
[class*="st-key-typed_label_"] [data-testid="stColumn"]:last-child{flex:0 0 3.9rem;min-width:3.9rem}
[class*="st-key-typed_"] [data-testid="stNumberInputContainer"]{height:2rem}
[class*="st-key-typed_label_"] [data-testid="stCaptionContainer"],
[class*="st-key-typed_label_"] [data-testid="stCaptionContainer"] p{color:inherit;font-size:.875rem}
</style>"""


def uploader_words_css(word: str) -> str:
    """Streamlit writes "Upload" on every file uploader's button whatever the page's
    language, with no setting to change it: the word is drawn from the catalog instead
    (the button's accessible name too). The file list under it (names, sizes in
    Streamlit's "1.2KB") and the browser's file dialog (the system's language) stay as
    they are: nothing of ours reaches them."""
    quoted = json.dumps(word).replace("<", "\\3c ")  # a CSS string that cannot end the style
    return ("<style>[data-testid=\"stFileUploaderDropzone\"] button "
            "[data-testid=\"stMarkdownContainer\"] p{display:none}"
            "[data-testid=\"stFileUploaderDropzone\"] button "
            f"[data-testid=\"stMarkdownContainer\"]::after{{content:{quoted}}}</style>")


def main() -> None:
    """One run of the script: the page, then the libraries and the models loaded so far
    taken out of the garbage collector's full passes (``heap``: a step waited for them).
    The run's requests to an embedding API share one budget (``RAGVIZ_API_BUDGET``, the
    CLI's default), so a slow but alive API ends the run with one sentence."""
    try:
        with api_budget(budget_seconds()):
            draw_page()
    except Exception:  # an error on the page: the inputs it did not draw are kept all the same
        persist()
        raise
    persist()  # after drawing: a run never sends a widget back the value it started with
    heap.settle(loaded_keys())


def draw_page() -> None:
    """The frame, then only the open tab (the others are drawn when picked, so a slider
    answers fast)."""
    st.set_page_config(page_title="ragviz", layout="wide")
    st.html(LAYOUT_CSS)
    init_state()
    st.html(uploader_words_css(tr("app.upload_button")))  # in the page's language
    rebind_on_language_change()  # translated radios and selects are new widgets
    remount()  # the widgets the last run left out come back with their values
    keep_typed_questions()  # before any callback-free redraw can drop the grid's edits
    choice, wanted = sidebar()
    models = load_models(wanted)
    if ss.walk_on:
        replay.walkthrough_page(models["a"])
        return
    st.title(tr("app.title"), help=tr("app.subtitle"))  # a tooltip: the first screen is short
    document = choice.analysed  # the corpus when there are several files, else the text
    # a new document (or index) under another's questions: keep or clear them, asked at the
    # top; until then they wait outside the frame (issue 45): not scored, their queries not
    # embedded, and a large document's chunks not embedded either (``frame.compute``)
    asking = question_editor.document_notice(
        document if choice.index is None else index_source.questions_owner(choice.index))
    # a support ticket (issue 45), typed in the sidebar's "Check an answer", explained here
    # once the frame is computed
    check_box = check_answer.place()

    controls = st.container()
    config_columns = st.columns(2, gap="large")
    tabs, is_open = open_tabs()
    checked = question_editor.edited_questions(tabs["questions"], is_open["questions"],
                                               document)
    waiting: list[LabelledQuestion] = []
    if asking:  # only the questions labelled on the new document meanwhile are scored
        checked, waiting = question_owner.split(checked)
    n_chars = state.document_chars(document) if document is not None else 1000
    if choice.index is not None:  # a production index: A is the index, B the what-if
        check_answer.results(check_box, index_page(choice, models, checked, config_columns,
                                                   controls, tabs, is_open))
        return
    configs = shared_frame.config_inputs(config_columns, n_chars)
    slots = shared_frame.summary_slots(config_columns)
    # The early chunks of a re-cut side go into places of their own, emptied once the scores
    # are back: a container written both by the page and by the fragment within one run
    # (an st.empty the preview filled, then the fragment) blanked the browser's page.
    early_slots = {side: slot.empty() for side, slot in slots.items()}
    document_slot = tabs["chunks"].empty() if is_open["chunks"] else None
    early = (preview.chunks_first(document, configs, early_slots, document_slot)
             if document is not None else None)
    frame = shared_frame.compute(document, models, checked, configs, early, asking)
    frame.waiting = waiting  # carried by the workspace and the link, never lost
    check_answer.results(check_box, frame)
    for place in (*early_slots.values(), document_slot):
        if place is not None:
            place.empty()
    # everything a floor or top_k move changes, as one fragment: such a move reruns it alone
    retrieval_part(frame, Places(controls, slots, tabs, is_open, n_chars))
    workspace.share_panel(frame)  # after the fragment: its downloads read what it recorded
    preload_in_background()


def index_page(choice: state.DocumentChoice, models: dict[str, Embedder],
               checked: list[LabelledQuestion], columns: Sequence[DeltaGenerator],
               controls: DeltaGenerator, tabs: dict[str, DeltaGenerator],
               is_open: dict[str, bool]) -> Frame:
    """The page on a production index: no early chunk preview and no background fill (A's
    chunks are production's, not a slider's)."""
    configs = index_frame.config_inputs(columns, choice.index)
    slots = shared_frame.summary_slots(columns)
    frame = index_frame.compute(choice.index, models, checked, configs)
    with controls:
        index_frame.top_notes(frame)
    shared_frame.retrieval_controls(controls, frame)
    shared_frame.config_summaries(slots, frame)
    sync_url(workspace.share_state(frame))
    workspace.share_panel(frame)
    draw_tabs(frame, tabs, is_open)
    return frame


def open_tabs() -> tuple[dict[str, DeltaGenerator], dict[str, bool]]:
    """The tabs by id, and which one is open (kept by id across language changes)."""
    labels = tab_labels()
    tabs = st.tabs(list(labels.values()), key="tab", on_change=on_tab_change,
                   default=labels[ss.get("tab_id", TAB_IDS[0])])
    is_open = {tab_id: tab.open is not False for tab_id, tab in zip(TAB_IDS, tabs, strict=True)}
    return dict(zip(TAB_IDS, tabs, strict=True)), is_open
