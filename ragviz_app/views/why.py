"""The "why did this fail" tab: one question under A or B, its diagnosis, and the nearest
setting of the sweep grid that fixes it (loadable into A)."""

from __future__ import annotations

import streamlit as st

from ragviz import app_state as state
from ragviz import presentation
from ragviz.corpus import Corpus
from ragviz.experiments import default_grid, why_failed
from ragviz.questions import LabelledQuestion
from ragviz.results import RetrievalSettings
from ragviz_app.common import SIDES, lang, md, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.session import load_into_a


def why_tab(frame: Frame, document: str | Corpus) -> None:
    st.caption(tr("app.why_intro"))
    first, second = st.columns([3, 2])
    first.text_input(tr("col.question"), key="why_question")
    second.text_input(tr("col.answer"), key="why_answer")
    third, fourth, fifth = st.columns([1, 1, 2])
    third.checkbox(tr("col.answerable"), key="why_answerable")
    fourth.radio(tr("app.why_config"), SIDES, key="why_side", format_func=str.upper,
                 horizontal=True)
    run = fifth.button(tr("app.why_run"), key="why_run", type="primary")
    config = frame.configs.get(ss.why_side)
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
    others = [q for q in frame.questions if q.question != question.question]
    bar = st.progress(0.0)

    def report(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=tr("app.sweep_count", done=done, total=total))

    result = why_failed(document, question, others, frame.model, config,
                        default_grid(state.document_chars(document)),
                        RetrievalSettings(frame.top_k, frame.floor), progress=report)
    bar.empty()
    badges = " ".join(
        f":{'green' if x == 'ok' else 'red'}-badge[{presentation.label_name(x, lang())}]"
        for x in result.diagnosis.labels)
    st.markdown(badges)
    st.markdown(md(presentation.diagnosis_text(result.diagnosis, lang())))
    if result.fix is not None:
        st.success(md(presentation.why_failed_text(result, lang())))
        st.button(tr("app.load_fix"), key="load_fix", on_click=load_into_a, args=(result.fix,))
    else:
        st.info(md(presentation.why_failed_text(result, lang())))
