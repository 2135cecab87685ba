"""Issue 42 item 6 end to end: the app's LLM asks a server that accepts the connection and
never answers; Cancel ends the request long before its 60 s deadline (the server sees the
connection closed, the page is idle again and says so), and so does closing the tab."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import AppPage
from tests.browser.test_llm_browser import set_up_the_llm
from tests.hostile_server import SilentState, silent_server

pytestmark = pytest.mark.browser

WELL_BEFORE_S = 15  # the chat request's own deadline is 60 s


@pytest.fixture
def silent() -> Iterator[tuple[str, SilentState]]:
    with silent_server() as served:
        yield served


def test_cancel_and_a_closed_tab_end_a_request_to_a_silent_server(
        app: AppPage, silent: tuple[str, SilentState]) -> None:
    root, state = silent
    base = f"{root}/v1"
    set_up_the_llm(app, base)
    page = app.page
    ask = page.get_by_role("button", name=re.compile(r"^Ask the LLM \(9 prompts"))
    ask.click()
    expect(page.get_by_text("Asking: 0 of 9 prompts answered")).to_be_visible()
    assert state.wait_for("accepted", 1, WELL_BEFORE_S), "the app never connected"
    page.get_by_role("button", name=re.compile(r"^Cancel")).click()
    said = f"Asking was cancelled: the request to {base} was closed"
    expect(page.get_by_text(said, exact=False)).to_be_visible(timeout=WELL_BEFORE_S * 1000)
    assert state.wait_for("closed", 1, WELL_BEFORE_S), "the request outlived Cancel"
    app.wait_idle()
    expect(ask).to_be_visible()
    app.assert_no_exception()
    ask.click()  # asked again, then the tab closes while the server stays silent
    assert state.wait_for("accepted", 2, WELL_BEFORE_S), "the app never connected again"
    page.close()
    assert state.wait_for("closed", 2, WELL_BEFORE_S), "the request outlived its session"
