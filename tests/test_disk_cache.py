"""The embedding cache on disk (``ragviz.embedding.disk_cache``): real SQLite files in each
test's own folder, real processes, the bundled models, the real ``ragviz`` command."""

from __future__ import annotations

import json
import logging
import multiprocessing
import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ragviz.cli.command import main
from ragviz.embedding import disk_cache
from ragviz.embedding.base import SHARED_CACHE
from ragviz.embedding.disk_cache import (
    ENTRY_OVERHEAD,
    FILE_NAME,
    VECTOR,
    DiskCache,
    RunSettings,
    run_settings,
    text_key,
)
from ragviz.embedding.models import Embedder, EmbeddingCache, Kind, Vectors
from tests.loopback import serve_script

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_docs"
DIM = 384
IDENTITY = "test-model v1"


def _vector(i: int) -> np.ndarray[Any, np.dtype[np.float32]]:
    row = np.random.default_rng(i).standard_normal(DIM).astype(np.float32)
    return (row / np.linalg.norm(row)).astype(np.float32)


def _write(folder: str, start: int, count: int, barrier: Any) -> None:
    """One writer process: ``count`` vectors from ``start`` in batches of 50."""
    store = DiskCache(Path(folder), 100_000_000)
    barrier.wait()
    for first in range(start, start + count, 50):
        rows = [(f"text {i}", _vector(i)) for i in range(first, min(first + 50, start + count))]
        store.put_vectors(IDENTITY, "test", "document", rows)
    store.close()


def _rows(folder: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(folder / FILE_NAME) as db:
        return db.execute("SELECT key, length, checksum, payload, size FROM entries").fetchall()


def test_two_processes_writing_at_once_keep_every_vector_whole(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    writers = [context.Process(target=_write, args=(str(tmp_path), start, 1000, barrier))
               for start in (0, 500)]  # texts 500-999 are written by both
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=300)
        assert writer.exitcode == 0
    store = DiskCache(tmp_path, 100_000_000)
    found = store.get_vectors(IDENTITY, "document", [f"text {i}" for i in range(1500)])
    assert len(found) == 1500
    for i in (0, 499, 500, 999, 1000, 1499):
        assert np.array_equal(found[f"text {i}"], _vector(i))
    rows = _rows(tmp_path)
    assert len(rows) == 1500
    assert store.info().bytes == sum(row[4] for row in rows) == 1500 * (DIM * 4 + ENTRY_OVERHEAD)


WRITER = """
import sys, numpy as np
from pathlib import Path
from ragviz.embedding.disk_cache import DiskCache
store = DiskCache(Path(sys.argv[1]), 10**9)
n = 0
while True:
    rows = []
    for i in range(n, n + 2000):
        row = np.random.default_rng(i).standard_normal(384).astype(np.float32)
        rows.append((f"text {i}", row / np.linalg.norm(row)))
    store.put_vectors("test-model v1", "test", "document", rows)
    n += 2000
    print(n, flush=True)
"""


def test_a_writer_killed_mid_write_leaves_only_whole_vectors(tmp_path: Path) -> None:
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert writer.stdout is not None
        ready, _, _ = select.select([writer.stdout], [], [], 120)
        assert ready and writer.stdout.readline().strip() == "2000"  # one batch committed
        time.sleep(0.15)  # inside a later batch's transaction (they follow each other)
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store = DiskCache(tmp_path, 10**9)
    texts = [f"text {i}" for i in range(40_000)]
    found = store.get_vectors(IDENTITY, "document", texts)
    assert len(found) >= 2000 and len(found) % 2000 == 0  # whole batches, nothing half-written
    for text, row in found.items():
        assert np.array_equal(row, _vector(int(text.split()[1])))


@pytest.fixture
def counted(use_model: Embedder, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the default model is given (the model itself, not a stand-in)."""
    calls: list[str] = []
    original = use_model._encode

    def recorded(texts: list[str], kind: Kind) -> Vectors:
        calls.extend(texts)
        return original(texts, kind)

    monkeypatch.setattr(use_model, "_encode", recorded)
    return calls


@pytest.fixture
def on_disk(use_model: Embedder, tmp_path: Path) -> Iterator[DiskCache]:
    """The default model with a fresh memory cache over a store in ``tmp_path``."""
    store = DiskCache(tmp_path / "cache", 100_000_000)
    use_model.cache = EmbeddingCache(disk=store)
    try:
        yield store
    finally:
        use_model.cache = SHARED_CACHE
        store.close()


TEXTS = ["O prazo do reembolso é de 7 dias úteis.", "Wi-fi grátis no saguão.",
         "The key fob costs 35 euros."]


def test_a_damaged_entry_is_ignored_and_recomputed(
    use_model: Embedder, on_disk: DiskCache, counted: list[str]
) -> None:
    first = use_model.encode_documents(TEXTS)
    assert counted == sorted(TEXTS, key=len)
    assert use_model.disk_identity is not None
    with sqlite3.connect(on_disk.path) as db:
        cut, flipped = (text_key(VECTOR, "", text) for text in TEXTS[:2])
        db.execute("UPDATE entries SET payload = substr(payload, 1, 700) WHERE key = ?", (cut,))
        payload = bytearray(db.execute("SELECT payload FROM entries WHERE key = ?",
                                       (flipped,)).fetchone()[0])
        payload[5] ^= 0x40  # one bit of one float: a different, still finite vector
        db.execute("UPDATE entries SET payload = ? WHERE key = ?", (bytes(payload), flipped))
    counted.clear()
    use_model.cache = EmbeddingCache(disk=on_disk)  # the memory cache forgets; the disk stays
    again = use_model.encode_documents(TEXTS)
    assert sorted(counted) == sorted(TEXTS[:2])  # the damaged two went back to the model
    assert np.allclose(again, first, atol=1e-6)
    counted.clear()
    use_model.cache = EmbeddingCache(disk=on_disk)
    assert np.allclose(use_model.encode_documents(TEXTS), first, atol=1e-6)
    assert counted == []  # the recomputed vectors replaced the damaged ones


def test_least_recently_used_entries_go_first_past_the_size_limit(tmp_path: Path) -> None:
    size = DIM * 4 + ENTRY_OVERHEAD
    store = DiskCache(tmp_path, 10 * size)  # room for ten vectors
    for i in range(8):
        store.put_vectors(IDENTITY, "test", "document", [(f"a{i}", _vector(i))])
    assert set(store.get_vectors(IDENTITY, "document", ["a0"])) == {"a0"}  # a0 used again
    store.put_vectors(IDENTITY, "test", "document", [(f"b{i}", _vector(100 + i))
                                                     for i in range(5)])
    kept = store.get_vectors(IDENTITY, "document", [f"a{i}" for i in range(8)]
                             + [f"b{i}" for i in range(5)])
    assert sorted(kept) == ["a0", "a5", "a6", "a7", "b0", "b1", "b2", "b3", "b4"]
    assert store.info().bytes == 9 * size <= store.limit


def test_a_cache_that_cannot_be_opened_is_one_warning_and_no_cache(
    use_model: Embedder, tmp_path: Path, counted: list[str], caplog: pytest.LogCaptureFixture
) -> None:
    expected = use_model.encode_documents(TEXTS)
    for folder in (tmp_path / "corrupt", tmp_path / "a-file" / "cache"):
        if folder.name == "corrupt":
            folder.mkdir()
            (folder / FILE_NAME).write_bytes(b"this is not a cache file\n" * 200)
        else:
            (tmp_path / "a-file").write_text("a file where the folder would be")
        store = DiskCache(folder, 100_000_000)
        use_model.cache = EmbeddingCache(disk=store)
        counted.clear()
        caplog.clear()
        try:
            with caplog.at_level(logging.WARNING, logger="ragviz.cache"):
                assert np.allclose(use_model.encode_documents(TEXTS), expected, atol=1e-6)
                assert np.allclose(use_model.encode_documents(TEXTS), expected, atol=1e-6)
        finally:
            use_model.cache = SHARED_CACHE
        assert sorted(counted) == sorted(TEXTS)  # embedded, once (the memory cache works)
        messages = [record.getMessage() for record in caplog.records]
        assert len(messages) == 1 and "cannot be used" in messages[0]
        assert str(tmp_path) not in messages[0] and "Traceback" not in messages[0]
        assert store.broken


QUESTIONS = str(SAMPLES / "residents_guide.csv")
EVAL = ["eval", str(SAMPLES / "residents_guide.txt"), "--questions", QUESTIONS,
        "--model", "minilm-en", "--chunker", "fixed", "--size", "300", "--overlap", "60",
        "--floor", "0.2", "--json"]


def test_a_second_identical_eval_embeds_nothing_and_loads_no_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from ragviz.embedding import models

    monkeypatch.setenv("RAGVIZ_CACHE_DIR", str(tmp_path))
    loads: list[str] = []
    encoded: list[str] = []
    load, encode = models._load_sentence_transformer, models.SentenceTransformerEmbedder._encode

    def counted_load(source: str, local_only: bool) -> Any:
        loads.append(source)
        return load(source, local_only)

    def counted_encode(self: Any, texts: list[str], kind: Kind) -> Vectors:
        encoded.extend(texts)
        return encode(self, texts, kind)

    monkeypatch.setattr(models, "_load_sentence_transformer", counted_load)
    monkeypatch.setattr(models, "_BUNDLED", {})  # a new process: no model loaded yet
    monkeypatch.setattr(models.SentenceTransformerEmbedder, "_encode", counted_encode)
    outputs = []
    for _ in range(2):
        SHARED_CACHE.clear()  # a new process: nothing in memory
        models._BUNDLED.clear()
        loads.clear()
        encoded.clear()
        assert main(EVAL) == 0
        outputs.append(json.loads(capsys.readouterr().out))
        if len(outputs) == 1:
            assert len(loads) == 1 and len(encoded) > 20
    assert loads == [] and encoded == []
    assert outputs[1] == outputs[0]
    info = DiskCache(tmp_path, 10**9).info()
    assert [model.name for model in info.models] == ["minilm-en"]


def test_no_cache_neither_reads_nor_writes_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RAGVIZ_CACHE_DIR", str(tmp_path / "cache"))
    search = ["search", str(SAMPLES / "politica_reembolso.txt"), "--question",
              "Qual o prazo do reembolso?", "--json"]
    assert main([*search, "--no-cache"]) == 0
    assert not (tmp_path / "cache").exists()
    SHARED_CACHE.clear()  # as a new process would start
    assert main(search) == 0
    capsys.readouterr()
    assert main(["cache", "info", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["folder"] == str(tmp_path / "cache") and info["entries"] > 0
    assert [model["name"] for model in info["models"]] == ["use-multilingual"]
    assert main(["cache", "clear", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries_removed"] == info["entries"]
    assert main(["cache", "info", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == 0


def test_cache_clear_removes_a_file_that_is_not_a_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RAGVIZ_CACHE_DIR", str(tmp_path))
    (tmp_path / FILE_NAME).write_bytes(b"garbage" * 1000)
    assert main(["cache", "info"]) == 0
    assert "cannot be opened" in capsys.readouterr().out
    assert main(["cache", "clear"]) == 0
    assert not (tmp_path / FILE_NAME).exists()
    capsys.readouterr()
    assert main(["cache", "info", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["usable"] is True


def test_the_command_line_warns_once_and_finishes_without_a_usable_cache(
    tmp_path: Path,
) -> None:
    (tmp_path / "a-file").write_text("not a folder")
    env = {**os.environ, "RAGVIZ_CACHE_DIR": str(tmp_path / "a-file" / "cache")}
    done = subprocess.run(
        [sys.executable, "-m", "ragviz.cli", "search", str(SAMPLES / "politica_reembolso.txt"),
         "--question", "Qual o prazo do reembolso?", "--lang", "pt"],
        env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and "Reembolso" in done.stdout
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ragviz: o cache de embeddings em disco")
    assert str(tmp_path) not in done.stderr


def test_where_and_how_much_come_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    monkeypatch.delenv("RAGVIZ_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert disk_cache.cache_dir() == tmp_path / "ragviz"
    monkeypatch.setenv("RAGVIZ_CACHE_DIR", str(tmp_path / "mine"))
    assert disk_cache.cache_dir() == tmp_path / "mine"
    monkeypatch.setenv("RAGVIZ_CACHE_MB", "0")
    assert disk_cache.shared() is None and SHARED_CACHE.disk_store() is None
    monkeypatch.setenv("RAGVIZ_CACHE_MB", "2.5")
    assert disk_cache.limit_bytes() == 2_500_000
    store = disk_cache.shared()
    assert store is not None and store.folder == tmp_path / "mine"
    with run_settings(RunSettings(enabled=False)):
        assert disk_cache.shared() is None and SHARED_CACHE.disk_store() is None


API_KEY = "sk-test-disk-cache-never-store-me"
API_MODEL = "all-MiniLM-L6-v2"


@pytest.fixture(scope="module")
def api_base() -> Iterator[str]:
    """The tests' OpenAI-compatible server (all-MiniLM-L6-v2) on a free loopback port."""
    yield from serve_script(ROOT / "tests" / "openai_server.py", "--key", API_KEY, "--model",
                            API_MODEL, wait_s=120)


def test_an_api_model_is_stored_by_base_url_and_model_never_by_key(
    api_base: str, tmp_path: Path
) -> None:
    from ragviz.embedding.openai_api import OpenAIEmbedder

    store = DiskCache(tmp_path, 100_000_000)
    first = OpenAIEmbedder(API_MODEL, api_base, API_KEY, EmbeddingCache(disk=store))
    vectors = first.encode_documents(TEXTS)
    assert first.texts_encoded == len(TEXTS)
    # a second embedder (an empty memory, as in a new process) reads the stored vectors
    second = OpenAIEmbedder(API_MODEL, api_base, API_KEY, EmbeddingCache(disk=store))
    assert np.array_equal(second.encode_queries(TEXTS), vectors)  # one vector for both kinds
    assert second.texts_encoded == 0
    store.close()
    with sqlite3.connect(tmp_path / FILE_NAME) as db:
        assert db.execute("SELECT identity, name FROM models").fetchall() == [
            (f"api {api_base} {API_MODEL}", f"openai:{API_MODEL}@{api_base}")]
    stored = b"".join(path.read_bytes() for path in tmp_path.iterdir() if path.is_file())
    assert API_KEY.encode() not in stored and b"sk-test" not in stored


def test_a_limit_that_is_not_a_number_is_one_warning_and_the_default(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("RAGVIZ_CACHE_MB", "lots")
    monkeypatch.setattr(disk_cache, "_WARNED", set())
    with caplog.at_level(logging.WARNING, logger="ragviz.cache"):
        assert disk_cache.limit_bytes() == disk_cache.limit_bytes() == 1_000_000_000
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 1 and "RAGVIZ_CACHE_MB is 'lots'" in messages[0]


def test_a_model_folder_is_known_by_its_files_not_its_path(tmp_path: Path) -> None:
    from ragviz.embedding.models import folder_identity

    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        (folder / "1_Pooling").mkdir(parents=True)
        (folder / "model.safetensors").write_bytes(bytes(range(256)) * 64)
        (folder / "1_Pooling" / "config.json").write_text('{"pooling_mode_mean_tokens": true}')
    first = folder_identity(one)
    assert first is not None and first.startswith("folder blake2b:")
    assert folder_identity(two) == first and str(one) not in first  # a copy is the same model
    weights = bytearray((two / "model.safetensors").read_bytes())
    weights[1000] ^= 1
    (two / "model.safetensors").write_bytes(bytes(weights))
    assert folder_identity(two) != first  # other weights, other vectors
