"""Chunking a corpus: every source with the same configuration, one index space.

Chunk indices run across the whole corpus (source after source, in corpus order) because
ranking, score bars and diagnoses name chunks by index; each chunk keeps its ``source`` and
offsets into that source's text, so ``corpus.source(c.source).text[c.start:c.end] == c.text``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ragviz.chunking.base import Chunk, ChunkingResult
from ragviz.chunking.registry import ChunkerConfig, make_chunks

if TYPE_CHECKING:
    from ragviz.corpus import Corpus
    from ragviz.embedders import Embedder


def chunk_corpus(
    corpus: Corpus, config: ChunkerConfig, embedder: Embedder | None = None
) -> ChunkingResult:
    """Chunk each source with ``config`` and number the chunks across the corpus.

    The semantic chunker's boundary similarities are offsets into one text, so they are
    kept only when the corpus has a single source; notes are gathered from every source.
    """
    chunks: list[Chunk] = []
    notes: list[str] = []
    results: list[ChunkingResult] = []
    for source in corpus.sources:
        result = make_chunks(source.text, config, embedder)
        results.append(result)
        offset = len(chunks)
        chunks.extend(replace(c, index=offset + position, source=source.name)
                      for position, c in enumerate(result.chunks))
        notes.extend(n for n in result.notes if n not in notes)
    if len(results) == 1:
        return replace(results[0], chunks=tuple(chunks))
    threshold = results[0].breakpoint_threshold if results else None
    return ChunkingResult(tuple(chunks), (), threshold, tuple(notes))
