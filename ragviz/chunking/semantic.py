"""Semantic chunks: break between sentences where the topic changes.

Each sentence is embedded; where two neighbours are less similar than a threshold (given,
or a percentile of all neighbour similarities) a new chunk starts. The similarities are
returned too, so the UI can plot them with the threshold line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from ragviz.chunking.base import ChunkingResult, make_chunk
from ragviz.chunking.params import COSINE, PERCENT, Param, max_chars_param
from ragviz.chunking.registry import register
from ragviz.chunking.spec import ChunkerSpec
from ragviz.chunking.text import split_sentences
from ragviz.errors import InputError

if TYPE_CHECKING:
    from ragviz.embedding.models import Embedder

# The 25th percentile breaks at about a quarter of the sentence boundaries, the least
# similar ones: chunks of about four sentences that change where the topic does.
PERCENTILE = Param("percentile", "float", PERCENT, 0.0, 100.0, 25.0)
THRESHOLD = Param("threshold", "float", COSINE, -1.0, 1.0, 0.5, step=0.01)
DEFAULT_PERCENTILE = float(PERCENTILE.default)


def _run(document: str, values: Mapping[str, Any], embedder: Embedder | None) -> ChunkingResult:
    """Sentences grouped until similarity drops below the breakpoint: ``threshold`` (cosine)
    or ``percentile`` of the boundary similarities; ``max_chars`` also starts a new chunk."""
    if embedder is None:
        raise InputError(key="param.needs_model", name="semantic")
    return _grouped(document, embedder, values["threshold"], values["percentile"],
                    values["max_chars"])


def _grouped(
    document: str,
    embedder: Embedder,
    threshold: float | None,
    percentile: float | None,
    max_chars: int | None,
) -> ChunkingResult:
    quantile = DEFAULT_PERCENTILE if percentile is None else percentile
    sentences = split_sentences(document)
    if not sentences:
        return ChunkingResult(chunks=(), breakpoint_threshold=threshold)
    vectors = embedder.encode_documents([document[a:b] for a, b in sentences])
    similarities = [float(x) for x in np.sum(vectors[:-1] * vectors[1:], axis=1)]
    boundaries = tuple(
        (sentences[i + 1][0], sim) for i, sim in enumerate(similarities)
    )
    used = threshold
    if used is None and similarities:
        used = float(np.percentile(np.asarray(similarities), quantile))

    groups: list[tuple[int, int]] = []
    start, end = sentences[0]
    for (s_start, s_end), sim in zip(sentences[1:], similarities, strict=True):
        topic_change = used is not None and sim < used
        too_long = max_chars is not None and s_end - start > max_chars
        if topic_change or too_long:
            groups.append((start, end))
            start = s_start
        end = s_end
    groups.append((start, end))
    chunks = tuple(
        make_chunk(
            document,
            i,
            a,
            b,
            over_size=max_chars is not None and b - a > max_chars,
        )
        for i, (a, b) in enumerate(groups)
    )
    return ChunkingResult(
        chunks=chunks, boundary_similarities=boundaries, breakpoint_threshold=used
    )


# 400 characters: room for the few sentences of one topic, so the topic, not the length,
# decides most breaks.
SPEC = register(
    ChunkerSpec(
        name="semantic",
        params=(THRESHOLD, PERCENTILE, max_chars_param(400)),
        chunk=_run,
        needs_model=True,
        size_axis="max_chars",
        alternatives=("percentile", "threshold"),
        order=60,
    )
)
