"""Evaluation at benchmark scale: 1,000 questions with labelled excerpts over 10,000 chunks.

Time of the pipeline after embedding (``analyse_chunked``: scores, decisions, diagnoses, token
recall/precision/IoU/Ω, metrics) and of ``rescore`` for another top_k, and the peak RSS above
the process with the model loaded. Vectors are random unit rows of the model's width (half the
questions get the vector of the chunk where their first excerpt starts, so some are found and
some are not): the embedding itself is not what is measured. Goal: <= 3 s and <= 500 MB.
Nothing asserted. What is left for when it is read is timed on its own: counting every chunk's
tokens (``eval --json`` and the exports read them all; the app the shown file's) and sorting
one question's whole ranking (when the app shows that question); then the HTML report (a
table of every question, the worst drawn in full).

Before/after: run it with ``PYTHONPATH`` on a checkout without labelled excerpts (each
question then carries its first excerpt as its answer text) and on this one.
"""

from __future__ import annotations

import bisect
import resource
import time

import numpy as np
from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig, chunk_corpus
from ragviz.embedding.models import load_embedder
from ragviz.evaluation.pipeline import analyse_chunked, rescore
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.corpus import Corpus, Source
from ragviz.inputs.questions import LabelledQuestion
from ragviz.present.report import render_report

try:
    from ragviz.inputs.questions import Reference
except ImportError:  # run on a checkout before labelled excerpts ("before" figures)
    from typing import NamedTuple

    class Reference(NamedTuple):  # type: ignore[no-redef]
        content: str
        start: int
        end: int
        source: str

SENTENCE = "The refund for order {n} is paid within {d} days of the request. "


def corpus(files: int, sentences: int) -> Corpus:
    return Corpus(tuple(Source(f"f{f}.txt", "".join(
        SENTENCE.format(n=f * sentences + i, d=i % 30) for i in range(sentences)))
        for f in range(files)))


def questions(data: Corpus, count: int) -> list[LabelledQuestion]:
    out = []
    for n in range(count):
        source = data.sources[n % len(data.sources)]
        start = (n * 977) % (len(source.text) - 200)
        refs = (Reference(source.text[start:start + 60], start, start + 60, source.name),
                Reference(source.text[start + 120:start + 180], start + 120, start + 180,
                          source.name))
        try:
            out.append(LabelledQuestion(f"question {n}", references=refs[: 1 + n % 2]))
        except TypeError:  # a checkout before labelled excerpts: the first one as the answer
            out.append(LabelledQuestion(f"question {n}", refs[0].content, True))
    return out


def aimed(chunking: object, asked: list[LabelledQuestion], rng: np.random.Generator,
          ) -> np.ndarray:
    """Per question, a chunk index: for even questions the chunk holding the first character
    of the first excerpt (its vector is then the question's: found at rank 1), else random."""
    chunks = chunking.chunks  # type: ignore[attr-defined]
    where = {(c.source, offset): c.index for c in chunks for offset in (c.start,)}
    starts: dict[str, list[int]] = {}
    for c in chunks:
        starts.setdefault(c.source, []).append(c.start)
    out = rng.integers(0, len(chunks), len(asked))
    for n, question in enumerate(asked):
        refs = getattr(question, "references", ())
        if n % 2 or not refs:
            continue
        offsets = starts[refs[0].source]
        start = offsets[bisect.bisect_right(offsets, refs[0].start) - 1]
        out[n] = where[(refs[0].source, start)]
    return out


def main() -> None:
    args = bench_parser(__doc__).parse_args()
    files, sentences, count = (2, 20, 10) if args.smoke else (10, 1_000, 1_000)
    with on_machine(args.smoke):
        embedder = load_embedder("use-multilingual")
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        data = corpus(files, sentences)
        config = ChunkerConfig("fixed", size=65, overlap=0)
        chunking = chunk_corpus(data, config)
        asked = questions(data, count)
        rng = np.random.default_rng(20)
        width = 512
        chunk_vectors = rng.standard_normal((len(chunking.chunks), width)).astype(np.float32)
        chunk_vectors /= np.linalg.norm(chunk_vectors, axis=1, keepdims=True)
        query_vectors = chunk_vectors[aimed(chunking, asked, rng)]
        began = time.perf_counter()
        analysis = analyse_chunked(data, config, embedder, asked, chunking,
                                   chunk_vectors, query_vectors, RetrievalSettings(top_k=5))
        analysed = time.perf_counter() - began
        began = time.perf_counter()
        rescore(analysis, RetrievalSettings(top_k=3))
        rescored = time.perf_counter() - began
        began = time.perf_counter()
        counted = sum(analysis.chunk_tokens)
        tokens = time.perf_counter() - began
        began = time.perf_counter()
        analysis.outcomes[1].decision.ranking.tolist()
        ranking = time.perf_counter() - began
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{count:,} questions x {len(chunking.chunks):,} chunks: analyse after "
              f"embedding {analysed:.1f} s, rescore {rescored:.1f} s, peak RSS "
              f"{peak - base:.0f} MB above the loaded model; mean IoU "
              f"{analysis.metrics.values.get('iou', float('nan')):.3f}")
        print(f"when read: every chunk's tokens ({counted:,}) {tokens:.1f} s, one question's "
              f"whole ranking {ranking * 1000:.1f} ms")
        began = time.perf_counter()
        page = render_report([analysis], lang="en")
        drawn = page.count('<div class="q">')
        print(f"HTML report: {time.perf_counter() - began:.1f} s, {len(page) / 1e6:.1f} MB, "
              f"{drawn} questions drawn in full")


if __name__ == "__main__":
    main()
