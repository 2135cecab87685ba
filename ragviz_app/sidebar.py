"""The sidebar every view shares: language, the guided replay toggle, the document and the
model."""

from __future__ import annotations

import streamlit as st

from ragviz.i18n import LANGUAGE_NAMES, LANGUAGES, Grouped, Listed, grouped, render
from ragviz.inputs.convert import (
    ACCEPTED_FORMATS,
    ARCHIVE_SUFFIXES,
    MAX_BINARY_FILE_BYTES,
    SUPPORTED_FORMATS,
)
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.documents import MAX_DOCUMENT_CHARS, MAX_FILE_CHARS, MAX_UPLOAD_BYTES
from ragviz.share.samples import get_sample, load_samples
from ragviz_app import app_state as state
from ragviz_app import index_source, levels, walkthrough
from ragviz_app.common import lang, md, sample_titles, ss, tr, translated
from ragviz_app.models import WantedModel, model_inputs
from ragviz_app.number_marks import slider_numbers
from ragviz_app.session import on_sample_change, start_walkthrough
from ragviz_app.views import check_answer, llm_view


def sidebar() -> tuple[state.DocumentChoice, dict[str, WantedModel]]:
    """Draw the sidebar; return the document it resolves to and the model each side asks
    for (loaded by the page, in the main area, where the user is looking)."""
    with st.sidebar:
        st.title("ragviz")
        st.selectbox(
            tr("app.language"), LANGUAGES, key="lang", format_func=lambda c: LANGUAGE_NAMES[c]
        )
        st.toggle(tr("walk.toggle"), key="walk_on", on_change=start_walkthrough,
                  help=tr("walk.toggle_help", n=len(walkthrough.STEPS)))
        levels.switch()
        if not ss.walk_on:  # the "Check an answer" entry: 2 of the first screen's 15 controls
            check_answer.entry()
        if "_link_restored" in ss:
            st.success(ss.pop("_link_restored"))  # numbers only, no user text
        for problem in ss.pop("_url_problems", []):
            st.warning(tr("app.url_problem", problem=md(problem)))
        for note in ss.pop("_url_notes", []):
            st.info(tr("app.url_note", note=md(note)), icon=":material/tune:")
        choice = document_inputs()
        with levels.second("models"):
            model = model_inputs()
        with levels.second("llm"):
            llm_view.settings()
        slider_numbers(lang())  # the sliders' numbers with the page's decimal sign
    return choice, model


def document_inputs() -> state.DocumentChoice:
    """The document source (sample, paste or upload) and what it resolves to."""
    st.subheader(tr("app.document"))
    st.radio(
        tr("app.source"),
        ("sample", "paste", "upload", "index"),
        key="doc_source",
        format_func=index_source.source_label(translated("app.source_"), lang()),
        horizontal=True,
    )
    if ss.doc_source == "index":  # an index is a new document too: keep or clear the
        return index_source.index_document()  # questions (asked at the top of the page)
    sample_text = ""
    sample_corpus: Corpus | None = None
    uploads: list[tuple[str, bytes]] = []
    if ss.doc_source == "sample":
        samples = {sample.name: sample for sample in load_samples(corpora=True)}
        # a radio, not a select: its labels wrap, where a select cut a long title in a
        # narrow sidebar, and a workshop sees every sample at once
        st.radio(
            tr("app.sample"), list(samples), key="sample_name",
            on_change=on_sample_change, format_func=sample_titles(samples),
        )
        picked = samples[ss.sample_name]
        st.caption(render(picked.demonstrates, lang()))
        if picked.is_corpus:
            sample_corpus = sample_corpus_of(picked.name)
        else:
            sample_text = picked.document()
    elif ss.doc_source == "paste":
        st.text_area(
            tr("app.paste"), key="doc_paste", height=260,
            help=tr("app.paste_help", limit=Grouped(MAX_DOCUMENT_CHARS)),
        )
    else:
        files = st.file_uploader(
            # no type filter: ragviz's own check speaks
            tr("app.upload", formats=SUPPORTED_FORMATS, archives=Listed(ARCHIVE_SUFFIXES)),
            key="doc_upload", accept_multiple_files=True,
        )
        # the real limits in the page's language: Streamlit's own line in the box (the
        # server's cap, "60MB per file", in English) is hidden (main.LAYOUT_CSS)
        st.caption(tr("app.upload_help", chars=grouped(MAX_FILE_CHARS, lang()),
                      limit=f"{MAX_UPLOAD_BYTES / 1e6:g}",
                      binary=f"{MAX_BINARY_FILE_BYTES / 1e6:g}"))
        uploads = [(file.name, file.getvalue()) for file in files or ()]
    choice = state.resolve_document(ss.doc_source, sample_text, ss.get("doc_paste", ""),
                                    uploads, lang(), sample_corpus)
    _document_notes(choice)  # keep or clear the questions: asked at the top of the page
    return choice


@st.cache_resource(show_spinner=False, max_entries=2)
def sample_corpus_of(name: str) -> Corpus:
    """A multi-file sample's corpus, converted once per server."""
    return get_sample(name).corpus()


def _document_notes(choice: state.DocumentChoice) -> None:
    if choice.error == "no-upload":
        st.info(tr("app.upload_wait", formats=ACCEPTED_FORMATS))
    elif choice.error:
        st.error(md(choice.error))
    for problem in choice.problems:
        st.warning(md(problem))
    if choice.notice:
        st.warning(tr("app.encoding_guessed", encoding=md(choice.notice)))
    if choice.multi_file and choice.corpus is not None:
        st.caption(tr("app.corpus_size", files=len(choice.corpus.sources),
                      n=choice.corpus.total_chars))
    elif choice.text is not None:
        st.caption(tr("app.doc_size", n=len(choice.text)))
