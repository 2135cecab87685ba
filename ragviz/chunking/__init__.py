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
    "check_config",
    "make_chunks",
]


def check_config(config: ChunkerConfig) -> ChunkerConfig:
    """Raise ValueError (naming the parameter and its value) for settings no document can
    satisfy, without chunking anything or loading a model."""
    from ragviz.chunking.base import require_float, require_int

    if config.chunker not in CHUNKER_NAMES:
        names = ", ".join(CHUNKER_NAMES)
        raise ValueError(f"chunker must be one of {names}, got {config.chunker!r}")
    if config.chunker in ("fixed", "recursive", "tokens"):
        require_int("size", config.size, 1)
        require_int("overlap", config.overlap, 0)
        if config.overlap >= config.size:
            raise ValueError(
                f"overlap must be smaller than size ({config.size}), got {config.overlap}"
            )
    elif config.chunker in ("sentence", "markdown"):
        require_int("max_chars", config.max_chars, 1)
        require_int("overlap_sentences", config.overlap_sentences, 0)
    else:
        if config.threshold is not None and config.percentile is not None:
            raise ValueError("give the semantic chunker a threshold or a percentile, not both")
        if config.threshold is not None:
            require_float("threshold", config.threshold, -1.0, 1.0)
        if config.percentile is not None:
            require_float("percentile", config.percentile, 0.0, 100.0)
        require_int("max_chars", config.max_chars, 1)
    return config


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
