"""The first tab, the article's experiment: for every question the decision, the diagnosis,
the score bars against the floor and the prompt (the table above is question_editor's)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import pyarrow as pa
import streamlit as st

from ragviz.evaluation.results import Analysis
from ragviz.present import answers, charts, presentation, render
from ragviz.present.label_words import badges_html
from ragviz_app.common import lang, md, scale_of, side_by_side, tr
from ragviz_app.frame import Frame
from ragviz_app.views import check_answer, llm_view


def questions_tab(frame: Frame) -> None:
    """Every question with A's and B's outcome side by side. Everything is computed before
    the first element is drawn, so the run's messages leave together (see ``Shown``)."""
    if not frame.questions:
        st.info(tr("app.no_questions"))
        return
    positions = shown_questions([q.question for q in frame.questions])
    shown = {(position, side): question_shown(current, position, side)
             for position in positions for side, current in frame.analyses.items()
             if current is not None and position < len(current.outcomes)}
    asker = llm_view.llm_panel(frame, positions)  # "Ask the LLM", never on a slider step
    st.html(render.bars_key(lang()))  # one key for every chart below (they have none)
    for position in positions:
        question = frame.questions[position]
        if position:
            st.divider()
        st.markdown(f"#### {position + 1}. {md(question.question)}")
        if question.is_answerable and question.answer:
            st.caption(tr("app.expected", answer=md(question.answer)))
        elif question.is_answerable is False:
            st.caption(tr("app.unanswerable"))
        for side, current in side_by_side(frame.analyses, titled=False):
            if (position, side) in shown and current is not None:
                draw_question(shown[position, side], current, answer=partial(
                    llm_view.answer_slot, asker, current, position))
    llm_view.finish()


MANY_QUESTIONS = 20  # above this, a picker and one question's charts, not a pair per question


def shown_questions(texts: list[str]) -> list[int]:
    """Every question, or the one picked when there are many (a benchmark file of a
    thousand questions: the metrics hold them all, the charts one at a time)."""
    if len(texts) <= MANY_QUESTIONS:
        return list(range(len(texts)))
    picked = st.selectbox(tr("app.pick_question", n=len(texts)), range(len(texts)),
                          format_func=lambda i: f"{i + 1}. {texts[i][:120]}",
                          key="question_pick")
    return [int(picked or 0)]


@dataclass(frozen=True)
class Shown:
    """What one question under one configuration shows, computed before anything is drawn.

    Why apart: a run that computes between its elements sends them in bursts, and the
    browser renders the page once per burst; drawn from values computed beforehand, a floor
    step's messages leave within a few milliseconds (measured: docs/benchmarks.md, "Stop 20").
    """

    position: int
    side: str
    verdict: str  # Markdown: the decision in its colour
    badges: str  # HTML badges, one per diagnosis label, its meaning on hover ("" without)
    explanation: str
    spec: dict[str, Any]  # the score bars, datasets as Arrow tables
    note: str = ""  # where a reranker moved the answer's chunk ("first stage #7 → #1")


def question_shown(analysis: Analysis, position: int, side: str, show_floor: bool = True,
                   large: bool = False) -> Shown:
    """The texts and the bars of one question under one configuration."""
    outcome = analysis.outcomes[position]
    decision = outcome.decision
    text, explanation = presentation.outcome_texts(outcome, lang())
    colour = "orange" if decision.refused else "blue"
    badges = f":gray-badge[{tr('app.unlabelled_badge')}]" if outcome.diagnosis is None \
        else badges_html(outcome.diagnosis.labels, lang())  # meaning on hover (issue 43)
    if outcome.diagnosis is None:  # no label: never "ok", counted in no figure (issue 45)
        explanation = tr("app.unlabelled_note")
    spec = arrow_datasets(  # the same spec as score_bars, its data-free part built once
        charts.score_bars_spec(decision, analysis.chunks,
                               analysis.floor if show_floor else None, "", lang(),
                               description=f"{side}: {outcome.question.question}", large=large,
                               answer_chunks=outcome.diagnosis.holding_chunks
                               if outcome.diagnosis is not None else (), keyed=large,
                               labels=charts.chunk_labels(analysis),
                               scale=scale_of(analysis),
                               first_ranks=answers.first_stage_ranks(outcome)))
    return Shown(position, side, f"**:{colour}[{text}]**", badges, explanation, spec,
                 answers.first_stage_note(outcome, lang()))


def question_view(analysis: Analysis, position: int, side: str, show_floor: bool = True,
                  large: bool = False) -> None:
    """One question under one configuration (also the replay's large version)."""
    draw_question(question_shown(analysis, position, side, show_floor, large), analysis, large)


def draw_question(shown: Shown, analysis: Analysis, large: bool = False,
                  answer: Callable[[], None] | None = None) -> None:
    """Verdict, labels, the LLM's ``answer`` once asked (under the verdict: A's and B's
    answers side by side on the screen the Ask button is on), bars, explanation and the
    folded prompt of one ``Shown``."""
    if large:  # the replay: verdict and labels in big type, the bars, then the explanation
        st.markdown(f"### {shown.verdict}")
        if shown.badges:
            st.markdown(shown.badges, unsafe_allow_html=True)  # escaped by badges_html
    else:  # side, verdict and labels on one line, the bars right under them
        st.markdown(f"**{tr(f'app.config_{shown.side}')}** · {shown.verdict} "  # no user text
                    f"{shown.badges}".strip(), unsafe_allow_html=True)
    if answer is not None:
        answer()
    st.vega_lite_chart(shown.spec, width="stretch")
    if shown.note:
        st.caption(shown.note)
    if shown.badges and large:  # under the bars: at 1024x768 the bars stay on the first screen
        st.html(render.big_note(shown.explanation))
    elif shown.badges:
        st.caption(md(shown.explanation))
    question = analysis.outcomes[shown.position]
    if question.diagnosis is None and not large:  # one click to label it
        st.button(tr("app.label_it"), key=f"label_it_{shown.side}_{shown.position}",
                  on_click=check_answer.label_question, args=(question.question.question,),
                  icon=":material/label:")
    prompt_view(analysis, shown.position, shown.side, large)


def prompt_view(analysis: Analysis, position: int, side: str, large: bool) -> None:
    """The prompt, folded, and drawn only once unfolded (a rerun): fourteen code blocks
    drawn folded were about an eighth of a first page's time in the browser."""
    folded = st.expander(tr("app.prompt"), key=prompt_key(side, position, large),
                         on_change="rerun")
    if not folded.open:
        return
    edited = llm_view.preview(analysis, position)  # the LLM's template or budget, if set
    prompt = edited[0] if edited else presentation.prompt_text(
        analysis.outcomes[position], analysis.chunks, lang(), analysis.settings.expand)
    with folded:
        if prompt is None:
            st.write(tr("app.no_llm_call"))
        else:
            st.code(prompt, language=None, wrap_lines=True)
        if edited and edited[1]:
            st.caption(edited[1])


def prompt_key(side: str, position: int, large: bool = False) -> str:
    """The prompt fold's widget key; the replay's large view has its own."""
    return f"prompt_{'replay' if large else 'questions'}_{side}_{position}"


def arrow_datasets(spec: dict[str, Any]) -> dict[str, Any]:
    """The spec with its named datasets as Arrow tables: Streamlit sends a table as it is,
    while a list of rows goes through a DataFrame first (most of a floor move's server
    time, with fourteen charts on the page)."""
    spec["datasets"] = {name: pa.Table.from_pylist(rows)
                        for name, rows in spec.get("datasets", {}).items()}
    return spec
