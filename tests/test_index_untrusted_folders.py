"""Index folders from someone else (issue 42, items 1, 10, 11, 20): a Qdrant storage whose
pickled point runs code, links to /dev/zero, out of the folder, dangling or in a loop, a FIFO,
a byte budget, points past the chunk limits. Each gives one sentence, runs nothing, reads
nothing outside the folder and leaves no copy behind (Ctrl-C included)."""

from __future__ import annotations

import os
import pickle
import sqlite3
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from ragviz.embedding.models import Embedder
from ragviz.errors import IndexInputError, IndexLimitError
from ragviz.index import folder_copy, open_index
from ragviz.index.base import MAX_CHUNK_CHARS
from tests.index_fixtures import DOC, QUESTIONS, chroma_collection
from tests.test_index import fails, run

COPIES = ("ragviz-qdrant-", "ragviz-chroma-")  # the copies made to read a folder


class WritesMarker:
    """A pickle that, unpickled, writes a file: what a hostile storage folder holds."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return exec, (f"open({str(self.marker)!r}, 'w').write('ran')",)


def qdrant_folder(path: Path, texts: list[str], name: str = "docs") -> Path:
    """A local-mode storage of one collection of ``texts`` with 3-value vectors."""
    from qdrant_client import QdrantClient
    from qdrant_client.models import Distance, PointStruct, VectorParams

    client = QdrantClient(path=str(path))
    client.create_collection(name, vectors_config=VectorParams(size=3, distance=Distance.COSINE))
    client.upsert(name, [PointStruct(id=n, vector=[1.0, float(n), 0.5],
                                     payload={"page_content": t}) for n, t in enumerate(texts)])
    client.close()
    return path


def plant(storage: Path, marker: Path) -> Path:
    """Replace the collection's first stored point by a pickle that writes ``marker``."""
    database = sqlite3.connect(storage / "collection" / "docs" / "storage.sqlite")
    with database:
        database.execute("UPDATE points SET point = ? WHERE rowid = 1",
                         (pickle.dumps(WritesMarker(marker)),))
    database.close()
    return storage


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The temporary folder ragviz copies into, watched: empty again after every test."""
    root = tmp_path / "temp"
    root.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(root))
    yield root
    assert [p.name for p in root.iterdir() if p.name.startswith(COPIES)] == []


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path]:
    marker = tmp_path / "marker"
    return plant(qdrant_folder(tmp_path / "q", ["Refunds take 7 days.", "Wifi."]), marker), marker


def test_a_pickled_point_runs_nothing_in_the_cli(capsys: pytest.CaptureFixture[str],
                                                 hostile: tuple[Path, Path],
                                                 temp_root: Path) -> None:
    storage, marker = hostile
    err = fails(capsys, "index", f"qdrant:{storage}")
    assert "row 1 of the collection docs is not a stored Qdrant point (it asks for " \
           "builtins.exec)" in err and "never runs" in err
    assert not marker.exists()
    said = fails(capsys, "index", f"qdrant:{storage}", "--lang", "pt")
    assert "não é um ponto do Qdrant" in said and not marker.exists()


def test_a_pickled_point_runs_nothing_in_eval(capsys: pytest.CaptureFixture[str],
                                              hostile: tuple[Path, Path], temp_root: Path,
                                              use_model: Embedder) -> None:
    storage, marker = hostile
    err = fails(capsys, "eval", "--index", f"qdrant:{storage}", "--questions", str(QUESTIONS),
                "--sources", str(DOC))
    assert "is not a stored Qdrant point" in err and not marker.exists()


def test_a_pickled_point_runs_nothing_in_the_apps_upload(hostile: tuple[Path, Path],
                                                         temp_root: Path) -> None:
    from tests.test_app import shown
    from tests.test_app_index import index_app, zipped

    storage, marker = hostile
    at = index_app(("vectors.zip", zipped(storage)), sources=False)
    assert not at.exception and not marker.exists()
    assert any("is not a stored Qdrant point" in shown(e.value) for e in at.error)


def test_a_good_storage_still_opens_and_its_copy_goes_with_the_reader(
        tmp_path: Path, temp_root: Path) -> None:
    storage = qdrant_folder(tmp_path / "q", ["Refunds take 7 days.", "Wifi."])
    (storage / "collection" / "docs" / "storage.sqlite").rename(storage / "kept.sqlite")
    (storage / "collection" / "docs" / "storage.sqlite").symlink_to("../../kept.sqlite")
    reader = open_index(f"qdrant:{storage}")
    assert [c.text for c in reader.read().chunks] == ["Refunds take 7 days.", "Wifi."]
    assert list(temp_root.glob("ragviz-qdrant-*"))
    del reader  # the copy goes with its reader


def test_a_point_past_the_chunk_limit_is_refused_before_the_client_loads(
        tmp_path: Path, temp_root: Path) -> None:
    storage = qdrant_folder(tmp_path / "q", ["short", "x" * (MAX_CHUNK_CHARS + 1)])
    with pytest.raises(IndexLimitError) as refused:
        open_index(f"qdrant:{storage}")
    assert "point 1 of the collection docs holds a chunk of 200,001 characters" in str(
        refused.value)


def test_a_row_past_the_record_limit_is_refused_before_it_is_fetched(
        tmp_path: Path, temp_root: Path) -> None:
    storage = qdrant_folder(tmp_path / "q", ["short"])
    database = sqlite3.connect(storage / "collection" / "docs" / "storage.sqlite")
    with database:  # 17 MB of zeros: not even a pickle, refused by its size alone
        database.execute("INSERT INTO points VALUES ('big', zeroblob(17000000))")
    database.close()
    with pytest.raises(IndexLimitError, match="takes 17,000,000 bytes"):
        open_index(f"qdrant:{storage}")


# --- the copy of a folder follows no link ----------------------------------------------

def chroma_folder(path: Path) -> Path:
    chroma_collection(path, "docs", ["Refunds take 7 days."], [[1.0, 0.0, 0.0]])
    return path


@pytest.fixture(scope="module")
def chroma_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return chroma_folder(tmp_path_factory.mktemp("chroma") / "db")


def a_store(kind: str, tmp_path: Path, chroma_source: Path) -> tuple[Path, str]:
    """A fresh folder of ``kind`` (``qdrant``, ``chroma``) and its spec's prefix."""
    if kind == "qdrant":
        return qdrant_folder(tmp_path / "q", ["Refunds take 7 days."]), "qdrant:"
    import shutil

    shutil.copytree(chroma_source, tmp_path / "c")
    return tmp_path / "c", "chroma:"


LINKS = {
    "dev_zero": (lambda tmp: Path("/dev/zero"), "holds a link that leaves the folder"),
    "outside_folder": (lambda tmp: tmp, "holds a link that leaves the folder"),
    "proc_self_mem": (lambda tmp: Path("/proc/self/mem"), "holds a link that leaves the folder"),
    "dangling": (lambda tmp: tmp / "gone", "holds a link that leads nowhere or in a loop"),
    "loop": (lambda tmp: Path("loop"), "holds a link that leads nowhere or in a loop"),
}


@pytest.mark.parametrize("kind", ["qdrant", "chroma"])
@pytest.mark.parametrize("link", sorted(LINKS))
def test_a_link_in_an_index_folder_is_refused_without_reading_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, temp_root: Path,
        chroma_source: Path, kind: str, link: str) -> None:
    folder, prefix = a_store(kind, tmp_path, chroma_source)
    target, said = LINKS[link]
    (folder / "loop").symlink_to(target(tmp_path))
    err = fails(capsys, "index", f"{prefix}{folder}")
    assert said in err and "(loop)" in err and "shutil" not in err and str(temp_root) not in err


@pytest.mark.parametrize("kind", ["qdrant", "chroma"])
def test_a_fifo_in_an_index_folder_is_refused_without_opening_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, temp_root: Path,
        chroma_source: Path, kind: str) -> None:
    folder, prefix = a_store(kind, tmp_path, chroma_source)
    os.mkfifo(folder / "pipe")
    err = fails(capsys, "index", f"{prefix}{folder}", "--lang", "pt")
    assert "contém pipe, que não é um arquivo comum nem uma pasta" in err


def test_the_copy_has_a_byte_budget(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                    temp_root: Path, chroma_source: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    folder, prefix = a_store("chroma", tmp_path, chroma_source)
    monkeypatch.setenv(folder_copy.COPY_BYTES_VARIABLE, "10000")
    err = fails(capsys, "index", f"{prefix}{folder}")
    assert "holds more than 10,000 bytes" in err and folder_copy.COPY_BYTES_VARIABLE in err


def test_ctrl_c_during_the_copy_leaves_no_copy(tmp_path: Path, temp_root: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A KeyboardInterrupt raised after the first file is really copied (as Ctrl-C would)."""
    storage = qdrant_folder(tmp_path / "q", ["Refunds take 7 days."])
    copy_file = folder_copy._copy_file

    def interrupted(*args: object) -> None:
        copy_file(*args)  # type: ignore[arg-type]
        raise KeyboardInterrupt

    monkeypatch.setattr(folder_copy, "_copy_file", interrupted)
    with pytest.raises(KeyboardInterrupt):
        open_index(f"qdrant:{storage}")


def test_a_refused_folder_in_the_app_is_one_sentence(tmp_path: Path, temp_root: Path) -> None:
    """The app's own folder copy (an unpacked upload) goes through the same checks."""
    from ragviz_app.index_source import upload_reader
    from tests.test_app_index import zipped

    storage = qdrant_folder(tmp_path / "q", ["short", "x" * (MAX_CHUNK_CHARS + 1)])
    with pytest.raises(IndexInputError, match="holds a chunk of 200,001 characters"):
        upload_reader("vectors.zip", zipped(storage))


def test_a_listing_of_a_good_folder_reads(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          temp_root: Path) -> None:
    storage = qdrant_folder(tmp_path / "q", ["Refunds take 7 days."])
    data = run(capsys, "index", f"qdrant:{storage}", "--json")
    assert [c["collection"] for c in data["collections"]] == ["docs"]


def test_collection_names_show_their_controls_and_dashes_as_typed(tmp_path: Path) -> None:
    """Issue 42 item 24: ESC and RLO in a collection's name shown as escapes in the app's
    radio (its labels are Markdown), ``--`` and ``$`` escaped so nothing re-types them."""
    from qdrant_client import QdrantClient
    from qdrant_client.models import Distance, PointStruct, VectorParams

    from tests.test_app_index import index_app, zipped

    names = ["evil\x1b[31mred\u202e--x", "cost $a--b$"]
    client = QdrantClient(path=str(tmp_path / "q"))
    for name in names:
        client.create_collection(name, vectors_config=VectorParams(size=3,
                                                                   distance=Distance.COSINE))
        client.upsert(name, [PointStruct(id=1, vector=[1.0, 0.0, 0.0],
                                         payload={"page_content": "Refunds take 7 days."})])
    client.close()
    at = index_app(("names.zip", zipped(tmp_path / "q")), sources=False)
    assert not at.exception
    labels = at.radio(key="index_collection").options
    assert not any(c in label for label in labels for c in "\x1b\u202e")
    assert any(label.startswith(r"cost \$a\-\-b\$ (") for label in labels), labels
    assert any(label.startswith(r"evil\\x1b\[31mred\\u202e\-\-x (") for label in labels), labels
