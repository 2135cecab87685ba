"""The sweep in the compare tab: chunkers (the peers installed among them), sizes and
overlaps typed or each chunker's steps, scorers as an axis; run in the background through
the CLI's path (``run_sweep``) with configurations done, the time left and Cancel; the
heatmap of the rows finished, the best one ready to load into A."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.chunking import ChunkerConfig
from ragviz.chunking.registry import get_spec, specs
from ragviz.chunking.sweep_grid import default_sweep_chunkers, sweepable
from ragviz.embedding.models import Embedder
from ragviz.evaluation.measures import metric_names
from ragviz.evaluation.results import RetrievalSettings, SweepResult, SweepRow
from ragviz.evaluation.sweep_cost import SweepCost, labelled_files, sweep_cost
from ragviz.evaluation.sweeping import (
    MAX_OVERLAPS,
    MAX_SIZES,
    StepReport,
    Stop,
    check_size,
    parse_numbers,
    run_sweep,
    sweep_grid,
    time_left_text,
)
from ragviz.i18n import KeyedError, grouped
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present import charts, presentation
from ragviz.present.sweep_words import step_text
from ragviz.retrieval.scorers import SCORERS, scorer_names
from ragviz_app import app_state as state
from ragviz_app.common import lang, retrieval, ss, tr
from ragviz_app.session import load_into_a
from ragviz_app.sweep_job import SweepJob

JOB_KEY = "_sweep_job"
RESULT_KEY = "sweep_result"  # (signature, result, rows planned); session.py drops it on change
POLL_SECONDS = 1.0
Plan = tuple[list[ChunkerConfig], tuple[str, ...]]


def sweep_view(document: str | Corpus, model: Embedder, questions: list[LabelledQuestion],
               top_k: int, floor: float) -> None:
    st.subheader(tr("app.sweep"))
    left, right = st.columns([1, 2])
    settings = retrieval(top_k, floor)
    plan = _controls(left, state.document_chars(document), settings.scorer)
    swept = _swept(left, document, questions)
    signature = (model.name, state.document_key(swept), tuple(questions), top_k, floor,
                 settings.scorer)
    _collect()
    job = ss.get(JOB_KEY)
    with left:
        if isinstance(job, SweepJob) and job.running:
            _poll(job)
        else:
            cost = None if plan is None else _cost(swept, model, plan)
            confirmed = cost is None or not cost.long or _confirm(cost)
            rows = 0 if plan is None else len(plan[0]) * max(1, len(plan[1]))
            st.button(tr("app.run_sweep", n=rows), key="run_sweep", type="primary",
                      disabled=plan is None or not confirmed, on_click=_start,
                      args=(swept, model, questions, settings, plan, signature))
    _result(right, signature)


def _swept(place: DeltaGenerator, document: str | Corpus,
           questions: list[LabelledQuestion]) -> str | Corpus:
    """The document the sweep runs on: a corpus of several files, or only the files its
    labelled answers are in (the smaller sweep a long one is offered)."""
    if not isinstance(document, Corpus) or not document.multi_file:
        return document
    labelled = labelled_files(document, questions)
    if len(labelled.sources) == len(document.sources):
        return document
    place.checkbox(tr("app.sweep_labelled_only", n=len(labelled.sources),
                      total=len(document.sources)), key="sweep_labelled_only")
    return labelled if ss.get("sweep_labelled_only") else document


COST_KEY = "_sweep_cost"  # (what it was measured for, the cost)


def _cost(document: str | Corpus, model: Embedder, plan: Plan) -> SweepCost:
    """What the sweep will cost, said before it starts (measured once per grid, document
    and model: chunking every configuration and timing one batch)."""
    grid, scorers = plan
    wanted = (model.name, state.document_key(document), tuple(grid), scorers)
    kept = ss.get(COST_KEY)
    if kept is None or kept[0] != wanted:
        with st.spinner(tr("app.sweep_estimating")):
            kept = (wanted, sweep_cost(document, grid, model, scorers))
        ss[COST_KEY] = kept
    cost: SweepCost = kept[1]
    language = lang()
    numbers = {"rows": grouped(cost.rows, language), "chunks": grouped(cost.chunks, language),
               "texts": grouped(cost.texts, language), "cached": grouped(cost.cached, language)}
    if cost.seconds is None:
        st.caption(tr("app.sweep_cost_unknown", **numbers))
    else:
        st.caption(tr("app.sweep_cost", time=time_left_text(cost.seconds), **numbers))
    return cost


def _confirm(cost: SweepCost) -> bool:
    """A sweep past ten minutes: what would make it shorter, and a box to run it anyway."""
    time = time_left_text(cost.seconds)
    st.warning(tr("app.sweep_long", time=time))
    return bool(st.checkbox(tr("app.sweep_confirm", time=time), key="sweep_confirm"))


def _chunker_choices() -> list[str]:
    """Every chunker a sweep can vary: ragviz's own, then the peers installed."""
    return [spec.name for spec in sorted(specs(), key=lambda s: (bool(s.library), s.order))
            if sweepable(spec.name)]


def _controls(place: DeltaGenerator, n_chars: int, scorer: str) -> Plan | None:
    """The sweep's fields; the grid and the scorer axis they name, or None with the one
    sentence that says what to change."""
    language = lang()
    place.selectbox(tr("app.sweep_metric"), metric_names(), key="sweep_metric",
                    format_func=lambda name: presentation.metric_label(name, language))
    default = default_sweep_chunkers()  # none picked: these (no preset value to lose)
    chunkers = place.multiselect(tr("app.sweep_chunkers"), _chunker_choices(),
                                 key="sweep_chunkers",
                                 format_func=lambda name: get_spec(name).title,
                                 placeholder=tr("app.sweep_chunkers_hint",
                                                names=", ".join(default)))
    sizes = place.text_input(tr("app.sweep_sizes"), key="sweep_sizes",
                             placeholder=tr("app.sweep_sizes_hint"),
                             help=tr("app.sweep_sizes_help", n=MAX_SIZES))
    overlaps = place.text_input(tr("app.sweep_overlaps"), key="sweep_overlaps",
                                placeholder=tr("app.sweep_overlaps_hint"),
                                help=tr("app.sweep_overlaps_help", n=MAX_OVERLAPS))
    scorers = place.multiselect(tr("app.sweep_scorers"), scorer_names(), key="sweep_scorers",
                                placeholder=tr("app.sweep_scorers_hint", scorer=scorer))
    try:
        grid = sweep_grid(n_chars, chunkers or default,
                          parse_numbers(sizes or "", tr("app.sweep_sizes"), MAX_SIZES),
                          parse_numbers(overlaps or "", tr("app.sweep_overlaps"), MAX_OVERLAPS))
        axis = tuple(scorers) if len(scorers) > 1 or (scorers and scorers[0] != scorer) else ()
        check_size(grid, axis)
    except KeyedError as error:
        place.error(error.localized(language))
        return None
    if axis:
        place.caption(tr("app.sweep_scorer_floor", scorer=scorer))
    return grid, axis


def _start(document: str | Corpus, model: Embedder, questions: Sequence[LabelledQuestion],
           settings: RetrievalSettings, plan: Plan | None, signature: Hashable) -> None:
    """Run's callback: the job started before the page is drawn (it then shows progress)."""
    if plan is None:
        return
    grid, scorers = plan

    def work(report: StepReport, stop: Stop) -> SweepResult:
        return run_sweep(document, questions, model, grid, settings, scorers, report, stop)

    ss.pop("sweep_error", None)
    ss[JOB_KEY] = SweepJob(signature, len(grid) * max(1, len(scorers))).start(work)


def _poll(job: SweepJob) -> None:
    """Configurations done, the time left and Cancel, redrawn every second; the page runs
    again once the job has ended (its rows are then collected)."""
    @st.fragment(run_every=POLL_SECONDS)
    def progress() -> None:
        if not job.running:
            st.rerun()
        step = job.step
        share = 0.0 if step is None else step.share
        text = tr("sweep.progress", done=0, total=job.total) if step is None \
            else step_text(step, lang())
        if job.cancelled:
            text += " · " + tr("app.sweep_stopping")
        st.progress(min(1.0, share), text=text)
        st.button(tr("app.sweep_cancel"), key="sweep_cancel", on_click=job.cancel,
                  disabled=job.cancelled)

    progress()


def _collect() -> None:
    """A job that has ended: its rows become the shown result (or its error is said)."""
    job = ss.get(JOB_KEY)
    if not isinstance(job, SweepJob) or job.running:
        return
    ss.pop(JOB_KEY)
    if job.error is not None:
        error = job.error
        ss["sweep_error"] = error.localized(lang()) if isinstance(error, KeyedError) \
            else tr("app.sweep_failed", error=type(error).__name__)
    elif job.result is not None:
        ss[RESULT_KEY] = (job.signature, job.result, job.total)


def _load_best(row: SweepRow) -> None:
    """The best row into A: its chunker settings, and its scorer on a scorer axis."""
    load_into_a(row.config)
    if row.scorer in SCORERS:
        ss["a_scorer"] = row.scorer


def _result(place: DeltaGenerator, signature: Hashable) -> None:
    """The best configuration, Load into A and the heatmap of the rows finished."""
    if ss.get("sweep_error"):
        place.error(ss["sweep_error"])
    stored = ss.get(RESULT_KEY)
    if stored is None or len(stored) != 3:
        place.caption(tr("app.sweep_hint"))
        return
    stored_signature, result, total = stored
    if stored_signature != signature:
        place.warning(tr("app.sweep_stale"))
    if not result.complete:
        place.info(tr("app.sweep_stopped", done=len(result.rows), total=total))
    if not result.rows:
        return
    metric, language = ss.sweep_metric, lang()
    best = result.best(metric)
    value = best.metrics.value(metric)
    config = presentation.config_text(best.config, language)
    place.markdown(tr("app.sweep_best", config=config + (f" · {best.scorer}" if best.scorer
                                                         else ""),
                      metric=presentation.metric_label(metric, language),
                      value=presentation.metric_text(metric, value, language)))
    place.button(tr("app.load_best"), key="load_best", on_click=_load_best, args=(best,))
    st.altair_chart(charts.localised(charts.sweep_heatmap(result, metric, language), language),
                    width="stretch")
