"""The configuration value: a chunker's name with its parameters (``ChunkerConfig``), the
names old files and links used, and checking or running a configuration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import ChunkingResult
from ragviz.chunking.params import Number
from ragviz.chunking.registry import find_spec, get_spec
from ragviz.errors import InputError

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder

# The six fields every configuration carried before values were stored once. Files and links
# written then hold all six (most as placeholders); only reading them maps these names, and a
# name the chunker does not read is dropped there.
OLD_FIELD_NAMES = ("size", "overlap", "max_chars", "overlap_sentences", "threshold", "percentile")


@dataclass(frozen=True, init=False)
class ChunkerConfig:
    """A chunker name with its parameters, each stored once as sorted (name, value) pairs;
    hashable so sweeps and caches can key on it.

    Built as ``ChunkerConfig("fixed", size=200)``: the values given, the chunker's spec
    defaults for the rest (an alternative given, even as None, turns the others' defaults
    off); a name the chunker does not read is not kept.
    """

    chunker: str
    values: tuple[tuple[str, Number | None], ...]

    def __init__(
        self, chunker: str = "sentence",
        values: Mapping[str, Number | None] | None = None, **params: Number | None,
    ) -> None:
        given = {**(values or {}), **params}
        spec = find_spec(chunker)
        if spec is not None:
            filled = spec.defaults()
            if any(name in given for name in spec.alternatives):
                filled.update(dict.fromkeys(spec.alternatives))
            filled.update({k: v for k, v in given.items() if k in filled})
            given = filled
        object.__setattr__(self, "chunker", chunker)
        object.__setattr__(self, "values", tuple(sorted(given.items())))

    @classmethod
    def create(cls, chunker: str, **values: Number | None) -> ChunkerConfig:
        """A configuration of a registered ``chunker`` (ValueError naming it otherwise)."""
        get_spec(chunker)
        return cls(chunker, values)

    def with_values(self, **values: Number | None) -> ChunkerConfig:
        """A copy with some parameters changed."""
        return ChunkerConfig(self.chunker, {**dict(self.values), **values})

    def get(self, name: str) -> Number | None:
        return dict(self.values).get(name)

    def params(self) -> dict[str, Any]:
        """The parameters this chunker reads, in its spec's order (a chunker no spec
        describes, a user's own splitter in ``ragviz.api``: the values it was given)."""
        spec = find_spec(self.chunker)
        if spec is None:
            return dict(self.values)
        return {name: self.get(name) for name in spec.names}

    def label(self) -> str:
        """Short human name, e.g. ``fixed(size=120, overlap=0)``."""
        shown = {k: v for k, v in self.params().items() if v is not None}
        inner = ", ".join(f"{k}={v}" for k, v in shown.items())
        return f"{self.chunker}({inner})"

    def to_dict(self) -> dict[str, Any]:
        """The chunker and the parameters it reads, once each."""
        return {"chunker": self.chunker, **self.params()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChunkerConfig:
        """The inverse of ``to_dict``; missing parameters take the spec's defaults, and an
        old file's fields this chunker does not read are dropped."""
        values = dict(data)
        chunker = values.pop("chunker", "sentence")
        spec = get_spec(chunker)
        unknown = set(values) - set(OLD_FIELD_NAMES) - set(spec.names)
        if unknown:
            raise InputError(key="param.unknown_settings", n=len(unknown),
                             names=", ".join(sorted(unknown)))
        return cls.create(chunker, **{k: v for k, v in values.items() if k in spec.names})


def check_config(config: ChunkerConfig) -> ChunkerConfig:
    """Raise ValueError (naming the parameter and its value) for settings no document can
    satisfy, without chunking anything or loading a model."""
    get_spec(config.chunker).check(config.params())
    return config


def make_chunks(
    document: str, config: ChunkerConfig, embedder: Embedder | None = None
) -> ChunkingResult:
    """Check ``config`` against its spec, then run the chunker it names."""
    spec = get_spec(config.chunker)
    values = spec.check(config.params())
    if spec.needs_model and embedder is None:
        raise InputError(key="param.needs_model", name=spec.name)
    return spec.chunk(document, values, embedder)

