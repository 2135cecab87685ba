"""LangChain's ``CharacterTextSplitter``: split at its default separator "\\n\\n", merge
the pieces up to ``chunk_size`` characters (a longer piece stays whole, as in LangChain)."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.peers.common import located, register_window

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from langchain_text_splitters import CharacterTextSplitter

    size, overlap = values["chunk_size"], values["chunk_overlap"]
    splitter = CharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    # LangChain logs a warning for every piece longer than chunk_size; the chunks show it.
    logging.getLogger("langchain_text_splitters.base").setLevel(logging.ERROR)
    return located(document, splitter.split_text(document), overlap)


SPEC = register_window("langchain_character", _run, "langchain_text_splitters",
                       library="LangChain", call="CharacterTextSplitter", order=202,
                       size=1000, overlap=200)
