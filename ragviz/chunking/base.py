"""The chunk record, the configuration that names a chunker, and parameter checks.

Offsets are the truth: every chunk satisfies ``document[start:end] == text``. Overlap,
cut sentences and truncation are all computed from offsets, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

CHUNKER_NAMES: tuple[str, ...] = (
    "fixed",
    "sentence",
    "recursive",
    "markdown",
    "tokens",
    "semantic",
)

# Which ChunkerConfig fields each chunker reads; the rest are ignored for that chunker.
CHUNKER_PARAMS: dict[str, tuple[str, ...]] = {
    "fixed": ("size", "overlap"),
    "sentence": ("max_chars", "overlap_sentences"),
    "recursive": ("size", "overlap"),
    "markdown": ("max_chars", "overlap_sentences"),
    "tokens": ("size", "overlap"),
    "semantic": ("threshold", "percentile", "max_chars"),
}


@dataclass(frozen=True)
class Chunk:
    """One piece of the document, located by character offsets."""

    index: int
    start: int
    end: int
    text: str
    over_size: bool = False
    heading_path: tuple[str, ...] = ()
    # Text the chunk needs to be understood but that is not inside its slice, e.g. the
    # header and delimiter rows of a table when the chunk holds only later rows.
    context_prefix: str = ""

    @property
    def embedding_text(self) -> str:
        """What to embed: the context prefix (if any) followed by the chunk text."""
        return self.context_prefix + self.text

    @property
    def chars(self) -> int:
        return self.end - self.start

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "chars": self.chars,
            "over_size": self.over_size,
            "heading_path": list(self.heading_path),
            "context_prefix": self.context_prefix,
        }


@dataclass(frozen=True)
class ChunkerConfig:
    """A chunker name with all of its parameters; hashable so sweeps and caches can key on it."""

    chunker: str = "sentence"
    size: int = 120
    overlap: int = 0
    max_chars: int = 220
    overlap_sentences: int = 1
    threshold: float | None = None
    percentile: float | None = None

    def params(self) -> dict[str, Any]:
        """The parameters this chunker actually reads."""
        names = CHUNKER_PARAMS.get(self.chunker, ())
        return {name: getattr(self, name) for name in names}

    def label(self) -> str:
        """Short human name, e.g. ``fixed(size=120, overlap=0)``."""
        shown = {k: v for k, v in self.params().items() if v is not None}
        inner = ", ".join(f"{k}={v}" for k, v in shown.items())
        return f"{self.chunker}({inner})"

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ChunkerConfig:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown chunker setting(s): {', '.join(sorted(unknown))}")
        return replace(cls(), **data)


@dataclass(frozen=True)
class ChunkingResult:
    """Chunks plus what some chunkers measure on the way (semantic boundary similarities)."""

    chunks: tuple[Chunk, ...]
    # For the semantic chunker: (char offset of the boundary between two sentences, similarity).
    boundary_similarities: tuple[tuple[int, float], ...] = ()
    breakpoint_threshold: float | None = None
    notes: tuple[str, ...] = field(default=())


def require_int(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    """Validate an integer parameter; the error names the parameter and its value."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be at most {maximum}, got {value}")
    return value


def require_float(name: str, value: object, minimum: float, maximum: float) -> float:
    """Validate a real parameter in a closed range."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    number = float(value)
    if not (minimum <= number <= maximum):  # also refuses NaN
        raise ValueError(f"{name} must be between {minimum} and {maximum}, got {value}")
    return number


def make_chunk(document: str, index: int, start: int, end: int, **extra: Any) -> Chunk:
    """Build a chunk from offsets so that its text is the document slice, by construction."""
    return Chunk(index=index, start=start, end=end, text=document[start:end], **extra)


def trim_span(document: str, start: int, end: int) -> tuple[int, int]:
    """Shrink a span so it neither starts nor ends with whitespace."""
    while start < end and document[start].isspace():
        start += 1
    while end > start and document[end - 1].isspace():
        end -= 1
    return start, end
