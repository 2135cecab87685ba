"""The embedding interface every model implements, with its caches and errors.

Kept apart from the concrete models (``ragviz.embedding.models``) so that a model living in
another module (the OpenAI-compatible one) imports the interface without importing the
module that loads it: imports go one way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ragviz.cache import BoundedCache
from ragviz.i18n import KeyedError

Kind = Literal["query", "document"]
Progress = Callable[[int, int], None]
Vectors = npt.NDArray[np.float32]
Span = tuple[int, int]

_BATCH = 16
# Longest text USE multilingual is given in one call (see UseMultilingual): ~1,000 tokens
# of Latin text, ~4,000 of CJK, i.e. at most ~80 MB of working memory per call.
USE_WINDOW_CHARS = 4_000


class ModelLoadError(KeyedError, RuntimeError):
    """A model could not be loaded; the message (a catalog key, ``KeyedError``) says why and
    what to do."""


class EmbeddingCache(BoundedCache[tuple[str, str, str], Vectors]):
    """LRU cache of unit vectors keyed by (model name, kind, text), bounded by entry count."""

    def __init__(self, max_entries: int = 50_000) -> None:
        super().__init__(max_entries)

    @property
    def max_entries(self) -> int:
        return self.max_weight


SHARED_CACHE = EmbeddingCache()


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

    def __init__(self, cache: EmbeddingCache | None = None) -> None:
        self.cache = SHARED_CACHE if cache is None else cache
        self.token_cache = TokenInfoCache()
        self.texts_encoded = 0  # texts actually sent to the model (cache misses, deduplicated)

    @abstractmethod
    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        """Encode without caching; rows need not be normalised."""

    @abstractmethod
    def token_spans(self, text: str) -> list[Span]:
        """Character span of every content token of ``text`` (special tokens excluded)."""

    def encode(
        self, texts: Sequence[str], kind: Kind = "document", progress: Progress | None = None
    ) -> Vectors:
        """Unit-norm vectors for ``texts``; only texts not cached are sent to the model."""
        vectors: list[npt.NDArray[np.float32] | None] = []
        missing: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            cached = self.cache.get((self.name, kind, text))
            vectors.append(cached)
            if cached is None:
                missing.setdefault(text, []).append(i)
        todo = list(missing)
        self.texts_encoded += len(todo)

        def finished(text: str, row: npt.NDArray[np.float32]) -> None:
            self.cache.put((self.name, kind, text), row)
            for i in missing[text]:
                vectors[i] = row

        self._encode_missing(todo, kind, finished, progress)
        if not vectors:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([v for v in vectors if v is not None]).astype(np.float32, copy=False)

    def _encode_missing(
        self,
        todo: list[str],
        kind: Kind,
        finished: Callable[[str, npt.NDArray[np.float32]], None],
        progress: Progress | None,
    ) -> None:
        """Embed ``todo`` by reading pieces sorted by length, calling ``finished`` per text
        as soon as all its pieces are done (so an interrupted run keeps what it finished)."""
        plan = [self.reading_pieces(text) for text in todo]
        pieces = [(owner, piece) for owner, parts in enumerate(plan) for piece in parts]
        order = sorted(range(len(pieces)), key=lambda i: len(pieces[i][1]))
        remaining = [len(parts) for parts in plan]
        rows: dict[int, list[tuple[int, npt.NDArray[np.float32]]]] = {}
        done = 0
        if progress is not None:
            progress(0, len(todo))
        for batch_start in range(0, len(order), _BATCH):
            batch = [pieces[i] for i in order[batch_start : batch_start + _BATCH]]
            encoded = _normalise(self._encode([piece for _, piece in batch], kind))
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
            info = self._compute_token_info(text)
            self.token_cache.put(text, info)
        return info

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
