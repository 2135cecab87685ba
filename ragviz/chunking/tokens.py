"""Token windows in the model's own tokenizer, mapped back to character offsets.

Characters are what people see, tokens are what the model reads: a window of ``size``
tokens is exactly what a model with that budget would take in, no more.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import Chunk, ChunkingResult, make_chunk
from ragviz.chunking.params import TOKENS, WINDOW_STEPS, overlap_param, size_param
from ragviz.chunking.registry import register
from ragviz.chunking.spec import ChunkerSpec, run_checked
from ragviz.chunking.text import trim_span
from ragviz.errors import InputError

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def chunk_tokens(
    document: str, embedder: Embedder, size: int = 64, overlap: int = 0
) -> ChunkingResult:
    """Windows of ``size`` tokens, each repeating the last ``overlap`` tokens of the previous.

    A window runs from its first token to just before the next window's first new token,
    so characters the tokenizer skips are still covered. If re-tokenizing a window's text
    gives more than ``size`` tokens (a window starting inside a word can), the window gives
    back tokens until it fits; a single token that still does not fit is ``over_size``.
    """
    return run_checked(SPEC, document, embedder, size=size, overlap=overlap)


def _windows(document: str, embedder: Embedder, size: int, overlap: int) -> list[Chunk]:
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


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    if embedder is None:
        raise InputError(key="param.needs_model", name="tokens")
    return ChunkingResult(tuple(_windows(document, embedder, values["size"], values["overlap"])))


# 64 tokens (about 250-300 characters) fits inside every bundled model's window.
SPEC = register(
    ChunkerSpec(
        name="tokens",
        params=(size_param(64, TOKENS), overlap_param(0, TOKENS)),
        chunk=_run,
        needs_model=True,
        size_axis="size",
        overlap_axis="overlap",
        size_steps=WINDOW_STEPS,
        overlap_steps=(0, 0.15),
        order=50,
    )
)
