"""Test support: a hostile API server on 127.0.0.1, in a thread, that answers every POST by the
mode named first in its path (``{base}/<mode>/v1/...``): it echoes the key it was sent, redirects,
trickles, floods, nests and mistypes, as issue 42's fourth round found servers do. It records
each request's path and Authorization header; every loop is bounded.

Modes: ``echo`` (a chat answer holding the Authorization header it got and a bare URL; streamed
when asked), ``redirect`` (307 to ``/stolen`` on ``localhost``), ``trickle`` (headers, then a
byte every 0.2 s), ``flood`` (a 200 MB body, streamed or not), ``nest`` (JSON nested 100,000
deep), ``bytes`` (not UTF-8), ``html`` (a web page as JSON), ``vectors`` (a well-formed
embeddings or rerank reply: hash-made vectors, one score per document), ``slow`` (the same
after :data:`SLOW_S`: alive, but each reply late), ``stall`` (answers an embeddings API's
probe, then trickles every later request), and the JSON bodies of :data:`BODIES`
(``choices-object``, ``content-number``, ``huge-tokens``...).

:func:`silent_server` accepts connections and never answers; it records when each closes.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FLOOD_BYTES = 200_000_000
TRICKLE_BYTES = 600  # at 0.2 s a byte: two minutes, far past any deadline a test sets
SLOW_S = 0.6  # a slow but alive API: every reply this late
SILENT_S = 120.0  # how long the silent server holds a connection at most


def _chat(content: Any, **extra: Any) -> dict[str, Any]:
    message = {"role": "assistant", "content": content, **extra}
    return {"choices": [{"index": 0, "finish_reason": "stop", "message": message}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 2}}


BODIES: dict[str, Any] = {
    "choices-object": {"choices": {"0": {"message": {"content": "x"}}}},
    "content-number": _chat(42),
    "huge-tokens": {**_chat("fine"), "usage": {"prompt_tokens": 10**30,
                                               "completion_tokens": -7_000_000}},
    "refusal": _chat(None, refusal="Sorry, I won't answer."),
    "many-choices": {"choices": [{"index": i, "finish_reason": "stop", "message": {
        "role": "assistant", "content": "x"}} for i in range(100_000)]},
    "rerank-nested-results": {"results": [{"index": [[[[0]]]], "relevance_score": 1}]},
}


class HostileState:
    def __init__(self) -> None:
        self.requests: list[tuple[str, str]] = []  # (path, Authorization)
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)

    def wait_for(self, mode: str, count: int, timeout_s: float) -> bool:
        """True once ``count`` requests to ``mode`` have arrived, False after ``timeout_s``."""
        with self.arrived:
            return self.arrived.wait_for(lambda: sum(
                1 for path, _ in self.requests if path.startswith(f"/{mode}/")) >= count,
                timeout_s)


def _handler(state: HostileState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _head(self, status: int, kind: str, length: int | None,
                  extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            if length is not None:
                self.send_header("Content-Length", str(length))
            self.end_headers()

        def _send(self, body: bytes, kind: str = "application/json", status: int = 200,
                  extra: dict[str, str] | None = None) -> None:
            self._head(status, kind, len(body), extra)
            self.wfile.write(body)

        def do_GET(self) -> None:
            self.do_POST()

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0") or 0)
            raw = self.rfile.read(length) if length else b""
            with state.arrived:
                state.requests.append((self.path, self.headers.get("Authorization", "")))
                state.arrived.notify_all()
            mode = self.path.strip("/").split("/")[0]
            try:
                asked = json.loads(raw or b"{}")
            except ValueError:
                asked = {}
            # a client that stopped reading (what the test wants) breaks the pipe
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                self._answer(mode, asked if isinstance(asked, dict) else {})

        def _answer(self, mode: str, asked: dict[str, Any]) -> None:
            if mode == "echo":
                said = f"key I got: {self.headers.get('Authorization', '')} " \
                       "see http://evil.example/x"
                if asked.get("stream"):
                    self._stream([said])
                else:
                    self._send(json.dumps(_chat(said)).encode())
            elif mode == "redirect":
                port = self.server.server_address[1]
                self._send(b"", status=307,
                           extra={"Location": f"http://localhost:{port}/stolen/v1/x"})
            elif mode == "trickle":
                self._trickle()
            elif mode == "flood":
                self._flood(bool(asked.get("stream")))
            elif mode == "nest":
                self._send(b"[" * 100_000 + b"]" * 100_000)
            elif mode == "bytes":
                self._send(b'{"choices": [{"message": {"content": "\xff\xfe\xfa"}}]}')
            elif mode == "html":
                self._send(b"<html><body>Welcome to nginx!</body></html>")
            elif mode == "stall" and asked.get("input") != ["dimension probe"]:
                self._trickle()  # the probe is answered, every later request stalls
            elif mode in ("vectors", "slow", "stall"):
                if mode == "slow":
                    time.sleep(SLOW_S)
                self._send(json.dumps(_well_formed(self.path, asked)).encode())
            elif mode in BODIES:
                self._send(json.dumps(BODIES[mode]).encode())
            else:
                self._send(b'{"error": {"message": "no such mode"}}', status=404)

        def _trickle(self) -> None:
            self._head(200, "application/json", TRICKLE_BYTES)
            for _ in range(TRICKLE_BYTES):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(0.2)

        def _stream(self, pieces: list[str]) -> None:
            events = [{"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}
                      for p in pieces]
            events.append({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
            body = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
            self._send(body.encode(), kind="text/event-stream")

        def _flood(self, streamed: bool) -> None:
            if streamed:
                piece = json.dumps({"choices": [{"index": 0, "delta": {"content": "x" * 1000},
                                                 "finish_reason": None}]})
                block = f"data: {piece}\n\n".encode() * 64
                kind = "text/event-stream"
            else:
                block = b"[" + b"0," * 32_000
                kind = "application/json"
            self._head(200, kind, FLOOD_BYTES)
            sent = 0
            while sent < FLOOD_BYTES:
                self.wfile.write(block)
                sent += len(block)

    return Handler


def _well_formed(path: str, asked: dict[str, Any]) -> Any:
    """An embeddings reply (8 numbers a text, made from its hash) or a rerank reply."""
    if path.endswith("/rerank"):
        documents = asked.get("documents") or asked.get("texts") or []
        return {"results": [{"index": i, "relevance_score": 1.0 / (i + 1)}
                            for i in range(len(documents))]}
    given = asked.get("input", [])
    texts = [given] if isinstance(given, str) else list(given)
    rows = [[b / 255 + 0.01 for b in hashlib.sha256(str(text).encode()).digest()[:8]]
            for text in texts]
    return {"object": "list", "model": "m", "usage": {"prompt_tokens": 1, "total_tokens": 1},
            "data": [{"object": "embedding", "index": i, "embedding": row}
                     for i, row in enumerate(rows)]}


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that hung up (what the tests do) is no error worth printing."""


@contextmanager
def served(handler: type[BaseHTTPRequestHandler]) -> Iterator[str]:
    """``handler`` serving on a free port of 127.0.0.1 in a thread; its root URL."""
    server = _QuietServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def hostile_server() -> Iterator[tuple[str, HostileState]]:
    """``(root URL, state)``; a mode's base is ``f"{root}/{mode}/v1"``."""
    state = HostileState()
    with served(_handler(state)) as root:
        yield root, state


class SilentState:
    """What the silent server saw: how many connections it ``accepted`` and how many of them
    the client ``closed`` (the server itself closes none before :data:`SILENT_S`)."""

    def __init__(self) -> None:
        self.accepted = 0
        self.closed = 0
        self._changed = threading.Condition()

    def note(self, event: str) -> None:
        with self._changed:
            setattr(self, event, getattr(self, event) + 1)
            self._changed.notify_all()

    def wait_for(self, event: str, count: int, timeout_s: float) -> bool:
        """True once ``event`` (``accepted`` or ``closed``) has happened ``count`` times,
        False if ``timeout_s`` passed first."""
        with self._changed:
            return self._changed.wait_for(lambda: getattr(self, event) >= count, timeout_s)


def _hold(connection: socket.socket, state: SilentState) -> None:
    """Read whatever comes and answer nothing, until the client closes (or SILENT_S)."""
    state.note("accepted")
    connection.settimeout(0.25)
    end = time.monotonic() + SILENT_S
    with connection:
        while time.monotonic() < end:
            try:
                if not connection.recv(65536):
                    break
            except TimeoutError:
                continue
            except OSError:
                break
        else:
            return
    state.note("closed")


@contextmanager
def silent_server() -> Iterator[tuple[str, SilentState]]:
    """``(root URL, state)`` of a server on 127.0.0.1 that accepts and never answers."""
    state = SilentState()
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.25)
    stopping = threading.Event()

    def accept() -> None:
        while not stopping.is_set():
            try:
                connection, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=_hold, args=(connection, state), daemon=True).start()

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", state
    finally:
        stopping.set()
        thread.join(5)
        listener.close()
