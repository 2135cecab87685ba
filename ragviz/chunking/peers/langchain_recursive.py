"""LangChain's ``RecursiveCharacterTextSplitter`` with its default separators
("\\n\\n", "\\n", " ", ""), sizes in characters (``length_function=len``, its default)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.peers.common import located, register_window

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    size, overlap = values["chunk_size"], values["chunk_overlap"]
    splitter = RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=overlap)
    return located(document, splitter.split_text(document), overlap)


SPEC = register_window("langchain_recursive", _run, "langchain_text_splitters",
                       library="LangChain", call="RecursiveCharacterTextSplitter", order=200,
                       size=1000, overlap=200)
