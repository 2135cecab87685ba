"""Recursive splitting: cut at the coarsest boundary that makes pieces fit, then merge.

Paragraphs first, then lines, sentences, words and, as a last resort, characters; the
pieces are then merged back up to ``size`` so chunks are as large as allowed. Overlap is
carried back from the previous chunk, starting at a word when one is close enough.
"""

from __future__ import annotations

import re
from bisect import bisect_right
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
_NON_SPACE = re.compile(r"\S")
# The last blank line before the end of the span matched: a backward scan, in C.
_LAST_BREAK = re.compile(r"(?s:.*)\n[^\S\n]*\n")

# Every level returns trimmed, non-empty spans in order, so only the long ones need work;
# paragraphs are the text between blank lines (``_PARAGRAPH``), trimmed.


def _split_lines(document: str, start: int, end: int) -> list[Span]:
    return [m.span() for m in _TRIMMED_LINE.finditer(document, start, end)]


def _split_sentences(document: str, start: int, end: int) -> list[Span]:
    return [(start + a, start + b) for a, b in split_sentences(document[start:end])]


def _split_words(document: str, start: int, end: int) -> list[Span]:
    return [m.span() for m in _WORD.finditer(document, start, end)]


# Below the paragraph level, which ``_Leaves`` walks without listing the paragraphs.
_LEVELS: tuple[Callable[[str, int, int], list[Span]], ...] = (
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


class _Leaves:
    """The document's pieces (each paragraph that fits, ``_pieces`` of each that does not),
    found a chunk at a time, so a long document is split only as deep as a chunk needs.

    The paragraphs inside a chunk's window are never listed: every one of them fits (the
    window is ``size`` long), so the chunk ends at the window's last paragraph break, found
    by one backward regex scan, unless the paragraph across the window's end is too long and
    its own pieces end closer to the limit. The same pieces as splitting the whole document
    first (``tests/test_recursive_recorded.py``), so the same chunks, for less work as the
    size grows.
    """

    def __init__(self, document: str, end: int, size: int) -> None:
        self.document, self.end, self.size = document, end, size
        self.sub: list[Span] = []  # the pieces of the long paragraph being walked
        self.sub_ends: list[int] = []
        self.at = 0  # the next of ``sub`` after the piece handed out
        self.after: int | None = None  # where the paragraph after ``sub`` begins

    def first(self, start: int) -> Span:
        """The first piece of the document, whose first non-space character is ``start``."""
        found = self._paragraph(start)
        return found if found is not None else self._next_sub()

    def take(self, piece: Span, limit: int) -> tuple[int, Span | None]:
        """Past ``piece``, every piece ending by ``limit``: the last one's end (``piece``'s
        when none) and the piece after it (None at the document's end)."""
        end = piece[1]
        while True:
            if self.at < len(self.sub):
                last = bisect_right(self.sub_ends, limit, self.at)
                if last > self.at:
                    end = self.sub_ends[last - 1]
                self.at = last
                if last < len(self.sub):
                    return end, self._next_sub()
            begin = self.after
            if begin is None:
                return end, None
            if limit >= self.end:
                return self.end, None
            end, begin = self._last_break(begin, limit, end)
            paragraph = self._paragraph(begin)
            if paragraph is not None:  # it fits, but not by ``limit``
                return end, paragraph

    def _last_break(self, begin: int, limit: int, end: int) -> tuple[int, int]:
        """Past the last paragraph break from ``begin`` to ``limit`` (or in the whitespace
        around ``limit``): the end of the paragraph before it and where the next one begins;
        ``end, begin`` when there is none. Every paragraph before it fits: they lie in the
        chunk's window, ``size`` long."""
        document = self.document
        window_end = _NON_SPACE.search(document, limit).start()  # type: ignore[union-attr]
        found = _LAST_BREAK.match(document, begin, window_end)
        if found is None:
            return end, begin
        after = _NON_SPACE.search(document, found.end()).start()  # type: ignore[union-attr]
        return trim_span(document, begin, found.end())[1], after

    def _paragraph(self, start: int) -> Span | None:
        """The paragraph at ``start`` when it fits; else None, its pieces next in ``sub``."""
        document = self.document
        found = _PARAGRAPH.search(document, start, self.end)
        stop = self.end if found is None else trim_span(document, start, found.start())[1]
        self.after = None if found is None else found.end()
        if stop - start <= self.size:
            self.sub, self.sub_ends, self.at = [], [], 0
            return start, stop
        self.sub = _pieces(document, start, stop, self.size, 0)
        self.sub_ends = [b for _, b in self.sub]
        self.at = 0
        return None

    def _next_sub(self) -> Span:
        self.at += 1
        return self.sub[self.at - 1]


def _merge(document: str, size: int, overlap: int) -> list[Chunk]:
    start, end = trim_span(document, 0, len(document))
    if start >= end:
        return []
    leaves = _Leaves(document, end, size)
    piece: Span | None = leaves.first(start)
    chunks: list[Chunk] = []
    prev_start = 0
    while piece is not None:
        start = piece[0]
        if chunks and overlap:
            start = _overlap_start(document, piece, prev_start, overlap, size)
        end, piece = leaves.take(piece, start + size)
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
