"""The one HTTP client every remote service ragviz calls goes through (the chat and embeddings
APIs by way of the ``openai`` client, the rerank API directly): redirects are never followed,
each request has a deadline for its whole reply (not between bytes: a server trickling a byte
a second stops at the deadline), a reply's bytes are capped while they are read (streamed or
not), and a caller can stop a request from its own thread (the app's Cancel, a closed session).

All of it sits under the connection, in an ``httpcore`` network backend whose streams read in
short slices: every slice checks the deadline, the bytes read so far and the caller's stop.
A stop is a :class:`ReplyStoppedError`, which no client retries and no client wraps.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import httpcore
import httpx

SLICE_S = 0.25  # how often a waiting read looks at the deadline and the caller's stop
ShouldStop = Callable[[], bool]


class ReplyStoppedError(Exception):
    """A request ended by ragviz: ``why`` is ``deadline``, ``bytes`` or ``cancelled``."""

    def __init__(self, why: str, limit: float) -> None:
        super().__init__(f"{why} {limit:g}")
        self.why = why
        self.limit = limit


class Watch:
    """The limits of the request the calling thread makes now (thread-local: one client may
    serve several threads, each with its own request)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._local = threading.local()

    def begin(self, seconds: float, should_stop: ShouldStop | None = None) -> None:
        """A new request from this thread: ``seconds`` for its whole reply from now."""
        local = self._local
        local.seconds, local.deadline = seconds, time.monotonic() + seconds
        local.read, local.should_stop = 0, should_stop

    def remaining(self) -> float:
        """Seconds left before this thread's request's deadline (inf: no request begun)."""
        deadline = getattr(self._local, "deadline", None)
        return float("inf") if deadline is None else deadline - time.monotonic()

    def check(self) -> None:
        """ReplyStoppedError when this thread's request is past its deadline or was stopped."""
        local = self._local
        stop = getattr(local, "should_stop", None)
        if stop is not None and stop():
            raise ReplyStoppedError("cancelled", 0)
        if self.remaining() <= 0:
            raise ReplyStoppedError("deadline", local.seconds)

    def count(self, received: int) -> None:
        local = self._local
        local.read = getattr(local, "read", 0) + received
        if local.read > self.max_bytes:
            raise ReplyStoppedError("bytes", self.max_bytes)

    def wait(self, seconds: float) -> None:
        """Sleep ``seconds`` (a retry's pause) unless the deadline or a stop comes first."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.check()
            time.sleep(min(SLICE_S, left))
        self.check()


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream, watch: Watch) -> None:
        self._inner, self._watch = inner, watch

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        while True:
            self._watch.check()
            try:
                data = self._inner.read(max_bytes, timeout=self._slice())
            except httpcore.ReadTimeout:
                continue  # nothing yet: look at the deadline and the stop again
            self._watch.count(len(data))
            return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._watch.check()
        self._inner.write(buffer, timeout=max(self._watch.remaining(), 0.001))

    def _slice(self) -> float:
        return max(min(SLICE_S, self._watch.remaining()), 0.001)

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(ssl_context, server_hostname,
                                      timeout=max(self._watch.remaining(), 0.001))
        return _Stream(inner, self._watch)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    def __init__(self, watch: Watch) -> None:
        self._inner, self._watch = httpcore.SyncBackend(), watch

    def _timeout(self, timeout: float | None) -> float:
        left = max(self._watch.remaining(), 0.001)
        return left if timeout is None else min(timeout, left)

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> httpcore.NetworkStream:
        self._watch.check()
        inner = self._inner.connect_tcp(host, port, self._timeout(timeout), local_address,
                                        socket_options)
        return _Stream(inner, self._watch)

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Iterable[Any] | None = None
                            ) -> httpcore.NetworkStream:
        self._watch.check()
        inner = self._inner.connect_unix_socket(path, self._timeout(timeout), socket_options)
        return _Stream(inner, self._watch)

    def sleep(self, seconds: float) -> None:
        self._watch.wait(seconds)


def guarded_client(watch: Watch, timeout_s: float, connect_s: float) -> httpx.Client:
    """An ``httpx`` client that never follows a redirect and reads under ``watch``; it asks
    for replies uncompressed, so the bytes counted are the bytes kept."""
    transport = httpx.HTTPTransport(retries=0)
    pool: Any = transport._pool  # httpx has no public way to pass a network backend
    pool._network_backend = _Backend(watch)
    return httpx.Client(transport=transport, follow_redirects=False,
                        timeout=httpx.Timeout(timeout_s, connect=connect_s),
                        headers={"Accept-Encoding": "identity"})


def redirect_target(response: Any) -> str:
    """The host (and port) a 3xx reply points to, or an empty string."""
    location = response.headers.get("location", "")
    try:
        url = response.url.join(location) if location else None
    except (httpx.InvalidURL, ValueError):
        return ""
    if url is None or not url.host:
        return ""
    return f"{url.host}:{url.port}" if url.port else url.host
