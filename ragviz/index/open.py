"""From what the user typed to the store adapter that reads it: a lookup in the store
registry (``ragviz.index.stores``), each store one module."""

from __future__ import annotations

from typing import Any

from ragviz.index.base import IndexReader, Progress
from ragviz.index.stores import REQUEST_TIMEOUT_S, OpenOptions, open_spec


def open_index(spec: str, timeout: float = REQUEST_TIMEOUT_S, max_chunks: int | None = None,
               progress: Progress | None = None, **extra: Any) -> IndexReader:
    """The reader of ``spec`` (``chroma:DIR``, ``chroma+http://HOST:PORT``,
    ``postgresql://...``, ``qdrant:DIR``, ``qdrant+http://HOST:PORT``, a chunk export file, or
    a folder recognised by its content); a server's or database's requests wait at most
    ``timeout`` seconds each; a file reader loads at most ``max_chunks`` chunks (None: the
    CLI's in-memory limit) and tells ``progress`` the records read; ``extra`` holds the
    store-specific options (``table``, ``text_column``, ``vector_name``...), None ones dropped."""
    options = OpenOptions(timeout, max_chunks, progress,
                          {k: v for k, v in extra.items() if v is not None})
    return open_spec(spec, options)
