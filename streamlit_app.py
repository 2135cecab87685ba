"""ragviz explorer: the page layout and its widgets; every computation lives in ``ragviz``.

A first visit replays the article: its policy text and seven labelled questions, fixed
120-character chunks (A) against sentence chunks with one sentence of overlap (B), and
the floor measured from the labels of B. All input lives in ``st.session_state`` under
stable keys, so nothing typed is lost on reruns, model switches or errors.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator
from typing import Any

import pandas as pd
import streamlit as st

from ragviz import app_state as state
from ragviz import charts, links, render, walkthrough
from ragviz.analysis import Analysis, analyse, compare, default_grid, rescore, sweep, why_failed
from ragviz.calibration import Calibration, calibrate_outcomes, format_score
from ragviz.chunking.base import CHUNKER_NAMES, ChunkerConfig
from ragviz.documents import MAX_DOCUMENT_CHARS, MAX_UPLOAD_BYTES, InputError
from ragviz.embedders import BUNDLED_MODELS, DEFAULT_MODEL, Embedder, ModelLoadError, load_embedder
from ragviz.evaluation import METRIC_NAMES, Metrics, SweepResult
from ragviz.exports import chunks_csv, results_csv
from ragviz.i18n import LANGUAGE_NAMES, LANGUAGES, pick_language, t
from ragviz.limits import TOP_K_RANGE
from ragviz.questions import LabelledQuestion
from ragviz.report import render_report
from ragviz.retrieval import describe_decision
from ragviz.samples import get_sample, load_samples
from ragviz.workspace import Settings, Workspace

SIDES = ("a", "b")
DEFAULTS = {"a": state.DEFAULT_A, "b": state.DEFAULT_B}
CUSTOM = "custom"
PROGRESS_AFTER = 16  # texts to embed before a progress bar is worth showing (~1 s)
MEMO_SIZE = 8

st.set_page_config(page_title="ragviz", layout="wide")
ss = st.session_state


def lang() -> str:
    value = ss.get("lang", "en")
    return value if value in LANGUAGES else "en"


# Widget formatters bind the language when they are made: Streamlit may call a formatter
# outside the run that made it, when session state is not at hand.
def translated(prefix: str) -> Callable[[str], str]:
    language = lang()
    return lambda value: t(f"{prefix}{value}", language)


def sample_titles(samples: dict[str, Any]) -> Callable[[str], str]:
    language = lang()
    return lambda name: str(samples[name].title(language))


def model_names() -> Callable[[str], str]:
    custom = tr("app.model_custom")
    return lambda name: custom if name == CUSTOM else name


def tr(key: str, **values: object) -> str:
    return t(key, lang(), **values)


@st.cache_resource(show_spinner=False, max_entries=4)
def get_model(name: str) -> Embedder:
    """One model object per server; embeddings are shared through its cache."""
    return load_embedder(name)


# --- state --------------------------------------------------------------------------


def init_state() -> None:
    """Defaults for every input, set once per session: the article's experiment."""
    if ss.get("_ready"):
        return
    text, questions = state.load_sample(state.DEFAULT_SAMPLE)
    ss.lang = pick_language(st.context.locale)
    ss.doc_source = "sample"
    ss.sample_name = state.DEFAULT_SAMPLE
    ss.doc_paste = text
    ss.questions_base = state.questions_frame(questions)
    ss.model_choice = DEFAULT_MODEL
    ss.model_custom = ""
    ss.active_model = DEFAULT_MODEL
    ss.top_k = state.DEFAULT_TOP_K
    ss.cost_refusal = 1.0
    ss.cost_answer = 1.0
    ss.sweep_metric = "hit_at_1"
    ss.why_question = questions[0].question if questions else ""
    ss.why_answer = questions[0].answer if questions else ""
    ss.why_answerable = True
    ss.why_side = "a"
    for side, config in DEFAULTS.items():
        set_config(side, config)
    ss.walk_on = False
    ss.walk_step = 0
    ss["_memo"] = {}
    ss["_ready"] = True
    apply_query(st.query_params.to_dict())


def apply_query(query: dict[str, str]) -> None:
    """Open the view a shared link describes (sample, chunkers, parameters, top_k, floor,
    model, language); values that make no sense are skipped and named once."""
    if not query:
        return
    work, refused = links.work_from_query(query)
    if work is not None:
        use_workspace(work)
        ss["_link_restored"] = links.restored_summary(work, ss.doc_source == "paste", lang())
    settings, problems = links.import_query(query, current_settings())
    if refused:
        problems.insert(0, tr("link.refused", error=refused))
    if settings.sample and settings.sample != ss.sample_name:
        try:
            get_sample(settings.sample)
            ss.sample_name = settings.sample
            on_sample_change()
        except (KeyError, ValueError):
            problems.append(f"sample={settings.sample!r} is not a sample")
    apply_settings(settings, with_sample=False)
    if "floor" not in query:
        del ss.floor  # no floor in the link: measure it from the labels, as on a first visit
    ss["_url_problems"] = problems


def current_settings() -> Settings:
    """The settings the widgets hold now (configurations as their widgets define them)."""
    configs = {side: state.config_from_values(ss[f"{side}_chunker"], _side_values(side), 10**9)
               for side in SIDES}
    return Settings(
        config_a=configs["a"], config_b=configs["b"], top_k=int(ss.top_k),
        floor=float(ss.get("floor", 0.0)), model=ss.active_model, language=lang(),
        sample=ss.sample_name if ss.doc_source == "sample" else None,
    )


def _side_values(side: str) -> dict[str, Any]:
    names = ("size", "overlap", "max_chars", "overlap_sentences", "threshold", "percentile",
             "mode")
    return {name: ss.get(f"{side}_{name}") for name in names if f"{side}_{name}" in ss}


def apply_settings(settings: Settings, with_sample: bool = True) -> None:
    """Put settings (from a link or a workspace) into the widgets."""
    set_config("a", settings.config_a)
    set_config("b", settings.config_b)
    ss.top_k = settings.top_k
    ss.floor = state.slider_floor(settings.floor)
    ss.lang = settings.language
    if settings.model in BUNDLED_MODELS:
        ss.model_choice = settings.model
    else:
        ss.model_choice = CUSTOM
        ss.model_custom = settings.model
    if with_sample and settings.sample:
        ss.sample_name = settings.sample


def set_config(side: str, config: ChunkerConfig) -> None:
    """Put a configuration into side A or B's widgets (also used by "load into A")."""
    ss[f"{side}_chunker"] = config.chunker
    for name in ("size", "overlap", "max_chars", "overlap_sentences"):
        ss[f"{side}_{name}"] = getattr(config, name)
    ss[f"{side}_mode"] = "threshold" if config.threshold is not None else "percentile"
    ss[f"{side}_threshold"] = config.threshold if config.threshold is not None else 0.5
    ss[f"{side}_percentile"] = config.percentile if config.percentile is not None else 25.0


def on_sample_change() -> None:
    """A new sample brings its own text (also into the paste box), its questions, and the
    two configurations (and model) its demonstration compares."""
    sample = get_sample(ss.sample_name)
    ss.doc_paste = sample.document()
    set_questions(sample.questions())
    ss.pop("sweep_result", None)
    config_a, config_b = sample.configs()
    set_config("a", config_a)
    set_config("b", config_b)
    if sample.model in BUNDLED_MODELS:
        ss.model_choice = sample.model


def on_workspace_upload() -> None:
    """Replace document, questions and settings with an imported workspace, or say why not."""
    file = ss.get("workspace_upload")
    if file is None:
        return
    try:
        workspace = links.read_workspace(file.getvalue())
    except InputError as error:
        ss["_workspace_error"] = str(error)
        return
    ss.pop("_workspace_error", None)
    use_workspace(workspace)
    ss["_workspace_loaded"] = True


def use_workspace(workspace: Workspace) -> None:
    """Put an imported workspace (a file or a link's) into the page."""
    apply_settings(workspace.settings, with_sample=False)
    sample = _matching_sample(workspace)
    if sample is not None:
        ss.doc_source = "sample"
        ss.sample_name = sample
    else:
        ss.doc_source = "paste"
    ss.doc_paste = workspace.document
    set_questions(list(workspace.questions))
    ss.pop("sweep_result", None)


def _matching_sample(workspace: Workspace) -> str | None:
    name = workspace.settings.sample
    if not name:
        return None
    try:
        return name if get_sample(name).document() == workspace.document else None
    except (KeyError, ValueError):
        return None


# The first tab is the article's experiment: every question's bars, floor and outcome.
TAB_IDS = ("questions", "chunks", "calibration", "compare", "why")


def tab_labels() -> dict[str, str]:
    return {tab_id: tr(f"tab.{tab_id}") for tab_id in TAB_IDS}


def on_tab_change() -> None:
    """Remember the open tab by id, so it stays open when the language changes."""
    for tab_id, label in tab_labels().items():
        if ss.get("tab") == label:
            ss.tab_id = tab_id


def set_questions(questions: list[LabelledQuestion]) -> None:
    """Replace the question table (sample, workspace) and drop any pending edits."""
    ss.questions_base = state.questions_frame(questions)
    ss.pop("questions_editor", None)
    ss.pop("_questions_now", None)


def fold_question_edits() -> None:
    """Make the edited questions the table's base. Called whenever the editor is not drawn
    (another tab, the replay): its pending edits would otherwise be dropped."""
    if "_questions_now" in ss:
        set_questions(ss["_questions_now"])


def start_walkthrough() -> None:
    ss.walk_step = 0
    fold_question_edits()


PERSISTENT = (
    "doc_paste", "model_custom", "top_k", "floor", "doc_source", "sample_name", "model_choice",
    "tab",
    "cost_refusal", "cost_answer", "sweep_metric",
    "why_question", "why_answer", "why_answerable", "why_side",
    *(f"{side}_{name}" for side in SIDES for name in (
        "chunker", "size", "overlap", "max_chars", "overlap_sentences", "threshold",
        "percentile", "mode")),
)


def persist() -> None:
    """Re-bind every input to itself, so a widget hidden in this run (another document
    source, another chunker) keeps what the user typed instead of being reset."""
    for key in PERSISTENT:
        if key in ss:
            ss[key] = ss[key]


def set_floor(value: float) -> None:
    ss.floor = state.slider_floor(value)


def load_into_a(config: ChunkerConfig) -> None:
    set_config("a", config)


# --- sidebar: document, model, language -------------------------------------------------


def sidebar() -> tuple[state.DocumentChoice, Embedder]:
    with st.sidebar:
        st.title("ragviz")
        st.selectbox(
            tr("app.language"), LANGUAGES, key="lang", format_func=lambda c: LANGUAGE_NAMES[c]
        )
        st.toggle(tr("walk.toggle"), key="walk_on", on_change=start_walkthrough,
                  help=tr("walk.toggle_help"))
        if "_link_restored" in ss:
            st.success(ss.pop("_link_restored"))  # numbers only, no user text
        for problem in ss.pop("_url_problems", []):
            st.warning(tr("app.url_problem", problem=_md(problem)))
        st.subheader(tr("app.document"))
        st.radio(
            tr("app.source"),
            ("sample", "paste", "upload"),
            key="doc_source",
            format_func=translated("app.source_"),
            horizontal=True,
        )
        sample_text = ""
        upload: tuple[str, bytes] | None = None
        if ss.doc_source == "sample":
            samples = {sample.name: sample for sample in load_samples()}
            st.selectbox(
                tr("app.sample"), list(samples), key="sample_name",
                on_change=on_sample_change, format_func=sample_titles(samples),
            )
            picked = samples[ss.sample_name]
            st.caption(picked.demonstrates(lang()))
            sample_text = picked.document()
        elif ss.doc_source == "paste":
            st.text_area(
                tr("app.paste"), key="doc_paste", height=260,
                help=tr("app.paste_help", limit=f"{MAX_DOCUMENT_CHARS:,}"),
            )
        else:
            file = st.file_uploader(
                tr("app.upload"), type=["txt", "md"], key="doc_upload",
                help=tr("app.upload_help", limit=f"{MAX_UPLOAD_BYTES // 1000:,}"),
            )
            if file is not None:
                upload = (file.name, file.getvalue())
        choice = state.resolve_document(ss.doc_source, sample_text, ss.get("doc_paste", ""), upload,
                                        lang())
        if choice.error == "no-upload":
            st.info(tr("app.upload_wait"))
        elif choice.error:
            st.error(_md(choice.error))
        if choice.notice:
            st.warning(tr("app.encoding_guessed", encoding=_md(choice.notice)))
        if choice.text is not None:
            st.caption(tr("app.doc_size", n=f"{len(choice.text):,}"))

        st.subheader(tr("app.model"))
        options = (*BUNDLED_MODELS, CUSTOM)
        st.radio(
            tr("app.model"), options, key="model_choice", label_visibility="collapsed",
            format_func=model_names(),
            captions=[*(tr(f"model.{m}") for m in BUNDLED_MODELS), tr("app.model_custom_caption")],
        )
        if ss.model_choice == CUSTOM:
            st.text_input(tr("app.model_id"), key="model_custom",
                          placeholder=tr("app.model_placeholder"))
        custom = str(ss.get("model_custom", "")).strip()
        wanted = custom if ss.model_choice == CUSTOM else ss.model_choice
        model = pick_model(wanted)
        st.caption(tr("app.model_in_use", name=model.name))
    return choice, model


def workspace_panel(workspace: Workspace | None, report: Callable[[], str] | None,
                    results: Callable[[], str] | None) -> None:
    """Export and import the whole workspace; download the report and the results."""
    with st.sidebar:
        st.subheader(tr("app.share"))
        if ss.pop("_workspace_loaded", False):
            st.success(tr("app.workspace_loaded"))
        if "_workspace_error" in ss:
            st.error(tr("app.workspace_refused", error=_md(ss["_workspace_error"])))
        if workspace is not None:
            st.download_button(tr("app.export_workspace"), workspace.to_json(),
                               file_name="ragviz-workspace.json", mime="application/json",
                               key="export_workspace", width="stretch")
        st.file_uploader(tr("app.import_workspace"), type=["json"], key="workspace_upload",
                         on_change=on_workspace_upload, help=tr("app.import_workspace_help"))
        if report is not None:
            st.download_button(tr("app.download_report"), report, file_name="ragviz-report.html",
                               mime="text/html", key="download_report", width="stretch")
        if results is not None:
            st.download_button(tr("app.download_results"), results,
                               file_name="ragviz-results.csv", mime="text/csv",
                               key="download_results", width="stretch")


def pick_model(wanted: str) -> Embedder:
    """Load the wanted model; on failure say why and keep the last model that worked."""
    if wanted:
        try:
            with st.spinner(tr("app.model_loading", name=wanted)):
                model = get_model(wanted)
            ss.active_model = model.name if wanted in BUNDLED_MODELS else wanted
            return model
        except ModelLoadError as error:
            st.error(tr("app.model_failed", error=_md(str(error)), name=_md(ss.active_model)))
    else:
        st.info(tr("app.model_empty"))
    return get_model(ss.active_model)


# --- configuration widgets --------------------------------------------------------------


def config_widgets(side: str, n_chars: int) -> ChunkerConfig:
    """Chunker select and its sliders (ranges fitted to the document) for one side."""
    chunker = st.selectbox(tr("app.chunker"), CHUNKER_NAMES, key=f"{side}_chunker")
    values: dict[str, Any] = {}
    if chunker == "semantic":
        st.radio(
            tr("app.semantic_mode"), ("percentile", "threshold"), key=f"{side}_mode",
            horizontal=True, format_func=translated("app.mode_"),
        )
        values["mode"] = ss[f"{side}_mode"]
    specs = state.param_specs(chunker, n_chars)
    shown = [s for s in specs if not _hidden(side, chunker, s.name)]
    columns = st.columns(max(1, len(shown)))
    for column, spec in zip(columns, shown, strict=False):
        key = f"{side}_{spec.name}"
        ss[key] = spec.clamp(ss.get(key, spec.default))
        with column:
            if spec.integer:
                st.slider(
                    tr(f"param.{spec.name}", unit=tr("app.unit_tokens")
                       if chunker == "tokens" else tr("app.unit_chars")),
                    int(spec.low), int(spec.high), step=int(spec.step), key=key,
                )
            else:
                st.slider(
                    tr(f"param.{spec.name}", unit=""), float(spec.low), float(spec.high),
                    step=float(spec.step), key=key, format="%.2f",
                )
    for spec in specs:
        key = f"{side}_{spec.name}"
        values[spec.name] = ss.get(key, spec.default)
    return state.config_from_values(chunker, values, n_chars)


def _hidden(side: str, chunker: str, name: str) -> bool:
    """The semantic chunker shows the threshold or the percentile slider, not both."""
    if chunker != "semantic" or name not in ("threshold", "percentile"):
        return False
    return bool(ss.get(f"{side}_mode", "percentile") != name)


# --- analysis ---------------------------------------------------------------------------


def run_analysis(
    document: str, config: ChunkerConfig, model: Embedder, questions: list[LabelledQuestion],
    top_k: int, floor: float,
) -> Analysis:
    """analyse() once per document/config/model/questions (memo in the session), then only
    rescore() when top_k or the floor move."""
    key = (model.name, state.document_key(document), config, tuple(questions), lang())
    memo: dict[Any, Analysis] = ss["_memo"]
    base = memo.get(key)
    if base is None:
        slot = st.empty()
        with st.spinner(tr("app.embedding", config=config.label())):
            base = analyse(document, config, model, questions, top_k, floor, lang(),
                           progress=_progress(slot))
        slot.empty()
        memo[key] = base
        while len(memo) > MEMO_SIZE:
            memo.pop(next(iter(memo)))
    if base.top_k == top_k and base.floor == floor:
        return base
    return rescore(base, top_k, floor)


def _progress(slot: Any) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        if total >= PROGRESS_AFTER:
            slot.progress(done / total if total else 1.0,
                          text=tr("app.embedding_count", done=done, total=total))
    return report


def metrics_panel(metrics: Metrics, other: Metrics | None) -> None:
    """hit@1 is the number that tells whether the answer comes first: it is the big one."""
    def pct(value: float | None) -> str:
        return "–" if value is None else f"{value:.0%}"

    def delta(mine: float | None, theirs: float | None) -> str | None:
        if mine is None or theirs is None or abs(mine - theirs) < 1e-9:
            return None
        return f"{(mine - theirs) * 100:+.0f} pp"

    first, second = st.columns(2)
    first.metric(tr("metric.hit_at_1"), pct(metrics.hit_at_1),
                 delta(metrics.hit_at_1, other.hit_at_1 if other else None))
    second.metric(tr("metric.refusal_recall"), pct(metrics.refusal_recall),
                  delta(metrics.refusal_recall, other.refusal_recall if other else None))
    labels = ", ".join(
        f"{name} {count}" for name, count in sorted(metrics.labels.items()) if count
    )
    st.caption(tr("app.metrics_line", k=metrics.top_k, hit_k=pct(metrics.hit_at_k),
                  mrr="–" if metrics.mrr is None else f"{metrics.mrr:.2f}",
                  precision=pct(metrics.refusal_precision), labels=labels or "–"))


# --- views ------------------------------------------------------------------------------


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


def question_view(analysis: Analysis, position: int, side: str, show_floor: bool = True,
                  large: bool = False) -> None:
    outcome = analysis.outcomes[position]
    decision = outcome.decision
    text = describe_decision(decision, lang())
    colour = "orange" if decision.refused else "blue"
    st.markdown(f"{'### ' if large else ''}**:{colour}[{text}]**")
    if outcome.diagnosis is not None:
        badges = " ".join(
            f":{'green' if label == 'ok' else 'red'}-badge[{label}]"
            for label in outcome.diagnosis.labels
        )
        st.markdown(badges)
        if large:
            st.html(render.big_note(outcome.diagnosis.explanation))
        else:
            st.caption(_md(outcome.diagnosis.explanation))
    st.altair_chart(
        charts.score_bars(decision, analysis.chunks,
                          analysis.floor if show_floor else None, "", lang(),
                          description=f"{side}: {outcome.question.question}", large=large),
        width="stretch",
    )
    with st.expander(tr("app.prompt")):
        if outcome.prompt is None:
            st.write(tr("app.no_llm_call"))
        else:
            st.code(outcome.prompt, language=None, wrap_lines=True)


def calibration_view(analysis: Analysis, side: str) -> None:
    outcomes = analysis.outcomes
    labelled = [o for o in outcomes if o.question.is_answerable is not None and o.decision.ranking]
    if analysis.calibration is None:
        st.info(tr("app.calibration_needs"))
        return
    calibration: Calibration = calibrate_outcomes(labelled, ss.cost_refusal, ss.cost_answer)
    first, second = st.columns(2)
    first.metric(tr("app.suggested_floor"), format_score(calibration.floor))
    second.metric(tr("app.margin"), format_score(calibration.margin))
    st.write(calibration.message(lang()))
    st.altair_chart(charts.calibration_strip(calibration, labelled, analysis.floor, lang()),
                    width="stretch")
    if not calibration.separable:
        st.altair_chart(charts.tradeoff_curve(calibration, lang()), width="stretch")
    st.button(tr("app.apply_floor"), key=f"apply_floor_{side}", on_click=set_floor,
              args=(calibration.floor,), type="primary")


def compare_view(a: Analysis, b: Analysis) -> None:
    comparison = compare(a, b)
    if not comparison.flips:
        st.success(tr("app.no_flips"))
        return
    st.markdown(f"**{tr('app.flips', n=len(comparison.flips))}**")
    rows = [
        {
            tr("col.question"): f.question.question,
            "A": f.label_a or "–",
            "B": f.label_b or "–",
            tr("col.direction"): tr(f"app.direction_{f.direction}"),
        }
        for f in comparison.flips
    ]
    frame = pd.DataFrame(rows)
    colours = {"fixed": "#dcfce7", "broken": "#fee2e2", "changed": "#fef9c3"}
    tints = [colours[f.direction] for f in comparison.flips]
    styled = frame.style.apply(lambda row: [f"background-color: {tints[row.name]}"] * len(row),
                               axis=1)
    st.dataframe(styled, hide_index=True, width="stretch")


def sweep_view(document: str, model: Embedder, questions: list[LabelledQuestion],
               top_k: int, floor: float) -> None:
    st.subheader(tr("app.sweep"))
    left, right = st.columns([1, 2])
    left.selectbox(tr("app.sweep_metric"), METRIC_NAMES, key="sweep_metric",
                   format_func=translated("metric."))
    grid = default_grid(len(document))
    signature = (model.name, state.document_key(document), tuple(questions), top_k, floor)
    if left.button(tr("app.run_sweep", n=len(grid)), key="run_sweep", type="primary"):
        bar = right.progress(0.0, text=tr("app.sweep_count", done=0, total=len(grid)))

        def report(done: int, total: int) -> None:
            bar.progress(done / max(total, 1), text=tr("app.sweep_count", done=done, total=total))

        ss.sweep_result = (signature, sweep(document, questions, model, grid, top_k, floor,
                                            progress=report))
        bar.empty()
    stored = ss.get("sweep_result")
    if stored is None:
        right.caption(tr("app.sweep_hint"))
        return
    stored_signature, result = stored
    result_typed: SweepResult = result
    if stored_signature != signature:
        right.warning(tr("app.sweep_stale"))
    best = result_typed.best(ss.sweep_metric)
    value = best.metrics.value(ss.sweep_metric)
    right.markdown(tr("app.sweep_best", config=best.config.label(),
                      metric=tr(f"metric.{ss.sweep_metric}"),
                      value="–" if value is None else f"{value:.2f}"))
    right.button(tr("app.load_best"), key="load_best", on_click=load_into_a, args=(best.config,))
    st.altair_chart(charts.sweep_heatmap(result_typed, ss.sweep_metric, lang()),
                    width="stretch")


def why_view(document: str, model: Embedder, questions: list[LabelledQuestion],
             configs: dict[str, ChunkerConfig | None], top_k: int, floor: float) -> None:
    st.caption(tr("app.why_intro"))
    first, second = st.columns([3, 2])
    first.text_input(tr("col.question"), key="why_question")
    second.text_input(tr("col.answer"), key="why_answer")
    third, fourth, fifth = st.columns([1, 1, 2])
    third.checkbox(tr("col.answerable"), key="why_answerable")
    fourth.radio(tr("app.why_config"), SIDES, key="why_side", format_func=str.upper,
                 horizontal=True)
    run = fifth.button(tr("app.why_run"), key="why_run", type="primary")
    config = configs.get(ss.why_side)
    if not run:
        return
    if not ss.why_question.strip():
        st.error(tr("app.why_empty"))
        return
    if config is None:
        st.error(tr("app.why_bad_config"))
        return
    question = LabelledQuestion(ss.why_question.strip(),
                                ss.why_answer.strip() if ss.why_answerable else "",
                                bool(ss.why_answerable))
    others = [q for q in questions if q.question != question.question]
    bar = st.progress(0.0)

    def report(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=tr("app.sweep_count", done=done, total=total))

    result = why_failed(document, question, others, model, config, default_grid(len(document)),
                        top_k, floor, lang(), progress=report)
    bar.empty()
    badges = " ".join(f":{'green' if x == 'ok' else 'red'}-badge[{x}]"
                      for x in result.diagnosis.labels)
    st.markdown(badges)
    st.markdown(_md(result.diagnosis.explanation))
    if result.fix is not None:
        st.success(_md(result.explanation))
        st.button(tr("app.load_fix"), key="load_fix", on_click=load_into_a, args=(result.fix,))
    else:
        st.info(_md(result.explanation))


# --- page -------------------------------------------------------------------------------


def main() -> None:
    init_state()
    persist()
    choice, model = sidebar()
    if ss.walk_on:
        walkthrough_page(model)
        return
    st.title(tr("app.title"))
    st.caption(tr("app.subtitle"))

    shared = st.container()
    config_columns = st.columns(2, gap="large")
    labels = tab_labels()
    tabs = st.tabs(list(labels.values()), key="tab", on_change=on_tab_change,
                   default=labels[ss.get("tab_id", TAB_IDS[0])])
    # Only the open tab runs (the others are drawn when picked): a slider answers fast.
    is_open = {tab_id: tab.open is not False for tab_id, tab in zip(TAB_IDS, tabs, strict=True)}
    tab_questions, tab_chunks, tab_calibration, tab_compare, tab_why = tabs

    if is_open["questions"]:
        with tab_questions:
            st.caption(tr("app.questions_help"))
            edited = st.data_editor(
                ss.questions_base, key="questions_editor", num_rows="dynamic",
                width="stretch", hide_index=True,
                column_config={
                    "question": st.column_config.TextColumn(tr("col.question"), width="large"),
                    "answer": st.column_config.TextColumn(tr("col.answer"), width="medium"),
                    "answerable": st.column_config.CheckboxColumn(tr("col.answerable"),
                                                                  default=True),
                },
            )
            edited_questions = state.frame_questions(edited)
            ss["_questions_now"] = edited_questions
    else:
        fold_question_edits()
        edited_questions = state.frame_questions(ss.questions_base)
    questions, problems = state.checked_questions(edited_questions)
    if is_open["questions"]:
        with tab_questions:
            for problem in problems:
                st.error(_md(problem))

    n_chars = len(choice.text) if choice.text is not None else 1000
    configs: dict[str, ChunkerConfig | None] = {}
    for side, column in zip(SIDES, config_columns, strict=True):
        with column:
            st.subheader(tr(f"app.config_{side}"))
            configs[side] = config_widgets(side, n_chars)

    top_k = int(ss.top_k)
    analyses: dict[str, Analysis | None] = dict.fromkeys(SIDES)
    errors: dict[str, str] = {}
    if choice.text is not None:
        for side in SIDES:
            config = configs[side]
            assert config is not None
            try:
                analyses[side] = run_analysis(choice.text, config, model, questions, top_k,
                                              float(ss.get("floor", 0.0)))
            except ValueError as error:
                errors[side] = tr("app.config_error", error=str(error))
                configs[side] = None

    if "floor" not in ss:
        calibrated = analyses["b"].calibration if analyses["b"] is not None else None
        ss.floor = state.slider_floor(calibrated.floor) if calibrated is not None else 0.0
        for side in SIDES:
            current = analyses[side]
            if current is not None:
                analyses[side] = rescore(current, top_k, ss.floor)

    scores = [s for a in analyses.values() if a is not None
              for o in a.outcomes for s in o.decision.scores]
    low, high = state.floor_range(scores)
    ss.floor = min(max(float(ss.floor), low), high)
    with shared:
        k_col, floor_col, button_col = st.columns([1, 2, 1.2])
        k_col.slider(tr("app.top_k"), *TOP_K_RANGE, key="top_k")
        floor_col.slider(tr("app.floor"), low, high, step=0.01, key="floor", format="%.2f",
                         help=tr("app.floor_help"))
        b_analysis = analyses["b"]
        suggestion = (
            calibrate_outcomes(b_analysis.outcomes, ss.cost_refusal, ss.cost_answer)
            if b_analysis is not None and b_analysis.calibration is not None
            else None
        )  # with the cost weights the Calibration tab sets
        if suggestion is not None:
            button_col.button(
                tr("app.apply_floor_b", floor=format_score(suggestion.floor)),
                key="apply_floor", on_click=set_floor, args=(suggestion.floor,),
                type="primary", width="stretch",
            )
            button_col.caption(tr("app.margin_b", margin=format_score(suggestion.margin)))

    for side, column in zip(SIDES, config_columns, strict=True):
        other = analyses["b" if side == "a" else "a"]
        with column:
            if side in errors:
                st.error(_md(errors[side]))
            current = analyses[side]
            if current is not None:
                st.caption(tr("app.chunk_count", n=len(current.chunks),
                              label=current.config.label()))
                metrics_panel(current.metrics, other.metrics if other and side == "b" else None)

    ready = [a for a in (analyses["a"], analyses["b"]) if a is not None]
    workspace = (
        Workspace(choice.text, tuple(questions), current_settings())
        if choice.text is not None else None
    )

    def report() -> str:
        pair = compare(ready[0], ready[1]) if len(ready) == 2 else None
        return render_report(ready, pair, lang())

    workspace_panel(workspace, report if ready else None,
                    (lambda: results_csv(ready)) if ready else None)
    sync_url(workspace)

    if choice.text is None:
        for tab in (tab_chunks, tab_calibration, tab_compare, tab_why):
            with tab:
                st.info(tr("app.need_document"))
        return

    if is_open["chunks"]:
        with tab_chunks:
            st.html(render.legend(lang()))
            for side, current in side_by_side(analyses):
                if current is not None:
                    chunk_view(current, model)
                    st.download_button(
                        tr("app.download_chunks"), chunks_csv(current),
                        file_name=f"ragviz-chunks-{side}.csv", mime="text/csv",
                        key=f"download_chunks_{side}",
                    )
                else:
                    st.error(_md(errors.get(side, "")))

    if is_open["questions"]:
        with tab_questions:
            if not questions:
                st.info(tr("app.no_questions"))
            for position, question in enumerate(questions):
                st.divider()
                st.markdown(f"#### {position + 1}. {_md(question.question)}")
                if question.is_answerable and question.answer:
                    st.caption(tr("app.expected", answer=_md(question.answer)))
                elif question.is_answerable is False:
                    st.caption(tr("app.unanswerable"))
                for side, current in side_by_side(analyses):
                    if current is not None and position < len(current.outcomes):
                        question_view(current, position, side)

    if is_open["calibration"]:
        with tab_calibration:
            weights = st.columns(2)
            for column, key in zip(weights, ("cost_refusal", "cost_answer"), strict=True):
                column.number_input(tr(f"app.{key}"), 0.0, 100.0, step=0.5, key=key)
            for side, current in side_by_side(analyses):
                if current is not None:
                    calibration_view(current, side)

    if is_open["compare"]:
        with tab_compare:
            a, b = analyses["a"], analyses["b"]
            if a is not None and b is not None:
                compare_view(a, b)
            sweep_view(choice.text, model, questions, top_k, float(ss.floor))

    if is_open["why"]:
        with tab_why:
            why_view(choice.text, model, questions, configs, top_k, float(ss.floor))


def side_by_side(analyses: dict[str, Analysis | None]) -> Iterator[tuple[str, Analysis | None]]:
    """Configurations A and B in two titled columns; the loop body draws into each."""
    for side, column in zip(SIDES, st.columns(2, gap="large"), strict=True):
        with column:
            st.markdown(f"**{tr(f'app.config_{side}')}**")
            yield side, analyses[side]


def sync_url(workspace: Workspace | None) -> None:
    """Keep the settings (and the work, when it fits) in the page URL, so a link reopens
    the same view; say so before the user shares a link that cannot carry the work."""
    link = links.share_query(current_settings(), workspace)
    if st.query_params.to_dict() != link.query:
        st.query_params.from_dict(link.query)
    if link.missing_chars is not None:
        with st.sidebar:
            st.warning(tr("link.too_long", n=f"{link.missing_chars:,}",
                          limit=f"{links.MAX_QUERY_CHARS:,}"))


# --- guided replay of the article -------------------------------------------------------


def walkthrough_page(model: Embedder) -> None:
    """One step of the article on screen: large text, the one view it talks about, and
    buttons to move on. It reads the seed sample itself and leaves the user's work alone."""
    sample = get_sample(walkthrough.SAMPLE)
    document, questions = sample.document(), sample.questions()
    step_index = min(max(int(ss.get("walk_step", 0)), 0), len(walkthrough.STEPS) - 1)
    step = walkthrough.STEPS[step_index]
    base = {name: run_analysis(document, config, model, questions, step.top_k, 0.0)
            for name, config in (("fixed", walkthrough.FIXED), ("sentence", walkthrough.SENTENCE))}
    scores = [x for a in base.values() for o in a.outcomes for x in o.decision.scores]
    floor = state.floor_range(scores)[0]
    calibration = base["sentence"].calibration
    if step.floor == "calibrated" and calibration is not None:
        floor = state.slider_floor(calibration.floor)
    fixed = rescore(base["fixed"], step.top_k, floor)
    sentence = rescore(base["sentence"], step.top_k, floor)
    values = walkthrough.step_values(fixed, sentence)
    shown = fixed if step.config == walkthrough.FIXED else sentence

    st.html(render.walkthrough_banner(
        tr("walk.progress", n=step_index + 1, total=len(walkthrough.STEPS)),
        step.title(lang()), step.body(lang(), values)))
    back, forward, leave, explore, _ = st.columns([1, 1, 1, 1.6, 1.4])
    back.button(tr("walk.back"), key="walk_back", on_click=_walk_to, args=(step_index - 1,),
                disabled=step_index == 0, width="stretch")
    forward.button(tr("walk.next"), key="walk_next", on_click=_walk_to, args=(step_index + 1,),
                   disabled=step_index == len(walkthrough.STEPS) - 1, type="primary",
                   width="stretch")
    leave.button(tr("walk.exit"), key="walk_exit", on_click=_walk_exit, width="stretch")
    explore.button(tr("walk.explore"), key="walk_explore", on_click=_walk_explore,
                   args=(step, floor), width="stretch", help=tr("walk.explore_help"))
    floor_text = f"{floor:.2f}" if step.floor == "calibrated" else tr("walk.no_floor")
    st.caption(tr("walk.settings", config=shown.config.label(), k=step.top_k,
                  floor=floor_text, model=model.name))
    if step.section == "document":
        st.html(render.legend(lang()))
        st.html(render.highlight_document(document, shown.chunks, shown.truncation, True,
                                          shown.chunk_tokens, lang()))
    elif step.section == "calibration" and shown.calibration is not None:
        labelled = [o for o in shown.outcomes if o.question.is_answerable is not None]
        st.altair_chart(charts.calibration_strip(shown.calibration, labelled, floor, lang()),
                        width="stretch")
    elif step.question is not None:
        st.markdown(f"### {_md(questions[step.question].question)}")
        question_view(shown, step.question, "a" if shown is fixed else "b",
                      show_floor=step.floor == "calibrated", large=True)


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


def _md(text: str) -> str:
    """User text shown through Markdown: backslash-escape every ASCII punctuation mark
    (CommonMark allows it for all of them), so no link, image, heading, emphasis, entity
    or HTML can come out of what the user typed."""
    return "".join("\\" + char if char in _PUNCTUATION else char for char in text)


_PUNCTUATION = frozenset(string.punctuation)


main()
