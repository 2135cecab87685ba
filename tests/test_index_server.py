"""A real Chroma server started by the test (``chroma run``, shipped with chromadb) read
through ``chroma+http://HOST:PORT``, and a server that does not answer."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

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
                 str(QUESTIONS), "--sources", str(DOC), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["questions"][3]["labels"] == ["answer-split"]
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
