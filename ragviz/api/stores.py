"""``index=`` as ``--index`` takes it (a path or a URL), or a user's vector store object:
LangChain's ``Chroma``, LlamaIndex's ``ChromaVectorStore``, a chromadb ``Collection``, a
Qdrant store (LangChain's or LlamaIndex's, over a ``QdrantClient``), or a Postgres store
(LangChain's ``PGVector``, LlamaIndex's ``PGVectorStore``). An object is turned into the
``--index`` spec and collection it stands for (a bare ``QdrantClient`` with the
``collection`` option; a Postgres store's SQLAlchemy URL as the libpq URI ``--index
postgresql://`` takes, its collection or ``data_<table>`` table as the collection), so ragviz
reads it as the CLI does: through its own read-only reader, never through the user's object
(a diagnostic tool never writes to what it diagnoses)."""

from __future__ import annotations

import os
import re
from typing import Any

from ragviz.errors import InputError


def index_spec(index: object, collection: str | None) -> tuple[str, str | None]:
    """The ``--index`` spec and the collection ``index`` stands for."""
    if isinstance(index, str | os.PathLike):
        return os.fspath(index), collection
    chroma = _chroma_collection(index)
    if chroma is not None:
        return _chroma_spec(chroma), collection or str(chroma.name)
    postgres = _postgres(index)
    if postgres is not None:
        return postgres[0], collection or postgres[1]
    if _module(index).startswith("qdrant_client"):  # a QdrantClient: collection= names one
        return _qdrant_spec(index, index), collection
    client = getattr(index, "client", None) or getattr(index, "_client", None)
    name = getattr(index, "collection_name", None)
    if client is not None and isinstance(name, str) and _module(client).startswith("qdrant"):
        return _qdrant_spec(client, index), collection or name
    raise InputError(key="python.index_type", got=type(index).__name__)


# The modules of the Postgres stores read by their layout: LangChain's ``PGVector`` (its two
# ``langchain_pg_*`` tables, one collection per row) and LlamaIndex's ``PGVectorStore`` (one
# ``data_<table_name>`` table); another class of theirs (LangChain's ``PGVectorStore`` over a
# table of the user's columns) is told to give the URI with ``table=`` and its columns.
_LANGCHAIN_PG = ("langchain_postgres.vectorstores", "langchain_community.vectorstores.pgvector")
_LLAMA_PG = "llama_index.vector_stores.postgres"
_DRIVER = re.compile(r"^postgres(?:ql)?\+[\w.]+://", re.IGNORECASE)


def _postgres(index: Any) -> tuple[str, str] | None:
    """The libpq URI and the collection of a LangChain or LlamaIndex Postgres store (None:
    not one); another Postgres store of theirs is an error naming the URI to give."""
    module = _module(index)
    if module.startswith(_LANGCHAIN_PG) and isinstance(getattr(index, "collection_name", None),
                                                       str):
        url = getattr(index, "connection_string", None)  # langchain_community's, public
        if not isinstance(url, str):  # langchain-postgres keeps only its engine
            engine = next((e for e in (getattr(index, name, None) for name in (
                "_engine", "_async_engine", "_bind")) if e is not None), None)
            url = getattr(getattr(engine, "engine", engine), "url", None)  # a Connection's too
        return _libpq(url, index), str(index.collection_name)
    if module.startswith(_LLAMA_PG) and isinstance(getattr(index, "table_name", None), str):
        engine = getattr(index, "client", None)  # the engine once the store has connected
        url = engine.url if engine is not None else getattr(index, "connection_string", None)
        table = f"data_{index.table_name}"
        schema = getattr(index, "schema_name", "public") or "public"
        return _libpq(url, index), table if schema == "public" else f"{schema}.{table}"
    if module.startswith(("langchain_postgres", _LLAMA_PG, "langchain_community.vectorstores.pg")):
        raise InputError(key="python.index_pg_other", got=type(index).__name__)
    return None


def _libpq(url: Any, store: object) -> str:
    """A SQLAlchemy URL (``postgresql+psycopg://...``) or connection string as the libpq URI
    ``--index`` takes (the driver's name dropped, the password kept to connect)."""
    if hasattr(url, "render_as_string"):
        url = url.render_as_string(hide_password=False)
    if not isinstance(url, str) or not url.strip():
        raise InputError(key="python.index_pg_other", got=type(store).__name__)
    return _DRIVER.sub("postgresql://", url.strip())


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
