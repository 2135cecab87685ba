"""Exact and near-duplicate chunks (the same FAQ imported twice): grouped on the stored
vectors, compared block by block so ten thousand chunks never need a full square matrix."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ragviz.index.base import Vector

DUPLICATE_COSINE = 0.98
# Near copies are searched among at most this many chunks (the search is quadratic: 20,000
# chunks is 400 million cosines); past it only exact copies (same text) are grouped.
NEAR_DUPLICATE_LIMIT = 20_000
_CELLS = 8_000_000  # cosines computed at once (32 MB of float32)


def duplicate_groups(vectors: Vector, texts: Sequence[str]) -> tuple[int, ...]:
    """A group number per chunk (the lowest index of its copies), -1 for a chunk with no
    copy; copies have the same text or unit vectors with cosine >= ``DUPLICATE_COSINE``."""
    parent = list(range(len(texts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(i: int, j: int) -> None:
        a, b = root(i), root(j)
        if a != b:
            parent[max(a, b)] = min(a, b)

    first: dict[str, int] = {}
    for i, text in enumerate(texts):
        join(first.setdefault(text, i), i)
    count = len(texts) if near_searched(len(texts)) else 0
    block = max(1, _CELLS // max(count, 1))
    for low in range(0, count, block):
        sims = vectors[low:low + block] @ vectors.T
        for a, b in zip(*np.nonzero(sims >= DUPLICATE_COSINE), strict=True):
            if low + int(a) < int(b):
                join(low + int(a), int(b))
    roots = [root(i) for i in range(len(texts))]
    sizes = np.bincount(roots, minlength=len(texts)) if roots else np.zeros(0, dtype=int)
    return tuple(r if sizes[r] > 1 else -1 for r in roots)


def near_searched(count: int) -> bool:
    """Whether near copies are looked for among ``count`` chunks (else exact ones only)."""
    return count <= NEAR_DUPLICATE_LIMIT


def duplicate_count(groups: Sequence[int]) -> tuple[int, int]:
    """(groups of copies, chunks in them)."""
    grouped = [g for g in groups if g >= 0]
    return len(set(grouped)), len(grouped)
