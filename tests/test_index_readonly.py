"""A diagnostic tool never writes to what it diagnoses (issue 37, item 10): before, each
``ragviz index chroma:DIR`` changed ``chroma.sqlite3`` and ``length.bin``, and a 0-byte
``chroma.sqlite3`` became a 188 KB database. Every file under the directory keeps its digest
and its modification time through ``index``, ``eval --index`` in both modes, and the app's
upload (which goes through the same opener)."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

import pytest

from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from tests.index_fixtures import DOC, QUESTIONS, article_among_others


def snapshot(folder: Path) -> dict[str, tuple[str, int, int]]:
    """Every file under ``folder``: its sha256, size and modification time (ns)."""
    return {path.relative_to(folder).as_posix(): (
        hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_size,
        path.stat().st_mtime_ns) for path in sorted(folder.rglob("*")) if path.is_file()}


def zip_folder(folder: Path) -> bytes:
    """``folder`` zipped under ``db/``, as a user zips a Chroma directory to upload it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for path in folder.rglob("*"):
            if path.is_file():
                archive.write(path, "db/" + path.relative_to(folder).as_posix())
    return buffer.getvalue()


@pytest.fixture(scope="module")
def production(tmp_path_factory: pytest.TempPathFactory, use_model: Embedder) -> Path:
    """A Chroma directory as a user brings it: built, closed, and never opened by this
    process since (Chroma keeps an open directory's system: a second open would reuse it)."""
    import shutil

    from chromadb.api.shared_system_client import SharedSystemClient

    built = tmp_path_factory.mktemp("readonly") / "built"
    article_among_others(built, use_model, "mixed")
    SharedSystemClient._identifier_to_refcount.pop(str(built), None)
    SharedSystemClient._identifier_to_system.pop(str(built)).stop()
    folder = built.parent / "chroma"
    shutil.copytree(built, folder)
    return folder


def test_index_and_eval_in_both_modes_leave_every_file_as_it_was(
        production: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    before = snapshot(production)
    assert any(name.endswith("length.bin") for name in before)
    spec = f"chroma:{production}"
    assert main(["index", spec]) == 0
    assert snapshot(production) == before
    evaluate = ["eval", "--index", spec, "--questions", str(QUESTIONS), "--sources", str(DOC),
                "--json"]
    assert main([*evaluate, "--index-mode", "memory"]) == 0
    assert snapshot(production) == before
    assert main([*evaluate, "--index-mode", "database", "--margin", "2"]) == 0
    assert snapshot(production) == before
    capsys.readouterr()


def test_an_empty_chroma_sqlite3_stays_empty(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "chroma.sqlite3").write_bytes(b"")
    before = snapshot(tmp_path)
    assert main(["index", f"chroma:{tmp_path}"]) == 2
    assert "holds no collection" in capsys.readouterr().err
    assert snapshot(tmp_path) == before
    assert (tmp_path / "chroma.sqlite3").stat().st_size == 0


def test_the_apps_upload_reads_its_unpacked_folder_without_writing(
        production: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app unpacks an uploaded zip once (by content) and every session reads it: the
    unpacked folder is never written either."""
    from ragviz.index.archive import unzip_chroma
    from ragviz_app import upload_store
    from ragviz_app.index_source import checked_size, read_within, upload_reader

    monkeypatch.setattr(upload_store, "uploads_root", lambda: tmp_path / "uploads")
    data = zip_folder(production)
    # the archive unpacked where the app keeps it (as its first upload does), then read
    unpacked = tmp_path / "uploads" / hashlib.sha256(data).hexdigest()[:24] / "chroma"
    unzip_chroma(data, "prod.zip", unpacked)
    before = snapshot(unpacked)
    for _ in range(2):
        loaded = checked_size(read_within(upload_reader("prod.zip", data), None))
        assert len(loaded.chunks) > 10
        assert snapshot(unpacked) == before
