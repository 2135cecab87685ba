"""The first tab, the article's experiment: the question table, and for every question the
decision, the diagnosis, the score bars against the floor and the prompt."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz import app_state as state
from ragviz import charts, presentation, render
from ragviz.questions import LabelledQuestion
from ragviz.results import Analysis
from ragviz_app.common import lang, md, side_by_side, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.session import fold_question_edits


def edited_questions(tab: DeltaGenerator, is_open: bool) -> list[LabelledQuestion]:
    """The checked questions: from the editor when this tab is open, else from its base
    (pending edits folded in first). Problems are shown under the editor."""
    if is_open:
        with tab:
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
            edited_list = state.frame_questions(edited)
            ss["_questions_now"] = edited_list
    else:
        fold_question_edits()
        edited_list = state.frame_questions(ss.questions_base)
    questions, problems = state.checked_questions(edited_list)
    if is_open:
        with tab:
            for problem in problems:
                st.error(md(problem))
    return questions


def questions_tab(frame: Frame) -> None:
    """Every question with A's and B's outcome side by side."""
    if not frame.questions:
        st.info(tr("app.no_questions"))
    for position, question in enumerate(frame.questions):
        st.divider()
        st.markdown(f"#### {position + 1}. {md(question.question)}")
        if question.is_answerable and question.answer:
            st.caption(tr("app.expected", answer=md(question.answer)))
        elif question.is_answerable is False:
            st.caption(tr("app.unanswerable"))
        for side, current in side_by_side(frame.analyses):
            if current is not None and position < len(current.outcomes):
                question_view(current, position, side)


def question_view(analysis: Analysis, position: int, side: str, show_floor: bool = True,
                  large: bool = False) -> None:
    """One question under one configuration (also the replay's large version)."""
    outcome = analysis.outcomes[position]
    decision = outcome.decision
    text, explanation = presentation.outcome_texts(outcome, lang())
    colour = "orange" if decision.refused else "blue"
    st.markdown(f"{'### ' if large else ''}**:{colour}[{text}]**")
    if outcome.diagnosis is not None:
        badges = " ".join(
            f":{'green' if x == 'ok' else 'red'}-badge[{presentation.label_name(x, lang())}]"
            for x in outcome.diagnosis.labels
        )
        st.markdown(badges)
        if large:
            st.html(render.big_note(explanation))
        else:
            st.caption(md(explanation))
    st.altair_chart(
        charts.score_bars(decision, analysis.chunks,
                          analysis.floor if show_floor else None, "", lang(),
                          description=f"{side}: {outcome.question.question}", large=large,
                          labels=state.chunk_labels(analysis)),
        width="stretch",
    )
    prompt = presentation.prompt_text(outcome, analysis.chunks, lang())
    with st.expander(tr("app.prompt")):
        if prompt is None:
            st.write(tr("app.no_llm_call"))
        else:
            st.code(prompt, language=None, wrap_lines=True)
