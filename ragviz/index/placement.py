"""Where each stored chunk sits in its source file: from the metadata's offsets when they
slice the source exactly, else by finding the chunk's text in the source in order (an
overlapping or repeated passage is matched after the previous chunk, not at its first
occurrence). A chunk whose text is not in its source is stale: the file changed after
indexing. A chunk with no source to sit in is placed in a stand-in text made of its
collection's chunks, so the diagnosis can still find answers inside it; its offsets are
then reported as unknown, and no token metric is computed on a stand-in
(``ragviz.evaluation.index_analysis.on_real_files``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

from ragviz.chunking import Chunk
from ragviz.chunking.base import make_chunk
from ragviz.index.base import IndexChunk
from ragviz.inputs.corpus import Corpus, Source

_JOIN = "\n\n"
STALE_SUFFIX = " (as indexed)"


@dataclass(frozen=True)
class Placed:
    """Chunks with offsets into ``corpus`` (the given sources, then stand-in texts);
    ``known[i]`` says chunk ``i``'s offsets are in a real source, ``stale[i]`` names the
    source file chunk ``i`` is no longer in (None when it is not stale)."""

    corpus: Corpus
    chunks: tuple[Chunk, ...]
    known: tuple[bool, ...]
    stale: tuple[str | None, ...]
    real: tuple[str, ...] = ()  # the names of the source files given

    @property
    def given(self) -> bool:
        """Whether any source file was given (else every chunk sits in a stand-in)."""
        return bool(self.real)


def place(index_chunks: Sequence[IndexChunk], sources: Corpus | None,
          fallback: str = "index") -> Placed:
    """Offsets for every chunk (see the module's note); the texts are never altered."""
    real = {s.name: s.text for s in sources.sources} if sources else {}
    cursors: dict[str, int] = {}
    standins: dict[str, list[str]] = {}
    lengths: dict[str, int] = {}  # each stand-in's length so far (no re-summing: linear)
    spots: list[tuple[str, int]] = []
    stale: list[str | None] = []
    for chunk in index_chunks:
        name = _match(chunk.source, real)
        start = None if name is None else _locate(chunk, real[name], cursors, name)
        if name is not None and start is not None:
            spots.append((name, start))
            stale.append(None)
            continue
        stale.append(name)
        key = name + STALE_SUFFIX if name is not None else (chunk.source or fallback)
        parts = standins.setdefault(key, [])
        spots.append((key, lengths.get(key, 0)))
        lengths[key] = lengths.get(key, 0) + len(chunk.text) + len(_JOIN)
        parts.append(chunk.text)
    texts = {**real, **{key: _JOIN.join(parts) for key, parts in standins.items()}}
    built = tuple(make_chunk(texts[name], i, start, start + len(c.text), source=name)
                  for i, (c, (name, start)) in enumerate(zip(index_chunks, spots, strict=True)))
    corpus = Corpus(tuple(sources.sources if sources else ())
                    + tuple(Source(k, _JOIN.join(p)) for k, p in standins.items()))
    return Placed(corpus, built, tuple(n in real for n, _ in spots), tuple(stale), tuple(real))


def _match(source: str, real: dict[str, str]) -> str | None:
    """The given source file a chunk's recorded source names: the same name, else the
    same file name; the only file when the chunk records none."""
    if source in real:
        return source
    if not source:
        return next(iter(real)) if len(real) == 1 else None
    base = PurePath(source.replace("\\", "/")).name
    found = [name for name in real if PurePath(name).name == base]
    return found[0] if len(found) == 1 else None


def _locate(chunk: IndexChunk, text: str, cursors: dict[str, int], name: str) -> int | None:
    if chunk.start is not None and text[chunk.start:chunk.start + len(chunk.text)] == chunk.text:
        start: int | None = chunk.start
    else:
        found = text.find(chunk.text, cursors.get(name, 0))
        found = found if found >= 0 else text.find(chunk.text)
        start = found if found >= 0 else None
    if start is not None:
        cursors[name] = start + 1
    return start
