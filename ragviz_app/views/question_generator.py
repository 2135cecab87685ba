""""Generate questions" beside the questions table: the model of the LLM settings writes
labelled questions for the document in use (``ragviz.answering.question_run``, the run
``ragviz questions`` makes), with a progress bar and a Cancel; the questions wait in a review
table (keep, edit the question, drop; each excerpt shown in its context and its file) until
"Add the kept questions" puts them into the questions table, which the link and the
workspace carry with their excerpts.
"""

from __future__ import annotations

import threading
from typing import Any

import pandas as pd
import streamlit as st

from ragviz.answering.chat import RETRIES, TIMEOUT_S
from ragviz.answering.question_run import QuestionRun, Row, WritingSettings
from ragviz.errors import LLMError
from ragviz.i18n import KeyedError
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.questions import LabelledQuestion
from ragviz_app import app_state as state
from ragviz_app.common import lang, md, ss, tr
from ragviz_app.session import set_questions
from ragviz_app.views import llm_view

RUNNING = "_qgen_running"
FOUND = "_qgen_found"  # the questions written so far, waiting for review
REVIEW = "qgen_review"
SAID = "_qgen_said"  # the last run's summary line or failure
JOB = "_qgen_job"  # set when the last generation stopped
WAIT_S = TIMEOUT_S * (RETRIES + 1)  # the longest a call in flight may take
CONTEXT_CHARS = 60
MAX_COUNT = 50


class _CancelledError(Exception):
    """Cancel (or any other control) was used while the model wrote: what is written stays."""


def in_context(text: str, start: int, end: int) -> str:
    """The excerpt between «» with up to 60 characters of its file on each side."""
    before = " ".join(text[max(0, start - CONTEXT_CHARS):start].split())
    after = " ".join(text[end:end + CONTEXT_CHARS].split())
    return f"…{before} «{' '.join(text[start:end].split())}» {after}…"


def review_row(question: LabelledQuestion, corpus: Corpus) -> dict[str, Any]:
    """A question's row in the review: every excerpt in its context (numbered when there are
    several) and every file they are in."""
    shown = [in_context(corpus.source(ref.source).text, ref.start or 0, ref.end or 0)
             for ref in question.references]
    if len(shown) > 1:
        shown = [f"[{n}] {excerpt}" for n, excerpt in enumerate(shown, start=1)]
    files = dict.fromkeys(ref.source for ref in question.references)
    return {"keep": True, "question": question.question, "excerpt": " ".join(shown),
            "file": ", ".join(files)}


def generator_panel(document: str | Corpus | None) -> None:
    """The panel (folded): the count, Generate or Cancel with the bar, then the review."""
    with st.expander(tr("qgen.title"), icon=":material/auto_awesome:"):
        asker = llm_view.settings_asker()
        if asker is None or document is None:
            st.info(tr("qgen.needs_model"))
            return
        left, right = st.columns(2)
        count = left.number_input(tr("qgen.count"), 1, MAX_COUNT, 5, key="qgen_count")
        unanswerable = right.number_input(tr("qgen.unanswerable"), 0, MAX_COUNT, 0,
                                          key="qgen_unanswerable")
        if ss.get(RUNNING):
            st.button(tr("llm.app.cancel"), key="qgen_cancel", on_click=_stop)
            _generate(document, asker, int(count), int(unanswerable))
        else:
            wait_for_last()
            st.button(tr("qgen.generate", model=md(asker.model.name)), key="qgen_start",
                      on_click=_start, type="primary")
        if SAID in ss:
            st.caption(md(ss[SAID]))
        review(document)


def _start() -> None:
    ss[RUNNING] = True
    ss[FOUND] = []
    ss.pop(REVIEW, None)
    ss.pop(SAID, None)


def _stop() -> None:
    ss[RUNNING] = False


def _generate(document: str | Corpus, asker: Any, count: int, unanswerable: int) -> None:
    """Runs in this script; between calls it looks for Cancel (or any other control). With
    Streamlit's fast reruns the next run starts while this one waits for the model: that
    run waits for this one to stop (``wait_for_last``), so it shows what was written."""
    from ragviz_app.models import loaded_model

    total = count + unanswerable
    bar = st.progress(0.0, tr("qgen.progress", done=0, total=total))
    found: list[LabelledQuestion] = ss[FOUND]
    done = threading.Event()
    ss[JOB] = done

    def on_row(row: Row) -> None:
        found.append(row.question)

    def progress(kept: int, wanted: int) -> None:
        if llm_view.interrupted() or not ss.get(RUNNING):
            raise _CancelledError
        bar.progress(min(1.0, kept / max(1, wanted)), tr("qgen.progress", done=kept,
                                                         total=wanted))

    try:
        run = QuestionRun(as_corpus(document), asker, loaded_model(str(ss.active_model)),
                          WritingSettings(count, unanswerable, lang=lang()))
        summary = run.run(on_row, progress)
        ss[SAID] = tr("qgen.done", n=summary.kept + summary.unanswerable_kept, wanted=total,
                      dropped=sum(summary.dropped.values()))
    except _CancelledError:
        ss[SAID] = tr("qgen.cancelled", n=len(found))
    except (LLMError, KeyedError) as error:
        ss[SAID] = error.localized(lang())
    finally:  # also when Streamlit stops this run at one of its own calls
        done.set()
        ss[RUNNING] = False
    st.rerun()


def wait_for_last() -> None:
    """A run stopped by Cancel may still wait for the model's reply: wait for it to end
    (at most the chat model's timeout), so the questions it wrote are shown."""
    job = ss.get(JOB)
    if isinstance(job, threading.Event) and not job.is_set():
        with st.spinner(tr("qgen.stopping")):
            job.wait(WAIT_S)
        if SAID not in ss:  # Streamlit stopped it before it could say so itself
            ss[SAID] = tr("qgen.cancelled", n=len(ss.get(FOUND) or []))


def review(document: str | Corpus) -> None:
    """The questions written, to keep, edit or drop before they join the analysis."""
    found: list[LabelledQuestion] = ss.get(FOUND) or []
    if not found or ss.get(RUNNING):
        return
    corpus = as_corpus(document)
    frame = pd.DataFrame([review_row(q, corpus) for q in found])
    st.data_editor(frame, key=REVIEW, hide_index=True, width="stretch", num_rows="fixed",
                   disabled=["excerpt", "file"], column_config={
                       "keep": st.column_config.CheckboxColumn(tr("qgen.keep")),
                       "question": st.column_config.TextColumn(tr("col.question"),
                                                               width="large"),
                       "excerpt": st.column_config.TextColumn(tr("qgen.excerpt"),
                                                              width="large"),
                       "file": st.column_config.TextColumn(tr("qgen.file"))})
    st.button(tr("qgen.add"), key="qgen_add", on_click=add_kept, type="primary")


def reviewed(found: list[LabelledQuestion], edits: dict[str, Any] | None
             ) -> list[LabelledQuestion]:
    """The questions the review keeps, with their edited text."""
    changed = (edits or {}).get("edited_rows", {})
    out = []
    for row, question in enumerate(found):
        change = changed.get(row, changed.get(str(row), {}))
        if not change.get("keep", True):
            continue
        text = str(change.get("question", question.question)).strip()
        if text:
            out.append(LabelledQuestion(text, question.answer, question.answerable,
                                        question.references))
    return out


def add_kept() -> None:
    """The kept questions join the table (after the questions in it)."""
    kept = reviewed(ss.get(FOUND) or [], ss.get(REVIEW))
    set_questions(state.frame_questions(ss.questions_base) + kept)
    ss[SAID] = tr("qgen.added", n=len(kept))
    ss[FOUND] = []
    ss.pop(REVIEW, None)

