"""LangChain's ``MarkdownHeaderTextSplitter`` (sections under #, ## and ### headers,
headers stripped from the text as it does by default and kept as the heading path), each
section then cut by ``RecursiveCharacterTextSplitter`` to ``chunk_size`` characters, the
combination LangChain's documentation shows."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.peers.common import located, register_window

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder

HEADERS = [("#", "Header 1"), ("##", "Header 2"), ("###", "Header 3")]


def split_documents(document: str, chunk_size: int, chunk_overlap: int) -> list[Any]:
    """The library's own pipeline: the header splitter, then the size limit."""
    from langchain_text_splitters import MarkdownHeaderTextSplitter, RecursiveCharacterTextSplitter

    sections = MarkdownHeaderTextSplitter(headers_to_split_on=HEADERS).split_text(document)
    limit = RecursiveCharacterTextSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap)
    return limit.split_documents(sections)


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    overlap = values["chunk_overlap"]
    pieces = split_documents(document, values["chunk_size"], overlap)
    paths = [tuple(str(v) for k, v in piece.metadata.items() if k.startswith("Header"))
             for piece in pieces]
    return located(document, (piece.page_content for piece in pieces), overlap, paths)


SPEC = register_window("langchain_markdown_header", _run, "langchain_text_splitters",
                       library="LangChain",
                       call="MarkdownHeaderTextSplitter + RecursiveCharacterTextSplitter",
                       order=201, size=1000, overlap=200)
