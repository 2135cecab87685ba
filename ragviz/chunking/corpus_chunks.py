"""Chunking a corpus: every source with the same configuration, one index space.

Chunk indices run across the whole corpus (source after source, in corpus order) because
ranking, score bars and diagnoses name chunks by index; each chunk keeps its ``source`` and
offsets into that source's text, so ``corpus.source(c.source).text[c.start:c.end] == c.text``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from ragviz.chunking.base import Chunk, ChunkingResult
from ragviz.chunking.config import ChunkerConfig, make_chunks
from ragviz.chunking.registry import get_spec
from ragviz.errors import InputError
from ragviz.i18n import Grouped

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder
    from ragviz.inputs.corpus import Corpus


def chunk_corpus(
    corpus: Corpus, config: ChunkerConfig, embedder: Embedder | None = None,
    chunk_text: Callable[[str], ChunkingResult] | None = None,
) -> ChunkingResult:
    """Chunk each source with ``config`` and number the chunks across the corpus.

    The semantic chunker's boundary similarities are offsets into one text, so they are
    kept only when the corpus has a single source; notes are gathered from every source.
    ``chunk_text`` chunks one text instead of ``config``'s registered chunker (a user's own
    splitter object, ``ragviz.api``; ``config`` then only names it).
    """
    lengths = [len(source.text) for source in corpus.sources]
    limit = chunk_chars_limit(sum(lengths))
    if chunk_text is None:
        check_window_chars(config, lengths, limit)
    chunks: list[Chunk] = []
    notes: list[str] = []
    results: list[ChunkingResult] = []
    total = 0
    for source in corpus.sources:
        result = make_chunks(source.text, config, embedder) if chunk_text is None \
            else chunk_text(source.text)
        total += sum(len(c.text) for c in result.chunks)
        if total > limit:
            raise _too_many_chars(config, total, sum(lengths))
        results.append(result)
        offset = len(chunks)
        chunks.extend(replace(c, index=offset + position, source=source.name)
                      for position, c in enumerate(result.chunks))
        notes.extend(n for n in result.notes if n not in notes)
    if len(results) == 1:
        return replace(results[0], chunks=tuple(chunks))
    threshold = results[0].breakpoint_threshold if results else None
    return ChunkingResult(tuple(chunks), (), threshold, tuple(notes))


# All chunks together may hold this many times the corpus's characters (overlap repeats
# text): fixed windows of 150,000 characters every 10 once made 4,901 chunks, 2.9 GB.
MAX_CHUNK_REPEAT = 20
MIN_CHUNK_CHARS = 1_000_000  # a short document may repeat more: it stays small anyway


def chunk_chars_limit(corpus_chars: int) -> int:
    """How many characters all the chunks of a corpus of ``corpus_chars`` may hold."""
    return max(MAX_CHUNK_REPEAT * corpus_chars, MIN_CHUNK_CHARS)


def check_window_chars(config: ChunkerConfig, lengths: list[int], limit: int) -> None:
    """Refuse, before any chunk is made, windows whose overlap would repeat the text past
    ``limit``: ``1 + ceil((n - size) / step)`` windows of at most ``size`` units each (a
    unit is a character or a token, and a token holds at least one character)."""
    spec = get_spec(config.chunker)
    if not spec.overlap_is_share():
        return  # overlaps counted in sentences or paragraphs repeat the text 11 times at most
    size = config.get(spec.size_axis or "")
    overlap = config.get(spec.overlap_axis or "") or 0
    if size is None:
        return
    step = max(1, int(size - overlap))
    total = sum((1 + -(-max(0, n - int(size)) // step)) * min(int(size), n) for n in lengths)
    if total > limit:
        raise _too_many_chars(config, total, sum(lengths))


def _too_many_chars(config: ChunkerConfig, total: int, corpus_chars: int) -> InputError:
    return InputError(key="chunking.too_many_chars", config=config.label(), n=total,
                      times=MAX_CHUNK_REPEAT, corpus=Grouped(corpus_chars))
