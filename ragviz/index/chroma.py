"""Chroma collections, from a persistent directory or a running server.

No embedding function of Chroma's is ever attached (the default one downloads a model):
collections are opened with ``embedding_function=None`` and only stored vectors are read.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from ragviz.index import base
from ragviz.index.base import CollectionInfo, IndexInputError, LoadedIndex

INSTALL_HINT = "reading a Chroma index needs chromadb: pip install 'ragviz[index]'"
# A server that does not answer is reported within this many seconds.
SERVER_TIMEOUT_S = 5.0
_PAGE = 5_000  # rows per get(), so a large collection is not one huge response


def _chromadb() -> Any:
    try:
        import chromadb
    except ImportError as error:  # pragma: no cover - the extra is installed in tests
        raise IndexInputError(key="index.needs_chromadb") from error
    return chromadb


class ChromaReader:
    """A Chroma client (persistent or HTTP) seen through the ``IndexReader`` protocol."""

    def __init__(self, client: Any, where: str) -> None:
        self._client = client
        self.where = where

    def collections(self) -> list[CollectionInfo]:
        out = []
        for collection in self._client.list_collections():
            handle = self._collection(collection.name)
            out.append(CollectionInfo(collection.name, handle.count(), _dimension(handle)))
        return out

    def read(self, collection: str | None = None) -> LoadedIndex:
        name = collection or self._only_collection()
        handle = self._collection(name)
        chunks: list[base.IndexChunk] = []
        offset = 0
        while True:
            page = handle.get(include=["documents", "metadatas", "embeddings"],
                              limit=_PAGE, offset=offset)
            chunks.extend(_chunks(page, name))
            if len(page["ids"]) < _PAGE:
                break
            offset += _PAGE
        if not chunks:
            raise IndexInputError(key="index.collection_empty", name=repr(name), where=self.where)
        return LoadedIndex(name, tuple(chunks))

    def _only_collection(self) -> str:
        names = [c.name for c in self._client.list_collections()]
        if len(names) == 1:
            return str(names[0])
        if not names:
            raise IndexInputError(key="index.no_collection", where=self.where)
        raise IndexInputError(key="index.several_collections", where=self.where, n=len(names),
                              names=", ".join(sorted(names)))

    def _collection(self, name: str) -> Any:
        chromadb = _chromadb()
        try:
            return self._client.get_collection(name, embedding_function=None)
        except chromadb.errors.NotFoundError:
            names = sorted(c.name for c in self._client.list_collections())
            known = ", ".join(names) if names else "none"
            raise IndexInputError(key="index.unknown_collection", where=self.where,
                                  name=repr(name), known=known) from None


def _dimension(handle: Any) -> int | None:
    page = handle.get(include=["embeddings"], limit=1)
    embeddings = page.get("embeddings")
    if embeddings is None or len(embeddings) == 0:
        return None
    return len(embeddings[0])


def _chunks(page: dict[str, Any], collection: str) -> list[base.IndexChunk]:
    ids = page["ids"]
    documents = page.get("documents") or [None] * len(ids)
    metadatas = page.get("metadatas") or [None] * len(ids)
    embeddings = page.get("embeddings")
    out = []
    for i, chunk_id in enumerate(ids):
        text = documents[i]
        if not isinstance(text, str) or not text:
            continue  # a vector with no document has no text to diagnose
        vector = None if embeddings is None else embeddings[i]
        out.append(base.from_metadata(str(chunk_id), text, dict(metadatas[i] or {}), vector,
                                      f"chunk {chunk_id!r} of {collection!r}"))
    return out


def open_persistent(path: str) -> ChromaReader:
    """A Chroma persistent directory; refused (one sentence) when the folder is not one,
    before Chroma would silently create a new empty database there."""
    folder = Path(path)
    if not folder.is_dir():
        raise IndexInputError(key="index.chroma_not_folder", path=path)
    if not (folder / "chroma.sqlite3").is_file():
        raise IndexInputError(key="index.chroma_no_sqlite", path=path)
    client = _chromadb().PersistentClient(path=str(folder))
    return ChromaReader(client, path)


def open_server(host: str, port: int) -> ChromaReader:
    """A running Chroma server; one sentence within ``SERVER_TIMEOUT_S`` when it does
    not answer (checked with a plain HTTP request before Chroma's client retries)."""
    where = f"the Chroma server at {host}:{port}"
    url = f"http://{host}:{port}/api/v2/heartbeat"
    try:
        with urllib.request.urlopen(url, timeout=SERVER_TIMEOUT_S) as response:
            response.read()
    except (urllib.error.URLError, OSError) as error:
        raise IndexInputError(key="index.server_silent", where=where,
                              reason=_reason(error)) from None
    client = _chromadb().HttpClient(host=host, port=port)
    return ChromaReader(client, where)


def _reason(error: BaseException) -> str:
    reason = getattr(error, "reason", None) or error
    text = str(reason).strip() or type(reason).__name__
    return "timed out" if "timed out" in text.lower() else text
