"""What of the expected excerpts reached the context sent to the model.

A label is a fact about what the model received (DESIGN contract 7): the context is the
chunks sent after the floor, the reranker and ``--expand``, and an excerpt reached it when
every one of its characters lies inside one of those chunks. Token recall counts the same
characters, so a label and recall cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ragviz.chunking.spans import Span, difference, intersection, length, union
from ragviz.evaluation.chunk_table import ChunkTable
from ragviz.evaluation.excerpts import Excerpt


@dataclass(frozen=True)
class Reach:
    """One excerpt and its characters inside the context (``sent``) and outside it
    (``missing``), as offsets of its file."""

    excerpt: Excerpt
    sent: tuple[Span, ...]
    missing: tuple[Span, ...]

    @property
    def whole(self) -> bool:
        """Every character of the excerpt is in the context."""
        return not self.missing

    @property
    def share(self) -> float:
        """The share of the excerpt's characters in the context (1.0 for an empty one)."""
        size = self.excerpt.end - self.excerpt.start
        return length(self.sent) / size if size > 0 else 1.0


def context_spans(context: Sequence[int], table: ChunkTable) -> dict[str, list[Span]]:
    """The offsets the context covers, per file, merged."""
    spans: dict[str, list[Span]] = {}
    for index in context:
        source, span = table.span(index)
        spans.setdefault(source, []).append(span)
    return {name: union(found) for name, found in spans.items()}


def reach(excerpts: Sequence[Excerpt], context: Sequence[int],
          table: ChunkTable) -> tuple[Reach, ...]:
    """For every excerpt, in order, what of it the chunks ``context`` hold."""
    covered = context_spans(context, table)
    out: list[Reach] = []
    for excerpt in excerpts:
        whole = (excerpt.start, excerpt.end)
        sent = intersection([whole], covered.get(excerpt.source, []))
        out.append(Reach(excerpt, tuple(sent), tuple(difference(whole, sent))))
    return tuple(out)


def share_held(excerpt: Excerpt, chunk: int, table: ChunkTable) -> float:
    """The share of ``excerpt``'s characters chunk ``chunk`` holds (0.0 in another file)."""
    source, span = table.span(chunk)
    size = excerpt.end - excerpt.start
    if source != excerpt.source or size <= 0:
        return 0.0
    return length(intersection([(excerpt.start, excerpt.end)], [span])) / size
