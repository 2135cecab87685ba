"""The app on an uploaded production index (issue 21, the app side): a JSONL export of N
chunks with stored 512-dimension vectors is uploaded to the Index source through the real
Streamlit runtime (``AppTest``), with the article's seven questions. Printed: the run that
loads the index, re-embeds every chunk text with the default model (to check the stored
vectors) and scores the questions; a run after top_k moved (rescored from the session's memo,
no model call); and the process's peak RSS. Each size runs in a fresh process, so no
embedding is cached from a previous size. Nothing asserted. Usage:
``python bench/app_index.py [N ...] [--smoke]`` (default 1000 10000, the app's limit;
``--smoke``: 40 chunks)."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from machine import bench_parser, on_machine

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = [s.strip() + "." for p in sorted((ROOT / "sample_docs" / "help_center").glob("*"))
             if p.suffix in {".md", ".txt"} for s in p.read_text(encoding="utf-8").split(".")
             if len(s.strip()) > 40]


def export(count: int) -> bytes:
    """``count`` distinct chunks of three help-centre sentences, random unit vectors."""
    rng = np.random.default_rng(21)
    lines = []
    for i in range(count):
        text = f"Article {i}. " + " ".join(SENTENCES[(i * 3 + k) % len(SENTENCES)]
                                           for k in range(3))
        vector = rng.normal(size=512)
        lines.append(json.dumps({"page_content": text, "metadata": {"source": "help.md"},
                                 "embedding": (vector / np.linalg.norm(vector)).tolist()}))
    return "\n".join(lines).encode()


def measure(count: int) -> None:
    """Run in the child process: upload, first run, a top_k move; print the figures."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "streamlit_app.py"), default_timeout=3600)
    at.run()
    at.radio(key="doc_source").set_value("index")
    at.run()
    at.file_uploader(key="index_upload").set_value(("bench.jsonl", export(count), "x"))
    started = time.perf_counter()
    at.run()
    first = time.perf_counter() - started
    problems = [str(e.value) for e in at.exception]  # (the mismatch sentence is expected)
    at.slider(key="top_k").set_value(3)
    started = time.perf_counter()
    at.run()
    moved = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{count:>6,} chunks: first run {first:.1f} s (load, re-embed, score), top_k moved "
          f"{moved:.2f} s, peak RSS {peak:.0f} MB" + (f"; exceptions: {problems}" if problems
                                                      else ""))


def main(counts: list[int], smoke: bool) -> None:
    with on_machine(smoke):
        for count in counts:
            subprocess.run([sys.executable, __file__, "--measure", str(count)], check=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--measure"]:
        sys.path.insert(0, str(ROOT))
        measure(int(sys.argv[2]))
    else:
        parser = bench_parser(__doc__)
        parser.add_argument("counts", nargs="*", type=int)
        args = parser.parse_args()
        main([40] if args.smoke else args.counts or [1_000, 10_000], args.smoke)
