"""Chonkie's ``TokenChunker`` with ``tokenizer="character"``: windows of ``chunk_size``
characters, each repeating the last ``chunk_overlap`` of the previous, whitespace kept."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.peers.common import quiet_chonkie, register_window, with_offsets

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from chonkie import TokenChunker

    quiet_chonkie()

    chunker = TokenChunker(tokenizer="character", chunk_size=values["chunk_size"],
                           chunk_overlap=values["chunk_overlap"])
    return with_offsets(document, chunker.chunk(document))


SPEC = register_window("chonkie_token", _run, "chonkie", library="Chonkie",
                       call='TokenChunker(tokenizer="character", …)', order=212,
                       size=512, overlap=0)
