"""The guided replay of the article: one step on screen, large text, the one view it talks
about, and buttons to move on. It reads the seed sample itself and leaves the user's work
alone."""

from __future__ import annotations

import altair as alt
import pandas as pd
import streamlit as st

from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import rescore
from ragviz.evaluation.results import Analysis, RetrievalSettings
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present import charts, presentation, render
from ragviz.projection import planar
from ragviz.share.samples import get_sample
from ragviz_app import app_state as state
from ragviz_app import walkthrough
from ragviz_app.common import lang, md, ss, tr
from ragviz_app.frame import run_analysis
from ragviz_app.session import on_sample_change, set_config, tab_labels
from ragviz_app.views import map_view
from ragviz_app.views.questions import question_view

REPLAY_STRIP_HEIGHT = 220  # px: step 5's dots and labels read from the back of a room


def walkthrough_page(model: Embedder) -> None:
    """The current step: its banner, the navigation, its settings and its one view."""
    sample = get_sample(walkthrough.SAMPLE)
    document, questions = sample.document(), sample.questions()
    step_index = min(max(int(ss.get("walk_step", 0)), 0), len(walkthrough.STEPS) - 1)
    step = walkthrough.STEPS[step_index]
    base = {name: run_analysis(document, config, model, questions, step.top_k, 0.0)
            for name, config in (("fixed", walkthrough.FIXED), ("sentence", walkthrough.SENTENCE))}
    scores = [x for a in base.values() for o in a.outcomes for x in o.decision.scores.tolist()]
    floor = state.floor_range(scores)[0]
    calibration = base["sentence"].calibration
    if step.floor == "calibrated" and calibration is not None:
        floor = state.slider_floor(calibration.floor)
    fixed = rescore(base["fixed"], RetrievalSettings(step.top_k, floor))
    sentence = rescore(base["sentence"], RetrievalSettings(step.top_k, floor))
    values = walkthrough.step_values(fixed, sentence, lang())
    shown = fixed if step.config == walkthrough.FIXED else sentence

    _keep_step_in_url(step_index)
    st.html(render.walkthrough_banner(
        tr("walk.progress", n=step_index + 1, total=len(walkthrough.STEPS)),
        step.title(lang()), step.body(lang(), values)))
    _navigation(step_index, step, floor)
    floor_text = presentation.decimal(floor, 2, lang())
    if step.floor == "none":  # the floor the question views use, said to be no real floor
        floor_text = tr("walk.no_floor", floor=floor_text)
    st.caption(tr("walk.settings", config=presentation.config_text(shown.config, lang()),
                  k=step.top_k,
                  floor=floor_text, model=model.name))
    if step.section == "map":  # both configurations in one space: fixed ●, sentence ■
        map_view.draw_space(model, [("a", fixed), ("b", sentence)], None, planar.PCA,
                            "config", step.question, "walk_map", large=True)
        _distance_strip(fixed, sentence)
        return
    _step_view(step, document, questions, shown, fixed is shown, floor)


# A presentation clicker sends PageDown/PageUp (or the arrow keys): they press Next/Back.
# Keys typed into a field, a slider or a select keep their own meaning; outside the replay
# the buttons do not exist and the listener does nothing.
STEP_KEYS_JS = """<script>
(() => {
  const keys = {ArrowRight: "walk_next", PageDown: "walk_next",
                ArrowLeft: "walk_back", PageUp: "walk_back"};
  const own = 'input, textarea, select, [contenteditable="true"], [role="slider"]';
  if (window.__rvWalkKeys) document.removeEventListener("keydown", window.__rvWalkKeys);
  window.__rvWalkKeys = (event) => {
    const key = keys[event.key];
    if (!key || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target instanceof Element && event.target.closest(own)) return;
    const button = document.querySelector(`.st-key-${key} button`);
    if (!button) return;
    event.preventDefault();
    if (!button.disabled) button.click();
  };
  document.addEventListener("keydown", window.__rvWalkKeys);
})();
</script>"""


def _keep_step_in_url(step_index: int) -> None:
    """The open step rides in the URL (``?walk=3``) next to the other parameters, so a
    link reopens it; the clicker keys are hooked once per page."""
    query = st.query_params.to_dict()
    wanted = walkthrough.step_query(query, step_index)
    if wanted != query:
        st.query_params.from_dict(wanted)
    st.html(STEP_KEYS_JS, unsafe_allow_javascript=True)


def _navigation(step_index: int, step: walkthrough.Step, floor: float) -> None:
    row = st.container(horizontal=True)  # buttons as wide as their labels: none is cut
    row.button(tr("walk.back"), key="walk_back", on_click=_walk_to, args=(step_index - 1,),
               disabled=step_index == 0)
    row.button(tr("walk.next"), key="walk_next", on_click=_walk_to, args=(step_index + 1,),
               disabled=step_index == len(walkthrough.STEPS) - 1, type="primary")
    row.button(tr("walk.exit"), key="walk_exit", on_click=_walk_exit)
    row.button(tr("walk.explore"), key="walk_explore", on_click=_walk_explore,
               args=(step, floor), help=tr("walk.explore_help"))


def _step_view(step: walkthrough.Step, document: str, questions: list[LabelledQuestion],
               shown: Analysis, shown_is_fixed: bool, floor: float) -> None:
    """The one view the step talks about: the document, the calibration or a question."""
    if step.section == "document":
        st.html(render.legend(lang()))
        st.html(render.highlight_document(document, shown.chunks, shown.truncation, True,
                                          shown.chunk_tokens, lang()))
    elif step.section == "calibration" and shown.calibration is not None:
        labelled = [o for o in shown.outcomes if o.question.is_answerable is not None]
        strip = charts.calibration_strip(shown.calibration, labelled, floor, lang())
        # projector size: the explorer's 60 px strip with 10 px labels is unreadable there
        st.altair_chart(charts.localised(
            strip.properties(height=REPLAY_STRIP_HEIGHT)
            .configure_axis(labelFontSize=18, titleFontSize=18, labelLimit=260)
            .configure_text(fontSize=18), lang()), width="stretch")
    elif step.question is not None:
        st.markdown(f"### {md(questions[step.question].question)}")
        question_view(shown, step.question, "a" if shown_is_fixed else "b",
                      show_floor=step.floor == "calibrated", large=True)


def _distance_strip(fixed: Analysis, sentence: Analysis) -> None:
    """The map step's distances in the model's own space, on an axis zoomed on them: the
    text's 0.552 and 0.566 drawn apart (the map only approximates that space)."""
    found = walkthrough.map_distances(fixed, sentence)
    if not found:
        return
    holds, nearest = tr("walk.map.holds"), tr("walk.map.nearest")
    rows = pd.DataFrame([{
        "config": tr(f"walk.map.config_{d.config}"), "distance": d.distance,
        "role": holds if d.holds else nearest,
        "label": f"{d.chunk} · {presentation.decimal(d.distance, 3, lang())}"} for d in found])
    domain = walkthrough.distance_domain([d.distance for d in found])
    base = alt.Chart(rows).encode(
        x=alt.X("distance:Q", title=tr("walk.map.distance_axis"),
                scale=alt.Scale(domain=list(domain), zero=False)),
        y=alt.Y("config:N", title=None, sort=None))
    points = base.mark_point(filled=True, size=500, opacity=1).encode(
        shape=alt.Shape("config:N", legend=None, scale=alt.Scale(range=["circle", "square"])),
        color=alt.Color("role:N", legend=alt.Legend(title=None, orient="top"),
                        scale=alt.Scale(domain=[holds, nearest],
                                        range=["#16a34a", "#6b7280"])))
    text = base.mark_text(dy=-24).encode(text="label:N")
    chart = (points + text).properties(height=REPLAY_STRIP_HEIGHT)
    st.altair_chart(charts.localised(
        chart.configure_axis(labelFontSize=18, titleFontSize=18, labelLimit=260)
        .configure_legend(labelFontSize=18).configure_text(fontSize=18), lang()),
        width="stretch")


def _walk_to(index: int) -> None:
    ss.walk_step = min(max(index, 0), len(walkthrough.STEPS) - 1)


def _walk_exit() -> None:
    ss.walk_on = False


def _walk_explore(step: walkthrough.Step, floor: float) -> None:
    """Leave the replay with the explorer set as the step: the article's sample, A fixed,
    B sentence, the step's top_k and floor, and the tab it talks about."""
    ss.doc_source = "sample"
    ss.sample_name = walkthrough.SAMPLE
    on_sample_change()
    set_config("a", walkthrough.FIXED)
    set_config("b", walkthrough.SENTENCE)
    ss.top_k = step.top_k
    ss.floor = state.slider_floor(floor)
    ss.tab = tab_labels()["chunks" if step.section == "document" else step.section]
    ss.walk_on = False
