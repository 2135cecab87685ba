"""Qdrant collections: ``qdrant:DIR`` (the storage qdrant-client's local mode writes, opened on
a copy: the client writes to what it opens) or ``qdrant+http://HOST:PORT`` (a server, every
request bounded by ``--timeout``). Payloads as LangChain writes them (``page_content``,
``metadata``) or LlamaIndex (``_node_content``, a JSON text holding the node); a collection
of named vectors is read through ``--vector-name``. The database mode asks Qdrant's own
search (its HNSW index on a server), ``exact_nearest`` the same with ``exact=True``."""

from __future__ import annotations

import contextlib
import json
import re
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ragviz.errors import IndexInputError, IndexLimitError
from ragviz.i18n import Grouped, Message, message
from ragviz.index import base
from ragviz.index.base import CollectionInfo, IndexChunk, LoadedIndex
from ragviz.index.folder_copy import copy_folder, remove_copy, removed_on_failure
from ragviz.index.messages import NONE
from ragviz.index.qdrant_points import check_storage
from ragviz.index.stores import OpenOptions, Store, register

INSTALL_HINT = "idx.needs_qdrant_client"  # the catalog key naming the package to install
_PAGE = 1_000
_REASON_CHARS = 160
_HTTP = re.compile(r"^qdrant\+http://(?P<host>[^:/\s]+):(?P<port>\d{1,5})/?$")


def _client_class() -> Any:
    try:
        from qdrant_client import QdrantClient
    except ImportError as error:  # pragma: no cover - the extra is installed in tests
        raise IndexInputError(key=INSTALL_HINT) from error
    return QdrantClient


class QdrantReader(base.TwoSearches):
    """A Qdrant client seen through ``IndexReader`` and ``RetrievingIndex``."""

    def __init__(self, client: Any, where: str | Message, vector_name: str | None) -> None:
        self.client, self.where, self.vector_name = client, where, vector_name

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except IndexInputError:
            raise
        except Exception as error:  # the library's and the server's failures alike
            reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise IndexInputError(key="idx.qdrant_error", where=self.where,
                                  reason=reason[:_REASON_CHARS]) from None

    def _names(self) -> list[str]:
        return sorted(c.name for c in self.client.get_collections().collections)

    def _name(self, collection: str | None) -> str:
        names = self._names()
        if collection is None:
            if len(names) == 1:
                return names[0]
            if not names:
                raise IndexInputError(key="idx.holds_no_collection", where=self.where)
            raise IndexInputError(key="idx.several_collections", where=self.where,
                                  n=len(names), names=", ".join(names))
        if collection not in names:
            raise IndexInputError(key="idx.no_collection", where=self.where,
                                  name=collection, known=", ".join(names) or NONE)
        return collection

    def _vector(self, name: str) -> tuple[str | None, int | None]:
        """The vector read (None: the collection's only, unnamed one) and its dimension."""
        vectors = self.client.get_collection(name).config.params.vectors
        if not isinstance(vectors, dict):
            return None, None if vectors is None else int(vectors.size)
        if self.vector_name in vectors:
            return self.vector_name, int(vectors[self.vector_name].size)
        if self.vector_name is None and len(vectors) == 1:
            only = next(iter(vectors))
            return str(only), int(vectors[only].size)
        raise IndexInputError(key="idx.qdrant_vector_name", name=name,
                              names=", ".join(sorted(vectors)))

    def collections(self) -> list[CollectionInfo]:
        with self._guard():
            return [self._listed(name) for name in self._names()]

    def _listed(self, name: str) -> CollectionInfo:
        """A collection's line in a listing: one of several named vectors not chosen
        leaves its dimension unknown rather than stopping the listing."""
        try:
            return self._info(name)
        except IndexInputError:
            return CollectionInfo(name, int(self.client.count(name, exact=True).count), None)

    def info(self, collection: str | None = None) -> CollectionInfo:
        with self._guard():
            return self._info(self._name(collection))

    def _info(self, name: str) -> CollectionInfo:
        count = int(self.client.count(name, exact=True).count)
        return CollectionInfo(name, count, self._vector(name)[1])

    def read(self, collection: str | None = None) -> LoadedIndex:
        with self._guard():
            name = self._name(collection)
            using = self._vector(name)[0]
            chunks: list[IndexChunk] = []
            offset = None
            while True:
                points, offset = self.client.scroll(
                    name, limit=_PAGE, offset=offset, with_payload=True,
                    with_vectors=[using] if using else True)
                chunks.extend(c for c in (self._chunk(p, name, using) for p in points) if c)
                if offset is None:
                    break
        if not chunks:
            raise IndexInputError(key="idx.empty_collection", name=name, where=self.where)
        return LoadedIndex(name, tuple(chunks))

    def _chunk(self, point: Any, name: str, using: str | None) -> IndexChunk | None:
        text, metadata = payload_text(point.payload or {})
        if not text:
            return None
        if len(text) > base.MAX_CHUNK_CHARS:  # a server's point: measured once received
            raise IndexLimitError(key="idx.qdrant_chunk_too_long", where=self.where,
                                  collection=name, id=str(point.id)[:80], n=len(text),
                                  limit=Grouped(base.MAX_CHUNK_CHARS))
        vector = point.vector
        if isinstance(vector, dict):
            vector = vector.get(using) if using else next(iter(vector.values()), None)
        return base.from_metadata(str(point.id), text, metadata, vector,
                                  f"point {point.id} of {name}")

    def _nearest(self, collection: str, queries: base.Vector, n_results: int,
                 exact: bool) -> list[list[IndexChunk]]:
        from qdrant_client.models import SearchParams

        with self._guard():
            using = self._vector(collection)[0]
            out = []
            for query in queries:
                points = self.client.query_points(
                    collection, query=[float(x) for x in query], using=using,
                    limit=n_results, with_payload=True, with_vectors=[using] if using else True,
                    search_params=SearchParams(exact=exact)).points
                out.append([c for c in (self._chunk(p, collection, using) for p in points)
                            if c])
            return out

    def containing(self, collection: str, text: str, limit: int) -> list[IndexChunk]:
        """The points whose text holds ``text``: a text match on LangChain's
        ``page_content`` or on LlamaIndex's ``_node_content`` (the text as JSON writes it),
        each kept only when its text holds ``text`` exactly."""
        from qdrant_client.models import FieldCondition, Filter, MatchText

        forms = {("page_content", text), ("text", text),
                 *(("_node_content", json.dumps(text, ensure_ascii=ascii)[1:-1])
                   for ascii in (False, True))}
        found: dict[str, IndexChunk] = {}
        with self._guard():
            using = self._vector(collection)[0]
            for key, form in sorted(forms):
                points, _ = self.client.scroll(
                    collection, limit=limit, with_payload=True,
                    with_vectors=[using] if using else True,
                    scroll_filter=Filter(must=[FieldCondition(key=key,
                                                              match=MatchText(text=form))]))
                for point in points:
                    chunk = self._chunk(point, collection, using)
                    if chunk is not None and text in chunk.text:
                        found.setdefault(chunk.id, chunk)
        return list(found.values())[:limit]

    def search_settings(self, collection: str) -> str:
        """The setting that governs the recall of Qdrant's HNSW search."""
        with self._guard():
            hnsw = self.client.get_collection(collection).config.hnsw_config
        return (f"hnsw_ef in the search parameters (or the collection's ef_construct, now "
                f"{getattr(hnsw, 'ef_construct', '?')})")


def payload_text(payload: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A point's text and metadata: LangChain's ``page_content`` and ``metadata``, or
    LlamaIndex's node inside ``_node_content`` (its offsets brought up)."""
    text = payload.get("page_content")
    if isinstance(text, str):
        metadata = payload.get("metadata")
        return text, dict(metadata) if isinstance(metadata, dict) else {}
    metadata = base.flat_metadata(payload)
    node = payload.get("_node_content")
    if isinstance(node, str):
        with contextlib.suppress(ValueError, RecursionError):
            inner = json.loads(node)
            if isinstance(inner, dict) and isinstance(inner.get("text"), str):
                text = inner["text"]
    if not isinstance(text, str):
        text = payload.get("text")
    return (text if isinstance(text, str) else ""), metadata


def _is_qdrant_dir(path: Path) -> bool:
    return path.is_dir() and (path / "meta.json").is_file() and (path / "collection").is_dir()


def open_local(path: str, vector_name: str | None, shown: str | None = None) -> QdrantReader:
    """qdrant-client's local-mode storage, opened on a copy of it (``folder_copy``: no link
    followed) whose every point was checked first (``qdrant_points``: the client unpickles
    them, so nothing but point classes may be in them)."""
    name = shown or path
    folder = Path(path)
    if not _is_qdrant_dir(folder):
        raise IndexInputError(key="idx.not_qdrant_dir", path=name)
    client_class = _client_class()
    copy = copy_folder(folder, name, "ragviz-qdrant-", skip=frozenset({".lock"}))
    with removed_on_failure(copy):
        check_storage(copy, name, lambda payload: payload_text(payload)[0])
        try:
            client = client_class(path=str(copy))
        except Exception as error:
            raise IndexInputError(key="idx.qdrant_error", where=name,
                                  reason=str(error)[:_REASON_CHARS]) from None
    reader = QdrantReader(client, name, vector_name)
    weakref.finalize(reader, _release, client, copy)
    return reader


def _release(client: Any, copy: Path) -> None:
    with contextlib.suppress(Exception):
        client.close()
    remove_copy(copy)


def _open(spec: str, options: OpenOptions) -> QdrantReader:
    vector_name = options.extra.get("vector_name")
    if spec.startswith("qdrant+http://"):
        match = _HTTP.match(spec)
        if match is None:
            raise IndexInputError(key="idx.qdrant_address", spec=repr(spec))
        where = message("idx.qdrant_where", target=f"{match['host']}:{match['port']}")
        client = _client_class()(host=match["host"], port=int(match["port"]), https=False,
                                 timeout=max(1, round(options.timeout)), prefer_grpc=False)
        return QdrantReader(client, where, vector_name)
    return open_local(spec.removeprefix("qdrant:"), vector_name)


STORE = register(Store("qdrant", _open, schemes=("qdrant+http://", "qdrant:"),
                       server_schemes=("qdrant+http://",), detect=_is_qdrant_dir,
                       can_retrieve=True, can_find_text=True, lists_collections=True,
                       forms=("qdrant:DIR", "qdrant+http://HOST:PORT")))
