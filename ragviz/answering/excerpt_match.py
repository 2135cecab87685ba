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


def _whole_characters(origin: tuple[int, ...], found: int, last: int) -> bool:
    """The match starts and ends on whole characters of the file (an "e" never matches
    the first half of a decomposed "é")."""
    starts = found == 0 or origin[found - 1] != origin[found]
    ends = last + 1 == len(origin) or origin[last + 1] != origin[last]
    return starts and ends


def locate_excerpt(text: str, excerpt: str, near: int = 0) -> Located | None:
    """The excerpt in ``text``: its first occurrence at or after ``near`` (where the passage
    the model read starts), else its first anywhere; None when it is not there."""
    wanted = excerpt.strip()
    if not wanted:
        return None
    exact = text.find(wanted, near)
    if exact < 0:
        exact = text.find(wanted)
    if exact >= 0:
        return Located(exact, exact + len(wanted), True)
    haystack, origin = folded(text)
    needle = folded(wanted)[0].strip()
    if not needle:
        return None
    first: Located | None = None
    found = haystack.find(needle)
    while found >= 0:
        last = found + len(needle) - 1
        if _whole_characters(origin, found, last):
            located = Located(origin[found], origin[last] + 1, False)
            if located.start >= near:
                return located
            first = first or located
        found = haystack.find(needle, found + 1)
    return first
