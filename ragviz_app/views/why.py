"""The "why did this fail" tab: one of the labelled questions (or a typed one) under A or
B, its diagnosis, and the nearest setting of the sweep grid that fixes it, loadable into A
or B.

The result is kept in the session with the inputs it was computed from (document,
question, the other questions, configuration, model, top_k, floor): it stays through any
rerun and disappears as soon as one of them changes, so it never describes another state.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ragviz.chunking import ChunkerConfig
from ragviz.evaluation.experiments import default_grid, why_failed
from ragviz.evaluation.results import WhyFailed
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present import presentation
from ragviz.present.label_words import badges_html
from ragviz_app import app_state as state
from ragviz_app.common import SIDES, lang, md, retrieval, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.session import load_into

FREE = "\x00free"  # the picker's "type another question" option (no question text is NUL)
RESULT_KEY = "_why_result"


def why_tab(frame: Frame, document: str | Corpus) -> None:
    st.caption(tr("app.why_intro"))
    question = picked_question(frame)
    side_col, run_col = st.columns([1, 2])
    side_col.radio(tr("app.why_config"), SIDES, key="why_side", format_func=str.upper,
                   horizontal=True)
    run = run_col.button(tr("app.why_run"), key="why_run", type="primary")
    config = frame.configs.get(ss.why_side)
    inputs = why_inputs(frame, document, question, config)
    stored = ss.get(RESULT_KEY)
    if stored is not None and stored[0] != inputs:
        del ss[RESULT_KEY]  # computed for other inputs: it would describe another state
    if run:
        if question is None:
            st.error(tr("app.why_empty"))
            return
        if config is None:
            st.error(tr("app.why_bad_config"))
            return
        ss[RESULT_KEY] = (inputs, diagnose(frame, document, question, config))
    if RESULT_KEY in ss and question is not None:
        show_result(ss[RESULT_KEY][1], question)


def picked_question(frame: Frame) -> LabelledQuestion | None:
    """The question the picker names: one of the table's questions, or the typed one (None
    while its text is empty). A pick the table no longer holds falls back to its first."""
    by_text = {q.question: q for q in reversed(frame.questions)}  # the first of duplicates
    options = [*dict.fromkeys(q.question for q in frame.questions), FREE]
    offered_none = ss.get("_why_had_questions") is False  # free text was all there was
    if ss.get("why_pick") not in options or (offered_none and ss.why_pick == FREE):
        ss.why_pick = options[0]
    ss["_why_had_questions"] = bool(frame.questions)
    free_text = tr("app.why_free")
    st.selectbox(tr("app.why_pick"), options, key="why_pick",
                 format_func=lambda text: free_text if text == FREE else text)
    if ss.why_pick != FREE:
        return by_text[ss.why_pick]
    first, second, third = st.columns([3, 2, 1])
    first.text_input(tr("col.question"), key="why_question")
    second.text_input(tr("col.answer"), key="why_answer")
    third.checkbox(tr("col.answerable"), key="why_answerable")
    text = str(ss.get("why_question", "")).strip()
    if not text:
        return None
    answerable = bool(ss.get("why_answerable", True))
    answer = str(ss.get("why_answer", "")).strip() if answerable else ""
    return LabelledQuestion(text, answer, answerable)


def why_inputs(frame: Frame, document: str | Corpus, question: LabelledQuestion | None,
               config: ChunkerConfig | None) -> tuple[Any, ...]:
    """Everything the diagnosis depends on: a stored result is shown only for these."""
    return (state.document_key(document), question, tuple(frame.questions), ss.why_side,
            config, frame.model.name, frame.top_k, frame.floor)


def diagnose(frame: Frame, document: str | Corpus, question: LabelledQuestion,
             config: ChunkerConfig) -> WhyFailed:
    """why_failed over the default grid, with a progress bar (the other questions must keep
    their outcome under the fix)."""
    others = [q for q in frame.questions if q.question != question.question]
    bar = st.progress(0.0)

    def report(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=tr("app.sweep_count", done=done, total=total))

    result = why_failed(document, question, others, frame.model_of(ss.why_side), config,
                        default_grid(state.document_chars(document)),
                        retrieval(frame.top_k, frame.floor_of(ss.why_side), ss.why_side),
                        progress=report)
    bar.empty()
    return result


def show_result(result: WhyFailed, question: LabelledQuestion) -> None:
    """The diagnosis, and the fix with one button per side to load it."""
    st.markdown(tr("app.why_result_for", question=md(question.question),
                   side=str(ss.why_side).upper()))
    st.markdown(badges_html(result.diagnosis.labels, lang()), unsafe_allow_html=True)
    st.markdown(md(presentation.diagnosis_text(result.diagnosis, lang())))
    if result.fix is None:
        st.info(md(presentation.why_failed_text(result, lang())))
        return
    st.success(md(presentation.why_failed_text(result, lang())))
    into_a, into_b = st.columns(2)
    into_a.button(tr("app.load_fix"), key="load_fix", on_click=load_into, args=("a", result.fix))
    into_b.button(tr("app.load_fix_b"), key="load_fix_b", on_click=load_into,
                  args=("b", result.fix))
