"""The sweep grid: the (size, overlap) settings a sweep tries for each chunker, from its
spec's sweep axes, and how a sweep row names a configuration's axes."""

from __future__ import annotations

from ragviz.chunking.config import ChunkerConfig
from ragviz.chunking.params import Number
from ragviz.chunking.registry import get_spec, specs
from ragviz.chunking.spec import ChunkerSpec


def _scaled(candidates: tuple[int, ...], document_length: int, count: int = 4) -> list[int]:
    """The ``count`` largest candidates that still cut the document into two or more pieces."""
    fitting = [c for c in candidates if c <= max(candidates[0], document_length // 2)]
    return fitting[-count:]


def sweep_values(spec: ChunkerSpec, document_length: int) -> list[dict[str, Number]]:
    """The (size, overlap) settings a sweep tries for one chunker, sizes scaled to the
    document; ValueError for a chunker without sweep axes."""
    if spec.size_axis is None or spec.overlap_axis is None or not spec.size_steps:
        raise ValueError(f"default_grid has no sizes for the {spec.name!r} chunker")
    out: list[dict[str, Number]] = []
    for size in _scaled(spec.size_steps, document_length):
        for step in spec.overlap_steps:
            overlap = round(size * step) if spec.overlap_is_share() else round(step)
            out.append({spec.size_axis: size, spec.overlap_axis: overlap})
    return out


def default_sweep_chunkers() -> tuple[str, ...]:
    """The chunkers a sweep varies when none are named: each with a ``sweep_position``."""
    swept = sorted((s for s in specs() if s.sweep_position), key=lambda s: s.sweep_position)
    return tuple(spec.name for spec in swept)


def sweepable(name: str) -> bool:
    """True when the chunker has size and overlap axes a sweep can vary."""
    spec = get_spec(name)
    return bool(spec.size_axis and spec.overlap_axis and spec.size_steps)


def default_grid(
    document_length: int, chunkers: tuple[str, ...] | list[str] | None = None
) -> list[ChunkerConfig]:
    """About 30 configurations: each chunker's sizes x overlaps from its spec (fixed and
    recursive: sizes x overlaps 0 and ~15 %; sentence: max_chars x 0, 1, 2 sentences).
    Without ``chunkers``, every chunker with a ``sweep_position``, in that order."""
    if chunkers is None:
        chunkers = default_sweep_chunkers()
    return [
        ChunkerConfig.create(name, **values)
        for name in chunkers
        for values in sweep_values(get_spec(name), document_length)
    ]


def axes(config: ChunkerConfig) -> tuple[Number, Number]:
    """A configuration's (size, overlap) on its chunker's sweep axes (0 where it has none)."""
    spec = get_spec(config.chunker)
    size = config.get(spec.size_axis) if spec.size_axis else None
    overlap = config.get(spec.overlap_axis) if spec.overlap_axis else None
    return size or 0, overlap or 0
