"""Fixed-size character windows: the naive chunker of the article, which cuts anywhere."""

from __future__ import annotations

from ragviz.chunking.base import Chunk, make_chunk, require_int


def chunk_fixed(document: str, size: int = 120, overlap: int = 0) -> list[Chunk]:
    """Windows of ``size`` characters, each starting ``size - overlap`` after the previous.

    Like the article's ``texto[i:i + chunk_size]``, windows are not trimmed, so the seed
    chunk strings come out exactly. A window of only whitespace is skipped (it holds nothing
    to retrieve); the last window stops at the end of the document.
    """
    require_int("size", size, 1)
    require_int("overlap", overlap, 0)
    if overlap >= size:
        raise ValueError(f"overlap must be smaller than size ({size}), got {overlap}")
    step = size - overlap
    chunks: list[Chunk] = []
    start = 0
    while start < len(document):
        end = min(start + size, len(document))
        if document[start:end].strip():
            chunks.append(make_chunk(document, len(chunks), start, end))
        if end == len(document):
            break
        start += step
    return chunks
