"""The "Index" document source: a production index uploaded (a chunk export, or a zipped
Chroma or Qdrant folder, recognised by its content) or read from a server the operator
allowed (Chroma, Qdrant, Postgres with pgvector), with the optional source files it was
built from.

A server is reached only when the operator names it: ``RAGVIZ_INDEX_HOSTS`` per scheme
(``qdrant+http://host:6333,postgresql://db.internal``), or, for Chroma, a bare ``host[:port]``
there or in ``RAGVIZ_CHROMA_HOSTS``: a workshop app must not become a proxy into the network
it runs in."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from ragviz.errors import IndexInputError, IndexLimitError
from ragviz.i18n import Grouped, Listed, Message, grouped, render, t
from ragviz.index import IndexReader, LoadedIndex, open_index
from ragviz.index.archive import unzip_chroma
from ragviz.index.base import CollectionInfo
from ragviz.index.chroma import open_server
from ragviz.index.placement import Placed, place
from ragviz.index.stores import capabilities, detect, server_scheme, stores
from ragviz.inputs.convert import MAX_BINARY_FILE_BYTES
from ragviz.inputs.corpus import Corpus, load_files
from ragviz.inputs.documents import MAX_FILE_CHARS, MAX_UPLOAD_BYTES
from ragviz_app.app_state import DocumentChoice
from ragviz_app.common import lang, md, ss, tr
from ragviz_app.upload_store import upload_folder

HOSTS_ENV = "RAGVIZ_CHROMA_HOSTS"
INDEX_HOSTS_ENV = "RAGVIZ_INDEX_HOSTS"
CHROMA_SCHEME = "chroma+http://"
# Chunks the app holds in memory; past it the database has to retrieve (h21b's
# database-retrieval mode plugs in at ``over_limit``).
APP_MAX_CHUNKS = 10_000
_ADDRESS = re.compile(r"^(?:(?:chroma\+)?https?://)?(?P<host>[A-Za-z0-9_.\-]+|\[[0-9a-fA-F:]+\])"
                      r":(?P<port>\d{1,5})/?$")
_KEPT = 1  # loaded indexes kept in the session (the one in use)


@dataclass(frozen=True)
class IndexChoice:
    """A loaded collection, the source files given with it (None: none), and where every
    chunk sits; ``key`` names both for the memo."""

    loaded: LoadedIndex
    sources: Corpus | None
    placed: Placed
    key: str

    @property
    def corpus(self) -> Corpus:
        """What the views draw: the source files, then the chunks that sit in none."""
        return self.placed.corpus


def allowed_hosts(scheme: str = CHROMA_SCHEME) -> list[str]:
    """The servers of ``scheme`` the operator allows (``host`` or ``host:port``): the
    entries of ``RAGVIZ_INDEX_HOSTS`` written with that scheme, and for Chroma the bare
    entries there and every entry of ``RAGVIZ_CHROMA_HOSTS``."""
    scheme = _same_scheme(scheme)
    out = []
    for entry in os.environ.get(INDEX_HOSTS_ENV, "").split(","):
        given, sep, rest = entry.strip().lower().partition("://")
        if not sep and entry.strip() and scheme == CHROMA_SCHEME:
            out.append(entry.strip().lower())
        elif sep and _same_scheme(f"{given}://") == scheme and rest.strip("/"):
            out.append(rest.rstrip("/"))  # a Unix socket's folder keeps its leading /
    if scheme == CHROMA_SCHEME:
        out += [h.strip().lower() for h in os.environ.get(HOSTS_ENV, "").split(",") if h.strip()]
    return out


def _same_scheme(scheme: str) -> str:
    return "postgresql://" if scheme == "postgres://" else scheme


def host_allowed(host: str, port: int, allowed: list[str]) -> bool:
    """Whether ``host:port`` is named, or ``host`` is named without a port."""
    host = host.lower()
    return f"{host}:{port}" in allowed or host in allowed


def parse_address(text: str) -> tuple[str, int] | None:
    """``host:port`` (an ``http://`` or ``chroma+http://`` prefix allowed), or None."""
    match = _ADDRESS.match(text.strip())
    if match is None or not 0 < int(match["port"]) < 65536:
        return None
    return match["host"], int(match["port"])


def server_reader(text: str) -> IndexReader:
    """The server a typed address names (``host:port`` is Chroma's; a scheme names the
    store), refused unless the operator allowed it: never contacted otherwise."""
    typed = text.strip()
    scheme = server_scheme(typed)
    if scheme is not None and scheme != CHROMA_SCHEME:
        for host, port in _server_addresses(typed, scheme):
            if not host_allowed(host, port, allowed_hosts(scheme)):
                raise IndexInputError(key="idx.host_refused_store", env=INDEX_HOSTS_ENV,
                                      address=f"{host}:{port}", scheme=_same_scheme(scheme))
        return open_index(typed, max_chunks=APP_MAX_CHUNKS)
    address = parse_address(typed)
    if address is None:
        raise IndexInputError(key="idx.bad_address", address=typed)
    if not host_allowed(*address, allowed_hosts()):  # the list itself is the admin's
        raise IndexInputError(key="idx.host_refused", env=HOSTS_ENV,
                              address=f"{address[0]}:{address[1]}")
    return open_server(*address)


def _server_addresses(typed: str, scheme: str) -> list[tuple[str, int]]:
    """Every host and port a server spec may reach: each host and hostaddr of a Postgres
    connection string as libpq reads it (5432 by default, a Unix socket's folder as its
    host), refused when it names a file or service of this server; an ``http`` address's."""
    if _same_scheme(scheme) == "postgresql://":
        from ragviz.index.pg_conninfo import parse, targets, visitor_refusal

        parts = parse(typed)
        refused = visitor_refusal(parts)
        if refused is not None:
            raise IndexInputError(key="idx.pg_server_file", parameter=refused)
        return targets(parts)
    address = parse_address(typed.removeprefix(scheme))
    if address is None:
        raise IndexInputError(key="idx.bad_address", address=typed)
    return [address]


def upload_reader(name: str, data: bytes) -> IndexReader:
    """An uploaded index written to a folder of its own (named by its content), then read
    like a file given to the CLI; a zip must hold a Chroma directory."""
    digest = hashlib.sha256(data).hexdigest()[:24]
    folder = upload_folder(digest)
    safe_name = Path(name).name or "index"
    if data.startswith(b"PK\x03\x04") or safe_name.lower().endswith(".zip"):
        target = folder / "store"
        if not target.is_dir():
            _unzip_once(data, safe_name, target)
        return _open_folder(target, safe_name)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / safe_name
    if not path.is_file():
        path.write_bytes(data)
    if detect(path) is None:
        raise IndexInputError(key="idx.not_index_file", name=safe_name)
    return open_index(str(path), max_chunks=APP_MAX_CHUNKS)


def _open_folder(target: Path, shown: str) -> IndexReader:
    """An unpacked store's folder, opened as the store its content is (named ``shown``)."""
    from ragviz.index.chroma import open_persistent
    from ragviz.index.qdrant import open_local

    store = detect(target)
    if store is not None and store.name == "qdrant":
        return open_local(str(target), None, shown=shown)
    return open_persistent(str(target), shown=shown)


def _unzip_once(data: bytes, name: str, target: Path) -> None:
    """Unpack into a fresh folder and move it into place only when whole, so an archive
    refused half-way never leaves a partial directory that a second upload would open."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent))
    try:
        unzip_chroma(data, name, staging)
        staging.rename(target)
    except OSError:  # another session unpacked the same archive first
        if not target.is_dir():
            raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def over_limit(info: CollectionInfo) -> Message | None:
    """The sentence for a collection too large to load into the app, else None: the hook
    where the database-retrieval mode (issue 21, part 8) takes such a collection over."""
    if info.count <= APP_MAX_CHUNKS:
        return None
    return Message("idx.too_many", {"name": info.name, "n": info.count,
                                    "limit": Grouped(APP_MAX_CHUNKS)})


def checked_size(loaded: LoadedIndex) -> LoadedIndex:
    """``loaded``, refused in one sentence past the app's in-memory limit."""
    too_many = over_limit(CollectionInfo(loaded.name, len(loaded.chunks), None))
    if too_many is not None:
        raise IndexInputError.of(too_many)
    return loaded



def read_within(reader: IndexReader, collection: str | None) -> LoadedIndex:
    """One collection; a file past the app's limit (its reader stops at ``APP_MAX_CHUNKS``
    records kept) refused with the app's sentence, which says what to do instead."""
    try:
        return reader.read(collection)
    except IndexLimitError as error:
        if error.key != "idx.file_too_many":
            raise
        raise IndexInputError(key="idx.too_many_read", name=error.values["name"],
                              limit=Grouped(APP_MAX_CHUNKS)) from None


def load(reader: IndexReader, where: str, collection: str | None) -> LoadedIndex:
    """One collection, read once per session (kept under ``where`` and its name)."""
    cache: dict[tuple[str, str | None], LoadedIndex] = ss.setdefault("_index_cache", {})
    found = cache.get((where, collection))
    if found is not None:
        return found
    loaded = checked_size(read_within(reader, collection))
    while len(cache) >= _KEPT:
        cache.pop(next(iter(cache)))
    cache[(where, collection)] = loaded
    return loaded


def choose(loaded: LoadedIndex, sources: Corpus | None, where: str) -> IndexChoice:
    """The loaded collection with its sources placed (once per session for these two)."""
    digest = hashlib.sha1(usedforsecurity=False)
    digest.update(f"{where}\0{loaded.name}\0{len(loaded.chunks)}".encode())
    for source in sources.sources if sources else ():
        digest.update(f"\0{source.name}\0{source.text}".encode("utf-8", "surrogatepass"))
    key = digest.hexdigest()
    kept: IndexChoice | None = ss.get("_index_choice")
    if kept is not None and kept.key == key and kept.loaded is loaded:
        return kept
    ss["_index_choice"] = IndexChoice(loaded, sources, place(loaded.chunks, sources,
                                                             fallback=loaded.name), key)
    chosen: IndexChoice = ss["_index_choice"]
    return chosen


def questions_owner(choice: IndexChoice) -> str:
    """What an index's questions belong to: the collection, not the source files given
    with it (adding them places the chunks; it does not ask about the questions again)."""
    loaded = choice.loaded
    first = loaded.chunks[0].text if loaded.chunks else ""
    return f"index\0{loaded.name}\0{len(loaded.chunks)}\0{first}"


def error_text(error: IndexInputError) -> str:
    """An index refusal in the page's language (when the sentence knows it)."""
    return error.localized(lang())


def problem_text(problem: object) -> str:
    return render(problem, lang())


def source_files() -> tuple[Corpus | None, list[str]]:
    """The optional source files, as a corpus, with one sentence per file left out."""
    files = st.file_uploader(tr("idx.sources"), key="index_sources",
                             accept_multiple_files=True, help=tr("idx.sources_help"))
    # the real limits in the page's language (Streamlit's line is hidden: main.LAYOUT_CSS)
    st.caption(tr("app.upload_help", chars=grouped(MAX_FILE_CHARS, lang()),
                            limit=f"{MAX_UPLOAD_BYTES / 1e6:g}",
                            binary=f"{MAX_BINARY_FILE_BYTES / 1e6:g}"))
    uploads = [(file.name, file.getvalue()) for file in files or ()]
    if not uploads:
        return None, []
    corpus = load_files(uploads)
    problems = [render(problem.said, lang()) for problem in corpus.problems]
    return (corpus if corpus.sources else None), problems


def show_problems(problems: list[str]) -> None:
    for problem in problems:
        st.warning(md(problem))


def _file_formats() -> Listed:
    """The file endings of every registered store, as a sentence lists them."""
    return Listed(tuple(suffix for store in stores() for suffix in store.suffixes))


def index_inputs() -> IndexChoice | None:
    """The Index source's widgets (every one drawn on every run, so nothing typed or
    uploaded is dropped when another fails) and the collection they resolve to."""
    st.radio(tr("idx.from"), ("file", "server"), key="index_from", horizontal=True,
             format_func=_from_label(lang()))
    upload = None
    if ss.get("index_from", "file") == "file":
        upload = st.file_uploader(tr("idx.upload", formats=_file_formats()), key="index_upload",
                                  help=tr("idx.upload_help"))
        st.caption(tr("idx.upload_limit", mb=st.get_option("server.maxUploadSize")))
    else:
        st.text_input(tr("idx.server"), key="index_server", help=tr("idx.server_help"),
                      placeholder="localhost:8000 · postgresql://… · qdrant+http://…")
    loaded, where = _loaded(upload)
    sources, problems = source_files()
    show_problems(problems)
    if loaded is None:
        return None
    for problem in loaded.problems:
        st.warning(md(problem_text(problem)))
    dimension = next((len(c.vector) for c in loaded.chunks if c.vector is not None), None)
    vectors = (tr("idx.with_vectors", dimension=dimension) if dimension is not None
               else tr("idx.without_vectors"))
    st.caption(md(tr("idx.loaded", name=loaded.name, n=len(loaded.chunks),
                           vectors=vectors)))
    return choose(loaded, sources, where)


def _from_label(language: str) -> Callable[[str], str]:
    return lambda value: t(f"idx.from_{value}", language)


def _loaded(upload: object) -> tuple[LoadedIndex | None, str]:
    """The collection the widgets name, or None after saying why (one sentence)."""
    try:
        reader, where = _reader(upload)
        if reader is None:
            return None, where
        collection = _collection(reader, where)
        if collection is None:
            return None, where
        return load(reader, where, collection or None), where
    except IndexInputError as error:
        st.error(md(error_text(error)))
        return None, ""


def _reader(upload: object) -> tuple[IndexReader | None, str]:
    if ss.get("index_from", "file") == "file":
        if upload is None:
            st.info(tr("idx.upload_wait"))
            return None, ""
        name, data = upload.name, upload.getvalue()  # type: ignore[attr-defined]
        digest = hashlib.sha256(data).hexdigest()[:24]
        return _kept_reader(f"{name}:{digest}", lambda: upload_reader(name, data))
    typed = str(ss.get("index_server", "")).strip()
    if not typed:
        st.info(tr("idx.server_wait"))
        return None, ""
    return server_reader(typed), typed


def _kept_reader(key: str, make: Callable[[], IndexReader]) -> tuple[IndexReader, str]:
    """The upload's reader, made once per session and upload: a Chroma directory is opened
    on a copy (never written), which is not made again on every rerun."""
    kept = ss.get("_index_reader")
    if kept is None or kept[0] != key:
        ss["_index_reader"] = (key, make())
    return ss["_index_reader"][1], key


def _collection(reader: IndexReader, where: str) -> str | None:
    """The collection to read ("" for a file's only one), or None when the picked one is
    over the app's limit (its sentence shown)."""
    store = capabilities(reader)
    if store is None or not store.lists_collections:
        return ""
    known: dict[str, list[CollectionInfo]] = ss.setdefault("_index_collections", {})
    infos = known.get(where) or reader.collections()
    known.clear()
    known[where] = infos
    # an upload's ``where`` is a memo key (its name and digest): its sentences say the name
    shown = getattr(reader, "where", where) if ss.get("index_from", "file") == "file" else where
    if not infos:
        raise IndexInputError(key="idx.holds_no_collection", where=shown)
    by_name = {info.name: info for info in infos}
    language = lang()
    asked = ss.get("index_collection")
    if asked not in by_name:  # a first visit, or a collection that went away: say which
        if asked:
            st.warning(md(t("idx.no_collection", language, where=shown, name=asked,
                            known=", ".join(by_name))))
        ss.index_collection = infos[0].name
    # a radio, not a select: its labels wrap where a select cut "dimension 512" in the sidebar;
    # a label is Markdown, so a name's controls show as escapes and its $, -- or * as typed
    st.radio(tr("idx.collection"), list(by_name), key="index_collection",
             format_func=lambda name: t("idx.collection_row", language, name=md(name),
                                        count=Grouped(by_name[name].count),
                                        dimension=by_name[name].dimension or "–"))
    too_many = over_limit(by_name[ss.index_collection])
    if too_many is not None:
        st.error(md(render(too_many, language)))
        return None
    return str(ss.index_collection)


def source_label(others: Callable[[str], str], language: str) -> Callable[[str], str]:
    """The document source radio's labels, "Index" included."""
    return lambda value: t("idx.source_index", language) if value == "index" else others(value)


def index_document() -> DocumentChoice:
    """The sidebar's document when the source is an index (no document until one loads)."""
    chosen = index_inputs()
    if chosen is None:
        return DocumentChoice(None)
    first = chosen.corpus.sources[0].text
    return DocumentChoice(first, None, None, chosen.corpus, index=chosen)
