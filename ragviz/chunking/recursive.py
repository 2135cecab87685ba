"""Recursive splitting: cut at the coarsest boundary that makes pieces fit, then merge.

Paragraphs first, then lines, sentences, words and, as a last resort, characters; the
pieces are then merged back up to ``size`` so chunks are as large as allowed. Overlap is
carried back from the previous chunk, starting at a word when one is close enough.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import Chunk, ChunkingResult, make_chunk
from ragviz.chunking.params import WINDOW_STEPS, overlap_param, size_param
from ragviz.chunking.registry import register
from ragviz.chunking.spec import ChunkerSpec, run_checked
from ragviz.chunking.text import Span, split_sentences, trim_span

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder

_PARAGRAPH = re.compile(r"\n[^\S\n]*\n\s*")
# A line from its first to its last non-space character: a trimmed, non-empty line.
_TRIMMED_LINE = re.compile(r"\S(?:[^\n]*\S)?")
_WORD = re.compile(r"\S+")

# Every level returns trimmed, non-empty spans in order, so only the long ones need work.


def _split_paragraphs(document: str, start: int, end: int) -> list[Span]:
    pieces: list[Span] = []
    begin = start
    for match in _PARAGRAPH.finditer(document, start, end):
        pieces.append(trim_span(document, begin, match.start()))
        begin = match.end()
    pieces.append(trim_span(document, begin, end))
    return [(a, b) for a, b in pieces if a < b]


def _split_lines(document: str, start: int, end: int) -> list[Span]:
    return [m.span() for m in _TRIMMED_LINE.finditer(document, start, end)]


def _split_sentences(document: str, start: int, end: int) -> list[Span]:
    return [(start + a, start + b) for a, b in split_sentences(document[start:end])]


def _split_words(document: str, start: int, end: int) -> list[Span]:
    return [m.span() for m in _WORD.finditer(document, start, end)]


_LEVELS: tuple[Callable[[str, int, int], list[Span]], ...] = (
    _split_paragraphs,
    _split_lines,
    _split_sentences,
    _split_words,
)


def _pieces(document: str, start: int, end: int, size: int, level: int) -> list[Span]:
    """Trimmed spans of at most ``size`` characters covering the non-whitespace of the span.

    ``start, end`` must be trimmed and non-empty (every level returns such spans); only
    the parts that still do not fit are split further (most lines fit at once).
    """
    if end - start <= size:
        return [(start, end)]
    if level >= len(_LEVELS):
        return [
            trim_span(document, a, min(a + size, end))
            for a in range(start, end, size)
            if document[a : min(a + size, end)].strip()
        ]
    out: list[Span] = []
    for a, b in _LEVELS[level](document, start, end):
        if b - a <= size:
            out.append((a, b))
        else:
            out.extend(_pieces(document, a, b, size, level + 1))
    return out


def _overlap_start(document: str, piece: Span, floor: int, overlap: int, size: int) -> int:
    """Where a chunk beginning with ``piece`` starts once ``overlap`` chars are carried back."""
    begin = max(floor, piece[0] - overlap, piece[1] - size)
    if begin >= piece[0]:
        return piece[0]
    # Snap forward to the first word start inside the carried text, if there is one.
    for pos in range(begin, piece[0]):
        if not document[pos].isspace() and (pos == 0 or document[pos - 1].isspace()):
            return pos
    carried = document[begin : piece[0]]
    if any(ch.isspace() for ch in carried):
        return piece[0]  # only a word's tail would be carried: carry nothing
    return begin  # text without spaces (CJK, long tokens): carry characters


def _merge(document: str, size: int, overlap: int) -> list[Chunk]:
    start, end = trim_span(document, 0, len(document))
    pieces = _pieces(document, start, end, size, 0) if start < end else []
    chunks: list[Chunk] = []
    i = 0
    prev_start = 0
    while i < len(pieces):
        start = pieces[i][0]
        if chunks and overlap:
            start = _overlap_start(document, pieces[i], prev_start, overlap, size)
        end = pieces[i][1]
        i += 1
        while i < len(pieces) and pieces[i][1] - start <= size:
            end = pieces[i][1]
            i += 1
        chunks.append(make_chunk(document, len(chunks), start, end))
        prev_start = start
    return chunks


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    return ChunkingResult(tuple(_merge(document, values["size"], values["overlap"])))


SPEC = register(
    ChunkerSpec(
        name="recursive",
        params=(size_param(120), overlap_param(0)),
        chunk=_run,
        size_axis="size",
        overlap_axis="overlap",
        size_steps=WINDOW_STEPS,
        overlap_steps=(0, 0.15),
        order=30,
        sweep_position=2,
    )
)


def chunk_recursive(document: str, size: int = 120, overlap: int = 0) -> ChunkingResult:
    """Chunks of at most ``size`` characters, cut at the coarsest boundary that fits, with
    up to ``overlap`` characters repeated from the previous chunk."""
    return run_checked(SPEC, document, size=size, overlap=overlap)
