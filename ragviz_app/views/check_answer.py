"""Check an answer: a support ticket (the customer's question, the bot's answer, maybe the
right one) explained on the document in use with configuration A, by ``ragviz explain``'s
core: the chunks sent in full with the answer's words marked, the candidate passages, and
one click on a candidate labels the question with that excerpt at its exact offsets (it
joins the questions table, so the link, the workspace and the CSV keep it)."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.chunking.text import trim_span
from ragviz.evaluation.explain import Candidate, Explanation, explain
from ragviz.inputs.corpus import as_corpus
from ragviz.inputs.documents import MAX_ANSWER_CHARS, MAX_QUESTION_CHARS
from ragviz.inputs.questions import LabelledQuestion, Reference
from ragviz.present.explain_text import (
    answer_sentence,
    candidate_label,
    candidate_sentence,
    diagnosis_line,
    marked_html,
    score_text,
    sent_sentence,
    where,
)
from ragviz.present.label_words import badges_html
from ragviz.present.presentation import chunk_name
from ragviz_app import app_state as state
from ragviz_app import question_owner
from ragviz_app.common import lang, md, retrieval, ss, tr
from ragviz_app.frame import Frame

TICKET = "_check"  # the ticket explained: question, bot answer, expected, picked excerpt
# A selection in a highlighted document (``.rv-doc``) as offsets in its text: the text
# nodes counted in order, the marks ragviz draws over them (badges, cuts, carried context)
# left out, so the offsets are the document's own.
SELECTION_JS = """
export default function(component) {
  const { setTriggerValue } = component;
  const skip = '.rv-badge, .rv-cut, .rv-ctx';
  const offset = (doc, node, at) => {
    const walker = document.createTreeWalker(doc, NodeFilter.SHOW_TEXT);
    let count = 0;
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      if (text.parentElement && text.parentElement.closest(skip)) continue;
      if (text === node) return count + at;
      if (node.nodeType !== Node.TEXT_NODE && node.contains(text)
          && Array.prototype.indexOf.call(node.childNodes, text) >= at) return count;
      count += text.data.length;
    }
    return count;
  };
  const handler = () => {
    const selection = window.getSelection();
    if (!selection || selection.isCollapsed || !selection.rangeCount) return;
    const range = selection.getRangeAt(0);
    const start = range.startContainer;
    const element = start.nodeType === Node.TEXT_NODE ? start.parentElement : start;
    const doc = element && element.closest('.rv-doc');
    if (!doc || !doc.contains(range.endContainer)) return;
    const from = offset(doc, range.startContainer, range.startOffset);
    const to = offset(doc, range.endContainer, range.endOffset);
    if (to > from) setTriggerValue('selected', {start: from, end: to});
  };
  if (window.__ragvizSelection) document.removeEventListener('mouseup', window.__ragvizSelection);
  window.__ragvizSelection = handler;
  document.addEventListener('mouseup', handler);
}
"""
_selection = st.components.v2.component("ragviz_selection", js=SELECTION_JS)


def entry() -> None:
    """The ticket's three fields and one button, folded near the top of the sidebar: on the
    first level without pushing the first screen's bars below a projector's fold (the
    explanation is drawn in the main area by ``results``, where ``place`` put it)."""
    box = st.sidebar.expander(tr("check.title"), expanded=TICKET in ss, key="check_expander",
                              icon=":material/support_agent:")
    with box, st.form("check_form", border=False, enter_to_submit=True):
        st.text_input(tr("check.question"), key="check_question", max_chars=MAX_QUESTION_CHARS)
        st.text_area(tr("check.bot_answer"), key="check_bot_answer", height=68,
                     max_chars=MAX_ANSWER_CHARS)
        st.text_input(tr("check.expected"), key="check_expected", max_chars=MAX_ANSWER_CHARS)
        st.form_submit_button(tr("check.run"), type="primary", on_click=start_check)


def place() -> DeltaGenerator:
    """Where the ticket's explanation goes, at the top of the main area (empty without one)."""
    return st.container(key="check_answer_place")


def start_check() -> None:
    """The form's button: the ticket typed becomes the one explained (an empty question
    clears it); a right answer typed labels the question in the table at once."""
    question = str(ss.get("check_question") or "").strip()
    if not question:
        ss.pop(TICKET, None)
        return
    expected = str(ss.get("check_expected") or "").strip()
    ss[TICKET] = {"question": question, "bot": str(ss.get("check_bot_answer") or ""),
                  "expected": expected, "reference": None}
    if expected:
        add_question({"question": question, "answer": expected, "answerable": True,
                      "references": ""})


def label_question(question: str) -> None:
    """"Label it" under an unlabelled question: open this entry on that question."""
    ss.check_question = question
    ss.check_bot_answer = ""
    ss.check_expected = ""
    ss[TICKET] = {"question": question, "bot": "", "expected": "", "reference": None}


def pick(candidate: Candidate) -> None:
    """"This is the right answer": the question labelled with the excerpt at its offsets."""
    label_with(Reference(candidate.text, candidate.start, candidate.end, candidate.source))


def label_with(reference: Reference) -> None:
    """The open ticket's question labelled with ``reference``, into the questions table."""
    ticket = ss.get(TICKET)
    if ticket is None:
        return
    ss[TICKET] = {**ticket, "reference": reference.to_dict()}
    add_question({"question": ticket["question"], "answer": "", "answerable": True,
                  "references": json.dumps([reference.to_dict()], ensure_ascii=False)})


def add_question(row: dict[str, Any]) -> None:
    """The labelled question into the questions table, replacing a row of the same question;
    it belongs to the document in view, even while keep-or-clear is asked about the others."""
    records = [r for r in ss.questions_base.to_dict("records")
               if state.question_key(str(r.get("question") or ""))
               != state.question_key(row["question"])]
    ss.questions_base = state.table_frame([*records, row])
    ss.pop("questions_draft", None)
    ss.pop("questions_editor", None)
    question_owner.mark_own(row["question"])  # labelled on the document in view: its own


def asked(ticket: dict[str, Any]) -> LabelledQuestion:
    """The ticket as the pipeline reads it: labelled by the excerpt picked, else by the
    right answer typed, else not at all."""
    ref = ticket.get("reference")
    if ref:
        return LabelledQuestion(ticket["question"], "", True, (Reference(
            ref["content"], ref["start_index"], ref["end_index"], ref["source"]),))
    return LabelledQuestion(ticket["question"], ticket["expected"])


def results(box: DeltaGenerator, frame: Frame) -> None:
    """The explanation of the ticket on A's configuration, drawn inside the entry."""
    ticket = ss.get(TICKET)
    if ticket is None:
        return
    with box.container(border=True):
        st.subheader(tr("check.heading"), anchor=False)  # short: the entry says the rest
        analysis = frame.analyses.get("a")
        config = frame.configs.get("a")
        if frame.document is None or frame.index is not None or config is None:
            st.info(tr("check.needs_document"))
            return
        settings = analysis.settings if analysis is not None \
            else retrieval(frame.top_k, frame.floor_of("a"), "a")
        x = explain(as_corpus(frame.document), config, frame.model_of("a"), asked(ticket),
                    ticket["bot"], settings=settings)
        draw(x)


def draw(x: Explanation) -> None:
    """The support answer, the chunks sent in full, the candidates with their buttons."""
    language = lang()
    st.markdown(md(f"{sent_sentence(x, language)} "
                   f"{answer_sentence(x, language) if x.bot_answer.strip() else ''}"))
    for chunk in x.context:
        st.caption(tr("check.sent_chunk", chunk=chunk_name(chunk.index), rank=chunk.rank,
                      score=score_text(chunk.score, x, language),
                      where=where(chunk.source, chunk.start, chunk.end, language)))
        st.html(marked_html(chunk.text, x.bot_answer))
    st.markdown(md(candidate_sentence(x, language)))
    labelled = x.outcome.diagnosis is not None and bool(x.expected)
    if labelled:
        st.markdown(badges_html(x.labels, language), unsafe_allow_html=True)  # escaped
        st.markdown(md(diagnosis_line(x, language, "explain.hint_app")))
        reference = ss[TICKET].get("reference")
        if reference:  # the excerpt picked or selected, at its offsets
            st.caption(tr("check.labelled_with", where=where(
                reference["source"], reference["start_index"], reference["end_index"],
                language), text=md(reference["content"])))
        st.caption(tr("check.in_table"))
    else:
        st.caption(tr("explain.hint_app"))
    st.markdown(f"**{tr('check.candidates')}**")
    for number, candidate in enumerate(x.candidates):
        text_col, button_col = st.columns([5, 1], vertical_alignment="center")
        text_col.markdown(md(candidate_label(candidate, x, language)))
        button_col.button(tr("check.pick"), key=f"check_pick_{number}", on_click=pick,
                          args=(candidate,))


def selection_labeller(text: str, source: str) -> None:
    """Under the document view while a ticket is open: text selected in the highlighted
    document labels the ticket's question with that excerpt (offsets checked against the
    document, whitespace at its ends left out)."""
    ticket = ss.get(TICKET)
    if ticket is None:
        return
    st.caption(tr("check.select_hint", question=md(ticket["question"])))
    result = _selection(key="doc_selection", on_selected_change=lambda: None)
    picked = getattr(result, "selected", None)
    if not isinstance(picked, dict):
        return
    start, end = picked.get("start"), picked.get("end")
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(text)):
        return
    start, end = trim_span(text, start, end)
    if end > start:
        label_with(Reference(text[start:end], start, end, source))
        st.rerun()
