""""Generate questions" in the browser: the progress bar while the model writes, Cancel keeps
what was written, the review shows each excerpt in its context, and the kept questions join
the questions table (the loopback question-writing model of tests/question_server.py, held at
its gate so the page is checked at each state)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import AppPage
from tests.browser.test_llm_browser import set_chat_model
from tests.test_llm_answer import _control
from tests.test_question_writing import KEY, MODEL
from tests.test_question_writing import base as base

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(base: str) -> Iterator[str]:
    yield base
    _control(base, "/control/reset", {})


def test_generate_cancel_review_and_add(app: AppPage, server: str) -> None:
    app.open(tab=None)
    app.more_controls()  # the LLM's settings are on the page's second level
    page = app.page
    page.get_by_text("Ask the LLM: model, server and prompt template").first.click()
    set_chat_model(app, KEY, server, MODEL)
    page.get_by_text("Generate questions", exact=True).first.click()
    _control(server, "/control/fault", {"kind": "gate", "gated": True})
    page.get_by_role("button", name=re.compile(r"^Generate with openai")).click()
    expect(page.get_by_text("Writing questions: 0 of 5")).to_be_visible(timeout=30_000)
    page.get_by_role("button", name=re.compile(r"^Cancel")).click()
    _control(server, "/control/release", {"n": 1})  # the reply held at the gate comes back
    expect(page.get_by_text(re.compile(r"^Cancelled: the \d questions written so far"))
           ).to_be_visible(timeout=30_000)
    app.wait_idle()
    grid = page.locator('[data-testid="stDataFrame"]').filter(has_text="Excerpt in its context")
    expect(grid).to_be_visible()
    page.get_by_role("button", name="Add the kept questions").click()
    expect(page.get_by_text(re.compile(r"^\d questions? added to the table"))
           ).to_be_visible(timeout=30_000)
    app.wait_idle()
    added = int(re.findall(r"\d+", page.get_by_text(re.compile(r"added to the table")
                                                    ).inner_text())[0])
    assert added >= 1
    expect(page.get_by_text(f"questions ({7 + added} in use)")).to_be_visible()
    app.assert_no_exception()
