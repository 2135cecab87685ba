"""The question table: an editor that never reruns the app while typing (so nothing typed
is garbled; "Apply questions" applies every edit at once, and rows typed but not applied
are kept across language switches and the guided replay), the offer to keep
or clear the questions when the document changes, and the questions as a CSV file.

The applied table lives in ``ss.questions_base``: every view reads the questions from it,
so tab, language and model switches cannot touch them.
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from ragviz.evaluation.results import Coverage
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.documents import MAX_UPLOAD_BYTES
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.exports import questions_csv
from ragviz.present.presentation import coverage_line
from ragviz_app import app_state as state
from ragviz_app import levels, question_owner
from ragviz_app.common import lang, md, ss, tr
from ragviz_app.session import (
    apply_question_edits,
    clear_questions,
    on_questions_upload,
    shown_questions,
)
from ragviz_app.views import question_generator


def edited_questions(tab: DeltaGenerator, is_open: bool,
                     document: str | Corpus | None = None) -> list[LabelledQuestion]:
    """The applied, checked questions whose labelled excerpts lie in ``document`` (a row
    whose excerpt does not is named, left out and kept in the table). The editor is drawn
    even while another tab is open, so edits typed but not yet applied stay in it across
    tab switches."""
    in_use = state.frame_questions(ss.questions_base)
    with tab, st.expander(tr("app.edit_questions", n=len(in_use)), expanded=not in_use,
                          key="questions_expander", icon=":material/edit:"):
        # folded by default, so the first screen reaches the scores; always drawn, so
        # what was typed stays in it while folded or while another tab is open
        editor_form()
        if is_open:
            table_tools()
            table_notes()
    if is_open:
        with tab, levels.second("generate"):  # the LLM's: on the page's second level
            question_generator.generator_panel(document)
    questions, problems = state.checked_questions(in_use, lang())
    given = len(questions)
    questions, left_out = state.placed_questions(questions, document)
    problems += state.left_out_sentences(left_out, lang(), isinstance(document, str))
    # how many of the questions given are evaluated: the report says it too
    ss["_question_coverage"] = Coverage(given, tuple(left_out))
    if is_open:
        with tab:
            if left_out:
                st.caption(coverage_line(ss["_question_coverage"], lang()))
            for problem in problems:
                st.error(md(problem))
    return questions


def editor_form() -> None:
    """The table: cells edit in the browser only (no rerun while typing), until "Apply
    questions"; rows typed but not applied are kept by ``keep_typed_questions``. The help
    sits under the table, by the button it names: above it, the table's toolbar covered
    its end."""
    st.data_editor(
        shown_questions(), key="questions_editor", num_rows="dynamic",
        width="stretch", hide_index=True,
        # "ignore": a committed cell reruns nothing; it reaches the server with the next
        # rerun, whichever control starts it (the Apply button, the language, the replay)
        on_change="ignore",
        column_config={
            "question": st.column_config.TextColumn(tr("col.question"), width="large",
                                                      default=""),
            "answer": st.column_config.TextColumn(tr("col.answer"), width="medium",
                                                    default=""),
            "answerable": st.column_config.CheckboxColumn(tr("col.answerable"),
                                                          default=True),
            "references": st.column_config.TextColumn(tr("col.references"), default=""),
        },
    )
    st.caption(tr("app.questions_help"))
    if "questions_draft" in ss:
        st.warning(tr("app.questions_not_applied"))
    st.button(tr("app.apply_questions"), key="apply_questions", type="primary",
              on_click=apply_question_edits)


def table_tools() -> None:
    """Clear, download and upload the questions (the CLI's question,answer,answerable CSV)."""
    clear_col, download_col = st.columns(2)
    clear_col.button(tr("app.clear_questions"), key="clear_questions", on_click=clear_questions,
                     disabled=not len(ss.questions_base))
    download_col.download_button(
        tr("app.download_questions"), questions_csv(state.frame_questions(ss.questions_base)),
        file_name="questions.csv", mime="text/csv", key="questions_download",
        on_click="ignore",
    )
    st.file_uploader(tr("app.upload_questions"), key="questions_upload", type=["csv", "tsv", "txt"],
                     on_change=on_questions_upload, help=tr("app.upload_questions_help"))
    # its real limit in the page's language (Streamlit's line is hidden: main.LAYOUT_CSS)
    st.caption(tr("app.upload_questions_limit", mb=f"{MAX_UPLOAD_BYTES / 1e6:g}"))
    if "_questions_upload_error" in ss:
        st.error(md(ss["_questions_upload_error"]))
    if "_questions_uploaded" in ss:
        st.success(tr("app.questions_uploaded", n=int(ss.pop("_questions_uploaded"))))


def table_notes() -> None:
    """How many questions count (only rows with a question), and one line per problem."""
    questions = state.frame_questions(ss.questions_base)
    answerable = sum(1 for q in questions if q.is_answerable)
    unanswerable = sum(1 for q in questions if q.is_answerable is False)
    st.caption(tr("app.question_count", n=len(questions), answerable=answerable,
                  unanswerable=unanswerable))
    if unlabelled := len(questions) - answerable - unanswerable:
        st.caption(tr("app.unlabelled_count", n=unlabelled))
    for notice in state.table_notices(ss.questions_base):  # the user's words, escaped
        st.warning(tr(notice.key, **{name: md(str(value))
                                     for name, value in notice.values.items()}))


def document_notice(document: str | Corpus | None) -> bool:
    """When the document changed under questions written for another, offer to keep them
    (they belong to this document from now on) or clear them; True while that is asked
    (none of them is scored or embedded until the user answers; a question labelled on the
    new document meanwhile is its own: ``question_owner``)."""
    if question_owner.follows(document):
        return False
    st.warning(tr("app.questions_other_document", n=question_owner.waiting_count()))
    keep_col, clear_col = st.columns(2)
    keep_col.button(tr("app.keep_questions"), key="keep_questions",
                    on_click=question_owner.keep, width="stretch")
    clear_col.button(tr("app.clear_questions_short"), key="clear_questions_for_document",
                     on_click=question_owner.clear_old, width="stretch")
    return True
