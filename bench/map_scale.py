"""The Map tab at scale (issue 23): projection time for 500 / 5,000 / 10,000 chunks, PCA and
UMAP, placing 7 questions, and the peak RSS.

Vectors are synthetic unit rows of the bundled model's width (512): 60 topics plus noise, so
UMAP has clusters to find as it would on real chunks; the embedding is not what is measured.
UMAP's first fit in a process also compiles numba code: it is timed on its own (a warm-up on
200 rows) and left out of the per-size figures. Goals: PCA <= 1 s and UMAP <= 60 s at
10,000 chunks. Nothing asserted.
"""

from __future__ import annotations

import resource
import time

import numpy as np
from machine import bench_parser, on_machine

from ragviz.projection import planar

WIDTH = 512
TOPICS = 60


def vectors(n: int, seed: int = 23) -> np.ndarray:
    """``n`` unit rows around ``TOPICS`` topic directions."""
    rng = np.random.default_rng(seed)
    centres = rng.standard_normal((TOPICS, WIDTH))
    rows = centres[rng.integers(0, TOPICS, n)] + 0.8 * rng.standard_normal((n, WIDTH))
    rows = rows.astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(method: str, rows: np.ndarray) -> tuple[float, float, planar.Projection]:
    """Seconds to fit (cache cleared first) and to place 7 questions."""
    planar.CACHE.clear()
    began = time.perf_counter()
    projection = planar.project(rows, method)
    fitted = time.perf_counter() - began
    began = time.perf_counter()
    projection.place(vectors(7, seed=99))
    return fitted, time.perf_counter() - began, projection


def main() -> None:
    args = bench_parser(__doc__).parse_args()
    sizes = (60,) if args.smoke else (500, 5_000, 10_000)
    with on_machine(args.smoke):
        base = rss_mb()
        if not planar.umap_available():
            print(f"UMAP: umap-learn not installed ({planar.MAP_EXTRA}); PCA only")
        else:
            began = time.perf_counter()
            planar.fit_umap(vectors(200, seed=1))
            print(f"UMAP warm-up (numba compiles, once per process): "
                  f"{time.perf_counter() - began:.1f} s on 200 rows")
        for n in sizes:
            rows = vectors(n)
            for method in planar.METHODS:
                if method == planar.UMAP and not planar.umap_available():
                    continue
                fitted, placed, projection = timed(method, rows)
                print(f"{n:>6,} chunks  {method:<4}  fit {fitted:6.2f} s  place 7 questions "
                      f"{placed * 1000:6.1f} ms  ({projection.method})  peak RSS "
                      f"{rss_mb() - base:5.0f} MB above start")


if __name__ == "__main__":
    main()
