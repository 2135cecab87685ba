"""A zipped Chroma directory or Qdrant storage (a folder through a browser upload), unpacked
safely: the corpus loader's limits on members and bytes, no name that leaves the folder
(absolute, ``..``, a drive, a link), and only the folder that holds ``chroma.sqlite3`` (or
qdrant-client's ``meta.json``)."""

from __future__ import annotations

import io
import stat
import zipfile
from pathlib import Path, PurePosixPath

from ragviz.errors import IndexInputError
from ragviz.i18n import Grouped
from ragviz.inputs.corpus import MAX_ZIP_MEMBERS, MAX_ZIP_UNCOMPRESSED_BYTES

MARKER = "chroma.sqlite3"
# The file at the top of each store's folder that a zip may hold: Chroma's database,
# qdrant-client's local-mode storage.
MARKERS = (MARKER, "meta.json")
_BROKEN = (zipfile.BadZipFile, OSError, NotImplementedError, ValueError, EOFError,
           UnicodeDecodeError, RuntimeError)


def unzip_chroma(data: bytes, name: str, target: Path) -> Path:
    """The Chroma directory inside the archive ``data``, written under ``target``; one
    sentence when the archive breaks a limit or holds no Chroma directory."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            root = _chroma_root(archive, name)
            members = [info for info in archive.infolist() if not info.is_dir()
                       and _inside(info.filename, root)]
            _write(archive, members, root, target, name)
    except IndexInputError:
        raise
    except _BROKEN as error:
        raise IndexInputError(key="idx.zip_broken", name=name) from error
    return target


def _chroma_root(archive: zipfile.ZipFile, name: str) -> PurePosixPath:
    infos = archive.infolist()
    if len(infos) > MAX_ZIP_MEMBERS:
        raise IndexInputError(key="idx.zip_members", name=name, n=len(infos),
                              limit=Grouped(MAX_ZIP_MEMBERS))
    for info in infos:
        if not _safe(info):
            raise IndexInputError(key="idx.zip_unsafe_name", name=name, member=info.filename)
    roots = sorted((PurePosixPath(i.filename).parent for i in infos
                    if PurePosixPath(i.filename).name in MARKERS), key=lambda p: len(p.parts))
    if not roots:
        raise IndexInputError(key="idx.zip_not_chroma", name=name)
    return roots[0]


def _safe(info: zipfile.ZipInfo) -> bool:
    """A member name that stays inside the folder it is unpacked into, and no link."""
    path = PurePosixPath(info.filename.replace("\\", "/"))
    mode = info.external_attr >> 16
    return not (path.is_absolute() or ".." in path.parts or ":" in info.filename
                or "\0" in info.filename or stat.S_ISLNK(mode))


def _inside(member: str, root: PurePosixPath) -> bool:
    return root == PurePosixPath(".") or PurePosixPath(member).is_relative_to(root)


def _write(archive: zipfile.ZipFile, members: list[zipfile.ZipInfo], root: PurePosixPath,
           target: Path, name: str) -> None:
    """Copy the members, counting the bytes really written (a declared size can lie)."""
    budget = MAX_ZIP_UNCOMPRESSED_BYTES
    for info in members:
        relative = PurePosixPath(info.filename).relative_to(root)
        out = target.joinpath(*relative.parts)
        out.parent.mkdir(parents=True, exist_ok=True)
        with archive.open(info) as source, out.open("wb") as sink:
            while block := source.read(1 << 20):
                budget -= len(block)
                if budget < 0:
                    raise IndexInputError(key="idx.zip_too_big", name=name,
                                          limit=Grouped(MAX_ZIP_UNCOMPRESSED_BYTES))
                sink.write(block)
