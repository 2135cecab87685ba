"""An index folder (Chroma, Qdrant's local storage) copied into a temporary folder, because
each engine writes to what it opens and ragviz never writes to what it diagnoses.

The copy follows no link: a link that stays inside the folder and names a plain file is
copied as that file; a link that leaves the folder, dangles or loops, and every special
file (a FIFO, a device, a socket) is refused in one sentence naming it, before a byte of it
is read (a link to ``/dev/zero`` would otherwise fill the disk, a link to ``/etc`` copy what
is not the index). The bytes and entries copied have a budget, and the copy is removed on
every way out, Ctrl-C included.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ragviz.errors import IndexInputError

# What one copied index folder may hold: the bytes (an index past it is opened where it lives,
# read through a server) and the files and folders. The variable raises the byte budget.
MAX_COPY_BYTES = 4_000_000_000
MAX_COPY_ENTRIES = 100_000
COPY_BYTES_VARIABLE = "RAGVIZ_INDEX_COPY_BYTES"
_BLOCK = 1 << 20


def copy_budget() -> int:
    """``MAX_COPY_BYTES``, or the bytes ``RAGVIZ_INDEX_COPY_BYTES`` sets."""
    value = os.environ.get(COPY_BYTES_VARIABLE, "").strip()
    return int(value) if value.isdigit() else MAX_COPY_BYTES


@dataclass
class _Budget:
    name: str
    bytes_left: int
    entries_left: int = MAX_COPY_ENTRIES

    def entry(self) -> None:
        self.entries_left -= 1
        if self.entries_left < 0:
            raise IndexInputError(key="idx.copy_too_many", path=self.name, n=MAX_COPY_ENTRIES)

    def spend(self, n: int, limit: int) -> None:
        self.bytes_left -= n
        if self.bytes_left < 0:
            raise IndexInputError(key="idx.copy_too_big", path=self.name, n=limit,
                                  variable=COPY_BYTES_VARIABLE)


def copy_folder(folder: Path, name: str, prefix: str, skip: frozenset[str] = frozenset()
                ) -> Path:
    """``folder`` copied to ``<new temporary folder>/db`` (returned), ``skip`` names left
    out; one sentence (naming the folder as ``name``) when it cannot be copied safely. The
    caller removes the copy's parent when done (``remove_copy``)."""
    limit = copy_budget()
    made = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        root = folder.resolve(strict=True)
        _copy_tree(root, root, made / "db", _Budget(name, limit), skip, limit)
    except IndexInputError:
        shutil.rmtree(made, ignore_errors=True)
        raise
    except OSError as error:
        shutil.rmtree(made, ignore_errors=True)
        reason = (error.strerror or type(error).__name__)
        raise IndexInputError(key="idx.chroma_copy_failed", path=name,
                              reason=reason) from None
    except BaseException:  # Ctrl-C, a closed session: nothing left behind
        shutil.rmtree(made, ignore_errors=True)
        raise
    return made / "db"


def remove_copy(copy: Path) -> None:
    """Remove what ``copy_folder`` made for ``copy``."""
    shutil.rmtree(copy.parent, ignore_errors=True)


@contextlib.contextmanager
def removed_on_failure(copy: Path) -> Iterator[None]:
    """Remove the copy when the block fails, however (an engine that refuses it, Ctrl-C)."""
    try:
        yield
    except BaseException:
        remove_copy(copy)
        raise


def _copy_tree(root: Path, source: Path, target: Path, budget: _Budget,
               skip: frozenset[str], limit: int) -> None:
    target.mkdir(mode=0o700)
    with os.scandir(source) as entries:
        listed = sorted(entries, key=lambda e: e.name)
    for entry in listed:
        if entry.name in skip:
            continue
        budget.entry()
        path = Path(entry.path)
        mode = entry.stat(follow_symlinks=False).st_mode
        if stat.S_ISLNK(mode):
            path = _inside_link(root, path, budget.name)
            mode = path.stat().st_mode
            if not stat.S_ISREG(mode):
                raise _refused(root, Path(entry.path), budget.name, "link")
        if stat.S_ISDIR(mode):
            _copy_tree(root, path, target / entry.name, budget, skip, limit)
        elif stat.S_ISREG(mode):
            _copy_file(path, target / entry.name, budget, limit)
        else:
            raise _refused(root, path, budget.name, "special")


def _inside_link(root: Path, link: Path, name: str) -> Path:
    """The file a link inside the folder names, refused when it leaves the folder, dangles
    or loops."""
    try:
        resolved = link.resolve(strict=True)
    except (OSError, RuntimeError):  # dangling, or a loop
        raise _refused(root, link, name, "broken_link") from None
    if not resolved.is_relative_to(root):
        raise _refused(root, link, name, "outside_link")
    return resolved


def _copy_file(source: Path, target: Path, budget: _Budget, limit: int) -> None:
    """Copy one plain file, opened without following a link and checked plain once opened
    (a file swapped for a FIFO between the look and the open is not read)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    handle = os.open(source, flags)
    with os.fdopen(handle, "rb") as read, target.open("xb") as write:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise _refused(source.parent, source, budget.name, "special")
        while block := read.read(_BLOCK):
            budget.spend(len(block), limit)
            write.write(block)


def _refused(root: Path, path: Path, name: str, why: str) -> IndexInputError:
    try:
        entry = str(path.relative_to(root))
    except ValueError:
        entry = path.name
    return IndexInputError(key=f"idx.copy_{why}", path=name, entry=entry[:200])  # shown escaped
