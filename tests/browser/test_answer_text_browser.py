"""Issue 42 item 18 in the browser: a model's answer is text. A bare URL in it (the hostile echo
server of tests/hostile_server.py answers with one) is shown, never made a link."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import AppPage
from tests.hostile_server import hostile_server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def root() -> Iterator[str]:
    with hostile_server() as (address, _):
        yield address


def test_a_bare_url_in_an_answer_is_no_link(app: AppPage, root: str) -> None:
    app.open(tab=None)
    app.wait_rendered(doc_tab=False)
    app.more_controls()  # the LLM settings are on the page's second level
    page = app.page
    page.get_by_text("Ask the LLM: model, server and prompt template").first.click()
    for label, value in (("Base URL of an OpenAI-compatible chat API", f"{root}/echo/v1"),
                         ("Chat model (openai:MODEL)", "openai:m")):
        field = page.locator(f'input[aria-label="{label}"]')
        field.fill(value)
        expect(field).to_have_value(value)
        field.press("Enter")
        app.wait_idle()
    page.get_by_role("button", name=re.compile(r"^Ask the LLM \(\d+ prompts")).click()
    said = page.get_by_text(re.compile("evil\u2060?\\.example")).first
    expect(said).to_be_visible(timeout=30_000)
    app.wait_idle()
    assert page.locator('a[href*="evil.example"]').count() == 0
    assert "http" in said.inner_text()  # the URL is there, as text
    app.assert_no_exception()
