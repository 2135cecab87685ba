"""Retrieval exactly as production: questions embedded with the chosen model and scored
against the index's stored vectors; the chunk texts are re-embedded only to check the
vectors (``vector-mismatch``), and near-copies are found on the stored vectors
(``duplicate-crowding``)."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from ragviz.chunking import ChunkerConfig, ChunkingResult
from ragviz.embedding.base import Progress
from ragviz.embedding.models import Embedder
from ragviz.evaluation.pipeline import analyse_chunked, encode_questions
from ragviz.evaluation.results import Analysis, RetrievalSettings
from ragviz.index import messages
from ragviz.index.base import IndexInputError, LoadedIndex, Vector
from ragviz.index.duplicates import duplicate_groups
from ragviz.index.messages import say
from ragviz.index.placement import Placed, place
from ragviz.inputs.corpus import Corpus
from ragviz.inputs.questions import LabelledQuestion

STALE_CHUNK = "stale-chunk"
VECTOR_MISMATCH = "vector-mismatch"
MISMATCH_COSINE = 0.99  # a stored vector this far from its text's re-embedding is suspect
# The label the analysis carries in place of a chunker: production made these chunks.
INDEX_CONFIG = ChunkerConfig("index")


@dataclass(frozen=True)
class IndexAnalysis:
    """The pipeline's analysis on the stored vectors, plus what only an index has."""

    analysis: Analysis
    index: LoadedIndex
    placed: Placed
    agreement: tuple[float, ...]  # cosine of each stored vector with its re-embedding (NaN:
    # not checked, when the database retrieved and only the chunks in a top_k were checked)
    groups: tuple[int, ...]  # duplicate group per chunk, -1 when it has no copy
    stored: bool  # False: the index had no vectors, the model's own were used

    def chunk_labels(self, index: int) -> tuple[str, ...]:
        labels = []
        if self.placed.stale[index] is not None:
            labels.append(STALE_CHUNK)
        if self.stored and self.agreement[index] < MISMATCH_COSINE:
            labels.append(VECTOR_MISMATCH)
        return tuple(labels)

    @property
    def mismatch_share(self) -> float:
        checked = [a for a in self.agreement if not math.isnan(a)]
        if not self.stored or not checked:
            return 0.0
        return sum(a < MISMATCH_COSINE for a in checked) / len(checked)

    def warnings(self, lang: str = "en") -> tuple[str, ...]:
        """The sentence at the top of the page when most vectors do not match."""
        if self.mismatch_share <= 0.5:
            return ()
        share = f"{self.mismatch_share:.0%}"
        return (say("mismatch_warning", lang, share=share, model=self.analysis.model),)


def stored_matrix(index: LoadedIndex) -> Vector | None:
    """The stored vectors as unit rows, or None when the index stores none."""
    vectors = [c.vector for c in index.chunks]
    present = [v for v in vectors if v is not None]
    if not present:
        return None
    if len(present) < len(vectors):
        raise IndexInputError(key="index.vectors_missing", n=f"{len(vectors) - len(present):,}",
                              total=f"{len(vectors):,}", name=index.name)
    sizes = {len(v) for v in present}
    if len(sizes) > 1:
        raise IndexInputError(key="index.mixed_dimensions", name=index.name,
                              sizes=", ".join(str(s) for s in sorted(sizes)))
    matrix = np.vstack(present).astype(np.float32)
    unit: Vector = matrix / np.linalg.norm(matrix, axis=1, keepdims=True)
    return unit


def check_dimension(stored: Vector, embedder: Embedder) -> None:
    """One sentence naming both dimensions when the model cannot score the stored vectors
    (said again in the page's language through ``IndexInputError.localized``)."""
    if stored.shape[1] != embedder.dimension:
        raise IndexInputError(messages.Sentence("dimension", stored=stored.shape[1],
                                       model=embedder.name, dimension=embedder.dimension))


def analyse_index(index: LoadedIndex, embedder: Embedder,
                  questions: Sequence[LabelledQuestion],
                  sources: Corpus | None = None,
                  settings: RetrievalSettings | None = None,
                  progress: Progress | None = None,
                  check: Collection[int] | None = None) -> IndexAnalysis:
    """Rank the stored chunks for every question on the stored vectors (see module note);
    only the chunks in ``check`` are re-embedded to check their vectors (None: all)."""
    stored = stored_matrix(index)
    if stored is not None:
        check_dimension(stored, embedder)
    placed = place(index.chunks, sources, fallback=index.name)
    texts = [c.text for c in index.chunks]
    vectors, agreement = _checked(stored, texts, embedder, progress, check)
    groups = duplicate_groups(vectors, texts)
    analysis = analyse_chunked(placed.corpus, INDEX_CONFIG, embedder, questions,
                               ChunkingResult(placed.chunks), vectors,
                               encode_questions(embedder, questions),
                               settings or RetrievalSettings(), groups)
    return IndexAnalysis(analysis, index, placed, agreement, groups, stored is not None)


def _checked(stored: Vector | None, texts: Sequence[str], embedder: Embedder,
             progress: Progress | None,
             check: Collection[int] | None) -> tuple[Vector, tuple[float, ...]]:
    """The vectors to rank on, and each stored vector's cosine with its text's re-embedding
    (NaN for a chunk left unchecked); without stored vectors, the re-embeddings are used."""
    if stored is None or check is None:
        fresh = embedder.encode_documents(texts, progress)  # cached by (model, text)
        vectors = fresh if stored is None else stored
        return vectors, tuple(float(a) for a in np.sum(vectors * fresh, axis=1))
    picked = sorted(check)
    agreement = np.full(len(texts), np.nan)
    if picked:
        fresh = embedder.encode_documents([texts[i] for i in picked], progress)
        agreement[picked] = np.sum(stored[picked] * fresh, axis=1)
    return stored, tuple(float(a) for a in agreement)
