"""Corrupt Chroma data, in a directory or a zip (issue 37, item 3): a table missing from
``chroma.sqlite3``, a damaged HNSW header, a truncated HNSW segment, a header counting more
vectors than its segment holds, an entry point outside the segment. Before, a
``chromadb.errors.InternalError`` traceback (CLI exit 1, a red box with server paths in
the app), and for the last three native code reading the files unchecked, which killed the
process by a signal (the CLI, or the app's server with every session). Now Chroma's files
are read in a child process: one sentence naming what the user gave, never the temporary
copy's path, and the process that asked lives on."""

from __future__ import annotations

import gc
import os
import re
import shutil
import signal
import sqlite3
import struct
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from ragviz.cli.command import main
from ragviz.errors import IndexInputError
from ragviz.index import open_index
from tests.index_fixtures import chroma_collection
from tests.test_index_readonly import zip_folder

COUNT = 1_500  # past Chroma's sync threshold: the vectors are in the HNSW files
# hnswlib's header.bin as Chroma writes it: a version, then offsetLevel0, max_elements,
# cur_element_count, size_data_per_element, label_offset, offsetData, maxlevel,
# enterpoint_node, maxM, maxM0, M, mult, ef_construction.
HEADER = struct.Struct("<IQQQQQQiIQQQdQ")
COUNTED, ENTRY = 3, 8  # the fields a damage below rewrites
# How native code dies on memory it should not read (SIGSEGV here; others on other systems).
FATAL = {signal.SIGSEGV, signal.SIGBUS, signal.SIGABRT}


def drop_table(folder: Path) -> None:
    with sqlite3.connect(folder / "chroma.sqlite3") as db:
        db.execute("DROP TABLE embeddings")
    db.close()


def damage_header(folder: Path) -> None:
    for header in folder.rglob("header.bin"):
        header.write_bytes(b"\xff" * header.stat().st_size)


def truncate_segment(folder: Path) -> None:
    for data in folder.rglob("data_level0.bin"):
        data.write_bytes(data.read_bytes()[:100])


def rewrite_header(folder: Path, field: int, value: int) -> None:
    for header in folder.rglob("header.bin"):
        data = header.read_bytes()
        fields = list(HEADER.unpack(data[:HEADER.size]))
        fields[field] = value
        header.write_bytes(HEADER.pack(*fields) + data[HEADER.size:])


def count_beyond_segment(folder: Path) -> None:
    """The header counts 100,000 vectors; the segment holds far fewer (read past its end)."""
    rewrite_header(folder, COUNTED, 100_000)


def entry_outside(folder: Path) -> None:
    """The search's entry point is a vector a billion rows past the segment (a query dies;
    reading the stored vectors does not search)."""
    rewrite_header(folder, ENTRY, 1_000_000_000)


DAMAGES: dict[str, Callable[[Path], None]] = {
    "a table missing": drop_table, "a damaged HNSW header": damage_header,
    "a truncated HNSW segment": truncate_segment,
    "an HNSW header counting more vectors than stored": count_beyond_segment,
    "an HNSW entry point outside the segment": entry_outside}
# What each damage may say: Chroma's refusal, the reader's death, or either (hnswlib reads a
# cut segment into a buffer unchecked: its leftover bytes decide whether native code dies).
REFUSED, DIED = "refused", "died"
SAYS = {"a table missing": {REFUSED}, "a damaged HNSW header": {REFUSED},
        "a truncated HNSW segment": {REFUSED, DIED},
        "an HNSW header counting more vectors than stored": {DIED},
        "an HNSW entry point outside the segment": {DIED}}


def died(where: str, lang: str = "en") -> re.Pattern[str]:
    """The reader's death as the catalog says it, the signal's number left open."""
    said = {"en": "The Chroma index at {} could not be read: its files are damaged (the reader "
                  "stopped with signal {}); rebuild or restore the index.",
            "pt": "O índice Chroma em {} não pôde ser lido: seus arquivos estão danificados (o "
                  "leitor parou com o sinal {}); reconstrua ou restaure o índice."}[lang]
    return re.compile(re.escape(said).replace(r"\{\}", "{}").format(
        re.escape(where), r"(?P<signal>\d+)"))


def kind_of(said: str, where: str) -> str:
    """Which sentence ``said`` is (asserting it is one of the two, whole)."""
    if said.startswith(f"{where} cannot be read as a Chroma directory ("):
        return REFUSED
    match = died(where).fullmatch(said)
    assert match is not None, said
    assert int(match["signal"]) in FATAL, said
    return DIED


def reader_children(besides: frozenset[int] = frozenset()) -> list[int]:
    """This process's children that are Chroma readers (``chroma_child.py``), alive, but
    ``besides`` (readers other tests of this worker opened and have not yet ended)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[-1].split()
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and b"chroma_child.py" in command \
                and int(entry.name) not in besides:
            found.append(int(entry.name))
    return found


@pytest.fixture(scope="module")
def healthy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from chromadb.api.shared_system_client import SharedSystemClient

    folder = tmp_path_factory.mktemp("corrupt") / "healthy"
    vectors = np.random.default_rng(37).normal(size=(COUNT, 384))
    chroma_collection(folder, "faq", [f"text {n}" for n in range(COUNT)], vectors)
    SharedSystemClient._identifier_to_refcount.pop(str(folder), None)
    SharedSystemClient._identifier_to_system.pop(str(folder)).stop()  # written to disk
    assert any(folder.rglob("data_level0.bin"))
    return folder


@pytest.fixture(params=list(DAMAGES))
def damaged(request: pytest.FixtureRequest, healthy: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "db"
    shutil.copytree(healthy, folder)
    DAMAGES[request.param](folder)
    return folder


def test_a_corrupt_directory_is_one_sentence(damaged: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             request: pytest.FixtureRequest) -> None:
    says = SAYS[request.node.callspec.params["damaged"]]
    questions = tmp_path / "q.csv"
    questions.write_text("question,answer,answerable\ntext 5?,text 5,yes\n", encoding="utf-8")
    others = frozenset(reader_children())
    for args in (["index", f"chroma:{damaged}"],
                 ["eval", "--index", f"chroma:{damaged}", "--index-mode", "database",
                  "--questions", str(questions), "--model", "minilm-en"]):
        code = main(args)
        err = capsys.readouterr().err
        if code == 0 and args[0] == "index":  # a listing may not reach the damaged part
            assert "Traceback" not in err
            continue
        assert code == 2 and err.count("\n") == 1, err
        prefix = f"ragviz {args[0]}: "
        assert err.startswith(prefix), err
        assert kind_of(err[len(prefix):-1], str(damaged)) in says
        assert "ragviz-chroma-" not in err and "Traceback" not in err
    gc.collect()
    assert reader_children(others) == []  # every reader the CLI started has ended


def test_a_corrupt_zip_in_the_app_is_one_sentence(damaged: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  request: pytest.FixtureRequest) -> None:
    from ragviz_app import upload_store
    from ragviz_app.index_source import upload_reader

    monkeypatch.setattr(upload_store, "uploads_root", lambda: tmp_path / "uploads")
    try:
        reader = upload_reader("prod.zip", zip_folder(damaged))
        reader.read()
        reader.nearest("faq", np.ones((1, 384), dtype=np.float32), 3)  # type: ignore[attr-defined]
    except IndexInputError as refused:
        said = str(refused)
    else:
        raise AssertionError("a damaged index was read without a word")
    assert kind_of(said, "prod.zip") in SAYS[request.node.callspec.params["damaged"]]
    assert str(tmp_path) not in said and "ragviz-chroma-" not in said


def test_the_reader_dying_is_said_in_portuguese_and_again_without_a_new_reader(
        healthy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "db"
    shutil.copytree(healthy, folder)
    count_beyond_segment(folder)
    assert main(["index", f"chroma:{folder}", "--lang", "pt"]) == 2
    err = capsys.readouterr().err
    assert died(str(folder), "pt").fullmatch(err.removeprefix("ragviz index: ").strip()), err
    others = frozenset(reader_children())
    reader = open_index(f"chroma:{folder}")
    said = []
    for _ in range(2):
        with pytest.raises(IndexInputError) as refused:
            reader.read()
        said.append(str(refused.value))
        assert reader_children(others) == []  # the dead reader was not started again
    assert said[0] == said[1] and died(str(folder)).fullmatch(said[0])


def test_a_healthy_read_leaves_no_reader_behind(healthy: Path) -> None:
    others = frozenset(reader_children())
    reader = open_index(f"chroma:{healthy}")
    loaded = reader.read()
    assert len(loaded.chunks) == COUNT and loaded.chunks[0].vector is not None
    assert len(reader_children(others)) == 1  # one child for every call of this reader
    assert [c.count for c in reader.collections()] == [COUNT]
    assert len(reader_children(others)) == 1
    del reader
    gc.collect()
    assert reader_children(others) == []


def test_the_app_page_says_it_and_keeps_the_upload(healthy: Path, tmp_path: Path) -> None:
    """The page itself (AppTest runs the app in this process: before, the process died)."""
    from tests.test_app import shown
    from tests.test_app_index import index_app

    folder = tmp_path / "db"
    shutil.copytree(healthy, folder)
    count_beyond_segment(folder)
    at = index_app(("hnsw.zip", zip_folder(folder)), sources=False)
    (error,) = [shown(e.value) for e in at.error]
    assert died("hnsw.zip").fullmatch(error), error
    assert at.file_uploader(key="index_upload").value is not None  # the upload stays
    assert not at.exception


def test_an_idle_reader_ends_its_child_and_starts_another_when_asked_again(
        healthy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ragviz.index import chroma_process

    others = frozenset(reader_children())
    monkeypatch.setattr(chroma_process, "IDLE_S", 0.5)
    reader = open_index(f"chroma:{healthy}")
    first = reader_children(others)
    assert len(first) == 1
    for _ in range(600):  # the idle child's memory is given back (waited for, at most 60 s)
        if not reader_children(others):
            break
        threading.Event().wait(0.1)
    assert reader_children(others) == []
    assert [c.count for c in reader.collections()] == [COUNT]  # a new child, same copy
    assert len(reader_children(others)) == 1 and reader_children(others) != first
