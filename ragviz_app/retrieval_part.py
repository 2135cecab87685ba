"""The part of the page a floor or top_k move redraws: one Streamlit fragment (issue 25).

Why a fragment: a full rerun sends every element of the page a new message, and the
browser's React renders each again. Profiling a floor step (docs/benchmarks.md, "Floor and
top_k steps in the browser") put ~0.25 s of renderer CPU in the frame above the tabs alone
(sidebar, configurations, sliders), more than the fourteen charts. A floor or top_k move
changes only what is computed from the stored decisions (``rescore``: nothing chunked,
nothing embedded), so only what shows it reruns, here:

- the retrieval controls (top_k, the floor or floors, the suggested floor, recalibrate);
- each configuration's summary (chunk count, hit@1, refusals, the metrics' tooltip);
- what the sidebar's downloads give (``workspace.share_state``: workspace, report and results
  carry the floor) and the page URL; the buttons themselves are drawn by full runs (a
  download button inside a fragment lost its deferred file);
- the open tab's view (every tab shows scores against the floor and top_k).

Outside it, drawn by full runs only: the sidebar's inputs, the configurations' widgets,
the tab bar and the question editor (its rows typed but not applied are never redrawn by a
fragment rerun, so nothing typed is lost). The fragment writes into containers the page
made for it (``Places``): Streamlit (1.59 on) clears and redraws a fragment's writes to
outside containers in place on each of its reruns, and (1.67, pyproject's floor) lets a
widget's callback name the fragment to rerun (``st.fragment(key=...)``, ``st.rerun(key)``).

A widget inside the fragment that changes an input of the analyses (a fix or the sweep's
best loaded into a configuration, an imported workspace) would leave the rest of the page
stale: the fragment then asks for a full rerun before drawing anything (``frame_inputs``).

Hook for a new tab (the Map tab): add its view to ``draw_tabs``; it runs inside the
fragment, with the frame rescored at the current top_k and floor.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.evaluation.pipeline import rescore
from ragviz.evaluation.results import Analysis
from ragviz_app import background, floors, question_owner
from ragviz_app import frame as shared_frame
from ragviz_app.common import SIDES, ss, tr
from ragviz_app.frame import RETRIEVAL_FRAGMENT, Frame
from ragviz_app.models import side_models
from ragviz_app.session import PERSISTENT, sync_url
from ragviz_app.views import (
    calibration,
    chunks,
    compare,
    index_views,
    map_view,
    questions,
    why,
    workspace,
)

# Session keys written by the fragment's own widgets: their changes are the fragment's to draw.
OWN_KEYS = frozenset({
    "top_k", floors.SHARED, floors.OWN_B, "cost_refusal", "cost_answer", "sweep_metric",
    "sweep_chunkers", "sweep_sizes", "sweep_overlaps", "sweep_scorers", "sweep_labelled_only",
    "why_question", "why_answer", "why_answerable", "why_side", "why_pick", "doc_file", "tab",
})
# What else the frame is computed from (the applied questions are compared by identity:
# every change replaces the table).
OTHER_INPUTS = ("lang", "walk_on", "active_model", "questions_base", question_owner.DOCUMENT,
                question_owner.OFFER,
                *(f"{side}_{name}" for side in SIDES for name in ("scorer", "rerank", "expand")))
INPUTS_KEY = "_frame_inputs"


@dataclass
class Places:
    """Where the fragment draws: containers the full run made, in the page's order."""

    controls: DeltaGenerator
    slots: dict[str, DeltaGenerator]
    tabs: dict[str, DeltaGenerator]
    is_open: dict[str, bool]
    n_chars: int


def frame_inputs() -> tuple[Any, ...]:
    """The session values the analyses depend on apart from top_k and the floors."""
    keys = [key for key in PERSISTENT if key not in OWN_KEYS] + list(OTHER_INPUTS)
    return (*(ss.get(key) for key in keys), *side_models().values())


def _same(before: tuple[Any, ...], now: tuple[Any, ...]) -> bool:
    """Equal plain values, the same object otherwise (a table replaced counts as changed)."""
    plain = (str, int, float, bool, tuple, type(None))
    return len(before) == len(now) and all(
        x is y or (isinstance(x, plain) and type(x) is type(y) and x == y)
        for x, y in zip(before, now, strict=True))


def retrieval_part(frame: Frame, places: Places) -> None:
    """Draw the fragment for a full run's frame (recorded as the inputs it was made from)."""
    ss[INPUTS_KEY] = frame_inputs()
    _fragment(frame, places)


@st.fragment(key=RETRIEVAL_FRAGMENT)
def _fragment(frame: Frame, places: Places) -> None:
    """Streamlit reruns this alone when one of its widgets moves; ``frame`` is then the last
    full run's, rescored here at the current top_k and floors."""
    if not _same(ss[INPUTS_KEY], frame_inputs()):
        st.rerun()  # an input of the analyses changed: the whole page must follow
    background.stop()  # the cache fill restarts after this run, as after any run
    frame = rescored(frame)
    shared_frame.retrieval_controls(places.controls, frame)
    shared_frame.config_summaries(places.slots, frame)
    sync_url(workspace.share_state(frame))
    draw_tabs(frame, places.tabs, places.is_open)
    background.after_run(frame.document, frame.models, frame.configs, places.n_chars)


def rescored(frame: Frame) -> Frame:
    """The frame at the current top_k and floors: each analysis rescored from its decisions
    (the memoised one when the session still holds it), nothing chunked or embedded."""
    top_k = int(ss.top_k)
    analyses: dict[str, Analysis | None] = {}
    for side in SIDES:
        current, config, floor = frame.analyses[side], frame.configs[side], floors.floor_of(side)
        if current is None or config is None or frame.document is None or (
                current.top_k == top_k and current.floor == floor):
            analyses[side] = current
            continue
        found = shared_frame.memoised(frame.document, config, frame.models[side],
                                      frame.questions, top_k, floor, side)
        analyses[side] = rescore(current, shared_frame.moved(current, top_k, floor)) \
            if found is None else found
    return replace(frame, analyses=analyses, top_k=top_k)


def draw_tabs(frame: Frame, tabs: dict[str, DeltaGenerator], is_open: dict[str, bool]) -> None:
    """The open tab's view (the document tab's under the place its early chunks were shown,
    emptied by then); without a document every tab but the questions says so."""
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
    if frame.index is not None:  # what only an index has, and B's what-if on its sources
        views = index_views.views(frame, views)
    for tab_id, view in views.items():  # the order the views were always drawn in
        if is_open[tab_id]:
            with tabs[tab_id]:
                view()
