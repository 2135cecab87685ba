"""Embedding work that can be stopped between batches, and a background job that fills the
embedder's cache with the chunks of configurations the user is likely to pick next.

An embedding job is stopped through its progress callback, which ``Embedder.encode`` calls
before the first batch and after every batch: a callback that raises ends the job there,
and every text of the finished batches is already in the cache, so coming back to the same
configuration embeds only what was left. The background job only fills caches (vectors and
token facts); it returns nothing and touches no user interface.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.api_common import api_budget, budget_seconds
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import (
    Progress,
    chunk_document,
    embed_chunks,
    embedding_text,
    truncation_offsets,
)
from ragviz.inputs.corpus import Corpus

THREAD_NAME = "ragviz-precompute"
# How long the user must stay idle before the job starts: the reruns of a drag come faster,
# so a drag cancels its jobs before they cost anything.
DEFAULT_IDLE_SECONDS = 0.5


class ThreadedJob:
    """A job run on its own daemon thread (``_thread``, set when it starts): whether it
    still runs, and waiting for it; shared by the precompute, map and sweep jobs."""

    _thread: threading.Thread | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def join(self, timeout: float | None = None) -> None:
        if self._thread is not None:
            self._thread.join(timeout)


class CancelledError(Exception):
    """Raised between two batches of an embedding job whose token was cancelled."""


class CancelToken:
    """A flag one thread sets and an embedding job checks between batches."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        """Raise ``CancelledError`` once ``cancel`` was called."""
        if self._event.is_set():
            raise CancelledError

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; True when cancelled meanwhile (the sleep ends at once)."""
        return self._event.wait(seconds)


def cancellable(token: CancelToken, progress: Progress | None = None) -> Progress:
    """A progress callback that stops the job between batches once ``token`` is cancelled,
    and otherwise reports to ``progress``."""
    def report(done: int, total: int) -> None:
        if progress is not None:
            progress(done, total)
        token.check()  # after reporting: the reporter may be what cancels
    return report


def neighbour_values(value: float, low: float, high: float, step: float,
                     integer: bool) -> list[int | float]:
    """The slider positions one step below and above ``value`` that lie in ``low..high``."""
    out: list[int | float] = []
    for candidate in (value - step, value + step):
        if low - 1e-9 <= candidate <= high + 1e-9:
            out.append(round(candidate) if integer else round(candidate, 6))
    return out


def fill_cache(document: str | Corpus, config: ChunkerConfig, embedder: Embedder,
               token: CancelToken) -> int:
    """Chunk ``document`` with ``config`` and embed its chunks (and count their tokens)
    into ``embedder``'s caches, stopping between batches when ``token`` is cancelled.
    Returns how many chunks the configuration makes."""
    chunking = chunk_document(document, config, embedder)
    token.check()
    embed_chunks(chunking, embedder, cancellable(token))
    token.check()
    truncation_offsets(chunking.chunks, embedder)  # token facts, cached per text
    for chunk in chunking.chunks:
        embedder.count_tokens(embedding_text(chunk))
    return len(chunking.chunks)


@dataclass
class Precompute(ThreadedJob):
    """A background thread that fills the cache for ``configs`` one after the other, after
    waiting ``idle_seconds`` (a new slider move cancels it before it starts). A failed or
    invalid configuration is skipped and recorded in ``errors``."""

    document: str | Corpus
    configs: Sequence[ChunkerConfig]
    embedder: Embedder
    idle_seconds: float = DEFAULT_IDLE_SECONDS
    token: CancelToken = field(default_factory=CancelToken)
    finished: list[ChunkerConfig] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    _thread: threading.Thread | None = None

    def start(self) -> Precompute:
        self._thread = threading.Thread(target=self._run, name=THREAD_NAME, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        if self.token.wait(self.idle_seconds):
            return
        # an embedding API's request in flight ends at the cancel too, not at its deadline
        with api_budget(budget_seconds(), lambda: self.token.cancelled):
            self._fill()

    def _fill(self) -> None:
        for config in self.configs:
            try:
                fill_cache(self.document, config, self.embedder, self.token)
            except CancelledError:
                return
            except Exception as error:  # a background fill must never crash
                if self.token.cancelled:
                    return
                self.errors.append(f"{config.label()}: {error}")
                continue
            self.finished.append(config)

    def cancel(self) -> None:
        """Stop at the next batch boundary (returns at once; ``join`` waits for it)."""
        self.token.cancel()
