"""Issue 42 in the app: started with the server's keys, it sends none of them to the base URL a
visitor types (the echoing server of tests/hostile_server.py never receives one, the page never
shows one), and an answer's bare URL is text, not a link (item 18); a workspace file naming an
API contacts it only once the visitor confirms (item 3); a slow but alive embedding API ends a
run of the page at the operator's budget."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.hostile_server import HostileState, hostile_server
from tests.test_app import page_text, rerun, run_app, shown

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


def _requests(state: HostileState, mode: str) -> list[str]:
    """The Authorization headers of the requests to ``mode``."""
    return [auth for path, auth in state.requests if path.startswith(f"/{mode}/")]


def test_a_slow_embedding_api_ends_the_pages_run_at_the_budget(
        hostile: tuple[str, HostileState], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each reply 0.6 s late (its own deadline is 60 s): the probe and the first batch
    need 1.2 s, the operator's budget is 1 s a run; one sentence, the run ends."""
    root, state = hostile
    monkeypatch.setenv("RAGVIZ_API_BUDGET", "1")
    at = run_app(tab=None)
    at.radio(key="model_choice").set_value("openai")
    rerun(at)
    assert "waits at most 1 s in all" in str(at.text_input(key="api_base").help)  # said
    at.text_input(key="api_base").input(f"{root}/slow/v1")
    at.text_input(key="api_model").input("m")
    rerun(at)
    said = [shown(e.value) for e in [*at.error, *at.sidebar.error]]
    spent = [s for s in said if "this run's 1 s for the embedding and rerank APIs are spent" in s]
    assert spent and f"{root}/slow/v1" in spent[0], said
    assert len(_requests(state, "slow")) == 2  # nothing asked once the budget was spent


def _workspace_file(model: str) -> bytes:
    from ragviz.chunking import ChunkerConfig
    from ragviz.share.samples import get_sample
    from ragviz.share.workspace import Settings, Workspace

    seed = get_sample("politica_reembolso")
    settings = Settings(config_a=ChunkerConfig("fixed", size=120, overlap=0),
                        config_b=ChunkerConfig("fixed", size=120, overlap=0), model=model)
    return Workspace(seed.document(), tuple(seed.questions()[:2]), settings).to_json().encode()


def test_an_imported_workspace_contacts_its_api_only_once_confirmed_and_never_with_the_key(
        hostile: tuple[str, HostileState]) -> None:
    """Issue 42 item 3 in the app: the file names an API model at the visitor's host; the
    host hears nothing until Connect, and then gets no server key."""
    root, state = hostile
    at = run_app(tab=None)
    at.file_uploader(key="workspace_upload").set_value(
        ("shared.json", _workspace_file(f"openai:m@{root}/vectors/v1"), "application/json"))
    rerun(at)
    assert any(root in shown(w.value) for w in at.sidebar.warning)  # asked to connect
    at.slider(key="top_k").set_value(2)  # the page goes on: still nothing sent
    rerun(at)
    assert _requests(state, "vectors") == []
    at.button(key="api_connect").click()
    rerun(at)
    sent = _requests(state, "vectors")
    assert sent and all(SERVER_KEY not in auth for auth in sent)
    assert f"In use: openai:m@{root}/vectors/v1" in page_text(at)
    assert SERVER_KEY not in page_text(at)
