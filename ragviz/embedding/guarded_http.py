"""The one HTTP client every remote service ragviz calls goes through (the chat and embeddings
APIs by way of the ``openai`` client, the rerank API directly): redirects are never followed,
each request has a deadline for its whole reply (not between bytes: a server trickling a byte
a second stops at the deadline), a reply's bytes are capped while they are read (streamed or
not), a run's budget bounds all its requests to the embedding and rerank APIs together, and a
caller can stop a request from its own thread (the app's Cancel, a closed session).

All of it sits under the connection, in an ``httpcore`` network backend whose streams read in
short slices: every slice checks the deadline, the bytes read so far and the caller's stop.
The backend is given to ``httpcore``'s pools through their public ``network_backend``, under
an ``httpx`` transport of ours (:class:`GuardedTransport`). The environment's HTTP(S) proxies
(``HTTPS_PROXY``, ``HTTP_PROXY``, ``ALL_PROXY``, ``NO_PROXY``, read as ``urllib`` reads them)
are the operator's: a request goes through the one its target names, under the same watch;
which hosts get a key is decided on the target, never on the proxy.
A stop is a :class:`ReplyStoppedError`, which no client retries and no client wraps.
"""

from __future__ import annotations

import threading
import time
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol

import httpcore
import httpx

SLICE_S = 0.25  # how often a waiting read looks at the deadline and the caller's stop
ShouldStop = Callable[[], bool]


class Budget(Protocol):
    """A run's time for several requests (``api_common.RunBudget``)."""

    seconds: float
    should_stop: ShouldStop | None

    def ends(self) -> float:
        """When it ends (``time.monotonic``)."""


class ReplyStoppedError(Exception):
    """A request ended by ragviz: ``why`` is ``deadline``, ``budget`` (the run's, of
    ``limit`` seconds), ``bytes`` or ``cancelled``."""

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

    def begin(self, seconds: float, should_stop: ShouldStop | None = None,
              budget: Budget | None = None) -> None:
        """A new request from this thread: ``seconds`` for its whole reply from now, and
        no later than the end of the run's ``budget`` (ReplyStoppedError ``budget`` at once
        when that is spent: nothing is sent); the caller's and the run's stop end it."""
        local = self._local
        now = time.monotonic()
        local.why, local.seconds, local.deadline = "deadline", seconds, now + seconds
        run_stop = budget.should_stop if budget is not None else None
        stops = [stop for stop in (should_stop, run_stop) if stop is not None]
        local.read = 0
        local.should_stop = (lambda: any(stop() for stop in stops)) if stops else None
        if budget is not None and (ends := budget.ends()) < local.deadline:
            local.why, local.seconds, local.deadline = "budget", budget.seconds, ends
            if ends <= now:
                raise ReplyStoppedError("budget", budget.seconds)

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
            raise ReplyStoppedError(local.why, local.seconds)

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


class _Body(httpx.SyncByteStream):
    """A reply's body as httpx reads it, its transport errors said as httpx's."""

    def __init__(self, response: httpcore.Response) -> None:
        self._response = response

    def __iter__(self) -> Iterator[bytes]:
        with _as_httpx_errors():
            yield from self._response.iter_stream()

    def close(self) -> None:
        self._response.close()


# httpcore's errors and the httpx errors clients catch (the ``openai`` client among them),
# the more specific first
_ERRORS: tuple[tuple[type[Exception], type[httpx.HTTPError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout), (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout), (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError), (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError), (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)


@contextmanager
def _as_httpx_errors() -> Iterator[None]:
    """httpcore's transport errors raised as the httpx errors clients catch; anything else
    (a :class:`ReplyStoppedError` first of all) as it is."""
    try:
        yield
    except Exception as error:
        kind = next((theirs for ours, theirs in _ERRORS if isinstance(error, ours)), None)
        if kind is None:
            raise
        raise kind(str(error)) from error


def proxy_for(url: httpx.URL, proxies: Mapping[str, str]) -> str | None:
    """The proxy the environment's ``proxies`` (``urllib.request.getproxies()``) name for
    ``url``: its scheme's, else ``all``'s; None when none is set or ``no`` lists the host."""
    chosen = proxies.get(url.scheme) or proxies.get("all")
    if not chosen or _bypassed(url, proxies.get("no", "")):
        return None
    return chosen


def _bypassed(url: httpx.URL, no_proxy: str) -> bool:
    """``NO_PROXY`` lists ``url``'s host: ``*``, the host itself, a domain it is under
    (``example.com`` or ``.example.com``), each maybe with the port (``host:8000``)."""
    host = url.host.lower()
    port = str(url.port or (443 if url.scheme == "https" else 80))
    for entry in (e.strip().lower() for e in no_proxy.split(",")):
        if entry == "*":
            return True
        name, their_port = entry.split(":") if entry.count(":") == 1 else (entry, "")
        name = name.lstrip(".")
        if name and (not their_port or their_port == port) and (
                host == name or host.endswith(f".{name}")):
            return True
    return False


class GuardedTransport(httpx.BaseTransport):
    """httpx's transport contract over ``httpcore`` pools whose network backend reads under
    ``watch``: one pool without a proxy, one per proxy the environment names (read once,
    when the client is made). A proxy that is not ``http://`` or ``https://`` (SOCKS) is a
    connection error, never a way around the proxy."""

    def __init__(self, watch: Watch) -> None:
        self._backend = _Backend(watch)
        self._proxies = dict(urllib.request.getproxies())
        self._pools: dict[str | None, httpcore.ConnectionPool] = {}
        self._lock = threading.Lock()

    def _pool(self, url: httpx.URL) -> httpcore.ConnectionPool:
        proxy = proxy_for(url, self._proxies)
        with self._lock:
            if proxy not in self._pools:
                self._pools[proxy] = httpcore.ConnectionPool(
                    retries=0, network_backend=self._backend,
                    proxy=None if proxy is None else _core_proxy(proxy))
            return self._pools[proxy]

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        url = request.url
        content: Any = request.stream
        asked = httpcore.Request(
            method=request.method, headers=request.headers.raw, content=content,
            url=httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port,
                             target=url.raw_path),
            extensions=request.extensions)
        with _as_httpx_errors():
            response = self._pool(url).handle_request(asked)
        return httpx.Response(response.status, headers=response.headers,
                              stream=_Body(response), extensions=response.extensions)

    def close(self) -> None:
        with self._lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.close()


def _core_proxy(url: str) -> httpcore.Proxy:
    """httpcore's proxy for an environment's proxy URL (its user and password as Basic
    auth); ProxyError for a scheme other than http(s)."""
    try:
        parsed = httpx.URL(url if "://" in url else f"http://{url}")
    except httpx.InvalidURL:
        raise httpx.ProxyError("the proxy's URL is not one") from None
    if parsed.scheme not in ("http", "https"):
        raise httpx.ProxyError(f"a {parsed.scheme} proxy is not supported")
    auth = (parsed.username, parsed.password) if parsed.username else None
    bare = parsed.copy_with(username=None, password=None)
    return httpcore.Proxy(str(bare), auth=auth)


def guarded_client(watch: Watch, timeout_s: float, connect_s: float) -> httpx.Client:
    """An ``httpx`` client that never follows a redirect and reads under ``watch``; it asks
    for replies uncompressed, so the bytes counted are the bytes kept."""
    return httpx.Client(transport=GuardedTransport(watch), follow_redirects=False,
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
