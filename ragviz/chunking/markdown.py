"""Markdown chunks: one per section under its heading path, split only where structure allows.

The article's limits section says tables, code and long sections break badly on
punctuation. Here a chunk never crosses a heading, a fenced code block is never cut, and a
table cut into groups of rows gives every group its header through ``context_prefix``
(chunk text stays a document slice, so the header cannot be pasted into it).
"""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from ragviz.chunking.base import Chunk, ChunkingResult, make_chunk
from ragviz.chunking.packing import pack_indices
from ragviz.chunking.params import PACKED_STEPS, max_chars_param, overlap_units_param
from ragviz.chunking.registry import register
from ragviz.chunking.spec import ChunkerSpec
from ragviz.chunking.text import (
    Span,
    cuts_after,
    last_cut_by,
    line_cuts,
    split_sentences,
    stops_in,
    trim_span,
)

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder

_HEADING_OPEN = re.compile(r"[ ]{0,3}(#{1,6})(?=[ \t]|$)")
_FENCE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")
# Every line that opens a fence or a heading, found after its newline by one regex scan (the
# document's first line is matched on its own), so plain lines are never visited in Python.
_MARKER_LINE = re.compile(r"\n(?=[ ]{0,3}[#`~])([ ]{0,3}(?:`{3}|~{3}|#{1,6}(?=[ \t\n]|\Z)))")
_MARKER_AT_START = re.compile(_MARKER_LINE.pattern[2:])
# Below this size a group holds a sentence or two, so splitting the block into all its
# sentences costs less than a search per group (measured on the 7 MB bench corpus).
_LOOK_FOR_CUTS_FROM = 400
_NON_SPACE = re.compile(r"\S")
# Matched against a stripped line, so no two whitespace runs meet (linear time).
_DELIMITER = re.compile(r"\|?[ \t]*+:?-++:?[ \t]*+(?:\|[ \t]*+:?-++:?[ \t]*+)*+\|?")


def _title(document: str, start: int, end: int) -> str:
    """A heading's title: the line's rest, without a closing run of ``#`` after a space."""
    title = document[start:end].strip()
    closing = title.rstrip("#")
    if not closing or closing[-1] in " \t":
        title = closing.strip()
    return title


def is_delimiter_row(line: str) -> bool:
    """A table's ``|---|:--:|`` row."""
    return _DELIMITER.fullmatch(line.strip()) is not None


class _Unit(NamedTuple):
    """An indivisible piece of a section, in packing order (a named tuple: thousands are
    made per megabyte, and a frozen dataclass costs twice as much to build)."""

    start: int
    end: int
    carry: bool = False  # may be repeated as overlap (sentences only)
    table_header: str = ""  # for table rows: header + delimiter lines, used as context
    # A run of text lines not yet split into sentences (the untrimmed line range, split
    # only when packing needs its sentences); start/end are its trimmed extent.
    block: tuple[int, int] | None = None


class _Section(NamedTuple):
    start: int
    end: int
    heading_path: tuple[str, ...]
    units: tuple[_Unit, ...]


def _line_end(document: str, start: int) -> int:
    """End of the line starting at ``start``, without its newline."""
    end = document.find("\n", start)
    return len(document) if end < 0 else end


def _special_lines(document: str) -> list[int]:
    """Starts of the lines that may open a fence, a heading or a table, in order: fence and
    heading lines from one regex scan; a table's first line holds a ``|`` and the line below
    a ``|`` and a ``-`` (a delimiter row's marks). Every other line is plain text, and is
    skipped without a look."""
    found = [match.start(1) for match in _MARKER_LINE.finditer(document)]
    if _MARKER_AT_START.match(document):
        found.insert(0, 0)
    tables = _table_candidates(document)
    return sorted({*found, *tables}) if tables else found


def _table_candidates(document: str) -> list[int]:
    """Starts of the lines holding a ``|`` whose next line holds a ``|`` and a ``-``."""
    found: list[int] = []
    pipe = document.find("|")
    while pipe >= 0:
        line_end = document.find("\n", pipe)
        if line_end < 0:
            break
        below_end = _line_end(document, line_end + 1)
        if (document.find("|", line_end, below_end) >= 0
                and document.find("-", line_end, below_end) >= 0):
            found.append(document.rfind("\n", 0, pipe) + 1)
        pipe = document.find("|", line_end)
    return found


def _text_units(document: str, start: int, end: int) -> list[_Unit]:
    return [
        _Unit(start + a, start + b, carry=True)
        for a, b in split_sentences(document[start:end])
    ]


def _text_block(document: str, start: int, end: int) -> list[_Unit]:
    """The lines ``start:end`` as one unsplit unit (none when they are only whitespace:
    then they hold no sentence either)."""
    a, b = trim_span(document, start, end)
    return [_Unit(a, b, carry=True, block=(start, end))] if a < b else []


def _sentences(document: str, unit: _Unit) -> list[_Unit]:
    """A text block's sentence units; any other unit as it is."""
    return [unit] if unit.block is None else _text_units(document, *unit.block)


def _unit(document: str, start: int, end: int, table_header: str = "") -> list[_Unit]:
    a, b = trim_span(document, start, end)
    return [_Unit(a, b, table_header=table_header)] if a < b else []


def _fence_end(document: str, start: int, marker: str) -> int:
    """End of the fence whose body starts at ``start`` (just after a newline): the end of
    its closing line (a run of at least as many of the same marks, then only whitespace),
    or of the document."""
    if start > len(document):
        return len(document)
    found = _closing_fence(marker[0], len(marker)).search(document, start - 1)
    return len(document) if found is None else found.end()


@functools.cache
def _closing_fence(mark: str, count: int) -> re.Pattern[str]:
    """A closing fence line after its newline (a literal first character: a fast scan)."""
    return re.compile(rf"\n[ ]{{0,3}}{re.escape(mark)}{{{count},}}[^\S\n]*(?=\n|\Z)")


def _starts_table(document: str, start: int, end: int) -> bool:
    """A line with a pipe followed by a delimiter row."""
    if end >= len(document) or "|" not in document[start:end]:
        return False
    below = document[end + 1 : _line_end(document, end + 1)]
    return {"-", "|"} <= set(below) and is_delimiter_row(below)


def _table_units(document: str, start: int, end: int, units: list[_Unit]) -> int:
    """Add the units of the table whose header line is ``start:end`` (header with first
    row, then each row with the header as context); return where the table ends."""
    header_end = _line_end(document, end + 1)
    header = document[start:header_end].rstrip() + "\n"
    rows: list[Span] = []
    row_start = header_end + 1
    while row_start < len(document):
        row_end = _line_end(document, row_start)
        if "|" not in document[row_start:row_end]:
            break
        rows.append((row_start, row_end))
        row_start = row_end + 1
    first_end = rows[0][1] if rows else header_end
    units.extend(_unit(document, start, first_end))
    for rs, re_ in rows[1:]:
        units.extend(_unit(document, rs, re_, table_header=header))
    return rows[-1][1] if rows else header_end


def _push_heading(stack: list[tuple[int, str]], level: int, title: str) -> tuple[str, ...]:
    """Replace the headings at ``level`` or deeper with this one; the new heading path."""
    while stack and stack[-1][0] >= level:
        stack.pop()
    stack.append((level, title))
    return tuple([t for _, t in stack if t])


def _sections(document: str) -> list[_Section]:
    """Split the document at ATX headings outside fences; classify each section's lines.
    Only the special lines are visited; the plain lines between them are text."""
    sections: list[_Section] = []
    stack: list[tuple[int, str]] = []
    path: tuple[str, ...] = ()
    sec_start = 0
    units: list[_Unit] = []
    text_start = -1  # where the current run of text lines starts; -1 when there is none
    cursor = 0  # the start of the first line not yet classified
    for start in _special_lines(document):
        if start < cursor:
            continue  # inside a fence or a table already taken
        if text_start < 0 and start > cursor:
            text_start = cursor
        end = _line_end(document, start)
        cursor = end + 1
        fence = _FENCE.match(document, start, end)
        heading = None if fence else _HEADING_OPEN.match(document, start, end)
        if not (fence or heading or _starts_table(document, start, end)):
            if text_start < 0:
                text_start = start
            continue
        if text_start >= 0:
            units.extend(_text_block(document, text_start, start))
            text_start = -1
        if fence:
            cursor = _fence_end(document, end + 1, fence.group(1))
            units.extend(_unit(document, start, cursor))
            cursor += 1
        elif heading:
            _close_section(document, sec_start, start, path, units, sections)
            title = _title(document, heading.end(), end)
            path = _push_heading(stack, len(heading.group(1)), title)
            sec_start = start
            units.extend(_unit(document, start, end))
        else:
            cursor = _table_units(document, start, end, units) + 1
    if text_start < 0 and cursor < len(document):
        text_start = cursor
    if text_start >= 0:
        units.extend(_text_block(document, text_start, len(document)))
    _close_section(document, sec_start, len(document), path, units, sections)
    return sections


def _close_section(
    document: str,
    start: int,
    end: int,
    path: tuple[str, ...],
    units: list[_Unit],
    sections: list[_Section],
) -> None:
    """Add the section ``start:end`` with the units gathered for it, and empty the list."""
    a, b = trim_span(document, start, end)
    if a < b:
        sections.append(_Section(a, b, path, tuple(units)))
    units.clear()


def _pack(
    document: str, units: tuple[_Unit, ...], max_chars: int, overlap: int
) -> list[tuple[int, int, str]]:
    """Greedy packing as in the sentence chunker; only sentences are carried as overlap.
    Returns each group's (start, end, table header of its first unit)."""
    if overlap == 0:
        return _pack_without_overlap(document, units, max_chars)
    sentences = [piece for unit in units for piece in _sentences(document, unit)]
    spans = [(unit.start, unit.end) for unit in sentences]
    carries = [unit.carry for unit in sentences]
    return [
        (spans[group[0]][0], spans[group[-1]][1], sentences[group[0]].table_header)
        for group in pack_indices(spans, max_chars, overlap, carries)
    ]


class _OpenGroups:
    """Greedy packing with no overlap, as ``pack_indices`` does it: a piece joins the open
    group while the group still fits ``max_chars``, else it opens the next group."""

    def __init__(self, max_chars: int) -> None:
        self.max_chars = max_chars
        self.groups: list[tuple[int, int, str]] = []
        self.first = -1  # start of the open group; -1 before the first piece
        self.end = 0
        self.header = ""

    def add(self, start: int, end: int, header: str = "") -> None:
        if self.first >= 0 and end - self.first > self.max_chars:
            self.groups.append((self.first, self.end, self.header))
            self.first = -1
        if self.first < 0:
            self.first, self.header = start, header
        self.end = end

    def closed(self) -> list[tuple[int, int, str]]:
        if self.first >= 0:
            self.groups.append((self.first, self.end, self.header))
            self.first = -1
        return self.groups


def _pack_without_overlap(
    document: str, units: tuple[_Unit, ...], max_chars: int
) -> list[tuple[int, int, str]]:
    """``pack_indices`` with no overlap, streaming: a text block that fits whole in the
    open group joins it whole (no cut can fall inside it), and in a block that does not,
    only the last sentence cut before each group's limit is looked for. Same groups as
    packing every sentence, without splitting long sections into all their sentences."""
    groups = _OpenGroups(max_chars)
    for unit in units:
        group_start = unit.start if groups.first < 0 else groups.first
        if unit.block is None or unit.end - group_start <= max_chars:
            groups.add(unit.start, unit.end, unit.table_header)
        elif max_chars < _LOOK_FOR_CUTS_FROM:
            block_start, block_end = unit.block
            for a, b in split_sentences(document[block_start:block_end]):
                groups.add(block_start + a, block_start + b)
        else:
            _add_long_block(document, unit, groups)
    return groups.closed()


def _add_long_block(document: str, unit: _Unit, groups: _OpenGroups) -> None:
    """Pack a text block that overflows the open group, one group per loop: the open group
    takes the sentences up to the last cut that fits; a first sentence that alone overflows
    is its group."""
    assert unit.block is not None
    cuts = _BlockCuts(document, *unit.block)
    pos, start = unit.block[0], unit.start  # the last cut; the next sentence's first character
    if groups.first < 0:
        groups.add(start, start)
    while unit.end - groups.first > groups.max_chars:
        cut = cuts.last_within(pos, start, groups.first + groups.max_chars)
        if cut is None and groups.first != start:  # the next sentence opens the next group
            groups.add(start, unit.end)
            continue
        if cut is None:  # an over-size sentence, alone
            cut = cuts.first_after(pos, start, unit.end)
        groups.end = trim_span(document, start, cut)[1]  # the sentence's end
        following = _NON_SPACE.search(document, cut, unit.end)
        if following is None:
            return
        pos, start = cut, following.start()
        groups.add(start, unit.end)  # overflows: closes the group and opens the next
    groups.end = unit.end


class _BlockCuts:
    """The sentence cuts of one text block, found near where they are needed: back from a
    group's limit (``last_cut_by``), and, listed once, the ends of its heading and table-row
    lines (``line_cuts``; most blocks have none)."""

    def __init__(self, document: str, start: int, end: int) -> None:
        self.document, self.end = document, end
        self.lines = line_cuts(document, start, end)
        self.stops = stops_in(document, start, end)

    def last_within(self, pos: int, start: int, limit: int) -> int | None:
        """The last cut after ``start`` whose sentence ends by ``limit`` (``pos``: the last
        cut, or the block's start)."""
        cut = last_cut_by(self.document, pos, self.end, limit, self.stops)
        line = self._last_line_cut(limit)
        best = line if cut is None or (line is not None and line > cut) else cut
        return best if best is not None and best > start else None

    def _last_line_cut(self, limit: int) -> int | None:
        """The last line cut at or before ``limit``, or after it with only whitespace between."""
        if not self.lines:
            return None
        following = _NON_SPACE.search(self.document, limit, self.end)
        at = bisect.bisect_left(self.lines, self.end if following is None else following.start())
        return self.lines[at - 1] if at else None

    def first_after(self, pos: int, start: int, default: int) -> int:
        """The first cut after ``start`` (an over-size sentence's end), or ``default``."""
        regular = (c for c in cuts_after(self.document, pos, self.end) if c > start)
        at = bisect.bisect_right(self.lines, start)
        line = self.lines[at] if at < len(self.lines) else default
        return min(next(regular, default), line)


def _sections_packed(document: str, max_chars: int, overlap: int) -> list[Chunk]:
    chunks: list[Chunk] = []
    for section in _sections(document):
        for start, end, header in _pack(document, section.units, max_chars, overlap):
            chunks.append(
                make_chunk(
                    document,
                    len(chunks),
                    start,
                    end,
                    over_size=end - start > max_chars,
                    heading_path=section.heading_path,
                    context_prefix=header,
                )
            )
    return chunks


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    chunks = _sections_packed(document, values["max_chars"], values["overlap_sentences"])
    return ChunkingResult(tuple(chunks))


# 800 characters with no overlap: most sections fit whole (the point of this chunker), and
# the heading path already tells a chunk's context, so sentences need not be repeated.
SPEC = register(
    ChunkerSpec(
        name="markdown",
        params=(max_chars_param(800), overlap_units_param("overlap_sentences", 0)),
        chunk=_run,
        size_axis="max_chars",
        overlap_axis="overlap_sentences",
        size_steps=PACKED_STEPS,
        overlap_steps=(0, 1, 2),
        order=40,
    )
)
