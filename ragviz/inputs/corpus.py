"""A corpus: the converted text of several files, and one sentence per file that failed.

Loaders take the app's multi-file upload (``load_files``) or the CLI's paths
(``load_paths``: files, folders walked recursively in sorted order, ``-`` for standard
input). A ``.zip`` is expanded safely (no path traversal, bounded size and member count,
folders, dotfiles and ``__MACOSX`` skipped). A file that cannot be converted adds a
:class:`Problem` and the other files still load. Offsets of chunks refer to each
``Source.text``.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import sys
import zipfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, BinaryIO

from ragviz.cache import BoundedCache
from ragviz.errors import ConversionError, InputError
from ragviz.i18n import Grouped, KeyedError, Message
from ragviz.inputs.convert import (
    ACCEPTED_FORMATS,
    ACCEPTED_SUFFIXES,
    ARCHIVE_SUFFIXES,
    BINARY_SUFFIXES,
    MAX_BINARY_FILE_BYTES,
    SUPPORTED_SUFFIXES,
    convert,
    suffix_of,
)
from ragviz.inputs.documents import MAX_UPLOAD_BYTES
from ragviz.inputs.zipnames import mend_false_utf8, shown_name

# The limits of one corpus, in one place.
MAX_CORPUS_CHARS = 2_000_000
MAX_CORPUS_FILES = 200
MAX_ZIP_MEMBERS = 2_000  # entries listed in one archive, folders included
MAX_ZIP_UNCOMPRESSED_BYTES = 200_000_000  # sum over the members ragviz reads
# A name longer than this is cut in the middle wherever it is shown: 35 member names of
# 65,000 characters once made 2.3 MB of messages.
MAX_NAME_CHARS = 80
_NAME_TAIL = 24  # the end of a cut name stays: it holds the extension, which decides the type
MAX_REMEMBERED_UPLOADS = 8  # converted uploads kept for the app's reruns

_LOADED: BoundedCache[tuple[tuple[str, int, bytes], ...], Corpus] = BoundedCache(
    MAX_REMEMBERED_UPLOADS)


@dataclass(frozen=True)
class Source:
    """One file of the corpus: its (unique) name, its converted text, an optional notice."""

    name: str
    text: str
    notice: str | Message | None = None

    def to_dict(self) -> dict[str, object]:
        """The file as JSON output names it: its name and its length (not its text)."""
        return {"name": self.name, "chars": len(self.text)}


@dataclass(frozen=True)
class Problem:
    """A file (or a limit) that kept something out of the corpus, and why as a ``Message``
    (or the keyed error met): said in the reader's language at display, English by ``str``."""

    name: str
    kind: str
    said: Message | KeyedError = field(compare=False)

    def __str__(self) -> str:
        return str(self.said)

    @classmethod
    def keyed(cls, name: str, kind: str, key: str, /, **values: object) -> Problem:
        """A problem said by catalog key."""
        return cls(name, kind, Message(key, values))


@dataclass(frozen=True)
class Corpus:
    """The sources that loaded, in order, and the problems met on the way; ``alone`` when it
    is one plain text file read as it is (``ragviz.inputs.reading``: the app shows it as a
    pasted document)."""

    sources: tuple[Source, ...]
    problems: tuple[Problem, ...] = ()
    alone: bool = field(default=False, compare=False)

    @property
    def total_chars(self) -> int:
        return sum(len(source.text) for source in self.sources)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(source.name for source in self.sources)

    @property
    def multi_file(self) -> bool:
        """Several files: views and sentences then name the file of each chunk."""
        return len(self.sources) > 1

    def source(self, name: str) -> Source:
        for source in self.sources:
            if source.name == name:
                return source
        raise KeyError(name)


def as_corpus(document: str | Corpus, name: str = "") -> Corpus:
    """A corpus as it is, or a pasted document as a one-source corpus named ``name``
    (``""`` by default, the source of chunks made from a plain text)."""
    if isinstance(document, Corpus):
        return document
    return Corpus((Source(name, document),))


@dataclass(frozen=True)
class _Entry:
    """A file found by a loader: its short name, its path for disambiguation, its bytes."""

    name: str
    path: str
    data: bytes


def load_files(files: Sequence[tuple[str, bytes]]) -> Corpus:
    """The corpus of uploaded files ``(name, bytes)``; a ``.zip`` is expanded in place.

    The app calls this on every rerun with the same uploads: the corpus is remembered by
    the files' names and content digests (a few uploads, least recently used dropped), so
    an archive is expanded and a file converted once, not at every slider step."""
    key = tuple((name, len(data), hashlib.sha256(data).digest()) for name, data in files)
    corpus = _LOADED.get(key)
    if corpus is None:
        corpus = _load_files(files)
        _LOADED.put(key, corpus)
    return corpus


def _load_files(files: Sequence[tuple[str, bytes]]) -> Corpus:
    entries: list[_Entry] = []
    problems: list[Problem] = []
    for name, data in files:
        _add_entry(entries, problems, _entry(PurePosixPath(name).name, name, data))
    return _build(entries, problems)


def load_paths(paths: Sequence[str], stdin: BinaryIO | None = None) -> Corpus:
    """The corpus of files, folders (recursive, sorted) and ``-`` (standard input, as text)."""
    entries: list[_Entry] = []
    problems: list[Problem] = []
    for raw in paths:
        if raw == "-":
            data = (stdin or sys.stdin.buffer).read()
            entries.append(_Entry("stdin.txt", "stdin.txt", data))
            continue
        path = Path(raw)
        if path.is_dir():
            _add_folder(entries, problems, path, raw)
        elif path.is_file():
            _add_entry(entries, problems, _entry(path.name, raw, path.read_bytes()))
        else:
            problems.append(Problem.keyed(raw, "missing", "corpus.missing", name=short_name(raw)))
    return _build(entries, problems)


def _add_folder(entries: list[_Entry], problems: list[Problem], folder: Path, raw: str) -> None:
    """The folder's files of a supported type (or .zip); the others are never read, only
    counted in one sentence, so pointing at a big folder stays cheap and quiet."""
    other = 0
    for file in _walk(folder):
        if suffix_of(file.name) not in ACCEPTED_SUFFIXES:
            other += 1
            continue
        relative = file.relative_to(folder).as_posix()
        _add_entry(entries, problems, _entry(file.name, relative, file.read_bytes()))
    if other:
        problems.append(Problem.keyed(raw, "unsupported", "corpus.other_files", n=other,
                                      name=short_name(raw), formats=ACCEPTED_FORMATS))


def short_name(name: str, limit: int = MAX_NAME_CHARS) -> str:
    """``name`` as messages, tables and labels show it: cut in the middle past ``limit``
    characters, its start and its end (with the extension) kept: they tell files apart."""
    if len(name) <= limit:
        return name
    tail = min(_NAME_TAIL, max(4, limit // 3))
    return name[: limit - tail - 1] + "…" + name[-tail:]


def _entry(name: str, path: str, data: bytes) -> _Entry:
    """An entry whose name and path are short enough to be shown (see ``short_name``)."""
    return _Entry(short_name(name), short_name(path), data)


def _walk(folder: Path) -> Iterable[Path]:
    """Files under ``folder`` in sorted order, hidden files and folders left out."""
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if path.is_file() and not any(_hidden(part) for part in parts):
            yield path


def _hidden(part: str) -> bool:
    return part.startswith(".") or part == "__MACOSX"


def _add_entry(entries: list[_Entry], problems: list[Problem], entry: _Entry) -> None:
    if suffix_of(entry.name) not in ARCHIVE_SUFFIXES:
        entries.append(entry)
        return
    try:
        entries.extend(_expand_zip(entry, problems))
    except _ZipRefusedError as refused:
        problems.append(Problem(entry.name, refused.kind, refused))


class _ZipRefusedError(InputError):
    def __init__(self, kind: str, key: str, **values: Any) -> None:
        super().__init__(key=key, **values)
        self.kind = kind


def _expand_zip(archive: _Entry, problems: list[Problem]) -> list[_Entry]:
    """Members of the archive worth reading; the whole archive is refused past a limit."""
    name = archive.name
    zf, misnamed = _open_zip(archive)
    with zf:
        infos = zf.infolist()
        if len(infos) > MAX_ZIP_MEMBERS:
            raise _ZipRefusedError("zip-limit", "corpus.zip_members", name=name,
                                   n=len(infos), limit=Grouped(MAX_ZIP_MEMBERS))
        for index in sorted(misnamed):
            problems.append(Problem.keyed(
                name, "bad-name", "corpus.zip_bad_name", name=name,
                member=repr(short_name(shown_name(infos[index].orig_filename)))))
        members = [i for n, i in enumerate(infos) if n not in misnamed  # no is_dir(): an
                   and not i.filename.endswith("/")  # empty name makes it raise IndexError
                   and not _skipped_member(i.filename)]
        declared = sum(i.file_size for i in members)
        if declared > MAX_ZIP_UNCOMPRESSED_BYTES:
            raise _ZipRefusedError("zip-limit", "corpus.zip_expands", name=name,
                                   n=declared, limit=Grouped(MAX_ZIP_UNCOMPRESSED_BYTES))
        members.sort(key=lambda i: i.filename)
        return _read_members(archive, zf, members, problems)


_BROKEN_ZIP = (zipfile.BadZipFile, OSError, NotImplementedError, ValueError, EOFError)


def _open_zip(archive: _Entry) -> tuple[zipfile.ZipFile, frozenset[int]]:
    """The archive, opened; names flagged UTF-8 that are not are mended first (see
    ``ragviz.inputs.zipnames``), and their positions in ``infolist()`` come back to be named."""
    try:
        return zipfile.ZipFile(io.BytesIO(archive.data)), frozenset()
    except UnicodeDecodeError:
        mended = mend_false_utf8(archive.data)
        if mended is not None:
            with contextlib.suppress(*_BROKEN_ZIP, UnicodeDecodeError):
                return zipfile.ZipFile(io.BytesIO(mended[0])), mended[1]
    except _BROKEN_ZIP:
        pass
    raise _ZipRefusedError("corrupt", "corpus.zip_invalid", name=archive.name)


def _skipped_member(filename: str) -> bool:
    parts = filename.replace("\\", "/").split("/")
    return any(_hidden(part) for part in parts if part not in ("", ".", ".."))


def _read_members(archive: _Entry, zf: zipfile.ZipFile, members: list[zipfile.ZipInfo],
                  problems: list[Problem]) -> list[_Entry]:
    entries: list[_Entry] = []
    budget = MAX_ZIP_UNCOMPRESSED_BYTES
    for info in members:
        inner = info.filename.replace("\\", "/")
        where = f"{archive.name}/{inner}"
        if _unsafe(inner):
            problems.append(Problem.keyed(where, "unsafe-path", "corpus.zip_unsafe",
                                          member=short_name(inner), name=archive.name))
            continue
        cap = min(member_limit(inner), budget)
        if cap == 0:  # a type that is not read: convert() names it from its name alone
            entries.append(_entry(PurePosixPath(inner).name, where, b""))
            continue
        try:
            with zf.open(info) as member:
                data = member.read(cap + 1)  # never trust the declared size
        except (*_BROKEN_ZIP, RuntimeError,  # ValueError: a header offset before the start
                UnicodeDecodeError):  # a local header's name flagged UTF-8 that is not
            problems.append(Problem.keyed(where, "corrupt", "corpus.zip_member_damaged",
                                          member=short_name(inner), name=archive.name))
            continue
        if len(data) > budget:
            raise _ZipRefusedError("zip-limit", "corpus.zip_expands_past", name=archive.name,
                                   limit=Grouped(MAX_ZIP_UNCOMPRESSED_BYTES))
        if len(data) > cap:
            problems.append(Problem.keyed(where, "too-big", "corpus.zip_member_too_big",
                                          member=short_name(inner), name=archive.name,
                                          limit=Grouped(cap)))
            continue
        budget -= len(data)
        entries.append(_entry(PurePosixPath(inner).name, where, data))
    return entries


def member_limit(name: str) -> int:
    """The most bytes read of one archive member: what its type may hold, nothing for a
    type that is not read (it only gets its sentence)."""
    suffix = suffix_of(name)
    if suffix in BINARY_SUFFIXES:
        return MAX_BINARY_FILE_BYTES
    return MAX_UPLOAD_BYTES if suffix in SUPPORTED_SUFFIXES else 0


def _unsafe(inner: str) -> bool:
    """Absolute paths, drive letters and ``..`` would point outside the archive."""
    path = PurePosixPath(inner)
    return path.is_absolute() or ".." in path.parts or (len(inner) > 1 and inner[1] == ":")


def _build(entries: list[_Entry], problems: list[Problem]) -> Corpus:
    """Convert every entry within the corpus limits and give each source a unique name."""
    sources: list[Source] = []
    names = _unique_names(entries)
    total = 0
    for position, (entry, name) in enumerate(zip(entries, names, strict=True)):
        if len(sources) == MAX_CORPUS_FILES:
            left = len(entries) - position
            problems.append(Problem.keyed(name, "file-limit", "corpus.file_limit",
                                          limit=MAX_CORPUS_FILES, left=left))
            break
        try:
            converted = convert(name, entry.data)
        except ConversionError as error:
            problems.append(Problem(name, error.kind, error))
            continue
        if total + len(converted.text) > MAX_CORPUS_CHARS:
            problems.append(Problem.keyed(name, "char-limit", "corpus.char_limit",
                                          limit=Grouped(MAX_CORPUS_CHARS), name=name))
            break
        total += len(converted.text)
        sources.append(Source(name, converted.text, converted.notice))
    return Corpus(tuple(sources), tuple(problems))


def _unique_names(entries: list[_Entry]) -> list[str]:
    """Short names where they are unique, relative paths where not, a counter as last resort."""
    short = Counter(entry.name for entry in entries)
    names = [entry.name if short[entry.name] == 1 else entry.path for entry in entries]
    seen: Counter[str] = Counter()
    unique: list[str] = []
    for name in names:
        seen[name] += 1
        if seen[name] == 1:
            unique.append(name)
            continue
        path = PurePosixPath(name)  # the counter goes before the extension: it decides the type
        unique.append(str(path.with_name(f"{path.stem} ({seen[name]}){path.suffix}")))
    return unique
