"""Chunkers: each turns a document into ordered chunks located by exact offsets."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragviz.chunking.base import (
    CHUNKER_NAMES,
    CHUNKER_PARAMS,
    Chunk,
    ChunkerConfig,
    ChunkingResult,
)

if TYPE_CHECKING:
    from ragviz.embedders import Embedder

__all__ = [
    "CHUNKER_NAMES",
    "CHUNKER_PARAMS",
    "Chunk",
    "ChunkerConfig",
    "ChunkingResult",
    "make_chunks",
]


def make_chunks(
    document: str, config: ChunkerConfig, embedder: Embedder | None = None
) -> ChunkingResult:
    """Run the chunker ``config`` names; ``tokens`` and ``semantic`` need the embedder."""
    name = config.chunker
    if name == "fixed":
        from ragviz.chunking.fixed import chunk_fixed

        return ChunkingResult(tuple(chunk_fixed(document, config.size, config.overlap)))
    if name == "sentence":
        from ragviz.chunking.sentence import chunk_sentences

        return ChunkingResult(
            tuple(chunk_sentences(document, config.max_chars, config.overlap_sentences))
        )
    if name == "recursive":
        from ragviz.chunking.recursive import chunk_recursive

        return ChunkingResult(tuple(chunk_recursive(document, config.size, config.overlap)))
    if name == "markdown":
        from ragviz.chunking.markdown import chunk_markdown

        return ChunkingResult(
            tuple(chunk_markdown(document, config.max_chars, config.overlap_sentences))
        )
    if name == "tokens":
        from ragviz.chunking.tokens import chunk_tokens

        if embedder is None:
            raise ValueError("the tokens chunker needs a model (its tokenizer)")
        return ChunkingResult(tuple(chunk_tokens(document, embedder, config.size, config.overlap)))
    if name == "semantic":
        from ragviz.chunking.semantic import chunk_semantic

        if embedder is None:
            raise ValueError("the semantic chunker needs a model")
        return chunk_semantic(
            document, embedder, config.threshold, config.percentile, config.max_chars
        )
    raise ValueError(f"chunker must be one of {', '.join(CHUNKER_NAMES)}, got {name!r}")
