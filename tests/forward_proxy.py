"""Test support: a forwarding HTTP proxy on 127.0.0.1, in a thread, that records every request
it forwards (method, absolute URL, Authorization header) and relays the reply as it comes
(a trickle stays a trickle). Only plain-HTTP targets in absolute form: the tests' servers are
all on loopback without TLS; a CONNECT is answered 405 and recorded."""

from __future__ import annotations

import contextlib
import http.client
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import urlsplit

from tests.hostile_server import served

HOP_BY_HOP = {"connection", "keep-alive", "proxy-connection", "proxy-authorization",
              "transfer-encoding", "te", "trailer", "upgrade"}
RELAY_TIMEOUT_S = 30.0


class ProxyState:
    def __init__(self) -> None:
        self.forwarded: list[tuple[str, str, str]] = []  # (method, URL, Authorization)
        self.lock = threading.Lock()


def _handler(state: ProxyState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:
            pass

        def _record(self) -> None:
            with state.lock:
                state.forwarded.append((self.command, self.path,
                                        self.headers.get("Authorization", "")))

        def do_CONNECT(self) -> None:
            self._record()
            self.send_error(405)

        def do_POST(self) -> None:
            self._record()
            target = urlsplit(self.path)
            length = int(self.headers.get("Content-Length", "0") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
            upstream = http.client.HTTPConnection(target.hostname or "", target.port or 80,
                                                  timeout=RELAY_TIMEOUT_S)
            path = target.path + (f"?{target.query}" if target.query else "")
            with contextlib.suppress(OSError), contextlib.closing(upstream):
                upstream.request(self.command, path, body=body, headers=headers)
                reply = upstream.getresponse()
                self.send_response(reply.status)
                for name, value in reply.getheaders():
                    if name.lower() not in HOP_BY_HOP:
                        self.send_header(name, value)
                self.send_header("Connection", "close")
                self.end_headers()
                while piece := reply.read1(65536):
                    self.wfile.write(piece)
                    self.wfile.flush()
            self.close_connection = True

        def do_GET(self) -> None:
            self.do_POST()

    return Handler


@contextmanager
def forward_proxy() -> Iterator[tuple[str, ProxyState]]:
    """``(proxy URL, state)`` of a forwarding proxy on a free port of 127.0.0.1."""
    state = ProxyState()
    with served(_handler(state)) as root:
        yield root, state
