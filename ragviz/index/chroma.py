"""Chroma collections, from a persistent directory or a running server.

No embedding function of Chroma's is ever attached (the default one downloads a model):
collections are opened with ``embedding_function=None`` and only stored vectors are read.
"""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from ragviz.index import base
from ragviz.index.base import CollectionInfo, IndexInputError, LoadedIndex
from ragviz.index.messages import Sentence

INSTALL_HINT = "reading a Chroma index needs chromadb: pip install 'ragviz[index]'"
# A server that does not answer is reported within this many seconds.
SERVER_TIMEOUT_S = 5.0
_PAGE = 5_000  # rows per get(), so a large collection is not one huge response


def _chromadb() -> Any:
    try:
        import chromadb
    except ImportError as error:  # pragma: no cover - the extra is installed in tests
        raise IndexInputError(INSTALL_HINT) from error
    return chromadb


class ChromaReader:
    """A Chroma client (persistent or HTTP) seen through the ``IndexReader`` protocol."""

    def __init__(self, client: Any, where: str) -> None:
        self._client = client
        self.where = where

    def collections(self) -> list[CollectionInfo]:
        out = []
        for name in sorted(c.name for c in self._client.list_collections()):
            handle = self._collection(name)
            out.append(CollectionInfo(name, handle.count(), _dimension(handle)))
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
            raise IndexInputError(Sentence("empty_collection", name=name, where=self.where))
        return LoadedIndex(name, tuple(chunks))

    def info(self, collection: str | None = None) -> CollectionInfo:
        name = collection or self._only_collection()
        handle = self._collection(name)
        return CollectionInfo(name, handle.count(), _dimension(handle))

    def nearest(self, collection: str, queries: base.Vector,
                n_results: int) -> list[list[base.IndexChunk]]:
        """The database's own nearest-neighbour search on vectors ragviz computed."""
        if len(queries) == 0:
            return []
        found = self._collection(collection).query(
            query_embeddings=queries, n_results=n_results,
            include=["documents", "metadatas", "embeddings"])
        return [_chunks({key: _row(found.get(key), row) for key in
                         ("ids", "documents", "metadatas", "embeddings")}, collection)
                for row in range(len(queries))]

    def containing(self, collection: str, text: str, limit: int) -> list[base.IndexChunk]:
        """The database's text filter (``$contains``, exact and case-sensitive)."""
        page = self._collection(collection).get(
            where_document={"$contains": text}, limit=limit,
            include=["documents", "metadatas", "embeddings"])
        return _chunks(page, collection)

    def _only_collection(self) -> str:
        names = [c.name for c in self._client.list_collections()]
        if len(names) == 1:
            return str(names[0])
        if not names:
            raise IndexInputError(Sentence("holds_no_collection", where=self.where))
        raise IndexInputError(key="index.several_collections", where=self.where, n=len(names),
                              names=", ".join(sorted(names)))

    def _collection(self, name: str) -> Any:
        chromadb = _chromadb()
        try:
            return self._client.get_collection(name, embedding_function=None)
        except chromadb.errors.NotFoundError:
            names = sorted(c.name for c in self._client.list_collections())
            known = ", ".join(names) if names else "none"
            raise IndexInputError(Sentence("no_collection", where=self.where, name=name,
                                           known=known)) from None


def _row(column: Any, row: int) -> Any:
    """Row ``row`` of a ``query`` result column (None when the column was not returned)."""
    return None if column is None else column[row]


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


def open_persistent(path: str, shown: str | None = None) -> ChromaReader:
    """A Chroma persistent directory; refused (one sentence) when the folder is not one,
    before Chroma would silently create a new empty database there. ``shown`` names it in
    sentences (an upload's name rather than the folder it was unpacked into)."""
    folder = Path(path)
    if not folder.is_dir():
        raise IndexInputError(Sentence("not_folder", path=path))
    if not (folder / "chroma.sqlite3").is_file():
        raise IndexInputError(Sentence("not_chroma_dir", path=path))
    chromadb = _chromadb()
    try:
        client = chromadb.PersistentClient(path=str(folder))
    except chromadb.errors.ChromaError as error:  # a chroma.sqlite3 that is no database
        # Chroma keeps the half-made client of that path: opening it again (the same upload
        # twice) would raise AttributeError from its bindings instead of this sentence.
        _forget_failed_client(str(folder))
        raise IndexInputError(Sentence("chroma_unreadable", path=shown or path,
                                       reason=str(error))) from None
    return ChromaReader(client, shown or path)


def _forget_failed_client(path: str) -> None:
    """Drop Chroma's cached system for ``path`` only (other sessions' clients stay)."""
    from chromadb.api.shared_system_client import SharedSystemClient

    SharedSystemClient._identifier_to_system.pop(path, None)
    SharedSystemClient._identifier_to_refcount.pop(path, None)


def open_server(host: str, port: int) -> ChromaReader:
    """A running Chroma server; one sentence within ``SERVER_TIMEOUT_S`` when it does
    not answer (checked with a plain HTTP request before Chroma's client retries)."""
    where = f"the Chroma server at {host}:{port}"
    url = f"http://{host}:{port}/api/v2/heartbeat"
    try:
        with urllib.request.urlopen(url, timeout=SERVER_TIMEOUT_S) as response:
            response.read()
    except (urllib.error.URLError, OSError) as error:
        raise IndexInputError(Sentence("server_silent", host=host, port=port,
                                       reason=_reason(error))) from None
    client = _chromadb().HttpClient(host=host, port=port)
    return ChromaReader(client, where)


def _reason(error: BaseException) -> str:
    reason = getattr(error, "reason", None) or error
    text = re.sub(r"^\[Errno -?\d+\]\s*", "", str(reason).strip()) or type(reason).__name__
    return "timed out" if "timed out" in text.lower() else text
