"""Chroma collections, from a persistent directory or a running server.

No embedding function of Chroma's is ever attached (the default one downloads a model):
collections are opened with ``embedding_function=None`` and only stored vectors are read.

A diagnostic tool never writes to what it diagnoses: Chroma writes to a directory it merely
opens (its database, its HNSW files, even a 0-byte ``chroma.sqlite3`` made a new database),
so a directory is copied to a temporary folder and the copy is opened. The copy is opened in
a child process (``chroma_process``): Chroma reads its HNSW files in native code, and a
damaged one can kill the process reading it, which must never be the CLI or the app's
server. A server's client reads no HNSW file (the server does) and stays in-process.

A server is asked with a timeout on every request and no redirect followed (a redirect could
point anywhere the allowed server chooses); whatever Chroma or the server raises becomes one
sentence.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib.util
import re
import threading
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from ragviz.errors import IndexInputError
from ragviz.index import base
from ragviz.index.base import CollectionInfo, LoadedIndex
from ragviz.index.chroma_process import ChildClient, ChildError, ReaderStoppedError
from ragviz.index.folder_copy import copy_folder, remove_copy, removed_on_failure
from ragviz.index.messages import NONE
from ragviz.index.stores import REQUEST_TIMEOUT_S, OpenOptions, Store, register
from ragviz.inputs.documents import shorten

INSTALL_HINT = "idx.needs_chromadb"  # the catalog key naming the package to install
# A server that does not answer its heartbeat is reported within this many seconds.
SERVER_TIMEOUT_S = 5.0
_PAGE = 5_000  # rows per get(), so a large collection is not one huge response
_REASON_CHARS = 160  # a library's reason quoted in a sentence at most
T = TypeVar("T")


def _chromadb() -> Any:
    try:
        import chromadb
    except ImportError as error:  # pragma: no cover - the extra is installed in tests
        raise IndexInputError(key=INSTALL_HINT) from error
    return chromadb


class ChromaReader:
    """A Chroma client (persistent or HTTP) seen through the ``IndexReader`` protocol; every
    call goes through ``_guard`` (one sentence for whatever the library or server raises)."""

    def __init__(self, client: Callable[[], Any], where: str, guard: _Guard) -> None:
        self._make = client  # a server's client is made on first use, after set_timeout
        self._made: Any = None
        self.where = where
        self._guard = guard

    @property
    def _client(self) -> Any:
        if self._made is None:
            self._made = self._make()
        return self._made

    def set_timeout(self, seconds: float) -> None:
        """Every later request to a server waits at most ``seconds`` (``--timeout``)."""
        self._guard = dataclasses.replace(self._guard, timeout=seconds)
        if self._made is not None and self._guard.server is not None:
            _bound(self._made, seconds)

    def collections(self) -> list[CollectionInfo]:
        with self._guard():
            out = []
            for name in sorted(c.name for c in self._client.list_collections()):
                handle = self._collection(name)
                out.append(CollectionInfo(str(name), int(handle.count()), _dimension(handle)))
            return out

    def read(self, collection: str | None = None) -> LoadedIndex:
        with self._guard():
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
            raise IndexInputError(key="idx.empty_collection", name=name, where=self.where)
        return LoadedIndex(name, tuple(chunks))

    def info(self, collection: str | None = None) -> CollectionInfo:
        with self._guard():
            name = collection or self._only_collection()
            handle = self._collection(name)
            return CollectionInfo(name, int(handle.count()), _dimension(handle))

    def nearest(self, collection: str, queries: base.Vector,
                n_results: int) -> list[list[base.IndexChunk]]:
        """The database's own nearest-neighbour search on vectors ragviz computed."""
        if len(queries) == 0:
            return []
        with self._guard():
            found = self._collection(collection).query(
                query_embeddings=queries, n_results=n_results,
                include=["documents", "metadatas", "embeddings"])
            return [_chunks({key: _row(found.get(key), row) for key in
                             ("ids", "documents", "metadatas", "embeddings")}, collection)
                    for row in range(len(queries))]

    def containing(self, collection: str, text: str, limit: int) -> list[base.IndexChunk]:
        """The database's text filter (``$contains``, exact and case-sensitive)."""
        with self._guard():
            page = self._collection(collection).get(
                where_document={"$contains": text}, limit=limit,
                include=["documents", "metadatas", "embeddings"])
            return _chunks(page, collection)

    def exact_nearest(self, collection: str, queries: base.Vector,
                      n_results: int) -> list[list[base.IndexChunk]]:
        """The true nearest chunks by cosine, by brute force: every stored vector fetched
        page by page (only each query's best ``n_results`` kept), then those chunks read."""
        if len(queries) == 0 or n_results == 0:
            return []
        best_ids = [np.empty(0, dtype=object) for _ in queries]
        best_scores = [np.empty(0, dtype=np.float32) for _ in queries]
        with self._guard():
            handle = self._collection(collection)
            offset = 0
            while True:
                page = handle.get(include=["embeddings"], limit=_PAGE, offset=offset)
                ids = np.asarray(page["ids"], dtype=object)
                if len(ids):
                    matrix = np.asarray(page["embeddings"], dtype=np.float32)
                    matrix /= np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-30)
                    scores = np.asarray(queries, np.float32) @ matrix.T
                    for q in range(len(queries)):
                        pool_ids = np.concatenate([best_ids[q], ids])
                        pool = np.concatenate([best_scores[q], scores[q]])
                        keep = np.argsort(-pool, kind="stable")[:n_results]
                        best_ids[q], best_scores[q] = pool_ids[keep], pool[keep]
                if len(ids) < _PAGE:
                    break
                offset += _PAGE
            wanted = sorted({str(i) for row in best_ids for i in row})
            found = {c.id: c for c in _chunks(handle.get(
                ids=wanted, include=["documents", "metadatas", "embeddings"]), collection)}
        return [[found[str(i)] for i in row if str(i) in found] for row in best_ids]

    def search_settings(self, collection: str) -> str:
        """The setting that governs the recall of Chroma's HNSW search."""
        with self._guard():
            configuration = getattr(self._collection(collection), "configuration", None) or {}
        hnsw = configuration.get("hnsw") if isinstance(configuration, dict) else None
        value = hnsw.get("ef_search") if isinstance(hnsw, dict) else None
        return f"the collection's hnsw:search_ef (now {value if value is not None else 100})"

    def _only_collection(self) -> str:
        names = [c.name for c in self._client.list_collections()]
        if len(names) == 1:
            return str(names[0])
        if not names:
            raise IndexInputError(key="idx.holds_no_collection", where=self.where)
        raise IndexInputError(key="idx.several_collections", where=self.where, n=len(names),
                              names=", ".join(sorted(names)))

    def _collection(self, name: str) -> Any:
        try:
            return self._client.get_collection(name, embedding_function=None)
        except Exception as error:
            if not _missing(error):
                raise
            names = sorted(c.name for c in self._client.list_collections())
            known = ", ".join(names) if names else NONE
            raise IndexInputError(key="idx.no_collection", where=self.where, name=name,
                                  known=known) from None


def _missing(error: Exception) -> bool:
    """Whether ``error`` says the collection does not exist (in the child or a server)."""
    if isinstance(error, ChildError | ReaderStoppedError):  # no chromadb in this process
        return isinstance(error, ChildError) and error.missing
    return isinstance(error, _chromadb().errors.NotFoundError)


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


def _settings() -> Any:
    """Chroma's settings for ragviz's clients: no product telemetry sent anywhere."""
    from chromadb.config import Settings

    return Settings(anonymized_telemetry=False)


# --- a persistent directory, read through a copy ---------------------------------------

def open_persistent(path: str, shown: str | None = None) -> ChromaReader:
    """A Chroma persistent directory, opened on a copy of it (Chroma writes to what it
    opens); refused (one sentence) when the folder is not one. ``shown`` names it in
    sentences (an upload's name rather than the folder it was unpacked into)."""
    name = shown or path
    if not path.strip():
        raise IndexInputError(key="idx.chroma_path_empty")
    folder = Path(path)
    if not folder.is_dir():
        raise IndexInputError(key="idx.not_folder", path=path)
    if not (folder / "chroma.sqlite3").is_file():
        raise IndexInputError(key="idx.not_chroma_dir", path=path)
    if importlib.util.find_spec("chromadb") is None:  # pragma: no cover - installed in tests
        raise IndexInputError(key=INSTALL_HINT)
    copy = copy_folder(folder, name, "ragviz-chroma-")
    with removed_on_failure(copy):
        guard = _Guard(name, str(copy))
        client = ChildClient(str(copy))
        try:
            with guard():
                client.start()
        except BaseException:
            client.close()
            raise
    reader = ChromaReader(lambda: client, name, guard)
    weakref.finalize(reader, _release, str(copy), client)
    return reader


def _release(copy: str, client: ChildClient) -> None:
    """End the child reading ``copy``, and remove the copy."""
    client.close()
    remove_copy(Path(copy))


@dataclass(frozen=True)
class _Guard:
    """What names a reader in its sentences: ``name`` as the user gave it, the temporary
    copy's path (never shown), a server's description and its request timeout."""

    name: str
    copy: str = ""
    server: str | None = None
    timeout: float = REQUEST_TIMEOUT_S

    @contextlib.contextmanager
    def __call__(self) -> Iterator[None]:
        """Whatever Chroma (or a server through it) raises, as one sentence; ragviz's own
        sentences and Ctrl-C pass through."""
        try:
            yield
        except IndexInputError:
            raise
        except Exception as error:  # a library's and a server's failures alike
            raise self.sentence(error) from None

    def sentence(self, error: BaseException) -> IndexInputError:
        import httpx

        if self.server is not None and isinstance(error, httpx.TimeoutException | TimeoutError):
            return IndexInputError(key="idx.server_timeout", where=self.server,
                                   seconds=_seconds(self.timeout))
        if self.server is not None and isinstance(error, _RedirectError):
            return IndexInputError(key="idx.server_redirects", where=self.server,
                                   status=error.status)
        if isinstance(error, ReaderStoppedError):  # native code died on the directory's files
            if error.signal is not None:
                return IndexInputError(key="idx.chroma_damaged_signal", path=self.name,
                                       signal=error.signal)
            return IndexInputError(key="idx.chroma_damaged_exit", path=self.name,
                                   code=error.code)
        reason = _reason(error)
        if self.copy:
            reason = reason.replace(self.copy, self.name)
        reason = shorten(" ".join(reason.split()), _REASON_CHARS) or type(error).__name__
        if self.server is None:
            return IndexInputError(key="idx.chroma_unreadable", path=self.name, reason=reason)
        if isinstance(error, _chromadb().errors.ChromaError):  # the server's own refusal
            return IndexInputError(key="idx.server_error", where=self.server, reason=reason)
        # anything else (JSON that does not parse, ragged vectors...) is no Chroma answer:
        # the library's words about it would not help
        return IndexInputError(key="idx.server_garbled", where=self.server)


def _seconds(value: float) -> str:
    return f"{value:g}"


def _reason(error: BaseException) -> str:
    reason = getattr(error, "reason", None) or error
    text = re.sub(r"^\[Errno -?\d+\]\s*", "", str(reason).strip()) or type(reason).__name__
    return "timed out" if "timed out" in text.lower() else text


# --- a server: a timeout on every request, no redirect followed ------------------------

class _RedirectError(Exception):
    """A server's answer pointing elsewhere (never followed: it could point anywhere)."""

    def __init__(self, status: int) -> None:
        super().__init__(f"HTTP {status}")
        self.status = status


def open_server(host: str, port: int, timeout: float = REQUEST_TIMEOUT_S) -> ChromaReader:
    """A running Chroma server: one sentence within ``SERVER_TIMEOUT_S`` when its heartbeat
    does not answer (a plain request, before Chroma's client), and within ``timeout`` for
    every later request; a redirect is refused, never followed."""
    where = f"the Chroma server at {host}:{port}"
    guard = _Guard(where, server=where, timeout=timeout)
    _heartbeat(host, port, min(timeout, SERVER_TIMEOUT_S), guard)
    reader = ChromaReader(lambda: _connect(host, port, reader._guard), where, guard)
    return reader


def _heartbeat(host: str, port: int, seconds: float, guard: _Guard) -> None:
    import httpx

    try:
        status, body = _ask(host, port, "/api/v2/heartbeat", seconds, guard)
    except (httpx.HTTPError, httpx.InvalidURL, OSError) as error:
        raise IndexInputError(key="idx.server_silent", host=host, port=port,
                              reason=_reason(error)) from None
    if status != 200 or b"nanosecond heartbeat" not in body:
        raise IndexInputError(key="idx.server_not_chroma", where=guard.server, status=status)


def _ask(host: str, port: int, path: str, seconds: float, guard: _Guard) -> tuple[int, bytes]:
    """One GET of ragviz's own (status and the body's first bytes); a redirect refused."""
    import httpx

    url = f"http://{host}:{port}{path}"
    with httpx.stream("GET", url, timeout=seconds, follow_redirects=False) as response:
        if response.is_redirect:
            raise guard.sentence(_RedirectError(response.status_code))
        return response.status_code, _head(response, 4_096)


def _head(response: Any, limit: int) -> bytes:
    """At most ``limit`` bytes of an answer's body (a garbage answer may be endless)."""
    body = b""
    for block in response.iter_bytes():
        body += block
        if len(body) >= limit:
            break
    return body[:limit]


def _connect(host: str, port: int, guard: _Guard) -> Any:
    """Chroma's HTTP client, bounded: it asks the server while it is made (its identity,
    its tenant) on sessions without a timeout, so it is made in a thread given
    ``guard.timeout``; then every session gets the timeout and refuses redirects."""
    chromadb = _chromadb()
    made: dict[str, Any] = {}

    def make() -> None:
        try:
            made["client"] = chromadb.HttpClient(host=host, port=port, settings=_settings())
        except Exception as error:  # said in the caller's thread
            made["error"] = error

    worker = threading.Thread(target=make, name="ragviz-chroma-connect", daemon=True)
    worker.start()
    worker.join(guard.timeout)  # Ctrl-C interrupts the wait
    if worker.is_alive():
        raise guard.sentence(TimeoutError())
    if "error" in made:
        # Chroma's client words a redirect as an empty error: ask as it did, to say so
        # (a redirect is refused by ``_ask`` in its sentence; anything else is the error's)
        try:
            _ask(host, port, "/api/v2/auth/identity", min(guard.timeout, SERVER_TIMEOUT_S),
                 guard)
        except IndexInputError:
            raise
        except Exception:  # the first error says it
            pass
        raise guard.sentence(made["error"])
    _bound(made["client"], guard.timeout)
    return made["client"]


def _bound(client: Any, seconds: float) -> None:
    import httpx

    for api in (client._server, client._admin_client._server):
        api._session.timeout = httpx.Timeout(seconds)
        api._session.follow_redirects = False
        api._session.event_hooks = {"request": [], "response": [_refuse_redirect]}


def _refuse_redirect(response: Any) -> None:
    if response.is_redirect:
        raise _RedirectError(response.status_code)


# --- the registry entry ------------------------------------------------------------------

_HTTP = re.compile(r"^chroma\+http://(?P<host>[^:/\s]+):(?P<port>\d{1,5})/?$")


def _open(spec: str, options: OpenOptions) -> ChromaReader:
    if spec.startswith("chroma+http://"):
        match = _HTTP.match(spec)
        if match is None:
            raise IndexInputError(key="idx.not_server_address", spec=repr(spec))
        return open_server(match["host"], int(match["port"]), options.timeout)
    return open_persistent(spec.removeprefix("chroma:"))


def _is_chroma_dir(path: Path) -> bool:
    return path.is_dir() and (path / "chroma.sqlite3").is_file()


STORE = register(Store("chroma", _open, schemes=("chroma+http://", "chroma:"),
                       server_schemes=("chroma+http://",), detect=_is_chroma_dir,
                       can_retrieve=True, can_find_text=True, lists_collections=True,
                       forms=("chroma:DIR", "chroma+http://HOST:PORT")))
