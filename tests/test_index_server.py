"""A real Chroma server started by the test (``chroma run``, shipped with chromadb) read
through ``chroma+http://HOST:PORT``, and a server that does not answer."""

from __future__ import annotations

import http.server
import json
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from ragviz.index.chroma import SERVER_TIMEOUT_S
from tests.index_fixtures import (
    DOC,
    QUESTIONS,
    article_among_others,
    chroma_collection,
    fixed_120,
)

CHROMA = shutil.which("chroma") or str(Path(__import__("sys").executable).parent / "chroma")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, use_model: Embedder) -> Iterator[str]:
    """A Chroma server over a directory holding the article's fixed-120 index, alone
    (``refunds``) and after another document's chunks (``mixed``)."""
    folder = tmp_path_factory.mktemp("server") / "chroma"
    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    chroma_collection(folder, "refunds", texts, use_model.encode_documents(texts))
    article_among_others(folder, use_model, "mixed")
    port = free_port()
    process = subprocess.Popen([CHROMA, "run", "--path", str(folder), "--port", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(120):  # waits for start-up, not a timing assertion
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v2/heartbeat", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        else:
            pytest.fail("chroma run did not start")
        yield f"chroma+http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_server_collection_evaluates_like_the_directory(
        capsys: pytest.CaptureFixture[str], server: str) -> None:
    assert main(["index", server, "--collection", "refunds", "--json"]) == 0
    (item,) = json.loads(capsys.readouterr().out)["collections"]
    assert (item["collection"], item["count"], item["dimension"]) == ("refunds", 5, 512)
    assert main(["eval", "--index", server, "--collection", "refunds", "--questions",
                 str(QUESTIONS), "--sources", str(DOC), "--top-k", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["questions"][3]["labels"][0] == "answer-split"  # top_k 1: one half sent
    assert data["chunk_list"][0]["start"] == 0


def test_server_that_does_not_answer_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    """A socket that accepts connections but never replies: refused after the stated
    timeout (well within 10 s), in one sentence."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        port = silent.getsockname()[1]
        assert main(["index", f"chroma+http://127.0.0.1:{port}"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "does not answer" in err and "timed out" in err
        assert main(["eval", "--index", f"chroma+http://127.0.0.1:{port}", "--questions",
                     str(QUESTIONS), "--index-mode", "database"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "does not answer" in err and "timed out" in err
    assert SERVER_TIMEOUT_S < 10


def test_bad_server_address(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["index", "chroma+http://localhost"]) == 2
    assert "chroma+http://HOST:PORT" in capsys.readouterr().err


def test_server_database_retrieval_gives_the_in_memory_labels(
        capsys: pytest.CaptureFixture[str], server: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Part 8 on a real server: past a lowered limit, the server's own nearest-neighbour
    search and $contains filter feed the diagnosis; same labels as the collection loaded."""
    args = ["eval", "--index", server, "--collection", "mixed", "--questions",
            str(QUESTIONS), "--sources", str(DOC), "--margin", "2", "--json"]
    assert main(args) == 0
    memory = json.loads(capsys.readouterr().out)
    monkeypatch.setenv("RAGVIZ_INDEX_MAX_CHUNKS", "20")
    assert main(args) == 0
    database = json.loads(capsys.readouterr().out)
    assert (memory["index"]["mode"], database["index"]["mode"]) == ("memory", "database")
    assert database["index"]["fetched"] < database["index"]["count"] / 4
    assert [r["labels"] for r in database["questions"]] == [
        r["labels"] for r in memory["questions"]]
    assert database["warnings"] == [] and database["index"]["margin"] == 2
    assert main(args[:-1]) == 0
    assert capsys.readouterr().out.startswith("The database retrieved: mixed holds")


def test_database_mode_says_when_mrr_may_read_high(
        capsys: pytest.CaptureFixture[str], server: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An answer past the top (top_k + margin) asked of the database is ranked among the
    fetched chunks only, at most its true rank: before, MRR was printed as if exact. Now the
    questions past that depth are counted, and the bound holds against the collection loaded."""
    args = ["eval", "--index", server, "--collection", "mixed", "--questions",
            str(QUESTIONS), "--sources", str(DOC), "--top-k", "1", "--margin", "0", "--json"]
    assert main(args) == 0
    memory = json.loads(capsys.readouterr().out)
    monkeypatch.setenv("RAGVIZ_INDEX_MAX_CHUNKS", "20")
    assert main(args) == 0
    database = json.loads(capsys.readouterr().out)
    ranks = [r["diagnosis"]["answer_rank"] for r in memory["questions"]
             if r["answerable"] and r["answer"] and r["diagnosis"] is not None]
    past = sum(1 for rank in ranks if rank is not None and rank > 1)
    assert past > 0, "the fixture must have an answer past rank 1 for this test to mean much"
    mode = database["index"]
    assert (mode["mode"], mode["depth"], mode["answers_past_depth"]) == ("database", 1, past)
    true_mrr, shown_mrr = memory["metrics"]["mrr"], database["metrics"]["mrr"]
    assert true_mrr <= shown_mrr <= true_mrr + mode["mrr_may_exceed_by"] + 1e-9
    assert main(args[:-1]) == 0
    said = capsys.readouterr().out
    assert "past the top 1 asked of the database" in said and "MRR may read up to" in said
    assert main([*args[:-1], "--lang", "pt"]) == 0
    assert "o MRR pode aparecer até" in capsys.readouterr().out


# --- hostile servers (issue 37, items 3, 5, 6, 14): loopback servers of the test's own ------

class Loopback:
    """An HTTP server on a free loopback port, in a thread, answering with ``answer(handler)``;
    it records every path asked, and ``release`` ends any request held open."""

    def __init__(self, answer: Callable[[Any], None]) -> None:
        self.paths: list[str] = []
        self.release = threading.Event()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                outer.paths.append(self.path)
                answer(self)

            do_POST = do_GET  # noqa: N815 - http.server's name

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = int(self.httpd.server_address[1])
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"chroma+http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()


def send(handler: Any, status: int, body: bytes = b"", headers: dict[str, str] | None = None,
         ) -> None:
    handler.send_response(status)
    for name, value in {"Content-Length": str(len(body)), **(headers or {})}.items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(body)


HEARTBEAT = json.dumps({"nanosecond heartbeat": 1}).encode()


def heartbeat_then(rest: Callable[[Any], None]) -> Callable[[Any], None]:
    """A server whose heartbeat is Chroma's and whose every other answer is ``rest``."""
    def answer(handler: Any) -> None:
        if handler.path == "/api/v2/heartbeat":
            send(handler, 200, HEARTBEAT, {"Content-Type": "application/json"})
        else:
            rest(handler)
    return answer


@pytest.fixture
def loopbacks() -> Iterator[Callable[[Callable[[Any], None]], Loopback]]:
    made: list[Loopback] = []

    def make(answer: Callable[[Any], None]) -> Loopback:
        made.append(Loopback(answer))
        return made[-1]

    yield make
    for server in made:
        server.close()


EVAL_ARGS = ["--questions", str(QUESTIONS), "--model", "minilm-en"]


@pytest.mark.parametrize("where", ["heartbeat", "later"])
def test_a_redirect_is_never_followed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        loopbacks: Callable[[Callable[[Any], None]], Loopback], where: str) -> None:
    """Item 5 (SSRF): an allowed server answering ``302 → another loopback port`` (at its
    heartbeat, or at the requests after it) made the CLI and the app ask that port. Now
    the other port is never contacted; the redirect is one sentence."""
    from ragviz.errors import IndexInputError
    from ragviz_app.index_source import HOSTS_ENV, server_reader

    secret = loopbacks(lambda handler: send(handler, 200, b"secret"))

    def redirect(handler: Any) -> None:
        send(handler, 302, headers={"Location": f"http://127.0.0.1:{secret.port}/internal"})

    allowed = loopbacks(redirect if where == "heartbeat" else heartbeat_then(redirect))
    for args in (["index", allowed.url], ["eval", "--index", allowed.url, *EVAL_ARGS]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and "ValueError" not in err
        assert "answered with a redirect (HTTP 302), which ragviz never follows" in err
    monkeypatch.setenv(HOSTS_ENV, f"127.0.0.1:{allowed.port}")
    with pytest.raises(IndexInputError, match=r"with a redirect \(HTTP 302\)"):
        server_reader(f"127.0.0.1:{allowed.port}").collections()
    assert secret.paths == []
    assert allowed.paths


def test_a_server_that_hangs_after_its_heartbeat_stops_at_the_timeout(
        capsys: pytest.CaptureFixture[str],
        loopbacks: Callable[[Callable[[Any], None]], Loopback]) -> None:
    """Item 6: a server that answers its heartbeat and then never answers held the CLI
    150 s+. Every request now waits at most --timeout (stated in the sentence)."""
    hanging = loopbacks(heartbeat_then(lambda handler: hanging.release.wait()))
    for args in (["index", hanging.url, "--timeout", "0.5"],
                 ["eval", "--index", hanging.url, *EVAL_ARGS, "--timeout", "0.5"]):
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        assert "stopped answering: a request waited 0.5 s" in err and "--timeout" in err
    assert [p for p in hanging.paths if p != "/api/v2/heartbeat"]  # it got that far


def test_ctrl_c_ends_a_hanging_request_in_one_line(
        loopbacks: Callable[[Callable[[Any], None]], Loopback]) -> None:
    """Item 6: Ctrl-C while a server holds a request (the default 30 s timeout) ends the
    CLI with exit 130 and one line."""
    import signal
    import subprocess
    import sys

    from tests.test_openai_embedder import AS_FROM_A_TERMINAL

    hanging = loopbacks(heartbeat_then(lambda handler: hanging.release.wait()))
    proc = subprocess.Popen([sys.executable, "-c", AS_FROM_A_TERMINAL, "index", hanging.url],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(600):  # waits until a request past the heartbeat is held open
            if [p for p in hanging.paths if p != "/api/v2/heartbeat"]:
                break
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, (out, err)
    assert err.strip() == "ragviz index: interrupted"


def test_a_server_that_answers_garbage_is_one_sentence(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        loopbacks: Callable[[Callable[[Any], None]], Loopback]) -> None:
    """Items 3 and 14: garbage after a good heartbeat gave "unexpected character, expected a
    JSON value…" (CLI) and a ValueError (app); a heartbeat that is not Chroma's too."""
    from ragviz.errors import IndexInputError
    from ragviz_app.index_source import HOSTS_ENV, server_reader

    garbage = loopbacks(heartbeat_then(lambda handler: send(handler, 200, b"garbage{")))
    not_chroma = loopbacks(lambda handler: send(handler, 200, b"<html>hello</html>"))
    for server, said in ((garbage, "sent an answer ragviz cannot read as Chroma's"),
                         (not_chroma, "answers (HTTP 200) but not as a Chroma server")):
        assert main(["index", server.url]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and said in err and "JSON" not in err, err
        monkeypatch.setenv(HOSTS_ENV, "127.0.0.1")
        with pytest.raises(IndexInputError, match=re.escape(said)):
            server_reader(f"127.0.0.1:{server.port}").collections()


def test_a_server_that_tampers_with_vectors_is_one_sentence(
        capsys: pytest.CaptureFixture[str], server: str,
        loopbacks: Callable[[Callable[[Any], None]], Loopback]) -> None:
    """Item 14: a proxy in front of a real Chroma server that makes each returned vector
    ragged ("setting an array element with a sequence…" before)."""
    real = server.removeprefix("chroma+")

    def tamper(handler: Any) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        request = urllib.request.Request(real + handler.path, method=handler.command,
                                         data=handler.rfile.read(length) if length else None,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            body = json.loads(response.read())
        if isinstance(body, dict) and body.get("embeddings"):
            body["embeddings"] = [[[0.1, 0.2], [0.3]] for _ in body["embeddings"]]
        send(handler, 200, json.dumps(body).encode(), {"Content-Type": "application/json"})

    proxy = loopbacks(tamper)
    assert main(["index", proxy.url, "--collection", "refunds"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sequence" not in err
    assert "ragviz index: the Chroma server at 127.0.0.1:" in err
