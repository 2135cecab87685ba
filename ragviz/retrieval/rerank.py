"""A rerank stage after any scorer: the first stage's top ``depth`` chunks are scored again
by a reranker, and the reranker's order decides the top_k (the fix teams reach for when the
answer's chunk is ``outranked``). Rerankers:

- ``sentence-max``: offline, from the chosen embedding model: a chunk scores its best
  sentence, so an answer hidden in one sentence of a long chunk is no longer averaged away;
- a sentence-transformers ``CrossEncoder`` id or local folder (in process);
- ``api:NAME`` with ``base=URL``: a rerank API (Cohere/Jina's format or TEI's,
  ``ragviz.retrieval.rerank_api``).

A reranked scorer is one scorer spec, ``FIRST+rerank(MODEL,depth=N)``, so links, workspaces
and every output carry it as they carry the scorer. Chunks past the depth are not rescored:
their score is NaN (never handed on, ranked after the reranked ones, written as null).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from ragviz.cache import BoundedCache
from ragviz.chunking.base import Chunk
from ragviz.chunking.text import split_sentences
from ragviz.errors import InputError
from ragviz.retrieval.decision import top_indices
from ragviz.retrieval.scorers import (
    CosineScorer,
    Scorer,
    ScoreRow,
    ScoreScale,
    Vectors,
    option_error,
    register_stage,
    spec_options,
)

DEPTH = 20
MAX_DEPTH = 200
LOGIT_SCALE = ScoreScale(low=-20.0, high=10.0, step=0.1, label="chart.rerank_score",
                         bounded=False)
_SCORES: BoundedCache[tuple[str, str, str], float] = BoundedCache(200_000)


class Reranker(Protocol):
    """Scores (question, chunk text) pairs again; higher is more relevant."""

    name: str
    scale: ScoreScale

    def scores(self, question: str, question_vector: Vectors, texts: Sequence[str],
               embedder: Any) -> list[float]: ...


class SentenceMax:
    """A chunk's score is its best sentence's cosine with the question (the same model)."""

    name = "sentence-max"
    scale = CosineScorer.scale

    def scores(self, question: str, question_vector: Vectors, texts: Sequence[str],
               embedder: Any) -> list[float]:
        if embedder is None:
            raise InputError(key="rerank.needs_model")
        pieces = [[text[a:b] for a, b in split_sentences(text)] or [text] for text in texts]
        flat = [p for group in pieces for p in group]
        vectors = embedder.encode_documents(flat) if flat else np.zeros((0, 1))
        out, at = [], 0
        for group in pieces:
            out.append(float(np.max(vectors[at:at + len(group)] @ question_vector)))
            at += len(group)
        return out


class CrossEncoderReranker:
    """A sentence-transformers CrossEncoder, loaded once per id or folder."""

    scale = LOGIT_SCALE

    def __init__(self, model: str) -> None:
        self.name = model
        self._model: Any = None

    def scores(self, question: str, question_vector: Vectors, texts: Sequence[str],
               embedder: Any) -> list[float]:
        if self._model is None:
            self._model = _cross_encoder(self.name)
        predicted = self._model.predict([(question, text) for text in texts],
                                        show_progress_bar=False)
        return [float(x) for x in np.asarray(predicted, dtype=np.float64).reshape(-1)]


def _cross_encoder(model: str) -> Any:
    try:
        from sentence_transformers import CrossEncoder

        return CrossEncoder(model, device="cpu")
    except Exception as error:  # a missing id, no network, a folder that is not a model
        raise InputError(key="rerank.cannot_load", model=repr(model),
                         reason=type(error).__name__) from None


@dataclass(frozen=True)
class Prepared:
    first: Any
    chunks: Sequence[Chunk]
    embedder: Any


class RerankedScorer:
    """``first``'s ranking with its top ``depth`` scored again by ``reranker``."""

    uses_embedder = True

    def __init__(self, first: Scorer, reranker: Reranker, depth: int = DEPTH,
                 options: str = "") -> None:
        self.first, self.reranker, self.depth = first, reranker, depth
        self.scale = reranker.scale
        shown = ",".join(filter(None, [reranker.name, options,
                                       f"depth={depth}" if depth != DEPTH else ""]))
        self.name = f"{first.name}+rerank({shown})"

    def prepare(self, chunks: Sequence[Chunk], chunk_vectors: Vectors,
                embedder: Any = None) -> Prepared:
        return Prepared(self.first.prepare(chunks, chunk_vectors), chunks, embedder)

    def score_rows(self, prepared: Prepared, questions: Sequence[str],
                   query_vectors: Vectors) -> list[ScoreRow]:
        rows = self.first.score_rows(prepared.first, questions, query_vectors)
        return [self._rerank(prepared, question, query_vectors[n], np.asarray(row))
                for n, (question, row) in enumerate(zip(questions, rows, strict=True))]

    def first_rows(self, prepared: Prepared, questions: Sequence[str],
                   query_vectors: Vectors) -> list[ScoreRow]:
        """The first stage's rows (where each chunk ranked before reranking)."""
        return self.first.score_rows(prepared.first, questions, query_vectors)

    def _rerank(self, prepared: Prepared, question: str, vector: Vectors,
                row: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        out = np.full(len(row), np.nan, dtype=np.float64)
        if not len(row):
            return out
        chosen = top_indices(np.asarray(row, dtype=np.float64), self.depth).tolist()
        texts = [prepared.chunks[i].text for i in chosen]
        keys = [(self.reranker.name, question, text) for text in texts]
        missing = [n for n, key in enumerate(keys) if _SCORES.get(key) is None]
        if missing:
            fresh = self.reranker.scores(question, vector, [texts[n] for n in missing],
                                         prepared.embedder)
            for n, score in zip(missing, fresh, strict=True):
                _SCORES.put(keys[n], score)
        for index, key in zip(chosen, keys, strict=True):
            out[index] = _SCORES.get(key)
        return out


def reranked(first: Scorer, options: str) -> RerankedScorer:
    """``first`` followed by the reranker ``options`` names (``MODEL[,depth=N][,base=URL]
    [,format=cohere|tei]``): one sentence for a wrong option."""
    parts = [p.strip() for p in options.split(",") if p.strip()]
    if not parts or "=" in parts[0]:
        raise InputError(key="rerank.no_model")
    model, settings = parts[0], spec_options(f"rerank({options})", parts[1:])
    depth = _depth(settings.pop("depth", str(DEPTH)))
    if model == SentenceMax.name or not model.startswith("api:"):
        if settings:
            raise option_error("rerank", next(iter(settings)), settings[next(iter(settings))],
                               "depth")
        reranker: Reranker = SentenceMax() if model == SentenceMax.name \
            else CrossEncoderReranker(model)
        return RerankedScorer(first, reranker, depth)
    from ragviz.retrieval.rerank_api import ApiReranker

    api = ApiReranker.from_options(model.removeprefix("api:"), settings)
    return RerankedScorer(first, api, depth, api.options)


def _depth(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= MAX_DEPTH:
        raise option_error("rerank", "depth", text, f"1 to {MAX_DEPTH}")
    return int(text)


register_stage("rerank", reranked)
