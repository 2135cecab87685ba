"""Qdrant as a production index (issue 35, item 2), on qdrant-client's real local mode: the
payloads LangChain and LlamaIndex write, and named vectors, give the labels and scores of the
same chunks in Chroma, in memory and database modes; the storage folder is never written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragviz.embedding.models import Embedder
from ragviz.index.open import open_index
from ragviz.index.qdrant import QdrantReader
from tests.index_fixtures import DOC, SOURCE, chroma_collection
from tests.test_index import fails, run
from tests.test_index_pgvector import article_chunks, evaluate, same


def qdrant_storage(path: Path, texts: list[str], vectors: Any, sources: list[str],
                   starts: list[int]) -> None:
    """Three collections in local-mode storage: LangChain's payloads, LlamaIndex's, and
    LangChain's under a named vector beside another."""
    from qdrant_client import QdrantClient
    from qdrant_client.models import Distance, PointStruct, VectorParams

    client = QdrantClient(path=str(path))
    size = len(vectors[0])
    plain = VectorParams(size=size, distance=Distance.COSINE)
    client.create_collection("langchain", vectors_config=plain)
    client.create_collection("llama", vectors_config=plain)
    client.create_collection("named", vectors_config={"dense": plain, "other": VectorParams(
        size=3, distance=Distance.COSINE)})
    lang, llama, named = [], [], []
    for n, (text, vector, source, start) in enumerate(
            zip(texts, vectors, sources, starts, strict=True)):
        payload = {"page_content": text, "metadata": {"source": source, "start_index": start}}
        lang.append(PointStruct(id=n, vector=list(map(float, vector)), payload=payload))
        node = {"id_": f"n{n}", "text": text, "start_char_idx": start,
                "end_char_idx": start + len(text), "metadata": {"file_name": source}}
        llama.append(PointStruct(id=n, vector=list(map(float, vector)), payload={
            "file_name": source, "_node_content": json.dumps(node, ensure_ascii=False),
            "_node_type": "TextNode", "doc_id": "d", "ref_doc_id": "d"}))
        named.append(PointStruct(id=n, vector={"dense": list(map(float, vector)),
                                               "other": [1.0, 0.0, float(n % 2)]},
                                 payload=payload))
    client.upsert("langchain", lang)
    client.upsert("llama", llama)
    client.upsert("named", named)
    client.close()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, use_model: Embedder) -> tuple[Path, Path]:
    texts, sources, starts = article_chunks()
    vectors = use_model.encode_documents(texts)
    folder = tmp_path_factory.mktemp("stores")
    chroma_collection(folder / "chroma", "refunds", texts, vectors, sources)
    qdrant_storage(folder / "qdrant", texts, vectors, sources, starts)
    return folder / "chroma", folder / "qdrant"


@pytest.mark.parametrize("layout", [("--collection", "langchain"), ("--collection", "llama"),
                                    ("--collection", "named", "--vector-name", "dense")])
def test_qdrant_gives_chromas_labels_and_scores_in_both_modes(
        capsys: pytest.CaptureFixture[str], built: tuple[Path, Path],
        layout: tuple[str, ...]) -> None:
    chroma_dir, storage = built
    chroma = evaluate(capsys, f"chroma:{chroma_dir}", "--index-mode", "memory")
    for mode in ("memory", "database"):
        data = evaluate(capsys, f"qdrant:{storage}", "--index-mode", mode, *layout)
        assert data["index"]["mode"] == mode
        same(data, chroma)


def test_collections_listed_and_folder_recognised(capsys: pytest.CaptureFixture[str],
                                                  built: tuple[Path, Path]) -> None:
    _, storage = built
    before = sorted((p.relative_to(storage), p.stat().st_mtime_ns) for p in storage.rglob("*"))
    data = run(capsys, "index", str(storage), "--vector-name", "dense", "--json")
    assert [c["collection"] for c in data["collections"]] == ["langchain", "llama", "named"]
    assert {c["dimension"] for c in data["collections"]} == {512}
    after = sorted((p.relative_to(storage), p.stat().st_mtime_ns) for p in storage.rglob("*"))
    assert after == before  # read on a copy: nothing written, not even a lock


def test_llama_payload_offsets_slice_the_source(built: tuple[Path, Path]) -> None:
    reader = open_index(f"qdrant:{built[1]}")
    assert isinstance(reader, QdrantReader)
    text = DOC.read_text(encoding="utf-8")
    placed = [c for c in reader.read("llama").chunks if c.source == SOURCE]
    assert placed and all(text[c.start:c.end] == c.text for c in placed)
    accented = next(c.text for c in placed if "ç" in c.text)[5:30]
    assert [c.text for c in reader.containing("llama", accented, 5)] == [
        c.text for c in placed if accented in c.text][:5]


def test_named_vectors_need_a_name(capsys: pytest.CaptureFixture[str],
                                   built: tuple[Path, Path]) -> None:
    err = fails(capsys, "index", f"qdrant:{built[1]}", "--collection", "named")
    assert "several named vectors: choose one with --vector-name (dense, other)" in err
