"""Paragraph chunks: blank-line separated paragraphs packed up to ``max_chars``.

Writers put one idea in a paragraph, so a chunk of whole paragraphs rarely cuts an answer
in two. Overlap repeats whole paragraphs (``overlap_paragraphs``); a paragraph longer than
``max_chars`` is never cut: it becomes its own chunk with ``over_size=True``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import Chunk, ChunkingResult, make_chunk
from ragviz.chunking.packing import pack_indices
from ragviz.chunking.params import PACKED_STEPS, Unit, max_chars_param, overlap_units_param
from ragviz.chunking.registry import register
from ragviz.chunking.spec import ChunkerSpec
from ragviz.chunking.text import Span, trim_span

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder

PARAGRAPHS = Unit("paragraphs")
# A line break, then a line of only spaces or tabs (or nothing), then a line break.
_BLANK_LINE = re.compile(r"\n[^\S\n]*\n")


def split_paragraphs(document: str) -> list[Span]:
    """Trimmed spans of the paragraphs, in order; together they cover every
    non-whitespace character (whitespace between paragraphs belongs to none)."""
    spans: list[Span] = []
    start = 0
    for match in _BLANK_LINE.finditer(document):
        spans.append(trim_span(document, start, match.start()))
        start = match.end()
    spans.append(trim_span(document, start, len(document)))
    return [(a, b) for a, b in spans if a < b]


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    max_chars = values["max_chars"]
    paragraphs = split_paragraphs(document)
    groups = pack_indices(paragraphs, max_chars, values["overlap_paragraphs"])
    chunks: list[Chunk] = []
    for group in groups:
        start, end = paragraphs[group[0]][0], paragraphs[group[-1]][1]
        chunks.append(
            make_chunk(document, len(chunks), start, end, over_size=end - start > max_chars)
        )
    return ChunkingResult(tuple(chunks))


# 600 characters: two or three paragraphs of ordinary prose; no overlap by default, since a
# repeated paragraph repeats a whole idea.
SPEC = register(
    ChunkerSpec(
        name="paragraph",
        params=(max_chars_param(600), overlap_units_param("overlap_paragraphs", 0, PARAGRAPHS)),
        chunk=_run,
        size_axis="max_chars",
        overlap_axis="overlap_paragraphs",
        size_steps=PACKED_STEPS,
        overlap_steps=(0, 1),
        order=35,
        sweep_position=4,
    )
)
