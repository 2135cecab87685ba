"""The chunk record and the one result type every chunker returns.

Offsets are the truth: every chunk satisfies ``document[start:end] == text``, where the
document is the text of the file named by ``source`` (``corpus.source(c.source).text`` for a
corpus; ``source`` is ``""`` for a single pasted document). Overlap, cut sentences and
truncation are all computed from offsets, never guessed.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from typing import Any

from ragviz.chunking.text import trim_span

__all__ = ["Chunk", "ChunkingResult", "make_chunk", "trim_span"]


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
    # The file of the corpus this chunk comes from ("" for a single pasted document); the
    # offsets are into that file's converted text.
    source: str = ""

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
            "source": self.source,
        }


@dataclass(frozen=True)
class ChunkingResult:
    """What every chunker returns: the chunks, plus what some chunkers measure on the way
    (the semantic chunker's boundary similarities and the threshold it used)."""

    chunks: tuple[Chunk, ...]
    # For the semantic chunker: (char offset of the boundary between two sentences, similarity).
    boundary_similarities: tuple[tuple[int, float], ...] = ()
    breakpoint_threshold: float | None = None
    notes: tuple[str, ...] = field(default=())


# make_chunk fills a chunk's fields itself: a frozen dataclass's __init__ sets each field
# with object.__setattr__, which was a quarter of the markdown chunker's time on a 7 MB text.
_DEFAULTS = {f.name: f.default for f in fields(Chunk) if f.default is not MISSING}
_OPTIONAL = frozenset(_DEFAULTS)
if {f.name for f in fields(Chunk)} != {"index", "start", "end", "text"} | _OPTIONAL:
    raise TypeError("make_chunk fills index, start, end, text and plain defaults only")


def make_chunk(document: str, index: int, start: int, end: int, **extra: Any) -> Chunk:
    """Build a chunk from offsets so that its text is the document slice, by construction.
    The same object ``Chunk(...)`` makes (Chunk has no ``__post_init__``), built faster."""
    if not _OPTIONAL.issuperset(extra):
        raise TypeError(f"Chunk has no field {sorted(set(extra) - _OPTIONAL)[0]!r}")
    chunk = object.__new__(Chunk)
    values = {"index": index, "start": start, "end": end, "text": document[start:end]}
    object.__setattr__(chunk, "__dict__", {**values, **_DEFAULTS, **extra})
    return chunk
