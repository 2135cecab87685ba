"""A user's own splitter object as a ragviz chunker: LangChain's ``TextSplitter``,
LlamaIndex's ``NodeParser``, a Chonkie chunker, or any callable ``str -> list[str]``.

Nothing of those libraries is imported here: the object is asked through the methods it has
(``split_text``, ``get_nodes_from_documents``, ``chunk``), and its texts are located in the
document as the peer wrappers locate theirs (``ragviz.chunking.peers.common``), so offsets
stay the truth. A text that is not in the document is an error that quotes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ragviz.chunking import ChunkerConfig
from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.peers.common import find_text, located, quiet_chonkie, with_offsets
from ragviz.errors import InputError
from ragviz.inputs.documents import shorten

ChunkText = Callable[[str], ChunkingResult]


def library_of(thing: object) -> str:
    """The top-level package that defines ``thing``'s class (``langchain_text_splitters``)."""
    return (type(thing).__module__ or "").split(".")[0]


def user_chunker(chunker: object) -> tuple[ChunkerConfig, ChunkText]:
    """The configuration that names a user's splitter (its class, with its size and overlap
    when it has them) and the function that chunks one text with it."""
    if isinstance(chunker, str | ChunkerConfig) or not (
            callable(chunker) or any(hasattr(chunker, m) for m in
                                     ("split_text", "get_nodes_from_documents", "chunk"))):
        raise InputError(key="python.chunker_type", got=type(chunker).__name__)
    name = getattr(chunker, "__name__", None) if _is_function(chunker) else None
    label = name or type(chunker).__name__
    values = {k: v for k, v in (("chunk_size", _size(chunker, "chunk_size")),
                                ("chunk_overlap", _size(chunker, "chunk_overlap")))
              if v is not None}
    return ChunkerConfig(label, values), lambda text: chunk_with(chunker, text)


def _is_function(thing: object) -> bool:
    return callable(thing) and not any(hasattr(thing, m) for m in
                                       ("split_text", "get_nodes_from_documents", "chunk"))


def _size(chunker: object, name: str) -> int | None:
    """LangChain keeps ``_chunk_size``/``_chunk_overlap``; LlamaIndex and Chonkie
    ``chunk_size``/``chunk_overlap``."""
    for attribute in (f"_{name}", name):
        value = getattr(chunker, attribute, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def chunk_with(chunker: Any, document: str) -> ChunkingResult:
    """``document`` chunked by ``chunker``, every chunk at its exact offsets."""
    library = library_of(chunker)
    if library == "chonkie" and hasattr(chunker, "chunk"):
        quiet_chonkie()
        return with_offsets(document, chunker.chunk(document))
    if hasattr(chunker, "split_text"):
        texts = list(chunker.split_text(document))
        overlap = _size(chunker, "chunk_overlap")
        if library.startswith("llama_index") and overlap:  # tokens, not characters
            overlap = len(document)
        return _located(document, texts, len(document) if overlap is None else overlap)
    if hasattr(chunker, "get_nodes_from_documents"):
        from llama_index.core import Document  # the user's LlamaIndex, present: they gave one

        nodes = chunker.get_nodes_from_documents([Document(text=document)])
        return _located(document, [node.get_content() for node in nodes], len(document))
    if hasattr(chunker, "chunk"):
        return with_offsets(document, chunker.chunk(document))
    texts = chunker(document)
    if isinstance(texts, str) or not isinstance(texts, Sequence) \
            or not all(isinstance(t, str) for t in texts):
        raise InputError(key="python.chunker_returns", got=type(texts).__name__)
    return _located(document, list(texts), len(document))


def _located(document: str, texts: list[str], overlap: int) -> ChunkingResult:
    """``located``, with a text the document lacks named in the error."""
    try:
        return located(document, texts, overlap)
    except ValueError:
        for text in texts:
            try:
                find_text(document, text, 0)
            except ValueError:
                raise InputError(key="python.chunk_not_found",
                                 text=shorten(text, 80, quote=True)) from None
        raise
