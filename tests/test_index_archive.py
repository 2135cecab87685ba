"""A zipped Chroma directory unpacked safely (``ragviz.index.archive``): the corpus loader's
limits, no name that leaves the folder, a link refused, and only the Chroma folder kept."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path

import pytest

from ragviz.errors import IndexInputError
from ragviz.index.archive import unzip_chroma


def archive(members: dict[str, bytes], link: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in members.items():
            out.writestr(name, data)
        if link is not None:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            out.writestr(info, "/etc/passwd")
    return buffer.getvalue()


def test_only_the_chroma_folder_is_unpacked_at_the_target(tmp_path: Path) -> None:
    data = archive({"export/db/chroma.sqlite3": b"db", "export/db/seg/data.bin": b"v",
                    "export/readme.txt": b"not part of the index"})
    unzip_chroma(data, "x.zip", tmp_path)
    found = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*")
                   if p.is_file())
    assert found == ["chroma.sqlite3", "seg/data.bin"]


@pytest.mark.parametrize(("members", "link", "said"), [
    ({"db/chroma.sqlite3": b"", "/etc/cron.d/x": b""}, None, "'/etc/cron.d/x' would land outside"),
    ({"db/chroma.sqlite3": b"", "db/../../x": b""}, None, "'db/../../x' would land outside"),
    ({"C:/db/chroma.sqlite3": b""}, None, "'C:/db/chroma.sqlite3' would land outside"),
    ({"db/chroma.sqlite3": b""}, "db/link", "'db/link' would land outside"),
    ({"db/notes.txt": b"x"}, None, "x.zip is not a zipped Chroma or Qdrant folder"),
])
def test_refused_archives_are_one_sentence(tmp_path: Path, members: dict[str, bytes],
                                           link: str | None, said: str) -> None:
    with pytest.raises(IndexInputError) as refused:
        unzip_chroma(archive(members, link), "x.zip", tmp_path)
    assert said in str(refused.value)
    assert not any(tmp_path.rglob("*"))  # nothing was written


def test_member_count_and_real_bytes_are_bounded(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from ragviz.index import archive as module

    monkeypatch.setattr(module, "MAX_ZIP_MEMBERS", 3)
    many = archive({f"db/{n}": b"" for n in range(4)} | {"db/chroma.sqlite3": b""})
    with pytest.raises(IndexInputError, match=r"lists 5 entries and the limit is 3"):
        unzip_chroma(many, "x.zip", tmp_path / "a")
    monkeypatch.setattr(module, "MAX_ZIP_UNCOMPRESSED_BYTES", 1_000)
    bomb = archive({"db/chroma.sqlite3": b"\0" * 5_000})  # compresses to a few bytes
    with pytest.raises(IndexInputError, match=r"expands past 1,000 bytes"):
        unzip_chroma(bomb, "x.zip", tmp_path / "b")


def test_not_a_zip_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(IndexInputError, match=r"x\.zip could not be read: it is not a valid zip"):
        unzip_chroma(b"PK not really", "x.zip", tmp_path)
