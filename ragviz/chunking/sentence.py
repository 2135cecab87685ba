"""Sentence chunks with sentence overlap: the article's fix, computed on offsets.

The article joins sentences with ``" ".join``; here a chunk is the document slice from
its first sentence's start to its last sentence's end, so offsets stay exact. On the seed
text (single spaces between sentences) both give the same strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult, make_chunk
from ragviz.chunking.packing import pack_spans
from ragviz.chunking.params import PACKED_STEPS, max_chars_param, overlap_units_param
from ragviz.chunking.registry import register
from ragviz.chunking.spec import ChunkerSpec
from ragviz.chunking.text import split_sentences

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    max_chars = values["max_chars"]
    groups = pack_spans(split_sentences(document), max_chars, values["overlap_sentences"])
    return ChunkingResult(tuple(
        make_chunk(document, i, start, end, over_size=end - start > max_chars)
        for i, (start, end) in enumerate(groups)
    ))


SPEC = register(
    ChunkerSpec(
        name="sentence",
        params=(max_chars_param(220), overlap_units_param("overlap_sentences", 1)),
        chunk=_run,
        size_axis="max_chars",
        overlap_axis="overlap_sentences",
        size_steps=PACKED_STEPS,
        overlap_steps=(0, 1, 2),
        order=20,
        sweep_position=3,
    )
)
