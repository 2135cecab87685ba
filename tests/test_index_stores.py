"""The store registry (issue 35 item 1, issue 32 item 4): ``open_index`` is a lookup, a new
store is one module that registers itself, files are recognised by their content, and the
CLI's readers get the command's timeout and a progress line on a terminal."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ragviz.cli import index_command as command
from ragviz.index.base import CollectionInfo, IndexChunk, LoadedIndex
from ragviz.index.open import open_index
from ragviz.index.stores import OpenOptions, Store, detect, register, stores
from tests.index_fixtures import write_jsonl
from tests.test_index import run


class ToyReader:
    """A store of two collections, held in memory."""

    def __init__(self, spec: str, options: OpenOptions) -> None:
        self.spec, self.options = spec, options

    def collections(self) -> list[CollectionInfo]:
        return [CollectionInfo("alpha", 1, None), CollectionInfo("beta", 1, None)]

    def read(self, collection: str | None = None) -> LoadedIndex:
        name = collection or "alpha"
        return LoadedIndex(name, (IndexChunk(f"{name}-0", f"the {name} chunk"),))


def test_a_toy_store_is_one_registration(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from ragviz.index import stores as registry

    stores()  # the built-in stores first, then the toy one in a copy undone after the test
    monkeypatch.setattr(registry, "_STORES", dict(registry._STORES))
    register(Store("toy", ToyReader, schemes=("toy:",), lists_collections=True,
                   forms=("toy:NAME",)))
    reader = open_index("toy:shelf", timeout=7.0, max_chunks=5, table="t")
    assert isinstance(reader, ToyReader)
    assert (reader.options.timeout, reader.options.max_chunks) == (7.0, 5)
    assert reader.options.extra == {"table": "t"}
    data = run(capsys, "index", "toy:shelf", "--json")
    assert [c["collection"] for c in data["collections"]] == ["alpha", "beta"]


def test_every_store_says_what_it_can() -> None:
    by_name = {s.name: s for s in stores()}
    assert {"chroma", "jsonl", "table", "pgvector", "qdrant"} <= set(by_name)
    assert by_name["pgvector"].can_retrieve and by_name["pgvector"].can_find_text
    assert by_name["qdrant"].lists_collections and "qdrant+http://" in by_name[
        "qdrant"].server_schemes
    assert not by_name["jsonl"].can_retrieve


def test_files_are_recognised_by_content(tmp_path: Path) -> None:
    records = [{"page_content": "Refunds take 7 days.", "metadata": {"source": "a.txt"}}]
    write_jsonl(tmp_path / "export.jsonl", records)
    shutil.copy(tmp_path / "export.jsonl", tmp_path / "export")
    import pandas as pd

    pd.DataFrame({"text": ["Refunds take 7 days."]}).to_parquet(tmp_path / "t.parquet")
    shutil.copy(tmp_path / "t.parquet", tmp_path / "table-without-suffix")
    assert detect(tmp_path / "export") is not None
    for name in ("export", "table-without-suffix"):
        chunks = open_index(str(tmp_path / name)).read().chunks
        assert [c.text for c in chunks] == ["Refunds take 7 days."]


def test_reading_a_file_shows_progress_on_a_terminal(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    write_jsonl(tmp_path / "many.jsonl", [{"text": f"chunk number {n}"} for n in range(12_000)])
    monkeypatch.setattr(command, "_terminal", lambda: True)
    from ragviz.cli.command import main

    assert main(["index", str(tmp_path / "many.jsonl"), "--json"]) == 0
    err = capsys.readouterr().err
    assert "reading the index: 10,000 records" in err
    assert "reading the index: 12,000 records" in err


def test_an_unknown_spec_lists_every_registered_form(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("plain text", encoding="utf-8")
    from ragviz.cli.command import main

    assert main(["index", str(tmp_path / "notes.txt")]) == 2
    err = capsys.readouterr().err
    assert "postgresql://USER@HOST/DB" in err and "qdrant:DIR" in err
