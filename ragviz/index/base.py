"""The one small interface every index store implements, and what it returns.

A chunk from an index keeps its text exactly as stored (never stripped or re-cut): the
diagnosis is about the chunks production retrieves, not about ones ragviz would make.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from ragviz.i18n import Phrase
from ragviz.inputs.documents import InputError

Vector = npt.NDArray[np.float32]


class IndexInputError(InputError):
    """An index that cannot be read as asked; one sentence for the user, by catalog key
    (``InputError``) or as an index ``Sentence``, said in the page's language either way."""


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
    problems: tuple[str | Phrase | InputError, ...] = ()  # said in the reader's language


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


def from_metadata(chunk_id: str, text: str, metadata: dict[str, Any], raw_vector: Any,
                  where: str | Phrase) -> IndexChunk:
    """A chunk whose source and offsets are read from its metadata (Chroma, JSONL)."""
    start, end = metadata_offsets(text, metadata)
    return IndexChunk(chunk_id, text, source_of(metadata), start, end, metadata,
                      as_vector(raw_vector, where))


class FileReader:
    """A chunk export file: one collection named after the file (``read`` per format)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def read(self, collection: str | None = None) -> LoadedIndex:
        raise NotImplementedError

    def collections(self) -> list[CollectionInfo]:
        loaded = self.read()
        dimension = next((len(c.vector) for c in loaded.chunks if c.vector is not None), None)
        return [CollectionInfo(loaded.name, len(loaded.chunks), dimension)]


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


def as_vector(raw: Any, where: str | Phrase) -> Vector | None:
    """A stored vector as float32, refused with one sentence when it holds NaN or
    infinity (cosine on it would be NaN and rank arbitrarily); None when absent."""
    if raw is None:
        return None
    if isinstance(raw, Sequence | np.ndarray) and len(raw) == 0:
        return None
    try:
        vector = np.asarray(raw, dtype=np.float32).reshape(-1)
    except (TypeError, ValueError) as error:
        raise IndexInputError(key="index.vector_not_numbers", where=where) from error
    if not np.all(np.isfinite(vector)):
        raise IndexInputError(key="index.vector_not_finite", where=where)
    if not math.isfinite(float(np.linalg.norm(vector))) or not np.any(vector):
        raise IndexInputError(key="index.vector_zero", where=where)
    return vector
