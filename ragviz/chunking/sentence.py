"""Sentence chunks with sentence overlap: the article's fix, computed on offsets.

The article joins sentences with ``" ".join``; here a chunk is the document slice from
its first sentence's start to its last sentence's end, so offsets stay exact. On the seed
text (single spaces between sentences) both give the same strings.
"""

from __future__ import annotations

from ragviz.chunking.base import Chunk, make_chunk, require_int
from ragviz.sentences import Span, split_sentences


def pack_spans(spans: list[Span], max_chars: int, overlap: int) -> list[Span]:
    """Greedy packing of ordered spans into (start, end) groups of at most ``max_chars``.

    A new group starts with the last ``overlap`` spans of the previous one, minus as many
    of those as needed for the next span to fit, so no group is only carried-over spans.
    A single span longer than ``max_chars`` is a group of its own.
    """
    groups: list[Span] = []
    current: list[Span] = []
    for span in spans:
        if current and span[1] - current[0][0] > max_chars:
            groups.append((current[0][0], current[-1][1]))
            carried = current[-overlap:] if overlap else []
            while carried and span[1] - carried[0][0] > max_chars:
                carried.pop(0)
            current = carried
        current.append(span)
    if current:
        groups.append((current[0][0], current[-1][1]))
    return groups


def chunk_sentences(
    document: str, max_chars: int = 220, overlap_sentences: int = 1
) -> list[Chunk]:
    """Whole sentences packed up to ``max_chars``, repeating ``overlap_sentences`` between
    neighbours. A sentence longer than ``max_chars`` is never cut: it becomes its own chunk
    with ``over_size=True``."""
    require_int("max_chars", max_chars, 1)
    require_int("overlap_sentences", overlap_sentences, 0)
    groups = pack_spans(split_sentences(document), max_chars, overlap_sentences)
    return [
        make_chunk(document, i, start, end, over_size=end - start > max_chars)
        for i, (start, end) in enumerate(groups)
    ]
