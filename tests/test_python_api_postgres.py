"""``ragviz.evaluate(index=<a Postgres store object>)`` (issue 47): LangChain's ``PGVector``
(langchain-postgres, and the older langchain_community one) and LlamaIndex's
``PGVectorStore`` (llama-index-vector-stores-postgres),
built as their docs build them and filled through their own ``add`` calls on the tests' real
Postgres with pgvector, are read by ragviz's read-only pgvector reader: the same numbers as
``ragviz eval --index postgresql://...`` on the same database."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest

import ragviz
from ragviz.cli.command import main
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError
from tests.index_fixtures import DOC
from tests.index_fixtures import QUESTIONS as CSV
from tests.pg_fixtures import new_database, postgres
from tests.test_index_pgvector import article_chunks


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    yield from postgres()


def _driver(uri: str, driver: str) -> str:
    """The tests' libpq URI as a SQLAlchemy URL of ``driver`` (``postgresql+psycopg://``)."""
    return uri.replace("postgresql://", f"postgresql+{driver}://", 1)


def bundled(model: Embedder) -> Any:
    """ragviz's default model as LangChain's ``Embeddings`` (what production embedded with)."""
    from langchain_core.embeddings import Embeddings

    class Bundled(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [[float(x) for x in row] for row in model.encode_documents(texts)]

        def embed_query(self, text: str) -> list[float]:
            return [float(x) for x in model.encode_queries([text])[0]]

    return Bundled()


def _cli(capsys: pytest.CaptureFixture[str], uri: str, collection: str) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["eval", "--index", uri, "--collection", collection, "--sources", str(DOC),
                 "--questions", str(CSV), "--top-k", "1", "--json"]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def _same_run(api: dict[str, Any], cli: dict[str, Any]) -> None:
    assert api["metrics"] == cli["metrics"]
    assert [q["labels"] for q in api["questions"]] == [q["labels"] for q in cli["questions"]]
    assert [[h["score"] for h in q["hits"]] for q in api["questions"]] == \
        [[h["score"] for h in q["hits"]] for q in cli["questions"]]
    assert api["metrics"]["answerable"] > 0 and api["metrics"]["mrr"] is not None  # ranked


def _langchain_pgvector(uri: str, model: Embedder) -> Any:
    """langchain-postgres's ``PGVector``, as its docs build it (psycopg 3)."""
    from langchain_postgres import PGVector

    return PGVector(embeddings=bundled(model), collection_name="refunds",
                    connection=_driver(uri, "psycopg"), use_jsonb=True)


def _community_pgvector(uri: str, model: Embedder) -> Any:
    """The older ``langchain_community.vectorstores.PGVector``, as its docs build it."""
    from langchain_community.vectorstores import PGVector

    return PGVector(connection_string=_driver(uri, "psycopg2"),
                    embedding_function=bundled(model), collection_name="refunds",
                    use_jsonb=True)


@pytest.mark.parametrize("make", [_langchain_pgvector, _community_pgvector],
                         ids=["langchain_postgres", "langchain_community"])
def test_a_langchain_pgvector_store_is_read_as_its_database_is(
        make: Any, server: str, use_model: Embedder,
        capsys: pytest.CaptureFixture[str]) -> None:
    from ragviz.api.stores import index_spec

    uri = new_database(server, f"lc_{make.__name__.strip('_')}")
    texts, sources, starts = article_chunks()
    store = make(uri, use_model)
    store.add_texts(texts, metadatas=[{"source": s, "start_index": n}
                                      for s, n in zip(sources, starts, strict=True)],
                    ids=[f"refunds-{i}" for i in range(len(texts))])
    spec, collection = index_spec(store, None)
    assert collection == "refunds" and spec.startswith("postgresql://")
    api = ragviz.evaluate([DOC], CSV, index=store, top_k=1).to_json()
    _same_run(api, _cli(capsys, uri, "refunds"))
    assert api["chunker"] == "index refunds"
    assert len(store.similarity_search("refund", k=1)) == 1  # the store still answers


def test_a_llamaindex_pgvectorstore_is_read_as_its_table_is(
        server: str, use_model: Embedder, capsys: pytest.CaptureFixture[str]) -> None:
    """Two stores of one name, in ``public`` and in another schema: each is its own table
    (``data_refunds``, ``kb.data_refunds``), never the other's."""
    from llama_index.core.schema import TextNode
    from llama_index.vector_stores.postgres import PGVectorStore

    uri = new_database(server, "llama_api")
    texts, sources, starts = article_chunks()
    vectors: Sequence[Any] = np.asarray(use_model.encode_documents(texts)).tolist()
    rows = list(zip(texts, vectors, sources, starts, strict=True))
    stores = {}
    for schema, kept in (("public", rows), ("kb", [r for r in rows if r[2] == DOC.name])):
        store = PGVectorStore.from_params(
            connection_string=_driver(uri, "psycopg2"),
            async_connection_string=_driver(uri, "asyncpg"),
            table_name="Refunds", schema_name=schema, embed_dim=len(vectors[0]))
        store.add([TextNode(text=text, embedding=vector, metadata={"file_name": source},
                            start_char_idx=start, end_char_idx=start + len(text))
                   for text, vector, source, start in kept])
        stores[schema] = (store, len(kept))
    assert stores["kb"][1] < stores["public"][1]
    for schema, name in (("public", "data_refunds"), ("kb", "kb.data_refunds")):
        store, count = stores[schema]
        result = ragviz.evaluate([DOC], CSV, index=store, top_k=1)
        assert len(result.chunks) == count  # its own table's rows
        _same_run(result.to_json(), _cli(capsys, uri, name))  # LlamaIndex lowercases it


def test_langchains_pgvectorstore_is_told_the_uri_which_then_reads_its_table(
        server: str, use_model: Embedder, capsys: pytest.CaptureFixture[str]) -> None:
    """LangChain's newer ``PGVectorStore`` keeps chunks in a table of the user's columns: the
    sentence names the URI with ``table=`` and its columns, and that call reads it."""
    from langchain_postgres import PGEngine, PGVectorStore

    uri = new_database(server, "langchain_v2")
    texts, sources, starts = article_chunks()
    engine = PGEngine.from_connection_string(url=_driver(uri, "psycopg"))
    engine.init_vectorstore_table(table_name="notes", vector_size=use_model.dimension)
    store = PGVectorStore.create_sync(engine=engine, table_name="notes",
                                      embedding_service=bundled(use_model))
    store.add_texts(texts, metadatas=[{"source": s, "start_index": n}
                                      for s, n in zip(sources, starts, strict=True)])
    with pytest.raises(InputError) as caught:
        ragviz.evaluate([DOC], CSV, index=store)
    said = str(caught.value)
    assert "not a PGVectorStore" in said and 'index="postgresql://USER@HOST/DB"' in said
    data = ragviz.evaluate([DOC], CSV, index=uri, table="notes", text_column="content",
                           vector_column="embedding", metadata_column="langchain_metadata",
                           top_k=1).to_json()
    assert data["metrics"]["answerable"] > 0 and data["metrics"]["mrr"] is not None
