"""semchunk's ``chunk`` with the chosen model's token counter: chunks of at most
``chunk_size`` of the model's tokens, ``overlap`` tokens repeated, semchunk's own offsets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.params import TOKENS
from ragviz.chunking.peers.common import chunks_at, register_window
from ragviz.chunking.text import Span
from ragviz.errors import InputError

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from semchunk.semchunk import chunk

    if embedder is None:
        raise InputError(key="param.needs_model", name="semchunk")
    overlap = values["overlap"] or None  # semchunk's default: no overlap
    _texts, offsets = chunk(document, values["chunk_size"], embedder.count_tokens,
                            offsets=True, overlap=overlap)
    return ChunkingResult(chunks_at(document, cast("list[Span]", offsets)))


SPEC = register_window("semchunk", _run, "semchunk", library="semchunk", call="semchunk.chunk",
                       order=220, size=128, overlap=0, unit=TOKENS, overlap_name="overlap")
