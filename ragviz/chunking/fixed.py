"""Fixed-size character windows: the naive chunker of the article, which cuts anywhere."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import Chunk, ChunkingResult, make_chunk
from ragviz.chunking.params import WINDOW_STEPS, overlap_param, size_param
from ragviz.chunking.registry import register
from ragviz.chunking.spec import ChunkerSpec

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder

def _windows(document: str, size: int, overlap: int) -> list[Chunk]:
    """Windows of ``size`` characters, each starting ``size - overlap`` after the previous.
    Like the article's ``texto[i:i + chunk_size]``, windows are not trimmed, so the seed
    chunk strings come out exactly; a window of only whitespace is skipped."""
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


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    return ChunkingResult(tuple(_windows(document, values["size"], values["overlap"])))


SPEC = register(
    ChunkerSpec(
        name="fixed",
        params=(size_param(120), overlap_param(0)),
        chunk=_run,
        size_axis="size",
        overlap_axis="overlap",
        size_steps=WINDOW_STEPS,
        overlap_steps=(0, 0.15),
        order=10,
        sweep_position=1,
    )
)
