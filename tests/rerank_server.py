"""Test support: a rerank server of our own on 127.0.0.1, in a thread, speaking Cohere's
format (``{"results": [{"index", "relevance_score"}]}``) or TEI's (``[{"index", "score"}]``).
Its model scores a document by the question's words it holds (a fixed rule, so tests know
the order). ``fault`` makes every answer wrong in one way; ``calls`` counts the requests."""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.hostile_server import served

WORD = re.compile(r"\w+")


def shared_words(query: str, text: str) -> float:
    return float(len(set(WORD.findall(query.lower())) & set(WORD.findall(text.lower()))))


class RerankState:
    def __init__(self, fmt: str) -> None:
        self.format = fmt
        self.fault = ""
        self.calls = 0
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []


def _handler(state: RerankState) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, status: int, body: bytes, kind: str = "application/json",
                  extra: dict[str, str] | None = None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            for key, value in (extra or {}).items():
                self.send_header(key, value)
            self.end_headers()
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # a client gave up
                self.wfile.write(body)

        def do_POST(self) -> None:
            state.calls += 1
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
            state.bodies.append(body)
            state.headers.append(dict(self.headers))
            fault = state.fault
            if fault == "401":
                return self._send(401, b'{"message": "invalid key"}')
            if fault == "429" or (fault == "429-once" and state.calls == 1):
                return self._send(429, b"{}", extra={"Retry-After": "0.2"})
            if fault == "500":
                return self._send(500, b"internal")
            if fault == "slow":
                time.sleep(3)
            if fault == "html":
                return self._send(200, b"<html>hello</html>", "text/html")
            if fault == "redirect":
                return self._send(302, b"", extra={"Location": "http://127.0.0.1:9/x"})
            tei = "texts" in body
            if (state.format == "tei") != tei:
                return self._send(422, b'{"error": "wrong body"}')
            texts = body["texts"] if tei else body["documents"]
            scores = [shared_words(body["query"], text) for text in texts]
            # as real servers do: the most relevant first, each row naming its document
            rows: list[dict[str, Any]] = [
                {"index": i, ("score" if tei else "relevance_score"): s}
                for i, s in sorted(enumerate(scores), key=lambda pair: -pair[1])]
            if fault == "fewer":
                rows = rows[:-1]
            if fault == "more":
                rows = [*rows, rows[0]]
            if fault == "index":
                rows[0]["index"] = len(texts) + 5
            answer: Any = rows if tei else {"results": rows}
            text = json.dumps(answer)
            if fault == "nan":  # Python's json writes NaN, as some servers do
                rows[0]["score" if tei else "relevance_score"] = float("nan")
                text = json.dumps(answer)
            return self._send(200, text.encode())

    return Handler


@contextmanager
def rerank_server(fmt: str = "cohere") -> Iterator[tuple[str, RerankState]]:
    state = RerankState(fmt)
    with served(_handler(state)) as root:
        yield root, state
