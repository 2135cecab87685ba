"""A Chroma persistent directory read through a child process (``chroma_child.py``).

``ChildClient`` looks, to ``ChromaReader``, like the few parts of Chroma's client it uses
(``list_collections``, ``get_collection``; a collection's ``count``, ``get``, ``query``,
``configuration``), but every call is a request to one child that holds the client. The
child is started on the first call and reused by every later one (a whole ``ragviz eval``,
a session's reads in the app); it is ended after ``IDLE_S`` seconds without a request (the
next call starts another on the same copy), on Ctrl-C, and with the reader.

A child that dies (a signal from native code reading a damaged HNSW file, or a non-zero
exit) raises ``ReaderStoppedError``, and every later call raises it again without starting
another child: the files are damaged, reading them again would only die again.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from ragviz.index.chroma_child import FrameError, encode_frame, read_frame, write_frame

CHILD = Path(__file__).resolve().with_name("chroma_child.py")
IDLE_S = 120.0  # a child without a request for this long is ended (its memory returned)
_WAIT_S = 5.0  # how long a dying child is waited for before it is killed


class ReaderStoppedError(Exception):
    """The child stopped by a signal (``signal``) or with an exit code (``code``)."""

    def __init__(self, signal: int | None, code: int | None) -> None:
        super().__init__(f"signal {signal}" if signal is not None else f"exit code {code}")
        self.signal = signal
        self.code = code


class ChildError(Exception):
    """What Chroma raised in the child, as its text (``missing``: no such collection)."""

    def __init__(self, reason: str, missing: bool = False) -> None:
        super().__init__(reason)
        self.missing = missing


class ChildClient:
    """Chroma's client for the directory ``path``, held by a child process."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.RLock()
        self._proc: subprocess.Popen[bytes] | None = None
        self._stopped: ReaderStoppedError | None = None
        self._last = 0.0
        self._timer: threading.Timer | None = None
        self._found: set[str] = set()  # the collections known to exist

    def start(self) -> None:
        """Start the child now (its open's failure raised here, as Chroma's was)."""
        with self._lock:
            self._running()
            self._idle_later()

    def list_collections(self) -> list[SimpleNamespace]:
        return [SimpleNamespace(name=name) for name in self.call({"op": "names"})[0]]

    def get_collection(self, name: str, embedding_function: Any = None) -> ChildCollection:
        if name not in self._found:  # asked once: the copy's collections never change
            self.call({"op": "open", "name": name})
            self._found.add(name)
        return ChildCollection(self, name)

    def call(self, body: dict[str, Any],
             arrays: list[np.ndarray] | None = None) -> tuple[Any, list[np.ndarray]]:
        """One request's answer; ``ChildError`` for what Chroma raised, ``ReaderStoppedError``
        when the child died."""
        with self._lock:
            proc = self._running()
            try:
                assert proc.stdin is not None and proc.stdout is not None
                write_frame(proc.stdin, encode_frame(body, arrays))
                answer, out = read_frame(proc.stdout)
            except (FrameError, OSError):
                raise self._died(proc) from None
            except BaseException:  # Ctrl-C: the child is ended with the call
                self.close()
                raise
            finally:
                self._idle_later()
        return _answer(answer), out

    def close(self) -> None:
        """End the child (if any); the next call starts another."""
        with self._lock:
            proc, self._proc = self._proc, None
            if proc is not None:
                proc.kill()
                proc.wait()
                _close_pipes(proc)

    def _running(self) -> subprocess.Popen[bytes]:
        if self._stopped is not None:
            raise self._stopped
        if self._proc is None:
            self._proc = self._spawn()
        return self._proc

    def _spawn(self) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen([sys.executable, "-P", str(CHILD), self.path],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            assert proc.stdout is not None
            answer, _ = read_frame(proc.stdout)
        except FrameError:
            raise self._died(proc) from None
        except BaseException:
            proc.kill()
            proc.wait()
            _close_pipes(proc)
            raise
        if "error" in answer:  # Chroma refused the directory: the child has ended
            proc.wait()
            _close_pipes(proc)
            raise ChildError(str(answer["error"]))
        return proc

    def _died(self, proc: subprocess.Popen[bytes]) -> ReaderStoppedError:
        try:
            code = proc.wait(_WAIT_S)
        except subprocess.TimeoutExpired:  # the pipe broke but the child lives on
            proc.kill()
            code = proc.wait()
        _close_pipes(proc)
        self._proc = None
        self._stopped = ReaderStoppedError(-code if code < 0 else None, code if code >= 0 else None)
        return self._stopped

    def _idle_later(self) -> None:
        """End the child once ``IDLE_S`` seconds pass without another request: one timer,
        armed when none is, not a new thread for every request of a whole read."""
        self._last = time.monotonic()
        if self._timer is None:
            self._arm(IDLE_S)

    def _arm(self, seconds: float) -> None:
        self._timer = threading.Timer(seconds, self._end_if_idle)
        self._timer.daemon = True
        self._timer.start()

    def _end_if_idle(self) -> None:
        with self._lock:
            left = IDLE_S - (time.monotonic() - self._last)
            if left > IDLE_S * 0.01:  # a request came since: wait out the rest
                self._arm(left)
                return
            self._timer = None
            self.close()


class ChildCollection:
    """One collection of a ``ChildClient``: Chroma's collection calls ragviz makes."""

    def __init__(self, client: ChildClient, name: str) -> None:
        self._client = client
        self.name = name

    def count(self) -> int:
        return int(self._client.call({"op": "count", "name": self.name})[0])

    def get(self, **args: Any) -> dict[str, Any]:
        body, arrays = self._client.call({"op": "get", "name": self.name, "args": args})
        return _page(body, arrays[0] if arrays else None)

    def query(self, query_embeddings: Any, **args: Any) -> dict[str, Any]:
        body, arrays = self._client.call({"op": "query", "name": self.name, "args": args},
                                         [np.asarray(query_embeddings, dtype=np.float32)])
        return _page(body, arrays)

    @property
    def configuration(self) -> Any:
        return self._client.call({"op": "configuration", "name": self.name})[0]


def _answer(answer: Any) -> Any:
    if not isinstance(answer, dict) or not ("ok" in answer or "error" in answer):
        raise ChildError("an answer that is not the reader's")
    if "error" in answer:
        raise ChildError(str(answer["error"]), bool(answer.get("missing")))
    return answer["ok"]


def _page(body: dict[str, Any], embeddings: Any) -> dict[str, Any]:
    """A page as Chroma returns it (the embeddings only when they were asked for)."""
    page = {key: body.get(key) for key in ("ids", "documents", "metadatas")}
    page["embeddings"] = embeddings if body.get("embeddings") else None
    return page


def _close_pipes(proc: subprocess.Popen[bytes]) -> None:
    for pipe in (proc.stdin, proc.stdout):
        if pipe is not None:
            with contextlib.suppress(OSError):  # a broken pipe's last flush
                pipe.close()
