"""Issue 42 item 2 in the app: started with the server's keys, it sends none of them to the
base URL a visitor types (the echoing server of tests/hostile_server.py never receives one, the
page never shows one), and an answer's bare URL is text, not a link (item 18)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hostile_server import HostileState, hostile_server
from tests.test_app import rerun, run_app

SERVER_KEY = "sk-server-secret-0123456789"


@pytest.fixture
def hostile(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, HostileState]]:
    for name in ("RAGVIZ_LLM_API_KEY", "OPENAI_API_KEY", "RAGVIZ_RERANK_API_KEY"):
        monkeypatch.setenv(name, SERVER_KEY)
    for name in ("RAGVIZ_KEY_HOSTS", "OPENAI_BASE_URL", "RAGVIZ_RERANK_BASE"):
        monkeypatch.delenv(name, raising=False)
    with hostile_server() as served:
        yield served


def test_a_visitors_base_gets_no_server_key_and_the_page_shows_none(
        hostile: tuple[str, HostileState]) -> None:
    root, state = hostile
    at = run_app("questions")
    at.text_input(key="llm_model").input("openai:m")
    at.text_input(key="llm_base").input(f"{root}/echo/v1")
    rerun(at)
    at.button(key="llm_ask").click()
    rerun(at)
    said = [m.value for m in at.markdown if m.value.startswith("**LLM**")]
    assert any("key I got" in line for line in said)  # the echo was asked and shown
    assert state.requests and all(SERVER_KEY not in auth for _, auth in state.requests)
    page = [*(m.value for m in at.markdown), *(c.value for c in at.caption),
            *(e.value for e in at.error), *(c.value for c in at.code)]
    assert all(SERVER_KEY not in text for text in page)
    # the bare URL is broken where an autolink would start: text, never a link
    assert all("http\u2060\\:" in line for line in said if "evil" in line)
    assert not any("http\\:" in line for line in said)
