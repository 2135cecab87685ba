"""Session state and the URL: defaults for a first visit, links and workspaces put into the
widgets, and the callbacks that change several inputs at once.

All input lives in ``st.session_state`` under stable keys, so nothing typed is lost on
reruns, model switches or errors.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ragviz import app_state as state
from ragviz import links
from ragviz.chunking import ChunkerConfig, get_spec
from ragviz.chunking.registry import param_names
from ragviz.documents import InputError
from ragviz.embedders import BUNDLED_MODELS, DEFAULT_MODEL
from ragviz.i18n import pick_language
from ragviz.questions import LabelledQuestion
from ragviz.samples import get_sample
from ragviz.workspace import Settings, Workspace
from ragviz_app.common import CUSTOM, SIDES, lang, ss, tr

DEFAULTS = {"a": state.DEFAULT_A, "b": state.DEFAULT_B}
# The first tab is the article's experiment: every question's bars, floor and outcome.
TAB_IDS = ("questions", "chunks", "calibration", "compare", "why")
PARAM_KEYS = (*param_names(), "mode")
PERSISTENT = (
    "doc_paste", "model_custom", "top_k", "floor", "doc_source", "sample_name", "model_choice",
    "doc_file",
    "tab",
    "cost_refusal", "cost_answer", "sweep_metric",
    "why_question", "why_answer", "why_answerable", "why_side",
    *(f"{side}_{name}" for side in SIDES for name in ("chunker", *PARAM_KEYS)),
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
    return {name: ss.get(f"{side}_{name}") for name in PARAM_KEYS if f"{side}_{name}" in ss}


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
    if not sample.is_corpus:  # a multi-file sample has no one text to paste
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
