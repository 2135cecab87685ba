"""The embedding interface every model implements, with its caches and errors.

Kept apart from the concrete models (``ragviz.embedding.models``) so that a model living in
another module (the OpenAI-compatible one) imports the interface without importing the
module that loads it: imports go one way.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ragviz.cache import BoundedCache
from ragviz.embedding import disk_cache
from ragviz.embedding.disk_cache import DiskCache

Kind = Literal["query", "document"]
Progress = Callable[[int, int], None]
Vectors = npt.NDArray[np.float32]
Span = tuple[int, int]

ENCODE_BATCH = 16
# Texts read (tokenised to find where the model stops reading) between two progress calls
# before the first batch: a sweep's Cancel waited for a wave of 2,800 texts to be read
_PLAN_CHECK = 64
# Vectors (or token facts) written to the disk store in one transaction.
DISK_WRITE_BATCH = 512
# Longest text USE multilingual is given in one call (see UseMultilingual): ~1,000 tokens
# of Latin text, ~4,000 of CJK, i.e. at most ~80 MB of working memory per call.
USE_WINDOW_CHARS = 4_000


class EmbeddingCache(BoundedCache[tuple[str, str, str], Vectors]):
    """LRU cache of unit vectors keyed by (model name, kind, text), bounded by entry count.

    ``disk``: the store asked after this one (``disk_cache``): True for the one the
    environment names (the shared cache's), a ``DiskCache`` for that one, False for none
    (a fresh cache made by a test or a bench stays a cache of this process only)."""

    def __init__(self, max_entries: int = 50_000, disk: DiskCache | bool = False) -> None:
        super().__init__(max_entries)
        self.disk = disk

    @property
    def max_entries(self) -> int:
        return self.max_weight

    def disk_store(self) -> DiskCache | None:
        """The disk store under this cache for this run, or None."""
        if self.disk is False or not disk_cache.current_settings().enabled:
            return None
        store = disk_cache.shared() if self.disk is True else self.disk
        return None if store is None or store.broken else store


SHARED_CACHE = EmbeddingCache(disk=True)


class TokenInfoCache(BoundedCache[str, "TokenInfo"]):
    """LRU of per-text token facts (count, truncation offset, reading end), bounded by entries.

    Counting tokens means running the tokenizer over the whole text; the UI asks for the
    count and the truncation offset of every chunk on every rerun, so each distinct text is
    tokenized for them once.
    """

    def __init__(self, max_entries: int = 50_000) -> None:
        super().__init__(max_entries)


@dataclass(frozen=True)
class TokenInfo:
    """What the tokenizer says about one text, computed once.

    ``truncation`` is where the ignored tail starts (None when the model reads it all);
    ``reading_end`` is where the text given to the model may be cut without changing what
    the model reads (the end of the word holding the last token read), None for no cut.
    """

    count: int
    truncation: int | None
    reading_end: int | None


class Embedder(ABC):
    """A sentence-embedding model: unit-norm float32 rows, a tokenizer, a token budget.

    Subclasses implement ``_encode`` and ``token_spans``. ``encode`` adds the cache, gives
    the model only what it reads (up to ``reading_end`` for a model with a token limit,
    windows of at most ``window_chars`` for a model without one), sorts what is left by
    length so a batch pads little, and normalises.
    """

    name: str
    # Tokens (special tokens included) the model reads; the rest of a longer text is ignored.
    max_tokens: int | None = None
    special_tokens: int = 0
    # Longest text one model call is given; a longer text is read as windows whose unit
    # vectors are averaged (weighted by length) and renormalised. None: always whole.
    window_chars: int | None = None
    # True when ``token_spans`` is the model's own tokenizer, so a text may be cut at its
    # reading end without changing the vector (an approximate counter must not cut).
    cut_at_reading_end: bool = False

    # The model's identity in the disk store (``disk_cache``): a bundled model's name and
    # package version, a folder's weight digest, an API's base URL and model, never a key.
    # None keeps the model's vectors out of the store.
    disk_identity: str | None = None
    # False when the model reads a query as it reads a document (one stored vector for both).
    kinds_differ: bool = True

    def __init__(self, cache: EmbeddingCache | None = None) -> None:
        self.cache = SHARED_CACHE if cache is None else cache
        self.token_cache = TokenInfoCache()
        self.texts_encoded = 0  # texts actually sent to the model (cache misses, deduplicated)
        # characters the model read and the seconds it took, on this machine (the pace a
        # sweep's estimate reads: ragviz.evaluation.sweep_cost)
        self.model_chars = 0
        self.model_seconds = 0.0

    def chars_per_second(self, at_least: int = 2000) -> float | None:
        """The pace measured so far on this machine (None until ``at_least`` characters
        were read: a few short texts say little about a long run)."""
        if self.model_chars < at_least or self.model_seconds <= 0:
            return None
        return self.model_chars / self.model_seconds

    def cached_texts(self, texts: Sequence[str], kind: Kind = "document") -> set[str]:
        """The texts whose vectors the memory cache or the disk store already holds."""
        found = {text for text in texts if self.cache.get((self.name, kind, text)) is not None}
        disk = self.disk_store()
        rest = [text for text in dict.fromkeys(texts) if text not in found]
        if disk is not None and rest:
            assert self.disk_identity is not None
            found.update(disk.get_vectors(self.disk_identity, self._disk_kind(kind), rest))
        return found

    @abstractmethod
    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        """Encode without caching; rows need not be normalised."""

    @abstractmethod
    def token_spans(self, text: str) -> list[Span]:
        """Character span of every content token of ``text`` (special tokens excluded)."""

    def disk_store(self) -> DiskCache | None:
        """The disk store this model's vectors go to in this run, or None."""
        return None if self.disk_identity is None else self.cache.disk_store()

    def encode(
        self, texts: Sequence[str], kind: Kind = "document", progress: Progress | None = None
    ) -> Vectors:
        """Unit-norm vectors for ``texts``: from the memory cache, then the disk store, and
        only the texts found in neither from the model (written to both, in batches)."""
        vectors: list[npt.NDArray[np.float32] | None] = []
        missing: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            cached = self.cache.get((self.name, kind, text))
            vectors.append(cached)
            if cached is None:
                missing.setdefault(text, []).append(i)
        disk = self.disk_store()
        if disk is not None and missing:
            for text, row in self._from_disk(disk, kind, list(missing)).items():
                self.cache.put((self.name, kind, text), row)
                for i in missing.pop(text):
                    vectors[i] = row
        todo = list(missing)
        self.texts_encoded += len(todo)
        written: list[tuple[str, npt.NDArray[np.float32]]] = []

        def finished(text: str, row: npt.NDArray[np.float32]) -> None:
            self.cache.put((self.name, kind, text), row)
            for i in missing[text]:
                vectors[i] = row
            if disk is not None:
                written.append((text, row))
                if len(written) >= DISK_WRITE_BATCH:
                    self._to_disk(disk, kind, written)

        try:
            self._encode_missing(todo, kind, finished, progress)
        finally:
            if disk is not None:
                self._to_disk(disk, kind, written)
        if not vectors:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([v for v in vectors if v is not None]).astype(np.float32, copy=False)

    def _disk_kind(self, kind: Kind) -> str:
        return kind if self.kinds_differ else ""

    def _from_disk(self, disk: DiskCache, kind: Kind, texts: list[str]) -> dict[str, Vectors]:
        """The stored vectors of ``texts`` that are unit rows of one length (anything else
        is left to the model), with their token facts when the model has a token limit."""
        assert self.disk_identity is not None
        found = disk.get_vectors(self.disk_identity, self._disk_kind(kind), texts)
        lengths = [row.shape[0] for row in found.values()]
        usual = max(set(lengths), key=lengths.count) if lengths else 0
        sound = {text: row for text, row in found.items() if row.shape[0] == usual
                 and np.isfinite(row).all() and abs(float(np.dot(row, row)) - 1.0) < 1e-3}
        if sound and self.max_tokens is not None:
            wanted = [text for text in sound if text not in self.token_cache]
            for text, facts in disk.get_token_facts(self.disk_identity, wanted).items():
                self.token_cache.put(text, TokenInfo(*facts))
        return sound

    def _to_disk(self, disk: DiskCache, kind: Kind,
                 written: list[tuple[str, npt.NDArray[np.float32]]]) -> None:
        """Write ``written`` in one transaction (with the token facts kept back) and empty it."""
        assert self.disk_identity is not None
        disk.put_vectors(self.disk_identity, self.name, self._disk_kind(kind), written)
        written.clear()

    def _encode_missing(
        self,
        todo: list[str],
        kind: Kind,
        finished: Callable[[str, npt.NDArray[np.float32]], None],
        progress: Progress | None,
    ) -> None:
        """Embed ``todo`` by reading pieces sorted by length, calling ``finished`` per text
        as soon as all its pieces are done (so an interrupted run keeps what it finished)."""
        plan: list[list[str]] = []
        for number, text in enumerate(todo):
            if progress is not None and number and number % _PLAN_CHECK == 0:
                progress(0, len(todo))  # reading thousands of texts takes seconds: a stop
            plan.append(self.reading_pieces(text))  # (a raise from progress) is heard here
        pieces = [(owner, piece) for owner, parts in enumerate(plan) for piece in parts]
        order = sorted(range(len(pieces)), key=lambda i: len(pieces[i][1]))
        remaining = [len(parts) for parts in plan]
        rows: dict[int, list[tuple[int, npt.NDArray[np.float32]]]] = {}
        done = 0
        if progress is not None:
            progress(0, len(todo))
        for batch_start in range(0, len(order), ENCODE_BATCH):
            batch = [pieces[i] for i in order[batch_start : batch_start + ENCODE_BATCH]]
            started = time.perf_counter()
            encoded = _normalise(self._encode([piece for _, piece in batch], kind))
            self.model_seconds += time.perf_counter() - started
            self.model_chars += sum(len(piece) for _, piece in batch)
            for (owner, piece), row in zip(batch, encoded, strict=True):
                rows.setdefault(owner, []).append((len(piece), row))
                remaining[owner] -= 1
                if remaining[owner] == 0:
                    finished(todo[owner], _combine(rows.pop(owner)))
                    done += 1
            if progress is not None:
                progress(done, len(todo))

    def reading_pieces(self, text: str) -> list[str]:
        """The texts the model is given for ``text``: all of it, the part before
        ``reading_end``, or windows of at most ``window_chars`` characters."""
        if self.cut_at_reading_end and self.max_tokens is not None:
            end = self.token_info(text).reading_end
            if end is not None:
                text = text[:end]
        if self.window_chars is None or len(text) <= self.window_chars:
            return [text]
        return reading_windows(text, self.window_chars)

    def encode_documents(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        return self.encode(texts, "document", progress)

    def encode_queries(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        return self.encode(texts, "query", progress)

    @property
    def dimension(self) -> int:
        return int(self.encode(["dimension probe"], "document").shape[1])

    def token_info(self, text: str) -> TokenInfo:
        """Token count, truncation offset and reading end of ``text``, tokenized once."""
        info = self.token_cache.get(text)
        if info is None:
            disk = self.disk_store()
            info = self._stored_token_info(disk, text)
            if info is None:
                info = self._compute_token_info(text)
                if disk is not None and self.disk_identity is not None:
                    disk.note_token_facts(self.disk_identity, self.name, text,
                                          (info.count, info.truncation, info.reading_end))
            self.token_cache.put(text, info)
        return info

    def _stored_token_info(self, disk: DiskCache | None, text: str) -> TokenInfo | None:
        if disk is None or self.disk_identity is None:
            return None
        facts = disk.get_token_facts(self.disk_identity, [text]).get(text)
        return None if facts is None else TokenInfo(*facts)

    def _compute_token_info(self, text: str) -> TokenInfo:
        spans = self.token_spans(text)
        limit = self.content_token_limit
        if limit is None or len(spans) <= limit:
            return TokenInfo(len(spans), None, None)
        return TokenInfo(len(spans), spans[limit][0], _word_end_after(text, spans, limit))

    def count_tokens(self, text: str) -> int:
        """Content tokens of ``text`` (what a reader would count; special tokens excluded)."""
        return self.token_info(text).count

    @property
    def content_token_limit(self) -> int | None:
        """How many content tokens fit before the model starts ignoring text."""
        if self.max_tokens is None:
            return None
        return self.max_tokens - self.special_tokens

    def truncation_offset(self, text: str) -> int | None:
        """Character offset in ``text`` where the ignored tail starts, or None if all counts."""
        if self.content_token_limit is None:
            return None
        return self.token_info(text).truncation


def _word_end_after(text: str, spans: Sequence[Span], limit: int) -> int | None:
    """Start of the first token after token ``limit`` that follows whitespace: cutting
    there leaves the words holding the tokens the model reads whole, so it reads the same
    tokens. None when no such token exists (the text is then given whole)."""
    for index in range(limit, len(spans)):
        start = spans[index][0]
        if index > 0 and start > spans[index - 1][1] and text[start - 1].isspace():
            return start
    return None


def reading_windows(text: str, window_chars: int) -> list[str]:
    """``text`` cut into windows of at most ``window_chars`` characters, at the last
    whitespace of each window's second half when there is one; blank windows dropped."""
    windows: list[str] = []
    pos, n = 0, len(text)
    while n - pos > window_chars:
        low, high = pos + window_chars // 2, pos + window_chars
        cut = max(text.rfind(ch, low, high) for ch in " \n\t")
        cut = high if cut <= pos else cut + 1
        windows.append(text[pos:cut])
        pos = cut
    windows.append(text[pos:])
    kept = [w for w in windows if w.strip()]
    return kept or windows[:1]


def _combine(parts: list[tuple[int, npt.NDArray[np.float32]]]) -> npt.NDArray[np.float32]:
    """One unit vector from the unit vectors of a text's windows, weighted by length."""
    if len(parts) == 1:
        return parts[0][1]
    weights = np.asarray([length for length, _ in parts], dtype=np.float32)
    mean = (weights[:, None] * np.stack([row for _, row in parts])).sum(axis=0)
    norm = float(np.linalg.norm(mean))
    combined: npt.NDArray[np.float32] = (mean / (norm or 1.0)).astype(np.float32)
    return combined


def _normalise(rows: npt.NDArray[Any]) -> Vectors:
    matrix = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: Vectors = (matrix / norms).astype(np.float32)
    return normalised
