"""Where an expected answer sits in the document, and which chunks hold all of it.

Users type expected answers by hand, so besides the exact text we accept a match that
ignores case, accents and differences in whitespace. Either way the span is given in
offsets of the original document, so it can be compared with chunk offsets.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from ragviz.inputs.corpus import Corpus

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class AnswerSpan:
    """``document[start:end]`` is the answer, in the text of the file ``source`` ("" for a
    single pasted document); ``exact`` is False for the forgiving match."""

    start: int
    end: int
    exact: bool
    source: str = ""


@functools.lru_cache(maxsize=256)
def _normalised_document(text: str) -> tuple[str, Ints]:
    """``_normalised_with_map`` of a document, remembered for the corpus's files (its limit
    is 200): a thousand questions looked for in every file would otherwise walk each file
    character by character once per question (minutes, not milliseconds). Computed per
    distinct character and spread over the text with numpy, not character by character."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if not len(codes):
        return "", np.zeros(0, dtype=np.int64)
    distinct, inverse = np.unique(codes, return_inverse=True)
    pieces = [_folded(chr(code)) for code in distinct.tolist()]
    space = np.array([chr(code).isspace() for code in distinct.tolist()])[inverse]
    emits = np.array([bool(p) for p in pieces])[inverse] | space
    ends_in_space = np.array([p.endswith(" ") for p in pieces])[inverse] | space
    # A whitespace character is dropped when what was written last ends in a space.
    positions = np.arange(len(codes))
    last = np.maximum.accumulate(np.where(emits, positions, -1))
    before = np.concatenate(([-1], last[:-1]))
    dropped = space & (before >= 0) & ends_in_space[np.maximum(before, 0)]
    written = np.array(pieces, dtype=object)[inverse]
    written[space] = " "
    written[dropped] = ""
    lengths = np.array([len(p) for p in pieces])[inverse]
    lengths[space] = 1
    lengths[dropped] = 0
    return "".join(written.tolist()), np.repeat(positions, lengths).astype(np.int64)


@functools.lru_cache(maxsize=4096)
def _folded(char: str) -> str:
    """What one non-space character becomes: casefolded, decomposed, marks dropped."""
    return "".join(piece for piece in unicodedata.normalize("NFKD", char.casefold())
                   if not unicodedata.combining(piece))


@functools.lru_cache(maxsize=1024)
def _normalised_answer(answer: str) -> str:
    """An answer normalised once, however many files it is looked for in."""
    return _normalised_with_map(answer)[0]


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
    needle = _normalised_answer(wanted)
    found = haystack.find(needle)
    if found < 0 or not needle:
        return None
    last = found + len(needle) - 1
    end = int(origin[last]) + 1
    # Combining marks were dropped by the normalisation: keep those that follow the last
    # matched character with it, so the span never splits "e" from its accent.
    while end < len(document) and unicodedata.combining(document[end]):
        end += 1
    return AnswerSpan(int(origin[found]), end, exact=False)


def locate_in_corpus(corpus: Corpus, answer: str) -> tuple[AnswerSpan, ...]:
    """The answer's first occurrence in every source that has it, in corpus order."""
    spans: list[AnswerSpan] = []
    for source in corpus.sources:
        span = locate_answer(source.text, answer)
        if span is not None:
            spans.append(replace(span, source=source.name))
    return tuple(spans)

