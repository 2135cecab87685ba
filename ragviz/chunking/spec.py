"""A chunker's spec: its parameters, its chunk function, its sweep axes and how a picker
names it. Each chunker module declares one and registers it (``ragviz.chunking.registry``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.params import Number, Param
from ragviz.errors import InputError

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder


ChunkFunction = Callable[[str, Mapping[str, Any], "Embedder | None"], ChunkingResult]


@dataclass(frozen=True)
class ChunkerSpec:
    """Everything ragviz knows about one chunker.

    ``size_axis``/``overlap_axis`` name the parameters a sweep varies: ``size_steps`` are
    candidate sizes (scaled to the document), ``overlap_steps`` overlaps, as shares of the
    size when both axes have the same unit, else as counts. ``alternatives`` are parameters
    of which at most one is set (the first is the default one). When size and overlap have
    the same unit the overlap must be smaller than the size.
    """

    name: str
    params: tuple[Param, ...]
    chunk: ChunkFunction
    needs_model: bool = False
    size_axis: str | None = None
    overlap_axis: str | None = None
    size_steps: tuple[int, ...] = ()
    overlap_steps: tuple[float, ...] = ()
    alternatives: tuple[str, ...] = ()
    order: int = 100  # position in menus and lists (registration order breaks ties)
    # Position in ``default_grid`` when no chunkers are named (0: not in the default sweep).
    sweep_position: int = 0
    # A peer library's chunker: the library's name ("LangChain"; "" for ragviz's own) and
    # the class or function it calls, so a tooltip shows the call to copy into a pipeline.
    library: str = ""
    call: str = ""
    # What tells two peers of one class apart in the picker (``tokenizer=model``).
    variant: str = ""

    @property
    def title(self) -> str:
        """The name in the chunker picker: a peer's library and class, so the picker reads
        grouped by library (``LangChain · CharacterTextSplitter``); ragviz's own name."""
        if not self.library:
            return self.name
        variant = f"({self.variant})" if self.variant else ""
        return f"{self.library} · {self.call.split('(')[0]}{variant}"

    def call_text(self, values: Mapping[str, object]) -> str:
        """The library call with these values, e.g. ``TokenChunker(chunk_size=512)``; a call
        written with its fixed arguments (``TokenChunker(tokenizer="character", …)``) gets
        the values in place of the ``…``."""
        inner = ", ".join(f"{name}={values.get(name)!r}" for name in self.names)
        if "…" in self.call:
            return self.call.replace("…", inner)
        return f"{self.call}({inner})" if self.call else ""

    def param(self, name: str) -> Param:
        for param in self.params:
            if param.name == name:
                return param
        raise KeyError(f"the {self.name} chunker has no parameter {name!r}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.params)

    def defaults(self) -> dict[str, Number | None]:
        """One default per parameter; of the alternatives only the first is set."""
        values: dict[str, Number | None] = {p.name: p.default for p in self.params}
        for name in self.alternatives[1:]:
            values[name] = None
        return values

    def overlap_is_share(self) -> bool:
        """True when the overlap counts in the size's unit (so it must stay below it)."""
        if self.size_axis is None or self.overlap_axis is None:
            return False
        return self.param(self.size_axis).unit == self.param(self.overlap_axis).unit

    def check(self, values: Mapping[str, object]) -> dict[str, Number | None]:
        """Every parameter checked against the spec; ValueError naming the first bad one."""
        chosen = [
            p.name for p in self.params
            if p.name in self.alternatives and values.get(p.name) is not None
        ]
        if len(chosen) > 1:
            shown = ", ".join(f"{n}={values[n]}" for n in chosen)
            raise InputError(key="param.not_both", names=" / ".join(chosen), given=shown)
        checked: dict[str, Number | None] = {}
        for param in self.params:
            value = values.get(param.name, param.default)
            if value is None and param.name in self.alternatives:
                checked[param.name] = None
                continue
            checked[param.name] = param.check(value)
        if self.overlap_is_share():
            size = checked[self.size_axis or ""]
            overlap = checked[self.overlap_axis or ""]
            if size is not None and overlap is not None and overlap >= size:
                raise InputError(key="param.overlap_under_size", overlap=self.overlap_axis,
                                 size=self.size_axis, limit=size, got=overlap)
        return checked


def run_checked(
    spec: ChunkerSpec, document: str, embedder: Embedder | None = None, **values: object
) -> ChunkingResult:
    """What a chunker module's public function does: check its arguments once, then run."""
    return spec.chunk(document, spec.check(values), embedder)

