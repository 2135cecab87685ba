"""The OpenAI-compatible model against a real local server that embeds with all-MiniLM-L6-v2."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragviz.chunking import ChunkerConfig
from ragviz.cli import command as cli
from ragviz.cli import output as cli_output
from ragviz.embedding.models import EmbeddingCache, load_embedder
from ragviz.embedding.openai_api import (
    OpenAIEmbedder,
    check_api_base,
    openai_name,
    parse_openai_name,
)
from ragviz.errors import ModelLoadError
from ragviz.evaluation.pipeline import analyse
from ragviz.inputs.questions import LabelledQuestion
from tests.loopback import serve_script

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "openai_server.py"
KEY = "sk-test-9f3b2c7e-never-print-me"
MODEL = "all-MiniLM-L6-v2"


@pytest.fixture(scope="module")
def api_base() -> Iterator[str]:
    """The server process on a free port of 127.0.0.1, stopped after the module."""
    yield from serve_script(SERVER, "--key", KEY, "--model", MODEL, wait_s=120)


def _control(api_base: str, path: str, payload: dict[str, Any] | None = None) -> Any:
    root = api_base.removesuffix("/v1")
    data = None if payload is None else json.dumps(payload).encode()
    with urllib.request.urlopen(urllib.request.Request(root + path, data=data), timeout=10) as r:
        return json.load(r)


def _embedder(api_base: str, **options: Any) -> OpenAIEmbedder:
    return OpenAIEmbedder(MODEL, api_base, KEY, EmbeddingCache(), **options)


def test_scores_through_the_api_equal_the_in_process_model(
    api_base: str, minilm_model: Any, seed_doc: str, seed_questions: list[LabelledQuestion]
) -> None:
    config = ChunkerConfig()
    local = analyse(seed_doc, config, minilm_model, seed_questions)
    remote = analyse(seed_doc, config, _embedder(api_base), seed_questions)
    assert remote.model == f"openai:{MODEL}@{api_base}"
    assert [c.text for c in remote.chunks] == [c.text for c in local.chunks]
    for a, b in zip(local.outcomes, remote.outcomes, strict=True):
        np.testing.assert_allclose(b.decision.scores, a.decision.scores, atol=1e-5)
        assert [h.index for h in b.decision.hits] == [h.index for h in a.decision.hits]
    assert "float" in _control(api_base, "/control/stats")["encoding_formats"]


def test_name_holds_base_and_model_but_never_the_key(api_base: str) -> None:
    embedder = _embedder(api_base)
    assert KEY not in embedder.name
    assert KEY not in repr(embedder)
    assert KEY not in repr(vars(embedder).keys()) and "api_key" not in vars(embedder)
    assert parse_openai_name(embedder.name) == (MODEL, api_base)
    assert openai_name("text-embedding-3-small", None) == "openai:text-embedding-3-small"
    assert embedder.max_tokens is None
    assert embedder.dimension == 384


def test_load_embedder_dispatches_openai_names(api_base: str) -> None:
    embedder = load_embedder(f"openai:{MODEL}@{api_base}", EmbeddingCache(), api_key=KEY)
    vectors = embedder.encode_queries(["How do I cancel?"])
    assert vectors.shape == (1, 384)
    assert abs(float(np.linalg.norm(vectors[0])) - 1.0) < 1e-5


def test_cache_key_includes_the_base_url(api_base: str) -> None:
    cache = EmbeddingCache()
    embedder = OpenAIEmbedder(MODEL, api_base, KEY, cache)
    before = _control(api_base, "/control/stats")["embedding_requests"]
    embedder.encode_documents(["cached text one", "cached text two"])
    embedder.encode_documents(["cached text one", "cached text two"])
    after = _control(api_base, "/control/stats")["embedding_requests"]
    assert after - before == 1
    assert (embedder.name, "document", "cached text one") in cache._data


def test_big_inputs_are_split_into_batches(api_base: str) -> None:
    embedder = _embedder(api_base)
    before = len(_control(api_base, "/control/stats")["batch_sizes"])
    texts = [f"sentence number {i}" for i in range(300)]
    rows = embedder._encode(texts, "document")
    sizes = _control(api_base, "/control/stats")["batch_sizes"][before:]
    assert sizes == [128, 128, 44]
    assert rows.shape == (300, 384)


def _error(make: Any) -> str:
    with pytest.raises(ModelLoadError) as info:
        make()
    message = str(info.value)
    assert KEY not in message
    return message


def test_wrong_key_is_one_sentence_without_the_key(api_base: str) -> None:
    message = _error(lambda: OpenAIEmbedder(MODEL, api_base, "sk-wrong-key", EmbeddingCache()))
    assert message == (
        f"the embedding API at {api_base} refused the API key (HTTP 401); "
        "set OPENAI_API_KEY or enter the right key"
    )
    assert "sk-wrong-key" not in message


def test_unknown_model_is_named(api_base: str) -> None:
    message = _error(lambda: OpenAIEmbedder("no-such-model", api_base, KEY, EmbeddingCache()))
    assert message.startswith(f"the embedding API at {api_base} has no model 'no-such-model' "
                              "(HTTP 404)")


def test_wrong_path_says_check_the_base_url(api_base: str) -> None:
    root = api_base.removesuffix("/v1")
    message = _error(lambda: OpenAIEmbedder(MODEL, root, KEY, EmbeddingCache()))
    assert message == (
        f"no OpenAI embeddings API at {root} (HTTP 404 on {root}/embeddings); "
        "check the base URL (it usually ends in /v1)"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_unreachable_host_and_unknown_host() -> None:
    base = f"http://127.0.0.1:{_free_port()}/v1"
    message = _error(lambda: OpenAIEmbedder(MODEL, base, KEY, EmbeddingCache()))
    assert message == (f"cannot reach the embedding API at {base}: the connection was refused "
                       "(is the server running on that port?)")
    dns = _error(lambda: OpenAIEmbedder(MODEL, "http://no-such-host.invalid/v1", KEY,
                                        EmbeddingCache()))
    assert dns == ("cannot reach the embedding API at http://no-such-host.invalid/v1: "
                   "the host name does not resolve")


@pytest.mark.parametrize("status", [429, 500, 503])
def test_retries_then_succeeds(api_base: str, status: int) -> None:
    embedder = _embedder(api_base)
    _control(api_base, "/control/fail", {"status": status, "times": 2})
    before = _control(api_base, "/control/stats")["embedding_requests"]
    vectors = embedder.encode_documents([f"retry after {status}"])
    assert vectors.shape == (1, 384)
    assert _control(api_base, "/control/stats")["embedding_requests"] - before == 3


def test_retries_are_bounded(api_base: str) -> None:
    embedder = _embedder(api_base, retries=2)
    _control(api_base, "/control/fail", {"status": 429, "times": 5})
    message = _error(lambda: embedder.encode_documents(["never answered"]))
    _control(api_base, "/control/fail", {"status": 429, "times": 0})
    assert message == (f"the embedding API at {api_base} kept failing (HTTP 429) after 2 "
                       "retries; try again later")


def test_a_failing_first_request_says_the_retries_it_made(api_base: str) -> None:
    """Issue 37, low 24: loading probes the API with one retry; the sentence said 4."""
    _control(api_base, "/control/fail", {"status": 503, "times": 5})
    try:
        message = _error(lambda: _embedder(api_base, retries=4))
    finally:
        _control(api_base, "/control/fail", {"status": 503, "times": 0})
    assert message.endswith("kept failing (HTTP 503) after 1 retry; try again later")


def test_cli_writes_the_key_nowhere(
    api_base: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    doc = str(ROOT / "sample_docs" / "politica_reembolso.txt")
    questions = str(ROOT / "sample_docs" / "politica_reembolso.csv")
    model = ["--model", f"openai:{MODEL}", "--api-base", api_base]
    report = tmp_path / "report.html"
    assert cli.main(["eval", doc, "--questions", questions, "--json", *model]) == 0
    assert cli.main(["report", doc, "--questions", questions, "--html", str(report), *model]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out.split("\nwrote ")[0])["model"] == f"openai:{MODEL}@{api_base}"
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong-" + KEY)
    assert cli.main(["eval", doc, "--questions", questions, "--json", *model]) == 2
    wrong = capsys.readouterr()
    assert "refused the API key" in wrong.err
    texts = [out.out, out.err, wrong.out, wrong.err, report.read_text(encoding="utf-8")]
    texts += [p.read_text(encoding="utf-8", errors="replace") for p in tmp_path.rglob("*")
              if p.is_file()]
    assert all(KEY not in text for text in texts)


def test_api_base_without_an_openai_model_is_a_user_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = str(ROOT / "sample_docs" / "politica_reembolso.txt")
    code = cli.main(["chunk", doc, "--model", "minilm-en", "--api-base", "http://x/v1"])
    assert code == 2
    assert capsys.readouterr().err == (
        "ragviz chunk: --api-base only applies to openai:<model> models\n"
    )


def test_openai_name_round_trips() -> None:
    assert parse_openai_name("openai:nomic-embed-text:latest@http://localhost:11434/v1") == (
        "nomic-embed-text:latest", "http://localhost:11434/v1"
    )
    assert parse_openai_name("openai:text-embedding-3-small") == ("text-embedding-3-small", None)
    assert openai_name("m", "https://api.openai.com/v1/") == "openai:m"


@pytest.mark.parametrize("typed", ["{host}/v1", "htp://{host}/v1", "ftp://{host}/v1",
                                   "//{host}/v1", "http:///v1"])
def test_a_base_url_without_http_never_falls_back_to_another_host(
    api_base: str, typed: str, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 24 #3: the key typed for the server named must never go to the default API.

    OPENAI_BASE_URL (the default base) points at the test server, which counts requests:
    before the fix a scheme-less --api-base fell back to it and the key was sent there."""
    monkeypatch.setenv("OPENAI_BASE_URL", api_base)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    host = api_base.removeprefix("http://").removesuffix("/v1")
    doc = str(ROOT / "sample_docs" / "politica_reembolso.txt")
    before = _control(api_base, "/control/stats")["embedding_requests"]
    code = cli.main(["search", doc, "--question", "Qual o prazo?", "--model",
                     f"openai:{MODEL}", "--api-base", typed.format(host=host)])
    err = capsys.readouterr().err
    assert code == 2
    assert "must start with http:// or https://" in err and err.count("\n") == 1
    assert _control(api_base, "/control/stats")["embedding_requests"] == before
    assert KEY not in err


def test_a_model_option_with_a_bad_base_is_refused_not_redirected(api_base: str) -> None:
    host = api_base.removeprefix("http://")
    for name in (f"openai:{MODEL}@{host}", f"openai:{MODEL}@ftp://{host}"):
        message = _error(lambda n=name: load_embedder(n, EmbeddingCache(), api_key=KEY))
        assert "must start with http:// or https://" in message


def test_credentials_and_queries_in_the_base_are_refused_unechoed() -> None:
    message = _error(lambda: check_api_base("http://alice:s3cr3t-pw@127.0.0.1:9/v1"))
    assert "s3cr3t-pw" not in message and "alice" not in message
    assert "user name or password" in message and "http://***@127.0.0.1:9/v1" in message
    assert "query" in _error(lambda: check_api_base("http://127.0.0.1:9/v1?key=1"))
    assert "must start with" in _error(lambda: check_api_base("http://127.0.0.1:99999999/v1"))
    assert check_api_base(" https://api.example.com/v1/ ") == "https://api.example.com/v1"


@pytest.mark.parametrize(("fault", "says"), [
    ("nan", "a vector holding NaN or infinite numbers"),
    ("missing", "2 vectors for 3 texts"),
    ("ragged", "vectors of different lengths (383, 384)"),
    ("dimension", "vectors of 383 numbers where its first answer had 384"),
    ("zeros", "a vector of zeros only"),
])
def test_a_faulty_vector_is_refused_never_scored(api_base: str, fault: str, says: str) -> None:
    """Issue 24 #8: before, NaN gave "best score nan is under the floor" and exit 0."""
    embedder = _embedder(api_base)
    _control(api_base, "/control/fault", {"kind": fault, "times": 1})
    message = _error(lambda: embedder.encode_documents([f"{fault} one", f"{fault} two",
                                                        f"{fault} three"]))
    assert message == (f"the embedding API at {api_base} answered with {says}; nothing was "
                       f"scored (check the server and the model {MODEL!r})")


def test_an_html_page_instead_of_vectors_is_named(api_base: str) -> None:
    embedder = _embedder(api_base)
    _control(api_base, "/control/fault", {"kind": "html", "times": 1})
    message = _error(lambda: embedder.encode_documents(["an html answer"]))
    assert "answered, but not like an OpenAI embeddings API" in message


def test_the_cli_refuses_nan_vectors_with_exit_2(
    api_base: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    doc = str(ROOT / "sample_docs" / "politica_reembolso.txt")
    load_embedder(f"openai:{MODEL}@{api_base}", api_key=KEY)  # the probe answers correctly
    _control(api_base, "/control/fault", {"kind": "nan", "times": 5})
    code = cli.main(["search", doc, "--question", "Qual o prazo do reembolso?", "--model",
                     f"openai:{MODEL}", "--api-base", api_base, "--chunker", "fixed",
                     "--size", "97"])
    _control(api_base, "/control/fault", {"kind": "nan", "times": 0})
    assert code == 2
    assert "NaN or infinite" in capsys.readouterr().err


def test_retries_follow_the_servers_retry_after(api_base: str) -> None:
    """The official client's retry waits as long as the server's retry-after-ms says."""
    embedder = _embedder(api_base)
    _control(api_base, "/control/fail", {"status": 429, "times": 1, "retry_after_ms": 1500})
    before = len(_control(api_base, "/control/stats")["arrivals"])
    embedder.encode_documents(["retry after one and a half seconds"])
    arrivals = _control(api_base, "/control/stats")["arrivals"][before:]
    _control(api_base, "/control/fail", {"status": 429, "times": 0})
    assert len(arrivals) == 2
    assert arrivals[1] - arrivals[0] >= 1.4


# The CLI as a terminal starts it: SIGINT unblocked and handled by Python. A child inherits
# its parent's signal mask and an ignored SIGINT, and the test process (Chromium, Streamlit
# and their threads ran in it before) is no terminal.
AS_FROM_A_TERMINAL = (
    "import runpy, signal, sys; signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT]); "
    "signal.signal(signal.SIGINT, signal.default_int_handler); sys.argv[0] = 'ragviz'; "
    "runpy.run_module('ragviz.cli.command', run_name='__main__')"
)


def test_ctrl_c_during_a_slow_api_call_is_one_line_not_a_traceback(api_base: str) -> None:
    """Issue 24 #16: before, an 86-line KeyboardInterrupt traceback."""
    _control(api_base, "/control/fault", {"kind": "slow", "times": 1, "seconds": 20})
    before = len(_control(api_base, "/control/stats")["arrivals"])
    env = {**os.environ, "OPENAI_API_KEY": KEY}
    proc = subprocess.Popen(
        [sys.executable, "-c", AS_FROM_A_TERMINAL, "search", str(ROOT / "sample_docs" /
         "politica_reembolso.txt"), "--question", "prazo", "--model", f"openai:{MODEL}",
         "--api-base", api_base], stderr=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
        text=True)
    try:
        for _ in range(600):  # the request reached the server: the client is waiting
            if len(_control(api_base, "/control/stats")["arrivals"]) > before:
                break
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, (proc.returncode, out[-500:], err[-2000:])
    assert err.strip() == "ragviz search: interrupted"


def test_a_terminal_sees_progress_per_batch(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(cli_output, "stderr_is_terminal", lambda: True)
    doc = str(ROOT / "sample_docs" / "politica_reembolso.txt")
    assert cli.main(["search", doc, "--question", "prazo", "--model", "minilm-en",
                     "--chunker", "fixed", "--size", "61"]) == 0
    err = capsys.readouterr().err
    assert re.search(r"ragviz: embedded (\d+) of \1 chunks with minilm-en \(\d+ s\)\n", err)


def test_a_terminal_sees_the_api_and_progress_lines_in_the_chosen_language(
    api_base: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """Before, ``--lang pt`` still printed "connecting to..." and "embedded N of N" in English."""
    monkeypatch.setattr(cli_output, "stderr_is_terminal", lambda: True)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    doc = str(ROOT / "sample_docs" / "politica_reembolso.txt")
    assert cli.main(["search", doc, "--question", "prazo", "--model", f"openai:{MODEL}",
                     "--api-base", api_base, "--chunker", "fixed", "--size", "61",
                     "--lang", "pt"]) == 0
    err = capsys.readouterr().err
    assert "ragviz: conectando à API de embeddings (cada requisição espera no máximo" in err
    assert re.search(rf"ragviz: (\d+) de \1 chunks embutidos com openai:{MODEL}\S* \(\d+ s\)\n",
                     err), err
    assert "embedded" not in err and "connecting" not in err
