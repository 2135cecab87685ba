"""Peak memory of ``ragviz eval`` on the largest allowed document of each hostile shape.

For each bundled model, each shape (no punctuation, one line, CJK, many tiny sentences) at
MAX_DOCUMENT_CHARS characters, and the default sentence chunker and the semantic chunker,
runs the CLI under ``/usr/bin/time -v`` and prints its max RSS minus the max RSS of an idle
process that imported ragviz and loaded the same model (the baseline, same run). The goal
is under 600 MB above idle. Nothing asserted.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import bench_parser, on_machine

from ragviz.inputs.documents import MAX_DOCUMENT_CHARS

ROOT = Path(__file__).resolve().parent.parent
MODELS = ("use-multilingual", "minilm-en")
CHUNKERS = ("sentence", "semantic")
QUESTIONS = "question,answer,answerable\nWhat is the refund deadline?,seven days,yes\n"
WORDS = "refund policy deadline seven days customer request invoice approval office"


def shapes(size: int = MAX_DOCUMENT_CHARS) -> dict[str, str]:
    """Documents of exactly ``size`` characters, one per shape."""
    words = (WORDS + " ") * (size // len(WORDS) + 2)
    sentences = "Ok. Yes. No. Fine. " * (size // 19 + 2)
    lines = "\n".join(f"{WORDS} {i}" for i in range(size // 40 + 2))
    return {
        "no punctuation": lines.replace("\n", " ")[:size],
        "one line": (words.replace("days ", "days, "))[:size],
        "CJK": ("退款期限为七天内请联系客服" * (size // 13 + 2))[:size],
        "tiny sentences": sentences[:size],
    }


def max_rss_mb(command: list[str]) -> tuple[float, float, str]:
    """(max RSS in MB, wall seconds, the refusal if the command refused) of ``command``,
    measured by GNU time."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    started = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", *command], capture_output=True, text=True,
                          env=env, check=False)
    seconds = time.perf_counter() - started
    refusal = ""
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        refusal = next((line for line in lines if "Command being timed" not in line), "?")
    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    assert match, done.stderr[-400:]
    return int(match.group(1)) / 1024, seconds, refusal[:70]


def idle_mb(model: str) -> float:
    code = (f"import ragviz.cli.command; from ragviz.embedding.models import load_embedder; "
            f"load_embedder({model!r}).encode_documents(['warm up'])")
    return max_rss_mb([sys.executable, "-c", code])[0]


def main() -> None:
    args = bench_parser(__doc__).parse_args()
    with on_machine(args.smoke):
        if args.smoke:  # one small document, one model, one chunker
            measure(2_000, MODELS[:1], CHUNKERS[:1], 1)
        else:
            measure(MAX_DOCUMENT_CHARS, MODELS, CHUNKERS, None)


def measure(size: int, models: tuple[str, ...], chunkers: tuple[str, ...],
            shape_count: int | None) -> None:
    with tempfile.TemporaryDirectory() as folder:
        questions = Path(folder) / "q.csv"
        questions.write_text(QUESTIONS, encoding="utf-8")
        paths = {}
        for shape, text in list(shapes(size).items())[:shape_count]:
            paths[shape] = Path(folder) / f"{shape.replace(' ', '_')}.txt"
            paths[shape].write_text(text, encoding="utf-8")
        print(f"peak RSS above idle, ragviz eval on {size:,}-character documents "
              "(goal < 600 MB)")
        print(f"  {'model':<18}{'shape':<16}{'chunker':<10}{'MB above idle':>14}{'s':>7}")
        for model in models:
            idle = idle_mb(model)
            print(f"  {model:<18}{'(idle)':<16}{'':<10}{idle:>11.0f} MB")
            for shape, path in paths.items():
                for chunker in chunkers:
                    command = [sys.executable, "-m", "ragviz.cli.command", "eval", str(path),
                               "--questions", str(questions), "--chunker", chunker,
                               "--model", model]
                    peak, seconds, refusal = max_rss_mb(command)
                    print(f"  {model:<18}{shape:<16}{chunker:<10}{peak - idle:>14.0f}"
                          f"{seconds:>7.0f}  {refusal}", flush=True)


if __name__ == "__main__":
    main()
