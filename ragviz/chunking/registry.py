"""The chunker registry: each chunker module declares its spec once and registers it here.

Everything that knows about chunker parameters derives from these specs: validation
(``check_config``), dispatch (``make_chunks``), the sweep grid, the CLI options, the app's
sliders, the workspace and link checks and the labels. Adding a chunker is one module that
calls ``register`` plus one import line in ``ragviz/chunking/__init__.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from ragviz.chunking.params import Param
from ragviz.chunking.spec import ChunkerSpec
from ragviz.errors import InputError
from ragviz.inputs.documents import shown

_SPECS: dict[str, ChunkerSpec] = {}
# Peer chunkers whose library is not installed: chunker name -> library ("LangChain").
_MISSING: dict[str, str] = {}
PEERS_EXTRA = "ragviz[peers]"  # the one install hint for every peer library


def register_missing(name: str, library: str) -> None:
    """Name a peer chunker whose library is not installed, so interfaces can say how to
    get it instead of not knowing the name."""
    if name not in _SPECS:
        _MISSING[name] = library


def missing_peers() -> dict[str, str]:
    """Peer chunkers not available here, with their library."""
    return dict(_MISSING)


def register(spec: ChunkerSpec) -> ChunkerSpec:
    """Add a chunker. A parameter name means one thing everywhere: same kind in every spec."""
    if spec.name in _SPECS and _SPECS[spec.name] is not spec:
        raise ValueError(f"a chunker named {spec.name!r} is already registered")
    for param in spec.params:
        for other in all_params():
            if other.name == param.name and other.kind != param.kind:
                raise ValueError(f"parameter {param.name!r} is {other.kind} in another chunker")
    _SPECS[spec.name] = spec
    ordered = sorted(_SPECS.values(), key=lambda s: s.order)  # stable: ties keep import order
    _SPECS.clear()
    _SPECS.update((s.name, s) for s in ordered)
    return spec


def get_spec(name: str) -> ChunkerSpec:
    """The spec of a registered chunker; ValueError naming the known ones otherwise."""
    try:
        return _SPECS[name]
    except (KeyError, TypeError):
        if isinstance(name, str) and name in _MISSING:
            raise InputError(key="param.peer_missing", name=name, library=_MISSING[name],
                             extra=PEERS_EXTRA) from None
        raise InputError(key="param.unknown_chunker", known=", ".join(_SPECS),
                         got=shown(name)) from None


def find_spec(name: str) -> ChunkerSpec | None:
    """The spec of a registered chunker, or None."""
    return _SPECS.get(name)


def specs() -> tuple[ChunkerSpec, ...]:
    return tuple(_SPECS.values())


def chunker_names() -> tuple[str, ...]:
    return tuple(_SPECS)


def all_params() -> Iterator[Param]:
    for spec in _SPECS.values():
        yield from spec.params


def param_names() -> tuple[str, ...]:
    """Every parameter name of every chunker, in first-seen order (widget keys, CLI flags)."""
    return tuple(dict.fromkeys(p.name for p in all_params()))


def param_kind(name: str) -> Literal["int", "float"]:
    for param in all_params():
        if param.name == name:
            return param.kind
    raise KeyError(name)

