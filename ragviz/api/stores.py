"""``index=`` as ``--index`` takes it (a path or a URL), or a user's vector store object:
LangChain's ``Chroma``, LlamaIndex's ``ChromaVectorStore``, a chromadb ``Collection``, or a
Qdrant store (LangChain's or LlamaIndex's, over a ``QdrantClient``). An object is turned into
the ``--index`` spec and collection it stands for (a bare ``QdrantClient`` with the
``collection`` option), so ragviz reads it as the CLI does: through
its own read-only reader, never through the user's object (a diagnostic tool never writes to
what it diagnoses)."""

from __future__ import annotations

import os
from typing import Any

from ragviz.errors import InputError


def index_spec(index: object, collection: str | None) -> tuple[str, str | None]:
    """The ``--index`` spec and the collection ``index`` stands for."""
    if isinstance(index, str | os.PathLike):
        return os.fspath(index), collection
    chroma = _chroma_collection(index)
    if chroma is not None:
        return _chroma_spec(chroma), collection or str(chroma.name)
    if _module(index).startswith("qdrant_client"):  # a QdrantClient: collection= names one
        return _qdrant_spec(index, index), collection
    client = getattr(index, "client", None) or getattr(index, "_client", None)
    name = getattr(index, "collection_name", None)
    if client is not None and isinstance(name, str) and _module(client).startswith("qdrant"):
        return _qdrant_spec(client, index), collection or name
    raise InputError(key="python.index_type", got=type(index).__name__)


def _module(thing: object) -> str:
    return type(thing).__module__ or ""


def _chroma_collection(index: object) -> Any:
    """The chromadb ``Collection`` of a LangChain or LlamaIndex Chroma store (or itself)."""
    for candidate in (index, getattr(index, "_collection", None)):
        if candidate is not None and _module(candidate).startswith("chromadb") \
                and hasattr(candidate, "name") and hasattr(candidate, "_client"):
            return candidate
    return None


def _chroma_spec(collection: Any) -> str:
    settings = collection._client.get_settings()
    if settings.is_persistent and settings.persist_directory:
        return f"chroma:{settings.persist_directory}"
    host = settings.chroma_server_host
    if host:
        scheme = "https" if settings.chroma_server_ssl_enabled else "http"
        return f"chroma+{scheme}://{host}:{settings.chroma_server_http_port}"
    raise InputError(key="python.index_in_memory", store="Chroma")


def _qdrant_spec(client: Any, store: object) -> str:
    inner = getattr(client, "_client", client)
    location = getattr(inner, "location", None)
    if isinstance(location, str) and location != ":memory:":
        return f"qdrant:{location}"
    uri = getattr(inner, "rest_uri", None)
    if isinstance(uri, str):
        return "qdrant+" + uri
    raise InputError(key="python.index_in_memory", store=type(store).__name__)
