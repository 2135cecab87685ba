"""The sidebar's share panel: export and import the whole workspace, download the HTML
report and the results CSV."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ragviz.evaluation.experiments import compare
from ragviz.i18n import decimal, t
from ragviz.inputs.corpus import Corpus
from ragviz.present.exports import answers_csv, results_csv
from ragviz.present.report import render_report
from ragviz.projection.space import static_maps
from ragviz.share.workspace import MAX_WORKSPACE_BYTES, Workspace
from ragviz_app import levels
from ragviz_app.common import SIDES, lang, md, ss, tr
from ragviz_app.frame import Frame
from ragviz_app.session import current_settings, on_workspace_upload
from ragviz_app.views import llm_view
from ragviz_app.views.copy_link import copy_link_button

# What the downloads give, kept by identity in the session: the retrieval fragment updates it
# on every floor or top_k move while the buttons themselves are drawn by full runs only (a
# download button drawn inside a fragment lost its deferred file: "Deferred file not found").
_NOW = "_share_now"


def _shareable(frame: Frame, say_why: bool) -> str | Corpus | None:
    """The document a workspace can carry (None for an index or a corpus, said when asked)."""
    document = frame.document
    if frame.index is not None:  # an uploaded index travels as its own file: say so
        if say_why:
            with st.sidebar:
                on_server = ss.get("index_from") == "server"
                st.info(t("idx.server_not_shared" if on_server else "idx.not_shared", lang()))
        return None
    if isinstance(document, Corpus):  # a workspace holds one document: say so, drop nothing
        if say_why:
            with st.sidebar:
                key = "app.corpus_sample_not_shared" if ss.doc_source == "sample" else (
                    "app.corpus_not_shared")
                st.info(tr(key, files=len(document.sources)))
        return None
    return document


def share_state(frame: Frame) -> Workspace | None:
    """Record what the downloads give for this frame (its floor and top_k) and return the
    workspace, so the page link can carry it."""
    document = _shareable(frame, say_why=False)
    # the questions waiting for keep-or-clear travel as such: the file reopens asking
    workspace = (Workspace(document, tuple(frame.questions), current_settings(),
                           tuple(frame.waiting))
                 if isinstance(document, str) else None)
    now = ss.setdefault(_NOW, {})
    # Bound now: Streamlit calls the download callables after the run, when the session's
    # language is no longer at hand (the report came out in English from a pt page).
    ready = frame.ready()
    now.update(workspace=workspace, ready=ready, language=lang(),
               coverage=ss.get("_question_coverage"),
               answers=llm_view.kept_sets(ready),  # the LLM's kept answers, read on a click
               embedders=[frame.models[side] for side in SIDES
                          if frame.analyses[side] is not None])
    return workspace


def share_panel(frame: Frame) -> None:
    """The panel (full runs only): its buttons read what ``share_state`` last recorded when
    they are clicked, so they follow every floor or top_k move."""
    _shareable(frame, say_why=True)
    now = ss.setdefault(_NOW, {})

    def report() -> str:
        ready = now["ready"]
        pair = compare(ready[0], ready[1]) if len(ready) == 2 else None
        return render_report(ready, pair, now["language"],
                             maps=static_maps(ready, now["embedders"]),
                             coverage=now.get("coverage"), answers=now["answers"]())

    ready = bool(now.get("ready"))
    workspace_panel((lambda: now["workspace"].to_json()) if now.get("workspace") else None,
                    report if ready else None,
                    (lambda: results_csv(now["ready"], now["language"], now["answers"]()))
                    if ready else None)
    if ready and llm_view.has_answers():
        with st.sidebar, levels.second("answers"):
            st.download_button(tr("app.download_answers"),
                               lambda: answers_csv(now["ready"], now["answers"](),
                                                   now["language"]),
                               file_name="ragviz-llm-answers.csv", mime="text/csv",
                               key="download_answers", width="stretch", on_click="ignore")


def workspace_panel(workspace: Callable[[], str] | None, report: Callable[[], str] | None,
                    results: Callable[[], str] | None) -> None:
    """Export and import the whole workspace; download the report and the results."""
    with st.sidebar, levels.second("share"):
        st.subheader(tr("app.share"))
        copy_link_button()
        if ss.pop("_workspace_loaded", False):
            st.success(tr("app.workspace_loaded"))
        if "_workspace_error" in ss:
            st.error(tr("app.workspace_refused", error=md(ss["_workspace_error"])))
        if workspace is not None:
            st.download_button(tr("app.export_workspace"), workspace,
                               file_name="ragviz-workspace.json", mime="application/json",
                               key="export_workspace", width="stretch", on_click="ignore")
        st.file_uploader(tr("app.import_workspace"), type=["json"], key="workspace_upload",
                         on_change=on_workspace_upload, help=tr("app.import_workspace_help"))
        # its real limit in the page's language (Streamlit's line, the server's cap in
        # English, is hidden: main.LAYOUT_CSS)
        st.caption(tr("app.import_workspace_limit",
                      mb=decimal(MAX_WORKSPACE_BYTES / 1e6, 1, lang())))
        if report is not None:
            st.download_button(tr("app.download_report"), report, file_name="ragviz-report.html",
                               mime="text/html", key="download_report", width="stretch",
                               on_click="ignore")
        if results is not None:
            st.download_button(tr("app.download_results"), results,
                               file_name="ragviz-results.csv", mime="text/csv",
                               key="download_results", width="stretch",
                               on_click="ignore")
