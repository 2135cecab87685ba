"""Real indexes built in the tests: Chroma collections written with ``chromadb`` and chunk
exports written the way LangChain and LlamaIndex write them (no mock of any store)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ragviz.chunking import Chunk, ChunkerConfig, make_chunks
from ragviz.embedding.models import Embedder

SAMPLES = Path(__file__).resolve().parent.parent / "sample_docs"
DOC = SAMPLES / "politica_reembolso.txt"
QUESTIONS = SAMPLES / "politica_reembolso.csv"
SOURCE = "politica_reembolso.txt"


def fixed_120(text: str) -> tuple[Chunk, ...]:
    """The article's failing configuration, as a production splitter would have cut it."""
    return make_chunks(text, ChunkerConfig.create("fixed", size=120, overlap=0)).chunks


def chroma_collection(path: Path, name: str, texts: Sequence[str], vectors: Any,
                      sources: Sequence[str] | None = None) -> None:
    """A persistent Chroma collection holding ``texts`` with the given vectors."""
    import chromadb

    client = chromadb.PersistentClient(path=str(path))
    collection = client.get_or_create_collection(name, embedding_function=None)
    if texts:
        collection.add(ids=[f"{name}-{i}" for i in range(len(texts))], documents=list(texts),
                       embeddings=np.asarray(vectors).tolist(),
                       metadatas=[{"source": s} for s in (sources or [SOURCE] * len(texts))])


def other_model_vectors(minilm: Embedder, texts: Sequence[str], dimension: int) -> Any:
    """Vectors of another model with ``dimension`` outputs: MiniLM followed by a fixed
    random projection (a different, self-consistent embedding space of that size)."""
    projection = np.random.default_rng(21).normal(size=(384, dimension)).astype(np.float32)
    vectors = minilm.encode_documents(list(texts)) @ projection
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def write_jsonl(path: Path, records: Sequence[dict[str, Any] | str]) -> None:
    """One record per line; a string is written as the line itself (to break a line)."""
    lines = [r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def article_among_others(path: Path, embedder: Embedder, name: str = "refunds",
                         dimension: int | None = None) -> int:
    """The article's fixed-120 chunks stored after those of another sample document, so a
    question's top_k plus a small margin is a small part of the collection; returns the
    collection's count. With ``dimension``, the vectors are another model's
    (``other_model_vectors`` from ``embedder``)."""
    other = SAMPLES / "residents_guide.txt"
    pairs = [(c.text, other.name) for c in fixed_120(other.read_text(encoding="utf-8"))]
    pairs += [(c.text, SOURCE) for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    texts = [text for text, _ in pairs]
    vectors = embedder.encode_documents(texts) if dimension is None \
        else other_model_vectors(embedder, texts, dimension)
    chroma_collection(path, name, texts, vectors, [source for _, source in pairs])
    return len(texts)
