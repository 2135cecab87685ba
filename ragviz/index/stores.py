"""The store registry: each index store is one module that registers a ``Store`` (its URL
schemes, how a local file or folder of it is recognised, what it can do, how to open it).
``open_index`` looks a spec up here; the CLI's ``ragviz index``, the app's upload detection
and its allowed servers (``RAGVIZ_INDEX_HOSTS``, per scheme) read the same entries.

Adding a store = one module calling ``register`` plus its name in ``BUILT_IN``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ragviz.errors import IndexInputError
from ragviz.index.base import IndexReader, Progress

REQUEST_TIMEOUT_S = 30.0  # a server's or a database's request waits at most this long
# The store modules registered on first use (imported lazily: none imports its engine's
# client library at import time).
BUILT_IN = ("ragviz.index.chroma", "ragviz.index.jsonl", "ragviz.index.table",
            "ragviz.index.pgvector", "ragviz.index.qdrant")


@dataclass(frozen=True)
class OpenOptions:
    """What the caller tells every store: a request's timeout, the chunks a file reader may
    load (None: the CLI's in-memory limit), a progress callback (records read so far), and
    the store-specific options (``--table``, ``--vector-name``...) by name."""

    timeout: float = REQUEST_TIMEOUT_S
    max_chunks: int | None = None
    progress: Progress | None = None
    extra: dict[str, Any] = field(default_factory=dict)


Opener = Callable[[str, OpenOptions], IndexReader]


@dataclass(frozen=True)
class Store:
    """One index store. ``schemes``: the prefixes a spec starts with (``chroma:``,
    ``postgresql://``); ``server_schemes``: those of them naming a server the app must be
    allowed to reach; ``detect``: whether a local path (a file or a folder) is this store's,
    by its content; ``suffixes``: file name endings read as this store's."""

    name: str
    open: Opener
    schemes: tuple[str, ...] = ()
    server_schemes: tuple[str, ...] = ()
    detect: Callable[[Path], bool] | None = None
    suffixes: tuple[str, ...] = ()
    stores_text: bool = True  # chunks keep their text (else they cannot be diagnosed)
    can_retrieve: bool = False  # the database mode: the store answers nearest-neighbour asks
    can_find_text: bool = False  # the store finds the chunks holding a string
    lists_collections: bool = False  # one store holds several collections
    forms: tuple[str, ...] = ()  # how the user writes it, for the help and the sentences


_STORES: dict[str, Store] = {}


def register(store: Store) -> Store:
    """``store`` known by its name (registered again: replaced)."""
    _STORES[store.name] = store
    return store


def stores() -> list[Store]:
    """Every registered store, the built-in ones imported first."""
    for module in BUILT_IN:
        importlib.import_module(module)
    return list(_STORES.values())


def forms() -> str:
    """How each store is written, for help texts and sentences (built from the registry)."""
    ordered = sorted(stores(), key=lambda s: not s.schemes)  # addresses, then files
    return ", ".join(f for s in ordered for f in s.forms)


def store_for(spec: str) -> tuple[Store, str]:
    """The store a spec names and the spec as that store's opener takes it: a scheme's
    prefix first, then a local folder or file recognised by its content, then by suffix."""
    known = stores()
    for store in known:
        for scheme in store.schemes:
            if spec.startswith(scheme):
                return store, spec
    path = Path(spec)
    if path.is_dir() or path.is_file():
        found = detect(path)
        if found is not None:
            return found, spec
    from ragviz.index.pg_conninfo import without_secrets

    shown = without_secrets(spec, spec)  # a connection string not recognised keeps its password
    if not path.exists():
        raise IndexInputError(key="idx.missing", spec=shown)
    raise IndexInputError(key="idx.not_an_index", spec=shown, forms=forms())


def detect(path: Path) -> Store | None:
    """The store whose content ``path`` holds (a folder or a file), else the one its file
    name ending names, else None."""
    known = stores()
    for store in known:
        if store.detect is not None and store.detect(path):
            return store
    if path.is_file():
        suffix = path.suffix.lower()
        return next((s for s in known if suffix in s.suffixes), None)
    return None


def server_scheme(spec: str) -> str | None:
    """The server scheme ``spec`` starts with (``chroma+http://``...), else None."""
    return next((scheme for s in stores() for scheme in s.server_schemes
                 if spec.startswith(scheme)), None)


def open_spec(spec: str, options: OpenOptions) -> IndexReader:
    store, given = store_for(spec)
    return store.open(given, options)


def capabilities(reader: object) -> Store | None:
    """The registered store a reader belongs to (its module's store), else None."""
    module = type(reader).__module__
    return next((s for s in stores() if s.open.__module__ == module), None)
