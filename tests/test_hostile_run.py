"""Issue 42's last gaps on the HTTP side: a run's budget for the embedding and rerank APIs (a
slow but alive server, each reply long before its own deadline, still ends the command at the
budget with one sentence), the environment's proxies (the requests go through the operator's
proxy, the key rule holds on the target, NO_PROXY is read, a SOCKS proxy is no way around
it), and the guarded client built on public httpx and httpcore API only."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator

import numpy as np
import pytest

from ragviz.answering.chat import ChatModel
from ragviz.cli import command as cli
from ragviz.embedding import guarded_http
from ragviz.embedding.api_common import api_budget
from ragviz.embedding.base import EmbeddingCache
from ragviz.embedding.openai_api import OpenAIEmbedder
from ragviz.errors import EmbeddingAPIError, InputError, LLMError, RerankAPIError
from ragviz.retrieval.rerank_api import ApiReranker
from tests.forward_proxy import ProxyState, forward_proxy
from tests.hostile_server import HostileState, hostile_server

SERVER_KEY = "sk-server-secret-0123456789"
TEXTS = ["refunds take seven days", "the wifi password is on the board"]
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "http_proxy",
                   "https_proxy", "all_proxy", "no_proxy", "REQUEST_METHOD")
SPENT = "this run's {} s for the embedding and rerank APIs are spent"


@pytest.fixture(scope="module")
def hostile() -> Iterator[tuple[str, HostileState]]:
    with hostile_server() as served:
        yield served


@pytest.fixture(autouse=True)
def _environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's keys set, no host allowed, and no proxy unless a test sets one."""
    for name in ("RAGVIZ_LLM_API_KEY", "OPENAI_API_KEY", "RAGVIZ_RERANK_API_KEY"):
        monkeypatch.setenv(name, SERVER_KEY)
    for name in ("RAGVIZ_KEY_HOSTS", "OPENAI_BASE_URL", "RAGVIZ_RERANK_BASE",
                 "RAGVIZ_API_BUDGET", *PROXY_VARIABLES):
        monkeypatch.delenv(name, raising=False)


def _count(state: HostileState, mode: str, end: str) -> int:
    return sum(1 for path, _ in state.requests if path.startswith(f"/{mode}/")
               and path.endswith(end))


# --- a run's budget for the embedding and rerank APIs ------------------------------------------

def test_a_slow_embedding_api_ends_the_cli_run_at_its_budget(
        hostile: tuple[str, HostileState], capsys: pytest.CaptureFixture[str]) -> None:
    """Each reply comes 0.6 s late, far inside its 60 s deadline: the probe and the chunks'
    batch need 1.2 s, the budget is 1 s."""
    root, state = hostile
    before = _count(state, "slow", "/embeddings")
    code = cli.main(["eval", "sample:politica_reembolso", "--questions",
                     "sample:politica_reembolso", "--model", "openai:m", "--api-base",
                     f"{root}/slow/v1", "--api-budget", "1", "--no-cache"])
    said = capsys.readouterr().err
    assert code == 2 and said.count("\n") == 1, said
    assert SPENT.format(1) in said and f"{root}/slow/v1" in said, said
    assert _count(state, "slow", "/embeddings") - before == 2  # nothing asked after the budget


def test_a_slow_rerank_api_ends_the_cli_run_at_its_budget(
        hostile: tuple[str, HostileState], capsys: pytest.CaptureFixture[str]) -> None:
    """Seven questions reranked at 0.6 s each would take 4.2 s; the budget is 1 s, counted
    from the first request (the bundled model's load is not in it)."""
    root, state = hostile
    before = _count(state, "slow", "/rerank")
    code = cli.main(["eval", "sample:politica_reembolso", "--questions",
                     "sample:politica_reembolso", "--rerank", "api:m", "--rerank-base",
                     f"{root}/slow", "--api-budget", "1"])
    said = capsys.readouterr().err
    assert code == 2 and said.count("\n") == 1, said
    assert SPENT.format(1) in said and f"{root}/slow" in said, said
    assert _count(state, "slow", "/rerank") - before == 2


def test_the_budget_is_checked_as_a_number_of_seconds(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as ended:
        cli.main(["search", "sample:politica_reembolso", "--question", "prazo",
                  "--api-budget", "-3"])
    said = capsys.readouterr().err
    assert ended.value.code == 2 and said.count("\n") == 1, said
    assert "--api-budget: give a number from 0 to 86400, got '-3'" in said


def test_within_a_budget_the_api_answers_and_once_spent_nothing_is_sent(
        hostile: tuple[str, HostileState]) -> None:
    """The Python API: no budget unless a run sets one; a spent budget sends nothing."""
    root, state = hostile
    embedder = OpenAIEmbedder("m", f"{root}/vectors/v1", cache=EmbeddingCache())
    reranker = ApiReranker("m", f"{root}/vectors")
    with api_budget(30):
        assert embedder.encode(TEXTS).shape == (2, 8)
        assert len(reranker.scores("q", np.zeros(1), TEXTS, None)) == 2
    before = len(state.requests)
    with api_budget(1e-9):
        with pytest.raises(EmbeddingAPIError, match="spent"):
            embedder.encode(["never sent"])
        with pytest.raises(RerankAPIError, match="spent"):
            reranker.scores("q", np.zeros(1), TEXTS, None)
    assert len(state.requests) == before


# --- the environment's proxies -------------------------------------------------------------------

@pytest.fixture
def proxy() -> Iterator[tuple[str, ProxyState]]:
    with forward_proxy() as made:
        yield made


def test_every_client_goes_through_the_environments_proxy(
        hostile: tuple[str, HostileState], proxy: tuple[str, ProxyState],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, state = hostile
    proxy_url, seen = proxy
    monkeypatch.setenv("HTTP_PROXY", proxy_url)
    before = len(state.requests)
    answer = ChatModel("m", f"{root}/echo/v1", stream=False).ask("hello")
    assert "key I got" in answer.text
    OpenAIEmbedder("m", f"{root}/vectors/v1", cache=EmbeddingCache()).encode(TEXTS)
    ApiReranker("m", f"{root}/vectors").scores("q", np.zeros(1), TEXTS, None)
    urls = [url for _, url, _ in seen.forwarded]
    assert f"{root}/echo/v1/chat/completions" in urls
    assert f"{root}/vectors/v1/embeddings" in urls and f"{root}/vectors/rerank" in urls
    # the key rule is the target's: a visitor's base gets no server key through the proxy
    assert all(SERVER_KEY not in auth for _, _, auth in seen.forwarded)
    assert all(SERVER_KEY not in auth for _, auth in state.requests[before:])


def test_the_deadline_and_the_key_rule_hold_through_the_proxy(
        hostile: tuple[str, HostileState], proxy: tuple[str, ProxyState],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, _ = hostile
    proxy_url, seen = proxy
    monkeypatch.setenv("http_proxy", proxy_url)
    monkeypatch.setenv("RAGVIZ_KEY_HOSTS", "127.0.0.1")  # the operator allowed the target
    with pytest.raises(InputError, match=r"did not answer within 1\.5 s"):
        ApiReranker("m", f"{root}/trickle", timeout_s=1.5).scores("q", np.zeros(1), TEXTS,
                                                                  None)
    ChatModel("m", f"{root}/echo/v1", stream=False).ask("hello")
    assert (f"{root}/trickle/rerank", f"Bearer {SERVER_KEY}") in \
        [(url, auth) for _, url, auth in seen.forwarded]
    assert seen.forwarded[-1][2] == f"Bearer {SERVER_KEY}"


def test_no_proxy_sends_a_listed_host_direct(
        hostile: tuple[str, HostileState], proxy: tuple[str, ProxyState],
        monkeypatch: pytest.MonkeyPatch) -> None:
    root, state = hostile
    proxy_url, seen = proxy
    monkeypatch.setenv("HTTP_PROXY", proxy_url)
    monkeypatch.setenv("NO_PROXY", "localhost,127.0.0.1")
    before = len(state.requests)
    ChatModel("m", f"{root}/echo/v1", stream=False).ask("hello")
    assert len(state.requests) == before + 1 and not seen.forwarded


def test_a_socks_proxy_is_one_sentence_and_no_way_around_it(
        hostile: tuple[str, HostileState], monkeypatch: pytest.MonkeyPatch) -> None:
    root, state = hostile
    monkeypatch.setenv("ALL_PROXY", "socks5://127.0.0.1:9")
    before = len(state.requests)
    with pytest.raises(LLMError, match="cannot reach") as failed:
        ChatModel("m", f"{root}/echo/v1", stream=False, retries=0).ask("hello")
    assert "\n" not in str(failed.value)
    assert len(state.requests) == before  # nothing went straight to the target


# --- public httpx and httpcore API only --------------------------------------------------------

def test_the_guarded_client_touches_no_private_attribute_of_another_object() -> None:
    """Every ``x._name`` in guarded_http is ``self._name``: the transport is handed to httpx
    and the network backend to httpcore through their public parameters, never by reaching
    into a pool (``transport._pool._network_backend``)."""
    tree = ast.parse(inspect.getsource(guarded_http))
    reached = [ast.unparse(node) for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and node.attr.startswith("_")
               and not node.attr.startswith("__")
               and not (isinstance(node.value, ast.Name) and node.value.id == "self")]
    assert reached == []
