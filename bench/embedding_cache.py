"""How much the embedding caches save, measured against a peer in the same run.

In memory: the naive pipeline that embeds every configuration's chunks from scratch (a fresh
cache per configuration) against one cache across the sweep, so each distinct chunk text is
embedded once; and ``rescore`` for a floor or top_k change, against a full ``analyse``.

On disk (issue 38): a first and a second identical ``ragviz eval`` (separate processes, the
same fresh ``RAGVIZ_CACHE_DIR``) on a ~49,000-character file of real text with MiniLM, and the
ratio of the two (goal <= 35 %); and a slider's size steps in one process with the store on
and off (a first visit writes the new chunks' vectors; a revisit is served from memory and
never reads the disk). Prints ratios; no thresholds, nothing asserted.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from chunker_peers import varied_corpus
from machine import bench_parser, load_average, on_machine

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.disk_cache import DiskCache, Item
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
        second_eval(args.smoke)
        slider_steps(args.smoke)


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


def real_text(chars: int) -> str:
    """The residents' guide (its questions are the eval's), then other real text to ``chars``."""
    text = (SAMPLES / "residents_guide.txt").read_text(encoding="utf-8")
    parts, _ = varied_corpus(chars * 4 / 1_000_000)
    for part in parts:
        if len(text) >= chars:
            break
        if part not in text:
            text += "\n\n" + part
    return text[:chars]


def second_eval(smoke: bool) -> None:
    """Two identical ``ragviz eval`` processes on one fresh disk cache: the second's share."""
    chars = 5_000 if smoke else 49_000
    with tempfile.TemporaryDirectory(prefix="ragviz-bench-cache-") as folder:
        document = Path(folder) / "document.txt"
        document.write_text(real_text(chars), encoding="utf-8")
        command = [sys.executable, "-m", "ragviz.cli", "eval", str(document),
                   "--questions", str(SAMPLES / "residents_guide.csv"), "--model", "minilm-en",
                   "--chunker", "fixed", "--size", "800", "--overlap", "400", "--floor", "0.2",
                   "--json"]
        env = {**os.environ, "RAGVIZ_CACHE_DIR": str(Path(folder) / "cache")}
        times, outputs = [], []
        for _ in range(2):
            started = time.perf_counter()
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            times.append(time.perf_counter() - started)
            outputs.append(done.stdout)
        stored = DiskCache(Path(folder) / "cache", 10**9).info()
    same = "identical" if outputs[0] == outputs[1] else "DIFFERENT"
    print(f"ragviz eval twice, {chars:,}-character real text, minilm-en, fixed 800/400, "
          f"one fresh RAGVIZ_CACHE_DIR ({stored.entries:,} vectors stored, outputs {same})")
    print(f"  first (empty cache):  {times[0]:6.2f} s")
    print(f"  second (same run):    {times[1]:6.2f} s   {times[1] / times[0]:.0%} of the first "
          f"(goal <= 35 %), load average now {load_average()}")


def slider_steps(smoke: bool) -> None:
    """A size slider dragged over new sizes, then back over them, with the store off and on
    (the default model; each run a fresh memory cache, the store's a fresh folder), and after
    a restart (a fresh memory cache over the store the run filled)."""
    document = real_text(3_000 if smoke else 20_000)
    sizes = list(range(200, 240 if smoke else 420, 20))
    model = UseMultilingual(cache=EmbeddingCache())
    drag(model, document, sizes)  # untimed: the tokenizer's own caches warm for every mode
    results: dict[str, list[float]] = {}
    inside: list[float] = []  # wall seconds inside the store over a run's first visits
    for _run in range(1 if smoke else 2):
        for mode in ("off", "on"):  # alternated, so the load falls on both alike
            with tempfile.TemporaryDirectory(prefix="ragviz-bench-cache-") as folder:
                store = TimedStore(Path(folder), 10**9) if mode == "on" else None
                model.cache = EmbeddingCache(disk=store or False)
                firsts = drag(model, document, sizes)
                results.setdefault(f"first visit, store {mode}", []).extend(firsts)
                if store is not None:
                    inside.append(store.spent)
                results.setdefault(f"revisit (memory), store {mode}", []).extend(
                    drag(model, document, sizes))
                if store is not None:
                    model.cache = EmbeddingCache(disk=store)
                    results.setdefault("after a restart (from the store)", []).extend(
                        drag(model, document, sizes))
                    store.close()
    print(f"size slider on {len(document):,} characters of real text, {len(sizes)} sizes "
          f"({sizes[0]}-{sizes[-1]}), use-multilingual, median step in CPU time")
    medians = {what: statistics.median(times) for what, times in results.items()}
    against = {"first visit, store on": "first visit, store off",
               "revisit (memory), store on": "revisit (memory), store off",
               "after a restart (from the store)": "first visit, store off"}
    for what, median in medians.items():
        peer = against.get(what)
        ratio = f"   x{median / medians[peer]:.2f} of '{peer}'" if peer else ""
        print(f"  {what:34} {median * 1000:8.1f} ms{ratio}")
    spent = sum(inside) / (len(inside) * len(sizes))
    step = medians["first visit, store off"]
    print(f"  wall time inside the store on a first visit: {spent * 1000:.1f} ms a step, "
          f"{spent / step:.1%} of a step's median CPU time without it (one read of the new "
          "chunks, one write of their vectors; the first step opens the file); a revisit "
          "never reads the store")


class TimedStore(DiskCache):
    """The disk store, adding up the wall time spent inside it (reads and writes)."""

    spent = 0.0

    def _get(self, identity: str, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        started = time.perf_counter()
        try:
            return super()._get(identity, keys)
        finally:
            self.spent += time.perf_counter() - started

    def _put(self, identity: str, name: str, items: Sequence[Item]) -> None:
        started = time.perf_counter()
        try:
            super()._put(identity, name, items)
        finally:
            self.spent += time.perf_counter() - started


def drag(model: UseMultilingual, document: str, sizes: list[int]) -> list[float]:
    """One pass of the slider over ``sizes``: each step's ``analyse`` time, in this process's
    CPU seconds (what the store adds; the wall time follows the shared machine's load)."""
    times = []
    for size in sizes:
        config = ChunkerConfig(chunker="fixed", size=size, overlap=0)
        started = time.process_time()
        analyse(document, config, model, [])
        times.append(time.process_time() - started)
    return times


if __name__ == "__main__":
    main()
