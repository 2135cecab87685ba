"""Hybrid retrieval: the dense (cosine) ranking fused with BM25's, the fix teams reach for
when the answer's chunk is ``outranked``.

- ``hybrid`` (reciprocal rank fusion, k = 60): score = Σ 1 / (k + rank), ranks from 1 in each
  ranking (ties in chunk order); a chunk sharing no word with the question has no BM25 rank
  and gets the dense term only, as a keyword engine would not return it.
- ``hybrid(fusion=weighted,alpha=A)``: both rows min-max normalised per question, then
  A·dense + (1 − A)·BM25.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ragviz.chunking.base import Chunk
from ragviz.retrieval.bm25 import Bm25Index, Bm25Scorer
from ragviz.retrieval.scorers import (
    CosineScorer,
    ScoreRow,
    ScoreScale,
    Vectors,
    option_error,
    register_scorer,
)

RRF_K = 60
ALPHA = 0.5
FUSIONS = ("rrf", "weighted")


@dataclass(frozen=True)
class HybridIndex:
    vectors: Vectors
    lexical: Bm25Index


def ranks(row: npt.NDArray[np.floating]) -> npt.NDArray[np.int64]:
    """1-based rank of each chunk by descending score, ties in chunk order."""
    order = np.argsort(-row, kind="stable")
    out = np.empty(len(row), dtype=np.int64)
    out[order] = np.arange(1, len(row) + 1)
    return out


def rrf(dense: npt.NDArray[np.floating], lexical: npt.NDArray[np.floating],
        k: int = RRF_K) -> npt.NDArray[np.float64]:
    """Reciprocal rank fusion of two score rows; a lexical score of 0 (no shared word)
    contributes nothing."""
    fused = 1.0 / (k + ranks(dense))
    matched = lexical > 0
    return fused + np.where(matched, 1.0 / (k + ranks(lexical)), 0.0)


def min_max(row: npt.NDArray[np.floating]) -> npt.NDArray[np.float64]:
    """The row mapped onto 0..1 (all zeros when every score is the same)."""
    values = np.asarray(row, dtype=np.float64)
    spread = values.max() - values.min() if len(values) else 0.0
    return (values - values.min()) / spread if spread > 0 else np.zeros_like(values)


class HybridScorer:
    """Dense and BM25 rankings fused (see the module's docstring)."""

    def __init__(self, fusion: str = "rrf", k: int = RRF_K, alpha: float = ALPHA,
                 lexical: Bm25Scorer | None = None) -> None:
        self.fusion, self.k, self.alpha = fusion, k, alpha
        self.lexical = lexical or Bm25Scorer()
        self.name = _name(fusion, k, alpha, self.lexical)
        self.scale = ScoreScale(0.0, 2.0 / (k + 1), 0.0005, "chart.rrf_score") \
            if fusion == "rrf" else ScoreScale(0.0, 1.0, 0.01, "chart.fused_score")

    def configured(self, options: dict[str, str]) -> HybridScorer:
        fusion = options.pop("fusion", "rrf")
        if fusion not in FUSIONS:
            raise option_error("hybrid", "fusion", fusion, ", ".join(FUSIONS))
        k = _number(options.pop("k", str(RRF_K)), "k", int, 1, 10_000)
        alpha = _number(options.pop("alpha", str(ALPHA)), "alpha", float, 0.0, 1.0)
        return HybridScorer(fusion, int(k), float(alpha), self.lexical.configured(options))

    def prepare(self, chunks: Sequence[Chunk], chunk_vectors: Vectors) -> HybridIndex:
        return HybridIndex(chunk_vectors, self.lexical.prepare(chunks, chunk_vectors))

    def score_rows(self, prepared: HybridIndex, questions: Sequence[str],
                   query_vectors: Vectors) -> list[ScoreRow]:
        dense = CosineScorer().score_rows(prepared.vectors, questions, query_vectors)
        lexical = self.lexical.score_rows(prepared.lexical, questions, query_vectors)
        return [self.fuse(np.asarray(d), np.asarray(w))
                for d, w in zip(dense, lexical, strict=True)]

    def fuse(self, dense: npt.NDArray[np.floating],
             lexical: npt.NDArray[np.floating]) -> npt.NDArray[np.float64]:
        if not len(dense):
            return np.zeros(0, dtype=np.float64)
        if self.fusion == "rrf":
            return rrf(dense, lexical, self.k)
        return self.alpha * min_max(dense) + (1 - self.alpha) * min_max(lexical)


def _number(text: str, option: str, kind: type[int] | type[float], low: float,
            high: float) -> float:
    try:
        value = kind(text)
    except ValueError:
        value = None
    if value is None or not low <= value <= high:
        raise option_error("hybrid", option, text, f"{low:g} to {high:g}")
    return value


def _name(fusion: str, k: int, alpha: float, lexical: Bm25Scorer) -> str:
    """The canonical spec: options sorted, defaults left out."""
    options = {"fusion": fusion if fusion != "rrf" else "",
               "k": str(k) if fusion == "rrf" and k != RRF_K else "",
               "alpha": f"{alpha:g}" if fusion == "weighted" and alpha != ALPHA else "",
               "stemmer": lexical.stemmer, "stopwords": lexical.stopwords}
    shown = ",".join(f"{key}={value}" for key, value in sorted(options.items()) if value)
    return f"hybrid({shown})" if shown else "hybrid"


register_scorer(HybridScorer())
