"""The sweep, one path for the CLI and the app: a grid of chunker settings (the specs' own
steps, or sizes and overlaps the user types), optionally crossed with scorers (and rerank
depths), each configuration's metrics on the same questions.

How it runs (``run_sweep``): every configuration is chunked first, so the work is known
before any embedding (the distinct chunk texts of the whole grid, for the time left); then the
distinct texts no configuration embedded yet go to the model through the embedder's cache in
waves of at least ``WAVE_TEXTS`` (the next configurations' new texts in one batched call,
sorted by length: a text two configurations share is embedded once), and each configuration
is ranked by every scorer of the axis on the same vectors. ``stop`` is asked before each
configuration and between embedding batches: a stopped sweep returns the rows it finished
(``SweepResult.complete`` false); the batches it embedded stay in the cache.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ragviz.chunking import ChunkerConfig, ChunkingResult, chunk_corpus
from ragviz.chunking.registry import get_spec
from ragviz.chunking.sweep_grid import default_grid, sweep_values
from ragviz.embedding.models import Embedder
from ragviz.errors import InputError
from ragviz.evaluation.pipeline import (
    MAX_CHUNKS,
    analyse_chunked,
    embedding_text,
    encode_questions,
)
from ragviz.evaluation.results import RetrievalSettings, SweepResult, SweepRow
from ragviz.inputs.corpus import Corpus, as_corpus
from ragviz.inputs.documents import shorten
from ragviz.inputs.questions import LabelledQuestion
from ragviz.retrieval.scorers import get_scorer

MAX_SIZES = 12  # sizes a user may type for one sweep
MAX_OVERLAPS = 5  # overlaps (shares of the size) a user may type
MAX_SCORERS = 6  # scorer settings on the scorer axis (scorers x rerank depths)
MAX_CONFIGURATIONS = 150  # rows of one sweep: chunker settings x scorer settings
MAX_OVERLAP_PERCENT = 90
WAVE_TEXTS = 256  # new chunk texts embedded per call (16 batches of the embedder's 16)


@dataclass(frozen=True)
class SweepStep:
    """How far a sweep is: rows (configuration x scorer) done of all, the grid's distinct
    chunk texts reached of all, and the seconds since the work began."""

    rows_done: int
    rows_total: int
    texts_done: int
    texts_total: int
    seconds: float

    @property
    def share(self) -> float:
        """The share of the work done: texts to embed weigh as much as rows to rank."""
        total = self.texts_total + self.rows_total
        return 1.0 if total == 0 else (self.texts_done + self.rows_done) / total

    def seconds_left(self) -> float | None:
        """The time left at the pace so far, measured from the first batch embedded (None
        before any work is done: no pace yet)."""
        if self.share <= 0 or self.seconds <= 0:
            return None
        if self.rows_done >= self.rows_total:
            return 0.0
        return self.seconds * (1 - self.share) / self.share


StepReport = Callable[[SweepStep], None]
Stop = Callable[[], bool]


class _StoppedError(Exception):
    """Raised between embedding batches once ``stop`` says so."""


# --- the grid ---------------------------------------------------------------------------

def parse_numbers(text: str, name: str, limit: int) -> tuple[int, ...]:
    """Whole numbers separated by commas or spaces, each once, in order; InputError (one
    sentence) for anything else or more than ``limit`` of them. Empty text: none."""
    parts = [p for p in text.replace(",", " ").replace(";", " ").split() if p]
    values: list[int] = []
    for part in parts:
        if not part.isdigit() or len(part) > 7:
            raise InputError(key="sweep.not_whole", name=name, got=repr(shorten(part)))
        if int(part) not in values:
            values.append(int(part))
    if len(values) > limit:
        raise InputError(key="sweep.too_many", name=name, limit=limit, got=len(values))
    return tuple(values)


def sweep_grid(document_length: int, chunkers: Sequence[str] | None = None,
               sizes: Sequence[int] = (), overlaps: Sequence[int] = ()) -> list[ChunkerConfig]:
    """The grid: each chunker's sizes x overlaps. ``sizes`` replace the spec's steps (in the
    size's unit); ``overlaps`` (percent of the size) replace the steps of a chunker whose
    overlap counts the size's unit (a sentence overlap keeps its own steps). A size or an
    overlap a chunker cannot take is refused in one sentence naming it."""
    if not sizes and not overlaps:
        return default_grid(document_length, tuple(chunkers) if chunkers else None)
    for percent in overlaps:
        if percent > MAX_OVERLAP_PERCENT:
            raise InputError(key="sweep.overlap_percent", limit=MAX_OVERLAP_PERCENT, got=percent)
    names = tuple(chunkers) if chunkers else tuple(
        dict.fromkeys(c.chunker for c in default_grid(document_length)))
    grid: list[ChunkerConfig] = []
    for name in names:
        spec = get_spec(name)
        steps = sweep_values(spec, document_length)
        size_axis, overlap_axis = spec.size_axis or "", spec.overlap_axis or ""
        chosen = sizes or tuple(dict.fromkeys(int(v[size_axis]) for v in steps))
        share = spec.overlap_is_share()
        kept = tuple(dict.fromkeys(v[overlap_axis] for v in steps)) if not share else ()
        for size in chosen:
            spec.param(size_axis).check(size)
            shares = overlaps or tuple(dict.fromkeys(
                round(100 * v[overlap_axis] / max(v[size_axis], 1)) for v in steps))
            values = [round(size * p / 100) for p in shares] if share else list(kept)
            for overlap in dict.fromkeys(values):
                grid.append(ChunkerConfig.create(name, **{size_axis: size,
                                                          overlap_axis: overlap}))
    return grid


def scorer_axis(scorers: Sequence[str], rerank: str | None = None,
                depths: Sequence[int] = (), options: str = "") -> tuple[str, ...]:
    """The scorer specs a sweep ranks with: each scorer, or each scorer followed by the
    reranker at each depth (``cosine+rerank(sentence-max,depth=10)``); every spec checked."""
    specs: list[str] = []
    for scorer in scorers:
        if rerank is None:
            specs.append(scorer)
            continue
        for depth in depths or (None,):
            inner = ",".join(filter(None, [rerank, f"depth={depth}" if depth else "", options]))
            specs.append(f"{scorer}+rerank({inner})")
    for spec in specs:
        get_scorer(spec)  # InputError naming what is wrong
    if len(specs) > MAX_SCORERS:
        raise InputError(key="sweep.too_many", name="scorers", limit=MAX_SCORERS,
                         got=len(specs))
    return tuple(dict.fromkeys(specs))


def check_size(grid: Sequence[ChunkerConfig], scorers: Sequence[str]) -> None:
    """One sentence when the sweep would run more rows than ``MAX_CONFIGURATIONS``."""
    rows = len(grid) * max(1, len(scorers))
    if rows > MAX_CONFIGURATIONS:
        raise InputError(key="sweep.too_big", got=rows, limit=MAX_CONFIGURATIONS)


# --- the run ----------------------------------------------------------------------------

@dataclass
class GridChunks:
    """The chunks of every configuration (None: left out, too many chunks or characters)
    and how many distinct texts the grid embeds in all."""

    chunkings: list[ChunkingResult | None]
    texts_total: int


def grid_chunks(corpus: Corpus, grid: Sequence[ChunkerConfig], embedder: Embedder,
                stop: Stop | None) -> GridChunks:
    """Every configuration chunked, before any embedding (the sweep and its estimate)."""
    chunkings: list[ChunkingResult | None] = []
    seen: set[str] = set()
    for config in grid:
        if stop is not None and stop():
            break
        try:
            chunking: ChunkingResult | None = chunk_corpus(corpus, config, embedder)
        except InputError:
            chunking = None  # too many characters to chunk: the sweep leaves it out
        if chunking is not None and len(chunking.chunks) > MAX_CHUNKS:
            chunking = None  # too many chunks to embed: left out, as the app refuses it
        if chunking is not None:
            seen.update(embedding_text(c) for c in chunking.chunks)
        chunkings.append(chunking)
    return GridChunks(chunkings, len(seen))


@dataclass
class _Tally:
    rows_done: int
    rows_total: int
    texts_done: int
    texts_total: int
    started: float
    in_wave: int = 0  # texts of the wave under way embedded so far

    def step(self) -> SweepStep:
        return SweepStep(self.rows_done, self.rows_total, self.texts_done + self.in_wave,
                         self.texts_total, time.monotonic() - self.started)

    def batch(self, report: StepReport | None) -> Callable[[int], None]:
        """After each embedding batch: the texts of the wave done, reported (so the
        progress moves within a configuration of thousands of chunks, issue 44.4)."""
        def moved(done: int) -> None:
            self.in_wave = done
            if report is not None and done:
                report(self.step())
        return moved


def run_sweep(
    document: str | Corpus,
    questions: Sequence[LabelledQuestion],
    embedder: Embedder,
    grid: Sequence[ChunkerConfig],
    settings: RetrievalSettings,
    scorers: Sequence[str] = (),
    report: StepReport | None = None,
    stop: Stop | None = None,
) -> SweepResult:
    """Every configuration of ``grid`` ranked by every scorer of ``scorers`` (none: the
    settings' own, rows without a scorer), with ``settings``' top_k and floor (on a scorer
    axis the floor holds for its own scorer only: ``_scorer_settings``)."""
    corpus = as_corpus(document)
    started = time.monotonic()
    query_vectors = encode_questions(embedder, questions)
    plan = grid_chunks(corpus, grid, embedder, stop)
    ranked = _scorer_settings(settings, scorers)
    tally = _Tally(0, len(grid) * len(ranked), 0, plan.texts_total, started)
    if report is not None:
        report(tally.step())
    rows: list[SweepRow] = []
    embedded: set[str] = set()
    for position, (config, chunking) in enumerate(zip(grid, plan.chunkings, strict=False)):
        if stop is not None and stop():
            break
        if chunking is not None:
            texts = [embedding_text(c) for c in chunking.chunks]
            if not embedded.issuperset(texts):
                wave = _wave(plan.chunkings[position:], embedded)
                try:
                    embedder.encode_documents(wave, _between_batches(stop, tally.batch(report)))
                except _StoppedError:
                    break
                embedded.update(wave)
                tally.texts_done += len(wave)
                tally.in_wave = 0
            vectors = embedder.encode_documents(texts)  # from the cache now
            for one in ranked:
                analysis = analyse_chunked(corpus, config, embedder, questions, chunking,
                                           vectors, query_vectors, one)
                rows.append(SweepRow(config, analysis.metrics, len(chunking.chunks),
                                     one.scorer if scorers else None))
        tally.rows_done += len(ranked)
        if report is not None:
            report(tally.step())
    complete = tally.rows_done >= tally.rows_total
    return SweepResult(tuple(rows), complete=complete)


def _wave(chunkings: Sequence[ChunkingResult | None], embedded: set[str]) -> list[str]:
    """The texts the next configurations bring that are not embedded yet, configuration by
    configuration while they stay within ``WAVE_TEXTS`` (the first one whatever its size):
    one call embeds them (full batches sorted by length, measurably faster than a call per
    configuration), and a configuration's row never waits for more than one wave of the
    next ones' texts, so a Cancel keeps the rows finished before it (issue 44.4)."""
    wave: dict[str, None] = {}
    for chunking in chunkings:
        if chunking is None:
            continue
        new = [text for text in dict.fromkeys(embedding_text(c) for c in chunking.chunks)
               if text not in embedded and text not in wave]
        if wave and len(wave) + len(new) > WAVE_TEXTS:
            break
        wave.update(dict.fromkeys(new))
        if len(wave) >= WAVE_TEXTS:
            break
    return list(wave)


def _scorer_settings(settings: RetrievalSettings,
                     scorers: Sequence[str]) -> list[RetrievalSettings]:
    """One setting per scorer: the settings' floor for its own scorer, the scale's bottom
    (no floor) for another (floors on different scales do not compare)."""
    if not scorers:
        return [settings]
    return [RetrievalSettings(settings.top_k, settings.floor if spec == settings.scorer
                              else get_scorer(spec).scale.low, spec, settings.expand)
            for spec in scorers]


def _between_batches(stop: Stop | None,
                     moved: Callable[[int], None]) -> Callable[[int, int], None]:
    """The embedding's progress callback: the batch reported, then the stop asked (a
    Cancel lands within one batch of 16 texts)."""
    def check(done: int, total: int) -> None:
        moved(done)
        if stop is not None and stop():
            raise _StoppedError
    return check


def seconds_left_at(done: int, total: int, seconds: float) -> float | None:
    """The time ``total - done`` more items take at the pace of the ``done`` in ``seconds``
    (None before the first: no pace yet)."""
    if done <= 0 or seconds <= 0:
        return None
    return seconds * max(0, total - done) / done


def time_left_text(seconds: float | None) -> str | None:
    """A duration as people read it while waiting: "about 40 s", "about 3 min"."""
    if seconds is None:
        return None
    if seconds < 60:
        return f"{max(1, math.ceil(seconds / 5) * 5)} s"
    return f"{math.ceil(seconds / 60)} min"
