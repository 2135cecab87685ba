"""Where a model's "verbatim" excerpt really sits in its file, at exact offsets.

Models copy text almost verbatim: they squash newlines and runs of spaces, write curly quotes
for straight ones (or the reverse) and compose or decompose accented letters. Only those
differences are forgiven; a changed letter, a changed case or a word left out is not. The
match is said in the file's own offsets, so ``text[start:end]`` is the file's exact text.
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass

# Quote marks a model may swap for each other: every single one is "'", every double one '"'.
_QUOTES = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "\u02bc": "'",
    "`": "'", "\u00b4": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"',
    "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
})


@dataclass(frozen=True)
class Located:
    """``text[start:end]`` is the excerpt as the file writes it; ``exact`` when it was
    already written so."""

    start: int
    end: int
    exact: bool


@functools.lru_cache(maxsize=8192)
def _piece(char: str) -> str:
    """One character compared: whitespace as one space, compatibility-decomposed, quotes
    made plain (case and letters kept as they are)."""
    if char.isspace():
        return " "
    decomposed = unicodedata.normalize("NFKD", char).translate(_QUOTES)
    return "".join(" " if c.isspace() else c for c in decomposed)


@functools.lru_cache(maxsize=64)
def folded(text: str) -> tuple[str, tuple[int, ...]]:
    """``text`` compared as :func:`_piece` says, whitespace runs made one space, and for
    every character of the result the offset in ``text`` it comes from."""
    out: list[str] = []
    origin: list[int] = []
    for offset, char in enumerate(text):
        for piece in _piece(char):
            if piece == " " and out and out[-1] == " ":
                continue
            out.append(piece)
            origin.append(offset)
    return "".join(out), tuple(origin)


def _whole_characters(haystack: str, origin: tuple[int, ...], found: int, last: int) -> bool:
    """The match starts and ends on whole letters of the file (an "e" never matches the
    first half of a decomposed "é", written as one character or as two)."""
    starts = found == 0 or origin[found - 1] != origin[found]
    ends = last + 1 == len(origin) or (origin[last + 1] != origin[last]
                                       and not unicodedata.combining(haystack[last + 1]))
    return starts and ends


def _ends_whole(text: str, end: int) -> bool:
    """No combining mark follows: the match did not stop inside a decomposed letter."""
    return end == len(text) or not unicodedata.combining(text[end])


def _exact(text: str, wanted: str, near: int) -> Located | None:
    found = text.find(wanted, near)
    while found >= 0 and not _ends_whole(text, found + len(wanted)):
        found = text.find(wanted, found + 1)
    return None if found < 0 else Located(found, found + len(wanted), True)


def _forgiven(text: str, wanted: str, near: int) -> Located | None:
    haystack, origin = folded(text)
    needle = folded(wanted)[0].strip()
    found = haystack.find(needle) if needle else -1
    while found >= 0:
        last = found + len(needle) - 1
        if origin[found] >= near and _whole_characters(haystack, origin, found, last):
            return Located(origin[found], origin[last] + 1, False)
        found = haystack.find(needle, found + 1)
    return None


def locate_excerpt(text: str, excerpt: str, near: int = 0) -> Located | None:
    """The excerpt in ``text``: its first occurrence at or after ``near`` (where the passage
    the model read starts), exact before forgiven, else its first anywhere; None when it is
    not there."""
    wanted = excerpt.strip()
    if not wanted:
        return None
    for start in dict.fromkeys((near, 0)):
        located = _exact(text, wanted, start) or _forgiven(text, wanted, start)
        if located is not None:
            return located
    return None
