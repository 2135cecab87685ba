"""Chonkie's ``RecursiveChunker`` with ``tokenizer="character"`` and its default rules
(paragraphs, sentences, punctuation, words, characters); chunks keep their whitespace and
carry Chonkie's own ``start_index``/``end_index``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.peers.common import library_param, quiet_chonkie, register_peer, with_offsets
from ragviz.chunking.spec import ChunkerSpec

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from chonkie import RecursiveChunker

    quiet_chonkie()

    chunker = RecursiveChunker(tokenizer="character", chunk_size=values["chunk_size"],
                               min_characters_per_chunk=values["min_characters_per_chunk"])
    return with_offsets(document, chunker.chunk(document))


SPEC = register_peer(
    ChunkerSpec(
        name="chonkie_recursive",
        params=(library_param("chunk_size", 512, 1),
                library_param("min_characters_per_chunk", 24, 1, fits_document=None)),
        chunk=_run,
        size_axis="chunk_size",  # no overlap axis: not swept (sweeps vary both)
        order=210,
        library="Chonkie",
        call='RecursiveChunker(tokenizer="character", …)',
    ),
    "chonkie",
)
