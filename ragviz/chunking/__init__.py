"""Chunkers: each turns a document into ordered chunks located by exact offsets.

Each chunker module registers its spec when imported; the import list below is the only
place that names them. Everything else asks the registry.
"""

from __future__ import annotations

# peers: the chunkers of other libraries, registered when their library is installed.
from ragviz.chunking import (  # noqa: F401
    fixed,
    markdown,
    paragraph,
    peers,
    recursive,
    semantic,
    sentence,
    tokens,
)
from ragviz.chunking.base import Chunk, ChunkingResult
from ragviz.chunking.config import ChunkerConfig, check_config, make_chunks
from ragviz.chunking.corpus_chunks import chunk_corpus
from ragviz.chunking.registry import chunker_names, get_spec, specs
from ragviz.chunking.spec import ChunkerSpec
from ragviz.chunking.sweep_grid import default_grid

CHUNKER_NAMES: tuple[str, ...] = chunker_names()
# Which parameters each chunker reads; the rest of a ChunkerConfig is ignored for it.
CHUNKER_PARAMS: dict[str, tuple[str, ...]] = {spec.name: spec.names for spec in specs()}

__all__ = [
    "CHUNKER_NAMES",
    "CHUNKER_PARAMS",
    "Chunk",
    "ChunkerConfig",
    "ChunkerSpec",
    "ChunkingResult",
    "check_config",
    "chunk_corpus",
    "default_grid",
    "get_spec",
    "make_chunks",
    "specs",
]
