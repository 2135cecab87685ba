"""The frame every view shares: configurations A and B, top_k and the floor, and the two
analyses computed from them (memoised in the session, rescored when only top_k or the
floor move)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.chunking import CHUNKER_NAMES, ChunkerConfig, ChunkingResult, get_spec
from ragviz.chunking.registry import PEERS_EXTRA, missing_peers
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError, ModelLoadError
from ragviz.evaluation.calibration import calibrate_outcomes
from ragviz.evaluation.measures import get_metric, panel_metrics
from ragviz.evaluation.metrics import metrics_per_file
from ragviz.evaluation.pipeline import analyse, chunk_document, rescore
from ragviz.evaluation.results import MAX_EXPAND, Analysis, Metrics, RetrievalSettings
from ragviz.evaluation.sweeping import seconds_left_at, time_left_text
from ragviz.i18n import grouped, render, t
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.limits import TOP_K_RANGE
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present import presentation
from ragviz.present.label_words import help_markdown
from ragviz.present.param_words import param_title
from ragviz.retrieval.scorers import DEFAULT_SCORER, scorer_names
from ragviz_app import app_state as state
from ragviz_app import background, floors, levels, size_hold
from ragviz_app.common import (
    NO_RERANK,
    RERANKERS,
    SIDES,
    expand_of,
    fit_slider,
    lang,
    md,
    retrieval,
    scale_of,
    scorer_name,
    ss,
    tr,
)
from ragviz_app.session import moved_import, set_floor

# The fragment that draws everything top_k and the floor change (ragviz_app/retrieval_part.py).
# Its widgets rerun it alone by themselves; a callback elsewhere (a future tab's control) can
# name it: st.rerun(RETRIEVAL_FRAGMENT). Not from the sliders' own callbacks: there the named
# rerun replaces the one under way, a second run of the fragment (measured: 0.21 s of server
# CPU per floor step instead of 0.13 s).
RETRIEVAL_FRAGMENT = "retrieval"
PROGRESS_AFTER = 16  # texts to embed before a progress bar is worth showing (~1 s)
MEMO_SIZE = 8
# Chunks not yet embedded past which a new document waits for keep-or-clear before embedding
# (about a second on the bundled model: a pasted page embeds at once, a book waits)
WAIT_FOR_ANSWER_TEXTS = 500


@dataclass
class Frame:
    """What the views read: the document (a text, or a corpus of several files), each side's
    model, the checked questions, both configurations (None where invalid), their analyses
    and the errors that stopped one."""

    document: str | Corpus | None
    models: dict[str, Embedder]
    questions: list[LabelledQuestion]
    configs: dict[str, ChunkerConfig | None]
    analyses: dict[str, Analysis | None]
    errors: dict[str, str]
    top_k: int
    index: Any = None  # a production index's view (``ragviz_app.index_frame.IndexView``)
    # a side waiting for something the user has not given yet (B without source files):
    # said in a neutral box, since nothing is wrong
    notes: dict[str, str] = field(default_factory=dict)
    # the previous document's questions while keep-or-clear is asked: kept, not scored
    waiting: list[LabelledQuestion] = field(default_factory=list)

    @property
    def model(self) -> Embedder:
        """A's model (B's too unless B has its own: see ``model_of``)."""
        return self.models["a"]

    @property
    def floor(self) -> float:
        """A's floor (B's too unless B's model differs: see ``floor_of``)."""
        return floors.floor_of("a")

    def model_of(self, side: str) -> Embedder:
        return self.models[side]

    def floor_of(self, side: str) -> float:
        return floors.floor_of(side)

    def ready(self) -> list[Analysis]:
        """The analyses that exist, A before B."""
        return [a for a in (self.analyses["a"], self.analyses["b"]) if a is not None]


def config_widgets(side: str, n_chars: int) -> ChunkerConfig:
    """Chunker select and its sliders (ranges fitted to the document) for one side."""
    # the chunker picker beside the title saves a row; on a narrow screen it wraps under
    # it (LAYOUT_CSS, .st-key-config_head_*) instead of cutting the chunker's name
    with st.container(key=f"config_head_{side}"):
        title, select = st.columns([4, 5], vertical_alignment="bottom")
        title.subheader(tr(f"app.config_{side}"))
        chunker = select.selectbox(tr("app.chunker"), CHUNKER_NAMES, key=f"{side}_chunker",
                                   format_func=chunker_title)
    call_slot = _peer_notes(side, chunker)
    values: dict[str, Any] = {}
    modes = state.semantic_modes(chunker)
    if modes:
        levels.second(f"mode_{side}").radio(
            tr("app.semantic_mode"), modes, key=f"{side}_mode", horizontal=True,
            format_func=lambda name: param_title(get_spec(chunker).param(name), lang()),
        )
        values["mode"] = ss[f"{side}_mode"]
    specs = state.param_specs(chunker, n_chars)
    shown = [s for s in specs if not _hidden(side, chunker, s.name)]
    for note in moved_import(side, {f"{side}_{s.name}": (s.label(lang()), s.clamp(
            ss.get(f"{side}_{s.name}", s.default))) for s in shown}):
        st.warning(note)
    # the retrieval popover beside the sliders: a row of its own pushed the first question's
    # bars below the fold
    *columns, retrieval = st.container(key=f"config_params_{side}").columns(
        [*([1.0] * max(1, len(shown))), 0.55], vertical_alignment="bottom")
    with retrieval, levels.second(f"col_retrieval_{side}"):
        retrieval_widgets(side)
    for column, spec in zip(columns, shown, strict=False):
        key = f"{side}_{spec.name}"
        fit_slider(key, (spec.low, spec.high, spec.step), spec.clamp(ss.get(key, spec.default)))
        first = levels.first_level_param(chunker, spec.name)
        with column, (st.container() if first else levels.second(f"col_{key}")):
            if spec.integer and (spec.high - spec.low) / spec.step > TYPED_STEPS:
                typed_slider(spec, key, _param_help(chunker, spec.name))
            elif spec.integer:
                st.slider(spec.label(lang()), int(spec.low), int(spec.high),
                          step=int(spec.step), key=key, help=_param_help(chunker, spec.name))
            else:
                st.slider(
                    spec.label(lang()), float(spec.low), float(spec.high),
                    step=float(spec.step), key=key, format="%.2f",
                )
    for spec in specs:
        key = f"{side}_{spec.name}"
        values[spec.name] = ss.get(key, spec.default)
    config = state.config_from_values(chunker, values, n_chars)
    if call_slot is not None:  # the call that runs: the sliders' values, fitted to the text
        call_slot.markdown(tr("app.peer_call", call=get_spec(chunker).call_text(config.params())))
    return config


# Peer libraries' class names lose the words every one of them ends with, so the select
# shows the whole name ("LangChain · Recursive"); the call under the sliders names the class.
_SHORTER = ((re.compile(r"(Text)?(Splitter|Chunker)\b"), ""),
            (re.compile(r"(?<=Recursive)Character|(?<=Markdown)Header| \+ Recursive"), ""),
            (re.compile(r"\(tokenizer=model\)"), " (model)"),
            (re.compile(r"^(\w+) · \1\.chunk$"), r"\1"))


def chunker_title(name: str) -> str:
    """A chunker's name as its select shows it."""
    title = get_spec(name).title
    for pattern, replacement in _SHORTER:
        title = pattern.sub(replacement, title)
    return title


TYPED_STEPS = 500  # past this many steps a slider gets a box to type its number in
BOX_PREFIX = "typed_"  # the box of slider ``a_size`` is ``typed_a_size``


def typed_slider(spec: state.ParamSpec, key: str, help_text: str | None) -> None:
    """A slider over a wide range (1-4,000) with a box beside it to type the number: each
    follows the other (the box's callback moves the slider before the run; a moved slider,
    a link or a workspace puts its value in the box before the box is drawn)."""
    box = f"{BOX_PREFIX}{key}"
    if ss.get(box) != ss[key]:
        ss[box] = ss[key]
    with st.container(key=f"{BOX_PREFIX}label_{key}"):
        # the label over both (under the slider alone it wrapped into four lines), styled
        # as a widget's label (main.LAYOUT_CSS); the slider keeps it for screen readers
        # a line may break after an underscore ("máx_" / "caracteres"), never inside a word
        st.caption(spec.label(lang()).replace("_", "_\u200b"), help=help_text)
        slider_col, box_col = st.columns([3, 2], gap="small", vertical_alignment="bottom")
    slider_col.slider(spec.label(lang()), int(spec.low), int(spec.high), step=int(spec.step),
                      key=key, label_visibility="collapsed", help=help_text)
    box_col.number_input(spec.label(lang()), int(spec.low), int(spec.high),
                         step=int(spec.step), key=box, label_visibility="collapsed",
                         on_change=_typed, args=(key,))


def _typed(key: str) -> None:
    """The number typed in a slider's box becomes the slider's value."""
    typed = ss.get(f"{BOX_PREFIX}{key}")
    if isinstance(typed, int):
        ss[key] = typed


def retrieval_widgets(side: str) -> None:
    """The side's scorer, reranker and prompt neighbours in a popover beside the chunker,
    its button saying what is chosen (A dense and B hybrid + rerank on the same questions,
    side by side), so the first screen keeps its height."""
    for key, default in ((f"{side}_scorer", ss.get("a_scorer", DEFAULT_SCORER)),
                         (f"{side}_rerank", NO_RERANK), (f"{side}_expand", 0)):
        ss.setdefault(key, default)
    expand = expand_of(side)
    full = tr("app.retrieval_label", spec=scorer_name(side),
              expand=tr("app.retrieval_expand", n=expand) if expand else "")
    # an icon: a name in a button this narrow was cut ("co…"); the summary under the
    # sliders says the retrieval once it is not plain cosine
    with st.popover(":material/tune:", help=full, use_container_width=True):
        st.caption(full)
        st.selectbox(tr("app.scorer"), scorer_names(), key=f"{side}_scorer",
                     help=tr("app.scorer_help"))
        st.selectbox(tr("app.reranker"), RERANKERS, key=f"{side}_rerank",
                     help=tr("app.reranker_help"))
        st.number_input(tr("app.expand"), 0, MAX_EXPAND, step=1, key=f"{side}_expand",
                        help=tr("app.expand_help"))


def _peer_notes(side: str, chunker: str) -> DeltaGenerator | None:
    """Under a peer chunker, the place of its library call (filled once the sliders have
    fitted its values to the document, so it shows the call that runs: to copy into a
    pipeline); under A's picker, the one install hint when peer libraries are missing."""
    # body text, not a caption: on a projector the picker cuts a long class name, and
    # this line is where the room reads which library call A or B is
    slot = st.empty() if get_spec(chunker).call else None
    missing = missing_peers()
    if side == "a" and missing:
        libraries = ", ".join(dict.fromkeys(missing.values()))
        st.caption(tr("app.peers_missing", libraries=libraries, hint=PEERS_EXTRA))
    return slot


def _param_help(chunker: str, name: str) -> str | None:
    """A peer parameter's tooltip: the library's own name for it, in its call."""
    spec = get_spec(chunker)
    return tr("app.peer_param", name=name, call=spec.call.split("(")[0]) if spec.call else None


def _hidden(side: str, chunker: str, name: str) -> bool:
    """A chunker with alternatives (semantic: threshold or percentile) shows one slider."""
    modes = state.semantic_modes(chunker)
    if name not in modes:
        return False
    return bool(ss.get(f"{side}_mode", modes[0]) != name)


def memo_key(document: str | Corpus, config: ChunkerConfig, model: Embedder,
             questions: list[LabelledQuestion], side: str = "a") -> tuple[Any, ...]:
    """What an analysis depends on apart from top_k and the floor (not the language:
    sentences are made from the facts at display time)."""
    return (model.name, state.document_key(document), config, tuple(questions),
            scorer_name(side), expand_of(side))


def memoised(document: str | Corpus, config: ChunkerConfig, model: Embedder,
             questions: list[LabelledQuestion], top_k: int, floor: float,
             side: str = "a") -> Analysis | None:
    """The analysis already made for these inputs, rescored when top_k or the floor moved
    (no chunking, no model call), or None."""
    key = memo_key(document, config, model, questions, side)
    memo: dict[Any, Analysis] = ss["_memo"]
    base = memo.get(key)
    if base is None or (base.top_k == top_k and base.floor == floor):
        return base
    memo[key] = rescore(base, moved(base, top_k, floor))  # a rerun reuses the decisions
    return memo[key]


def moved(analysis: Analysis, top_k: int, floor: float) -> RetrievalSettings:
    """``analysis``'s own retrieval settings at another top_k and floor."""
    return replace(analysis.settings, top_k=top_k, floor=floor)


def run_analysis(
    document: str | Corpus, config: ChunkerConfig, model: Embedder,
    questions: list[LabelledQuestion], top_k: int, floor: float,
    chunking: ChunkingResult | None = None,
    progress_slot: DeltaGenerator | None = None, side: str = "a",
) -> Analysis:
    """The memoised analysis, else chunk (unless ``chunking`` is given), embed with a
    progress bar (in ``progress_slot`` when given) and judge every question.

    The progress bar is drawn after every batch, and drawing is where Streamlit stops a
    run the user has left (a new slider move): the batches already embedded stay cached."""
    found = memoised(document, config, model, questions, top_k, floor, side)
    if found is not None:
        return found
    slot = progress_slot.empty() if progress_slot is not None else st.empty()
    with st.spinner(tr("app.embedding", config=config.label())):
        base = analyse(document, config, model, questions, retrieval(top_k, floor, side),
                       embedding_progress(slot), chunking)
    slot.empty()
    memo: dict[Any, Analysis] = ss["_memo"]
    memo[memo_key(document, config, model, questions, side)] = base
    while len(memo) > MEMO_SIZE:
        memo.pop(next(iter(memo)))
    return base


def embedding_progress(slot: Any) -> Callable[[int, int], None]:
    """The bar of a long embedding: chunks embedded of all and, once a batch is in, the
    time left at the pace measured so far (issue 44.4)."""
    started = time.monotonic()

    def report(done: int, total: int) -> None:
        if total >= PROGRESS_AFTER:
            text = tr("app.embedding_count", done=grouped(done, lang()),
                      total=grouped(total, lang()))
            left = time_left_text(seconds_left_at(done, total, time.monotonic() - started)) \
                if done < total else None
            if left is not None:
                text += " · " + tr("sweep.time_left", time=left)
            slot.progress(done / total if total else 1.0, text=text)
    return report


def config_inputs(columns: Sequence[DeltaGenerator],
                  n_chars: int) -> dict[str, ChunkerConfig | None]:
    """Configurations A and B, each in its column under its title."""
    configs: dict[str, ChunkerConfig | None] = {}
    for side, column in zip(SIDES, columns, strict=True):
        with column:
            configs[side] = config_widgets(side, n_chars)
    return configs


# Shows the chunks of the sides about to be embedded; returns where each side's progress goes.
Preview = Callable[[dict[str, ChunkingResult]], dict[str, DeltaGenerator]]


def compute(document: str | Corpus | None, models: dict[str, Embedder],
            questions: list[LabelledQuestion],
            configs: dict[str, ChunkerConfig | None], preview: Preview | None = None,
            asking: bool = False) -> Frame:
    """Both analyses, each with its side's model, at the current top_k and its side's
    floor. Sides not memoised are chunked first and shown by ``preview`` before any
    embedding (the background fill of this session stops first); a floor that does not
    exist yet (a first visit) is measured from the labels. While keep-or-clear is
    ``asking``, a long embedding waits for the answer (``wait_for_answer``)."""
    top_k = int(ss.top_k)
    floors.ensure()
    background.stop()
    frame = Frame(document, models, questions, configs, dict.fromkeys(SIDES), {}, top_k)
    if document is not None:
        pending: dict[str, ChunkingResult] = {}
        sizes, over = list(configs.values()), []  # (a refusal empties its side's config)
        for side in SIDES:
            config = configs[side]
            assert config is not None
            with refusing(frame, side):
                found = memoised(document, config, models[side], questions, top_k,
                                 floors.floor_of(side), side)
                try:
                    if found is None:
                        pending[side] = chunk_document(document, config, models[side])
                except InputError as error:
                    over += [side] if error.key == size_hold.TOO_MANY else []
                    raise
                frame.analyses[side] = found
        if over and pending and size_hold.held(document, sizes):
            frame.notes.update({side: tr("app.embedding_held", side=over[0].upper())
                                for side in pending})
            pending = {}
        if asking and wait_for_answer(pending, models):
            frame.notes.update({side: tr("app.embedding_waits_answer") for side in pending})
            pending = {}
        if pending:
            background.wait_stopped()
        slots = preview(pending) if pending and preview is not None else {}
        for side, chunking in pending.items():
            config = configs[side]
            assert config is not None
            with refusing(frame, side):
                frame.analyses[side] = run_analysis(
                    document, config, models[side], questions, top_k, floors.floor_of(side),
                    chunking, slots.get(side), side)
    first_floors(frame)
    return frame


def wait_for_answer(pending: Mapping[str, ChunkingResult], models: Mapping[str, Embedder]) -> bool:
    """Whether the chunks to embed are too many to embed before the user has answered
    keep-or-clear (issue 45 item 5): a large upload spent minutes embedding for questions
    the user was about to clear, and the page answered the click only after."""
    missing = 0
    for side, chunking in pending.items():
        texts = [chunk.text for chunk in chunking.chunks]
        missing += len(set(texts) - models[side].cached_texts(texts))
    return missing > WAIT_FOR_ANSWER_TEXTS


@contextmanager
def refusing(frame: Frame, side: str) -> Iterator[None]:
    """A configuration the chunker refuses, or an API that fails while embedding, leaves
    its side without an analysis and with one sentence saying why."""
    try:
        yield
    except ValueError as error:
        frame.errors[side] = tr("app.config_error", error=render(error, lang()).rstrip("."))
        frame.configs[side] = None
    except ModelLoadError as error:
        frame.errors[side] = render(error, lang())
        frame.configs[side] = None


def first_floors(frame: Frame) -> None:
    """Measure each missing floor from its calibrating side's labels (B for the shared
    floor) and rescore the sides that use it."""
    missing = floors.missing()
    if not missing:
        return
    for calibrating, key in floors.floor_keys().items():
        if key in ss:
            continue
        analysis = frame.analyses[calibrating]
        calibrated = analysis.calibration if analysis is not None else None
        ss[key] = state.slider_floor(calibrated.floor, scale_of(analysis)) \
            if calibrated is not None else 0.0
        floors.record(key, frame.models[calibrating].name)
    for side in missing:
        current = frame.analyses[side]
        if current is not None:
            frame.analyses[side] = rescore(
                current, moved(current, frame.top_k, floors.floor_of(side)))


def retrieval_controls(container: DeltaGenerator, frame: Frame) -> None:
    """top_k and the floor (one per side when A and B use different models, with the
    reason), each with its side's suggested floor and, when the floor was set on another
    model, the offer to recalibrate."""
    with container:
        sides = floors.floor_keys()
        k_col, *floor_cols = st.columns([1, *([3] * len(sides))])
        k_col.slider(tr("app.top_k"), *TOP_K_RANGE, key="top_k")
        for (side, key), column in zip(sides.items(), floor_cols, strict=True):
            with column:
                floor_controls(frame, side, key, len(sides) > 1)
        if len(sides) > 1:
            st.caption(tr("app.floors_why"))


def lowest_scores(analyses: Sequence[Analysis | None]) -> list[float]:
    """Each question's lowest finite score: all the floor's range needs, read on every step
    without turning a thousand questions' scores over ten thousand chunks into a list."""
    lows = []
    for analysis in analyses:
        for outcome in analysis.outcomes if analysis is not None else ():
            scores = outcome.decision.scores
            finite = scores[np.isfinite(scores)]
            if finite.size:
                lows.append(float(finite.min()))
    return lows


def highest_score(analyses: Sequence[Analysis | None]) -> float | None:
    """The best finite score of any question: the top of an unbounded scale (BM25)."""
    tops = [float(best) for analysis in analyses if analysis is not None
            for outcome in analysis.outcomes
            if np.isfinite(best := outcome.decision.best_score)]
    return max(tops, default=None)


def floor_controls(frame: Frame, side: str, key: str, per_side: bool) -> None:
    """One floor slider (its range fitted to the scores it judges), its suggested floor
    (measured on ``side``'s labels with the Calibration tab's cost weights) and, when the
    floor was set on another model, a warning and the measured floor to apply."""
    judged = [frame.analyses[s] for s in ((side,) if per_side else SIDES)]
    scale = scale_of(frame.analyses[side])
    low, high = state.floor_range(lowest_scores(judged), scale, highest_score(judged))
    fit_slider(key, (low, high, scale.step), min(max(float(ss[key]), low), high))
    model = frame.models[side].name
    label = tr("app.floor_side", side=side.upper(), model=model) if per_side else tr("app.floor")
    analysis = frame.analyses[side]
    suggestion = (
        calibrate_outcomes(analysis.outcomes, ss.cost_refusal, ss.cost_answer, scale)
        if analysis is not None and analysis.calibration is not None else None
    )
    # where the suggestion was measured goes in the floor's tooltip: as a caption under the
    # button it pushed the first question's bars below the fold
    measured = "" if suggestion is None else "\n\n" + tr(
        "app.margin_b" if side == "b" else "app.margin_a",
        margin=presentation.format_score(suggestion.margin, lang()))
    slider_col, button_col = st.columns([2, 1.2])
    slider_col.slider(label, low, high, step=scale.step, key=key, format=f"%.{scale.digits}f",
                      help=tr("app.floor_help") + measured, on_change=floors.on_floor_moved,
                      args=(key, side))
    if suggestion is None:
        return
    shown = presentation.format_score(suggestion.floor, lang())
    old_model = floors.stale(side)
    if old_model is not None:
        st.warning(tr("app.floor_stale", floor=presentation.format_score(float(ss[key]), lang()),
                      side=tr(f"app.config_{side}"), old=md(old_model), new=md(model)))
        st.button(tr("app.floor_recalibrate", model=md(model), floor=shown),
                  key=f"recalibrate_{key}", on_click=set_floor, args=(suggestion.floor, side),
                  type="primary")
        return
    if state.slider_floor(suggestion.floor, scale) == state.slider_floor(float(ss[key]), scale):
        return  # the floor already is the suggestion: no button that would change nothing
    button_key = "apply_floor" if key == floors.SHARED else "apply_own_floor_b"
    button_col.button(tr("app.apply_floor_side", side=side.upper(), floor=shown),
                      key=button_key,
                      on_click=set_floor, args=(suggestion.floor, side), type="primary",
                      width="stretch")


def summary_slots(columns: Sequence[DeltaGenerator]) -> dict[str, DeltaGenerator]:
    """A place under each configuration's widgets for its chunk count and metrics (the
    page puts the early chunk count and the progress in it while the scores are recomputed)."""
    slots: dict[str, DeltaGenerator] = {}
    for side, column in zip(SIDES, columns, strict=True):
        with column:
            slots[side] = st.container()
    return slots


def config_summaries(slots: dict[str, DeltaGenerator], frame: Frame) -> None:
    """Under each configuration: its error, or its chunk count and metrics (B against A)."""
    for side in SIDES:
        other = frame.analyses["b" if side == "a" else "a"]
        with slots[side].container():
            if side in frame.errors:
                st.error(md(frame.errors[side]))
            elif side in frame.notes:
                st.info(md(frame.notes[side]))
            current = frame.analyses[side]
            if current is not None:
                count = tr("app.chunk_count", n=len(current.chunks),
                           label=presentation.config_text(current.config, lang()))
                if current.settings.scorer != DEFAULT_SCORER or current.settings.expand:
                    count += " · " + tr("app.retrieval_label", spec=current.settings.scorer,
                                        expand=tr("app.retrieval_expand",
                                                  n=current.settings.expand)
                                        if current.settings.expand else "")
                if frame.models["a"] is not frame.models["b"]:  # one model: the sidebar says
                    count += " · " + tr("app.models_caption", model=md(frame.models[side].name))
                # the big numbers first, so A's and B's sit level: the count's line wraps
                # on one side only on a narrow screen (B's sentence settings at 1024 px
                # pushed B's numbers 22 px below A's). The figures after the big ones are in
                # its tooltip: as a caption they pushed the first question's bars below the fold
                metrics_panel(current.metrics, other.metrics if other and side == "b" else None)
                st.caption(count, help=metrics_details(current.metrics))
                token_panel(current, side)


def pct(value: float | None) -> str:
    """A share as a whole percentage, "–" when there is nothing to count."""
    return "–" if value is None else f"{value:.0%}"


def metrics_panel(metrics: Metrics, other: Metrics | None) -> None:
    """The registry's headline metrics (hit@1, which tells whether the answer comes first,
    and refusal recall) as the big numbers, with B's change from A."""
    def delta(mine: float | None, theirs: float | None) -> str | None:
        if mine is None or theirs is None or abs(mine - theirs) < 1e-9:
            return None
        return tr("app.delta_points", delta=f"{(mine - theirs) * 100:+.0f}")

    names = panel_metrics("headline")
    for column, name in zip(st.columns(len(names)), names, strict=True):
        mine = metrics.values.get(name)
        column.metric(presentation.metric_label(name, lang()),
                      presentation.metric_text(name, mine, lang()),
                      delta(mine, other.values.get(name) if other else None))
    if metrics.answerable:  # the floor's cost, next to what it refuses rightly
        st.caption(presentation.answerable_refused(metrics, lang()),
                   help=tr("app.answerable_refused_help"))


def token_panel(analysis: Analysis, side: str) -> None:
    """With labelled excerpts (the benchmark's questions): recall, precision and IoU as mean
    ± std where the benchmark user looks, and folded under them the metrics per file of the
    corpus (its ``corpus_id``)."""
    metrics = analysis.metrics
    excerpts = any(o.question.references for o in analysis.outcomes)
    if metrics.values.get("recall") is None or not excerpts:
        return
    figures = []
    for name in panel_metrics("tokens"):
        spread = metrics.std.get(name)
        figures.append(f"**{presentation.metric_label(name, lang(), short=True)}** "
                       f"{pct(metrics.values.get(name))}"
                       + (f" ± {spread:.0%}" if spread is not None else ""))
    st.markdown(" · ".join(figures), help=tr("app.token_help"))
    if not analysis.corpus.multi_file:
        return
    per_file = metrics_per_file(analysis.outcomes, analysis.corpus)
    with st.expander(tr("app.per_file", n=len(per_file)), key=f"{side}_per_file"):
        st.dataframe(pd.DataFrame(per_file_rows(per_file, metrics.top_k, lang())),
                     hide_index=True, use_container_width=True)


def per_file_rows(per_file: Mapping[str, Metrics], top_k: int,
                  language: str) -> list[dict[str, object]]:
    """One row per file: its questions and every registered metric, read from the registry
    as the CLI's table reads them (a metric registered from outside too, headed by its name
    when the catalog has no label for it)."""
    names = presentation.shown_metrics(top_k)
    return [{t("app.per_file_name", language): name,
             t("app.per_file_questions", language): m.answerable,
             **{presentation.metric_label(n, language, short=True, k=top_k): m.values.get(n)
                for n in names}} for name, m in per_file.items()]


def metrics_details(metrics: Metrics) -> str:
    """The figures after the two big ones: every other registered metric (hit@k, MRR,
    refusal precision…) and the labels, then what each label counted means (this is a
    tooltip already: a label in it cannot have one of its own)."""
    counted = [(name, count) for name, count in sorted(metrics.labels.items()) if count]
    labels = ", ".join(f"{presentation.label_name(name, lang())} {count}"
                       for name, count in counted)
    figures = [
        f"{presentation.metric_label(name, lang(), short=True, k=metrics.top_k)} "
        f"{presentation.metric_text(name, metrics.values.get(name), lang())}"
        for name in presentation.shown_metrics(metrics.top_k)
        if get_metric(name).panel != "headline"
    ]
    line = " · ".join([*figures, tr("app.metrics_labels", labels=labels or "–")])
    meanings = help_markdown([name for name, _ in counted], lang())
    return f"{line}\n\n{meanings}" if meanings else line
