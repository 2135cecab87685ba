"""Issue 42, the HTTP side: the chat, embeddings and rerank clients against a hostile server of
our own (tests/hostile_server.py): the server's keys go only to the hosts its operator allowed,
no redirect is followed, a trickle ends at the deadline, a flood at the byte cap, and every
reply of odd shape is one sentence (never a traceback); keys echoed back are blanked out."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragviz.answering.chat import ChatModel
from ragviz.answering.reply import Redactor
from ragviz.cli import command as cli
from ragviz.embedding.base import EmbeddingCache
from ragviz.embedding.openai_api import OpenAIEmbedder
from ragviz.errors import InputError, LLMError, ModelLoadError
from ragviz.retrieval.rerank_api import ApiReranker
from tests.hostile_server import HostileState, hostile_server

SERVER_KEY = "sk-server-secret-0123456789"
RERANK_KEY = "sk-rerank-secret-0123456789"
TEXTS = ["refunds take seven days", "the wifi password is on the board"]


@pytest.fixture(scope="module")
def hostile() -> Iterator[tuple[str, HostileState]]:
    with hostile_server() as served:
        yield served


@pytest.fixture(autouse=True)
def _server_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """An operator who set every key the app reads, and allowed no other host."""
    for name in ("RAGVIZ_LLM_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.setenv(name, SERVER_KEY)
    monkeypatch.setenv("RAGVIZ_RERANK_API_KEY", RERANK_KEY)
    for name in ("RAGVIZ_KEY_HOSTS", "OPENAI_BASE_URL", "RAGVIZ_RERANK_BASE"):
        monkeypatch.delenv(name, raising=False)


def _sent(state: HostileState, mode: str, end: str = "") -> list[str]:
    """The Authorization headers of the requests to ``mode`` (whose path ends in ``end``)."""
    return [auth for path, auth in state.requests
            if path.startswith(f"/{mode}/") and path.endswith(end)]


def _chat(root: str, mode: str, **options: Any) -> ChatModel:
    return ChatModel("m", f"{root}/{mode}/v1", timeout_s=options.pop("timeout_s", 5.0),
                     **options)


# --- item 2: the server's keys go only where the operator allowed ----------------------------

@pytest.mark.parametrize("stream", [True, False])
def test_a_visitors_base_never_receives_the_servers_key(
        hostile: tuple[str, HostileState], stream: bool) -> None:
    root, state = hostile
    answer = _chat(root, "echo", stream=stream).ask("hello")
    assert SERVER_KEY not in answer.text
    assert _sent(state, "echo") and all(SERVER_KEY not in auth for auth in _sent(state, "echo"))


def test_an_allowed_host_gets_the_key_and_its_echo_is_blanked_out(
        hostile: tuple[str, HostileState], monkeypatch: pytest.MonkeyPatch) -> None:
    root, state = hostile
    monkeypatch.setenv("RAGVIZ_KEY_HOSTS", "127.0.0.1")
    pieces: list[str] = []
    answer = _chat(root, "echo").ask("hello", pieces.append)
    assert _sent(state, "echo")[-1] == f"Bearer {SERVER_KEY}"  # the operator allowed it
    assert SERVER_KEY not in answer.text and "***" in answer.text  # item 14
    assert SERVER_KEY not in "".join(pieces) and "".join(pieces).strip() == answer.text


def test_the_embedding_model_at_a_visitors_base_gets_no_server_key(
        hostile: tuple[str, HostileState]) -> None:
    root, state = hostile
    with pytest.raises(ModelLoadError):  # the echo server is no embeddings API
        OpenAIEmbedder("m", f"{root}/echo/v1", cache=EmbeddingCache(), retries=0)
    sent = _sent(state, "echo", "/embeddings")
    assert sent and all(SERVER_KEY not in auth for auth in sent)


def test_the_rerank_api_at_a_visitors_base_gets_no_server_key(
        hostile: tuple[str, HostileState], monkeypatch: pytest.MonkeyPatch) -> None:
    root, state = hostile
    with pytest.raises(InputError):
        ApiReranker("m", f"{root}/html").scores("q", np.zeros(1), TEXTS, None)
    assert _sent(state, "html")[-1] == ""
    monkeypatch.setenv("RAGVIZ_RERANK_BASE", f"{root}/html")  # the operator's own base
    with pytest.raises(InputError):
        ApiReranker("m", f"{root}/html").scores("q", np.zeros(1), TEXTS, None)
    assert _sent(state, "html")[-1] == f"Bearer {RERANK_KEY}"


def test_a_key_split_across_streamed_pieces_is_never_shown() -> None:
    redactor = Redactor([SERVER_KEY])
    shown = "".join(redactor.feed(piece) for piece in ["key: sk-ser", "ver-secret-0", "123456789!"])
    shown += redactor.rest()
    assert shown == "key: ***!"


# --- item 5: no redirect is followed ---------------------------------------------------------

def test_no_client_follows_a_redirect(hostile: tuple[str, HostileState]) -> None:
    root, state = hostile
    port = root.rsplit(":", 1)[1]
    with pytest.raises(LLMError) as chat:
        _chat(root, "redirect").ask("the prompt")
    with pytest.raises(ModelLoadError) as embed:
        OpenAIEmbedder("m", f"{root}/redirect/v1", cache=EmbeddingCache(), retries=0)
    with pytest.raises(InputError) as rerank:
        ApiReranker("m", f"{root}/redirect").scores("q", np.zeros(1), TEXTS, None)
    for error in (chat, embed, rerank):
        said = str(error.value)
        assert "redirect (HTTP 307)" in said and f"localhost:{port}" in said, said
        assert f"{root}/redirect" in said
    assert not _sent(state, "stolen")


# --- items 6, 7, 9, 16: a deadline for the whole reply, caps, retries --------------------------

def test_a_trickling_chat_server_ends_at_the_deadline_and_is_not_retried(
        hostile: tuple[str, HostileState]) -> None:
    root, state = hostile
    before = len(_sent(state, "trickle"))
    with pytest.raises(LLMError, match=r"did not answer within 1\.5 s"):
        _chat(root, "trickle", timeout_s=1.5, stream=False, retries=2).ask("hello")
    assert len(_sent(state, "trickle")) - before == 1


def test_a_trickling_rerank_server_ends_at_the_deadline(hostile: tuple[str, HostileState]
                                                          ) -> None:
    root, _ = hostile
    with pytest.raises(InputError, match=r"did not answer within 1\.5 s"):
        ApiReranker("m", f"{root}/trickle", timeout_s=1.5).scores("q", np.zeros(1), TEXTS,
                                                                  None)


def test_cancel_ends_a_silent_request(hostile: tuple[str, HostileState]) -> None:
    root, _ = hostile
    looks = itertools.count()
    with pytest.raises(LLMError, match="was cancelled"):
        _chat(root, "trickle", timeout_s=60.0).ask("hello", None, lambda: next(looks) > 3)


def test_a_flood_is_cut_at_the_byte_cap(hostile: tuple[str, HostileState]) -> None:
    root, _ = hostile
    with pytest.raises(LLMError, match="more than 1 MB"):
        _chat(root, "flood", stream=False, max_reply_bytes=1_000_000).ask("hello")
    with pytest.raises(InputError, match="more than 4 MB"):
        ApiReranker("m", f"{root}/flood").scores("q", np.zeros(1), TEXTS, None)


def test_a_streamed_flood_is_cut_at_the_answers_characters(
        hostile: tuple[str, HostileState]) -> None:
    root, _ = hostile
    answer = _chat(root, "flood", max_answer_chars=5_000).ask("hello")
    assert answer.cut_at == 5_000 and len(answer.text) == 5_000


# --- items 8, 9, 15, 22: replies of odd shape ----------------------------------------------------

@pytest.mark.parametrize("mode", ["choices-object", "content-number", "nest", "bytes", "html",
                                  "many-choices"])
def test_a_chat_reply_of_odd_shape_is_one_sentence(hostile: tuple[str, HostileState],
                                                   mode: str) -> None:
    root, _ = hostile
    with pytest.raises(LLMError) as failed:
        _chat(root, mode, stream=False).ask("hello")
    said = str(failed.value)
    assert "\n" not in said and f"{root}/{mode}/v1" in said


def test_implausible_token_counts_are_unknown_and_a_refusal_field_is_a_refusal(
        hostile: tuple[str, HostileState]) -> None:
    root, _ = hostile
    fine = _chat(root, "huge-tokens", stream=False).ask("hello")
    assert (fine.text, fine.prompt_tokens, fine.completion_tokens) == ("fine", None, None)
    refused = _chat(root, "refusal", stream=False).ask("hello")
    assert refused.refused and refused.text == "Sorry, I won't answer."


@pytest.mark.parametrize("mode", ["nest", "rerank-nested-results", "html", "bytes"])
def test_a_rerank_reply_of_odd_shape_is_one_sentence(hostile: tuple[str, HostileState],
                                                     mode: str) -> None:
    root, _ = hostile
    with pytest.raises(InputError) as failed:
        ApiReranker("m", f"{root}/{mode}").scores("q", np.zeros(1), TEXTS, None)
    assert "\n" not in str(failed.value)


def test_an_embedding_reply_nested_too_deep_is_one_sentence(
        hostile: tuple[str, HostileState]) -> None:
    root, _ = hostile
    with pytest.raises(ModelLoadError, match="not like an OpenAI embeddings API"):
        OpenAIEmbedder("m", f"{root}/nest/v1", cache=EmbeddingCache(), retries=0)


def test_an_eval_goes_on_past_replies_that_are_not_an_api(
        hostile: tuple[str, HostileState], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 42 #15: one sentence per question, the rest evaluated, exit 0."""
    root, _ = hostile
    code = cli.main(["eval", "sample:politica_reembolso", "--questions",
                     "sample:politica_reembolso", "--json", "--llm", "openai:m", "--llm-base",
                     f"{root}/html/v1", "--llm-no-stream"])
    out = capsys.readouterr()
    assert code == 0, out.err
    rows = json.loads(out.out)["questions"]
    errors = [row["llm"]["error"] for row in rows if row["llm"]["error"]]
    assert errors and all("not like an OpenAI chat API" in e for e in errors)
    assert all(row["decision"] for row in rows)  # retrieval's result for every question


# --- items 3 and 21: a workspace names an API model or a hub id only with consent ------------

def _workspace(tmp_path: Path, model: str) -> str:
    from ragviz.chunking import ChunkerConfig
    from ragviz.share.samples import get_sample
    from ragviz.share.workspace import Settings, Workspace

    seed = get_sample("politica_reembolso")
    settings = Settings(config_a=ChunkerConfig("fixed", size=120, overlap=0),
                        config_b=ChunkerConfig("fixed", size=120, overlap=0), model=model)
    path = tmp_path / "shared.json"
    path.write_text(Workspace(seed.document(), tuple(seed.questions()[:2]), settings).to_json(),
                    encoding="utf-8")
    return str(path)


def test_a_workspace_naming_an_api_model_sends_nothing_without_allow_api(
        hostile: tuple[str, HostileState], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    root, state = hostile
    path = _workspace(tmp_path, f"openai:m@{root}/echo/v1")
    before = len(_sent(state, "echo", "/embeddings"))
    assert cli.main(["eval", "--workspace", path, "--json"]) != 0
    said = capsys.readouterr().err
    assert "--allow-api" in said and "nothing was sent" in said and said.count("\n") == 1
    assert len(_sent(state, "echo", "/embeddings")) == before
    assert cli.main(["eval", "--workspace", path, "--json", "--allow-api"]) != 0  # consented
    assert len(_sent(state, "echo", "/embeddings")) > before
    capsys.readouterr()


def test_a_workspace_naming_a_hub_id_downloads_nothing_without_allow_download(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _workspace(tmp_path, "ragviz-tests/absent-everywhere")
    assert cli.main(["eval", "--workspace", path, "--json"]) != 0
    said = capsys.readouterr().err
    assert "nothing was downloaded" in said and "--allow-download" in said


def test_the_cli_json_and_text_blank_out_an_echoed_key(
        hostile: tuple[str, HostileState], capsys: pytest.CaptureFixture[str]) -> None:
    """Item 14: the operator's CLI sends its key to the base it typed; the model's echo of it
    is blanked out of every output."""
    root, state = hostile
    for extra in (["--json"], []):
        code = cli.main(["eval", "sample:politica_reembolso", "--questions",
                         "sample:politica_reembolso", "--llm", "openai:m", "--llm-base",
                         f"{root}/echo/v1", *extra])
        out = capsys.readouterr()
        assert code == 0, out.err
        assert SERVER_KEY not in out.out + out.err and "key I got: Bearer ***" in out.out
    assert _sent(state, "echo")[-1] == f"Bearer {SERVER_KEY}"


def test_the_runs_budget_bounds_every_request_and_then_asks_nothing(
        hostile: tuple[str, HostileState]) -> None:
    """Item 16: a stalled model costs the run's budget once, not a timeout per question."""
    from ragviz.answering.prompt import token_counter
    from ragviz.answering.run import Asker

    root, state = hostile
    asker = Asker(_chat(root, "trickle", timeout_s=60.0, stream=False), "{context}{question}",
                  token_counter("m"), budget_s=1.0)
    first = asker.ask("one")
    assert isinstance(first, LLMError) and "did not answer within 1 s" in str(first)
    before = len(_sent(state, "trickle"))
    second = asker.ask("two")
    assert isinstance(second, LLMError) and "time budget" in str(second)
    assert len(_sent(state, "trickle")) == before


def test_streamed_text_is_held_back_only_where_a_key_could_start() -> None:
    redactor = Redactor([SERVER_KEY])
    assert redactor.feed("the deadline is 7 days.") == "the deadline is 7 days."
    assert redactor.feed(" sk-se") == " "  # could be the key: held
    assert redactor.feed("ssion ends.") == "sk-session ends."  # it was not
