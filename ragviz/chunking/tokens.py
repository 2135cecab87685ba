"""Token windows in the model's own tokenizer, mapped back to character offsets.

Characters are what people see, tokens are what the model reads: a window of ``size``
tokens is exactly what a model with that budget would take in, no more.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ragviz.chunking.base import Chunk, make_chunk, require_int, trim_span

if TYPE_CHECKING:
    from ragviz.embedders import Embedder


def chunk_tokens(document: str, embedder: Embedder, size: int, overlap: int) -> list[Chunk]:
    """Windows of ``size`` tokens, each repeating the last ``overlap`` tokens of the previous.

    A window runs from its first token to just before the next window's first new token,
    so characters the tokenizer skips are still covered. If re-tokenizing a window's text
    gives more than ``size`` tokens (a window starting inside a word can), the window gives
    back tokens until it fits; a single token that still does not fit is ``over_size``.
    """
    require_int("size", size, 1)
    require_int("overlap", overlap, 0)
    if overlap >= size:
        raise ValueError(f"overlap must be smaller than size ({size}), got {overlap}")
    spans = embedder.token_spans(document)
    if not spans:
        start, end = trim_span(document, 0, len(document))
        return [make_chunk(document, 0, start, end)] if start < end else []
    chunks: list[Chunk] = []
    first = 0
    while first < len(spans):
        stop = min(first + size, len(spans))
        while True:
            begin = 0 if first == 0 else spans[first][0]
            finish = len(document) if stop == len(spans) else spans[stop][0]
            start, end = trim_span(document, begin, finish)
            count = embedder.count_tokens(document[start:end])
            if count <= size or stop == first + 1:
                break
            stop -= 1
        if start < end:
            chunks.append(make_chunk(document, len(chunks), start, end, over_size=count > size))
        if stop == len(spans):
            break
        first = max(stop - overlap, first + 1)
    return chunks
