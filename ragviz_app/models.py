"""The models of configurations A and B: the pickers in the sidebar (a bundled model,
another sentence-transformers model, or an OpenAI-compatible API), and loading them in
the main area, where the user is looking, the first time a process needs one.

The API key lives only in the session (a password field) or the server's OPENAI_API_KEY:
it is never put into the link, the workspace, the report or a message.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.embedders import BUNDLED_MODELS, DEFAULT_MODEL, Embedder, ModelLoadError, load_embedder
from ragviz.openai_embedder import OPENAI_PREFIX, openai_name, parse_openai_name
from ragviz_app.common import CUSTOM, SIDES, md, ss, tr

OPENAI = "openai"
PREFIX = {"a": "", "b": "b_"}  # A keeps the session keys it always had
# A cold start on this kind of machine, measured: minilm-en ~26 s (torch), USE ~5 s.
LOAD_SECONDS = {"minilm-en": 20, "use-multilingual": 5}
_LOADED: set[str] = set()  # cache keys this process has loaded (st.cache_resource holds them)


@dataclass
class WantedModel:
    """What one side's picker asks for: the model's name (``openai:<model>@<base>`` for
    the API), whether it may be loaded now, and where its messages go in the sidebar."""

    name: str
    slot: DeltaGenerator
    armed: bool = True


def key_of(side: str, name: str) -> str:
    return f"{PREFIX[side]}{name}"


def active_key(side: str) -> str:
    return key_of(side, "active_model")


def side_models() -> dict[str, str]:
    """The model name each side computes with now (B follows A unless it has its own)."""
    model_a = str(ss.active_model)
    own_b = bool(ss.get("model_b_on")) and active_key("b") in ss
    return {"a": model_a, "b": str(ss[active_key("b")]) if own_b else model_a}


def model_inputs() -> dict[str, WantedModel]:
    """A's picker, the switch that gives B its own model, B's picker, and the API key
    field when a side uses the API."""
    st.subheader(tr("app.model"))
    own_b = bool(ss.get("model_b_on"))
    if own_b:
        st.markdown(f"**{tr('app.model_side', config=tr('app.config_a'))}**")
    wanted = {"a": model_picker("a")}
    st.toggle(tr("app.model_b_on"), key="model_b_on", help=tr("app.model_b_help"),
              on_change=on_model_b_toggle)
    if own_b:
        st.markdown(f"**{tr('app.model_side', config=tr('app.config_b'))}**")
        wanted["b"] = model_picker("b")
    else:
        wanted["b"] = wanted["a"]
    if any(ss.get(key_of(side, "model_choice")) == OPENAI for side in SIDES[: 1 + own_b]):
        st.text_input(tr("app.api_key"), key="api_key", type="password",
                      help=tr("app.api_key_help"), autocomplete="off")
    return wanted


def on_model_b_toggle() -> None:
    """B starts from A's model and A's floor (the floor then says which model it was set
    on); back to one model, A's floor is the floor of both."""
    if ss.get("model_b_on"):
        for name in ("model_choice", "model_custom", "api_base", "api_model", "active_model"):
            if name in ss:
                ss[key_of("b", name)] = ss[name]
    ss.pop(key_of("b", "api_unconfirmed"), None)


def model_picker(side: str) -> WantedModel:
    """One side's model: a bundled one, a model id or folder, or an API's base and model."""
    choice_key = key_of(side, "model_choice")
    ss.setdefault(choice_key, DEFAULT_MODEL)
    options = (*BUNDLED_MODELS, CUSTOM, OPENAI)
    names = {CUSTOM: tr("app.model_custom"), OPENAI: tr("app.model_openai")}
    st.radio(
        tr("app.model"), options, key=choice_key, label_visibility="collapsed",
        format_func=lambda value: names.get(value, value),
        captions=[*(tr(f"model.{m}") for m in BUNDLED_MODELS), tr("app.model_custom_caption"),
                  tr("app.model_openai_caption")],
    )
    choice = ss[choice_key]
    armed = True
    if choice == CUSTOM:
        st.text_input(tr("app.model_id"), key=key_of(side, "model_custom"),
                      placeholder=tr("app.model_placeholder"))
        name = str(ss.get(key_of(side, "model_custom"), "")).strip()
    elif choice == OPENAI:
        name, armed = api_inputs(side)
    else:
        name = str(choice)
    return WantedModel(name, st.container(), armed)


def api_inputs(side: str) -> tuple[str, bool]:
    """Base URL and model name; an API named by a link or a file waits for "Connect"."""
    st.text_input(tr("app.api_base"), key=key_of(side, "api_base"),
                  placeholder="http://localhost:11434/v1")
    st.text_input(tr("app.api_model"), key=key_of(side, "api_model"),
                  placeholder="text-embedding-3-small")
    base = str(ss.get(key_of(side, "api_base"), "")).strip()
    model = str(ss.get(key_of(side, "api_model"), "")).strip()
    if not base or not model:
        return "", True
    unconfirmed = key_of(side, "api_unconfirmed")
    if ss.get(unconfirmed) == (base, model):
        st.warning(tr("app.api_confirm", base=md(base)))
        st.button(tr("app.api_connect"), key=key_of(side, "api_connect"),
                  on_click=ss.pop, args=(unconfirmed, None))
        return openai_name(model, base), False
    return openai_name(model, base), True


def put_model(side: str, name: str, from_outside: bool = True) -> None:
    """Put a model name (a link's, a workspace's, a sample's) into one side's picker; an
    API it names is not contacted until the user connects."""
    if name in BUNDLED_MODELS:
        ss[key_of(side, "model_choice")] = name
    elif name.startswith(OPENAI_PREFIX):
        model, base = parse_openai_name(name)
        ss[key_of(side, "model_choice")] = OPENAI
        ss[key_of(side, "api_model")] = model
        ss[key_of(side, "api_base")] = base or "https://api.openai.com/v1"
        if from_outside:
            ss[key_of(side, "api_unconfirmed")] = (ss[key_of(side, "api_base")], model)
    else:
        ss[key_of(side, "model_choice")] = CUSTOM
        ss[key_of(side, "model_custom")] = name


def load_models(wanted: dict[str, WantedModel]) -> dict[str, Embedder]:
    """Each side's model, loaded here (in the main area) with a note saying what is
    happening; on failure one sentence under the side's picker, and the last model that
    worked stays in use."""
    models: dict[str, Embedder] = {}
    for side in SIDES:
        request = wanted[side]
        if side == "b" and request is wanted["a"]:
            models["b"] = models["a"]
            ss[active_key("b")] = ss.active_model
            continue
        models[side] = pick_model(side, request)
        request.slot.caption(tr("app.model_in_use", name=md(models[side].name)))
    return models


def pick_model(side: str, request: WantedModel) -> Embedder:
    """Load the wanted model; on failure say why (one sentence) and keep the last model
    that worked."""
    active = active_key(side)
    ss.setdefault(active, ss.active_model)
    failure = None
    if not request.name:
        request.slot.info(tr("app.api_incomplete" if ss.get(key_of(side, "model_choice")) ==
                             OPENAI else "app.model_empty"))
    elif request.armed:
        try:
            model = loaded_model(request.name)
            ss[active] = model.name if request.name in BUNDLED_MODELS else request.name
            return model
        except ModelLoadError as error:
            failure = str(error)
    try:
        fallback = loaded_model(str(ss[active]))
    except ModelLoadError:  # the model that worked fails now too (e.g. its API key changed)
        ss[active] = DEFAULT_MODEL
        fallback = loaded_model(DEFAULT_MODEL)
    if failure is not None:
        request.slot.error(tr("app.model_failed", error=md(failure), name=md(fallback.name)))
    return fallback


def loaded_model(name: str) -> Embedder:
    """The cached model, loaded with a note in the main area the first time."""
    key = api_key() if name.startswith(OPENAI_PREFIX) else None
    digest = hashlib.sha256(key.encode()).hexdigest() if key else ""
    cache_key = f"{name}\0{digest}"
    if cache_key in _LOADED:
        return get_model(name, digest, key)
    note = st.empty()
    note.info(loading_text(name))
    started = time.monotonic()
    try:
        model = get_model(name, digest, key)
    finally:
        note.empty()
    _LOADED.add(cache_key)
    seconds = time.monotonic() - started
    note.success(tr("app.model_loaded", name=md(display_name(name)), seconds=f"{seconds:.0f}"))
    return model


def api_key() -> str | None:
    """The key typed in this session, else None (the embedder reads OPENAI_API_KEY)."""
    typed = str(ss.get("api_key", "") or "").strip()
    return typed or None


@st.cache_resource(show_spinner=False, max_entries=6)
def get_model(name: str, key_digest: str, _api_key: str | None) -> Embedder:
    """One model object per server and name (and per API key, by its digest only, so one
    session's key never serves another's); embeddings are shared through its cache."""
    return load_embedder(name, api_key=_api_key)


def display_name(name: str) -> str:
    """all-MiniLM-L6-v2 for minilm-en: the name the user knows the model by."""
    described = BUNDLED_MODELS.get(name)
    return described.split(" (")[0] if described else name


def loading_text(name: str) -> str:
    if name.startswith(OPENAI_PREFIX):
        return tr("app.model_connecting", base=md(parse_openai_name(name)[1] or "api.openai.com"))
    if name in LOAD_SECONDS:
        return tr("app.model_loading_first", name=display_name(name),
                  seconds=LOAD_SECONDS[name])
    return tr("app.model_loading_any", name=md(name))
