"""How much of a slider drag the background precompute serves from the cache (issue 11,
goal 2), through the real pipeline and the real default model.

A scripted drag: the size slider of A moved STEPS times by one slider step (an arrow key)
on a ~50,000-character document, with an idle gap after each step; the background job
waits the app's idle delay (``DEFAULT_IDLE_SECONDS``) before it starts, as in the app.
Peer, in the same run: the same drag without the background job. For every step: the
share of its chunk texts already embedded (the cache hit rate) and how long its
``analyse`` took.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from pathlib import Path

from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.base import Kind, Vectors
from ragviz.embedding.models import EmbeddingCache, UseMultilingual
from ragviz.evaluation.pipeline import analyse, chunk_document, embedding_text
from ragviz.inputs.questions import parse_questions_csv
from ragviz_app import app_state as state
from ragviz_app.jobs import DEFAULT_IDLE_SECONDS, Precompute, neighbour_values

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_docs"
ARTICLE = Path("/work/shared/seed/000_83e5f4a51228e27c.txt")


class CountingUse(UseMultilingual):
    """The real model, counting the texts the page's thread hands it (cache misses)."""

    foreground = 0

    def _encode(self, texts: list[str], kind: Kind) -> Vectors:
        if threading.current_thread() is threading.main_thread():
            self.foreground += len(texts)
        return super()._encode(texts, kind)


def bench_document(chars: int) -> str:
    """Distinct prose (the README, the samples, the article when present) cut to ``chars``."""
    paths = [ROOT / "README.md", *sorted(SAMPLES.glob("*.txt")), *sorted(SAMPLES.glob("*.md")),
             *sorted((SAMPLES / "help_center").iterdir())]
    texts = [p.read_text(encoding="utf-8") for p in paths]
    if ARTICLE.exists():
        texts.append(ARTICLE.read_text(encoding="utf-8"))
    return "\n\n".join(texts)[:chars]


def neighbours(config: ChunkerConfig, n_chars: int) -> list[ChunkerConfig]:
    spec = next(s for s in state.param_specs(config.chunker, n_chars) if s.name == "size")
    size = config.get("size")
    assert size is not None
    values = neighbour_values(float(size), spec.low, spec.high, spec.step, spec.integer)
    return [ChunkerConfig.create(config.chunker, size=int(v), overlap=0) for v in values]


def drag(document: str, chunker: str, start: int, steps: int, idle: float | None,
         precompute: bool) -> tuple[float, list[float]]:
    """(hit rate over the drag, seconds per step) for one scripted drag on a fresh cache;
    ``idle`` None lets each background job finish before the next step."""
    questions = parse_questions_csv((SAMPLES / "politica_reembolso.csv").read_text("utf-8"))
    model = CountingUse(cache=EmbeddingCache())
    config = ChunkerConfig.create(chunker, size=start, overlap=0)
    analyse(document, config, model, questions)  # the page before the drag
    needed = served = 0
    seconds: list[float] = []
    for step in range(1, steps + 1):
        job = Precompute(document, neighbours(config, len(document)), model,
                         DEFAULT_IDLE_SECONDS).start() if precompute else None
        if job is not None:
            job.join(idle)
            job.cancel()  # the next move stops it; its finished batches stay cached
            job.join()
        config = ChunkerConfig.create(chunker, size=start + step, overlap=0)
        texts = {embedding_text(c) for c in chunk_document(document, config).chunks}
        before = model.foreground
        started = time.perf_counter()
        analyse(document, config, model, questions)
        seconds.append(time.perf_counter() - started)
        needed += len(texts)
        served += len(texts) - (model.foreground - before)
    return served / needed, seconds


def main() -> None:
    found = bench_parser(__doc__)
    found.add_argument("--chars", type=int, default=50_000)
    found.add_argument("--steps", type=int, default=10)
    found.add_argument("--idle", type=float, default=3.0, help="seconds idle after a step")
    args = found.parse_args()
    if args.smoke:  # one step of one chunker on a small document
        args.chars, args.steps = 3_000, 1
    with on_machine(args.smoke):
        drags(args)


def drags(args: argparse.Namespace) -> None:
    document = bench_document(args.chars)
    print(f"slider drag: size +1 x {args.steps} steps on a {len(document):,}-character "
          f"document, idle {args.idle:g} s after each step (use-multilingual)")
    idles = [] if args.smoke else [args.idle, 1.0, 0.3]  # a smoke run: the two ends only
    for chunker, start in (("fixed", 400), ("recursive", 400))[: 1 if args.smoke else 2]:
        runs = {"no precompute": drag(document, chunker, start, args.steps, args.idle, False)}
        for idle in dict.fromkeys(idles):
            runs[f"precompute, idle {idle:g} s"] = drag(document, chunker, start, args.steps,
                                                        idle, True)
        runs["precompute, idle until done"] = drag(document, chunker, start, args.steps, None,
                                                   True)
        peer = statistics.median(runs["no precompute"][1])
        for name, (rate, seconds) in runs.items():
            median = statistics.median(seconds)
            print(f"  {chunker:<9} {name:<28} hit rate {rate:6.1%}   step median "
                  f"{median:6.2f} s   x{peer / median:5.1f} vs no precompute")


if __name__ == "__main__":
    main()
