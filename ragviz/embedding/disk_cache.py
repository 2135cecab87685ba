"""Embeddings kept on disk across runs and processes: one SQLite file (the stdlib's ``sqlite3``).

The in-memory ``EmbeddingCache`` is asked first, then this store, then the model. An entry is
keyed by the model's identity (``Embedder.disk_identity``: a bundled model's name and package
version, a folder's weight digest, an API's base URL and model name, never a key) and a hash of
the text (with the query/document kind where the model reads them differently); the text itself
is not stored. What is stored is the vector's float32 bytes with their length and a CRC-32, so a
damaged entry is ignored (and recomputed), never read as a vector; SQLite's transactions keep a
write that was killed half-way out of the file (WAL journal).

Where: ``RAGVIZ_CACHE_DIR``, else the platform's user cache folder (``platformdirs`` when it is
installed, else ``$XDG_CACHE_HOME/ragviz`` or ``~/.cache/ragviz``). How much:
``RAGVIZ_CACHE_MB`` (default 1,000; 0 turns the store off), the least recently used entries
dropped past it. Several processes may read and write at once (WAL, a busy timeout; a write
that still finds the file busy is skipped: it is a cache). A store that cannot be opened (a
read-only folder, a file that is not a cache) logs one warning and the run goes on without it.
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ragviz.i18n import LogLine, Message

FILE_NAME = "embeddings.sqlite3"
DEFAULT_MB = 1_000
BUSY_TIMEOUT_S = 10.0
# Bytes an entry costs beyond its payload (key, model, sizes, checksum, time, index rows).
ENTRY_OVERHEAD = 96
# Past the limit, entries are dropped down to this share of it, so a full store does not
# evict on every write.
EVICT_TO = 0.9
VECTOR, TOKENS = 0, 1  # what an entry holds
_NONE = -1  # a token fact that is None, as stored
PENDING_LIMIT = 512  # token facts and LRU marks kept back before they are written

LOG = logging.getLogger("ragviz.cache")

Vector = npt.NDArray[np.float32]
Facts = tuple[int, int | None, int | None]  # token count, truncation, reading end
Item = tuple[bytes, int, bytes]  # key, what, payload

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS models(id INTEGER PRIMARY KEY, identity TEXT UNIQUE NOT NULL,"
    " name TEXT NOT NULL, facts TEXT)",
    "CREATE TABLE IF NOT EXISTS entries(id INTEGER PRIMARY KEY, model INTEGER NOT NULL,"
    " key BLOB NOT NULL, what INTEGER NOT NULL, length INTEGER NOT NULL,"
    " checksum INTEGER NOT NULL, payload BLOB NOT NULL, size INTEGER NOT NULL,"
    " used INTEGER NOT NULL, UNIQUE(model, key))",
    "CREATE INDEX IF NOT EXISTS entries_used ON entries(used)",
    "CREATE TABLE IF NOT EXISTS totals(id INTEGER PRIMARY KEY CHECK (id = 0),"
    " bytes INTEGER NOT NULL)",
    "INSERT OR IGNORE INTO totals VALUES (0, 0)",
)


@dataclass(frozen=True)
class RunSettings:
    """What one run allows: the store at all (``--no-cache`` says no), loading a model only
    when a text is not cached (the CLI's runs), and the language of the warning."""

    enabled: bool = True
    defer_loading: bool = False
    lang: str = "en"


_DEFAULT_RUN = RunSettings()
_RUN: contextvars.ContextVar[RunSettings] = contextvars.ContextVar(
    "ragviz_cache_run", default=_DEFAULT_RUN)


@contextlib.contextmanager
def run_settings(settings: RunSettings) -> Iterator[None]:
    """``settings`` for the code run inside the block (the CLI wraps each command in it)."""
    token = _RUN.set(settings)
    try:
        yield
    finally:
        _RUN.reset(token)


def current_settings() -> RunSettings:
    return _RUN.get()


def cache_dir() -> Path:
    """``RAGVIZ_CACHE_DIR``, else the platform's user cache folder for ragviz."""
    chosen = os.environ.get("RAGVIZ_CACHE_DIR", "").strip()
    if chosen:
        return Path(chosen).expanduser()
    try:
        import platformdirs
    except ImportError:
        base = os.environ.get("XDG_CACHE_HOME", "").strip() or str(Path.home() / ".cache")
        return Path(base).expanduser() / "ragviz"
    return Path(platformdirs.user_cache_dir("ragviz", appauthor=False))


def limit_bytes() -> int:
    """``RAGVIZ_CACHE_MB`` in bytes (default 1,000 MB; a value that is not a number >= 0 is
    warned about once and the default used)."""
    raw = os.environ.get("RAGVIZ_CACHE_MB", "").strip()
    if not raw:
        return DEFAULT_MB * 1_000_000
    try:
        megabytes = float(raw)
    except ValueError:
        megabytes = -1.0
    if not 0 <= megabytes < 1e9:
        _warn_once("limit", Message("cache.bad_limit", {"got": repr(raw[:40]),
                                                        "default": DEFAULT_MB}))
        return DEFAULT_MB * 1_000_000
    return int(megabytes * 1_000_000)


_WARNED: set[str] = set()


def _warn_once(what: str, message: Message) -> None:
    """Log ``message`` once a process, said in the run's language when the record is shown."""
    if what not in _WARNED:
        _WARNED.add(what)
        LOG.warning("ragviz: %s", LogLine(message, current_settings().lang))


def _reason(error: BaseException) -> str:
    """What went wrong, without a path (an OSError's text names the file)."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error).split("\n")[0][:120] or type(error).__name__


def text_key(what: int, kind: str, text: str) -> bytes:
    """The stored key of a text: a 16-byte hash (the text itself is never stored)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{what}\0{kind}\0".encode())
    digest.update(text.encode("utf-8", "surrogatepass"))
    return digest.digest()


def _pack_vector(vector: Vector) -> bytes:
    return np.ascontiguousarray(vector, dtype="<f4").tobytes()


def _pack_facts(facts: Facts) -> bytes:
    values = [_NONE if value is None else value for value in facts]
    return np.asarray(values, dtype="<i8").tobytes()


def _unpack_facts(payload: bytes) -> Facts:
    count, truncation, reading_end = (int(v) for v in np.frombuffer(payload, dtype="<i8"))
    return (count, None if truncation == _NONE else truncation,
            None if reading_end == _NONE else reading_end)


@dataclass(frozen=True)
class ModelUsage:
    """One model's share of the store."""

    name: str
    entries: int
    bytes: int


@dataclass(frozen=True, kw_only=True)
class CacheInfo:
    """What ``ragviz cache info`` says (its ``--json`` prints these fields)."""

    folder: str
    usable: bool
    entries: int
    bytes: int
    file_bytes: int
    limit_bytes: int
    models: list[ModelUsage]


class DiskCache:
    """The SQLite store in ``folder``, bounded to ``limit`` bytes of entries (LRU).

    Opened on first use in each process (a forked child opens its own connection); every
    failure other than a busy file turns the store off for the process with one warning.
    """

    def __init__(self, folder: Path, limit: int, *, warn: bool = True) -> None:
        self.warn = warn  # False: ``ragviz cache`` says it itself
        self.folder = folder
        self.path = folder / FILE_NAME
        self.limit = limit
        self._lock = threading.RLock()
        self._connection: sqlite3.Connection | None = None
        self._pid = 0
        self._models: dict[str, int] = {}
        self._pending_used: list[tuple[int, int]] = []
        self._pending: dict[tuple[str, str], list[Item]] = {}
        self.broken = False
        self.reads = self.writes = 0  # batches read and written (for tests and benches)

    # -- opening -------------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        self.folder.mkdir(parents=True, exist_ok=True)
        connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_S, isolation_level=None,
                                     check_same_thread=False)
        try:
            connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            connection.execute("PRAGMA auto_vacuum = INCREMENTAL")  # only before the first table
            if connection.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
                raise sqlite3.OperationalError("the file cannot hold a write-ahead log")
            connection.execute("PRAGMA synchronous = NORMAL")
            with _transaction(connection):
                for statement in _SCHEMA:
                    connection.execute(statement)
        except BaseException:
            connection.close()
            raise
        return connection

    def _db(self) -> sqlite3.Connection | None:
        """The process's connection, opened on first use; None once the store is off."""
        if self.broken:
            return None
        if self._connection is None or self._pid != os.getpid():
            self._models = {}
            try:
                self._connection = self._open()
            except (sqlite3.Error, OSError) as error:
                self._fail(error)
                return None
            self._pid = os.getpid()
        return self._connection

    def _fail(self, error: BaseException) -> None:
        self.broken = True
        if self._connection is not None:
            with contextlib.suppress(sqlite3.Error):
                self._connection.close()
        self._connection = None
        if self.warn:
            _warn_once(f"open:{self.path}", Message("cache.unusable",
                                                    {"reason": _reason(error)}))

    @contextlib.contextmanager
    def _using(self, write: bool) -> Iterator[sqlite3.Connection | None]:
        """The connection under the lock (a write inside one immediate transaction); None
        when the store is off or, for a write, still busy after the timeout."""
        with self._lock:
            db = self._db()
            try:
                if db is not None and write:
                    db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                self._failed(error)
                db = None
            try:
                yield db
            except (sqlite3.Error, OSError) as error:
                _rollback(db)
                self._failed(error)
                return
            except BaseException:
                _rollback(db)
                raise
            if db is not None and write:
                try:
                    db.execute("COMMIT")
                except sqlite3.Error as error:
                    _rollback(db)
                    self._failed(error)

    def _failed(self, error: BaseException) -> None:
        """A busy file skips this read or write; anything else turns the store off."""
        text = str(error).lower()
        if not (isinstance(error, sqlite3.OperationalError)
                and ("locked" in text or "busy" in text)):
            self._fail(error)

    def _model_id(self, db: sqlite3.Connection, identity: str, name: str | None) -> int | None:
        """The model's row id (created when ``name`` is given, i.e. on a write)."""
        found = self._models.get(identity)
        if found is not None:
            return found
        row = db.execute("SELECT id FROM models WHERE identity = ?", (identity,)).fetchone()
        if row is None and name is not None:
            row = db.execute("INSERT INTO models(identity, name) VALUES (?, ?) RETURNING id",
                             (identity, name)).fetchone()
        if row is not None:
            self._models[identity] = int(row[0])
        return None if row is None else int(row[0])

    # -- reading ---------------------------------------------------------------------------

    def _get(self, identity: str, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        """Payloads of the sound entries among ``keys`` (marked used); damaged ones dropped."""
        found: dict[bytes, bytes] = {}
        damaged: list[int] = []
        used: list[int] = []
        with self._using(write=False) as db:
            if db is None or not keys:
                return found
            model = self._model_id(db, identity, None)
            if model is None:
                return found
            self.reads += 1
            for start in range(0, len(keys), 500):
                part = list(keys[start:start + 500])
                marks = ",".join("?" * len(part))
                for row_id, key, length, checksum, payload in db.execute(
                        "SELECT id, key, length, checksum, payload FROM entries "
                        f"WHERE model = ? AND key IN ({marks})", [model, *part]):
                    payload = bytes(payload)
                    if len(payload) != length or zlib.crc32(payload) != checksum:
                        damaged.append(row_id)
                        continue
                    found[key] = payload
                    used.append(row_id)
        self._touch(used, damaged)
        return found

    def _touch(self, used: list[int], damaged: list[int]) -> None:
        """Note entries used now (the LRU order, written with the next write) and drop
        damaged ones at once."""
        with self._lock:
            now = time.time_ns()
            self._pending_used.extend((now, row_id) for row_id in used)
        if damaged:
            with self._using(write=True) as db:
                for row_id in damaged:
                    if db is not None:
                        _delete(db, row_id)
        if len(self._pending_used) >= PENDING_LIMIT:
            self.flush()

    def get_vectors(self, identity: str, kind: str, texts: Sequence[str]) -> dict[str, Vector]:
        """The stored vectors of ``texts`` (those found sound), by text."""
        keys = {text_key(VECTOR, kind, text): text for text in texts}
        found = self._get(identity, list(keys))
        return {keys[key]: np.frombuffer(payload, dtype="<f4").astype(np.float32)
                for key, payload in found.items() if payload}

    def get_token_facts(self, identity: str, texts: Sequence[str]) -> dict[str, Facts]:
        keys = {text_key(TOKENS, "", text): text for text in texts}
        found = self._get(identity, list(keys))
        return {keys[key]: _unpack_facts(payload) for key, payload in found.items()
                if len(payload) == 24}

    def model_facts(self, identity: str) -> dict[str, Any] | None:
        """What was recorded about the model when it was last loaded (its token limit...)."""
        with self._using(write=False) as db:
            if db is None:
                return None
            row = db.execute("SELECT facts FROM models WHERE identity = ?",
                             (identity,)).fetchone()
            if row is None or row[0] is None:
                return None
            facts: dict[str, Any] = json.loads(row[0])
            return facts
        return None

    # -- writing ---------------------------------------------------------------------------

    def _put(self, identity: str, name: str, items: Sequence[Item]) -> None:
        """Store ``(key, what, payload)`` items (and whatever was kept back) in one
        transaction, then drop the least recently used entries past the limit."""
        with self._lock:
            groups, self._pending = self._pending, {}
            used, self._pending_used = self._pending_used, []
            if items:
                groups.setdefault((identity, name), []).extend(items)
            if not groups and not used:
                return
            with self._using(write=True) as db:
                if db is None:
                    return
                added = sum(self._insert(db, model_identity, model_name, group)
                            for (model_identity, model_name), group in groups.items())
                db.executemany("UPDATE entries SET used = ? WHERE id = ?", used)
                db.execute("UPDATE totals SET bytes = bytes + ? WHERE id = 0", (added,))
                self.writes += 1
                self._evict(db)

    def _insert(self, db: sqlite3.Connection, identity: str, name: str,
                items: Sequence[Item]) -> int:
        """Insert the items not stored yet; the bytes they add."""
        model, now, added = self._model_id(db, identity, name), time.time_ns(), 0
        for key, what, payload in items:
            size = len(payload) + ENTRY_OVERHEAD
            cursor = db.execute(
                "INSERT INTO entries(model, key, what, length, checksum, payload, size, used)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(model, key) DO NOTHING",
                (model, key, what, len(payload), zlib.crc32(payload), payload, size, now))
            added += size if cursor.rowcount == 1 else 0
        return added

    def flush(self) -> None:
        """Write what was kept back (token facts, LRU marks)."""
        self._put("", "", ())

    def _evict(self, db: sqlite3.Connection) -> None:
        total = int(db.execute("SELECT bytes FROM totals WHERE id = 0").fetchone()[0])
        if total <= self.limit:
            return
        goal, dropped = int(self.limit * EVICT_TO), 0
        doomed: list[int] = []
        for row_id, size in db.execute("SELECT id, size FROM entries ORDER BY used, id"):
            if total - dropped <= goal:
                break
            doomed.append(row_id)
            dropped += size
        for start in range(0, len(doomed), 500):
            part = doomed[start:start + 500]
            db.execute(f"DELETE FROM entries WHERE id IN ({','.join('?' * len(part))})", part)
        db.execute("UPDATE totals SET bytes = bytes - ? WHERE id = 0", (dropped,))
        db.execute("PRAGMA incremental_vacuum")

    def put_vectors(self, identity: str, name: str, kind: str,
                    rows: Sequence[tuple[str, Vector]]) -> None:
        self._put(identity, name, [(text_key(VECTOR, kind, text), VECTOR, _pack_vector(row))
                                   for text, row in rows])

    def note_token_facts(self, identity: str, name: str, text: str, facts: Facts) -> None:
        """Keep ``text``'s token facts for the next write (they come one text at a time)."""
        with self._lock:
            group = self._pending.setdefault((identity, name), [])
            group.append((text_key(TOKENS, "", text), TOKENS, _pack_facts(facts)))
            full = len(group) >= PENDING_LIMIT
        if full:
            self.flush()

    def put_model_facts(self, identity: str, name: str, facts: dict[str, Any]) -> None:
        with self._using(write=True) as db:
            if db is not None:
                model = self._model_id(db, identity, name)
                db.execute("UPDATE models SET facts = ?, name = ? WHERE id = ?",
                           (json.dumps(facts, sort_keys=True), name, model))

    # -- the command ---------------------------------------------------------------------

    def info(self) -> CacheInfo:
        """Where the store is, how many entries and bytes, per model."""
        file_bytes = sum(path.stat().st_size for path in self._files() if path.exists())
        with self._using(write=False) as db:
            if db is not None:
                models = [ModelUsage(name, int(count), int(size or 0)) for name, count, size in
                          db.execute("SELECT m.name, count(e.id), total(e.size) FROM models m "
                                     "JOIN entries e ON e.model = m.id AND e.what = 0 "
                                     "GROUP BY m.id ORDER BY m.name")]
                entries = db.execute("SELECT count(*) FROM entries WHERE what = 0").fetchone()[0]
                total = int(db.execute("SELECT bytes FROM totals WHERE id = 0").fetchone()[0])
                return CacheInfo(folder=str(self.folder), usable=True, entries=int(entries),
                                 bytes=total, file_bytes=file_bytes, limit_bytes=self.limit,
                                 models=models)
        return CacheInfo(folder=str(self.folder), usable=False, entries=0, bytes=0,
                         file_bytes=file_bytes, limit_bytes=self.limit, models=[])

    def clear(self) -> int:
        """Remove every entry (the files themselves when they are not a usable store);
        returns the bytes the file held before."""
        before = sum(path.stat().st_size for path in self._files() if path.exists())
        with self._using(write=True) as db:
            if db is not None:
                db.execute("DELETE FROM entries")
                db.execute("DELETE FROM models")
                db.execute("UPDATE totals SET bytes = 0 WHERE id = 0")
                self._models = {}
        with self._lock:
            if self.broken:
                for path in self._files():
                    path.unlink(missing_ok=True)
                self.broken = False
            elif self._connection is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._connection.execute("VACUUM")
        return before

    def _files(self) -> list[Path]:
        return [self.path, self.path.with_name(FILE_NAME + "-wal"),
                self.path.with_name(FILE_NAME + "-shm")]

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
            self._connection = None


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _rollback(db: sqlite3.Connection | None) -> None:
    if db is not None and db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


def _delete(db: sqlite3.Connection, row_id: int) -> None:
    row = db.execute("DELETE FROM entries WHERE id = ? RETURNING size", (row_id,)).fetchone()
    if row is not None:
        db.execute("UPDATE totals SET bytes = bytes - ? WHERE id = 0", (int(row[0]),))


_SHARED: dict[tuple[str, int], DiskCache] = {}
_SHARED_LOCK = threading.Lock()


def shared() -> DiskCache | None:
    """The store the environment names (one per folder and limit in a process), or None when
    the run asked for none (``--no-cache``), the limit is 0 or the store is unusable."""
    if not current_settings().enabled:
        return None
    limit = limit_bytes()
    if limit <= 0:
        return None
    folder = cache_dir()
    with _SHARED_LOCK:
        store = _SHARED.get((str(folder), limit))
        if store is None:
            store = _SHARED[(str(folder), limit)] = DiskCache(folder, limit)
            atexit.register(store.flush)
    return None if store.broken else store
