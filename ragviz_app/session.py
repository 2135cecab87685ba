"""Session state and the URL: defaults for a first visit, links and workspaces put into the
widgets, and the callbacks that change several inputs at once.

All input lives in ``st.session_state`` under stable keys, so nothing typed is lost on
reruns, model switches or errors.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pandas as pd
import streamlit as st
from streamlit.errors import StreamlitAPIException

from ragviz.chunking import ChunkerConfig, get_spec
from ragviz.chunking.registry import param_names
from ragviz.embedding.models import BUNDLED_MODELS, DEFAULT_MODEL
from ragviz.errors import InputError
from ragviz.i18n import Grouped, pick_language, render
from ragviz.inputs.questions import LabelledQuestion, read_questions_file
from ragviz.present import link_notes
from ragviz.share import links
from ragviz.share.samples import get_sample
from ragviz.share.workspace import Settings, Workspace
from ragviz_app import app_state as state
from ragviz_app import floors, levels, question_owner, walkthrough
from ragviz_app.common import NO_RERANK, SIDES, expand_of, lang, scorer_name, ss, tr
from ragviz_app.models import put_model, side_models

DEFAULTS = {"a": state.DEFAULT_A, "b": state.DEFAULT_B}
# The first tab is the article's experiment: every question's bars, floor and outcome.
TAB_IDS = ("questions", "chunks", "calibration", "compare", "why", "map")
PARAM_KEYS = (*param_names(), "mode")
TAB_PARAM = "tab"  # the link's parameter naming the open tab (left out for the first)
PERSISTENT = (
    "doc_paste", "model_custom", "top_k", "floor", "doc_source", "sample_name", "model_choice",
    "floor_b", "model_b_on", "b_model_choice", "b_model_custom", "api_base", "api_model",
    "b_api_base", "b_api_model", "api_key", "doc_file",
    "tab", "index_from", "index_server", "index_collection",
    "cost_refusal", "cost_answer", "sweep_metric",
    "sweep_chunkers", "sweep_sizes", "sweep_overlaps", "sweep_scorers", "sweep_labelled_only",
    "why_question", "why_answer", "why_answerable", "why_side", "why_pick",
    "map_method", "map_colour", "map_lines", levels.KEY,
    *(f"{side}_{name}" for side in SIDES
      for name in ("chunker", *PARAM_KEYS, "scorer", "rerank", "expand")),
)


def init_state() -> None:
    """Defaults for every input, set once per session: the article's experiment."""
    if ss.get("_ready"):
        return
    text, questions = state.load_sample(state.DEFAULT_SAMPLE)
    ss.lang = pick_language(st.context.locale)
    ss.doc_source = "sample"
    ss.sample_name = state.DEFAULT_SAMPLE
    ss.doc_paste = text
    set_questions(questions, text)
    ss.model_choice = DEFAULT_MODEL
    ss.model_custom = ""
    ss.active_model = DEFAULT_MODEL
    ss.top_k = state.DEFAULT_TOP_K
    ss.cost_refusal = 1.0
    ss.cost_answer = 1.0
    ss.sweep_metric = "hit_at_1"
    ss.why_question = ""  # free text starts empty: the picker offers the table's questions
    ss.why_answer = ""
    ss.why_answerable = True
    ss.why_side = "a"
    for side, config in DEFAULTS.items():
        set_config(side, config)
    ss.walk_on = False
    ss.walk_step = 0
    ss[levels.KEY] = False
    ss["_memo"] = {}
    ss["_ready"] = True
    apply_query(st.query_params.to_dict())


def apply_query(query: dict[str, str]) -> None:
    """Open the view a shared link describes (sample, chunkers, parameters, top_k, floor,
    model, language); values that make no sense are skipped and named once."""
    if not query:
        return
    if query.get(TAB_PARAM) in TAB_IDS:  # the tab open when the link was copied
        ss.tab_id = query[TAB_PARAM]
        levels.open_with(False, ss.tab_id)
    work, refused = link_notes.work_from_query(query, lang())
    if work is not None:
        use_workspace(work)
        restored = links.restored_summary(work, ss.doc_source == "paste")
        ss["_link_restored"] = render(restored, lang())
    settings, problems, notes = link_notes.import_link(query, current_settings(), lang())
    if refused:
        problems.insert(0, tr("link.refused", error=refused))
    if settings.sample and settings.sample != ss.sample_name:
        try:
            get_sample(settings.sample)
            ss.sample_name = settings.sample
            on_sample_change()
        except (KeyError, ValueError):
            problems.append(tr("link.not_a_sample", name=repr(settings.sample)))
    apply_settings(settings, with_sample=False)
    if "floor" not in query:
        del ss.floor  # no floor in the link: measure it from the labels, as on a first visit
    if "b_floor" not in query:
        ss.pop("floor_b", None)
    ss["_url_problems"] = problems
    ss["_url_notes"] = notes
    step = walkthrough.step_from_query(query)
    if step is not None:  # the link was copied during the guided replay: reopen its step
        ss.walk_on = True
        ss.walk_step = step


def current_settings() -> Settings:
    """The settings the widgets hold now (configurations as their widgets define them)."""
    configs = {side: state.config_from_values(ss[f"{side}_chunker"], _side_values(side), 10**9)
               for side in SIDES}
    models = side_models()
    own_b = models["b"] != models["a"]
    own_floor = floors.separate()
    return Settings(
        config_a=configs["a"], config_b=configs["b"], top_k=int(ss.top_k),
        floor=float(ss.get("floor", 0.0)), model=models["a"], language=lang(),
        sample=ss.sample_name if ss.doc_source == "sample" else None,
        model_b=models["b"] if own_b else None,
        floor_b=float(ss.get("floor_b", ss.get("floor", 0.0))) if own_floor else None,
        floor_on=_set_elsewhere(floors.SHARED, models["a"]),
        floor_b_on=_set_elsewhere(floors.OWN_B, models["b"]) if own_b else None,
        scorer=scorer_name("a"),
        scorer_b=scorer_name("b") if scorer_name("b") != scorer_name("a") else None,
        expand=expand_of("a"),
        expand_b=expand_of("b") if expand_of("b") != expand_of("a") else None,
        more_controls=levels.more(),
    )


def _set_elsewhere(key: str, model: str) -> str | None:
    """The model the floor under ``key`` was set on when that is not ``model`` (a link
    carries it, so whoever opens it sees the same warning and offer to recalibrate)."""
    other = floors.set_on(key)
    return other if other is not None and other != model else None


def _side_values(side: str) -> dict[str, Any]:
    return {name: ss.get(f"{side}_{name}") for name in PARAM_KEYS if f"{side}_{name}" in ss}


def apply_settings(settings: Settings, with_sample: bool = True) -> None:
    """Put settings (from a link or a workspace) into the widgets; the chunker values are
    remembered, so a slider that cannot hold one says so (``moved_import``)."""
    set_config("a", settings.config_a)
    set_config("b", settings.config_b)
    ss[IMPORTED] = {f"{side}_{name}": value for side, config in
                    (("a", settings.config_a), ("b", settings.config_b))
                    for name, value in config.params().items() if value is not None}
    ss.top_k = settings.top_k
    ss.floor = state.slider_floor(settings.floor)
    floors.record(floors.SHARED, settings.floor_on or settings.model)
    ss.lang = settings.language
    put_model("a", settings.model)
    ss.model_b_on = settings.model_b is not None
    ss.pop("floor_b", None)
    if settings.model_b is not None:
        put_model("b", settings.model_b)
    if settings.model_b is not None or settings.floor_b is not None:
        ss.floor_b = state.slider_floor(settings.floor_of("b"))
        floors.record(floors.OWN_B, settings.floor_b_on or settings.model_of("b"))
    for side in SIDES:
        name, _mark, rerank = settings.scorer_of(side).partition("+rerank(")
        ss[f"{side}_scorer"] = name.split("(")[0]  # the app picks a scorer by its name
        ss[f"{side}_rerank"] = rerank.removesuffix(")").split(",")[0] or NO_RERANK
        ss[f"{side}_expand"] = settings.expand_of(side)
    if with_sample and settings.sample:
        ss.sample_name = settings.sample
    levels.open_with(settings.uses_advanced(), None)


IMPORTED = "_imported_params"


def _number(value: object) -> object:
    """A slider's number grouped as the page's language writes it; anything else as it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Grouped(value)
    return value


def moved_import(side: str, shown: dict[str, tuple[str, object]]) -> list[str]:
    """One sentence per value a link or a workspace gave to ``side`` that its slider had to
    move to fit this document (``shown``: key -> the slider's label and value), once."""
    imported: dict[str, object] = ss.get(IMPORTED, {})
    notes = [tr("app.imported_moved", name=label, value=_number(imported[key]),
                shown=_number(value))
             for key, (label, value) in shown.items()
             if key in imported and imported[key] != value]
    ss[IMPORTED] = {key: v for key, v in imported.items() if not key.startswith(f"{side}_")}
    return notes


def set_config(side: str, config: ChunkerConfig) -> None:
    """Put a configuration into side A or B's widgets (also used by "load into A")."""
    spec = get_spec(config.chunker)
    ss[f"{side}_chunker"] = config.chunker
    for name in param_names():  # another chunker's sliders start at its own defaults
        ss.pop(f"{side}_{name}", None)
    for param in spec.params:
        value = config.get(param.name)
        ss[f"{side}_{param.name}"] = param.default if value is None else value
    if spec.alternatives:
        used = [n for n in spec.alternatives if config.get(n) is not None]
        ss[f"{side}_mode"] = (used or spec.alternatives)[0]


def on_sample_change() -> None:
    """A new sample brings its own text (also into the paste box), its questions, and the
    two configurations (and model) its demonstration compares."""
    sample = get_sample(ss.sample_name)
    if sample.is_corpus:  # no one text to paste; the questions adopt the files when drawn
        set_questions(sample.questions())
    else:
        ss.doc_paste = sample.document()
        set_questions(sample.questions(), sample.document())
    ss.pop("sweep_result", None)
    config_a, config_b = sample.configs()
    set_config("a", config_a)
    set_config("b", config_b)
    if sample.model in BUNDLED_MODELS:
        put_model("a", sample.model, from_outside=False)


def on_workspace_upload() -> None:
    """Replace document, questions and settings with an imported workspace, or say why not."""
    file = ss.get("workspace_upload")
    if file is None:
        return
    try:
        workspace = links.read_workspace(file.getvalue())
    except InputError as error:
        ss["_workspace_error"] = render(error, lang())
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
    set_questions([*workspace.questions, *workspace.waiting], workspace.document)
    if workspace.waiting:  # exported while keep-or-clear was asked: asked again
        question_owner.wait_for(workspace.document, workspace.questions)
    ss.pop("sweep_result", None)


def _matching_sample(workspace: Workspace) -> str | None:
    name = workspace.settings.sample
    if not name:
        return None
    try:
        return name if get_sample(name).document() == workspace.document else None
    except (KeyError, ValueError):
        return None


def tab_labels() -> dict[str, str]:
    return {tab_id: tr(f"tab.{tab_id}") for tab_id in TAB_IDS}


def on_tab_change() -> None:
    """Remember the open tab by id, so it stays open when the language changes."""
    for tab_id, label in tab_labels().items():
        if ss.get("tab") == label:
            ss.tab_id = tab_id


def open_tab_id() -> str:
    """The open tab's id (the tab widget's label read back; before it is drawn, the id
    kept)."""
    return next((tab_id for tab_id, label in tab_labels().items() if ss.get("tab") == label),
                ss.get("tab_id", TAB_IDS[0]))


def set_questions(questions: list[LabelledQuestion], document: str | None = None) -> None:
    """Replace the question table (sample, workspace, CSV) and drop any pending edits; the
    questions now belong to ``document`` (None: to whatever document is in use)."""
    ss.questions_base = state.questions_frame(questions)
    ss.pop("questions_draft", None)
    ss.pop("questions_editor", None)
    question_owner.belongs(document)


def shown_questions() -> pd.DataFrame:
    """The table the editor shows: the applied one, or the rows typed but not applied."""
    shown: pd.DataFrame = ss.get("questions_draft", ss.questions_base)
    return shown


def keep_typed_questions() -> None:
    """Fold the edits the grid holds into the draft it shows, before anything is drawn.

    The grid does not rerun the app while typing (``on_change="ignore"``); its edits reach
    the server with the next rerun, whatever control starts it. A language switch renames
    its columns and the guided replay does not draw it, and either way the browser would
    start an empty grid: so the edits are kept here, shown as the grid's data, until
    "Apply questions" makes them the table."""
    edits = ss.get("questions_editor")
    if not edits or not any(edits.get(part) for part in
                            ("edited_rows", "added_rows", "deleted_rows")):
        return
    draft = state.apply_table_edits(shown_questions(), edits)
    if draft.equals(ss.questions_base):
        ss.pop("questions_draft", None)
    else:
        ss.questions_draft = draft
    ss.pop("questions_editor", None)  # the draft is the grid's data now: no edits pending


def apply_question_edits() -> None:
    """The "Apply questions" button: the rows typed (kept draft and the grid's pending
    edits) become the table every view reads."""
    edits = ss.get("questions_editor")
    ss.questions_base = state.apply_table_edits(shown_questions(), edits)
    ss.pop("questions_draft", None)
    ss.pop("questions_editor", None)  # the new table is the editor's data: no edits pending
    question_owner.belongs(None)  # applied with the document in view: they belong to it now


def clear_questions() -> None:
    set_questions([])


def on_questions_upload() -> None:
    """A questions CSV (question,answer,answerable) replaces the table, or says why not."""
    file = ss.get("questions_upload")
    ss.pop("_questions_upload_error", None)
    if file is None:
        return
    try:
        questions, _decoded = read_questions_file(file.getvalue(), file.name)
    except InputError as error:
        ss["_questions_upload_error"] = error.localized(lang())
        return
    set_questions(questions)
    ss["_questions_uploaded"] = len(questions)


def start_walkthrough() -> None:
    ss.walk_step = 0


LANGUAGE_DRAWN = "_language_drawn"  # the language the last run drew its widgets in


def rebind_on_language_change() -> None:
    """Before drawing, in the run after the language changed: re-bind every input to
    itself. A radio or select whose labels are translated is a new widget in the new
    language, and without its value set from the session the browser answered with the old
    language's label (the sample picker then named no sample: KeyError on the next click).
    Only then: a normal run never sends a widget back its starting value (issue 36.6)."""
    language = ss.get("lang")
    if ss.get(LANGUAGE_DRAWN, language) != language:
        for key in PERSISTENT:
            if key in ss:
                ss[key] = ss[key]
    ss[LANGUAGE_DRAWN] = language


UNDRAWN = "_undrawn"  # the inputs whose widgets the last full run did not draw


def remount() -> None:
    """Before drawing: put back, through the session, every input whose widget the last
    full run did not draw (the guided replay, another tab, another source).

    The browser forgets a widget that a run leaves out, and Streamlit then forgets that
    the value it keeps came from the session: the widget drawn again started at its
    default (the sliders at their minimums, B's chunker at "fixed" after the replay) while
    the page computed with the kept values, and the first step sent that default back
    (issue 44.1). A value written before the widget is drawn goes to the browser with it.
    The browser has no newer value of a widget it does not show, so nothing is set back
    (issue 36.6)."""
    for key in ss.get(UNDRAWN, ()):
        if key in ss:
            with contextlib.suppress(StreamlitAPIException):
                ss[key] = ss[key]


def persist() -> None:
    """At the end of a full run, re-bind every input whose widget this run did not draw
    (another document source, another chunker, a closed tab) to itself, so Streamlit keeps
    what the user typed instead of dropping it with the widget.

    A widget drawn in this run is left alone (Streamlit refuses the write, and it needs no
    help). Re-binding every input at the start of the run, as before, made the run send
    each slider back to the browser with the value it had when the run began: a top_k or
    floor moved during a long full run (a fragment's move does not interrupt one) was set
    back when that run drew it, and the browser's next message carried the old value to the
    server (issue 36.6). The last value a user sets must win."""
    undrawn = []
    for key in PERSISTENT:
        if key in ss:
            with contextlib.suppress(StreamlitAPIException):  # drawn in this run
                ss[key] = ss[key]
                undrawn.append(key)
    ss[UNDRAWN] = tuple(undrawn)


def set_floor(value: float, side: str = "b") -> None:
    """Apply a floor to ``side``'s floor (the shared one while both use one model)."""
    floors.set_floor(value, side)


def load_into_a(config: ChunkerConfig) -> None:
    set_config("a", config)


def load_into(side: str, config: ChunkerConfig) -> None:
    """Put a suggested configuration (the "why did this fail" fix) into side A or B."""
    set_config(side, config)


def sync_url(workspace: Workspace | None) -> None:
    """Keep the settings (and the work, when it fits) in the page URL, so a link reopens
    the same view; say so before the user shares a link that cannot carry the work."""
    link = links.share_query(current_settings(), workspace)
    query = dict(link.query)
    if open_tab_id() != TAB_IDS[0]:  # the open tab, so the link reopens it
        query[TAB_PARAM] = open_tab_id()
    if st.query_params.to_dict() != query:
        st.query_params.from_dict(query)
    if link.missing_chars is not None:
        with st.sidebar:
            st.warning(tr("link.too_long", n=link.missing_chars,
                          limit=Grouped(links.MAX_QUERY_CHARS)))
