"""Test support: a deterministic OpenAI-compatible chat server on 127.0.0.1.

``POST /v1/chat/completions`` (streamed as server-sent events over chunked HTTP/1.1, or whole),
Bearer-key checks (401 in OpenAI's error shape, echoing the wrong key as careless servers do).
Its "model" answers from the prompt by a fixed rule: the context is what follows the line
``Excerpts:``/``Trechos:`` up to the line ``Question:``/``Pergunta:``; each sentence of it
scores the question's words it shares (words of 4 letters or more, accents and case dropped,
compared on their first 5 letters), plus one when it holds a number (digits or a number word:
questions about deadlines are answered with figures); when no sentence shares a word the
answer is "Não sei." (a Portuguese prompt) or "I don't know.", else the best sentence (ties:
the first).

``POST /control/fault`` queues the next N answers' fault: ``status`` (an HTTP status, with
``retry-after`` in seconds), ``slow`` (answer after ``seconds``), ``cut`` (the stream stops
halfway), ``empty`` (no choice), ``filter`` (finish_reason content_filter, no text),
``filter400`` (Azure's 400 with code content_filter), ``html`` (a web page), ``drip`` (the
stream sends a word every ``seconds``); any fault with ``"gated": true`` first waits until
``POST /control/release`` (``{"n": N}``) lets N waiting answers go, so a test holds the model
at a state it checks instead of racing it.
``GET /control/stats`` gives ``calls`` and the request ``bodies``; ``POST /control/reset``.

Run: ``python tests/chat_server.py --key KEY --model NAME``; prints ``PORT <n>`` once it listens.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
import unicodedata
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

NUMBER_WORDS = {"um", "uma", "dois", "duas", "tres", "quatro", "cinco", "seis", "sete", "oito",
                "nove", "dez", "one", "two", "three", "four", "five", "six", "seven", "eight",
                "nine", "ten"}
_CONTEXT = re.compile(r"^(?:Excerpts|Trechos):\s*$", re.MULTILINE)
_QUESTION = re.compile(r"^(Question|Pergunta):(.*)$", re.MULTILINE)


def _fold(text: str) -> str:
    bare = unicodedata.normalize("NFKD", text)
    return "".join(c for c in bare if not unicodedata.combining(c)).casefold()


def _stems(text: str) -> set[str]:
    return {word[:5] for word in re.findall(r"\w+", _fold(text)) if len(word) >= 4}


def _has_number(text: str) -> bool:
    words = set(re.findall(r"\w+", _fold(text)))
    return bool(re.search(r"\d", text)) or bool(words & NUMBER_WORDS)


def answer(prompt: str) -> str:
    """The fixed rule (see the module's text)."""
    questions = list(_QUESTION.finditer(prompt))
    question = questions[-1].group(2).strip() if questions else ""
    portuguese = bool(questions) and questions[-1].group(1) == "Pergunta"
    start = _CONTEXT.search(prompt)
    end = questions[-1].start() if questions else len(prompt)
    context = prompt[start.end() if start else 0:end]
    sentences = [s.strip() for s in re.split(r"(?<=[.!?])\s+|\n+", context) if s.strip()]
    wanted = _stems(question)
    shared = [len(_stems(s) & wanted) for s in sentences]
    if not shared or max(shared) == 0:
        return "Não sei." if portuguese else "I don't know."
    scores = [n + _has_number(s) for n, s in zip(shared, sentences, strict=True)]
    return sentences[scores.index(max(scores))]


class _State:
    def __init__(self, key: str, model: str) -> None:
        self.key = key
        self.model = model
        self.lock = threading.Lock()
        self.faults: list[dict[str, Any]] = []
        self.calls = 0
        self.bodies: list[dict[str, Any]] = []
        self.gate = threading.Semaphore(0)


def _error(message: str, kind: str, code: str | None) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind, "param": None, "code": code}}


class _Handler(BaseHTTPRequestHandler):
    state: _State
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _send(self, status: int, payload: Any, headers: dict[str, str] | None = None,
              kind: str = "application/json") -> None:
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", kind)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length", "0"))
        data: dict[str, Any] = json.loads(self.rfile.read(length) or b"{}")
        return data

    def do_GET(self) -> None:
        if self.path == "/control/stats":
            self._send(200, {"calls": self.state.calls, "bodies": self.state.bodies})
        else:
            self._send(404, {"detail": "Not Found"})

    def do_POST(self) -> None:
        state = self.state
        if self.path == "/control/fault":
            body = self._body()
            with state.lock:
                state.faults += [body] * int(body.get("times", 1))
            self._send(200, {"queued": len(state.faults)})
        elif self.path == "/control/release":
            for _ in range(int(self._body().get("n", 1))):
                state.gate.release()
            self._send(200, {"released": True})
        elif self.path == "/control/reset":
            self._body()
            with state.lock:
                state.faults, state.calls, state.bodies = [], 0, []
                state.gate = threading.Semaphore(0)
            self._send(200, {"reset": True})
        elif self.path == "/v1/chat/completions":
            self._chat(self._body())
        else:
            self._send(404, {"detail": "Not Found"})

    def _chat(self, body: dict[str, Any]) -> None:
        state = self.state
        given = self.headers.get("Authorization", "").removeprefix("Bearer ")
        if given != state.key:
            self._send(401, _error(f"Incorrect API key provided: {given}.",
                                   "invalid_request_error", "invalid_api_key"))
            return
        with state.lock:
            state.calls += 1
            state.bodies.append(body)
            fault = state.faults.pop(0) if state.faults else {}
        kind = fault.get("kind")
        if fault.get("gated"):
            state.gate.acquire(timeout=120)
        if kind == "slow":
            time.sleep(float(fault.get("seconds", 30)))
        if self._faulty(kind, fault):
            return
        if body.get("model") != state.model:
            self._send(404, _error(f"The model `{body.get('model')}` does not exist.",
                                   "invalid_request_error", "model_not_found"))
            return
        prompt = str(body["messages"][-1]["content"])
        text = "" if kind in ("empty", "filter") else answer(prompt)
        finish = "content_filter" if kind == "filter" else "stop"
        usage = {"prompt_tokens": len(prompt.split()), "completion_tokens": len(text.split()),
                 "total_tokens": len(prompt.split()) + len(text.split())}
        if body.get("stream"):
            self._stream(text, finish, usage, cut=kind == "cut",
                         with_usage=bool((body.get("stream_options") or {}).get("include_usage")),
                         drip=float(fault.get("seconds", 0)) if kind == "drip" else 0.0)
            return
        choices = [] if kind == "empty" else [{"index": 0, "finish_reason": finish, "message": {
            "role": "assistant", "content": text}}]
        self._send(200, {"id": "chat-1", "object": "chat.completion", "created": 0,
                         "model": state.model, "choices": choices, "usage": usage})

    def _faulty(self, kind: str | None, fault: dict[str, Any]) -> bool:
        """Answers a queued fault that replaces the answer; True when it did."""
        if kind == "status":
            status = int(fault["status"])
            self._send(status, _error(f"simulated HTTP {status}", "server_error", None),
                       {"retry-after": str(fault.get("retry_after", 0))})
        elif kind == "filter400":
            self._send(400, _error("The response was filtered due to the prompt triggering "
                                   "the content management policy.", "invalid_request_error",
                                   "content_filter"))
        elif kind == "html":
            self._send(200, b"<html><body><h1>Welcome to nginx!</h1></body></html>",
                       kind="text/html")
        else:
            return False
        return True

    def _stream(self, text: str, finish: str, usage: dict[str, int], *, cut: bool,
                with_usage: bool, drip: float = 0.0) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        pieces = re.findall(r"\S+\s*", text) or [""]
        events: list[dict[str, Any]] = [{"choices": [{"index": 0, "delta": {"content": piece},
                                "finish_reason": None}]} for piece in pieces]
        if cut:  # half the words, then the connection drops mid-body
            for event in events[: max(1, len(events) // 2)]:
                self._event(event)
            self.wfile.flush()
            self.close_connection = True
            return
        events.append({"choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
        if with_usage:
            events.append({"choices": [], "usage": usage})
        for event in events:
            self._event(event)
            if drip:  # a word at a time, as a slow model writes
                self.wfile.flush()
                time.sleep(drip)
        self._write(b"data: [DONE]\n\n")
        self.wfile.write(b"0\r\n\r\n")

    def _event(self, event: dict[str, Any]) -> None:
        full = {"id": "chat-1", "object": "chat.completion.chunk", "created": 0,
                "model": self.state.model, **event}
        self._write(f"data: {json.dumps(full)}\n\n".encode())

    def _write(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--key", required=True)
    parser.add_argument("--model", default="test-llm")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    _Handler.state = _State(args.key, args.model)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), _Handler)
    sys.stdout.write(f"PORT {server.server_address[1]}\n")
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
