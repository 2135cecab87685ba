"""Loading a large Chroma collection (issue 21): a persistent collection of N chunks with
384-dimension vectors is built once in a temporary folder, then read by ragviz in a fresh
process (``open_index(...).read``, the stored matrix and the duplicate search) whose wall
time and peak RSS are printed. Goal here: 100,000 chunks in <= 30 s and <= 1.5 GB. Nothing
asserted. Usage: ``python bench/index_load.py [N ...] [--smoke]`` (default 20000 100000;
``--smoke``: 500 chunks, once)."""

from __future__ import annotations

import gc
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
from machine import bench_parser, on_machine

BATCH = 5_000
DIMENSION = 384


def build(path: str, count: int) -> float:
    """A collection named ``big`` with ``count`` chunks of about 250 characters."""
    import chromadb

    rng = np.random.default_rng(0)
    collection = chromadb.PersistentClient(path=path).create_collection(
        "big", embedding_function=None)
    started = time.perf_counter()
    for low in range(0, count, BATCH):
        size = min(BATCH, count - low)
        collection.add(ids=[f"c{i}" for i in range(low, low + size)],
                       documents=[f"chunk {i} " + "texto " * 40 for i in range(low, low + size)],
                       embeddings=rng.normal(size=(size, DIMENSION)).astype(np.float32),
                       metadatas=[{"source": "a.txt"}] * size)
    return time.perf_counter() - started


def load(path: str) -> None:
    """Run in the child process: read, stack, search copies; print the figures."""
    from ragviz.evaluation.index_analysis import stored_matrix
    from ragviz.index import open_index
    from ragviz.index.duplicates import duplicate_groups

    started = time.perf_counter()
    reader = open_index(f"chroma:{path}")
    loaded = reader.read("big")
    read = time.perf_counter() - started
    del reader  # its Chroma child ends (and is waited for: RUSAGE_CHILDREN counts it)
    gc.collect()
    stored = stored_matrix(loaded)
    if stored is not None:
        duplicate_groups(stored, [c.text for c in loaded.chunks])
    total = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{len(loaded.chunks):>7,} chunks: read {read:.1f} s, with stored matrix and "
          f"duplicate search {total:.1f} s, peak RSS {peak:.0f} MB "
          f"(the Chroma reader's child: {child:.0f} MB)")


def main(counts: list[int], smoke: bool) -> None:
    with on_machine(smoke):
        for count in counts:
            run(count)


def run(count: int) -> None:
    """Build ``count`` chunks, then read them in a fresh process (its peak RSS is ragviz's)."""
    with tempfile.TemporaryDirectory() as folder:
        seconds = build(folder, count)
        print(f"built {count:,} chunks in {seconds:.1f} s (not ragviz's time)")
        subprocess.run([sys.executable, __file__, "--load", folder], check=True)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--load"]:
        load(sys.argv[2])
    else:
        parser = bench_parser(__doc__)
        parser.add_argument("counts", nargs="*", type=int)
        args = parser.parse_args()
        main([500] if args.smoke else args.counts or [20_000, 100_000], args.smoke)
