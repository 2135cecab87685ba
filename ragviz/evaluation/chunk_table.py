"""Chunk offsets as numpy arrays per file, for the questions "which chunks hold this span"
and "which touch it" that every diagnosis and every token measure asks.

A thousand questions over ten thousand chunks asked them by walking the chunk list in
Python once per question (seconds); here each is one vectorised comparison over one file's
chunks. A table is built once per chunk list and remembered for the last few lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Protocol

import numpy as np
import numpy.typing as npt

from ragviz.chunking.base import Chunk

Ints = npt.NDArray[np.int64]
_REMEMBERED = 8


class Located(Protocol):
    """A span of one file: an answer span or a labelled excerpt."""

    @property
    def source(self) -> str: ...
    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


class ChunkTable:
    """The chunks of one list, grouped by file, with their offsets as arrays."""

    _remembered: ClassVar[dict[int, ChunkTable]] = {}

    def __init__(self, chunks: Sequence[Chunk]) -> None:
        self.chunk_list = chunks
        self.chunks = {c.index: c for c in chunks}
        groups: dict[str, list[Chunk]] = {}
        for chunk in chunks:
            groups.setdefault(chunk.source, []).append(chunk)
        self._files: dict[str, tuple[Ints, Ints, Ints]] = {
            name: (np.array([c.start for c in mine], dtype=np.int64),
                   np.array([c.end for c in mine], dtype=np.int64),
                   np.array([c.index for c in mine], dtype=np.int64))
            for name, mine in groups.items()}

    @classmethod
    def of(cls, chunks: Sequence[Chunk]) -> ChunkTable:
        """The table of ``chunks``, built once per list (the table keeps its list, so an id
        is never reused while remembered)."""
        found = cls._remembered.get(id(chunks))
        if found is None or found.chunk_list is not chunks:
            if len(cls._remembered) >= _REMEMBERED:
                cls._remembered.clear()
            found = cls._remembered[id(chunks)] = cls(chunks)
        return found

    def holding(self, span: Located) -> tuple[int, ...]:
        """Indices of the chunks of the span's file whose ``[start, end)`` contains it all."""
        if span.source not in self._files:
            return ()
        starts, ends, indices = self._files[span.source]
        return tuple(indices[(starts <= span.start) & (ends >= span.end)].tolist())

    def touching(self, span: Located) -> tuple[int, ...]:
        """Indices of the chunks of the span's file holding at least one of its characters."""
        if span.source not in self._files:
            return ()
        starts, ends, indices = self._files[span.source]
        return tuple(indices[(starts < span.end) & (ends > span.start)].tolist())

    def span(self, index: int) -> tuple[str, tuple[int, int]]:
        """The file and ``(start, end)`` of chunk ``index``."""
        chunk = self.chunks[index]
        return chunk.source, (chunk.start, chunk.end)

    def source_of(self, index: int) -> str:
        """The file of chunk ``index`` ("" when no chunk has that index)."""
        chunk = self.chunks.get(index)
        return "" if chunk is None else chunk.source
