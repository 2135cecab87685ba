"""ann-miss on Chroma (issue 35 item 4: "this label applies to Chroma too"): a persistent
collection whose HNSW search is asked with hnsw:search_ef = 1, among 3,000 other vectors;
exact search is a brute force over the stored vectors, paged. Where Chroma's own top_k left
out a chunk exact search ranks inside it, the labels say what that top_k sent: ann-miss first
when the exact ranking (the collection loaded whole) sent the answer, never ok without it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ragviz.embedding.models import Embedder
from tests.test_index_pgvector import (
    article_chunks,
    assert_labels_read_the_database_top_k,
    evaluate,
)


def test_ann_miss_on_chroma_with_a_low_search_ef(capsys: pytest.CaptureFixture[str],
                                                 tmp_path: Path, use_model: Embedder) -> None:
    import chromadb

    texts, sources, starts = article_chunks()
    vectors = use_model.encode_documents(texts)
    client = chromadb.PersistentClient(path=str(tmp_path / "db"))
    collection = client.create_collection("refunds", embedding_function=None, configuration={
        "hnsw": {"ef_search": 1, "space": "cosine"}})
    filler = np.random.default_rng(7).normal(size=(3_000, vectors.shape[1])).astype(np.float32)
    collection.add(ids=[f"f{i}" for i in range(len(filler))], embeddings=filler,
                   documents=[f"registro {i}" for i in range(len(filler))])
    collection.add(ids=[f"c{i}" for i in range(len(texts))], documents=texts,
                   embeddings=vectors, metadatas=[{"source": s, "start_index": n}
                                                  for s, n in zip(sources, starts, strict=True)])
    index = f"chroma:{tmp_path / 'db'}"
    args = ("--top-k", "3", "--margin", "0")
    exact = evaluate(capsys, index, "--index-mode", "memory", *args)
    database = evaluate(capsys, index, "--index-mode", "database", *args)
    check = database["index"]["exact_check"]
    assert check["settings"] == "the collection's hnsw:search_ef (now 1)"
    assert check["recall_at_k"] < 1
    missed = [row for row in database["questions"] if "ann-miss" in row["labels"]]
    assert len(missed) == check["questions_missed"] > 0
    for row, whole in zip(database["questions"], exact["questions"], strict=True):
        assert_labels_read_the_database_top_k(row, whole)
    for row in missed:
        assert 1 <= row["diagnosis"]["ann_miss"]["exact_rank"] <= 3
