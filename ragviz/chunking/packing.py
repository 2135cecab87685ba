"""The greedy packing loop the sentence, markdown and paragraph chunkers share."""

from __future__ import annotations

from collections.abc import Sequence

from ragviz.chunking.text import Span


def pack_indices(
    spans: Sequence[Span], max_chars: int, overlap: int, carries: Sequence[bool] | None = None
) -> list[range]:
    """Greedy packing of ordered spans into groups (index ranges) of at most ``max_chars``.

    A new group starts with the last ``overlap`` spans of the previous one, minus as many of
    those as needed for the next span to fit, so no group is only carried-over spans. With
    ``carries``, only a run of carry-able spans before a carry-able span is repeated (the
    markdown chunker repeats sentences, never table rows or code). A single span longer
    than ``max_chars`` is a group of its own.
    """
    groups: list[range] = []
    first = 0
    for i, (_, end) in enumerate(spans):
        if i == first or end - spans[first][0] <= max_chars:
            continue
        groups.append(range(first, i))
        carried = i - min(overlap, i - first)
        if carries is not None:
            carried = _carried_run(carries, carried, i)
        while carried < i and end - spans[carried][0] > max_chars:
            carried += 1
        first = carried
    if spans:
        groups.append(range(first, len(spans)))
    return groups


def _carried_run(carries: Sequence[bool], begin: int, stop: int) -> int:
    """Start of the carry-able run that ends at ``stop`` (nothing if ``stop`` cannot carry)."""
    if stop >= len(carries) or not carries[stop]:
        return stop
    start = stop
    while start > begin and carries[start - 1]:
        start -= 1
    return start


def pack_spans(spans: Sequence[Span], max_chars: int, overlap: int) -> list[Span]:
    """The packed groups as (start, end) spans: first span's start to last span's end."""
    return [
        (spans[group[0]][0], spans[group[-1]][1])
        for group in pack_indices(spans, max_chars, overlap)
    ]
