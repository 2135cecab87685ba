"""BM25 (Lucene's variant, k1 = 1.5, b = 0.75), computed by ``bm25s`` on sparse matrices.

Tokens are what ``bm25s.tokenize`` makes (lowercase, ``(?u)\\b\\w\\w+\\b``); by default no
stopword is dropped and nothing is stemmed, so a Portuguese document is read as written.
``bm25(stopwords=en|pt, stemmer=en|pt)`` change that. Scores start at 0 (no word of the
question in the chunk) and have no top: the scale's top is read off the scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ragviz.chunking.base import Chunk
from ragviz.errors import InputError
from ragviz.retrieval.scorers import (
    ScoreRow,
    ScoreScale,
    Vectors,
    option_error,
    register_scorer,
)

K1 = 1.5
B = 0.75
LANGUAGES = {"en": ("english", "en"), "pt": ("portuguese", "pt")}  # stemmer, bm25s stopwords
BM25_SCALE = ScoreScale(low=0.0, high=10.0, step=0.1, label="chart.bm25_score", bounded=False,
                        no_match=0.0)


@dataclass(frozen=True)
class Bm25Index:
    """The chunks indexed by bm25s, and how their tokens were made (the questions' too)."""

    retriever: Any  # None when no chunk holds a word (emoji, punctuation): all score 0
    stopwords: str | None
    stemmer: Any
    count: int = 0  # the chunks


class Bm25Scorer:
    """Lexical overlap, weighted by how rare each shared word is: the exact-word match that
    an averaged embedding vector can miss (a product code, a name, a number)."""

    scale = BM25_SCALE

    def __init__(self, stopwords: str = "", stemmer: str = "") -> None:
        self.stopwords = stopwords
        self.stemmer = stemmer
        options = [f"{key}={value}" for key, value in
                   (("stemmer", stemmer), ("stopwords", stopwords)) if value]
        self.name = f"bm25({','.join(options)})" if options else "bm25"

    def configured(self, options: dict[str, str]) -> Bm25Scorer:
        for key, value in options.items():
            if key not in ("stopwords", "stemmer"):
                raise option_error("bm25", key, value, "stopwords, stemmer")
            if value not in LANGUAGES:
                raise option_error("bm25", key, value, ", ".join(LANGUAGES))
        return Bm25Scorer(options.get("stopwords", ""), options.get("stemmer", ""))

    def prepare(self, chunks: Sequence[Chunk], chunk_vectors: Vectors) -> Bm25Index:
        import bm25s

        stemmer = stemmer_for(self.stemmer)
        stopwords = LANGUAGES[self.stopwords][1] if self.stopwords else None
        tokens = bm25s.tokenize([c.text for c in chunks], stopwords=stopwords, stemmer=stemmer,
                                show_progress=False)
        if not any(len(ids) for ids in tokens.ids):  # bm25s cannot index no word at all
            return Bm25Index(None, stopwords, stemmer, len(chunks))
        retriever = bm25s.BM25(k1=K1, b=B, method="lucene")
        retriever.index(tokens, show_progress=False)
        return Bm25Index(retriever, stopwords, stemmer, len(chunks))

    def score_rows(self, prepared: Bm25Index, questions: Sequence[str],
                   query_vectors: Vectors) -> list[ScoreRow]:
        import bm25s

        if not questions:
            return []
        if prepared.retriever is None:
            return [np.zeros(prepared.count, dtype=np.float32) for _ in questions]
        tokens = bm25s.tokenize(list(questions), stopwords=prepared.stopwords,
                                stemmer=prepared.stemmer, return_ids=False, show_progress=False)
        # A question with no word ("?", "😀", only stopwords) shares nothing: 0 everywhere,
        # which the decision says ("nothing_matched") rather than bm25s failing on it.
        return [np.asarray(prepared.retriever.get_scores(words), dtype=np.float32) if words
                else np.zeros(prepared.count, dtype=np.float32) for words in tokens]


def stemmer_for(language: str) -> Any:
    if not language:
        return None
    try:
        import Stemmer
    except ImportError:
        raise InputError(key="scorer.needs_stemmer") from None
    return Stemmer.Stemmer(LANGUAGES[language][0])


register_scorer(Bm25Scorer())
