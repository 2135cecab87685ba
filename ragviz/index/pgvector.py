"""Postgres with pgvector: ``--index postgresql://...`` (any libpq URI, a Unix socket's
``?host=/path`` included), read in a read-only transaction (nothing is ever written).

Three layouts: LangChain's ``langchain-postgres`` (``langchain_pg_collection`` and
``langchain_pg_embedding``, one collection per row of the first), LlamaIndex's
``PGVectorStore`` tables (``data_<name>``: ``text``, ``metadata_``, ``node_id``,
``embedding``), and any table the user names (``--table``, ``--text-column``,
``--vector-column``, ``--id-column``, ``--metadata-column``). The memory mode loads a
collection as Chroma's does; the database mode asks ``ORDER BY embedding <=> q LIMIT n`` (the
table's index answers, as in production) and ``position()`` for the chunks holding an answer;
``exact_nearest`` asks the same with index scans off (a flat scan: the true nearest).

A URI's password is never said: the database is named by its user, host, port and name only,
and a driver's message is cut to its first line with the URI and password taken out.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ragviz.errors import IndexInputError, IndexLimitError
from ragviz.i18n import Grouped, Message, message
from ragviz.index import base
from ragviz.index.base import CollectionInfo, IndexChunk, LoadedIndex
from ragviz.index.messages import NONE
from ragviz.index.pg_conninfo import parse, redact
from ragviz.index.stores import OpenOptions, Store, register

INSTALL_HINT = "idx.needs_psycopg"  # the catalog key naming the package to install
_DIGITS = re.compile("([0-9]+)")  # a run of digits in an id (natural_key)
_FETCH = 2_000  # rows per round trip of the memory mode's cursor
_REASON_CHARS = 160
_TEXT_GUESS = ("text", "document", "page_content", "content", "chunk")
_VECTOR_GUESS = ("embedding", "vector", "embeddings")
_LISTED = 12  # tables named at most in a sentence


def _psycopg() -> Any:
    try:
        import psycopg
    except ImportError as error:  # pragma: no cover - the extra is installed in tests
        raise IndexInputError(key=INSTALL_HINT) from error
    return psycopg


@dataclass(frozen=True)
class Layout:
    """Where one collection's chunks live: a table, its columns, and the LangChain
    collection's uuid that filters its rows (None: the whole table)."""

    name: str
    schema: str
    table: str
    text: str
    vector: str
    id: str | None = None
    metadata: str | None = None
    collection_id: str | None = None


def where_of(uri: str) -> Message:
    """The database named without its password: ``user@host:port/dbname``."""
    from psycopg.conninfo import conninfo_to_dict

    try:
        parts = conninfo_to_dict(uri)
    except Exception:  # an unparsable URI is refused when connecting, said then
        return message("idx.pg_where_unknown")
    host = str(parts.get("host") or "localhost")
    port = f":{parts['port']}" if parts.get("port") else ""
    user = f"{parts['user']}@" if parts.get("user") else ""
    target = f"{user}{host}{port}/{parts.get('dbname') or ''}".rstrip("/")
    return message("idx.pg_where", target=target)


class PgReader(base.TwoSearches):
    """A pgvector database seen through ``IndexReader`` and ``RetrievingIndex``."""

    def __init__(self, uri: str, options: OpenOptions) -> None:
        self.uri, self.timeout = uri, options.timeout
        self.where = where_of(uri)
        self.extra = options.extra
        self.progress = options.progress
        self._conn: Any = None
        self._layouts: list[Layout] | None = None

    def set_timeout(self, seconds: float) -> None:
        self.timeout = seconds
        if self._conn is not None:
            with self._guard():
                self._conn.execute(f"SET statement_timeout = {int(seconds * 1000)}")
                self._conn.commit()

    # --- the connection and its sentences -------------------------------------------------

    @property
    def conn(self) -> Any:
        if self._conn is None:
            self._conn = connect(self.uri, self.timeout, self.where)
        return self._conn

    @contextlib.contextmanager
    def _guard(self) -> Iterator[None]:
        """Whatever the driver raises, as one sentence (the transaction rolled back)."""
        psycopg = _psycopg()
        try:
            yield
        except IndexInputError:
            raise
        except psycopg.errors.QueryCanceled:
            self._rollback()
            raise IndexInputError(key="idx.pg_timeout", where=self.where,
                                  seconds=f"{self.timeout:g}") from None
        except psycopg.Error as error:
            self._rollback()
            raise IndexInputError(key="idx.pg_error", where=self.where,
                                  reason=scrub(error, self.uri)) from None

    def _rollback(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                self._conn.rollback()

    @contextlib.contextmanager
    def _transaction(self, exact: bool = False) -> Iterator[Any]:
        """A read-only transaction (``exact``: index scans off, so the planner scans)."""
        with self._guard(), self.conn.transaction():
            if exact:
                self.conn.execute("SET LOCAL enable_indexscan = off")
                self.conn.execute("SET LOCAL enable_bitmapscan = off")
            yield self.conn

    # --- IndexReader -----------------------------------------------------------------------

    def layouts(self) -> list[Layout]:
        if self._layouts is None:
            with self._transaction() as conn:
                self._layouts = find_layouts(conn, self.extra, self.where)
        return self._layouts

    def layout(self, collection: str | None) -> Layout:
        found = self.layouts()
        if collection is None:
            if len(found) == 1:
                return found[0]
            raise IndexInputError(key="idx.several_collections", where=self.where,
                                  n=len(found), names=", ".join(x.name for x in found))
        match = next((x for x in found if x.name == collection), None)
        if match is None:
            raise IndexInputError(key="idx.no_collection", where=self.where, name=collection,
                                  known=", ".join(x.name for x in found) or NONE)
        return match

    def collections(self) -> list[CollectionInfo]:
        return [self._info(layout, check=False) for layout in self.layouts()]

    def info(self, collection: str | None = None) -> CollectionInfo:
        return self._info(self.layout(collection), check=True)

    def _info(self, layout: Layout, check: bool) -> CollectionInfo:
        q = Queries(layout)
        with self._transaction() as conn:
            total, with_vector = conn.execute(q.counts(), q.params()).fetchone()
            dimension = conn.execute(q.dimension(), q.params()).fetchone()
            oversized = conn.execute(q.oversized(), (
                base.MAX_CHUNK_CHARS, base.MAX_RECORD_BYTES, *q.params())).fetchone()
        if check and with_vector < total:
            raise IndexInputError(key="idx.pg_null_vectors", n=total - with_vector,
                                  total=Grouped(total), name=layout.name,
                                  column=layout.vector)
        if check and oversized is not None:
            raise IndexLimitError(key="idx.pg_chunk_too_long", where=self.where,
                                  name=layout.name, id=str(oversized[0])[:80],
                                  n=int(oversized[1]), bytes=Grouped(oversized[2]),
                                  limit=Grouped(base.MAX_CHUNK_CHARS),
                                  limit_bytes=Grouped(base.MAX_RECORD_BYTES))
        return CollectionInfo(layout.name, int(total),
                              None if dimension is None else int(dimension[0]))

    def read(self, collection: str | None = None) -> LoadedIndex:
        layout = self.layout(collection)
        info = self._info(layout, check=True)
        if info.count == 0:
            raise IndexInputError(key="idx.empty_collection", name=layout.name,
                                  where=self.where)
        q = Queries(layout)
        chunks: list[IndexChunk] = []
        with self._transaction() as conn:
            cursor = conn.cursor(name="ragviz_read")
            cursor.itersize = _FETCH
            cursor.execute(q.rows(order=True), q.params())
            for number, row in enumerate(cursor, start=1):
                chunk = self._chunk(layout, row)
                if chunk is not None:
                    chunks.append(chunk)
                if self.progress is not None and number % base.PROGRESS_EVERY == 0:
                    self.progress(number)
            cursor.close()
        if not chunks:
            raise IndexInputError(key="idx.no_text_at_all", name=layout.name,
                                  n=info.count)
        chunks.sort(key=lambda chunk: natural_key(chunk.id))
        return LoadedIndex(layout.name, tuple(chunks))

    def _chunk(self, layout: Layout, row: tuple[Any, ...]) -> IndexChunk | None:
        chunk_id, text, metadata, vector = row
        if not isinstance(text, str) or not text:
            return None
        if len(text) > base.MAX_CHUNK_CHARS or len(metadata or "") > base.MAX_RECORD_BYTES:
            raise IndexLimitError(key="idx.pg_chunk_too_long", where=self.where,
                                  name=layout.name, id=str(chunk_id)[:80], n=len(text),
                                  bytes=Grouped(len(metadata or "")),
                                  limit=Grouped(base.MAX_CHUNK_CHARS),
                                  limit_bytes=Grouped(base.MAX_RECORD_BYTES))
        if hasattr(vector, "to_numpy"):  # pgvector's Vector
            vector = vector.to_numpy()
        return base.from_metadata(str(chunk_id), text, base.flat_metadata(metadata),
                                  vector, f"row {chunk_id} of {layout.name}")

    # --- RetrievingIndex -------------------------------------------------------------------

    def _nearest(self, collection: str, queries: base.Vector, n_results: int,
                 exact: bool) -> list[list[IndexChunk]]:
        """The table's own search (its HNSW or IVFFlat index when it has one), or with
        index scans off (a flat scan: exact)."""
        layout = self.layout(collection)
        q = Queries(layout)
        out = []
        with self._transaction(exact) as conn:
            for query in queries:
                rows = conn.execute(q.nearest(), (*q.params(), np.asarray(query, np.float32),
                                                  n_results)).fetchall()
                out.append([c for c in (self._chunk(layout, r) for r in rows) if c])
        return out

    def containing(self, collection: str, text: str, limit: int) -> list[IndexChunk]:
        """The chunks whose text holds ``text`` exactly (``position()``)."""
        layout = self.layout(collection)
        q = Queries(layout)
        with self._transaction() as conn:
            rows = conn.execute(q.containing(), (*q.params(), text, limit)).fetchall()
        return [c for c in (self._chunk(layout, r) for r in rows) if c]

    def containing_many(self, collection: str, texts: list[str],
                        limit: int) -> dict[str, list[IndexChunk]] | None:
        """``containing`` for every string of ``texts`` in one pass over the table (None
        when more rows hold them than that pass returns: then each is asked alone)."""
        layout = self.layout(collection)
        q = Queries(layout)
        cap = limit * len(texts)
        with self._transaction() as conn:
            rows = conn.execute(q.containing_many(), (texts, *q.params(), cap + 1)).fetchall()
        if len(rows) > cap:
            return None
        found: dict[str, list[IndexChunk]] = {text: [] for text in texts}
        for *row, hits in rows:
            chunk = self._chunk(layout, tuple(row))
            if chunk is None:
                continue
            for hit in hits:
                if len(found[texts[hit - 1]]) < limit:
                    found[texts[hit - 1]].append(chunk)
        return found

    def search_settings(self, collection: str) -> str:
        """The settings that govern the recall of the vector column's approximate index
        (``hnsw.ef_search``, ``ivfflat.probes``), each with its value in this session."""
        layout = self.layout(collection)
        said = []
        with self._transaction() as conn:
            kinds = {str(r[0]) for r in conn.execute(
                "SELECT am.amname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
                "JOIN pg_am am ON am.oid = c.relam WHERE i.indrelid = %s::regclass",
                (f'"{layout.schema}"."{layout.table}"',)).fetchall()}
            for kind, setting in (("hnsw", "hnsw.ef_search"), ("ivfflat", "ivfflat.probes")):
                if kind in kinds:
                    value = conn.execute(f"SHOW {setting}").fetchone()[0]
                    said.append(f"{setting} (now {value})")
        return " and ".join(said) or "the index's search breadth"


def scrub(error: BaseException, uri: str) -> str:
    """A driver's message: its first line, without the URI or any password, shortened."""
    text = (str(error).strip().splitlines() or [type(error).__name__])[0]
    return redact(text, uri)[:_REASON_CHARS] or type(error).__name__


def connect(uri: str, timeout: float, where: Message) -> Any:
    """A connection whose every transaction is read only and every statement bounded by
    ``timeout``; pgvector's types registered (numpy vectors both ways)."""
    psycopg = _psycopg()
    from psycopg.types import TypeInfo

    given = parse(uri).get("options", "")  # unparsable: one sentence, no token quoted
    try:
        options = (f"{given} -c default_transaction_read_only=on "
                   f"-c statement_timeout={int(timeout * 1000)}").strip()
        conn = psycopg.connect(uri, connect_timeout=max(1, round(timeout)), options=options)
        conn.read_only = True
        if TypeInfo.fetch(conn, "vector") is None:
            conn.close()
            raise IndexInputError(key="idx.pg_no_extension", where=where)
        from pgvector.psycopg import register_vector

        register_vector(conn)
        conn.commit()
    except IndexInputError:
        raise
    except psycopg.Error as error:
        raise IndexInputError(key="idx.pg_connect", where=where,
                              reason=scrub(error, uri)) from None
    return conn


class Queries:
    """The statements one layout needs, built with quoted identifiers."""

    def __init__(self, layout: Layout) -> None:
        from psycopg import sql

        self.sql, self.layout = sql, layout
        self.table = sql.Identifier(layout.schema, layout.table)
        self.vector = sql.Identifier(layout.vector)
        self.text = sql.Identifier(layout.text)
        self.filter = (sql.SQL("collection_id = %s") if layout.collection_id
                       else sql.SQL("TRUE"))

    def params(self) -> tuple[Any, ...]:
        return (self.layout.collection_id,) if self.layout.collection_id else ()

    def _id(self) -> Any:
        sql = self.sql
        return (sql.SQL("{}::text").format(sql.Identifier(self.layout.id)) if self.layout.id
                else sql.SQL("ctid::text"))

    def _metadata(self) -> Any:
        return (self.sql.SQL("{}::text").format(self.sql.Identifier(self.layout.metadata))
                if self.layout.metadata else self.sql.SQL("NULL"))

    def _columns(self) -> Any:
        """A row's id, text, metadata and vector: the text and metadata cut one past their
        limits in the database (a row past them is refused, never fetched whole)."""
        return self.sql.SQL("{}, left({}, {}), left({}, {}), {}").format(
            self._id(), self.text, self.sql.Literal(base.MAX_CHUNK_CHARS + 1), self._metadata(),
            self.sql.Literal(base.MAX_RECORD_BYTES + 1), self.vector)

    def oversized(self) -> Any:
        """The first row whose text passes ``%s`` characters or metadata ``%s`` bytes: its
        id, text length and metadata bytes (asked before any row is fetched)."""
        return self.sql.SQL(
            "SELECT {i}, length({t}), coalesce(octet_length({m}), 0) FROM {tab} WHERE "
            "(length({t}) > %s OR octet_length({m}) > %s) AND {f} LIMIT 1").format(
            i=self._id(), t=self.text, m=self._metadata(), tab=self.table, f=self.filter)

    def counts(self) -> Any:
        return self.sql.SQL("SELECT count(*), count({}) FROM {} WHERE {}").format(
            self.vector, self.table, self.filter)

    def dimension(self) -> Any:
        return self.sql.SQL("SELECT vector_dims({v}) FROM {t} WHERE {f} AND {v} IS NOT NULL "
                            "LIMIT 1").format(v=self.vector, t=self.table, f=self.filter)

    def rows(self, order: bool) -> Any:
        order_by = (self.sql.SQL(" ORDER BY {}").format(self.sql.Identifier(self.layout.id))
                    if order and self.layout.id else self.sql.SQL(""))
        return self.sql.SQL("SELECT {} FROM {} WHERE {}{}").format(
            self._columns(), self.table, self.filter, order_by)

    def nearest(self) -> Any:
        return self.sql.SQL("SELECT {} FROM {} WHERE {} ORDER BY {} <=> %s LIMIT %s").format(
            self._columns(), self.table, self.filter, self.vector)

    def containing_many(self) -> Any:
        """Each row holding one of an array of strings, with the (1-based) numbers of those
        it holds: one pass over the table."""
        return self.sql.SQL(
            "SELECT {}, ragviz_m.ragviz_hits FROM {} CROSS JOIN LATERAL (SELECT "
            "array_agg(ragviz_u.ragviz_i) AS ragviz_hits FROM unnest(%s::text[]) WITH "
            "ORDINALITY AS ragviz_u(ragviz_s, ragviz_i) WHERE position(ragviz_u.ragviz_s in "
            "{}) > 0) AS ragviz_m WHERE {} AND ragviz_m.ragviz_hits IS NOT NULL LIMIT %s"
        ).format(self._columns(), self.table, self.text, self.filter)

    def containing(self) -> Any:
        return self.sql.SQL("SELECT {} FROM {} WHERE {} AND position(%s in {}) > 0 "
                            "LIMIT %s").format(self._columns(), self.table, self.filter,
                                               self.text)


# --- finding the layouts --------------------------------------------------------------------

def columns_of(conn: Any, schema: str, table: str) -> dict[str, str]:
    """A table's columns and their types (``vector(384)``, ``text``...); {} when absent."""
    rows = conn.execute(
        "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
        "JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = %s AND c.relname = %s AND a.attnum > 0 AND NOT a.attisdropped "
        "ORDER BY a.attnum", (schema, table)).fetchall()
    return {str(name): str(kind) for name, kind in rows}


def user_tables(conn: Any) -> list[tuple[str, str]]:
    """Every table and view outside the system schemas, as (schema, name)."""
    rows = conn.execute(
        "SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema "
        "NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2").fetchall()
    return [(str(s), str(t)) for s, t in rows]


def find_layouts(conn: Any, extra: dict[str, Any], where: Message) -> list[Layout]:
    """The layout ``--table`` names, else LangChain's collections and LlamaIndex's tables."""
    tables = user_tables(conn)
    if extra.get("table"):
        return [named_table(conn, extra, tables, where)]
    found = [*langchain_layouts(conn, tables), *llama_layouts(conn, tables)]
    if not found:
        raise IndexInputError(key="idx.pg_no_layout", where=where,
                              tables=_names(tables) or NONE)
    return found


def _names(tables: list[tuple[str, str]]) -> str:
    shown = [t if s == "public" else f"{s}.{t}" for s, t in tables[:_LISTED]]
    return ", ".join(shown) + (", ..." if len(tables) > _LISTED else "")


def langchain_layouts(conn: Any, tables: list[tuple[str, str]]) -> list[Layout]:
    """One layout per row of ``langchain_pg_collection`` (langchain-postgres's schema)."""
    schema = next((s for s, t in tables if t == "langchain_pg_embedding"), None)
    if schema is None or (schema, "langchain_pg_collection") not in tables:
        return []
    columns = columns_of(conn, schema, "langchain_pg_embedding")
    id_column = "id" if "id" in columns else "uuid"
    from psycopg import sql

    rows = conn.execute(sql.SQL("SELECT uuid::text, name FROM {} ORDER BY name").format(
        sql.Identifier(schema, "langchain_pg_collection"))).fetchall()
    return [Layout(str(name), schema, "langchain_pg_embedding", "document", "embedding",
                   id_column, "cmetadata", str(uuid)) for uuid, name in rows]


def llama_layouts(conn: Any, tables: list[tuple[str, str]]) -> list[Layout]:
    """LlamaIndex's ``PGVectorStore`` tables: ``data_<name>`` with its four columns (named
    ``schema.data_<name>`` outside ``public``, as its ``schema_name`` puts it)."""
    out = []
    for schema, table in tables:
        if not table.startswith("data_"):
            continue
        columns = columns_of(conn, schema, table)
        if {"text", "metadata_", "node_id", "embedding"} <= set(columns) and \
                columns["embedding"].startswith("vector"):
            name = table if schema == "public" else f"{schema}.{table}"
            out.append(Layout(name, schema, table, "text", "embedding", "node_id",
                              "metadata_"))
    return out


def named_table(conn: Any, extra: dict[str, Any], tables: list[tuple[str, str]],
                where: Message) -> Layout:
    """The layout of ``--table`` and its column options (guessed when not given), each
    missing table or column, and a vector column that is not pgvector's, said in one
    sentence."""
    given = str(extra["table"])
    schema, _, table = given.rpartition(".")
    schema = schema or next((s for s, t in tables if t == table), "public")
    columns = columns_of(conn, schema, table)
    if not columns:
        raise IndexInputError(key="idx.pg_no_table", where=where, table=given,
                              tables=_names(tables) or NONE)

    def pick(option: str, guesses: tuple[str, ...], required: bool) -> str | None:
        name = extra.get(option.replace("-", "_"))
        if name is None:
            name = next((g for g in guesses if g in columns), None)
            if name is None and not required:
                return None
        if name not in columns:
            raise IndexInputError(key="idx.pg_no_column", table=given, column=name or "?",
                                  option=f"--{option}", columns=", ".join(columns))
        return str(name)

    text = pick("text-column", _TEXT_GUESS, True)
    vector = pick("vector-column", _VECTOR_GUESS, True)
    assert text is not None and vector is not None
    if not columns[vector].startswith("vector"):
        raise IndexInputError(key="idx.pg_not_vector", table=given, column=vector,
                              type=columns[vector])
    return Layout(given, schema, table, text, vector, pick("id-column", ("id",), False),
                  pick("metadata-column", ("metadata", "cmetadata", "metadata_"), False))


def _open(spec: str, options: OpenOptions) -> PgReader:
    reader = PgReader(spec, options)
    reader.conn  # noqa: B018 - a database that does not answer is said before the model loads
    return reader


STORE = register(Store("pgvector", _open, schemes=("postgresql://", "postgres://"),
                       server_schemes=("postgresql://", "postgres://"),
                       can_retrieve=True, can_find_text=True, lists_collections=True,
                       forms=("postgresql://USER@HOST/DB",)))


def natural_key(chunk_id: str) -> tuple[tuple[int, int | str], ...]:
    """The order rows are numbered in: ids compared as people read them, the runs of digits
    as numbers (kb-0, kb-120, kb-1080, not the database's kb-0, kb-1080, kb-120), so chunk
    #5 here is #5 in a Chroma collection of the same rows written in that order."""
    return tuple((0, int(part)) if _DIGITS.fullmatch(part) else (1, part)
                 for part in _DIGITS.split(chunk_id) if part)
