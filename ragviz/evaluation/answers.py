"""Where an expected answer sits in the document, and which chunks hold all of it.

Users type expected answers by hand, so besides the exact text we accept a match that
ignores case, accents and differences in whitespace. Either way the span is given in
offsets of the original document, so it can be compared with chunk offsets.
"""

from __future__ import annotations

import array
import functools
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import Chunk

if TYPE_CHECKING:
    from ragviz.inputs.corpus import Corpus


@dataclass(frozen=True)
class AnswerSpan:
    """``document[start:end]`` is the answer, in the text of the file ``source`` ("" for a
    single pasted document); ``exact`` is False for the forgiving match."""

    start: int
    end: int
    exact: bool
    source: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "exact": self.exact,
                "source": self.source}


@functools.lru_cache(maxsize=256)
def _normalised_document(text: str) -> tuple[str, array.array[int]]:
    """``_normalised_with_map`` of a document, remembered for the corpus's files (its limit
    is 200): a thousand questions looked for in every file would otherwise walk each file
    character by character once per question (minutes, not milliseconds)."""
    normalised, origin = _normalised_with_map(text)
    return normalised, array.array("q", origin)


def _normalised_with_map(text: str) -> tuple[str, list[int]]:
    """Casefolded, accent-free text with whitespace runs collapsed to one space, and for
    every character of it the offset in ``text`` it came from."""
    out: list[str] = []
    origin: list[int] = []
    for offset, char in enumerate(text):
        if char.isspace():
            if out and out[-1] == " ":
                continue
            out.append(" ")
            origin.append(offset)
            continue
        for piece in unicodedata.normalize("NFKD", char.casefold()):
            if unicodedata.combining(piece):
                continue
            out.append(piece)
            origin.append(offset)
    return "".join(out), origin


def locate_answer(document: str, answer: str) -> AnswerSpan | None:
    """First occurrence of ``answer``: exact text first, then ignoring case, accents and
    whitespace; None when the answer is empty or not in the document."""
    wanted = answer.strip()
    if not wanted:
        return None
    start = document.find(wanted)
    if start >= 0:
        return AnswerSpan(start, start + len(wanted), exact=True)
    haystack, origin = _normalised_document(document)
    needle, _ = _normalised_with_map(wanted)
    found = haystack.find(needle)
    if found < 0 or not needle:
        return None
    last = found + len(needle) - 1
    end = origin[last] + 1
    # Combining marks were dropped by the normalisation: keep those that follow the last
    # matched character with it, so the span never splits "e" from its accent.
    while end < len(document) and unicodedata.combining(document[end]):
        end += 1
    return AnswerSpan(origin[found], end, exact=False)


def locate_in_corpus(corpus: Corpus, answer: str) -> tuple[AnswerSpan, ...]:
    """The answer's first occurrence in every source that has it, in corpus order."""
    spans: list[AnswerSpan] = []
    for source in corpus.sources:
        span = locate_answer(source.text, answer)
        if span is not None:
            spans.append(replace(span, source=source.name))
    return tuple(spans)


_GROUPED: dict[int, tuple[Sequence[Chunk], dict[str, list[Chunk]]]] = {}


def _of_source(chunks: Sequence[Chunk], source: str) -> list[Chunk]:
    """The chunks of one file, grouped once per chunk list (the last few lists are kept,
    each with its list, so an id is never reused while remembered): a thousand questions
    each scanning ten thousand chunks took seconds."""
    found = _GROUPED.get(id(chunks))
    if found is None or found[0] is not chunks:
        groups: dict[str, list[Chunk]] = {}
        for chunk in chunks:
            groups.setdefault(chunk.source, []).append(chunk)
        if len(_GROUPED) >= 8:
            _GROUPED.clear()
        found = _GROUPED[id(chunks)] = (chunks, groups)
    return found[1].get(source, [])


def chunks_holding(chunks: Sequence[Chunk], span: AnswerSpan) -> tuple[int, ...]:
    """Indices of the chunks of the span's source whose ``[start, end)`` contains it all."""
    return tuple(c.index for c in _of_source(chunks, span.source)
                 if c.start <= span.start and span.end <= c.end)


def chunks_touching(chunks: Sequence[Chunk], span: AnswerSpan) -> tuple[int, ...]:
    """Indices of the chunks of the span's source that hold at least one of its characters."""
    return tuple(c.index for c in chunks
                 if c.source == span.source and c.start < span.end and span.start < c.end)
