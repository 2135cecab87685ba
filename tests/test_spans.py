"""The public spans module agrees with plain sets of offsets."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import given
from hypothesis import strategies as st

from ragviz.chunking.spans import Span, difference, intersection, length, union

spans = st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=6)


def offsets(items: list[Span]) -> set[int]:
    return {i for start, end in items for i in range(start, end)}


@given(spans)
def test_union_is_the_set_union_sorted_and_disjoint(items: list[Span]) -> None:
    merged = union(items)
    assert offsets(merged) == offsets(items)
    assert all(a[1] < b[0] for a, b in pairwise(merged))
    assert length(items) == len(offsets(items))


@given(spans, spans)
def test_intersection_is_the_set_intersection(a: list[Span], b: list[Span]) -> None:
    assert offsets(intersection(a, b)) == offsets(a) & offsets(b)


@given(st.tuples(st.integers(0, 40), st.integers(0, 40)), spans)
def test_difference_is_the_set_difference_in_order(span: Span, covered: list[Span]) -> None:
    pieces = difference(span, covered)
    assert offsets(pieces) == offsets([span]) - offsets(covered)
    assert pieces == union(pieces)
