"""How fast the app's sweep stops on Cancel (issue 44 item 4: within 3 s; it once took 200 s
on a 1.44 M-character corpus and kept no row).

The app's path: ``run_sweep`` in a ``SweepJob`` thread (what the sweep view starts), on ~1.4 M
characters of real text (the residents' guide, then the other benches' long texts) with
``minilm-en`` and a grid of three recursive sizes; a timer thread presses Cancel
(``SweepJob.cancel``, what the view's button calls) 5 s after the start, or, with
``--cancel-after-rows N``, a watcher presses it as soon as N rows are finished (the sweep
reports each row: the rows finished before Cancel must be kept). Each run has a fresh
memory cache and a fresh disk store (``RAGVIZ_CACHE_DIR`` a new temporary folder), so nothing
is cached. Printed: the seconds from Cancel to the sweep's thread ending, the rows finished
when Cancel was pressed and the rows kept, the chunk texts embedded when Cancel was pressed
(of the grid's distinct texts) and at the end; the median of ``--runs``. Nothing asserted.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from embedding_cache import SAMPLES, real_text
from machine import bench_parser, on_machine

from ragviz.chunking import ChunkerConfig
from ragviz.embedding.base import EmbeddingCache
from ragviz.embedding.disk_cache import DiskCache
from ragviz.embedding.models import Embedder, load_embedder
from ragviz.evaluation.results import RetrievalSettings, SweepResult
from ragviz.evaluation.sweeping import StepReport, Stop, SweepStep, run_sweep, sweep_grid
from ragviz.inputs.questions import LabelledQuestion, parse_questions_csv
from ragviz_app.sweep_job import SweepJob

SIZES = (400, 800, 1200)  # recursive, no overlap: three configurations


@dataclass
class Run:
    stop_seconds: float  # Cancel pressed to the thread ended
    rows: int  # rows finished and kept
    at_cancel: SweepStep | None  # the last progress report when Cancel was pressed
    at_end: SweepStep | None
    complete: bool
    error: str


def main() -> None:
    parser = bench_parser(__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs (the median is printed)")
    parser.add_argument("--chars", type=int, default=1_400_000, help="characters of text")
    parser.add_argument("--after", type=float, default=5.0, help="seconds before Cancel")
    parser.add_argument("--cancel-after-rows", type=int, default=0, metavar="N",
                        help="press Cancel once N rows are finished instead of after a time")
    parser.add_argument("--model", default="minilm-en")
    args = parser.parse_args()
    chars, after, runs, rows = args.chars, args.after, args.runs, args.cancel_after_rows
    if args.smoke:
        chars, after, runs = 20_000, 0.5, 1
    with on_machine(args.smoke), tempfile.TemporaryDirectory(prefix="ragviz-bench-") as folder:
        os.environ["RAGVIZ_CACHE_DIR"] = str(Path(folder) / "shared")  # never the user's
        document = real_text(chars)
        questions = parse_questions_csv((SAMPLES / "residents_guide.csv").read_text("utf-8"))
        grid = sweep_grid(len(document), ["recursive"], SIZES, (0,))
        model = load_embedder(args.model)
        model.encode_documents(["warm-up"])  # the model's first call, not the sweep's
        print(f"sweep of {len(grid)} configurations (recursive {'/'.join(map(str, SIZES))}, "
              f"no overlap) on {len(document):,} characters of real text, {len(questions)} "
              f"questions, {model.name}; Cancel pressed "
              f"{f'once {rows} row(s) finished' if rows else f'{after:g} s after the start'}"
              f", fresh caches each run", flush=True)
        results = []
        for number in range(runs):
            model.cache = EmbeddingCache(disk=DiskCache(Path(folder) / f"run{number}", 10**9))
            results.append(one_run(model, document, questions, grid, after, rows))
            report(number + 1, results[-1])
        times = [r.stop_seconds for r in results]
        print(f"  median of {len(results)}: Cancel to return {statistics.median(times):.2f} s "
              f"(max {max(times):.2f} s; goal <= 3 s), rows finished at Cancel "
              f"{statistics.median(finished(r.at_cancel) for r in results):g}, rows kept "
              f"{statistics.median(r.rows for r in results):g}", flush=True)


def finished(step: SweepStep | None) -> int:
    return 0 if step is None else step.rows_done


def press_after_rows(job: SweepJob, rows: int, cancel: Callable[[], None]) -> threading.Thread:
    """A watcher that presses Cancel as soon as the sweep reports ``rows`` rows finished
    (polled every 10 ms, as long as the sweep runs)."""
    def watch() -> None:
        while job.running and finished(job.step) < rows:
            time.sleep(0.01)
        if job.running:
            cancel()
    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    return watcher


def one_run(model: Embedder, document: str, questions: list[LabelledQuestion],
            grid: list[ChunkerConfig], after: float, rows: int = 0) -> Run:
    """One sweep in the app's job, cancelled ``after`` seconds from its start, or once
    ``rows`` rows are finished."""
    settings = RetrievalSettings()

    def work(report: StepReport, stop: Stop) -> SweepResult:
        return run_sweep(document, questions, model, grid, settings, (), report, stop)

    job = SweepJob("bench", len(grid))
    pressed: dict[str, object] = {}

    def cancel() -> None:
        pressed["step"] = job.step
        pressed["at"] = time.perf_counter()
        job.cancel()

    timer = threading.Timer(after, cancel)
    job.start(work)
    if rows:
        press_after_rows(job, rows, cancel)
    else:
        timer.start()
    job.join()
    ended = time.perf_counter()
    timer.cancel()  # a sweep that ended before the timer: no Cancel
    at = pressed.get("at")
    stop_seconds = ended - at if isinstance(at, float) else float("nan")
    step = pressed.get("step")
    result = job.result
    return Run(stop_seconds, 0 if result is None else len(result.rows),
               step if isinstance(step, SweepStep) else None, job.step,
               result is not None and result.complete,
               "" if job.error is None else type(job.error).__name__)


def texts(step: SweepStep | None) -> str:
    if step is None:
        return "no report yet"
    return f"{step.texts_done:,} of {step.texts_total:,} texts, {step.rows_done} rows"


def report(number: int, run: Run) -> None:
    ended = "ran to its end before Cancel" if run.complete else \
        f"error {run.error}" if run.error else "stopped"
    print(f"  run {number}: Cancel to return {run.stop_seconds:6.2f} s, rows kept {run.rows}, "
          f"at Cancel {texts(run.at_cancel)}, at the end {texts(run.at_end)} ({ended})",
          flush=True)


if __name__ == "__main__":
    main()
