"""semchunk's ``chunk`` with the chosen model's token counter: chunks of at most
``chunk_size`` of the model's tokens, ``overlap`` tokens repeated, semchunk's own offsets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.peers.common import SIZE_STEPS, chunks_at, library_param, register_peer
from ragviz.chunking.registry import TOKENS, ChunkerSpec
from ragviz.text import Span

if TYPE_CHECKING:
    from ragviz.embedders import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from semchunk.semchunk import chunk

    if embedder is None:
        raise ValueError("the semchunk chunker needs a model (its token counter)")
    overlap = values["overlap"] or None  # semchunk's default: no overlap
    _texts, offsets = chunk(document, values["chunk_size"], embedder.count_tokens,
                            offsets=True, overlap=overlap)
    return ChunkingResult(chunks_at(document, cast("list[Span]", offsets)))


SPEC = register_peer(
    ChunkerSpec(
        name="semchunk",
        params=(library_param("chunk_size", 128, 1, TOKENS),
                library_param("overlap", 0, unit=TOKENS, fits_document=0.5)),
        chunk=_run,
        needs_model=True,
        size_axis="chunk_size",
        overlap_axis="overlap",
        size_steps=SIZE_STEPS,
        overlap_steps=(0, 0.2),
        help="semchunk.chunk with the model's token counter",
        order=220,
        library="semchunk",
        call="semchunk.chunk",
    ),
    "semchunk",
)
