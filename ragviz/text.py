"""Spans and sentence boundaries with offsets, so chunks built from them stay document slices.

This module imports nothing from ragviz: the chunkers, the renderer and the diagnosis all
build on it, so it must sit below all of them.

A regex split on ``[.!?] + space`` (the article's) breaks "Dr. Silva" and "p. ex. isto";
this splitter keeps those together while still ending on ". " before a capital, on CJK
stops and on paragraph breaks. One left-to-right pass over the text: linear time.

Rules, in short:

* ``.``, ``!``, ``?``, ``…`` (runs allowed, closing quotes/brackets included) end a sentence
  only when followed by whitespace (or the end) and the next character is not lowercase.
  So decimals ("3.5", "R$ 1.000,00"), URLs, e-mails and file names never break, and an
  ellipsis followed by a lowercase word continues the sentence.
* A single ``.`` after a known abbreviation ("Dr.", "Sra.", "e.g.", "nº.") or after an
  initial ("J." in "J. R. Tolkien") does not end the sentence.
* "etc." is *not* an abbreviation here: before a capitalised word it ends the sentence
  (the common case in prose); mid-sentence it is followed by lowercase and continues.
* ``。！？`` end a sentence with no whitespace needed.
* A blank line always ends a sentence; a single newline does when the next line starts a
  list item, heading or table row, or the previous line was a heading or table row.
"""

from __future__ import annotations

import re

Span = tuple[int, int]


def trim_span(document: str, start: int, end: int) -> Span:
    """Shrink a span so it neither starts nor ends with whitespace."""
    if start < end and not document[start].isspace() and not document[end - 1].isspace():
        return start, end  # the common case, without a loop
    while start < end and document[start].isspace():
        start += 1
    while end > start and document[end - 1].isspace():
        end -= 1
    return start, end

# Lowercased tokens (without their final dot) that a "." after them never ends.
ABBREVIATIONS: frozenset[str] = frozenset(
    {
        # Portuguese
        "sr", "sra", "srs", "sras", "srta", "dr", "dra", "drs", "dras", "prof", "profa",
        "profs", "av", "nº", "n.º", "núm", "pág", "págs", "pg", "cap", "art", "arts",
        "ex", "p.ex", "obs", "tel", "vol", "sto", "sta", "depto",
        # English ("no." is left out: "I said no. Then" is commoner than "No. 5")
        "mr", "mrs", "ms", "mx", "st", "jr", "vs", "cf", "e.g", "i.e", "fig", "figs",
        "approx", "dept", "pp",
    }
)

# One scan for every candidate. The pattern starts with a plain character class so the
# regex engine skips to candidates in C; the branch is then chosen by the character found.
# A match may only start at the beginning of a punctuation run (the lookbehinds), and runs
# are consumed possessively: a run of 100,000 dots is scanned once, not once per dot
# (linear time). A Latin stop captures the next non-space character (empty at the end).
_BOUNDARY = re.compile(
    r"[.!?…。！？\n]"
    r"(?:(?<=\n)"
    r"|(?<=[。！？])(?<![。！？]{2})[。！？]*+[」』”’）)]*+"
    r"|(?<=[.!?…])(?<![.!?…]{2})[.!?…]*+[\"'”’»)\]]*+(?=\s|\Z)(?=\s*+(\S?)))"
)
_CJK_STOPS = "。！？"
_CLOSERS = "\"'”’»)]"
_BLANK_AFTER = re.compile(r"[^\S\n]*\n")
_BLOCK_LINE = re.compile(r"[^\S\n]*(?:[-*+•][^\S\n]|\d{1,3}[.)][^\S\n]|#{1,6}(?:[^\S\n]|$)|\|)")
_HEADING_OR_ROW = re.compile(r"[^\S\n]*(?:#{1,6}(?:\s|$)|\|)")
_OPENERS = "([{\"'“‘«¿¡"
_INITIALS = re.compile(r"(?:\w\.)*\w")
_MAX_TOKEN = 24


def _is_abbreviation(text: str, dot: int) -> bool:
    """True when the word ending at ``dot`` (the index of a '.') is an abbreviation/initial.

    The word is the run of non-space characters before the dot, at most ``_MAX_TOKEN`` long.
    """
    before = text[max(0, dot - _MAX_TOKEN) : dot]
    if not before or before[-1].isspace():
        return False
    token = before.rsplit(None, 1)[-1].lstrip(_OPENERS)
    if not token:
        return False
    if token.lower() in ABBREVIATIONS:
        return True
    # Initials and dotted acronyms: "J", "J.R", "U.S" (each part a single letter).
    return _INITIALS.fullmatch(token) is not None


def _ends_at_newline(text: str, line_start: int, newline: int) -> bool:
    """A newline ends a sentence after a heading or table row, or before a blank line,
    a list item, heading or table row."""
    return bool(
        _HEADING_OR_ROW.match(text, line_start, newline)
        or _BLANK_AFTER.match(text, newline + 1)
        or _BLOCK_LINE.match(text, newline + 1)
    )


def _cuts(text: str) -> list[int]:
    """Positions after which a sentence ends."""
    cuts: list[int] = []
    line_start = 0
    for match in _BOUNDARY.finditer(text):
        start, end = match.span()
        stop = text[start]
        if stop == "\n":
            if _ends_at_newline(text, line_start, start):
                cuts.append(start)
            line_start = end
        elif stop in _CJK_STOPS:
            cuts.append(end)
        else:
            after = match.group(1)
            if not after or after.islower():
                continue  # end of text (the last span ends there anyway), or lowercase next
            single_dot = stop == "." and (end - start == 1 or match.group().rstrip(_CLOSERS) == ".")
            if not (single_dot and _is_abbreviation(text, start)):
                cuts.append(end)
    return cuts


def split_sentences(text: str) -> list[Span]:
    """Spans ``(start, end)`` of the sentences of ``text``, trimmed, in order.

    Together the spans cover every non-whitespace character; whitespace between
    sentences belongs to none of them.
    """
    spans: list[Span] = []
    start = 0
    for cut in [*_cuts(text), len(text)]:
        if cut < start:
            continue
        a, b = trim_span(text, start, cut)
        if a < b:
            spans.append((a, b))
        start = cut
    return spans
