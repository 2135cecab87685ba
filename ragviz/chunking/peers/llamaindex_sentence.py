"""LlamaIndex's ``SentenceSplitter`` counting the chosen model's tokens (its default
tokenizer, tiktoken's, downloads its table on first use; ragviz stays offline): sentences
packed up to ``chunk_size`` tokens, ``chunk_overlap`` tokens repeated."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.params import TOKENS
from ragviz.chunking.peers.common import located, register_window
from ragviz.errors import InputError

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from llama_index.core.node_parser import SentenceSplitter

    if embedder is None:
        raise InputError(key="param.needs_model", name="llamaindex_sentence")
    splitter = SentenceSplitter(chunk_size=values["chunk_size"],
                                chunk_overlap=values["chunk_overlap"],
                                tokenizer=embedder.token_spans)
    # The overlap counts tokens, not characters: a repeated chunk is looked for from just
    # after the previous one's start.
    overlap = len(document) if values["chunk_overlap"] else 0
    return located(document, splitter.split_text(document), overlap)


SPEC = register_window("llamaindex_sentence", _run, "llama_index.core", library="LlamaIndex",
                       call="SentenceSplitter", order=230, size=256, overlap=20, unit=TOKENS)
