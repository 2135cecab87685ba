"""Chonkie's ``SentenceChunker`` with ``tokenizer="character"``: whole sentences packed up
to ``chunk_size`` characters, ``chunk_overlap`` characters of sentences repeated."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.params import SENTENCES
from ragviz.chunking.peers.common import library_param, quiet_chonkie, register_window, with_offsets

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from chonkie import SentenceChunker

    quiet_chonkie()

    chunker = SentenceChunker(tokenizer="character", chunk_size=values["chunk_size"],
                              chunk_overlap=values["chunk_overlap"],
                              min_sentences_per_chunk=values["min_sentences_per_chunk"])
    return with_offsets(document, chunker.chunk(document))


SPEC = register_window(
    "chonkie_sentence", _run, "chonkie", library="Chonkie",
    call='SentenceChunker(tokenizer="character", …)', order=211, size=512, overlap=0,
    more=(library_param("min_sentences_per_chunk", 1, 1, SENTENCES, fits_document=None),),
)
