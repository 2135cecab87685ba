"""Sharing in a real browser: a link opens the view it describes and follows the controls,
a workspace exported through the download button comes back in a fresh session through the
uploader (and a broken file is refused with a message), the HTML report opens on its own,
the guided replay walks the six steps, and the language select switches the page."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.i18n import LANGUAGE_NAMES, t
from ragviz.present.presentation import config_text, diagnosis_text
from ragviz_app.app_state import DEFAULT_SAMPLE, load_sample
from ragviz_app.walkthrough import STEPS

from .conftest import (
    DOC,
    PAGE_LAYOUT,
    AppPage,
    default_analyses,
    download,
    new_app_page,
    paste_document,
    select_option,
    upload,
    url_query,
    visible_texts,
    wait_layout,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser

CAPTION = '[data-testid="stCaptionContainer"]'
WALK = ".rv-walk"
PASTED = (
    "Lockers are on the second floor. Each locker needs a code from the front desk. "
    "Codes change every Monday at noon. Lost codes are reset by the night guard. "
    "Bikes go in the basement rack. The rack is unlocked from seven to ten. "
    "Guests sign the visitor book at the entrance. Parcels wait in the mail room for a week."
)


@pytest.fixture
def fresh_app(browser: Browser, warm_app_url: str) -> Iterator[AppPage]:
    """A second tab in its own browser context: a new session that shares nothing."""
    page, context = new_app_page(browser, warm_app_url)
    try:
        yield page
    finally:
        context.close()


def config_caption(app: AppPage, config: ChunkerConfig, lang: str = "en") -> str:
    """The "N chunks · label" caption under a configuration, found by its label (its
    parameters named in the page's language)."""
    label = config_text(config, lang)
    captions = [c for c in visible_texts(app, CAPTION) if c.endswith(f"· {label}")]
    assert captions, f"no caption names {label}"
    return captions[0]


# --- URL state ----------------------------------------------------------------------------------


def test_a_link_opens_its_view_and_the_url_follows_the_controls(app: AppPage) -> None:
    app.page.goto(f"{app.url}/?a=recursive&a_size=200&a_overlap=20&k=3&floor=0.25&lang=pt")
    app.wait_rendered(doc_tab=False)  # a new visitor lands on the questions
    assert app.page.get_by_text(t("app.title", "pt"), exact=True).is_visible()
    # the questions' view (on the page's first level, which a link without a second-level
    # setting keeps, it is the one view: no tab bar)
    assert app.page.locator(".st-key-questions_expander").is_visible()
    config_caption(app, ChunkerConfig(chunker="recursive", size=200, overlap=20), "pt")
    assert app.slider("top_k").get_attribute("value") == "3"
    assert app.slider("floor").get_attribute("value") == "0.25"
    query = url_query(app)
    assert query["a"] == "recursive" and query["a_size"] == "200", query
    assert query["lang"] == "pt" and query["k"] == "3", query

    app.nudge_slider("top_k", 1)
    app.page.wait_for_function("() => new URLSearchParams(location.search).get('k') !== '3'")
    app.wait_rendered(doc_tab=False)
    query = url_query(app)
    assert query["k"] == app.slider("top_k").get_attribute("value") == "4", query
    assert query["a"] == "recursive" and query["a_overlap"] == "20" and query["floor"] == "0.25"
    app.assert_healthy()


# --- workspace export and import ------------------------------------------------------------


def test_workspace_round_trip_through_the_download_and_the_uploader(
    app: AppPage, fresh_app: AppPage, tmp_path: Path
) -> None:
    app.open()
    paste_document(app, PASTED)
    before = app.chunk_badges()
    select_option(app, "a_chunker", "sentence")
    app.wait_badges_change(before)
    exported_badges, exported_doc = app.chunk_badges(), app.doc_text()
    assert len(exported_badges) >= 2, "the pasted text is cut into several sentence chunks"

    saved = download(app, "export_workspace", tmp_path / "workspace.json")
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["format"] == "ragviz-workspace"
    assert data["document"] == PASTED
    assert data["settings"]["config_a"]["chunker"] == "sentence"
    assert data["settings"]["sample"] is None, "a pasted document is not a sample"
    # the sample's questions wait for keep-or-clear (asked since the paste): the file carries
    # them as waiting, and reopens asking
    assert data["questions"] == []
    assert len(data["waiting_questions"]) == len(load_sample(DEFAULT_SAMPLE)[1])
    app.assert_healthy()

    fresh_app.open()
    assert PASTED[:30] not in fresh_app.doc_text(), "the fresh session starts on the sample"
    upload(fresh_app, "workspace_upload", saved)
    fresh_app.page.get_by_text(t("app.workspace_loaded", "en"), exact=True).wait_for()
    fresh_app.page.locator(DOC).first.get_by_text(PASTED[:30]).wait_for()
    fresh_app.wait_rendered()
    assert fresh_app.chunk_badges() == exported_badges, "the same chunks come back"
    assert fresh_app.doc_text() == exported_doc
    for sentence in PASTED.split(". "):
        assert sentence in exported_doc, sentence
    chunker = fresh_app.page.locator('.st-key-a_chunker input[role="combobox"]')
    assert chunker.input_value() == "sentence"
    paste_radio = fresh_app.page.locator(".st-key-doc_source").get_by_role(
        "radio", name=t("app.source_paste", "en"), exact=True
    )
    assert paste_radio.is_checked()
    assert (
        "Lockers are on the second floor"
        in fresh_app.page.locator(".st-key-doc_paste textarea").input_value()
    )
    fresh_app.assert_healthy()


def test_a_broken_workspace_file_is_refused_and_the_page_keeps_working(app: AppPage) -> None:
    app.open()
    refused = t("app.workspace_refused", "en", error="")
    for name, body, reason in (
        ("broken.json", b'{"format": "ragviz-workspace", "version": 1,', "not valid JSON"),
        ("other.json", b'{"format": "something-else"}', "not a ragviz workspace file"),
    ):
        upload(
            app, "workspace_upload", {"name": name, "mimeType": "application/json", "buffer": body}
        )
        error = app.page.locator('[data-testid="stAlert"]').filter(has_text=reason)
        error.wait_for()
        assert error.inner_text().strip().startswith(refused.strip()), error.inner_text()
        app.wait_rendered()
    assert "Reembolso" in app.doc_text(), "the sample stays on the page"

    before = app.chunk_badges()
    app.nudge_slider("a_size", 30)
    app.wait_badges_change(before)
    app.assert_healthy()


# --- the HTML report ----------------------------------------------------------------------------


def test_the_downloaded_report_opens_on_its_own(app: AppPage, tmp_path: Path) -> None:
    app.open()
    saved = download(app, "download_report", tmp_path / "report.html")
    assert saved.stat().st_size > 5_000
    app.trap_injections()
    app.page.goto(saved.resolve().as_uri())
    app.page.wait_for_load_state("load")
    assert app.page.title() == t("report.title", "en")
    docs = app.page.locator(DOC)
    assert docs.count() == 2, "the document with A's and with B's chunks"
    assert "Reembolso" in docs.first.inner_text()
    questions = load_sample(DEFAULT_SAMPLE)[1]
    charts = app.page.locator("svg")
    assert charts.count() >= 2 * len(questions) + 2, (
        "score bars per question and side, and a calibration strip per side"
    )
    box = charts.first.bounding_box()
    assert box is not None and box["width"] > 100 and box["height"] > 10, box
    assert app.injected() == []  # loaded, every image done, nothing that runs
    app.assert_healthy()


# --- guided replay ------------------------------------------------------------------------------


def test_the_guided_replay_walks_six_steps(app: AppPage, screenshot_dir: Path) -> None:
    app.open()
    app.page.locator(".st-key-walk_on label").click()
    banner = app.page.locator(WALK)
    banner.wait_for()
    total = len(STEPS)
    for index, step in enumerate(STEPS):
        progress = t("walk.progress", "en", n=index + 1, total=total)
        banner.locator(".rv-step").filter(has_text=progress).wait_for()
        app.wait_idle()
        app.assert_no_exception()
        assert banner.locator("h1").inner_text().strip() == step.title("en")
        assert banner.locator(".rv-step").inner_text().strip() == progress
        back = app.page.locator(".st-key-walk_back button")
        forward = app.page.locator(".st-key-walk_next button")
        assert back.is_disabled() == (index == 0)
        assert forward.is_disabled() == (index == total - 1)
        if index in (1, total - 1):
            wait_layout(app.page, PAGE_LAYOUT)  # the step's chart has finished its layout
            app.page.screenshot(path=str(screenshot_dir / f"walkthrough-step{index + 1}.png"))
        if index < total - 1:
            forward.click()

    app.page.locator(".st-key-walk_exit button").click()
    app.page.get_by_text(t("app.title", "en"), exact=True).wait_for()
    app.wait_rendered()
    assert banner.count() == 0, "the step banner is gone"
    assert not app.page.locator(".st-key-walk_on input").is_checked()
    assert app.page.locator(DOC).count() == 2
    app.assert_healthy()


# --- language -----------------------------------------------------------------------------------


def test_the_language_select_switches_to_portuguese(app: AppPage) -> None:
    app.open()
    floor = float(app.slider("floor").get_attribute("value") or "nan")
    select_option(app, "lang", LANGUAGE_NAMES["pt"])
    app.page.get_by_text(t("app.title", "pt"), exact=True).wait_for()
    app.wait_rendered()
    assert app.page.get_by_text(t("app.config_a", "pt"), exact=True).first.is_visible()
    assert url_query(app)["lang"] == "pt"

    app.open_tab(t("tab.questions", "pt"))
    app.wait_idle()
    analyses = default_analyses(floor)
    failing = [
        o.diagnosis
        for side in ("a", "b")
        for o in analyses[side].outcomes
        if o.diagnosis is not None and not o.diagnosis.ok
    ]
    assert failing
    for diagnosis in failing:  # each explanation is drawn under its bars, after them
        said = diagnosis_text(diagnosis, "pt")
        app.page.locator(CAPTION).filter(has_text=said).first.wait_for()
    captions = visible_texts(app, CAPTION)
    for diagnosis in failing:
        said = diagnosis_text(diagnosis, "pt")
        assert said in captions, f"not shown: {said!r}"
    english = analyses
    split = next(
        o.diagnosis
        for o in english["a"].outcomes
        if o.diagnosis is not None and "answer-split" in o.diagnosis.labels
    )
    assert diagnosis_text(split, "en") not in captions, "the English explanation is gone"
    assert app.page.get_by_text("straddles").count() == 0
    app.assert_healthy()


def test_a_portuguese_browser_gets_the_portuguese_interface(browser: Browser,
                                                            warm_app_url: str) -> None:
    page, context = new_app_page(browser, warm_app_url, locale="pt-BR")
    try:
        page.open(tab=None)
        assert page.page.get_by_text(t("app.title", "pt"), exact=True).is_visible()
        assert url_query(page)["lang"] == "pt"
        page.assert_healthy()
    finally:
        context.close()
