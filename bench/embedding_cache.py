"""How much the shared embedding cache saves, measured against a peer in the same run.

Peer: the naive pipeline that embeds every configuration's chunks from scratch (a fresh
cache per configuration). Ours: one cache across the sweep, so each distinct chunk text is
embedded once; and ``rescore`` for a floor or top_k change, against a full ``analyse``.
Prints ratios; no thresholds, nothing asserted.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from pathlib import Path

from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.models import EmbeddingCache, UseMultilingual
from ragviz.evaluation.experiments import default_grid, sweep
from ragviz.evaluation.pipeline import analyse, rescore
from ragviz.evaluation.results import RetrievalSettings
from ragviz.inputs.questions import parse_questions_csv

SAMPLES = Path(__file__).resolve().parent.parent / "sample_docs"


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main() -> None:
    args = bench_parser(__doc__).parse_args()
    with on_machine(args.smoke):
        measure(args.smoke)


def measure(smoke: bool) -> None:
    """The sweep and the floor change; a smoke run sweeps two configurations once."""
    document = (SAMPLES / "politica_reembolso.txt").read_text(encoding="utf-8")
    questions = parse_questions_csv((SAMPLES / "politica_reembolso.csv").read_text("utf-8"))
    grid = default_grid(len(document))[: 2 if smoke else None]
    repeat = 1 if smoke else 5

    model = UseMultilingual(cache=EmbeddingCache())
    model.encode_documents(["warm-up"])

    def naive_sweep() -> None:
        for config in grid:
            model.cache.clear()
            analyse(document, config, model, questions)

    def cached_sweep() -> None:
        model.cache.clear()
        sweep(document, questions, model, grid)

    naive = timed(naive_sweep, repeat=1)
    cached = timed(cached_sweep, repeat=1)
    print(f"sweep of {len(grid)} configurations on the seed sample")
    print(f"  naive (fresh cache per config): {naive:7.2f} s")
    print(f"  shared cache:                   {cached:7.2f} s   speed-up x{naive / cached:.1f}")

    config = ChunkerConfig(chunker="sentence", max_chars=220, overlap_sentences=1)
    model.cache.clear()
    base = analyse(document, config, model, questions)

    def cold_analyse() -> None:
        model.cache.clear()
        analyse(document, config, model, questions, RetrievalSettings(floor=0.19))

    full = timed(cold_analyse, repeat=repeat)
    floored = RetrievalSettings(floor=0.19)
    warm = timed(lambda: analyse(document, config, model, questions, floored), repeat=repeat)
    quick = timed(lambda: rescore(base, RetrievalSettings(top_k=2, floor=0.19)), repeat=repeat)
    print("floor change on the seed sample")
    print(f"  analyse, empty cache: {full * 1000:8.2f} ms")
    print(f"  analyse, warm cache:  {warm * 1000:8.2f} ms   speed-up x{full / warm:.1f}")
    print(f"  rescore:              {quick * 1000:8.2f} ms   speed-up x{full / quick:.1f}")


if __name__ == "__main__":
    main()
