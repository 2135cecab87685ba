"""Markdown chunks: one per section under its heading path, split only where structure allows.

The article's limits section says tables, code and long sections break badly on
punctuation. Here a chunk never crosses a heading, a fenced code block is never cut, and a
table cut into groups of rows gives every group its header through ``context_prefix``
(chunk text stays a document slice, so the header cannot be pasted into it).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from ragviz.chunking.base import Chunk, ChunkingResult, make_chunk
from ragviz.chunking.packing import pack_indices
from ragviz.chunking.params import PACKED_STEPS, max_chars_param, overlap_units_param
from ragviz.chunking.registry import ChunkerSpec, register, run_checked
from ragviz.text import Span, split_sentences, trim_span

if TYPE_CHECKING:
    from ragviz.embedders import Embedder

_HEADING_OPEN = re.compile(r"[ ]{0,3}(#{1,6})(?=[ \t]|$)")
_FENCE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")
# What every fence or heading line starts with, at the start or after a newline.
_MARKER_AT_START = re.compile(r"[ ]{0,3}[#`~]")
_MARKER_LINE = re.compile(r"\n[ ]{0,3}[#`~]")
# Matched against a stripped line, so no two whitespace runs meet (linear time).
_DELIMITER = re.compile(r"\|?[ \t]*+:?-++:?[ \t]*+(?:\|[ \t]*+:?-++:?[ \t]*+)*+\|?")


def parse_heading(line: str) -> tuple[int, str] | None:
    """(level, title) of an ATX heading line, or None. String operations, not a regex with
    nested optional whitespace, so a line of 100,000 spaces costs one pass."""
    opening = _HEADING_OPEN.match(line)
    if opening is None:
        return None
    title = line[opening.end() :].strip()
    closing = title.rstrip("#")
    if not closing or closing[-1] in " \t":
        title = closing.strip()
    return len(opening.group(1)), title


def is_delimiter_row(line: str) -> bool:
    """A table's ``|---|:--:|`` row."""
    return _DELIMITER.fullmatch(line.strip()) is not None


@dataclass(frozen=True)
class _Unit:
    """An indivisible piece of a section, in packing order."""

    start: int
    end: int
    carry: bool = False  # may be repeated as overlap (sentences only)
    table_header: str = ""  # for table rows: header + delimiter lines, used as context
    # A run of text lines not yet split into sentences (the untrimmed line range, split
    # only when packing needs its sentences); start/end are its trimmed extent.
    block: tuple[int, int] | None = None


@dataclass(frozen=True)
class _Section:
    start: int
    end: int
    heading_path: tuple[str, ...]
    units: tuple[_Unit, ...]


def _lines(document: str) -> list[Span]:
    """(start, end) of every line, end excluding the newline."""
    lengths = [len(line) + 1 for line in document.split("\n")]  # with the newline
    spans = [
        (start, start + length - 1)
        for start, length in zip(accumulate(lengths, initial=0), lengths, strict=False)
    ]
    if spans[-1][0] == len(document):
        spans.pop()  # nothing after the last newline (or an empty document)
    return spans


def _special_lines(document: str, lines: list[Span]) -> list[int]:
    """Indices of the lines that may open a fence, a heading or a table, in order: a fence
    or heading starts (after up to 3 spaces) with ``#``, a backtick or ``~``; a table line
    holds a ``|``. Every other line is plain text, and is skipped without a look."""
    starts = [start for start, _ in lines]
    found: set[int] = set()
    if _MARKER_AT_START.match(document):
        found.add(0)
    for match in _MARKER_LINE.finditer(document):
        found.add(bisect_right(starts, match.start() + 1) - 1)
    pipe = document.find("|")
    while pipe >= 0:
        line = bisect_right(starts, pipe) - 1
        found.add(line)
        pipe = document.find("|", lines[line][1])
    return sorted(found)


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


def _fence_end(document: str, lines: list[Span], i: int, marker: str) -> int:
    """Index of the line that closes the fence opened on line ``i`` (or the last line)."""
    j = i + 1
    while j < len(lines):
        close = _FENCE.match(document, *lines[j])
        if (
            close
            and close.group(1)[0] == marker[0]
            and len(close.group(1)) >= len(marker)
            and not document[close.end() : lines[j][1]].strip()
        ):
            break
        j += 1
    return min(j, len(lines) - 1)


def _starts_table(document: str, lines: list[Span], i: int) -> bool:
    """A line with a pipe followed by a delimiter row."""
    ls, le = lines[i]
    if "|" not in document[ls:le] or i + 1 >= len(lines):
        return False
    below = document[lines[i + 1][0] : lines[i + 1][1]]
    return {"-", "|"} <= set(below) and is_delimiter_row(below)


def _table_units(document: str, lines: list[Span], i: int, units: list[_Unit]) -> int:
    """Add a table's units (header with first row, then each row with the header as
    context) and return the index of the first line after the table."""
    ls = lines[i][0]
    header_end = lines[i + 1][1]
    header = document[ls:header_end].rstrip() + "\n"
    j = i + 2
    rows: list[Span] = []
    while j < len(lines) and "|" in document[lines[j][0] : lines[j][1]]:
        rows.append(lines[j])
        j += 1
    first_end = rows[0][1] if rows else header_end
    units.extend(_unit(document, ls, first_end))
    for rs, re_ in rows[1:]:
        units.extend(_unit(document, rs, re_, table_header=header))
    return j


def _push_heading(stack: list[tuple[int, str]], level: int, title: str) -> tuple[str, ...]:
    """Replace the headings at ``level`` or deeper with this one; the new heading path."""
    while stack and stack[-1][0] >= level:
        stack.pop()
    stack.append((level, title))
    return tuple(t for _, t in stack if t)


def _sections(document: str) -> list[_Section]:
    """Split the document at ATX headings outside fences; classify each section's lines."""
    lines = _lines(document)
    sections: list[_Section] = []
    stack: list[tuple[int, str]] = []
    path: tuple[str, ...] = ()
    sec_start = 0
    units: list[_Unit] = []
    text_start: int | None = None

    def flush_text(upto: int) -> None:
        nonlocal text_start
        if text_start is not None:
            units.extend(_text_block(document, text_start, upto))
            text_start = None

    def close_section(upto: int) -> None:
        flush_text(upto)
        a, b = trim_span(document, sec_start, upto)
        if a < b:
            sections.append(_Section(a, b, path, tuple(units)))
        units.clear()

    specials = _special_lines(document, lines)
    k = 0
    i = 0
    while i < len(lines):
        k = bisect_left(specials, i, k)
        plain_until = specials[k] if k < len(specials) else len(lines)
        if plain_until > i:  # lines i .. plain_until - 1 are text
            text_start = lines[i][0] if text_start is None else text_start
            i = plain_until
            continue
        ls, le = lines[i]
        fence = _FENCE.match(document, ls, le)
        if fence:
            flush_text(ls)
            last = _fence_end(document, lines, i, fence.group(1))
            units.extend(_unit(document, ls, lines[last][1]))
            i = last + 1
            continue
        heading = parse_heading(document[ls:le])
        if heading:
            close_section(ls)
            path = _push_heading(stack, *heading)
            sec_start = ls
            units.extend(_unit(document, ls, le))
            i += 1
            continue
        if _starts_table(document, lines, i):
            flush_text(ls)
            i = _table_units(document, lines, i, units)
            continue
        if text_start is None:
            text_start = ls
        i += 1
    close_section(len(document))
    return sections


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


def _pack_without_overlap(
    document: str, units: tuple[_Unit, ...], max_chars: int
) -> list[tuple[int, int, str]]:
    """``pack_indices`` with no overlap, streaming: a text block that fits whole in the
    current group joins it whole (no cut can fall inside it), so only the blocks a cut
    falls in are split into sentences. Same groups, far fewer sentence splits."""
    groups: list[tuple[int, int, str]] = []
    first = -1  # start of the current group; -1 before the first unit
    header = ""
    end = 0
    for unit in units:
        pieces: list[Span] = [(unit.start, unit.end)]
        if unit.block is not None and unit.end - (unit.start if first < 0 else first) > max_chars:
            block_start, block_end = unit.block
            pieces = [
                (block_start + a, block_start + b)
                for a, b in split_sentences(document[block_start:block_end])
            ]
        for piece_start, piece_end in pieces:
            if first < 0:
                first, header = piece_start, unit.table_header
            elif piece_end - first > max_chars:
                groups.append((first, end, header))
                first, header = piece_start, unit.table_header
            end = piece_end
    if first >= 0:
        groups.append((first, end, header))
    return groups


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
        help="one chunk per heading section, split at sentences, rows and code blocks",
        order=40,
    )
)


def chunk_markdown(
    document: str, max_chars: int = 800, overlap_sentences: int = 0
) -> ChunkingResult:
    """One chunk per heading section, or several when the section exceeds ``max_chars``.

    Every chunk records its ``heading_path``. Long sections are packed from sentences
    (with ``overlap_sentences``), whole code blocks and table rows; an oversize block or
    sentence becomes its own chunk with ``over_size=True``.
    """
    return run_checked(SPEC, document, max_chars=max_chars, overlap_sentences=overlap_sentences)
