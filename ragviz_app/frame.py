"""The frame every view shares: configurations A and B, top_k and the floor, and the two
analyses computed from them (memoised in the session, rescored when only top_k or the
floor move)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz import app_state as state
from ragviz import presentation
from ragviz.calibration import calibrate_outcomes
from ragviz.chunking import CHUNKER_NAMES, ChunkerConfig, get_spec
from ragviz.corpus import Corpus
from ragviz.embedders import Embedder
from ragviz.limits import TOP_K_RANGE
from ragviz.pipeline import analyse, rescore
from ragviz.questions import LabelledQuestion
from ragviz.results import Analysis, Metrics, RetrievalSettings
from ragviz_app.common import SIDES, lang, md, ss, tr
from ragviz_app.session import set_floor

PROGRESS_AFTER = 16  # texts to embed before a progress bar is worth showing (~1 s)
MEMO_SIZE = 8


@dataclass
class Frame:
    """What the views read: the document (a text, or a corpus of several files), the model,
    the checked questions, both configurations (None where invalid), their analyses and the
    errors that stopped one."""

    document: str | Corpus | None
    model: Embedder
    questions: list[LabelledQuestion]
    configs: dict[str, ChunkerConfig | None]
    analyses: dict[str, Analysis | None]
    errors: dict[str, str]
    top_k: int

    @property
    def floor(self) -> float:
        return float(ss.floor)

    def ready(self) -> list[Analysis]:
        """The analyses that exist, A before B."""
        return [a for a in (self.analyses["a"], self.analyses["b"]) if a is not None]


def config_widgets(side: str, n_chars: int) -> ChunkerConfig:
    """Chunker select and its sliders (ranges fitted to the document) for one side."""
    chunker = st.selectbox(tr("app.chunker"), CHUNKER_NAMES, key=f"{side}_chunker")
    values: dict[str, Any] = {}
    modes = state.semantic_modes(chunker)
    if modes:
        st.radio(
            tr("app.semantic_mode"), modes, key=f"{side}_mode", horizontal=True,
            format_func=lambda name: get_spec(chunker).param(name).label.get(lang(), name),
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
                st.slider(spec.label(lang()), int(spec.low), int(spec.high),
                          step=int(spec.step), key=key)
            else:
                st.slider(
                    spec.label(lang()), float(spec.low), float(spec.high),
                    step=float(spec.step), key=key, format="%.2f",
                )
    for spec in specs:
        key = f"{side}_{spec.name}"
        values[spec.name] = ss.get(key, spec.default)
    return state.config_from_values(chunker, values, n_chars)


def _hidden(side: str, chunker: str, name: str) -> bool:
    """A chunker with alternatives (semantic: threshold or percentile) shows one slider."""
    modes = state.semantic_modes(chunker)
    if name not in modes:
        return False
    return bool(ss.get(f"{side}_mode", modes[0]) != name)


def run_analysis(
    document: str | Corpus, config: ChunkerConfig, model: Embedder,
    questions: list[LabelledQuestion], top_k: int, floor: float,
) -> Analysis:
    """analyse() once per document/config/model/questions (memo in the session), then only
    rescore() when top_k or the floor move; the language is not in the key (sentences are
    made from the facts at display time)."""
    key = (model.name, state.document_key(document), config, tuple(questions))
    memo: dict[Any, Analysis] = ss["_memo"]
    base = memo.get(key)
    if base is None:
        slot = st.empty()
        with st.spinner(tr("app.embedding", config=config.label())):
            base = analyse(document, config, model, questions, RetrievalSettings(top_k, floor),
                           progress=_progress(slot))
        slot.empty()
        memo[key] = base
        while len(memo) > MEMO_SIZE:
            memo.pop(next(iter(memo)))
    if base.top_k == top_k and base.floor == floor:
        return base
    memo[key] = rescore(base, RetrievalSettings(top_k, floor))  # a rerun reuses the decisions
    return memo[key]


def _progress(slot: Any) -> Callable[[int, int], None]:
    def report(done: int, total: int) -> None:
        if total >= PROGRESS_AFTER:
            slot.progress(done / total if total else 1.0,
                          text=tr("app.embedding_count", done=done, total=total))
    return report


def config_inputs(columns: Sequence[DeltaGenerator],
                  n_chars: int) -> dict[str, ChunkerConfig | None]:
    """Configurations A and B, each in its column under its title."""
    configs: dict[str, ChunkerConfig | None] = {}
    for side, column in zip(SIDES, columns, strict=True):
        with column:
            st.subheader(tr(f"app.config_{side}"))
            configs[side] = config_widgets(side, n_chars)
    return configs


def compute(document: str | Corpus | None, model: Embedder, questions: list[LabelledQuestion],
            configs: dict[str, ChunkerConfig | None]) -> Frame:
    """Both analyses at the current top_k and floor; on a first visit (no floor yet) the
    floor is measured from B's labels and both are rescored to it."""
    top_k = int(ss.top_k)
    frame = Frame(document, model, questions, configs, dict.fromkeys(SIDES), {}, top_k)
    if document is not None:
        for side in SIDES:
            config = configs[side]
            assert config is not None
            try:
                frame.analyses[side] = run_analysis(document, config, model, questions, top_k,
                                                    float(ss.get("floor", 0.0)))
            except ValueError as error:
                frame.errors[side] = tr("app.config_error", error=str(error))
                configs[side] = None
    if "floor" not in ss:
        b_analysis = frame.analyses["b"]
        calibrated = b_analysis.calibration if b_analysis is not None else None
        ss.floor = state.slider_floor(calibrated.floor) if calibrated is not None else 0.0
        for side in SIDES:
            current = frame.analyses[side]
            if current is not None:
                frame.analyses[side] = rescore(current, RetrievalSettings(top_k, ss.floor))
    return frame


def retrieval_controls(container: DeltaGenerator, frame: Frame) -> None:
    """top_k and the floor (its range fitted to the scores), and B's suggested floor."""
    scores = [s for a in frame.analyses.values() if a is not None
              for o in a.outcomes for s in o.decision.scores]
    low, high = state.floor_range(scores)
    ss.floor = min(max(float(ss.floor), low), high)
    with container:
        k_col, floor_col, button_col = st.columns([1, 2, 1.2])
        k_col.slider(tr("app.top_k"), *TOP_K_RANGE, key="top_k")
        floor_col.slider(tr("app.floor"), low, high, step=0.01, key="floor", format="%.2f",
                         help=tr("app.floor_help"))
        b_analysis = frame.analyses["b"]
        suggestion = (
            calibrate_outcomes(b_analysis.outcomes, ss.cost_refusal, ss.cost_answer)
            if b_analysis is not None and b_analysis.calibration is not None
            else None
        )  # with the cost weights the Calibration tab sets
        if suggestion is not None:
            button_col.button(
                tr("app.apply_floor_b",
                   floor=presentation.format_score(suggestion.floor, lang())),
                key="apply_floor", on_click=set_floor, args=(suggestion.floor,),
                type="primary", width="stretch",
            )
            button_col.caption(tr("app.margin_b",
                                  margin=presentation.format_score(suggestion.margin, lang())))


def config_summaries(columns: Sequence[DeltaGenerator], frame: Frame) -> None:
    """Under each configuration: its error, or its chunk count and metrics (B against A)."""
    for side, column in zip(SIDES, columns, strict=True):
        other = frame.analyses["b" if side == "a" else "a"]
        with column:
            if side in frame.errors:
                st.error(md(frame.errors[side]))
            current = frame.analyses[side]
            if current is not None:
                st.caption(tr("app.chunk_count", n=len(current.chunks),
                              label=presentation.config_text(current.config, lang())))
                metrics_panel(current.metrics, other.metrics if other and side == "b" else None)


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
        f"{presentation.label_name(name, lang())} {count}"
        for name, count in sorted(metrics.labels.items()) if count
    )
    st.caption(tr("app.metrics_line", k=metrics.top_k, hit_k=pct(metrics.hit_at_k),
                  mrr=presentation.share(metrics.mrr, lang()),
                  precision=pct(metrics.refusal_precision), labels=labels or "–"))
