"""Character spans ``(start, end)`` as sets of offsets: union, intersection, difference and
length, for every stage that compares where things lie in a document (the prompt leaving
out text an earlier hit gave, token-level metrics comparing chunks with the answer)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

Span = tuple[int, int]


def union(spans: Iterable[Span]) -> list[Span]:
    """The spans merged: sorted, without overlaps, empty ones dropped, touching ones joined."""
    out: list[Span] = []
    for start, end in sorted(s for s in spans if s[1] > s[0]):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def intersection(a: Iterable[Span], b: Iterable[Span]) -> list[Span]:
    """The offsets in both ``a`` and ``b``, merged."""
    left, right = union(a), union(b)
    out: list[Span] = []
    i = j = 0
    while i < len(left) and j < len(right):
        start, end = max(left[i][0], right[j][0]), min(left[i][1], right[j][1])
        if end > start:
            out.append((start, end))
        if left[i][1] <= right[j][1]:
            i += 1
        else:
            j += 1
    return out


def difference(span: Span, covered: Sequence[Span]) -> list[Span]:
    """The parts of ``span`` that none of ``covered`` holds, in order."""
    pieces: list[Span] = []
    cursor, end = span
    for c_start, c_end in union(covered):
        if c_end <= cursor or c_start >= end:
            continue
        if c_start > cursor:
            pieces.append((cursor, c_start))
        cursor = max(cursor, c_end)
    if cursor < end:
        pieces.append((cursor, end))
    return pieces


def length(spans: Iterable[Span]) -> int:
    """How many offsets the spans hold together (overlaps counted once)."""
    return sum(end - start for start, end in union(spans))
