"""The app's Index source on the store registry (issue 35 item 1): an upload recognised by
its content (a zipped Qdrant storage, a JSONL without its suffix), and servers allowed per
scheme by RAGVIZ_INDEX_HOSTS (a server not named is never contacted, a password never said)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ragviz.embedding.models import Embedder
from ragviz.errors import IndexInputError
from ragviz.index.pgvector import PgReader
from ragviz.index.qdrant import QdrantReader
from ragviz_app.index_source import INDEX_HOSTS_ENV, server_reader, upload_reader
from tests.index_fixtures import write_jsonl
from tests.pg_fixtures import langchain_tables, new_database, postgres
from tests.test_index_pgvector import article_chunks
from tests.test_index_qdrant import qdrant_storage
from tests.test_index_readonly import zip_folder


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from postgres()


def test_a_zipped_qdrant_storage_is_recognised(tmp_path: Path, use_model: Embedder) -> None:
    texts, sources, starts = article_chunks()
    qdrant_storage(tmp_path / "q", texts, use_model.encode_documents(texts), sources, starts)
    reader = upload_reader("vectors.zip", zip_folder(tmp_path / "q"))
    assert isinstance(reader, QdrantReader)
    assert [c.name for c in reader.collections()] == ["langchain", "llama", "named"]
    assert len(reader.read("langchain").chunks) == len(texts)


def test_an_export_without_its_suffix_is_read_by_content(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "x", [{"page_content": "Refunds take 7 days."}])
    reader = upload_reader("export.dat", (tmp_path / "x").read_bytes())
    assert [c.text for c in reader.read().chunks] == ["Refunds take 7 days."]


def test_servers_are_allowed_per_scheme(server: str, monkeypatch: pytest.MonkeyPatch,
                                        use_model: Embedder) -> None:
    uri = new_database(server, "app")
    langchain_tables(uri, "refunds", ["a"], ["Refunds take 7 days."],
                     use_model.encode_documents(["Refunds take 7 days."]), [{}])
    socket = uri.split("host=")[1]
    monkeypatch.setenv(INDEX_HOSTS_ENV, "qdrant+http://vectors.corp:6333")
    monkeypatch.setenv("RAGVIZ_CHROMA_HOSTS", socket)  # Chroma's list allows no Postgres
    with pytest.raises(IndexInputError) as refused:
        server_reader("postgresql://bob:s3cret-pw@10.0.0.5:5432/prod")
    said = str(refused.value)
    assert INDEX_HOSTS_ENV in said and "10.0.0.5:5432" in said and "s3cret" not in said
    with pytest.raises(IndexInputError, match=INDEX_HOSTS_ENV):
        server_reader(uri)
    monkeypatch.setenv(INDEX_HOSTS_ENV, f"postgresql://{socket},qdrant+http://vectors.corp:1")
    reader = server_reader(uri)
    assert isinstance(reader, PgReader)
    assert [c.name for c in reader.collections()] == ["refunds"]
    with pytest.raises(IndexInputError, match=r"vectors\.corp:6333 is not one of them"):
        server_reader("qdrant+http://vectors.corp:6333")


def test_a_zipped_qdrant_upload_gives_the_chroma_uploads_labels(tmp_path: Path,
                                                                use_model: Embedder) -> None:
    """The app on a Qdrant storage of two collections (the picker drawn for any store that
    lists collections): the article's collection gives the labels of the same chunks in an
    uploaded Chroma directory."""
    from qdrant_client import QdrantClient
    from qdrant_client.models import Distance, PointStruct, VectorParams

    from tests.index_fixtures import DOC, chroma_collection, fixed_120
    from tests.test_app import rerun
    from tests.test_app_index import badges, index_app, keep_if_asked, zipped

    texts = [c.text for c in fixed_120(DOC.read_text(encoding="utf-8"))]
    vectors = use_model.encode_documents(texts)
    chroma_collection(tmp_path / "chroma", "refunds", texts, vectors)
    client = QdrantClient(path=str(tmp_path / "qdrant"))
    plain = VectorParams(size=len(vectors[0]), distance=Distance.COSINE)
    for name in ("another", "refunds"):
        client.create_collection(name, vectors_config=plain)
    client.upsert("another", [PointStruct(id=0, vector=list(map(float, vectors[0])),
                                          payload={"page_content": "Outro texto."})])
    client.upsert("refunds", [PointStruct(id=n, vector=list(map(float, v)), payload={
        "page_content": t, "metadata": {"source": "politica_reembolso.txt"}})
        for n, (t, v) in enumerate(zip(texts, vectors, strict=True))])
    client.close()
    chroma = index_app(("refunds.zip", zipped(tmp_path / "chroma")))
    qdrant = index_app(("vectors.zip", zipped(tmp_path / "qdrant")))
    options = qdrant.radio(key="index_collection").options
    assert [o.split(" (")[0] for o in options] == ["another", "refunds"]
    qdrant.radio(key="index_collection").set_value("refunds")
    keep_if_asked(rerun(qdrant))
    assert badges(chroma, "A") and badges(qdrant, "A") == badges(chroma, "A")


def test_an_allowed_postgres_server_gives_the_chroma_uploads_labels(
        server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        use_model: Embedder) -> None:
    """The app's server field on a Postgres URI the operator allowed: the LangChain
    collection of the article's chunks gives the labels of the same chunks uploaded as a
    Chroma directory."""
    from tests.index_fixtures import DOC, SOURCE, chroma_collection, fixed_120
    from tests.test_app import rerun
    from tests.test_app_index import badges, index_app, keep_if_asked, zipped

    chunks = fixed_120(DOC.read_text(encoding="utf-8"))
    texts = [c.text for c in chunks]
    vectors = use_model.encode_documents(texts)
    chroma_collection(tmp_path / "chroma", "refunds", texts, vectors)
    uri = new_database(server, "appserver")
    langchain_tables(uri, "refunds", [f"refunds-{i}" for i in range(len(texts))], texts,
                     vectors, [{"source": SOURCE} for _ in texts])
    monkeypatch.setenv(INDEX_HOSTS_ENV, f"postgresql://{uri.split('host=')[1]}")
    chroma = index_app(("refunds.zip", zipped(tmp_path / "chroma")))
    postgres_app = index_app(None)
    postgres_app.radio(key="index_from").set_value("server")
    rerun(postgres_app)
    postgres_app.text_input(key="index_server").set_value(uri)
    keep_if_asked(rerun(postgres_app))
    assert badges(chroma, "A") and badges(postgres_app, "A") == badges(chroma, "A")
