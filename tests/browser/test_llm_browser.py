"""Issue 34 in the browser: "Ask the LLM" streams each answer into the page word by word under
its question, with progress, and Cancel stops the asking; the answers so far stay."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PAGE_LAYOUT, AppPage, wait_layout
from tests.test_llm_answer import KEY, MODEL, _calls, _control, serve

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    yield from serve()


def set_chat_model(app: AppPage, key: str, base: str, model: str) -> None:
    """Type the key, the base URL and the model into the opened LLM settings."""
    for label, value in (("API key (kept in this session only)", key),
                         ("Base URL of an OpenAI-compatible chat API", base),
                         ("Chat model (openai:MODEL)", f"openai:{model}")):
        field = app.page.locator(f'input[aria-label="{label}"]')
        field.fill(value)
        expect(field).to_have_value(value)
        field.press("Enter")
        app.wait_idle()


def set_up_the_llm(app: AppPage, base: str) -> None:
    """The LLM's settings (on the page's second level, folded in the sidebar) filled in."""
    app.open(tab=None)
    app.wait_rendered(doc_tab=False)
    app.more_controls()
    page = app.page
    # the settings start folded (open, they pushed every question's bars below the fold)
    page.get_by_text("Ask the LLM: model, server and prompt template").first.click()
    expect(page.get_by_text("ollama serve", exact=False).first).to_be_visible()
    set_chat_model(app, KEY, base, MODEL)


def test_answers_stream_into_the_page_and_cancel_stops_asking(app: AppPage, base: str) -> None:
    set_up_the_llm(app, base)
    page = app.page
    # every answer waits at the server's gate: the page is held at each state it is checked in
    _control(base, "/control/fault", {"kind": "drip", "times": 9, "seconds": 0.3, "gated": True})
    before = _calls(base)
    page.get_by_role("button", name=re.compile(r"^Ask the LLM \(9 prompts")).click()
    expect(page.get_by_text("Asking: 0 of 9 prompts answered")).to_be_visible(timeout=30_000)
    _control(base, "/control/release", {"n": 1})
    streaming = page.get_by_text(re.compile(r"^LLM · até"))  # the first answer, word by word
    expect(streaming.first).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Asking: 1 of 9 prompts answered")).to_be_visible(timeout=30_000)
    page.get_by_role("button", name=re.compile(r"^Cancel")).click()
    _control(base, "/control/release", {"n": 9})  # the question held at the gate may end
    ask = page.get_by_role("button", name=re.compile(r"^Ask the LLM \(\d prompts"))
    expect(ask).to_be_visible(timeout=30_000)
    left = int(re.findall(r"\((\d) prompts", ask.inner_text())[0])
    assert 0 < left < 9  # some answered, the rest not asked
    assert _calls(base) - before < 9
    expect(page.get_by_text("answered from the wrong chunk", exact=False).first).to_be_visible()
    _control(base, "/control/reset", {})
    app.assert_no_exception()


LINE_PX = 26  # one line of an answer: "LLM · correct — O prazo…", "LLM · answered from…"


def test_a_and_bs_first_answers_show_without_scrolling(app: AppPage, base: str) -> None:
    """Issue 44.3: once asked, the first question's two answers (A's wrong chunk, B's "7
    dias úteis") are on the screen the Ask button is on (1280x800, the LLM set up and the
    page back on its first level, not scrolled), side by side: under the verdicts, where
    they were under the bars, the explanation and the prompt, below that screen."""
    app.page.set_viewport_size({"width": 1280, "height": 800})
    set_up_the_llm(app, base)
    page = app.page
    page.locator(".st-key-more_controls label").click()  # set up: back to the first level
    page.wait_for_function("() => !new URL(location.href).searchParams.has('more')")
    app.wait_idle()
    ask = page.get_by_role("button", name=re.compile(r"^Ask the LLM \(9 prompts"))
    ask.click()  # on the first screen: nothing scrolls
    answers = page.get_by_text(re.compile(r"^LLM · "))
    expect(answers.nth(1)).to_be_visible(timeout=60_000)
    # every prompt answered before measuring: once, while later answers still came in, the
    # first match was another question's answer (y 2441), the screenshot right after fine
    expect(page.get_by_role("button", name=re.compile(r"^Ask the LLM \(0 prompts"))
           ).to_be_visible(timeout=60_000)
    app.wait_idle(60_000)
    wait_layout(page, f'{PAGE_LAYOUT}, [data-testid="stMarkdownContainer"]')  # laid out
    first, second = (answers.nth(i).bounding_box() for i in (0, 1))
    assert first is not None and second is not None
    assert first["x"] < second["x"], "A's answer left of B's"
    for box in (first, second):  # each verdict and its answer's first line on the screen
        assert box["y"] >= 0 and box["y"] + LINE_PX <= 800, (first, second)
    app.assert_no_exception()
