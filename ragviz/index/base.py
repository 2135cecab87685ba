"""The one small interface every index store implements, and what it returns.

A chunk from an index keeps its text exactly as stored (never stripped or re-cut): the
diagnosis is about the chunks production retrieves, not about ones ragviz would make.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ragviz.chunking.config import ChunkerConfig
from ragviz.errors import IndexInputError, IndexLimitError, InputError
from ragviz.i18n import Grouped, Message
from ragviz.inputs.corpus import MAX_CORPUS_CHARS
from ragviz.inputs.documents import MAX_DOCUMENT_CHARS

# Chunks ragviz loads into memory from one collection in the CLI; past it, the database
# retrieves (``ragviz.evaluation.index_database``). The variable lowers it (tests, small machines).
CLI_MAX_CHUNKS = 200_000
LIMIT_VARIABLE = "RAGVIZ_INDEX_MAX_CHUNKS"

# The label an index analysis carries in place of a chunker: production made these chunks.
INDEX_CONFIG = ChunkerConfig("index")


def memory_limit() -> int:
    """The in-memory limit: ``CLI_MAX_CHUNKS``, or lower through ``LIMIT_VARIABLE``."""
    value = os.environ.get(LIMIT_VARIABLE, "")
    return int(value) if value.isdigit() else CLI_MAX_CHUNKS

Vector = npt.NDArray[np.float32]
Progress = Callable[[int], None]  # told the records read so far

# What one chunk export may hold before it is refused in one sentence (never read whole):
# a chunk as long as the longest chunk a chunker may make, the texts of every chunk at most
# five corpora (the app's 10,000 chunks of up to 1,000 characters, embedded in about two
# minutes), the stored vectors at most 200,000 of 512 dimensions, one record (a JSONL line,
# a CSV row) at most 16 MB.
MAX_CHUNK_CHARS = MAX_DOCUMENT_CHARS
MAX_INDEX_CHARS = 5 * MAX_CORPUS_CHARS
MAX_VECTOR_BYTES = 200_000 * 512 * 4
MAX_RECORD_BYTES = 16_000_000
MAX_DIMENSION = 16_384  # values in one stored vector (models write up to a few thousand)
PROGRESS_EVERY = 10_000  # records between two progress calls


@dataclass(frozen=True)
class IndexChunk:
    """One stored chunk: its text as stored, the file it came from, offsets when the
    metadata gives them, the metadata itself and the stored vector (None when absent)."""

    id: str
    text: str
    source: str = ""
    start: int | None = None
    end: int | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    vector: Vector | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class CollectionInfo:
    """A collection (a file is one collection) with its size and vector dimension."""

    name: str
    count: int
    dimension: int | None


@dataclass(frozen=True)
class LoadedIndex:
    """The chunks of one collection, with one sentence per thing left out on the way
    (a broken JSONL line names its number; the other lines still load)."""

    name: str
    chunks: tuple[IndexChunk, ...]
    problems: tuple[str | Message | InputError, ...] = ()  # said in the reader's language


class IndexReader(Protocol):
    """What a store adapter offers: its collections, and one collection as chunks."""

    def collections(self) -> list[CollectionInfo]:
        """Every collection with its count and dimension."""
        ...

    def read(self, collection: str | None = None) -> LoadedIndex:
        """The chunks of ``collection`` (the only one when None and there is one)."""
        ...


@runtime_checkable
class RetrievingIndex(Protocol):
    """A store that retrieves by itself (an index too large to load): its nearest chunks to
    question vectors ragviz computed, and the chunks whose text holds a string, each with
    its stored vector. Chroma implements it; a file export does not (it is loaded)."""

    def info(self, collection: str | None = None) -> CollectionInfo:
        """One collection's name, count and dimension (the only one when None)."""
        ...

    def nearest(self, collection: str, queries: Vector,
                n_results: int) -> list[list[IndexChunk]]:
        """Per query row, its ``n_results`` nearest chunks, nearest first."""
        ...

    def containing(self, collection: str, text: str, limit: int) -> list[IndexChunk]:
        """Up to ``limit`` chunks whose stored text holds ``text`` exactly."""
        ...


class TwoSearches:
    """A store whose own nearest-neighbour search (its approximate index, as production
    asks it) and its exact search differ by one switch: ``_nearest``'s ``exact``."""

    def nearest(self, collection: str, queries: Vector,
                n_results: int) -> list[list[IndexChunk]]:
        """The store's own search, as production asks it."""
        return self._nearest(collection, queries, n_results, exact=False)

    def exact_nearest(self, collection: str, queries: Vector,
                      n_results: int) -> list[list[IndexChunk]]:
        """The true nearest chunks (a flat scan)."""
        return self._nearest(collection, queries, n_results, exact=True)

    def _nearest(self, collection: str, queries: Vector, n_results: int,
                 exact: bool) -> list[list[IndexChunk]]:
        raise NotImplementedError


def from_metadata(chunk_id: str, text: str, metadata: dict[str, Any], raw_vector: Any,
                  where: str | Message) -> IndexChunk:
    """A chunk whose source and offsets are read from its metadata (Chroma, JSONL)."""
    start, end = metadata_offsets(text, metadata)
    return IndexChunk(chunk_id, text, source_of(metadata), start, end, metadata,
                      as_vector(raw_vector, where))


class FileReader:
    """A chunk export file: one collection named after the file, read once (``_read`` per
    format) within a ``ReadBudget``: ``max_chunks`` (None: the CLI's in-memory limit) and the
    limits above; ``progress`` is told the records read as the file streams by."""

    def __init__(self, path: str, max_chunks: int | None = None,
                 progress: Progress | None = None) -> None:
        self.path = path
        self.max_chunks = max_chunks
        self.progress = progress
        self._loaded: LoadedIndex | None = None

    def read(self, collection: str | None = None) -> LoadedIndex:
        if self._loaded is None:
            if self.max_chunks is None:
                self.max_chunks = memory_limit()
            budget = ReadBudget(Path(self.path).name, self.max_chunks, progress=self.progress)
            self._loaded = self._read(budget)
            budget.done()
        return self._loaded

    def _read(self, budget: ReadBudget) -> LoadedIndex:
        raise NotImplementedError

    def collections(self) -> list[CollectionInfo]:
        loaded = self.read()
        dimension = next((len(c.vector) for c in loaded.chunks if c.vector is not None), None)
        return [CollectionInfo(loaded.name, len(loaded.chunks), dimension)]


def flat_metadata(value: Any) -> dict[str, Any]:
    """A stored metadata value as a dict (a dict, a JSON text, or nothing: {}), with the
    offsets and source LlamaIndex keeps inside its ``_node_content`` JSON brought up."""
    if isinstance(value, str) and value:
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return {}
    if not isinstance(value, dict):
        return {}
    node = value.get("_node_content")
    if isinstance(node, str):
        try:
            inner = json.loads(node)
        except (ValueError, RecursionError):
            inner = None
        if isinstance(inner, dict):
            lifted = {k: inner[k] for k in ("start_char_idx", "end_char_idx") if k in inner}
            nested = inner.get("metadata")
            value = {**lifted, **(nested if isinstance(nested, dict) else {}), **value}
    return dict(value)


def metadata_offsets(text: str, metadata: Mapping[str, Any]) -> tuple[int | None, int | None]:
    """Offsets that LangChain (``start_index``) or LlamaIndex (``start_char_idx`` and
    ``end_char_idx``) write into a chunk's metadata; (None, None) when absent."""
    start = _whole(metadata.get("start_index"))
    if start is not None:
        return start, start + len(text)
    start = _whole(metadata.get("start_char_idx"))
    end = _whole(metadata.get("end_char_idx"))
    if start is not None:
        return start, end if end is not None else start + len(text)
    return None, None


def _whole(value: Any) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, float) and value.is_integer() and value >= 0:
        return int(value)
    return None


def source_of(metadata: Mapping[str, Any]) -> str:
    """The file a chunk came from, as LangChain (``source``) or LlamaIndex
    (``file_name``, ``file_path``) record it; "" when none is recorded."""
    for key in ("source", "file_name", "file_path", "filename"):
        value = metadata.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def as_vector(raw: Any, where: str | Message) -> Vector | None:
    """A stored vector as a float32 unit row, refused with one sentence when it holds NaN or
    infinity, or is all zeros (cosine on it would be NaN and rank arbitrarily); None when
    absent. Normalised in float64 after dividing by its largest value, so neither 1e38
    (whose squares overflow) nor 1e-45 (whose squares underflow) loses its direction."""
    if raw is None:
        return None
    if isinstance(raw, Sequence | np.ndarray) and len(raw) == 0:
        return None
    try:
        wide = np.asarray(raw, dtype=np.float64).reshape(-1)
    except (TypeError, ValueError, OverflowError, RecursionError) as error:
        raise IndexInputError(key="idx.vector_not_numbers", where=where) from error
    if wide.size > MAX_DIMENSION:
        raise IndexInputError(key="idx.vector_too_long", where=where, n=wide.size,
                              limit=Grouped(MAX_DIMENSION))
    if not np.all(np.isfinite(wide)):
        raise IndexInputError(key="idx.vector_not_finite", where=where)
    peak = float(np.max(np.abs(wide)))
    if peak == 0.0:
        raise IndexInputError(key="idx.vector_zero", where=where)
    scaled = wide / peak
    unit: Vector = (scaled / np.linalg.norm(scaled)).astype(np.float32)
    return unit


@dataclass
class ReadBudget:
    """What a file reader may still read, and the records it left out on the way. Limits
    refuse the whole file (``take``); a damaged record is left out and counted
    (``left_out``), and the first one is named; records without text are counted apart."""

    name: str
    max_chunks: int
    max_chars: int = MAX_INDEX_CHARS
    max_chunk_chars: int = MAX_CHUNK_CHARS
    max_vector_bytes: int = MAX_VECTOR_BYTES
    progress: Progress | None = None
    records: int = 0
    chunks: int = 0
    chars: int = 0
    vector_bytes: int = 0
    no_text: int = 0
    bad: int = 0
    first_bad: Message | InputError | None = None

    def record(self) -> None:
        """One more record read, good or not; past twice the chunk limit the file is
        refused (a file of broken records is not read to its end)."""
        self.records += 1
        if self.records > 2 * self.max_chunks:
            raise self.too_many()
        if self.progress is not None and self.records % PROGRESS_EVERY == 0:
            self.progress(self.records)

    def done(self) -> None:
        if self.progress is not None and self.records % PROGRESS_EVERY:
            self.progress(self.records)

    def too_many(self) -> IndexLimitError:
        return IndexLimitError(key="idx.file_too_many", name=self.name,
                               limit=Grouped(self.max_chunks))

    def text(self, length: int, where: str | Message) -> None:
        """A chunk's text of ``length`` characters is kept."""
        self.ahead(length, length, where)
        self.chars += length

    def ahead(self, longest: int, total: int, where: str | Message) -> None:
        """Texts about to be decoded, the longest of ``longest`` characters (at ``where``),
        ``total`` in all: refused past the chunk or the index limit."""
        if longest > self.max_chunk_chars:
            raise IndexLimitError(key="idx.chunk_too_long", where=where, n=longest,
                                  limit=Grouped(self.max_chunk_chars))
        if self.chars + total > self.max_chars:
            raise IndexLimitError(key="idx.text_too_long", name=self.name,
                                  limit=Grouped(self.max_chars))

    def take(self, chunk: IndexChunk) -> IndexChunk:
        """``chunk`` kept: counted against the chunk and vector limits."""
        self.chunks += 1
        if self.chunks > self.max_chunks:
            raise self.too_many()
        if chunk.vector is not None:
            self.vector_bytes += chunk.vector.nbytes
            if self.vector_bytes > self.max_vector_bytes:
                raise IndexLimitError(key="idx.vectors_too_big", name=self.name,
                                      limit=Grouped(self.max_vector_bytes // 1_000_000))
        return chunk

    def keep(self, make: Callable[[], IndexChunk], chunks: list[IndexChunk]) -> None:
        """The chunk ``make`` returns, kept in ``chunks``; a damaged record (``make``'s
        sentence) left out and counted; a limit passed refuses the file."""
        try:
            chunk = make()
        except IndexLimitError:
            raise
        except IndexInputError as error:
            self.left_out(error)
            return
        chunks.append(self.take(chunk))

    def left_out(self, problem: InputError) -> None:
        """A damaged record, or one without text (key ``idx.no_text``), left out."""
        if problem.key == "idx.no_text":
            self.no_text += 1
            return
        self.bad += 1
        if self.first_bad is None:
            self.first_bad = problem

    def problems(self) -> tuple[Message, ...]:
        """One sentence for the records without text, one for the damaged ones."""
        said = []
        if self.no_text:
            said.append(Message("idx.no_text_records", {
                "n": self.no_text, "total": Grouped(self.records), "name": self.name}))
        if self.bad == 1:
            said.append(Message("idx.left_out", {"problem": self.first_bad}))
        elif self.bad:
            said.append(Message("idx.left_out_more", {"problem": self.first_bad,
                                                      "n": self.bad}))
        return tuple(said)

    def loaded(self, chunks: list[IndexChunk]) -> LoadedIndex:
        """The chunks with the sentences above; one sentence when no chunk is left."""
        if chunks:
            return LoadedIndex(self.name, tuple(chunks), self.problems())
        if self.bad:
            raise IndexInputError(key="idx.no_readable_chunk", name=self.name,
                                  problem=self.first_bad)
        if self.no_text:
            raise IndexInputError(key="idx.no_text_at_all", name=self.name,
                                  n=self.no_text)
        raise IndexInputError(key="idx.no_chunk", name=self.name)


def readable(value: str, where: str | Message) -> str:
    """``value`` when it is text that can be written out (a lone surrogate such as a JSON
    ``"\\ud800"`` cannot be); else the record is refused, named."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise IndexInputError(key="idx.lone_surrogate", where=where) from None
    return value


def refuse_other_encodings(head: bytes, name: str) -> None:
    """One sentence for a file that is not UTF-8 (UTF-16 or UTF-32: a byte-order mark, or
    NUL bytes making an eighth of its first kilobytes), before any record is read."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or head.count(b"\x00") > len(head) // 8:
        raise IndexInputError(key="idx.not_utf8_file", name=name)
