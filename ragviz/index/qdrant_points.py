"""The points of a Qdrant local storage checked before qdrant-client opens it.

qdrant-client's local mode keeps each point as a pickle in SQLite and unpickles every one
when it opens the folder: a pickle can run any code, so a storage folder from someone else
could run theirs inside ragviz (the app's server). Every row is read here first with an
unpickler that admits only the two classes a stored point is made of (``PointStruct``,
``SparseVector``) besides plain values; anything else is refused in one sentence and the
client never sees the folder. The same pass applies the chunk limits before the client loads
anything: a row's size is asked of SQLite (``length(point)``) before the row is fetched, and
a point's text is measured once unpickled.
"""

from __future__ import annotations

import io
import pickle
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ragviz.errors import IndexInputError, IndexLimitError
from ragviz.i18n import Grouped
from ragviz.index.base import MAX_CHUNK_CHARS, MAX_RECORD_BYTES

_MODELS = "qdrant_client.http.models.models"
ALLOWED_CLASSES = frozenset({(_MODELS, "PointStruct"), (_MODELS, "SparseVector")})
STORAGE_FILE = "storage.sqlite"
TextOf = Callable[[dict[str, Any]], str]


class _RefusedError(Exception):
    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


class _PointsOnly(pickle.Unpickler):
    """An unpickler that builds stored points and plain values, and nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in ALLOWED_CLASSES:
            return super().find_class(module, name)
        raise _RefusedError(f"{module}.{name}"[:120])

    def persistent_load(self, pid: Any) -> Any:
        raise _RefusedError("persistent id")


def load_point(data: bytes) -> Any:
    """One stored point, unpickled with only the point classes admitted; raises ``ValueError``
    naming what else the pickle asked for."""
    try:
        return _PointsOnly(io.BytesIO(data)).load()
    except _RefusedError as refused:
        raise ValueError(refused.what) from None
    except (pickle.UnpicklingError, EOFError, TypeError, AttributeError, IndexError,
            KeyError, ValueError, RecursionError, MemoryError, OverflowError) as error:
        raise ValueError(type(error).__name__) from None


def check_storage(folder: Path, shown: str, text_of: TextOf) -> None:
    """Every point of every collection under ``folder`` (a copy ragviz made) checked: only
    point classes and plain values, rows of at most ``MAX_RECORD_BYTES``, texts (read by
    ``text_of`` from the payload) of at most ``MAX_CHUNK_CHARS``; one sentence otherwise."""
    for storage in sorted((folder / "collection").rglob(STORAGE_FILE)):
        collection = str(storage.parent.relative_to(folder / "collection"))
        _check_rows(storage, shown, collection, text_of)


def _check_rows(storage: Path, shown: str, collection: str, text_of: TextOf) -> None:
    try:
        database = sqlite3.connect(f"{storage.as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as error:
        raise IndexInputError(key="idx.qdrant_error", where=shown, reason=str(error)) from None
    try:
        big = database.execute("SELECT rowid, length(point) FROM points WHERE length(point) > ?"
                               " LIMIT 1", (MAX_RECORD_BYTES,)).fetchone()
        if big is not None:
            raise IndexLimitError(key="idx.qdrant_point_too_big", where=shown,
                                  collection=collection, n=int(big[1]),
                                  limit=Grouped(MAX_RECORD_BYTES))
        for rowid, data in database.execute("SELECT rowid, point FROM points"):
            _check_point(data, shown, collection, rowid, text_of)
    except sqlite3.Error as error:
        raise IndexInputError(key="idx.qdrant_error", where=shown, reason=str(error)) from None
    finally:
        database.close()


def _check_point(data: Any, shown: str, collection: str, rowid: int, text_of: TextOf) -> None:
    if not isinstance(data, bytes):
        raise IndexInputError(key="idx.qdrant_not_point", where=shown, collection=collection,
                              row=rowid, what=type(data).__name__)
    try:
        point = load_point(data)
    except ValueError as refused:
        raise IndexInputError(key="idx.qdrant_not_point", where=shown, collection=collection,
                              row=rowid, what=str(refused)) from None
    payload = getattr(point, "payload", None)
    if type(point).__name__ != "PointStruct" or not isinstance(payload, dict | None):
        raise IndexInputError(key="idx.qdrant_not_point", where=shown, collection=collection,
                              row=rowid, what=type(point).__name__)
    n = len(text_of(payload or {}))
    if n > MAX_CHUNK_CHARS:
        raise IndexLimitError(key="idx.qdrant_chunk_too_long", where=shown,
                              collection=collection, id=str(point.id)[:80], n=n,
                              limit=Grouped(MAX_CHUNK_CHARS))
