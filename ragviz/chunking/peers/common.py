"""What the peer chunkers share: finding a library's chunk texts in the document, the
library-named parameters, and registering a peer only when its library is installed.

A peer module imports its library inside its chunk function, never at import time, so the
app pays the import only when that chunker is chosen.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterable, Sequence
from typing import Any

from ragviz.chunking.base import Chunk, ChunkingResult, make_chunk
from ragviz.chunking.params import CHARACTERS, WINDOW_STEPS, Param, Unit
from ragviz.chunking.registry import register, register_missing
from ragviz.chunking.spec import ChunkerSpec, ChunkFunction
from ragviz.chunking.text import Span
from ragviz.inputs.documents import MAX_DOCUMENT_CHARS

SIZE_STEPS = WINDOW_STEPS


def installed(module: str) -> bool:
    """True when ``module`` can be imported, found without importing it."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def register_peer(spec: ChunkerSpec, module: str) -> ChunkerSpec | None:
    """Register ``spec`` if its library's ``module`` is installed, else name it as missing."""
    if installed(module):
        return register(spec)
    register_missing(spec.name, spec.library)
    return None


def library_param(name: str, default: int, minimum: int = 0, unit: Unit = CHARACTERS,
                  fits_document: float | None = 1.0) -> Param:
    """A parameter under the library's own name (in English, and in every tooltip; its
    Portuguese slider label is the catalog's ``param_label.<name>``)."""
    return Param(name, "int", unit, minimum, MAX_DOCUMENT_CHARS, default,
                 fits_document=fits_document)


def register_window(name: str, chunk: ChunkFunction, module: str, *, library: str, call: str,
                    order: int, size: int, overlap: int, more: tuple[Param, ...] = (),
                    unit: Unit = CHARACTERS, overlap_name: str = "chunk_overlap",
                    variant: str = "") -> ChunkerSpec | None:
    """A peer whose size and overlap are the library's ``chunk_size`` and ``chunk_overlap``
    (semchunk: ``overlap``), in characters or, counted by the model, in tokens (then it needs
    the model); swept like ragviz's windows; plus ``more`` parameters."""
    params = (library_param("chunk_size", size, 1, unit),
              library_param(overlap_name, overlap, unit=unit, fits_document=0.5), *more)
    return register_peer(
        ChunkerSpec(name=name, params=params, chunk=chunk, needs_model=unit is not CHARACTERS,
                    size_axis="chunk_size", overlap_axis=overlap_name, size_steps=SIZE_STEPS,
                    overlap_steps=(0, 0.2), order=order,
                    library=library, call=call, variant=variant),
        module,
    )


def located(document: str, texts: Iterable[str], overlap: int,
            heading_paths: Sequence[tuple[str, ...]] | None = None) -> ChunkingResult:
    """The result for a library that returns only texts (LangChain): each found in order."""
    return ChunkingResult(chunks_at(document, locate(document, texts, overlap), heading_paths))


def quiet_chonkie() -> None:
    """Chonkie logs a WARNING line to stderr (a minimum of sentences it could not meet):
    ragviz's output is its own sentences only, so Chonkie's logging is switched off."""
    import chonkie.logger

    chonkie.logger.disable()


def with_offsets(document: str, chunks: Iterable[Any]) -> ChunkingResult:
    """The result for Chonkie's chunks, which carry ``start_index``/``end_index``."""
    found = ((c.text, c.start_index, c.end_index) for c in chunks)
    return ChunkingResult(chunks_at(document, checked_spans(document, found)))


def _loose_pattern(text: str) -> re.Pattern[str]:
    """``text`` with any run of whitespace matching any other (libraries re-join lines)."""
    return re.compile(r"\s+".join(re.escape(word) for word in text.split()))


_SPACE = re.compile(r"\s+")


def loose_find(document: str, text: str, cursor: int = 0) -> Span | None:
    """Where ``text``'s words stand in ``document`` from ``cursor`` on with any whitespace
    between them (a retriever or library that re-joined lines), or None."""
    if not text.strip():
        return None
    match = _loose_pattern(text).search(document, cursor)
    return None if match is None else match.span()


def find_text(document: str, text: str, cursor: int) -> Span:
    """Where ``text`` is in ``document`` from ``cursor`` on: verbatim when only whitespace
    lies before it, else the earliest of the verbatim copy and the slice with the same words
    and any whitespace between them (a library that re-joins lines changes the spaces).
    Text of only whitespace the document lacks there gets an empty span (dropped)."""
    start = document.find(text, cursor)
    if start >= 0 and not document[cursor:start].strip():
        return start, start + len(text)
    if not text.strip():
        run = _SPACE.search(document, cursor)
        if run is not None and not document[cursor : run.start()].strip():
            return run.span()
        return cursor, cursor
    match = _loose_pattern(text).search(document, cursor)
    if start >= 0 and (match is None or start <= match.start()):
        return start, start + len(text)
    if match is not None:
        return match.span()
    words = text.split()
    found = _in_order(document, words, cursor) or _in_order(document, list("".join(words)), cursor)
    if found is None:
        raise ValueError(f"chunk text not found in the document after offset {cursor}")
    return found


def _in_order(document: str, pieces: list[str], cursor: int) -> Span | None:
    """The slice from the first piece to the last, each found after the one before, or None:
    for a library that dropped text between words (LangChain's header splitter drops the
    header lines of sections it merges) or inside them (characters it strips)."""
    start = position = document.find(pieces[0], cursor)
    for piece in pieces:
        position = document.find(piece, position) if position >= 0 else -1
        if position < 0:
            return None
        position += len(piece)
    return start, position


def locate(document: str, texts: Iterable[str], overlap: int) -> list[Span]:
    """Spans of a library's chunk texts in order. Without overlap the next chunk starts
    after the previous one ends; with up to ``overlap`` characters carried, no earlier than
    that many before its end (LangChain's own ``add_start_index`` rule) nor before its start:
    LangChain can start two chunks at one place ("0 00" at size 2, overlap 1 gives "0", "0",
    "00"), though never make the same span twice. A text not found after the previous one
    (LangChain, at a size of 2, can give a chunk out of order) is looked for from the start."""
    spans: list[Span] = []
    cursor = 0
    for text in texts:
        try:
            span = find_text(document, text, cursor)
            if spans and span == spans[-1] and span[0] < span[1]:
                span = find_text(document, text, span[0] + 1)
        except ValueError:
            span = find_text(document, text, 0)
        spans.append(span)
        cursor = span[1] if overlap <= 0 else max(span[0], span[1] - overlap)
    return spans


def chunks_at(document: str, spans: Sequence[Span],
              heading_paths: Sequence[tuple[str, ...]] | None = None) -> tuple[Chunk, ...]:
    """Chunks from spans in document order (empty spans dropped), with their heading paths."""
    order = sorted(range(len(spans)), key=lambda i: spans[i][0])  # stable: the library's order
    out: list[Chunk] = []
    for i in order:
        start, end = spans[i]
        if start >= end:
            continue
        path = heading_paths[i] if heading_paths is not None else ()
        out.append(make_chunk(document, len(out), start, end, heading_path=path))
    return tuple(out)


def checked_spans(document: str, found: Iterable[tuple[str, int, int]]) -> list[Span]:
    """A library's own (text, start, end) offsets, each checked against the document and
    looked up by text when they do not hold (so a library bug cannot break the contract)."""
    spans: list[Span] = []
    cursor = 0
    for text, start, end in found:
        if document[start:end] != text:
            start, end = find_text(document, text, cursor)
        spans.append((start, end))
        cursor = start + 1
    return spans
