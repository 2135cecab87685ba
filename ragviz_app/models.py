"""The models of configurations A and B: the pickers in the sidebar (a bundled model,
another sentence-transformers model, or an OpenAI-compatible API), and loading them in
the main area, where the user is looking, the first time a process needs one.

The API key lives only in the session (a password field) or the server's OPENAI_API_KEY,
which goes only to the hosts the operator allowed (``api_common.server_key``): a base URL a
visitor typed or a link carried needs the visitor's own key. No key is ever put into the link,
the workspace, the report or a message.
"""

from __future__ import annotations

import contextvars
import hashlib
import os
import threading
import time
from dataclasses import dataclass

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

from ragviz.embedding.api_common import budget_seconds
from ragviz.embedding.models import BUNDLED_MODELS, DEFAULT_MODEL, Embedder, load_embedder
from ragviz.embedding.openai_api import (
    OPENAI_PREFIX,
    REQUEST_TIMEOUT_S,
    openai_name,
    parse_openai_name,
)
from ragviz.errors import ModelLoadError
from ragviz.i18n import render
from ragviz_app.common import CUSTOM, SIDES, lang, md, ss, tr

OPENAI = "openai"
PREFIX = {"a": "", "b": "b_"}  # A keeps the session keys it always had
# A cold start on this kind of machine, measured: minilm-en ~26 s (torch), USE ~5 s.
LOAD_SECONDS = {"minilm-en": 20, "use-multilingual": 5}
_LOADED: set[str] = set()  # cache keys this process has loaded (st.cache_resource holds them)
PRELOAD_ENV = "RAGVIZ_PRELOAD_MODELS"
_PRELOAD_STARTED: dict[str, float] = {}  # cache key -> when its background load started
_PRELOAD_LOCK = threading.Lock()
SHARED_MARK = "+shared"  # in a model's cache key: the name came from a link or a file


@dataclass
class WantedModel:
    """What one side's picker asks for: the model's name (``openai:<model>@<base>`` for
    the API), whether it may be loaded now, and where its messages go in the sidebar."""

    name: str
    slot: DeltaGenerator
    armed: bool = True
    shared: bool = False  # named by a link or a workspace file: see load_embedder(shared=)


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
    """A's picker, the switch that gives B its own model, and B's picker (a side that uses
    an API shows its URL, model and key together)."""
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
    return wanted


def on_model_b_toggle() -> None:
    """B starts from A's model and A's floor (the floor then says which model it was set
    on); back to one model, A's floor is the floor of both."""
    if ss.get("model_b_on"):
        for name in ("model_choice", "model_custom", "api_base", "api_model", "active_model",
                     "model_shared", "model_unconfirmed"):
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
        armed = confirmed(side, name)
    elif choice == OPENAI:
        name, armed = api_inputs(side)
    else:
        name = str(choice)
    return WantedModel(name, st.container(), armed, is_shared(side, name))


def is_shared(side: str, name: str) -> bool:
    """Whether ``name`` is the one a link or a workspace file put in (not one typed)."""
    return bool(name) and ss.get(key_of(side, "model_shared")) == name


def confirmed(side: str, name: str) -> bool:
    """A model a link or a file names waits, like an API, until the user loads it."""
    unconfirmed = key_of(side, "model_unconfirmed")
    if not name or ss.get(unconfirmed) != name:
        return True
    st.warning(tr("app.model_confirm", name=md(name)))
    st.button(tr("app.model_load"), key=key_of(side, "model_confirm"),
              on_click=ss.pop, args=(unconfirmed, None))
    return False


def api_inputs(side: str) -> tuple[str, bool]:
    """Base URL and model name; an API named by a link or a file waits for "Connect"."""
    st.text_input(tr("app.api_base"), key=key_of(side, "api_base"),
                  placeholder="http://localhost:11434/v1",
                  help=tr("app.api_base_help", seconds=f"{budget_seconds():g}"))
    st.text_input(tr("app.api_model"), key=key_of(side, "api_model"),
                  placeholder="text-embedding-3-small")
    if side == "a" or ss.get(key_of("a", "model_choice")) != OPENAI:
        # the key right under the URL and model it goes with (one key for both sides):
        # apart from them, a user typed URL and model first and met a 401 before the key
        st.text_input(tr("app.api_key"), key="api_key", type="password",
                      help=tr("app.api_key_help"), autocomplete="off")
    base = str(ss.get(key_of(side, "api_base"), "")).strip()
    model = str(ss.get(key_of(side, "api_model"), "")).strip()
    if not base or not model:
        return "", True
    cancelled = key_of(side, "api_cancelled")
    if ss.get(cancelled) == api_option(model, base):
        st.info(tr("app.api_cancelled", base=md(base)))
        st.button(tr("app.api_connect"), key=key_of(side, "api_reconnect"),
                  on_click=ss.pop, args=(cancelled, None))
        return api_option(model, base), False
    unconfirmed = key_of(side, "api_unconfirmed")
    if ss.get(unconfirmed) == (base, model):
        st.warning(tr("app.api_confirm", base=md(base)))
        st.button(tr("app.api_connect"), key=key_of(side, "api_connect"),
                  on_click=ss.pop, args=(unconfirmed, None))
        return api_option(model, base), False
    return api_option(model, base), True


def api_option(model: str, base: str) -> str:
    """The model option for what was typed; a base that is not an http(s) URL stays in it
    as typed, so loading refuses it with one sentence (never the default API instead)."""
    try:
        return openai_name(model, base)
    except ModelLoadError:
        return f"{OPENAI_PREFIX}{model}@{base}"


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
        if from_outside:
            ss[key_of(side, "model_shared")] = ss[key_of(side, "model_unconfirmed")] = name


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
            model = loaded_model(request.name, request.shared)
            ss[active] = model.name if request.name in BUNDLED_MODELS else request.name
            return model
        except ModelLoadError as error:
            failure = render(error, lang())
    try:
        fallback = loaded_model(str(ss[active]), is_shared(side, str(ss[active])))
    except ModelLoadError:  # the model that worked fails now too (e.g. its API key changed)
        ss[active] = DEFAULT_MODEL
        fallback = loaded_model(DEFAULT_MODEL)
    if failure is not None:
        request.slot.error(tr("app.model_failed", error=md(failure), name=md(fallback.name)))
    return fallback


def loaded_model(name: str, shared: bool = False) -> Embedder:
    """The cached model, loaded with a progress bar in the main area the first time (a
    preload already running is waited for, not repeated); ``shared``: named by a link."""
    key = api_key() if name.startswith(OPENAI_PREFIX) else None
    digest = hashlib.sha256(key.encode()).hexdigest() if key else ""
    if shared:
        digest += SHARED_MARK
    cache_key = f"{name}\0{digest}"
    if cache_key in _LOADED:
        return get_model(name, digest, key)
    note = st.empty()
    started = _PRELOAD_STARTED.get(cache_key, time.monotonic())
    try:
        model = _load_showing_progress(name, digest, key, note, started)
    finally:
        note.empty()
    _LOADED.add(cache_key)
    seconds = time.monotonic() - started
    # a toast, not a banner: the first screen is for the scores (issue 9)
    st.toast(tr("app.model_loaded", name=md(display_name(name)), seconds=f"{seconds:.0f}"))
    return model


def _load_showing_progress(name: str, digest: str, key: str | None, note: DeltaGenerator,
                           started: float) -> Embedder:
    """Load in a helper thread while this run redraws the bar twice a second (time spent
    against the usual load time). A run the user leaves stops drawing; the load goes on
    and its model is cached for the next run."""
    result: list[Embedder] = []
    failure: list[BaseException] = []

    def load() -> None:
        try:
            result.append(get_model(name, digest, key))
        except BaseException as error:  # handed back to the page's thread
            failure.append(error)

    # in the run's context: an API's probe counts against the run's budget
    loader = threading.Thread(target=contextvars.copy_context().run, args=(load,),
                              name=f"ragviz-load-{name}", daemon=True)
    add_script_run_ctx(loader, get_script_run_ctx())
    loader.start()
    expected = LOAD_SECONDS.get(name)
    if name.startswith(OPENAI_PREFIX):
        with note.container():
            waiting = st.empty()
            # unique per load: a run may load the same API twice (its fallback); the click's
            # callback is found by the id this run gave it
            st.button(tr("app.api_cancel"), key=f"api_cancel_{time.monotonic_ns()}",
                      on_click=cancel_connection, args=(name,))
        note = waiting
    while loader.is_alive():
        elapsed = time.monotonic() - started
        if expected:
            note.progress(min(elapsed / expected, 0.99),
                          text=f"{loading_text(name)} {elapsed:.0f} s")
        else:
            note.info(f"{loading_text(name)} {elapsed:.0f} s")
        loader.join(0.5)
    if failure:
        raise failure[0]
    return result[0]


def cancel_connection(name: str) -> None:
    """Stop waiting for the API ``name``: each side that asks for it keeps its last model
    until the user connects again (the request itself ends by its timeout, unseen)."""
    for side in SIDES:
        base = str(ss.get(key_of(side, "api_base"), "")).strip()
        model = str(ss.get(key_of(side, "api_model"), "")).strip()
        if base and model and api_option(model, base) == name:
            ss[key_of(side, "api_cancelled")] = name


def loaded_keys() -> frozenset[str]:
    """The cache keys of the models this process has loaded (for ``heap.settle``)."""
    return frozenset(_LOADED)


def preload_names() -> list[str]:
    """The models RAGVIZ_PRELOAD_MODELS names (comma-separated; API models are left out:
    they need a key and a connection the user confirms)."""
    names = os.environ.get(PRELOAD_ENV, "").split(",")
    return [n.strip() for n in names if n.strip() and not n.strip().startswith(OPENAI_PREFIX)]


def preload_in_background() -> list[threading.Thread]:
    """Once per server process, after its first page is drawn (so it does not slow that
    page down), load the models RAGVIZ_PRELOAD_MODELS names in background threads into
    the same cache the pickers use; returns the threads started by this call."""
    started: list[threading.Thread] = []
    with _PRELOAD_LOCK:
        for name in preload_names():
            cache_key = f"{name}\0"
            if cache_key in _PRELOAD_STARTED or cache_key in _LOADED:
                continue
            _PRELOAD_STARTED[cache_key] = time.monotonic()
            thread = threading.Thread(target=_preload, args=(name,), daemon=True,
                                      name=f"ragviz-preload-{name}")
            add_script_run_ctx(thread, get_script_run_ctx())
            thread.start()
            started.append(thread)
    return started


def _preload(name: str) -> None:
    try:
        get_model(name, "", None)
    except ModelLoadError:
        return  # the picker says why when the user chooses it
    _LOADED.add(f"{name}\0")


def api_key() -> str | None:
    """The key typed in this session, else None (the embedder reads OPENAI_API_KEY, for the
    hosts the operator allowed only)."""
    typed = str(ss.get("api_key", "") or "").strip()
    return typed or None


@st.cache_resource(show_spinner=False, max_entries=6)
def get_model(name: str, key_digest: str, _api_key: str | None) -> Embedder:
    """One model object per server and name (and per API key, by its digest only, so one
    session's key never serves another's; a name from a link is marked, as it loads
    differently); embeddings are shared through its cache."""
    return load_embedder(name, api_key=_api_key, shared=key_digest.endswith(SHARED_MARK))


def display_name(name: str) -> str:
    """all-MiniLM-L6-v2 for minilm-en: the name the user knows the model by."""
    described = BUNDLED_MODELS.get(name)
    return described.split(" (")[0] if described else name


def loading_text(name: str) -> str:
    if name.startswith(OPENAI_PREFIX):
        try:
            base = parse_openai_name(name)[1] or "api.openai.com"
        except ModelLoadError:
            base = "?"
        return tr("app.model_connecting", base=md(base), timeout=f"{REQUEST_TIMEOUT_S:g}")
    if name in LOAD_SECONDS:
        return tr("app.model_loading_first", name=display_name(name),
                  seconds=LOAD_SECONDS[name])
    return tr("app.model_loading_any", name=md(name))
