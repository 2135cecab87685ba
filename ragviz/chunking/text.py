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
from collections.abc import Iterator

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

# What may follow a newline that ends a sentence: a blank line, a list item, a heading or
# a table row; and the lines after whose newline a sentence ends: headings and table rows.
_BLOCK_LINE = r"[^\S\n]*(?:\n|[-*+•][^\S\n]|\d{1,3}[.)][^\S\n]|#{1,6}(?:[^\S\n]|$)|\|)"
_HEADING_OR_ROW_LINE = r"[^\S\n]*(?:#{1,6}(?:\s|\Z)|\|)"
# One scan for every candidate. The pattern starts with a plain character class so the
# regex engine skips to candidates in C; the branch is then chosen by the character found.
# A match may only start at the beginning of a punctuation run (the lookbehinds), and runs
# are consumed possessively: a run of 100,000 dots is scanned once, not once per dot
# (linear time). A newline matches only before a block line (group ``block``: it is a cut)
# or a heading/row line (group ``heading``: that line's own newline is a cut). ``word`` is
# set when seven word characters precede a stop (too long for an abbreviation or
# initials); ``next`` is the character after a Latin stop and its spaces (empty at the end).
_BOUNDARY = re.compile(
    r"[.!?…。！？\n]"
    rf"(?:(?<=\n)(?=(?P<block>{_BLOCK_LINE})|{_HEADING_OR_ROW_LINE})"
    rf"(?:(?={_HEADING_OR_ROW_LINE})(?P<heading>))?"
    r"|(?<=[。！？])(?<![。！？]{2})[。！？]*+[」』”’）)]*+"
    r"|(?<=[.!?…])(?<![.!?…]{2})(?:(?<=\w{7}.)(?P<word>))?"
    r"[.!?…]*+[\"'”’»)\]]*+(?=\s|\Z)(?=\s*+(?P<next>\S?)))"
)
_HEADING_OR_ROW = re.compile(_HEADING_OR_ROW_LINE)
_NON_SPACE = re.compile(r"\S")
_CJK_STOPS = "。！？"
_LATIN_STOPS = ".!?…"
_STOPS = _LATIN_STOPS + _CJK_STOPS + "\n"  # what every candidate of _BOUNDARY starts with
_CLOSERS = "\"'”’»)]"
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


def _after_abbreviation(text: str, match: re.Match[str]) -> bool:
    """A single dot (closers allowed) right after an abbreviation or initial."""
    start, end = match.span()
    single_dot = end - start == 1 or match.group().rstrip(_CLOSERS) == "."
    return single_dot and _is_abbreviation(text, start)


def _latin_stop_ends(
    text: str, match: re.Match[str], stop: str, after: str | None, long_word: str | None
) -> bool:
    """A Latin stop ends a sentence unless the next word is lowercase (or there is none),
    or it is a single dot after an abbreviation or initial."""
    if not after or after.islower():
        return False
    return stop != "." or long_word is not None or not _after_abbreviation(text, match)


def _cuts(text: str) -> list[int]:
    """Positions after which a sentence ends, in order (Latin stops: ``_latin_stop_ends``)."""
    cuts: list[int] = []
    line_ends: list[int] = []  # the newlines after heading and table-row lines
    if _HEADING_OR_ROW.match(text):
        line_ends.append(text.find("\n"))
    for match in _BOUNDARY.finditer(text):
        start, end = match.span()
        block, heading, long_word, after = match.groups()
        stop = text[start]
        if stop == "\n":
            if block is not None:
                cuts.append(start)
            if heading is not None:
                line_ends.append(text.find("\n", end))
        elif stop in _CJK_STOPS or _latin_stop_ends(text, match, stop, after, long_word):
            cuts.append(end)
    cuts.extend(end for end in line_ends if end >= 0)
    return sorted(cuts) if line_ends else cuts


def line_cuts(text: str, start: int, end: int) -> list[int]:
    """The cuts of ``split_sentences(text[start:end])`` (``start`` at a line start) that
    ``cuts_after`` does not make: the newline ending each heading or table-row line (a pass
    sees such a line begin only from the text's start). In order; only the lines holding a
    ``#`` or ``|`` are looked at."""
    found: set[int] = set()
    for mark in "#|":
        at = text.find(mark, start, end)
        while at >= 0:
            line = max(start, text.rfind("\n", start, at) + 1)
            line_end = text.find("\n", at, end)
            if line_end >= 0 and _HEADING_OR_ROW.match(text, line, end):
                found.add(line_end)
            at = -1 if line_end < 0 else text.find(mark, line_end, end)
    return sorted(found)


def cuts_after(text: str, pos: int, endpos: int, until: int | None = None) -> Iterator[int]:
    """Lazily, the cuts at or after ``pos`` that ``split_sentences(text[start:endpos])``
    makes, in ``text``'s offsets, for a ``start`` at a line start and ``pos >= start``,
    except the ends of heading and table-row lines (``line_cuts``).

    So a packer can look for a cut near its limit without splitting the whole text. Correct
    when ``pos`` is ``start``, a cut, or follows a whitespace character: no candidate holds
    whitespace (a newline candidate is that one character), so none straddles ``pos``, and
    the regex's lookbehinds see the text before ``pos`` as a whole pass would. With
    ``until``, stops at the first candidate that starts after it, undecided."""
    for match in _BOUNDARY.finditer(text, pos, endpos):
        if until is not None and match.start() > until:
            return
        cut = _cut_at(text, match)
        if cut is not None:
            yield cut


def _cut_at(text: str, match: re.Match[str]) -> int | None:
    """Where the candidate ``match`` cuts, or None when it does not end a sentence."""
    start = match.start()
    stop = text[start]
    if stop == "\n":
        return start if match.group("block") is not None else None
    if stop in _CJK_STOPS or _latin_stop_ends(
        text, match, stop, match.group("next"), match.group("word")
    ):
        return match.end()
    return None


def stops_in(text: str, start: int, end: int) -> str:
    """The characters a cut's candidate starts with that occur in ``text[start:end]``."""
    return "".join(c for c in _STOPS if text.find(c, start, end) >= 0)


def last_cut_by(text: str, pos: int, endpos: int, limit: int, stops: str) -> int | None:
    """The last of ``cuts_after(text, pos, endpos)`` whose sentence ends by ``limit`` (the
    cut is at or before it, or only whitespace lies between), or None. Walked back from the
    limit's next word: ``str.rfind`` finds each character a candidate starts with (``stops``:
    ``stops_in`` the text) and the regex decides it by a match there (inside a run of stops
    it fails: a candidate starts only at a run's start), so no text is scanned by the regex
    (its character-class scan is the slow part of ``cuts_after``)."""
    following = _NON_SPACE.search(text, limit, endpos)
    until = endpos if following is None else following.start()
    last = {c: text.rfind(c, pos, min(until + 1, endpos)) for c in stops}
    while (found := max(last.values(), default=-1)) >= 0:
        match = _BOUNDARY.match(text, found, endpos)
        cut = None if match is None else _cut_at(text, match)
        if cut is not None and (cut <= limit or text[limit:cut].isspace()):
            return cut
        last[text[found]] = text.rfind(text[found], pos, found)
    return None


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
