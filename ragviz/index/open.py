"""From what the user typed to the store adapter that reads it (one line per store)."""

from __future__ import annotations

import re
from pathlib import Path

from ragviz.index.base import IndexInputError, IndexReader
from ragviz.index.chroma import REQUEST_TIMEOUT_S

_HTTP = re.compile(r"^chroma\+http://(?P<host>[^:/\s]+):(?P<port>\d{1,5})/?$")
TABLE_SUFFIXES = (".csv", ".parquet")


def open_index(spec: str, timeout: float = REQUEST_TIMEOUT_S) -> IndexReader:
    """``chroma:DIR``, ``chroma+http://HOST:PORT``, ``FILE.jsonl|.csv|.parquet``, or a
    folder (taken as a Chroma directory, opened on a copy); a server's requests wait at
    most ``timeout`` seconds each."""
    from ragviz.index import chroma, jsonl, table

    if spec.startswith("chroma+http://"):
        match = _HTTP.match(spec)
        if match is None:
            raise IndexInputError(key="index.not_server_address", spec=repr(spec))
        return chroma.open_server(match["host"], int(match["port"]), timeout)
    if spec.startswith("chroma:"):
        return chroma.open_persistent(spec.removeprefix("chroma:"))
    path = Path(spec)
    suffix = path.suffix.lower()
    if path.is_dir():
        return chroma.open_persistent(spec)
    if not path.is_file():
        raise IndexInputError(key="index.missing", spec=spec)
    if suffix in (".jsonl", ".ndjson"):
        return jsonl.JsonlReader(spec)
    if suffix in TABLE_SUFFIXES:
        return table.TableReader(spec)
    raise IndexInputError(key="index.not_an_index", spec=spec)
