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

# A match may only start at the beginning of a punctuation run, and runs are consumed
# possessively: a run of 100,000 dots is scanned once, not once per dot (linear time).
_BOUNDARY = re.compile(
    r"(?<![.!?…])(?P<latin>[.!?…]++[\"'”’»)\]]*+)(?=\s|\Z)"
    r"|(?<![。！？])(?P<cjk>[。！？]++[」』”’）)]*+)"
    r"|(?P<nl>\n)"
)
_BLANK_AFTER = re.compile(r"[^\S\n]*\n")
_NEXT_CHAR = re.compile(r"\S")
_BLOCK_LINE = re.compile(r"[^\S\n]*(?:[-*+•][^\S\n]|\d{1,3}[.)][^\S\n]|#{1,6}(?:[^\S\n]|$)|\|)")
_HEADING_OR_ROW = re.compile(r"[^\S\n]*(?:#{1,6}(?:\s|$)|\|)")
_OPENERS = "([{\"'“‘«¿¡"
_INITIALS = re.compile(r"(?:\w\.)*\w")
_MAX_TOKEN = 24


def _is_abbreviation(text: str, dot: int) -> bool:
    """True when the word ending at ``dot`` (the index of a '.') is an abbreviation/initial."""
    begin = dot
    limit = max(0, dot - _MAX_TOKEN)
    while begin > limit and not text[begin - 1].isspace():
        begin -= 1
    token = text[begin:dot].lstrip(_OPENERS)
    if not token:
        return False
    if token.lower() in ABBREVIATIONS:
        return True
    # Initials and dotted acronyms: "J", "J.R", "U.S" (each part a single letter).
    return bool(_INITIALS.fullmatch(token)) and all(len(p) == 1 for p in token.split("."))


def _cuts(text: str) -> list[int]:
    """Positions after which a sentence ends."""
    cuts: list[int] = []
    line_start = 0
    for match in _BOUNDARY.finditer(text):
        kind = match.lastgroup
        if kind == "cjk":
            cuts.append(match.end())
        elif kind == "latin":
            after = _NEXT_CHAR.search(text, match.end())
            if after is None:
                continue  # end of text: the last span ends there anyway
            if text[after.start()].islower():
                continue
            if match.group("latin").rstrip("\"'”’»)]") == "." and _is_abbreviation(
                text, match.start()
            ):
                continue
            cuts.append(match.end())
        else:
            newline = match.start()
            line_was_block = bool(_HEADING_OR_ROW.match(text, line_start, newline))
            line_start = match.end()
            if (
                line_was_block
                or _BLANK_AFTER.match(text, line_start)
                or _BLOCK_LINE.match(text, line_start)
            ):
                cuts.append(newline)
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
