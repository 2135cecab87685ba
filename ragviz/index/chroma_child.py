"""The child process that opens a Chroma persistent directory (issue 37, item 3).

Chroma reads a collection's HNSW files (``header.bin``, ``data_level0.bin``...) in native
code, unchecked: a header counting more elements than its segment holds, or a segment cut
short, can make the process die by a signal. So the client lives in this child; the parent
(``ragviz.index.chroma_process``) sends requests and gets plain data back, and a child that
dies is one sentence, never the CLI or the app's server.

The wire: each message is one frame, an 8-byte length, that many bytes of JSON
(``{"body": ..., "arrays": [[rows, columns], ...]}``), then each array's float32 values in
order. No pickle: only JSON and the vectors' bytes cross. The JSON escapes lone surrogates,
so any stored text comes back as it was.

Run as a script (``python -P chroma_child.py COPY``) it imports only numpy and chromadb: it
does not depend on how ragviz itself is installed.
"""

from __future__ import annotations

import json
import os
import struct
import sys
from typing import IO, Any

import numpy as np

MAX_JSON_BYTES = 1 << 30  # one frame's JSON (a page of 5,000 chunks is a few MB)
MAX_ARRAY_VALUES = 1 << 28  # one frame's vector values (1 GiB of float32)
_LENGTH = struct.Struct("!Q")

Frame = tuple[Any, list[np.ndarray]]


class FrameError(Exception):
    """A frame that cannot be read: the other side stopped or sent something malformed."""


def encode_frame(body: Any, arrays: list[np.ndarray] | None = None) -> list[Any]:
    """One message's pieces: ``body`` as JSON, then ``arrays`` (two-dimensional, float32)."""
    matrices = [_matrix(a) for a in arrays or ()]
    head = json.dumps({"body": body, "arrays": [list(m.shape) for m in matrices]},
                      default=str).encode("ascii")
    return [_LENGTH.pack(len(head)) + head,
            *(m.data.cast("B") for m in matrices if m.size)]


def write_frame(stream: IO[bytes], pieces: list[Any]) -> None:
    for piece in pieces:
        stream.write(piece)
    stream.flush()


def read_frame(stream: IO[bytes]) -> Frame:
    """The next message (its body and arrays, writable); ``FrameError`` at the end of the
    stream or on a frame past the limits."""
    (size,) = _LENGTH.unpack(_exactly(stream, _LENGTH.size))
    if size > MAX_JSON_BYTES:
        raise FrameError(f"a frame of {size} bytes")
    try:
        head = json.loads(_exactly(stream, size))
        shapes = [(int(rows), int(columns)) for rows, columns in head["arrays"]]
    except (ValueError, TypeError, KeyError) as error:
        raise FrameError("a malformed frame") from error
    if sum(rows * columns for rows, columns in shapes) > MAX_ARRAY_VALUES:
        raise FrameError("arrays past the limit")
    arrays = []
    for rows, columns in shapes:
        data = bytearray(_exactly(stream, rows * columns * 4))
        arrays.append(np.frombuffer(data, dtype=np.float32).reshape(rows, columns))
    return head["body"], arrays


def _exactly(stream: IO[bytes], size: int) -> bytes:
    data = stream.read(size) if size else b""
    if data is None or len(data) != size:
        raise FrameError("the stream ended")
    return data


def _matrix(values: Any) -> np.ndarray:
    """``values`` as a C-ordered two-dimensional float32 array (no row: 0 x 0)."""
    matrix = np.ascontiguousarray(np.asarray(values, dtype=np.float32))
    if matrix.size == 0:
        return np.empty((0, 0), dtype=np.float32)
    return matrix.reshape(len(matrix), -1) if matrix.ndim != 2 else matrix


# --- the child's side ----------------------------------------------------------------------

def _reason(error: BaseException) -> str:
    """What an error says (an OS error's reason rather than its number)."""
    return str(getattr(error, "reason", None) or error).strip() or type(error).__name__


def _client(path: str) -> Any:
    import chromadb
    from chromadb.config import Settings

    return chromadb.PersistentClient(path=path, settings=Settings(anonymized_telemetry=False))


def _columns(result: Any, nested: bool) -> Frame:
    """A ``get`` page (``nested``: a ``query`` answer, one row per question) as plain
    data: ids, documents and metadatas in the JSON, the embeddings as arrays."""
    body = {key: result.get(key) for key in ("ids", "documents", "metadatas")}
    embeddings = result.get("embeddings")
    body["embeddings"] = embeddings is not None
    if embeddings is None:
        return body, []
    return body, [_matrix(row) for row in embeddings] if nested else [_matrix(embeddings)]


def _configuration(handle: Any) -> Any:
    configuration = getattr(handle, "configuration", None)
    return json.loads(json.dumps(configuration, default=str)) if configuration else None


def serve(client: Any, body: dict[str, Any], arrays: list[np.ndarray]) -> Frame:
    """One request's answer: ``names``, or ``open``, ``count``, ``get``, ``query`` and
    ``configuration`` of the collection ``body["name"]`` (``get``/``query`` take
    ``body["args"]``; a query's vectors are ``arrays[0]``)."""
    op = body["op"]
    if op == "names":
        return [str(c.name) for c in client.list_collections()], []
    handle = client.get_collection(body["name"], embedding_function=None)
    args = dict(body.get("args") or {})
    if op == "open":
        return None, []
    if op == "count":
        return int(handle.count()), []
    if op == "get":
        return _columns(handle.get(**args), nested=False)
    if op == "query":
        return _columns(handle.query(query_embeddings=arrays[0], **args), nested=True)
    if op == "configuration":
        return _configuration(handle), []
    raise ValueError(f"unknown request {op!r}")


def _failure(error: Exception) -> dict[str, Any]:
    from chromadb.errors import NotFoundError

    return {"error": _reason(error), "missing": isinstance(error, NotFoundError)}


def main(path: str) -> None:
    """Open ``path``, say whether that worked, then answer requests until stdin ends."""
    out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a library's print never lands in the frames
    sys.stdout = sys.stderr
    source = sys.stdin.buffer
    try:
        client = _client(path)
    except Exception as error:  # Chroma raises many kinds on a damaged directory
        write_frame(out, encode_frame(_failure(error)))
        return
    write_frame(out, encode_frame({"ok": None}))
    while True:
        try:
            body, arrays = read_frame(source)
        except FrameError:
            return  # the parent closed the pipe (or is gone)
        try:
            answer, answer_arrays = serve(client, body, arrays)
            pieces = encode_frame({"ok": answer}, answer_arrays)
        except Exception as error:  # said by the parent as one sentence
            pieces = encode_frame(_failure(error))
        write_frame(out, pieces)


if __name__ == "__main__":
    main(sys.argv[1])
